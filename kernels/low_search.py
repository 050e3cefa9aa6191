"""A policy's best setting of one hand when the middle plays as a 2-7 low (issue 18).

The decision is defined directly, without a frontier: among the legal settings
(:func:`sapsam.kernels.low_settings.low_legal`), the one of highest value
(:func:`sapsam.kernels.value.value`, the middle's strength on the low scale); exact ties go to the
stronger back, then middle, then front, then the smaller split.  That choice is never
dominated: a setting as good in every row and better in one is worth at least as much and
wins the tie.

When the value never falls as a row gets stronger (:func:`sapsam.kernels.value.monotone`), most backs
need not be looked at, as in :mod:`sapsam.kernels.search`: a back of strength ``s`` is worth at most
``value(front, low, s)`` with the hand's strongest front (no stronger than ``s``) and its best
low, so backs weaker than where that bound falls under the best value so far are skipped, and
so is a back whose own strongest legal front and best legal low cannot reach it.  A bound
below the best by more than ``DELTA`` (far above rounding) never skips a setting that could
tie, so the pruned search and the exhaustive one (``prune`` False, for values that are not
monotone) give the same split, bit for bit.
"""

import numpy as np

from sapsam.kernels.compiler import njit
from sapsam.kernels.low_settings import low_legal
from sapsam.kernels.search import (
    COMPLETION_FRONT,
    COMPLETION_MIDDLE,
    COMPLETION_SPLIT,
    DELTA,
    N_COMPLETIONS,
    weakest_back,
)
from sapsam.kernels.settings import N_FIVES, N_FRONTS
from sapsam.kernels.value import value


@njit(cache=True, inline="always")
def _wins_tie(sb, sm, sf, split, best_b, best_m, best_f, best_split):
    """Whether an equally valued setting comes first: stronger back, middle, front, then the
    smaller split."""
    if sb != best_b:
        return sb > best_b
    if sm != best_m:
        return sm > best_m
    if sf != best_f:
        return sf > best_f
    return split < best_split


@njit(cache=True, _nrt=False)
def best_low_split(s3, s5, l5, high_order, kind, tables, values, points, removal, prepared, params,
                   opponents, prune, scratch):
    """The legal setting of highest value with a low middle (see the module doc).

    Parameters
    ----------
    s3, s5 : ndarray(int16), shape (286,) and (1287,)
        High strengths of the hand's fronts and five-card subsets
        (:func:`sapsam.kernels.settings.subset_strengths`, on the ruleset's wheel scale).
    l5 : ndarray(int16), shape (1287,)
        Low strengths of its five-card subsets (:func:`sapsam.kernels.low_settings.low_subset_strengths`).
    high_order : bool
        The middle's high strength must lie between front and back too.
    kind, tables, values, points, removal, prepared, params, opponents
        As :func:`sapsam.kernels.value.value` takes them.
    prune : bool
        The value is monotone: skip what cannot reach the best.
    scratch : tuple
        :func:`sapsam.kernels.search.search_scratch`'s: the passes over a back's completions
        read int32 copies of ``s3``, ``s5`` and ``l5`` made there (over int16, LLVM tuned for
        an Intel CPU vectorised them into slow code, as in :func:`sapsam.kernels.search.best_split`).
        Nothing here allocates, so it compiles without reference counts, as that does.

    Returns
    -------
    (split, value) : (int, float)
        ``split`` -1 only if no setting is legal (never for 13 cards).
    """
    w3, w5, wl5 = scratch[6], scratch[7], scratch[8]
    front = np.int16(0)
    for i in range(N_FRONTS):
        front = max(front, s3[i])
        w3[i] = s3[i]
    low = np.int16(0)
    top = 0
    for i in range(N_FIVES):
        low = max(low, l5[i])
        if s5[i] > s5[top]:
            top = i
        w5[i] = s5[i]
        wl5[i] = l5[i]
    best = -np.inf
    best_split = -1
    best_f = best_m = best_b = np.int32(0)  # the best setting's rows
    weakest = np.int16(0)
    for step in range(N_FIVES + 1):
        b = top if step == 0 else step - 1
        sb = w5[b]
        if step > 0 and (b == top or (prune and sb < weakest)):
            continue
        if prune and step > 0:  # the strongest legal front and best legal low of this back
            f2 = np.int32(-1)
            m2 = np.int32(-1)
            for j in range(N_COMPLETIONS):
                sf = w3[COMPLETION_FRONT[b, j]]
                legal = low_legal(sf, w5[COMPLETION_MIDDLE[b, j]], sb, high_order)
                f2 = max(f2, sf if legal else np.int32(-1))
                m2 = max(m2, wl5[COMPLETION_MIDDLE[b, j]] if legal else np.int32(-1))
            if m2 < 0 or value(kind, np.uint16(f2), np.uint16(m2), np.uint16(sb), tables, values,
                               points, removal, prepared, params, opponents) < best - DELTA:
                continue
        before = best
        for j in range(N_COMPLETIONS):
            sf = w3[COMPLETION_FRONT[b, j]]
            if not low_legal(sf, w5[COMPLETION_MIDDLE[b, j]], sb, high_order):
                continue
            sm = wl5[COMPLETION_MIDDLE[b, j]]
            v = value(kind, np.uint16(sf), np.uint16(sm), np.uint16(sb), tables, values, points,
                      removal, prepared, params, opponents)
            split = COMPLETION_SPLIT[b, j]
            if v > best or (v == best and _wins_tie(sb, sm, sf, split, best_b, best_m, best_f, best_split)):
                best, best_split = v, split
                best_f, best_m, best_b = sf, sm, sb
        if prune and best > before:
            weakest = weakest_back(s5[top], front, low, best - DELTA, kind, tables, values,
                                   points, removal, prepared, params, opponents)
    return best_split, best
