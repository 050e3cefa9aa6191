"""Settings of a 13-card hand when the middle plays as a 2-7 low (issue 18's low middle):
which splits are legal, and the exact Pareto frontier under that order.

A split's triple is (front, middle, back): the front and back on the high scale
(:mod:`sapsam.kernels.evaluate`), the middle on the 2-7 low scale (:mod:`sapsam.kernels.lowball`), higher
better in each.  Legal: the back at least the front; with ``high_order``, also the middle's
*high* strength between them, as in the usual game (``[middle] order`` of a ruleset).
``wheel_second`` remaps the high strengths as :mod:`sapsam.kernels.settings` does (the low scale has
no straights to remap).  A split and its mirror (middle and back
swapped) are two settings here, since a good low is a weak high hand and the other way round.

The frontier keeps the legal settings that no other legal setting matches or beats in every
row, one representative (the smallest split index) per distinct triple; for rules whose
payments never fall as a row gets better, only these can be best.  Algorithm: backs in
descending strength, equally strong backs as one group whose (middle, front) pairs are sorted
descending, then one sweep; a triple is dominated iff an earlier accepted one has a middle and
a front at least as good, which an array "best front among accepted middles >= m" answers in
O(1), kept up to date by walking down from each new member until it meets a better front.
"""

import numpy as np

from sapsam.kernels.compiler import njit
from sapsam.kernels.evaluate import WHEEL_SECOND, eval3, eval5
from sapsam.kernels.lowball import N_LOW, eval5_low
from sapsam.kernels.settings import (
    BACK_SPLITS,
    FIVE_POSITIONS,
    FRONT_POSITIONS,
    N_FIVES,
    N_FRONTS,
    N_SPLITS,
    SPLIT_ROWS,
)

_BITS = 13  # every strength < 8192
_SPLIT_BITS = 17  # split indices < 131072


@njit(cache=True)
def low_subset_strengths(hand, l5):
    """Fill ``l5`` (1287,) with the 2-7 low strength of every five-card position subset of a
    sorted hand (the companion of :func:`sapsam.kernels.settings.subset_strengths`)."""
    for i in range(N_FIVES):
        p = FIVE_POSITIONS[i]
        l5[i] = eval5_low(hand[p[0]], hand[p[1]], hand[p[2]], hand[p[3]], hand[p[4]])


@njit(cache=True, inline="always")
def low_legal(front, middle_high, back, high_order):
    """Whether a setting is legal with a low middle, from its front, its middle's *high*
    strength and its back.  Without branches, so that a loop over settings can be vectorised
    (the low search's pass over a back's completions)."""
    return (back >= front) & ((not high_order) | ((back >= middle_high) & (middle_high >= front)))


@njit(cache=True)
def low_split_strengths(hand, wheel_second, high_order):
    """(triples int16 (72072, 3), legal bool (72072,)) of one sorted 13-card hand."""
    s3 = np.empty(N_FRONTS, np.int16)
    high = np.empty(N_FIVES, np.int16)
    low = np.empty(N_FIVES, np.int16)
    for i in range(N_FRONTS):
        p = FRONT_POSITIONS[i]
        s3[i] = eval3(hand[p[0]], hand[p[1]], hand[p[2]])
    for i in range(N_FIVES):
        p = FIVE_POSITIONS[i]
        high[i] = eval5(hand[p[0]], hand[p[1]], hand[p[2]], hand[p[3]], hand[p[4]])
        if wheel_second:
            high[i] = WHEEL_SECOND[high[i]]
    low_subset_strengths(hand, low)
    rows = np.empty((N_SPLITS, 3), np.int16)
    legal = np.empty(N_SPLITS, np.bool_)
    for s in range(N_SPLITS):
        f, m, b = SPLIT_ROWS[s, 0], SPLIT_ROWS[s, 1], SPLIT_ROWS[s, 2]
        rows[s, 0], rows[s, 1], rows[s, 2] = s3[f], low[m], high[b]
        legal[s] = low_legal(s3[f], high[m], high[b], high_order)
    return rows, legal


@njit(cache=True)
def low_pareto_frontier(hand, wheel_second, high_order):
    """(legal count, frontier splits int32, frontier triples int16 (k, 3)), the frontier in
    descending (back, middle, front) order."""
    rows, legal = low_split_strengths(hand, wheel_second, high_order)
    n = 0
    for s in range(N_SPLITS):
        n += legal[s]
    # backs by high strength, strongest first; a group of equal backs is swept together
    back_strength = np.empty(N_FIVES, np.int64)
    for b in range(N_FIVES):
        back_strength[b] = rows[BACK_SPLITS[b, 0], 2]
    order = np.argsort(-back_strength, kind="mergesort")
    best_front = np.full(N_LOW, -1, np.int64)  # best front among accepted with middle >= m
    out_split = np.empty(n, np.int32)
    keys = np.empty(N_FIVES * 56, np.int64)
    count = 0
    g = 0
    while g < N_FIVES:
        h = g
        while h < N_FIVES and back_strength[order[h]] == back_strength[order[g]]:
            h += 1
        size = 0
        for i in range(g, h):
            for k in range(56):
                s = BACK_SPLITS[order[i], k]
                if legal[s]:
                    middle_front = (np.int64(rows[s, 1]) << _BITS) | rows[s, 0]
                    keys[size] = (middle_front << _SPLIT_BITS) | ((1 << _SPLIT_BITS) - 1 - s)
                    size += 1
        group = np.sort(keys[:size])[::-1]  # middle, front descending; ties: smallest split
        previous = np.int64(-1)
        for key in group:
            pair = key >> _SPLIT_BITS
            if pair == previous:
                continue  # the same triple as a better-indexed split
            previous = pair
            front = pair & ((1 << _BITS) - 1)
            middle = pair >> _BITS
            if best_front[middle] >= front:
                continue
            out_split[count] = (1 << _SPLIT_BITS) - 1 - (key & ((1 << _SPLIT_BITS) - 1))
            count += 1
            j = middle
            while j >= 0 and best_front[j] < front:
                best_front[j] = front
                j -= 1
        g = h
    splits = out_split[:count].copy()
    out_rows = np.empty((count, 3), np.int16)
    for k in range(count):
        out_rows[k] = rows[splits[k]]
    return n, splits, out_rows
