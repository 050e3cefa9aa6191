"""Pai Gow Poker's hands: 53 cards, a 5-card high hand with the joker, a 2-card low hand.

Cards are the core's ``uint8`` codes ``rank * 4 + suit`` (0 .. 51) and the joker, code 52
(:data:`JOKER`).  The joker plays as an ace, or as any card that completes a straight, a
flush or a straight flush; four aces and the joker are *five aces*, above every straight
flush.  In a low hand the joker is an ace.

Strengths here are *dense*: a high hand is ``0 .. 7462`` over the 7,462 five-card classes of
:mod:`sapsam.kernels.evaluate` plus five aces (7,462), in the order a :class:`Scale` gives
(A-2-3-4-5 lowest, or second only to the broadway straight, as most casinos rank it); a low
hand is ``0 .. 90`` over the 78 unpaired and 13 paired two-card hands.  A high hand must
outrank the low hand beside it: both carry the core's packed form (category, then ranks, a
missing kicker lowest), which compares the two (``high_packed[h] > low_packed[l]``).

The joker's high hands are a table over the 270,725 sets of four other cards (colex index,
:data:`BINOM`), built once per scale by :func:`joker_table`; every other 5-card hand is the
core's :func:`~sapsam.kernels.evaluate.eval5` through the scale.
"""

from collections import namedtuple
from math import comb

import numpy as np

from sapsam.kernels.compiler import njit
from sapsam.kernels.evaluate import (
    FLUSH,
    N_STRENGTHS,
    ORDINAL_TO_PACKED,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_CARD,
    WHEEL_SECOND,
    eval5,
)

JOKER = 52
N_CARDS = 53
ACE = 12
FIVE_ACES = 9  # the category above a straight flush
FIVE_ACES_ORDINAL = N_STRENGTHS  # the core's ordinals end at 7,916; five aces is 7,917
N_HIGH = 7463
N_LOW = 91
BINOM = np.array([[comb(n, k) for k in range(8)] for n in range(N_CARDS + 1)], dtype=np.int64)

# a scale: the core's ordinal (and 7,917 for five aces) -> dense high strength; per dense
# strength its packed form and its category (FIVE_ACES for five aces)
Scale = namedtuple("Scale", "dense packed category")


def _low_tables():
    keys = sorted({(hi == lo, hi, lo) for hi in range(13) for lo in range(hi + 1)})
    index = np.full(13 * 13, -1, dtype=np.int16)
    packed = np.empty(len(keys), dtype=np.int64)
    for i, (pair, hi, lo) in enumerate(keys):
        index[hi * 13 + lo] = index[lo * 13 + hi] = i
        packed[i] = (1 << 20 | (hi + 1) << 16) if pair else ((hi + 1) << 16 | (lo + 1) << 12)
    return index, packed


LOW_INDEX, LOW_PACKED = _low_tables()  # (rank, rank) -> dense low; its packed form
LOW_PAIR = N_LOW - 13  # dense lows from here up are pairs: LOW_PAIR + rank


def make_scale(wheel_second=True):
    """The dense high-hand scale: ``wheel_second`` ranks A-2-3-4-5 just below A-K-Q-J-T (the
    common casino rule) rather than lowest."""
    order = WHEEL_SECOND if wheel_second else np.arange(N_STRENGTHS)
    five = [o for o in range(N_STRENGTHS) if not THREE_CARD[o]]
    five.sort(key=lambda o: int(order[o]))
    dense = np.full(N_STRENGTHS + 1, -1, dtype=np.int16)
    dense[five] = np.arange(len(five))
    dense[FIVE_ACES_ORDINAL] = len(five)
    packed = np.append(ORDINAL_TO_PACKED[five].astype(np.int64), FIVE_ACES << 20)
    category = (packed >> 20).astype(np.int8)
    return Scale(dense, packed, category)


@njit(cache=True, inline="always")
def low_strength(a, b):
    """Dense strength of the low hand ``a b`` (the joker, 52, is an ace)."""
    return LOW_INDEX[min(np.int64(a) >> 2, ACE) * 13 + min(np.int64(b) >> 2, ACE)]


@njit(cache=True)
def _joker_best(c, dense, category):
    """Best dense strength of four card codes ``c`` (< 52, distinct) and the joker."""
    aces = 0
    for i in range(4):
        aces += (c[i] >> 2) == ACE
    if aces == 4:
        return dense[FIVE_ACES_ORDINAL]
    best = -1
    for card in range(52):
        if card == c[0] or card == c[1] or card == c[2] or card == c[3]:
            continue
        s = dense[eval5(c[0], c[1], c[2], c[3], np.uint8(card))]
        kind = category[s]
        if (card >> 2) == ACE or kind == STRAIGHT or kind == FLUSH or kind == STRAIGHT_FLUSH:
            best = max(best, s)
    return best


@njit(cache=True)
def _joker_table(dense, category, out):
    c = np.empty(4, dtype=np.uint8)
    for d in range(3, 52):
        for cc in range(2, d):
            for b in range(1, cc):
                for a in range(b):
                    c[0], c[1], c[2], c[3] = a, b, cc, d
                    out[BINOM[a, 1] + BINOM[b, 2] + BINOM[cc, 3] + BINOM[d, 4]] = \
                        _joker_best(c, dense, category)


def joker_table(scale):
    """ndarray(int16), shape (270725,): the dense high strength of each four cards (< 52,
    colex index ``C(a,1) + C(b,2) + C(c,3) + C(d,4)``, a < b < c < d) with the joker."""
    out = np.empty(comb(52, 4), dtype=np.int16)
    _joker_table(scale.dense, scale.category, out)
    return out


@njit(cache=True, inline="always")
def high_strength(a, b, c, d, e, dense, joker):
    """Dense strength of five distinct cards in ascending order (so the joker is last)."""
    if e == JOKER:
        return joker[BINOM[a, 1] + BINOM[b, 2] + BINOM[c, 3] + BINOM[d, 4]]
    return dense[eval5(a, b, c, d, e)]


@njit(cache=True)
def _best_of_seven(hands, dense, joker, category, out):
    """Count by category (0 .. 9) of each hand's best 5 of 7: ``out`` int64, shape (10,)."""
    for i in range(hands.shape[0]):
        out[category[_best5(hands[i], dense, joker)]] += 1


@njit(cache=True, inline="always")
def _best5(h, dense, joker):
    best = -1
    for i in range(6):
        for j in range(i + 1, 7):
            c = np.empty(5, dtype=np.uint8)
            k = 0
            for m in range(7):
                if m != i and m != j:
                    c[k] = h[m]
                    k += 1
            best = max(best, high_strength(c[0], c[1], c[2], c[3], c[4], dense, joker))
    return best
