"""Settings of a 13-card hand: all 72,072 splits, legality and the Pareto frontier.

A *split* of a sorted 13-card hand is ``front_index * 252 + middle_index``: ``front_index``
numbers the 286 three-card position sets of 0..12 in lexicographic order, ``middle_index`` the
252 five-card position sets of the ten remaining positions (in their own 0..9 order), and the
back is what is left.  A setting's value is its strength triple (front, middle, back); it is
*legal* when back >= middle >= front (RULES.md A1, ties allowed).

The *Pareto frontier* holds the legal settings that no other legal setting matches or beats in
every row, one representative (the smallest split index) per distinct strength triple.  For a
ruleset whose row payments never fall as a row gets stronger, only frontier settings can be
best (DESIGN.md).

Algorithm (per deal): evaluate the 1,287 five-card and 286 three-card position subsets once
and rank the strengths present.  For each front, walk the 126 unordered (middle, back) pairs
of the other ten cards; the stronger half goes to the back, and the pair is legal when the
weaker half is at least the front.  Fronts are taken in descending strength, equally strong
fronts as one group: a pair is dominated iff some accepted member has middle and back at least
as good, which an array "best back for a middle of rank >= r" answers in O(1).  A branch-free
pass over a front's pairs counts the legal ones and those not dominated; only the few fronts
with such pairs are walked again to accept members (updating the array, walking down until it
meets a better back) and to drop the group's members a new one beats.
"""

from itertools import combinations

import numpy as np
from numba import prange

from sapsam.kernels.compiler import njit
from sapsam.kernels.evaluate import CARD_WEIGHT, FLUSH5, NONFLUSH5, RANK3_TABLE, WHEEL_SECOND
from sapsam.kernels.threads import parallel_ranges

N_SPLITS = 72072
N_FRONTS = 286
N_FIVES = 1287
N_PAIRS = 126  # unordered (middle, back) partitions of the ten cards left by a front
_STRENGTH_BITS = 13  # strength ordinals < 8192


def _build_tables():
    """The position subsets (``FRONT_POSITIONS`` (286, 3), ``FIVE_POSITIONS`` (1287, 5), both
    lexicographic), every split's (front, middle, back) subset indices (``SPLIT_ROWS``), each
    front's 126 unordered (middle, back) pairs (``PAIR_A``, ``PAIR_B``) and each back's 56
    splits in increasing order (``BACK_SPLITS``): array arithmetic on position masks, since
    this runs at every import."""
    combos3 = np.array(list(combinations(range(13), 3)), dtype=np.uint8)
    combos5 = np.array(list(combinations(range(13), 5)), dtype=np.uint8)
    bit = np.int64(1) << np.arange(13)
    index5 = np.zeros(1 << 13, np.int64)  # a five's position mask -> its index
    index5[bit[combos5].sum(axis=1)] = np.arange(N_FIVES)
    left = np.ones((N_FRONTS, 13), np.bool_)
    left[np.arange(N_FRONTS)[:, None], combos3] = False
    rest = np.broadcast_to(np.arange(13), (N_FRONTS, 13))[left].reshape(N_FRONTS, 10)  # ascending
    # middle m of front f: the m-th five of its ten positions left, in lexicographic order
    chosen = np.array(list(combinations(range(10), 5)))
    middle = bit[rest[:, chosen]].sum(axis=2)  # (286, 252) position masks
    back = bit[rest].sum(axis=1)[:, None] - middle
    split_rows = np.stack([np.repeat(np.arange(N_FRONTS), 252), index5[middle].ravel(),
                           index5[back].ravel()], axis=1).astype(np.int16)
    # each unordered pair once: the half holding rest[0] is "a".  Those halves are the first 126
    # middles in lexicographic order, and middle m's complement is middle 251 - m, so pair k is
    # split f * 252 + k, and f * 252 + 251 - k the other way round
    pair_a = index5[middle[:, :N_PAIRS]].astype(np.uint16)  # unsigned: see _frontier
    pair_b = index5[back[:, :N_PAIRS]].astype(np.uint16)
    back_splits = np.argsort(split_rows[:, 2], kind="stable").reshape(N_FIVES, -1).astype(np.int32)
    return combos3, combos5, split_rows, pair_a, pair_b, back_splits


FRONT_POSITIONS, FIVE_POSITIONS, SPLIT_ROWS, PAIR_A, PAIR_B, BACK_SPLITS = _build_tables()


@njit(cache=True)
def subset_strengths(hand, wheel_second, s3, s5):
    """Fill ``s3`` (286,) and ``s5`` (1287,) with the strengths of every position subset.

    ``hand`` is ndarray(uint8), shape (13,), sorted; ``wheel_second`` applies the
    ``wheel_rank = "second"`` order.  The same numbers as :func:`sapsam.kernels.evaluate.eval5` and
    ``eval3`` of each subset, found by nested loops over the positions in the subsets' own
    (lexicographic) order: each five's weight sum, suits and ranks grow by one card at the
    innermost level, rather than five cards being gathered and summed per subset.
    """
    per = np.empty((3, 13), np.int64)  # per position: rank weight, suit bit, rank bit
    weight, suit, rank = per[0], per[1], per[2]
    for p in range(13):
        weight[p] = CARD_WEIGHT[hand[p]]
        suit[p] = 1 << (hand[p] & 3)
        rank[p] = 1 << (hand[p] >> 2)
    i = 0
    for a in range(9):
        for b in range(a + 1, 10):
            w2, u2, r2 = weight[a] + weight[b], suit[a] | suit[b], rank[a] | rank[b]
            for c in range(b + 1, 11):
                w3, u3, r3 = w2 + weight[c], u2 | suit[c], r2 | rank[c]
                for d in range(c + 1, 12):
                    w4, u4, r4 = w3 + weight[d], u3 | suit[d], r3 | rank[d]
                    for e in range(d + 1, 13):
                        suits = u4 | suit[e]
                        if suits & (suits - 1) == 0:  # one suit: a flush
                            s5[i] = FLUSH5[r4 | rank[e]]
                        else:
                            s5[i] = NONFLUSH5[w4 + weight[e]]
                        i += 1
    i = 0
    for a in range(11):
        for b in range(a + 1, 12):
            ab = ((hand[a] >> 2) * 13 + (hand[b] >> 2)) * 13
            for c in range(b + 1, 13):
                s3[i] = RANK3_TABLE[ab + (hand[c] >> 2)]
                i += 1
    if wheel_second:
        for i in range(N_FIVES):
            s5[i] = WHEEL_SECOND[s5[i]]


@njit(cache=True)
def split_strengths(hand, wheel_second):
    """Strength triples of all 72,072 splits: ndarray(int16), shape (72072, 3)."""
    s3 = np.empty(N_FRONTS, np.int16)
    s5 = np.empty(N_FIVES, np.int16)
    subset_strengths(hand, wheel_second, s3, s5)
    out = np.empty((N_SPLITS, 3), np.int16)
    for s in range(N_SPLITS):
        out[s, 0] = s3[SPLIT_ROWS[s, 0]]
        out[s, 1] = s5[SPLIT_ROWS[s, 1]]
        out[s, 2] = s5[SPLIT_ROWS[s, 2]]
    return out


def _split_strengths_batch_body(hands, wheel_second, out, legal):
    for i in prange(hands.shape[0]):
        rows = split_strengths(hands[i], wheel_second)
        out[i] = rows
        for s in range(N_SPLITS):
            legal[i, s] = rows[s, 2] >= rows[s, 1] and rows[s, 1] >= rows[s, 0]


_split_strengths_batch = njit(cache=True, parallel=True)(_split_strengths_batch_body)


def split_strengths_batch(hands, wheel_second=False):
    """Strength triples and legality of every split of many sorted hands, in parallel.

    ``hands`` ndarray(uint8), shape (n, 13), rows sorted.  Returns ``rows`` int16
    (n, 72072, 3) and ``legal`` bool (n, 72072); 432 KB + 72 KB per hand.
    """
    out = np.empty((hands.shape[0], N_SPLITS, 3), np.int16)
    legal = np.empty((hands.shape[0], N_SPLITS), np.bool_)
    _split_strengths_batch(hands, wheel_second, out, legal)
    return out, legal


@njit(cache=True)
def count_legal(hand, wheel_second):
    """Number of legal splits of one sorted hand."""
    s3 = np.empty(N_FRONTS, np.int16)
    s5 = np.empty(N_FIVES, np.int16)
    subset_strengths(hand, wheel_second, s3, s5)
    legal = 0
    for f in range(N_FRONTS):
        sf = s3[f]
        for k in range(N_PAIRS):
            sa = s5[PAIR_A[f, k]]
            sb = s5[PAIR_B[f, k]]
            legal += (sa >= sf and sb >= sa) + (sb >= sf and sa >= sb)
    return legal


_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)  # a de Bruijn sequence B(2, 6)
_DE_BRUIJN_INDEX = np.zeros(64, np.int64)
for _i in range(64):
    _DE_BRUIJN_INDEX[(((1 << _i) * int(_DE_BRUIJN)) % (1 << 64)) >> 58] = _i


@njit(cache=True, inline="always")
def _lowest_bit(x):
    """Index of the lowest set bit of a non-zero uint64 (de Bruijn multiplication)."""
    return _DE_BRUIJN_INDEX[((x & (~x + np.uint64(1))) * _DE_BRUIJN) >> np.uint64(58)]


@njit(cache=True)
def _frontier(hand, wheel_second, scratch, out_split, out_rows):
    """Core of :func:`pareto_frontier` with caller-owned scratch; returns (legal, size).

    ``scratch`` comes from :func:`frontier_scratch`.  Output: ``out_split`` int32 (k,) and
    ``out_rows`` int16 (k, 3), filled up to their length; a returned size beyond it means the
    caller must retry with more room.
    """
    s3, s5, r5, rank, values, best, head, after, cand, hits = scratch
    subset_strengths(hand, wheel_second, s3, s5)
    # ranks 1..u of the strengths present (fronts and five-card subsets share one scale).
    # They are unsigned, like the pair tables: indexing with them needs no negative-index
    # fix-up, which keeps the pair loop lean (1.4x faster than int16 on this machine); and
    # 32-bit, which LLVM gathers where the CPU's gathers are fast, where over 16-bit ranks
    # it made slow vector code (a deal's frontier 71 us against 89 on the Intel VM)
    rank[:] = 0
    for i in range(N_FIVES):
        rank[s5[i]] = 1
    for i in range(N_FRONTS):
        rank[s3[i]] = 1
    u = 0
    for v in range(rank.shape[0]):
        if rank[v]:
            u += 1
            values[u] = v
        rank[v] = u
    for i in range(N_FIVES):
        r5[i] = rank[s5[i]]
    best[:u + 1] = 0  # best[r]: top back rank of an accepted member with middle rank >= r
    head[:u + 1] = -1  # fronts bucketed by rank, each bucket in increasing front index
    for f in range(N_FRONTS - 1, -1, -1):
        r = rank[s3[f]]
        after[f] = head[r]
        head[r] = f
    legal = 0
    size = 0
    for sf in range(u, 0, -1):  # one group of equally strong fronts at a time, strongest first
        n_cand = 0
        f = head[sf]
        while f >= 0:
            pa = PAIR_A[f]
            pb = PAIR_B[f]
            # a branch-free pass counts the legal pairs and marks the "hits" in a bit mask:
            # legal pairs that no accepted member beats (ties included); most fronts have none
            low = np.uint64(0)
            for k in range(64):
                ra = r5[pa[k]]
                rb = r5[pb[k]]
                m = min(ra, rb)
                ok = m >= sf
                legal += ok + (ok & (ra == rb))
                low |= np.uint64(ok & (best[m] <= max(ra, rb))) << np.uint64(k)
            high = np.uint64(0)
            for k in range(64, N_PAIRS):
                ra = r5[pa[k]]
                rb = r5[pb[k]]
                m = min(ra, rb)
                ok = m >= sf
                legal += ok + (ok & (ra == rb))
                high |= np.uint64(ok & (best[m] <= max(ra, rb))) << np.uint64(k - 64)
            n_hits = 0
            while low:
                hits[n_hits] = _lowest_bit(low)
                n_hits += 1
                low &= low - np.uint64(1)
            while high:
                hits[n_hits] = 64 + _lowest_bit(high)
                n_hits += 1
                high &= high - np.uint64(1)
            for h in range(n_hits):
                k = hits[h]
                ra = r5[pa[k]]
                rb = r5[pb[k]]
                # the stronger half goes to the back; on a tie, "a" in the middle is the
                # smaller split (see _build_tables)
                if ra <= rb:
                    m, bk = ra, rb
                    split = f * 252 + k
                else:
                    m, bk = rb, ra
                    split = f * 252 + 251 - k
                if best[m] >= bk:
                    # matched or beaten by a member accepted since the pass (this group's
                    # included); an exact tie within this group keeps the smaller split
                    if best[m] == bk:
                        for j in range(n_cand):
                            if cand[j, 0] == m and cand[j, 1] == bk and split < cand[j, 2]:
                                cand[j, 2] = split
                    continue
                # a new member: drop the group's members it beats, record it in ``best``
                j = 0
                while j < n_cand:
                    if m >= cand[j, 0] and bk >= cand[j, 1]:
                        n_cand -= 1
                        copy_row(cand, n_cand, j)
                    else:
                        j += 1
                cand[n_cand, 0] = m
                cand[n_cand, 1] = bk
                cand[n_cand, 2] = split
                n_cand += 1
                r = m
                while r > 0 and best[r] < bk:
                    best[r] = bk
                    r -= 1
            f = after[f]
        for j in range(1, n_cand):  # present each group by middle descending
            m, bk, split = cand[j, 0], cand[j, 1], cand[j, 2]
            i = j
            while i > 0 and cand[i - 1, 0] < m:
                copy_row(cand, i - 1, i)
                i -= 1
            cand[i, 0], cand[i, 1], cand[i, 2] = m, bk, split
        for j in range(n_cand):
            if size < out_split.shape[0]:
                out_split[size] = cand[j, 2]
                out_rows[size, 0] = values[sf]
                out_rows[size, 1] = values[cand[j, 0]]
                out_rows[size, 2] = values[cand[j, 1]]
            size += 1
    return legal, size


@njit(cache=True, inline="always")
def copy_row(a, source, target):
    """``a[target] = a[source]`` element by element: an array assigned to a row makes Numba
    compile its shape-mismatch error message, about two seconds of a first run."""
    for k in range(a.shape[1]):
        a[target, k] = a[source, k]


@njit(cache=True)
def frontier_scratch():
    """Scratch arrays for :func:`_frontier`, one set per thread: the subset strengths ``s3``
    and ``s5``, the five-card subsets' ranks ``r5``, ``rank`` and ``values`` (strength to rank
    and back), ``best`` over ranks, the fronts bucketed by rank (``head``, ``after``), the
    current group's members ``cand`` and one front's ``hits``."""
    n_ranks = N_FIVES + N_FRONTS + 1
    return (np.empty(N_FRONTS, np.int16), np.empty(N_FIVES, np.int16), np.empty(N_FIVES, np.uint32),
            np.empty(1 << _STRENGTH_BITS, np.uint32), np.empty(n_ranks, np.int16),
            np.empty(n_ranks, np.uint32), np.empty(n_ranks, np.int16), np.empty(N_FRONTS, np.int16),
            np.empty((N_FRONTS * N_PAIRS, 3), np.int32), np.empty(N_PAIRS, np.int64))


@njit(cache=True)
def wheel_rank_matters(hand):
    """True when the hand holds A-2-3-4-5 and five other consecutive ranks (card code ``c``
    has rank ``c >> 2``).

    ``wheel_rank = "second"`` moves A-2-3-4-5 (and the steel wheel) above the other straights
    (straight flushes).  Without both, that remap is increasing on the strengths the hand
    can make, so its Pareto frontier under "second" is the ace-low frontier with the same
    splits, in the same order, middle and back remapped by ``WHEEL_SECOND``
    (:func:`remap_wheel_second`).  About one hand in twelve needs its own frontier.
    """
    ranks = 0
    for c in hand:
        ranks |= 1 << (c >> 2)
    wheel = (1 << 12) | 0b1111
    if ranks & wheel != wheel:
        return False
    for low in range(9):  # 2-3-4-5-6 up to 10-J-Q-K-A
        if (ranks >> low) & 0b11111 == 0b11111:
            return True
    return False


@njit(cache=True)
def remap_wheel_second(size, splits, rows, out_splits, out_rows):
    """Copy the first ``size`` frontier members to the "second" wheel scale (five-card rows
    through ``WHEEL_SECOND``); valid where :func:`wheel_rank_matters` is False."""
    for i in range(size):
        out_splits[i] = splits[i]
        out_rows[i, 0] = rows[i, 0]
        out_rows[i, 1] = WHEEL_SECOND[rows[i, 1]]
        out_rows[i, 2] = WHEEL_SECOND[rows[i, 2]]


@njit(cache=True)
def pareto_frontier(hand, wheel_second):
    """Pareto frontier of one sorted 13-card hand.

    Parameters
    ----------
    hand : ndarray(uint8), shape (13,)
        Distinct card codes in ascending order.
    wheel_second : bool
        Rank A-2-3-4-5 just below 10-J-Q-K-A.

    Returns
    -------
    legal : int
        Number of legal splits.
    splits : ndarray(int32), shape (k,)
        Split index of each frontier member (the smallest one with its strength triple).
    rows : ndarray(int16), shape (k, 3)
        Strength triple (front, middle, back) of each member, ordered by front descending,
        then middle descending.
    """
    out_split = np.empty(N_FRONTS * N_PAIRS, np.int32)
    out_rows = np.empty((N_FRONTS * N_PAIRS, 3), np.int16)
    legal, size = _frontier(hand, wheel_second, frontier_scratch(), out_split, out_rows)
    return legal, out_split[:size].copy(), out_rows[:size].copy()


@njit(cache=True, nogil=True)
def frontier_chunk(hands, wheel_second, first, last, legal, sizes, splits, rows):
    """Hands ``first`` up to ``last`` of :func:`pareto_frontier_batch`."""
    scratch = frontier_scratch()
    for i in range(first, last):
        legal[i], sizes[i] = _frontier(hands[i], wheel_second, scratch, splits[i], rows[i])


def pareto_frontier_batch(hands, wheel_second=False, capacity=512, parallel=True):
    """Pareto frontiers of many sorted hands, in parallel.

    Parameters
    ----------
    hands : ndarray(uint8), shape (n, 13)
        Each row sorted ascending.
    capacity : int
        Frontier members stored per hand in the padded output; a hand with more is
        recomputed on its own, so the result is always complete.

    Returns
    -------
    legal : ndarray(int64), shape (n,)
    offsets : ndarray(int64), shape (n + 1,)
        Hand ``i``'s members are ``splits[offsets[i]:offsets[i + 1]]``.
    splits : ndarray(int32), shape (total,)
    rows : ndarray(int16), shape (total, 3)
    """
    n = hands.shape[0]
    legal = np.empty(n, np.int64)
    sizes = np.empty(n, np.int64)
    pad_splits = np.empty((n, capacity), np.int32)
    pad_rows = np.empty((n, capacity, 3), np.int16)
    parallel_ranges(lambda first, last: frontier_chunk(hands, wheel_second, first, last, legal, sizes, pad_splits,
                                                       pad_rows), n, parallel=parallel)
    offsets = np.zeros(n + 1, np.int64)
    np.cumsum(sizes, out=offsets[1:])
    splits = np.empty(offsets[-1], np.int32)
    rows = np.empty((offsets[-1], 3), np.int16)
    _compact(sizes, offsets, pad_splits, pad_rows, splits, rows)
    for i in np.flatnonzero(sizes > capacity):  # rare: more members than the padded room
        _, splits[offsets[i]:offsets[i + 1]], rows[offsets[i]:offsets[i + 1]] = (
            pareto_frontier(hands[i], wheel_second))
    return legal, offsets, splits, rows


@njit(cache=True)
def _compact(sizes, offsets, pad_splits, pad_rows, splits, rows):
    for i in range(sizes.shape[0]):
        k = min(sizes[i], pad_splits.shape[1])
        splits[offsets[i]:offsets[i] + k] = pad_splits[i, :k]
        rows[offsets[i]:offsets[i] + k] = pad_rows[i, :k]
