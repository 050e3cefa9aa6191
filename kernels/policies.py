"""Opponent policies: a 13-card hand in, a decision out (a legal setting, a natural or surrender).

Policies (codes are positions in :data:`POLICIES`):

- ``random``: uniform over the legal settings (rejection sampling over the 72,072 splits).
- ``greedy``: the strongest back, then the strongest middle from the other eight cards.
- ``balanced``: the rule of thumb "make every row as good as it can be for its position":
  the frontier setting with the largest sum of row percentiles, each row's percentile taken
  against random hands of its size (all 22,100 fronts; all 2,598,960 five-card hands).  Its
  ``points`` table holds those percentiles.
- ``houseway``: a short point count (``sapsam.strategy.houseway``): the frontier setting with the
  most chart points (ties to the stronger front, then middle, then back); declares any
  natural it holds; surrenders when its best total is below the chart's threshold.
- ``table``: the frontier setting of highest expected value against the per-row strength
  distributions of the field (``row_mass``), with the ruleset's row, royalty, sweep and
  overall terms; declares its best natural or surrenders when that is worth more.
  ``fitted`` is ``table`` with distributions fitted by fictitious play.

The EV model of ``table`` treats the three rows of an opponent as independent (the price of
a table policy; the Monte Carlo analyses are exact).  Fouls are never chosen.

Under a ruleset whose middle plays as a 2-7 low (``P_LOW_MIDDLE``) the middle's strength is on
the low scale: ``random`` draws among the settings legal there, ``greedy`` plays the strongest
back and the best legal low behind it, and the valued policies take
:func:`sapsam.kernels.low_search.best_low_split` (``houseway`` has no chart for it).
"""

from collections import namedtuple

import numpy as np
from numba import get_num_threads

from sapsam.kernels import settle as S
from sapsam.kernels.compiler import njit
from sapsam.kernels.evaluate import N_STRENGTHS, WHEEL_SECOND, eval3, eval5
from sapsam.kernels.low_search import best_low_split
from sapsam.kernels.low_settings import low_legal, low_subset_strengths
from sapsam.kernels.lowball import eval5_low
from sapsam.kernels.naturals import NAT_VALUE, best_natural
from sapsam.kernels.removal import Removal, prepare, removal_scratch
from sapsam.kernels.rng import below
from sapsam.kernels.search import COMPLETION_FRONT, COMPLETION_MIDDLE, COMPLETION_SPLIT, best_split, search_scratch
from sapsam.kernels.settings import (
    FIVE_POSITIONS,
    FRONT_POSITIONS,
    N_FIVES,
    N_SPLITS,
    SPLIT_ROWS,
    _frontier,
    frontier_scratch,
    subset_strengths,
)
from sapsam.kernels.threads import borrowed, parallel_for
from sapsam.kernels.value import (
    CLOSED_FORM,
    GAIN,
    N_VALUES,
    POINTS,
    REMOVED,
    ROWS_ONLY,
    SURRENDER_RATE,
    _closed_form_ev,
    _summed_ev,
    home_run_terms,
    monotone,
    outcome_values,
    value,
    value_kind,
)

POLICIES = ("random", "greedy", "balanced", "table", "houseway")
RANDOM, GREEDY, BALANCED, TABLE, HOUSEWAY = range(5)
# a policy as the kernels take it (sapsam.play.policy.Policy.arrays): its code in POLICIES, its
# EV tables (TABLE_SHAPE, for ``table``), its per-row points (POINTS_SHAPE, for ``balanced``
# and ``houseway``) and its card-removal model (sapsam.kernels.removal.Removal, for ``table``;
# empty: none); see decide
Policy = namedtuple("Policy", ["code", "tables", "points", "removal"])
POINTS_SHAPE = (3, N_STRENGTHS + 1)  # per-row points of balanced and houseway, see decide
SURRENDER_BELOW = (0, N_STRENGTHS)  # where a points table keeps its surrender threshold
_FRONTIER_ROOM = 36036
# The kernels' ``search`` (decide's) is a bool, or SEARCH_ONLY for a searchable policy under a
# high middle (see search_mode).  SEARCH_ONLY must be None: Numba prunes the routes the kernels
# mark ``search is None`` / ``is not None`` for a None-typed argument, and compiles one kernel per
# type.  SEARCH_AUTO, play_hands's default, is not a kernel argument: it asks search_mode.
SEARCH_ONLY = None
DECIDE = -2  # choose's size when decide calls it
SEARCH_AUTO = "auto"


@njit(cache=True)
def split_rows(hand, split, params):
    """Strength triple of split ``split`` of a sorted hand under a compiled ruleset (its wheel
    rank; a low middle on the 2-7 scale): ndarray(int16), shape (3,)."""
    f = FRONT_POSITIONS[SPLIT_ROWS[split, 0]]
    m = FIVE_POSITIONS[SPLIT_ROWS[split, 1]]
    b = FIVE_POSITIONS[SPLIT_ROWS[split, 2]]
    out = np.empty(3, np.int16)
    out[0] = eval3(hand[f[0]], hand[f[1]], hand[f[2]])
    out[1] = eval5(hand[m[0]], hand[m[1]], hand[m[2]], hand[m[3]], hand[m[4]])
    out[2] = eval5(hand[b[0]], hand[b[1]], hand[b[2]], hand[b[3]], hand[b[4]])
    if params[S.P_WHEEL_SECOND]:
        out[1] = WHEEL_SECOND[out[1]]
        out[2] = WHEEL_SECOND[out[2]]
    if params[S.P_LOW_MIDDLE]:
        out[1] = eval5_low(hand[m[0]], hand[m[1]], hand[m[2]], hand[m[3]], hand[m[4]])
    return out


@njit(cache=True)
def split_legal(hand, split, params):
    """Whether split ``split`` of a sorted hand is a legal setting under a compiled ruleset."""
    r = split_rows(hand, split, params)
    if not params[S.P_LOW_MIDDLE]:
        return r[2] >= r[1] and r[1] >= r[0]
    m = FIVE_POSITIONS[SPLIT_ROWS[split, 1]]
    high = eval5(hand[m[0]], hand[m[1]], hand[m[2]], hand[m[3]], hand[m[4]])
    if params[S.P_WHEEL_SECOND]:
        high = WHEEL_SECOND[high]
    return low_legal(r[0], high, r[2], params[S.P_LOW_HIGH_ORDER] != 0)


@njit(cache=True)
def random_legal_split(hand, params, state):
    """A split drawn uniformly from the legal ones (rejection sampling; ~3 draws on average)."""
    while True:
        split = below(state, N_SPLITS)
        if split_legal(hand, split, params):
            return split


@njit(cache=True)
def greedy_low_split(s3, s5, l5, high_order):
    """With a low middle: the strongest back, then the best low among the completions legal
    behind it (ties to the stronger front, then the smaller split)."""
    back = 0
    for i in range(N_FIVES):
        if s5[i] > s5[back]:
            back = i
    best = -1
    for j in range(COMPLETION_SPLIT.shape[1]):
        sf = s3[COMPLETION_FRONT[back, j]]
        if not low_legal(sf, s5[COMPLETION_MIDDLE[back, j]], s5[back], high_order):
            continue
        sm = l5[COMPLETION_MIDDLE[back, j]]
        if best < 0 or sm > l5[COMPLETION_MIDDLE[back, best]] or (
                sm == l5[COMPLETION_MIDDLE[back, best]] and sf > s3[COMPLETION_FRONT[back, best]]):
            best = j
    return COMPLETION_SPLIT[back, best]


@njit(cache=True)
def greedy_split(hand, wheel_second, s3, s5):
    """Strongest back, then strongest middle of the remaining eight; the rest in front."""
    subset_strengths(hand, wheel_second, s3, s5)
    back = np.int64(0)
    for i in range(N_FIVES):
        if s5[i] > s5[back]:
            back = i
    taken = 0
    for p in FIVE_POSITIONS[back]:
        taken |= 1 << p
    middle = np.int64(-1)  # not a literal, which would compile _split_of once more
    for i in range(N_FIVES):
        used = 0
        for p in FIVE_POSITIONS[i]:
            used |= 1 << p
        if used & taken == 0 and (middle < 0 or s5[i] > s5[middle]):
            middle = i
    return _split_of(back, middle)


@njit(cache=True)
def _split_of(back, middle):
    """Split index whose middle and back are the given five-card position subsets."""
    taken = 0
    for p in FIVE_POSITIONS[back]:
        taken |= 1 << p
    for p in FIVE_POSITIONS[middle]:
        taken |= 1 << p
    front = np.empty(3, np.int64)
    k = 0
    for p in range(13):
        if not taken & (1 << p):
            front[k] = p
            k += 1
    # index of the front among the 3-subsets (lexicographic) and of the middle among the
    # 5-subsets of the remaining ten positions
    f_index = 0
    for i in range(FRONT_POSITIONS.shape[0]):
        if (FRONT_POSITIONS[i, 0] == front[0] and FRONT_POSITIONS[i, 1] == front[1]
                and FRONT_POSITIONS[i, 2] == front[2]):
            f_index = i
            break
    for s in range(f_index * 252, f_index * 252 + 252):
        if SPLIT_ROWS[s, 1] == middle and SPLIT_ROWS[s, 2] == back:
            return s
    return -1


@njit(cache=True, inline="always")
def _better(value, split, best_value, best_split):
    """Whether (value, split) beats the best so far: a higher value, ties to the smaller split."""
    return value > best_value or (value == best_value and split < best_split)


@njit(cache=True)
def _best_on_frontier(kind, houseway, tables, values, points, params, opponents, size, splits, rows,
                      removal, prepared):
    """Best frontier split for ``balanced``, ``houseway`` or ``table``; returns (split,
    value): the best value, ties to the smaller split (``houseway``: to the stronger front,
    then middle, then back).  One loop per kind of value, its parameters read before it, so
    that the hot one has no branch but the comparison; each computes exactly what
    :func:`sapsam.kernels.value.value` computes (the search's tests hold them to it)."""
    if houseway:  # its own tie-break, in the one loop that has it
        return _best_valued(kind, np.bool_(True), tables, values, points, removal, prepared, params, opponents,
                            size, splits, rows)
    best_split = -1
    best_value = -1e300
    if kind == POINTS:
        for i in range(size):
            v = points[0, rows[i, 0]] + points[1, rows[i, 1]] + points[2, rows[i, 2]]
            if _better(v, splits[i], best_value, best_split):
                best_value, best_split = v, splits[i]
    elif kind == CLOSED_FORM:
        for i in range(size):
            v = _closed_form_ev(rows[i, 0], rows[i, 1], rows[i, 2], tables, params, opponents)
            if _better(v, splits[i], best_value, best_split):
                best_value, best_split = v, splits[i]
    elif kind == ROWS_ONLY:
        for i in range(size):
            v = (tables[0, rows[i, 0], GAIN] + tables[1, rows[i, 1], GAIN]
                 + tables[2, rows[i, 2], GAIN]) * opponents
            if _better(v, splits[i], best_value, best_split):
                best_value, best_split = v, splits[i]
    else:
        scoop = params[S.P_SCOOP_MULT]
        home, field = home_run_terms(params, tables, opponents)
        for i in range(size):
            # unsigned strengths index without numba's negative-index fix-up
            v = _summed_ev(np.uint16(rows[i, 0]), np.uint16(rows[i, 1]), np.uint16(rows[i, 2]),
                           tables, values, scoop, home, field, opponents)
            if _better(v, splits[i], best_value, best_split):
                best_value, best_split = v, splits[i]
    return best_split, best_value


@njit(cache=True)
def _best_valued(kind, houseway, tables, values, points, removal, prepared, params, opponents, size,
                 splits, rows):
    """:func:`_best_on_frontier` with :func:`sapsam.kernels.value.value` for each member: the same
    choice.  The search's rare fallback under :data:`SEARCH_ONLY` takes it, where it compiles
    in a fraction of the time (one call rather than a loop per kind of value), and so do the
    house way's frontier (its ties go to the stronger rows) and a card-removal model's
    (kinds plus :data:`sapsam.kernels.value.REMOVED`)."""
    best = -1
    best_value = -1e300
    for i in range(size):
        v = value(kind, np.uint16(rows[i, 0]), np.uint16(rows[i, 1]), np.uint16(rows[i, 2]), tables,
                  values, points, removal, prepared, params, opponents)
        if best < 0 or v > best_value or (v == best_value and (
                _rows_before(rows, i, best) if houseway else splits[i] < splits[best])):
            best_value, best = v, i
    return (splits[best] if best >= 0 else -1), best_value


@njit(cache=True, inline="always")
def _rows_before(rows, i, best):
    """Whether member ``i`` has the stronger front, then middle, then back (the house way's
    tie-break)."""
    return rows[i, 0] > rows[best, 0] or (rows[i, 0] == rows[best, 0] and (
        rows[i, 1] > rows[best, 1] or (rows[i, 1] == rows[best, 1] and rows[i, 2] > rows[best, 2])))


def searchable(policy, tables, points, removal, params):
    """Whether :func:`decide` may find the policy's setting by search (:mod:`sapsam.kernels.search`)
    rather than by building the frontier: a ``balanced``, ``table`` or ``houseway`` policy
    whose value is :func:`sapsam.kernels.value.monotone` (for ``table``, that of its field's
    tables: a card-removal model keeps the rows' chances cumulative and its tests hold its
    searched decisions to the frontier's).  Checked once per policy and ruleset, not
    per hand (it reads the whole tables); plain Python, like :func:`sapsam.kernels.value.monotone`."""
    if policy != BALANCED and policy != TABLE and policy != HOUSEWAY:
        return False
    values = np.zeros(N_VALUES)
    if policy == TABLE:
        outcome_values(params, values)
    kind = value_kind(policy != TABLE, params, values)
    return monotone(kind, tables, values, points, params)


def search_mode(policy, tables, points, removal, params):
    """What :func:`decide` and the kernels that call it take as ``search``: :data:`SEARCH_ONLY`
    for a :func:`searchable` policy under a high middle, else whether it is searchable.

    Numba compiles a kernel for each type of ``search``: given None it prunes the routes of
    ``random``, ``greedy`` and the low middle unseen, so the kernels a command uses most
    (``best`` and ``fit`` with valued opponents) compile in about three quarters of the time.
    """
    search = bool(searchable(policy, tables, points, removal, params))
    return SEARCH_ONLY if search and not params[S.P_LOW_MIDDLE] else search


@njit(cache=True, inline="always")
def has_removal(removal):
    """Whether a policy's card-removal model (:class:`sapsam.kernels.removal.Removal`) is one."""
    return removal.xmean.shape[0] > 0


@njit(cache=True)
def policy_scratch():
    """Scratch arrays for :func:`decide`, one set per thread: the frontier's, room for a
    frontier, the outcome values, the search's, the low strengths of the five-card
    subsets, and a hand's card-removal correction."""
    return (frontier_scratch(), np.empty(_FRONTIER_ROOM, np.int32),
            np.empty((_FRONTIER_ROOM, 3), np.int16), np.empty(N_VALUES), search_scratch(),
            np.empty(N_FIVES, np.int16), removal_scratch())


@njit(cache=True, inline="always")
def decide(hand, other, policy, tables, points, removal, params, naturals, opponents, search, state,
           scratch):
    """A policy's decision for one sorted 13-card hand.

    Parameters
    ----------
    hand : ndarray(uint8), shape (13,)
        Sorted.
    other : ndarray(uint8), shape (13,) or (0,)
        The player's other hand in criss-cross (its cards count in the card-removal model's
        features), none elsewhere.
    policy, tables, points, removal : int, ndarray(float64), ndarray(float64), Removal
        A :class:`Policy`'s fields, taken apart (a bundle unpacked at every hand costs the
        random policy a quarter of its rate in reference counts): ``code`` (in
        :data:`POLICIES`); the EV tables, TABLE_SHAPE (:func:`sapsam.kernels.value.ev_tables`),
        for ``table``, ignored otherwise; the per-row points, :data:`POINTS_SHAPE`, of
        ``balanced`` and ``houseway`` (``points[k, s]`` for row k and strength s;
        ``points[SURRENDER_BELOW]`` is the total below which ``houseway`` surrenders, -inf:
        never), ignored by the other policies; ``table``'s card-removal model
        (:mod:`sapsam.kernels.removal`; empty: none), which corrects its tables for the cards
        the hand holds (under a high middle; a frontier is then always built).
    params, naturals : ndarray(int64)
        The compiled ruleset's (:class:`sapsam.kernels.settle.Rules`).
    opponents : int
        Opponents at the table.
    search : bool or SEARCH_ONLY
        :func:`searchable` for this policy and ruleset: search for the setting rather than
        build the whole frontier (the same decision, faster).  :data:`SEARCH_ONLY` (None)
        when it is searchable and the middle is high, as :func:`search_mode` says: Numba
        then compiles the search's route alone.
    state : ndarray(uint64), shape (1,)
        RNG state (``random`` only).
    scratch : tuple
        From :func:`policy_scratch`.

    Returns
    -------
    (split, natural, natural_key, surrender) : (int, int, int, bool)
        ``split`` is -1 when the hand declares a natural or surrenders.
    """
    # choose itself starts with what is decide's own (size DECIDE): inlined, decide compiles no
    # second copy of choose's whole call tree (2.3 s of a first sapsam best)
    return choose(hand, other, policy, tables, points, removal, params, naturals,
                  (np.int64(-1), np.int64(-1)), opponents, search, state, scratch, scratch[0][0],
                  scratch[0][1], scratch[5], scratch[1], scratch[2], np.int64(DECIDE))


@njit(cache=True)
def choose(hand, other, policy, tables, points, removal, params, naturals, held, opponents, search,
           state, scratch, s3, s5, l5, splits, rows, size):
    """:func:`decide` given the hand's best natural, ``held`` = (index, key) as
    :func:`sapsam.kernels.naturals.best_natural` gives it, and what the hand's setting is found from,
    on this ruleset's strength scale: with ``search``, the strengths of its fronts and
    five-card subsets ``s3`` and ``s5``; otherwise its frontier, ``size`` members in ``splits``
    and ``rows`` (``size`` -1: build it there).  With a low middle, always ``s3``, ``s5`` and
    the subsets' low strengths ``l5``, and ``search`` says whether the low search may prune.
    One evaluation of the subsets or one frontier, and one detection of naturals, serve every
    ruleset of a simulation.  ``size`` :data:`DECIDE`: :func:`decide`'s call, which finds
    ``held`` and the strengths here, into ``s3``, ``s5`` and ``l5``."""
    if size == DECIDE:
        size = -1
        low_strengths = params[S.P_LOW_MIDDLE] != 0 and policy != RANDOM  # the others read them
        if search is not None and low_strengths:  # (with SEARCH_ONLY, Numba compiles no low middle)
            low_subset_strengths(hand, l5)
        if search is None or search or low_strengths:
            subset_strengths(hand, params[S.P_WHEEL_SECOND] != 0, s3, s5)
        if (policy == TABLE or policy == HOUSEWAY) and naturals.shape[0] > 0:
            held = best_natural(hand, naturals)
    frontier, _, _, values, found, _, prepared = scratch
    wheel = params[S.P_WHEEL_SECOND] != 0
    low = params[S.P_LOW_MIDDLE] != 0
    high_order = params[S.P_LOW_HIGH_ORDER] != 0
    if search is not None:  # with SEARCH_ONLY, Numba compiles none of this (see search_mode)
        if policy == RANDOM:
            return random_legal_split(hand, params, state), -1, np.int64(0), False
        if policy == GREEDY:
            if low:
                return greedy_low_split(s3, s5, l5, high_order), -1, np.int64(0), False
            return greedy_split(hand, wheel, frontier[0], frontier[1]), -1, np.int64(0), False
    if policy == TABLE:
        outcome_values(params, values)
    kind = value_kind(policy != TABLE, params, values)
    if policy == TABLE and removal.xmean.shape[0] > 0:
        prepare(hand, other, removal, prepared)
        kind += REMOVED
    split = -1
    best = 0.0
    if search is not None and low:
        split, best = best_low_split(s3, s5, l5, high_order, kind, tables, values, points, removal,
                                     prepared, params, opponents, search, found)
    elif search is None or search:
        split, best = best_split(s3, s5, kind, policy == HOUSEWAY, tables, values, points, removal,
                                 prepared, params, opponents, found)
        size = -1  # the search gave up (rare): the frontier decides
    if split < 0 and not low:
        if size < 0:
            _, size = _frontier(hand, wheel, frontier, splits, rows)
        if search is None or kind > REMOVED:
            split, best = _best_valued(kind, policy == HOUSEWAY, tables, values, points, removal,
                                       prepared, params, opponents, size, splits, rows)
        else:
            split, best = _best_on_frontier(kind, policy == HOUSEWAY, tables, values, points,
                                            params, opponents, size, splits, rows, removal, prepared)
    index, key = held
    if policy == HOUSEWAY:
        if index >= 0:
            return -1, index, key, False
        if params[S.P_SURRENDER_ALLOWED] and best < points[SURRENDER_BELOW]:
            return -1, -1, np.int64(0), True
    if policy == TABLE:
        if index >= 0 and naturals[index, NAT_VALUE] * opponents >= best:
            return -1, index, key, False
        if params[S.P_SURRENDER_ALLOWED]:
            # against a field where a share q surrenders: a setting collects the cost from
            # them, a surrender pays only the others
            q = tables[SURRENDER_RATE]
            cost = params[S.P_SURRENDER_COST] * opponents
            if -cost * (1.0 - q) > (1.0 - q) * best + q * cost:
                return -1, -1, np.int64(0), True
    return split, -1, np.int64(0), False


@njit(cache=True)
def place(hand, decision, params, seat, rows, natural, natural_key, surrender):
    """Write one seat's decision (as :func:`decide` returns it) into the one-table arrays of
    :func:`sapsam.kernels.settle.settle_into` (leading table axis of length 1)."""
    split, nat, key, sur = decision
    if split >= 0:
        r = split_rows(hand, split, params)
        rows[0, seat, 0] = r[0]
        rows[0, seat, 1] = r[1]
        rows[0, seat, 2] = r[2]
    natural[0, seat] = nat
    natural_key[0, seat] = key
    surrender[0, seat] = sur


@njit(cache=True, inline="always")
def _borrowed_removal(removal):
    """A card-removal model of borrowed arrays (:func:`sapsam.kernels.threads.borrowed`)."""
    return Removal(borrowed(removal.gamma), borrowed(removal.xmean), borrowed(removal.bin_of),
                   borrowed(removal.bins_sum), borrowed(removal.rows), borrowed(removal.copula))


@njit(cache=True, nogil=True)
def play_chunk(hands, paired, policy, rules, opponents, search, states, bounds, rows, natural,
               natural_key, surrender, c):
    """Chunk ``c`` of :func:`play_hands`: hands ``bounds[c]`` up to ``bounds[c + 1]``, by the
    random stream ``states[c]``; with ``paired``, hand ``i``'s other is hand ``i ^ 1``."""
    hands, code = borrowed(hands), policy.code
    tables, points, removal = borrowed(policy.tables), borrowed(policy.points), _borrowed_removal(policy.removal)
    params, naturals = borrowed(rules.params), borrowed(rules.naturals)
    state = states[c:c + 1].copy()
    scratch = policy_scratch()
    for i in range(bounds[c], bounds[c + 1]):
        other = hands[i ^ 1] if paired else hands[i, :0]
        split, nat, key, sur = decide(hands[i], other, code, tables, points, removal, params, naturals,
                                      opponents, search, state, scratch)
        natural[i] = nat
        natural_key[i] = key
        surrender[i] = sur
        if split >= 0:
            r = split_rows(hands[i], split, params)
            rows[i, 0] = r[0]
            rows[i, 1] = r[1]
            rows[i, 2] = r[2]
        else:
            rows[i, :] = -1


def play_hands(hands, policy, rules, opponents, states, progress=None, steps=8, search=SEARCH_AUTO,
               paired=False):
    """Decisions of a :class:`Policy` for many sorted hands, in parallel, under ``rules``
    (:class:`sapsam.kernels.settle.Rules`).

    ``states`` ndarray(uint64), shape (chunks,): one RNG stream per chunk of consecutive hands
    (chunk ``c`` is hands ``c * n // chunks`` up to the next; the chunking, not the thread
    count, fixes the numbers).  Returns ``rows`` int16 (n, 3) (-1 for a natural or
    surrender), ``natural`` int64 (n,), ``natural_key`` int64 (n,) and ``surrender`` bool (n,).
    With ``progress``, the chunks run in ``steps`` groups and ``progress(hands_done, n)`` is
    called after each: the same numbers, told as they come.  ``search`` chooses how
    ``balanced``, ``table`` and ``houseway`` find their setting: :data:`SEARCH_AUTO` (the
    default) as :func:`search_mode` says; ``False`` builds every hand's frontier, for the same
    decisions; :data:`SEARCH_ONLY` only where :func:`search_mode` gives it.  ``paired``: the
    hands are criss-cross players' pairs (hand ``i``'s other is hand ``i ^ 1``, an even count).
    """
    if search is SEARCH_AUTO:
        search = search_mode(*policy, rules.params)
    elif search is SEARCH_ONLY:
        if search_mode(*policy, rules.params) is not SEARCH_ONLY:
            raise ValueError("SEARCH_ONLY is for a searchable policy under a high middle (search_mode)")
    else:
        search = bool(search)  # one compiled kernel for Python's and NumPy's booleans
    n = hands.shape[0]
    if paired and n % 2:
        raise ValueError(f"paired hands come two by two, got {n}")
    n_chunks = states.shape[0]
    bounds = (np.arange(n_chunks + 1, dtype=np.int64) * n) // max(n_chunks, 1)
    rows = np.empty((n, 3), np.int16)
    natural = np.empty(n, np.int64)
    natural_key = np.empty(n, np.int64)
    surrender = np.empty(n, np.bool_)
    groups = 1 if progress is None else max(1, min(steps, n_chunks // (2 * get_num_threads())))
    cuts = [g * n_chunks // groups for g in range(groups + 1)]
    for first, last in zip(cuts[:-1], cuts[1:]):
        parallel_for(lambda c: play_chunk(hands, paired, policy, rules, opponents, search, states, bounds,
                                          rows, natural, natural_key, surrender, c), range(first, last))
        if progress is not None:
            progress(int(bounds[last]), n)
    return rows, natural, natural_key, surrender
