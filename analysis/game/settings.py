"""Ways to set a 13-card hand: all splits, the legal ones, and the Pareto frontier.

Thin wrappers over :mod:`sapsam.kernels.settings` (and :mod:`sapsam.kernels.low_settings` when the middle
plays as a 2-7 low): they validate and sort the hand, call the kernel and return cards and
strengths a person (or a report) can use.  ``wheel_rank``, ``middle`` and ``order`` are a
ruleset's (:func:`scales`)::

    frontier = pareto_frontier("As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d")
    print(frontier.legal, frontier.distinct, [m.text for m in frontier.members])
"""

from dataclasses import dataclass

import numpy as np

from sapsam.game.cards import as_hands, card_codes, format_cards, format_setting, parse_hand
from sapsam.game.hands import describe, describe_low, rank5_low, setting_strengths
from sapsam.kernels import low_settings as _low
from sapsam.kernels import settings as _st
from sapsam.kernels import settle as _settle

N_SPLITS = _st.N_SPLITS


def sorted_hand(hand):
    """A 13-card hand (text or codes) as sorted ndarray(uint8), shape (13,)."""
    if isinstance(hand, str):
        return np.sort(parse_hand(hand))
    if np.ndim(hand) == 0:
        raise ValueError(f"expected a hand of 13 cards, as text ('As Kd Qh ...') or 13 card codes, got {hand!r}")
    if np.ndim(hand) != 1:
        raise ValueError(f"expected one hand of 13 cards, got an array of shape {np.shape(hand)}; "
                         "use pareto_frontier_batch for many hands")
    cards = card_codes(hand, "hand")  # a list of cards as text, or codes
    if len(cards) != 13:
        raise ValueError(f"hand needs 13 cards, got {len(cards)}: {format_cards(cards)}")
    return np.sort(cards)


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
    low_middle: bool = False  # the middle's strength is a 2-7 low's

    @property
    def text(self):
        """``front | middle | back``."""
        return format_setting(self.front, self.middle, self.back)

    def describe(self):
        """The three rows in words, front first (standard hand order)."""
        from sapsam.game.hands import rank3, rank5

        middle = describe_low(self.strengths[1]) if self.low_middle else describe(rank5(self.middle)[0])
        return describe(rank3(self.front)[0]), middle, describe(rank5(self.back)[0])


@dataclass(frozen=True)
class Frontier:
    """The Pareto frontier of one hand with the counts behind it."""

    hand: np.ndarray  # sorted, shape (13,)
    legal: int  # legal splits out of 72,072
    distinct: int  # distinct strength triples among the legal splits
    members: tuple  # Settings, one per non-dominated strength triple


def setting_rows(front, middle, back, rules):
    """(strength triple on the ruleset's scales, legal) of a setting given as card rows.
    Legal: back >= middle >= front; with a low middle, back >= front, and for
    ``order = "high-order"`` the middle's high value between them too."""
    f, m, b = setting_strengths(front, middle, back, rules.wheel_rank)
    if not rules.low_middle:
        return (f, m, b), b >= m >= f
    legal = b >= f and (str(rules.middle.order) != "high-order" or b >= m >= f)
    return (f, int(rank5_low(middle)[0]), b), legal


def settled_rows(front, middle, back, rules):
    """(the triple a setting is settled with, legal): its own strength triple, or
    :data:`sapsam.kernels.settle.FOUL_ROWS` for a foul the triple cannot show (a low middle out of
    the high order), since settlement judges a foul from the triple alone."""
    rows, legal = setting_rows(front, middle, back, rules)
    hidden = not legal and rules.low_middle and rows[2] >= rows[0]  # fouled by the high order
    return (_settle.FOUL_ROWS if hidden else rows), legal


def scales(rules):
    """A ruleset's keywords for the functions here: its wheel rank, how its middle plays and,
    for a low middle, what a legal setting is."""
    return {"wheel_rank": str(rules.wheel_rank), "middle": str(rules.middle.plays),
            "order": str(rules.middle.order)}


def _split_table(cards, wheel_rank, middle, order):
    """(strength triples (72072, 3), legal (72072,)) of a sorted hand."""
    wheel = _wheel_second(wheel_rank)
    if _low_middle(middle, order):
        return _low.low_split_strengths(cards, wheel, order == "high-order")
    rows = _st.split_strengths(cards, wheel)
    return rows, (rows[:, 2] >= rows[:, 1]) & (rows[:, 1] >= rows[:, 0])


def split_strengths(hand, wheel_rank="ace-low", middle="high", order="back-over-front"):
    """Strength triples of all 72,072 splits of a hand: ndarray(int16), shape (72072, 3)."""
    return _split_table(sorted_hand(hand), wheel_rank, middle, order)[0]


def legal_splits(hand, wheel_rank="ace-low", middle="high", order="back-over-front"):
    """Split indices (ascending) of the legal settings: back >= middle >= front (with a low
    middle: back >= front, and the middle's high value between them for ``high-order``)."""
    return np.flatnonzero(_split_table(sorted_hand(hand), wheel_rank, middle, order)[1])


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


def pareto_frontier(hand, wheel_rank="ace-low", middle="high", order="back-over-front"):
    """The legal settings no other legal setting matches or beats in every row.

    One representative per distinct strength triple: the smallest split index of the
    sorted hand; ``Setting.equivalent`` says how many legal settings share its triple.

    Parameters
    ----------
    hand : str or array-like of 13 card codes
    wheel_rank : {"ace-low", "second"}
        Where A-2-3-4-5 ranks among straights (RULES.md A1).
    middle, order : str
        ``"deuce-to-seven"`` plays the middle as a 2-7 low, and then ``order`` says what is
        legal (``"back-over-front"`` or ``"high-order"``; a ruleset's ``[middle]``).
    """
    cards = sorted_hand(hand)
    wheel = _wheel_second(wheel_rank)
    low = _low_middle(middle, order)
    if low:
        legal, splits, rows = _low.low_pareto_frontier(cards, wheel, order == "high-order")
    else:
        legal, splits, rows = _st.pareto_frontier(cards, wheel)
    all_rows, ok = _split_table(cards, wheel_rank, middle, order)
    keys = (all_rows[ok].astype(np.int64) << np.array([26, 13, 0])).sum(axis=1)
    unique, counts = np.unique(keys, return_counts=True)
    member_keys = (rows.astype(np.int64) << np.array([26, 13, 0])).sum(axis=1)
    equivalent = counts[np.searchsorted(unique, member_keys)]
    members = tuple(
        Setting(int(s), *split_cards(cards, s), tuple(int(v) for v in r), int(e), low)
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


def _low_middle(middle, order):
    if middle not in ("high", "deuce-to-seven"):
        raise ValueError(f"middle must be 'high' or 'deuce-to-seven', got {middle!r}")
    if order not in ("back-over-front", "high-order"):
        raise ValueError(f"order must be 'back-over-front' or 'high-order', got {order!r}")
    return middle == "deuce-to-seven"


def _wheel_second(wheel_rank):
    if wheel_rank not in ("ace-low", "second"):
        raise ValueError(f"wheel_rank must be 'ace-low' or 'second', got {wheel_rank!r}")
    return wheel_rank == "second"


__all__ = ["Frontier", "Setting", "legal_splits", "pareto_frontier", "pareto_frontier_batch",
           "scales", "setting_rows", "settled_rows", "split_cards", "split_strengths",
           "split_strengths_batch", "sorted_hand"]
