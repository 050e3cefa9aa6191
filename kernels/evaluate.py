"""Exact 3- and 5-card hand evaluation on one strength scale.

Cards are ``uint8`` codes ``rank * 4 + suit`` (rank 0 = deuce .. 12 = ace; suits c, d, h, s).

Strength is a *dense ordinal*: ``0 .. 7916`` over every 3-card and 5-card hand class, higher
is better, equal means tie.  Fronts and 5-card hands share the scale, a front's missing
kickers ranking lowest (RULES.md A1), so ``K-K-5 < K-K-A-Q-J`` and ``K-K-A > K-K-Q-J-T``.

The *packed* form ``category << 20 | five 4-bit rank nibbles`` (most significant first,
nibble = rank + 1, 0 = absent) is order-preserving too and easy to decode; the ordinal is
the packed value's position in the sorted list of all 7,917 packed values.  Straights keep
their five ranks in straight order, the wheel's ace as nibble 0 (``5 4 3 2 A -> 4 3 2 1 0``).

How it is fast: a 5-card hand's rank multiset is turned into a collision-free key by adding
per-rank weights (found greedily so that every multiset of at most five ranks, four of a
kind at most, has its own sum); the key indexes a 722 KB ``uint16`` table of ordinals.
Flushes index an 8,192-entry table by their 13-bit rank mask.  Tables are built at import
from first principles and are module-level constants below 1 MB, so ``cache=True`` works.
"""

from collections import Counter
from itertools import combinations, combinations_with_replacement

import numpy as np
from numba import prange

from sapsam.kernels.compiler import njit

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
N_CATEGORIES = 9
N_STRENGTHS = 7917  # 7,462 five-card classes + 455 three-card classes
STRENGTH_DTYPE = np.int16

# Weights whose sums are distinct over all multisets of <= 5 ranks with counts <= 4
# (greedy: each weight is the smallest that keeps every sum unique; see tests).
RANK_WEIGHTS = np.array(
    [0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415], dtype=np.int32
)
ACE = 12  # an ace's rank (a card code >> 2)
_WHEEL = (ACE, 3, 2, 1, 0)


def _pack(category, nibbles):
    value = category
    padded = list(nibbles) + [0] * (5 - len(nibbles))
    for nib in padded:
        value = (value << 4) | nib
    return value


def packed_of_ranks(ranks, flush=False):
    """Packed strength of 3 or 5 ranks (plain Python; used to build the tables)."""
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(c for _, c in groups)
    nibbles = [r + 1 for r, _ in groups]
    if len(ranks) == 5 and len(counts) == 5:
        desc = sorted(ranks, reverse=True)
        straight = desc[0] - desc[4] == 4 or tuple(desc) == _WHEEL
        if straight:
            nib = [r + 1 for r in desc] if desc[0] - desc[4] == 4 else [4, 3, 2, 1, 0]
            return _pack(STRAIGHT_FLUSH if flush else STRAIGHT, nib)
        return _pack(FLUSH if flush else HIGH_CARD, nibbles)
    category = {
        (1, 1, 1): HIGH_CARD, (2, 1): PAIR, (3,): TRIPS,
        (2, 1, 1, 1): PAIR, (2, 2, 1): TWO_PAIR, (3, 1, 1): TRIPS,
        (3, 2): FULL_HOUSE, (4, 1): QUADS,
    }[shape]
    return _pack(category, nibbles)


def _build_tables():
    five = [m for m in combinations_with_replacement(range(13), 5) if m[0] != m[4]]  # four of a rank at most
    distinct5 = list(combinations(range(13), 5))
    three = list(combinations_with_replacement(range(13), 3))
    packed5 = np.array([packed_of_ranks(m) for m in five], dtype=np.int32)
    packed_flush = np.array([packed_of_ranks(m, flush=True) for m in distinct5], dtype=np.int32)
    packed3 = np.array([packed_of_ranks(m) for m in three], dtype=np.int32)
    ordered = np.unique(np.concatenate([packed5, packed_flush, packed3]))  # sorted
    assert len(ordered) == N_STRENGTHS

    keys = RANK_WEIGHTS[np.array(five)].sum(axis=1)
    nonflush = np.zeros(keys.max() + 1, dtype=np.uint16)
    nonflush[keys] = np.searchsorted(ordered, packed5)
    flush = np.zeros(1 << 13, dtype=np.uint16)
    flush[(1 << np.array(distinct5)).sum(axis=1)] = np.searchsorted(ordered, packed_flush)
    table3 = np.zeros(13 * 13 * 13, dtype=np.uint16)
    for m, p in zip(three, np.searchsorted(ordered, packed3)):
        for a, b, c in {(m[0], m[1], m[2]), (m[0], m[2], m[1]), (m[1], m[0], m[2]),
                        (m[1], m[2], m[0]), (m[2], m[0], m[1]), (m[2], m[1], m[0])}:
            table3[(a * 13 + b) * 13 + c] = p
    return ordered, nonflush, flush, table3


ORDINAL_TO_PACKED, NONFLUSH5, FLUSH5, RANK3_TABLE = _build_tables()
CATEGORY_OF = (ORDINAL_TO_PACKED >> 20).astype(np.int8)
THREE_CARD = np.zeros(N_STRENGTHS, np.bool_)  # the 455 strengths a front can have; the rest are five-card
THREE_CARD[np.unique(RANK3_TABLE)] = True
CARD_WEIGHT = np.repeat(RANK_WEIGHTS, 4).astype(np.int32)


def _wheel_second_permutation():
    """Ordinal remap for ``wheel_rank = "second"``: A-2-3-4-5 just below 10-J-Q-K-A."""
    order = list(range(N_STRENGTHS))
    for category in (STRAIGHT, STRAIGHT_FLUSH):
        wheel = int(np.searchsorted(ORDINAL_TO_PACKED, _pack(category, [4, 3, 2, 1, 0])))
        broadway = int(np.searchsorted(ORDINAL_TO_PACKED, _pack(category, [13, 12, 11, 10, 9])))
        order.remove(wheel)
        order.insert(order.index(broadway), wheel)
    remap = np.empty(N_STRENGTHS, dtype=np.int16)
    remap[order] = np.arange(N_STRENGTHS)
    return remap


WHEEL_SECOND = _wheel_second_permutation()


@njit(cache=True, inline="always")
def is_ace(card):
    """Whether a card code is an ace (``count += is_ace(c)`` counts a hand's aces)."""
    return (card >> 2) == ACE


@njit(cache=True, inline="always")
def eval5(c0, c1, c2, c3, c4):
    """Strength ordinal of five distinct card codes."""
    if ((c0 ^ c1) | (c0 ^ c2) | (c0 ^ c3) | (c0 ^ c4)) & 3 == 0:
        mask = (1 << (c0 >> 2)) | (1 << (c1 >> 2)) | (1 << (c2 >> 2)) | (1 << (c3 >> 2)) | (1 << (c4 >> 2))
        return np.int16(FLUSH5[mask])
    key = CARD_WEIGHT[c0] + CARD_WEIGHT[c1] + CARD_WEIGHT[c2] + CARD_WEIGHT[c3] + CARD_WEIGHT[c4]
    return np.int16(NONFLUSH5[key])


@njit(cache=True, inline="always")
def eval3(c0, c1, c2):
    """Strength ordinal of three distinct card codes (a front)."""
    return np.int16(RANK3_TABLE[((c0 >> 2) * 13 + (c1 >> 2)) * 13 + (c2 >> 2)])


# The serial and parallel loops are functions of their own, not two njit of one body: Numba
# names a cache file after the function, so two dispatchers of one function share an entry per
# signature and load each other's code (the parallel evaluation ran on one thread).
@njit(cache=True, parallel=True)
def _rank5_parallel(cards, out):
    for i in prange(cards.shape[0]):
        out[i] = eval5(cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4])


@njit(cache=True)
def _rank5_serial(cards, out):
    for i in range(cards.shape[0]):
        out[i] = eval5(cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4])


@njit(cache=True, parallel=True)
def _rank3_parallel(cards, out):
    for i in prange(cards.shape[0]):
        out[i] = eval3(cards[i, 0], cards[i, 1], cards[i, 2])


@njit(cache=True)
def _rank3_serial(cards, out):
    for i in range(cards.shape[0]):
        out[i] = eval3(cards[i, 0], cards[i, 1], cards[i, 2])


def rank5(cards, parallel=True):
    """Strengths of 5-card hands.

    Parameters
    ----------
    cards : ndarray(uint8), shape (n, 5)
        Distinct card codes per row (not checked here: see ``sapsam.game.hands``).
    parallel : bool
        Use Numba threads (``numba.set_num_threads`` sets how many).

    Returns
    -------
    ndarray(int16), shape (n,)
        Dense strength ordinals.
    """
    out = np.empty(cards.shape[0], dtype=STRENGTH_DTYPE)
    (_rank5_parallel if parallel else _rank5_serial)(cards, out)
    return out


def rank3(cards, parallel=True):
    """Strengths of 3-card fronts: ``cards`` ndarray(uint8), shape (n, 3) -> ndarray(int16), (n,)."""
    out = np.empty(cards.shape[0], dtype=STRENGTH_DTYPE)
    (_rank3_parallel if parallel else _rank3_serial)(cards, out)
    return out


def to_packed(strengths):
    """Packed form ``category << 20 | nibbles`` of strength ordinals (int32 array)."""
    return ORDINAL_TO_PACKED[np.asarray(strengths, dtype=np.int64)]


def from_packed(packed):
    """Strength ordinals of packed values; raises ``ValueError`` for a value no hand has."""
    packed = np.asarray(packed, dtype=np.int64)
    idx = np.searchsorted(ORDINAL_TO_PACKED, packed)
    bad = (idx >= N_STRENGTHS) | (ORDINAL_TO_PACKED[np.minimum(idx, N_STRENGTHS - 1)] != packed)
    if np.any(bad):
        raise ValueError(f"not a packed hand strength: {int(packed[bad].flat[0]):#x}")
    return idx.astype(STRENGTH_DTYPE)
