"""What a Pai Gow setting is worth, exactly: every player hand against every banker hand of the
28 tiles left, the banker setting by the house way.

The 35,960 four-tile hands are 3,620 distinct ones once the two tiles of a pair are one (the
two teens; the mixed nines 4-5 and 3-6, which play alike ...).  Each distinct hand is weighed
by how many of the 35,960 it stands for and plays all 20,475 banker hands of the tiles it
leaves (:func:`sapsam.paigow.kernels.exact_counts`), so every probability here is a ratio of whole
numbers over 35,960 x 20,475 deals.

A bet's value per unit: ``(1 - commission) * P(win) - P(loss)``; the house edge is its
negative.  Not banking, the banker's copies win; banking, the player is the banker (copies win
for the player) against the house's hand set by the house way.
"""

import functools
from dataclasses import dataclass

import numpy as np

from sapsam.paigow.kernels import (
    GROUP,
    HANDS,
    MASKS,
    N_BANKER,
    N_HANDS,
    SETTING_HALVES,
    exact_counts,
    setting_strengths,
    strength,
)

COMMISSIONS = (0.05, 0.0476)
TOTAL = N_HANDS * N_BANKER  # equally likely (player hand, banker hand) deals


@functools.cache
def distinct_hands():
    """(representatives: indices into HANDS, weights, representative of each of the 35,960)."""
    keys = {}
    rep_of = np.empty(N_HANDS, dtype=np.int64)
    reps, weights = [], []
    for i, hand in enumerate(HANDS):
        key = tuple(sorted(GROUP[hand]))
        j = keys.setdefault(key, len(reps))
        if j == len(reps):
            reps.append(i)
            weights.append(0)
        weights[j] += 1
        rep_of[i] = j
    return np.array(reps), np.array(weights, dtype=np.int64), rep_of


@functools.cache
def strengths():
    """(35,960, 3, 2) uint8: every hand's settings' (low, high) strengths."""
    return setting_strengths(HANDS)


def house_way(high_three="chong"):
    """The Foxwoods house way's setting of each of the 35,960 hands (int8).  Its line "lower
    than a high 3" is drawn at a 3 topped by the tile ``high_three``: "chong", the booklet's
    "High 6", or "teen", the 6-6 (:func:`sapsam.paigow.strategy.high_three`)."""
    from sapsam.paigow.strategy import high_three_tile

    return _house_way(high_three_tile(high_three))


@functools.cache
def _house_way(tile):
    from sapsam.paigow.strategy import foxwoods_policy, high_three

    reps, _, rep_of = distinct_hands()
    return foxwoods_policy(HANDS[reps], high_three(tile))[rep_of]


@functools.cache
def banker(high_three="chong"):
    """(low, high) strengths of each of the 35,960 banker hands as the house way sets them."""
    chosen = strengths()[np.arange(N_HANDS), house_way(high_three)]
    return np.ascontiguousarray(chosen[:, 0]), np.ascontiguousarray(chosen[:, 1])


@functools.cache
def counts(banking, high_three="chong"):
    """(3,620, 3, 3) int64: (win, push, loss) of each distinct hand's settings against the
    house way, out of 20,475 banker hands."""
    reps, _, _ = distinct_hands()
    low, high = banker(high_three)
    return exact_counts(strengths()[reps], MASKS[reps], MASKS, low, high, banking)


def values(count, commission):
    """A bet's value per unit for (win, push, loss) counts (last axis), per banker hand."""
    count = np.asarray(count, dtype=np.float64)
    return ((1 - commission) * count[..., 0] - count[..., 2]) / N_BANKER


def optimal(banking, commission, high_three="chong"):
    """The best strategy against the house way, as a policy like :func:`house_way`: the
    setting of each of the 35,960 hands worth most (ties to the lowest setting number)."""
    _, _, rep_of = distinct_hands()
    return np.argmax(values(counts(banking, high_three), commission),
                     axis=-1)[rep_of].astype(np.int8)


@dataclass(frozen=True)
class Row:
    """One line of the house-edge table: exact probabilities and the house edge."""

    strategy: str
    banking: bool
    commission: float
    win: float
    loss: float
    push: float

    @property
    def house_edge(self):
        return self.loss - (1 - self.commission) * self.win

    def to_dict(self):
        return {"strategy": self.strategy, "opponent": "house way", "banking": self.banking,
                "commission": self.commission, "win": self.win, "loss": self.loss,
                "push": self.push, "house_edge": self.house_edge}


def row(strategy, banking, commission, high_three="chong"):
    """The table's row for ``strategy`` ("house way" or "optimal"), against the house way,
    its high 3 topped by ``high_three`` (:func:`house_way`)."""
    reps, weights, _ = distinct_hands()
    if strategy == "house way":
        chosen = house_way(high_three)[reps]
    elif strategy == "optimal":
        chosen = optimal(banking, commission, high_three)[reps]
    else:
        raise ValueError(f"unknown strategy {strategy!r}: use house way or optimal")
    played = counts(banking, high_three)[np.arange(len(reps)), chosen]  # (3620, 3)
    win, push, loss = (float(p) for p in (weights @ played) / TOTAL)  # Python's, as JSON holds them
    return Row(strategy, banking, commission, win, loss, push)


def house_edge_table(high_three="chong"):
    """Every row: strategy (house way, optimal) x banking (no, yes) x commission, the house
    way's high 3 topped by ``high_three`` (:func:`house_way`)."""
    return [row(s, b, c, high_three) for s in ("house way", "optimal") for b in (False, True)
            for c in COMMISSIONS]


@dataclass(frozen=True)
class Choice:
    """One setting of a hand: its (low, high) halves, strengths and exact outcome."""

    setting: int
    low: tuple
    high: tuple
    low_strength: int
    high_strength: int
    win: float
    push: float
    loss: float
    value: float
    house_way: bool
    optimal: bool


def best(tiles, banking=False, commission=0.05):
    """The distinct settings of four tiles (sorted tile indices), best first, each with its
    exact win, push and loss probabilities and value against the house way's banker."""
    from sapsam.paigow.strategy import foxwoods

    if not 0 <= commission < 1:
        raise ValueError(f"commission {commission}: use a fraction from 0 up to 1, such as 0.05")
    hand = np.array(sorted(tiles), dtype=np.uint8)
    mask = np.uint32(sum(1 << int(t) for t in hand))
    mine = setting_strengths(hand[None, :])
    low, high = banker()
    count = exact_counts(mine, np.array([mask], dtype=np.uint32), MASKS, low, high, banking)[0]
    worth = values(count, commission)
    halves = [(hand[SETTING_HALVES[k][:2]], hand[SETTING_HALVES[k][2:]]) for k in range(3)]
    keys = [frozenset(tuple(sorted(GROUP[h])) for h in pair) for pair in halves]
    house, top = keys[foxwoods(hand)[0]], keys[int(np.argmax(worth))]
    out = []
    for k in range(3):
        if keys[k] in keys[:k]:
            continue  # the same setting as an earlier one (alike tiles swapped)
        a, b = (tuple(int(t) for t in h) for h in halves[k])
        if strength(*a) > strength(*b):
            a, b = b, a
        win, push, loss = (float(p) for p in count[k] / N_BANKER)
        out.append(Choice(k, a, b, int(mine[0, k, 0]), int(mine[0, k, 1]), win, push, loss,
                          float(worth[k]), keys[k] == house, keys[k] == top))
    return sorted(out, key=lambda c: -c.value)


def compiled_kernels():
    """The Numba kernels Pai Gow's commands compile (:func:`sapsam.base.jit.cached` checks)."""
    from sapsam.paigow.kernels import counts_chunk

    return strength, setting_strengths, counts_chunk


def warm():
    """Compile (or load) them on a tiny run (``sapsam compile``)."""
    house_edge_table()
