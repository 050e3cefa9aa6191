"""Deuce-to-seven low: a 5-card hand's strength as a low hand, for the ``low-middle`` variant
(issue 18), at the speed of the high scale (:mod:`sapsam.kernels.evaluate`).

In 2-7 low the hands rank as in high poker turned upside down: the best low is 7-5-4-3-2 of
mixed suits, pairs, straights and flushes count against a hand, and the ace is always high,
so A-5-4-3-2 is no straight but an ace-high hand (worse than any king-high).

Strength is a dense ordinal ``0 .. 7461``, **higher is the better low**: 7-5-4-3-2 is 7461,
royal flush 0.  It is the position of the hand's high-poker class, ordered without the
wheel straight, counted from the top.  The look-up is the high scale's: a collision-free key
of the rank multiset into a table, and the 13-bit rank mask for flushes.
"""

import numpy as np
from numba import prange

from sapsam.kernels.compiler import njit
from sapsam.kernels.evaluate import (
    CARD_WEIGHT,
    FLUSH,
    FLUSH5,
    HIGH_CARD,
    NONFLUSH5,
    ORDINAL_TO_PACKED,
    STRENGTH_DTYPE,
    THREE_CARD,
    packed_of_ranks,
)

N_LOW = 7462
_WHEEL_RANKS = {12, 3, 2, 1, 0}


def packed_low(ranks, flush=False):
    """High-poker packed value of five ranks with no wheel straight (plain Python)."""
    if set(ranks) == _WHEEL_RANKS:  # A-5-4-3-2: ace high, no straight
        category = FLUSH if flush else HIGH_CARD
        value = category
        for nibble in (13, 4, 3, 2, 1):
            value = (value << 4) | nibble
        return value
    return packed_of_ranks(list(ranks), flush)


def _build_tables():
    """The high scale's tables (:mod:`sapsam.kernels.evaluate`) read as lows: its five-card
    classes with the wheel straight (and straight flush) taken as ace-high (a flush), counted
    from the top; a table's empty entries (0, a front's strength there) stay 0."""
    high = ORDINAL_TO_PACKED.astype(np.int64)
    for flush in (False, True):
        high[high == packed_of_ranks(list(_WHEEL_RANKS), flush)] = packed_low(_WHEEL_RANKS, flush)
    ordered = np.unique(high[~THREE_CARD])  # sorted
    assert len(ordered) == N_LOW
    low = (N_LOW - 1 - np.searchsorted(ordered, high)).astype(np.uint16)  # of each high ordinal
    nonflush = np.where(NONFLUSH5 > 0, low[NONFLUSH5], 0).astype(np.uint16)
    flush = np.where(FLUSH5 > 0, low[FLUSH5], 0).astype(np.uint16)
    return nonflush, flush, ordered[::-1].copy()  # a low strength's high-poker packed value


LOW_NONFLUSH5, LOW_FLUSH5, LOW_TO_PACKED = _build_tables()


@njit(cache=True, inline="always")
def eval5_low(c0, c1, c2, c3, c4):
    """2-7 low strength of five distinct card codes (higher is the better low)."""
    if ((c0 ^ c1) | (c0 ^ c2) | (c0 ^ c3) | (c0 ^ c4)) & 3 == 0:
        mask = (1 << (c0 >> 2)) | (1 << (c1 >> 2)) | (1 << (c2 >> 2)) | (1 << (c3 >> 2)) | (1 << (c4 >> 2))
        return np.int16(LOW_FLUSH5[mask])
    key = CARD_WEIGHT[c0] + CARD_WEIGHT[c1] + CARD_WEIGHT[c2] + CARD_WEIGHT[c3] + CARD_WEIGHT[c4]
    return np.int16(LOW_NONFLUSH5[key])


# two functions, not two njit of one: they would share Numba's cache entry (evaluate.py's rank5)
@njit(cache=True, parallel=True)
def _rank5_low_parallel(cards, out):
    for i in prange(cards.shape[0]):
        out[i] = eval5_low(cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4])


@njit(cache=True)
def _rank5_low_serial(cards, out):
    for i in range(cards.shape[0]):
        out[i] = eval5_low(cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4])


def rank5_low(cards, parallel=True):
    """2-7 low strengths of 5-card hands: ``cards`` ndarray(uint8), shape (n, 5), distinct
    codes per row -> ndarray(int16), shape (n,)."""
    out = np.empty(cards.shape[0], dtype=STRENGTH_DTYPE)
    (_rank5_low_parallel if parallel else _rank5_low_serial)(cards, out)
    return out
