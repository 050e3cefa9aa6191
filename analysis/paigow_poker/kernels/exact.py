"""Every seven-card hand, enumerated: the category table, the house way's table, and the
dealer's (high, low) histogram behind one hand's exact value.

Seven cards are ascending indices ``a0 < ... < a6`` into a sorted array ``cards`` of codes.
A hand of the whole 53-card deck has the colex index ``sum C(code_i, i + 1)`` (0 ..
154,143,079), the place of its entry in a house way's table.  The loops are split into
``chunks``: the pairs ``(a5, a6)`` (:func:`top_pairs`) dealt round-robin, so that each chunk
has its share of large and small ones, run on the kernel threads
(:func:`sapsam.kernels.threads.parallel_for`); each chunk writes its own output.
"""

import numpy as np

from sapsam.kernels.compiler import njit
from sapsam.kernels.threads import parallel_for
from sapsam.paigow_poker.kernels.hands import BINOM, N_HIGH, N_LOW
from sapsam.paigow_poker.kernels.houseway import N_SETTINGS, house_setting, settings_of


def top_pairs(n):
    """The pairs ``(a5, a6)``, 5 <= a5 < a6 < n: int64, shape (m, 2)."""
    return np.array([(a5, a6) for a6 in range(6, n) for a5 in range(5, a6)], dtype=np.int64)


def category_counts(cards, pairs, dense, joker, category, chunks):
    """Hands of seven of ``cards`` by the category of their best five (the core's categories,
    then five aces): int64, shape (10,)."""
    out = np.zeros((chunks, 10), dtype=np.int64)
    parallel_for(lambda t: category_chunk(cards, pairs, dense, joker, category, chunks, out, t), range(chunks))
    return out.sum(axis=0)


@njit(cache=True, nogil=True)
def category_chunk(cards, pairs, dense, joker, category, chunks, out, t):
    """Chunk ``t`` of :func:`category_counts`, into ``out[t]``."""
    h = np.empty(7, dtype=np.uint8)
    high = np.empty(N_SETTINGS, dtype=np.int16)
    low = np.empty(N_SETTINGS, dtype=np.int16)
    for p in range(t, pairs.shape[0], chunks):
        a5, a6 = pairs[p, 0], pairs[p, 1]
        h[5], h[6] = cards[a5], cards[a6]
        for a4 in range(4, a5):
            h[4] = cards[a4]
            for a3 in range(3, a4):
                h[3] = cards[a3]
                for a2 in range(2, a3):
                    h[2] = cards[a2]
                    for a1 in range(1, a2):
                        h[1] = cards[a1]
                        for a0 in range(a1):
                            h[0] = cards[a0]
                            settings_of(h, dense, joker, high, low)
                            out[t, category[high.max()]] += 1


def house_table(way, scale, joker, pairs, chunks, high_out, low_out):
    """The house way's (high, low) of every hand of the 53 cards, at its colex index:
    ``high_out`` uint16 and ``low_out`` uint8, shape (154143080,)."""
    parallel_for(lambda t: house_table_chunk(way, scale, joker, pairs, chunks, high_out, low_out, t),
                 range(chunks))


@njit(cache=True, nogil=True)
def house_table_chunk(way, scale, joker, pairs, chunks, high_out, low_out, t):
    """Chunk ``t`` of :func:`house_table`, into ``out[t]``."""
    h = np.empty(7, dtype=np.uint8)
    high = np.empty(N_SETTINGS, dtype=np.int16)
    low = np.empty(N_SETTINGS, dtype=np.int16)
    for p in range(t, pairs.shape[0], chunks):
        a5, a6 = pairs[p, 0], pairs[p, 1]
        h[5], h[6] = a5, a6
        base6 = BINOM[a5, 6] + BINOM[a6, 7]
        for a4 in range(4, a5):
            h[4] = a4
            base5 = base6 + BINOM[a4, 5]
            for a3 in range(3, a4):
                h[3] = a3
                base4 = base5 + BINOM[a3, 4]
                for a2 in range(2, a3):
                    h[2] = a2
                    base3 = base4 + BINOM[a2, 3]
                    for a1 in range(1, a2):
                        h[1] = a1
                        base2 = base3 + BINOM[a1, 2]
                        for a0 in range(a1):
                            h[0] = a0
                            k = house_setting(h, way, scale, joker, high, low)
                            high_out[base2 + a0] = high[k]
                            low_out[base2 + a0] = low[k]


def histogram_from_table(cards, pairs, high_table, low_table, chunks):
    """The house way's hands of seven of ``cards`` (ascending codes) by (high, low), read from
    its table: int64, shape (N_HIGH, N_LOW)."""
    out = np.zeros((chunks, N_HIGH, N_LOW), dtype=np.int32)
    parallel_for(lambda t: table_histogram_chunk(cards, pairs, high_table, low_table, chunks, out, t),
                 range(chunks))
    return _total(out)


@njit(cache=True, nogil=True)
def table_histogram_chunk(cards, pairs, high_table, low_table, chunks, out, t):
    """Chunk ``t`` of :func:`histogram_from_table`, into ``out[t]``."""
    for p in range(t, pairs.shape[0], chunks):
        a5, a6 = pairs[p, 0], pairs[p, 1]
        base6 = BINOM[cards[a5], 6] + BINOM[cards[a6], 7]
        for a4 in range(4, a5):
            base5 = base6 + BINOM[cards[a4], 5]
            for a3 in range(3, a4):
                base4 = base5 + BINOM[cards[a3], 4]
                for a2 in range(2, a3):
                    base3 = base4 + BINOM[cards[a2], 3]
                    for a1 in range(1, a2):
                        base2 = base3 + BINOM[cards[a1], 2]
                        for a0 in range(a1):
                            i = base2 + cards[a0]
                            out[t, high_table[i], low_table[i]] += 1


def histogram_direct(cards, pairs, way, scale, joker, chunks):
    """The same histogram, setting each hand now (no table): for a part of the deck."""
    out = np.zeros((chunks, N_HIGH, N_LOW), dtype=np.int32)
    parallel_for(lambda t: direct_histogram_chunk(cards, pairs, way, scale, joker, chunks, out, t), range(chunks))
    return _total(out)


@njit(cache=True, nogil=True)
def direct_histogram_chunk(cards, pairs, way, scale, joker, chunks, out, t):
    """Chunk ``t`` of :func:`histogram_direct`, into ``out[t]``."""
    h = np.empty(7, dtype=np.uint8)
    high = np.empty(N_SETTINGS, dtype=np.int16)
    low = np.empty(N_SETTINGS, dtype=np.int16)
    for p in range(t, pairs.shape[0], chunks):
        a5, a6 = pairs[p, 0], pairs[p, 1]
        h[5], h[6] = cards[a5], cards[a6]
        for a4 in range(4, a5):
            h[4] = cards[a4]
            for a3 in range(3, a4):
                h[3] = cards[a3]
                for a2 in range(2, a3):
                    h[2] = cards[a2]
                    for a1 in range(1, a2):
                        h[1] = cards[a1]
                        for a0 in range(a1):
                            h[0] = cards[a0]
                            k = house_setting(h, way, scale, joker, high, low)
                            out[t, high[k], low[k]] += 1


@njit(cache=True)
def _total(parts):
    out = np.zeros(parts.shape[1:], dtype=np.int64)
    for t in range(parts.shape[0]):
        for i in range(parts.shape[1]):
            for j in range(parts.shape[2]):
                out[i, j] += parts[t, i, j]
    return out


@njit(cache=True)
def set_hand(h, way, scale, joker):
    """The house way's setting of seven ascending codes: (index 0 .. 20, high, low)."""
    high = np.empty(N_SETTINGS, dtype=np.int16)
    low = np.empty(N_SETTINGS, dtype=np.int16)
    k = house_setting(h, way, scale, joker, high, low)
    return k, high[k], low[k]
