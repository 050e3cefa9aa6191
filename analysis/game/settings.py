"""Ways to set a 13-card hand: all splits, the legal ones, and the Pareto frontier.

Thin wrappers over :mod:`kernels.settings`: they validate and sort the hand, call the
kernel and return cards and strengths a person (or a report) can use::

    frontier = pareto_frontier("As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d")
    print(frontier.legal, frontier.distinct, [m.text for m in frontier.members])
"""

from dataclasses import dataclass

import numpy as np

from analysis.game.cards import as_hands, format_setting, parse_hand
from analysis.game.hands import describe
from kernels import settings as _st

N_SPLITS = _st.N_SPLITS


def sorted_hand(hand):
    """A 13-card hand (text or codes) as sorted ndarray(uint8), shape (13,)."""
    if isinstance(hand, str):
        return np.sort(parse_hand(hand))
    if np.ndim(hand) != 1:
        raise ValueError(f"expected one hand of 13 cards, got an array of shape {np.shape(hand)}; "
                         "use pareto_frontier_batch for many hands")
    return np.sort(as_hands(hand, 13)[0])


def split_cards(hand, split):
    """Cards of split ``split`` of a sorted hand: (front (3,), middle (5,), back (5,))."""
    f, m, b = _st.SPLIT_ROWS[int(split)]
    return (hand[_st.FRONT_POSITIONS[f]], hand[_st.FIVE_POSITIONS[m]], hand[_st.FIVE_POSITIONS[b]])


@dataclass(frozen=True)
class Setting:
    """One way to set a hand: its cards by row, split index and strength triple."""

    split: int
    front: np.ndarray
    middle: np.ndarray
    back: np.ndarray
    strengths: tuple  # (front, middle, back) strength ordinals on the ruleset's scale
    equivalent: int = 1  # legal settings (this one included) with the same strength triple

    @property
    def text(self):
        """``front | middle | back``."""
        return format_setting(self.front, self.middle, self.back)

    def describe(self):
        """The three rows in words, front first (standard hand order)."""
        from analysis.game.hands import rank3, rank5

        return (describe(rank3(self.front)[0]), describe(rank5(self.middle)[0]),
                describe(rank5(self.back)[0]))


@dataclass(frozen=True)
class Frontier:
    """The Pareto frontier of one hand with the counts behind it."""

    hand: np.ndarray  # sorted, shape (13,)
    legal: int  # legal splits out of 72,072
    distinct: int  # distinct strength triples among the legal splits
    members: tuple  # Settings, one per non-dominated strength triple


def split_strengths(hand, wheel_rank="ace-low"):
    """Strength triples of all 72,072 splits of a hand: ndarray(int16), shape (72072, 3)."""
    return _st.split_strengths(sorted_hand(hand), _wheel_second(wheel_rank))


def legal_splits(hand, wheel_rank="ace-low"):
    """Split indices (ascending) of the legal settings: back >= middle >= front."""
    rows = split_strengths(hand, wheel_rank)
    return np.flatnonzero((rows[:, 2] >= rows[:, 1]) & (rows[:, 1] >= rows[:, 0]))


def split_strengths_batch(hands, wheel_rank="ace-low"):
    """All 72,072 splits of many hands at once, in parallel.

    Parameters
    ----------
    hands : array-like, shape (n, 13)
        Card codes; each row is sorted here (split indices refer to the sorted rows).

    Returns
    -------
    hands : ndarray(uint8), shape (n, 13)
        The sorted hands.
    rows : ndarray(int16), shape (n, 72072, 3)
        Strength triple of every split.
    legal : ndarray(bool), shape (n, 72072)
        Back >= middle >= front.
    """
    cards = np.sort(as_hands(hands, 13), axis=1)
    return (cards, *_st.split_strengths_batch(cards, _wheel_second(wheel_rank)))


def pareto_frontier(hand, wheel_rank="ace-low"):
    """The legal settings no other legal setting matches or beats in every row.

    One representative per distinct strength triple: the smallest split index of the
    sorted hand; ``Setting.equivalent`` says how many legal settings share its triple.

    Parameters
    ----------
    hand : str or array-like of 13 card codes
    wheel_rank : {"ace-low", "second"}
        Where A-2-3-4-5 ranks among straights (RULES.md A1).
    """
    cards = sorted_hand(hand)
    wheel = _wheel_second(wheel_rank)
    legal, splits, rows = _st.pareto_frontier(cards, wheel)
    all_rows = _st.split_strengths(cards, wheel).astype(np.int64)
    ok = (all_rows[:, 2] >= all_rows[:, 1]) & (all_rows[:, 1] >= all_rows[:, 0])
    keys = (all_rows[ok] << np.array([26, 13, 0])).sum(axis=1)
    unique, counts = np.unique(keys, return_counts=True)
    member_keys = (rows.astype(np.int64) << np.array([26, 13, 0])).sum(axis=1)
    equivalent = counts[np.searchsorted(unique, member_keys)]
    members = tuple(
        Setting(int(s), *split_cards(cards, s), tuple(int(v) for v in r), int(e))
        for s, r, e in zip(splits, rows, equivalent)
    )
    return Frontier(cards, int(legal), len(unique), members)


def pareto_frontier_batch(hands, wheel_rank="ace-low", parallel=True):
    """Frontiers of many hands at once, in parallel.

    Parameters
    ----------
    hands : array-like, shape (n, 13)
        Card codes; each row is sorted here (split indices refer to the sorted rows).

    Returns
    -------
    hands : ndarray(uint8), shape (n, 13)
        The sorted hands.
    legal : ndarray(int64), shape (n,)
    offsets : ndarray(int64), shape (n + 1,)
        Hand ``i``'s members are rows ``offsets[i]:offsets[i + 1]`` of the next two.
    splits : ndarray(int32), shape (total,)
    rows : ndarray(int16), shape (total, 3)
    """
    cards = np.sort(as_hands(hands, 13), axis=1)
    return (cards, *_st.pareto_frontier_batch(cards, _wheel_second(wheel_rank), parallel=parallel))


def _wheel_second(wheel_rank):
    if wheel_rank not in ("ace-low", "second"):
        raise ValueError(f"wheel_rank must be 'ace-low' or 'second', got {wheel_rank!r}")
    return wheel_rank == "second"


__all__ = ["Frontier", "Setting", "legal_splits", "pareto_frontier", "pareto_frontier_batch",
           "split_cards", "split_strengths", "split_strengths_batch", "sorted_hand"]
