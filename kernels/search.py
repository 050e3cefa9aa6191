"""A policy's best setting of one hand, found by branch and bound over backs.

The ``balanced``, ``table`` (``fitted``) and ``houseway`` policies set a hand to its Pareto
frontier member of highest value (:mod:`sapsam.kernels.policies`).  Building the whole frontier walks
all 36,036 ways to part the ten cards a front leaves.  When the policy's value never falls as
a row gets stronger (:func:`sapsam.kernels.value.monotone`), the frontier member of highest value is
also a legal setting of highest value, and most settings can be skipped unseen:

1. Every back is one of the 1,287 five-card subsets; with it, the other eight cards give 56
   (middle, front) completions.  The strongest five and its completions give a first best
   value ``V``.
2. A back of strength ``s`` can be worth at most ``value(front, s, s)`` with the strongest front
   the hand holds (no stronger than ``s``): backs below the strength where that falls under
   ``V`` are never looked at.
3. For each other back, one branch-free pass over its completions finds the strongest legal
   middle ``m2`` and front ``f2`` it allows; if ``value(f2, m2, back)`` is under ``V`` the back is
   skipped (the bound is remembered: backs of equal strength often leave the same ``m2`` and
   ``f2``).  Otherwise its legal completions are valued, those excepted that the completion
   with the strongest middle, or the one with the strongest front, beats in both rows: worth
   no more, they can neither be the frontier's pick nor keep another from it.

Exactly the same decision as the frontier, bit for bit (values come from the one function
:func:`sapsam.kernels.value.value`): every legal setting of value within ``2 * DELTA`` of the best is
kept as a candidate (bounds are compared with ``DELTA`` more room, far above rounding);
among those within ``DELTA`` of the best, the ones no candidate dominates are exactly the
frontier members that can tie for best, and the frontier's own rule picks one: the highest
value, then the smallest split (``houseway``: the stronger front, middle, back, then the
smallest split).  A hand with more near-best settings than the candidates' room, which needs
flat values (it does not happen with the shipped policies), gets ``-1`` and the caller builds
the frontier.
"""

import numpy as np

from sapsam.kernels.compiler import njit
from sapsam.kernels.evaluate import N_STRENGTHS, THREE_CARD
from sapsam.kernels.settings import BACK_SPLITS, N_FIVES, N_FRONTS, SPLIT_ROWS, copy_row
from sapsam.kernels.value import value

N_COMPLETIONS = 56  # (middle, front) pairs from the eight cards a back leaves
DELTA = 1e-9  # see the module doc; values are units or points, rounding is ~1e-13 of them
CANDIDATE_ROOM = 4096
BOUND_ROOM = 128  # backs' bounds remembered, see best_split (a power of two)


def _build_tables():
    # each back's 56 splits (settings.BACK_SPLITS, in increasing split order), their middles and fronts
    middle = SPLIT_ROWS[BACK_SPLITS, 1].astype(np.uint16)
    front = SPLIT_ROWS[BACK_SPLITS, 0].astype(np.uint16)
    five_classes = np.flatnonzero(~THREE_CARD).astype(np.int16)  # increasing
    five_index = np.zeros(N_STRENGTHS, np.int16)
    five_index[five_classes] = np.arange(five_classes.shape[0])
    # the strongest front strength no stronger than s (strength 0 is a front)
    front_floor = np.maximum.accumulate(np.where(THREE_CARD, np.arange(N_STRENGTHS), 0)).astype(np.int16)
    return BACK_SPLITS, middle, front, five_classes, five_index, front_floor


COMPLETION_SPLIT, COMPLETION_MIDDLE, COMPLETION_FRONT, FIVE_CLASSES, FIVE_INDEX, FRONT_FLOOR = (
    _build_tables())


@njit(cache=True)
def search_scratch():
    """One set per thread: the candidates' values, strength triples and splits; a back's
    undominated completions (front and middle strengths, index); the backs' bounds seen; the
    hand's front and five-card strengths as int32 (see best_split), and its five-card low
    strengths as int32 (for :func:`sapsam.kernels.low_search.best_low_split`)."""
    return (np.empty(CANDIDATE_ROOM), np.empty((CANDIDATE_ROOM, 3), np.int16),
            np.empty(CANDIDATE_ROOM, np.int32), np.empty((N_COMPLETIONS, 3), np.int16),
            np.empty(BOUND_ROOM, np.int64), np.empty(BOUND_ROOM), np.empty(N_FRONTS, np.int32),
            np.empty(N_FIVES, np.int32), np.empty(N_FIVES, np.int32))


@njit(cache=True)
def weakest_back(top, front, middle, floor, kind, tables, values, points, removal, prepared, params,
                 opponents):
    """The weakest five-card strength ``s`` (up to ``top``) with ``value(min(front, s)'s front,
    m, s) >= floor``, by bisection over the five-card strengths; above ``top`` if none.  ``m``
    is ``s`` itself (``middle`` -1: a high middle is no stronger than its back) or ``middle``
    (a low middle's best, :mod:`sapsam.kernels.low_search`)."""
    lo = 0
    hi = FIVE_INDEX[top] + 1
    while lo < hi:
        mid = (lo + hi) // 2
        s = FIVE_CLASSES[mid]
        m = s if middle < 0 else middle
        if value(kind, np.uint16(FRONT_FLOOR[min(front, s)]), np.uint16(m), np.uint16(s), tables, values,
                 points, removal, prepared, params, opponents) >= floor:
            hi = mid
        else:
            lo = mid + 1
    return FIVE_CLASSES[lo] if lo < FIVE_CLASSES.shape[0] else N_STRENGTHS


@njit(cache=True, _nrt=False)
def best_split(s3, s5, kind, houseway, tables, values, points, removal, prepared, params, opponents,
               scratch):
    """The frontier member of highest value, given the hand's subset strengths.

    Parameters
    ----------
    s3, s5 : ndarray(int16), shape (286,) and (1287,)
        Strengths of the hand's fronts and five-card subsets
        (:func:`sapsam.kernels.settings.subset_strengths`), on the ruleset's scale.
    kind, tables, values, points, removal, prepared, params, opponents
        As :func:`sapsam.kernels.value.value` takes them; the value must be monotone
        (:func:`sapsam.kernels.value.monotone`).
    houseway : bool
        Break exact ties the house way's way (stronger front, middle, back).
    scratch : tuple
        From :func:`search_scratch`.

    Returns
    -------
    (split, value) : (int, float)
        ``split`` is -1 when the near-best settings overflowed the candidates (see the module
        doc): build the frontier instead.

    Compiled without reference counts (``_nrt=False``; nothing here allocates): Numba kept
    an increment and a decrement for each array argument per hand, atomics on the tables
    both threads share.

    The completions' passes read int32 copies of the strengths (``w3``, ``w5``): over them
    LLVM uses the CPU's gathers where those are fast (Intel's: a decision a fifth quicker on
    this project's Intel VM) and scalar loads elsewhere (Zen 3), where over the int16
    strengths it had made slow vector code for Intel (docs/performance.md).
    """
    cand_value, cand_rows, cand_split, undominated, bound_key, bound_value, w3, w5, _ = scratch
    bound_key[:] = -1
    front = np.int16(0)  # the strongest front
    for i in range(N_FRONTS):
        front = max(front, s3[i])
        w3[i] = s3[i]
    strongest = np.int16(0)  # and the first five that strong: a max, then a search, both branch-free
    for i in range(N_FIVES):
        strongest = max(strongest, s5[i])
        w5[i] = s5[i]
    top = 0
    while s5[top] != strongest:
        top += 1
    best = -np.inf
    n = np.int64(0)  # not a literal, which would compile _pick once more
    weakest = np.int16(0)  # backs below it cannot reach the best so far
    for step in range(N_FIVES + 1):
        b = top if step == 0 else step - 1
        sb = s5[b]
        if step > 0 and (sb < weakest or b == top):
            continue
        # the strongest legal middle and front this back allows, in one branch-free pass
        m2 = np.int32(-1)
        f2 = np.int32(-1)
        for j in range(N_COMPLETIONS):
            sm = w5[COMPLETION_MIDDLE[b, j]]
            sf = w3[COMPLETION_FRONT[b, j]]
            legal = (sf <= sm) & (sm <= sb)
            m2 = max(m2, sm if legal else np.int32(-1))
            f2 = max(f2, sf if legal else np.int32(-1))
        if m2 < 0:
            continue
        if step > 0 and _bound(f2, m2, sb, bound_key, bound_value, kind, tables, values, points, removal,
                               prepared, params, opponents) < best - 3 * DELTA:
            continue
        before = best
        for q in range(_undominated(b, sb, m2, f2, w3, w5, undominated)):
            sf = undominated[q, 0]
            sm = undominated[q, 1]
            v = value(kind, np.uint16(sf), np.uint16(sm), np.uint16(sb), tables, values, points,
                      removal, prepared, params, opponents)
            if v < best - 2 * DELTA:
                continue
            best = max(best, v)
            if n == CANDIDATE_ROOM:  # drop those the best has left behind, or give up
                kept = 0
                for i in range(n):
                    if cand_value[i] >= best - 2 * DELTA:
                        cand_value[kept] = cand_value[i]
                        copy_row(cand_rows, i, kept)
                        cand_split[kept] = cand_split[i]
                        kept += 1
                if kept == n:
                    return -1, best
                n = kept
            cand_value[n] = v
            cand_rows[n, 0] = sf
            cand_rows[n, 1] = sm
            cand_rows[n, 2] = sb
            cand_split[n] = COMPLETION_SPLIT[b, undominated[q, 2]]
            n += 1
        if best > before:
            # middle as an int16, the type the low search passes
            weakest = weakest_back(s5[top], front, np.int16(-1), best - 3 * DELTA, kind, tables,
                                   values, points, removal, prepared, params, opponents)
    return _pick(n, best, houseway, cand_value, cand_rows, cand_split), best


@njit(cache=True, inline="always")
def _bound(f2, m2, sb, bound_key, bound_value, kind, tables, values, points, removal, prepared, params,
           opponents):
    """``value(f2, m2, sb)``, remembered: backs of equal strength often leave the same
    strongest middle and front (about 45 of a hand's 100 bounds repeat one already valued).
    A table of :data:`BOUND_ROOM` entries, indexed by a hash of the triple, one triple each."""
    key = (np.int64(f2) << 32) | (np.int64(m2) << 16) | np.int64(sb)
    slot = np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(57))
    if bound_key[slot] != key:
        bound_key[slot] = key
        bound_value[slot] = value(kind, np.uint16(f2), np.uint16(m2), np.uint16(sb), tables, values,
                                  points, removal, prepared, params, opponents)
    return bound_value[slot]


@njit(cache=True, inline="always")
def _undominated(b, sb, m2, f2, w3, w5, out):
    """Back ``b``'s legal completions that neither its strongest middle (with its strongest
    front) nor its strongest front (with its strongest middle) beats in both rows, into
    ``out`` as (front strength, middle strength, completion); returns how many.  ``w3`` and
    ``w5``: best_split's int32 copies of the hand's strengths.

    Every completion left out is beaten in both rows by one kept, which by the value's
    monotonicity is worth at least as much, beats whatever it beats and comes first by the
    frontier's rule: the frontier would not hold it.  These two leave about 13 completions a
    back to be valued (``fitted``, 4 players), as many as bisecting for the weakest useful
    middle did, without its 11 probes; leaving out all that any beats would leave 9, for an
    all-pairs check that costs more than the values it saves."""
    fa = np.int32(-1)  # the strongest front beside the strongest middle
    mb = np.int32(-1)  # the strongest middle beside the strongest front
    for j in range(N_COMPLETIONS):
        sm = w5[COMPLETION_MIDDLE[b, j]]
        sf = w3[COMPLETION_FRONT[b, j]]
        legal = (sf <= sm) & (sm <= sb)
        fa = max(fa, sf if legal & (sm == m2) else np.int32(-1))
        mb = max(mb, sm if legal & (sf == f2) else np.int32(-1))
    p = 0
    for j in range(N_COMPLETIONS):
        sm = w5[COMPLETION_MIDDLE[b, j]]
        sf = w3[COMPLETION_FRONT[b, j]]
        if sf > sm or sm > sb:
            continue
        if sf <= fa and sm <= m2 and (sf < fa or sm < m2):
            continue
        if sf <= f2 and sm <= mb and (sf < f2 or sm < mb):
            continue
        out[p, 0] = sf
        out[p, 1] = sm
        out[p, 2] = j
        p += 1
    return p


@njit(cache=True)
def _pick(n, best, houseway, cand_value, cand_rows, cand_split):
    """The split the frontier's rule picks among the candidates (see the module doc): the
    first by the rule among those within ``DELTA`` of the best that no candidate dominates.
    They are taken in the rule's order until one is not dominated, usually the first (the
    house way's points tie often: ~35 near-best of ~76 candidates a hand, which checked all
    against all cost it a third of its time)."""
    last = -1  # the last one taken, dominated
    while True:
        choice = -1
        for i in range(n):
            if cand_value[i] < best - DELTA or (
                    last >= 0 and not _before(last, i, houseway, cand_value, cand_rows, cand_split)):
                continue
            if choice < 0 or _before(i, choice, houseway, cand_value, cand_rows, cand_split):
                choice = i
        if choice < 0:
            return -1  # none: no legal setting was seen
        if not _dominated(choice, n, best, cand_value, cand_rows):
            return cand_split[choice]
        last = choice


@njit(cache=True, inline="always")
def _dominated(i, n, best, cand_value, cand_rows):
    """Whether a candidate within ``2 * DELTA`` of the best is as strong as candidate ``i`` in
    every row and stronger in one."""
    f, m, b = cand_rows[i, 0], cand_rows[i, 1], cand_rows[i, 2]
    for j in range(n):
        if (cand_value[j] >= best - 2 * DELTA and cand_rows[j, 0] >= f and cand_rows[j, 1] >= m
                and cand_rows[j, 2] >= b and (cand_rows[j, 0] > f or cand_rows[j, 1] > m
                                              or cand_rows[j, 2] > b)):
            return True
    return False


@njit(cache=True, inline="always")
def _before(i, c, houseway, cand_value, cand_rows, cand_split):
    """Whether candidate ``i`` comes before candidate ``c`` by the frontier's rule."""
    if cand_value[i] != cand_value[c]:
        return cand_value[i] > cand_value[c]
    if houseway:
        for k in range(3):
            if cand_rows[i, k] != cand_rows[c, k]:
                return cand_rows[i, k] > cand_rows[c, k]
    return cand_split[i] < cand_split[c]
