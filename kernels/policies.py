"""Opponent policies: a 13-card hand in, a decision out (a legal setting, a natural or surrender).

Policies (codes are positions in :data:`POLICIES`):

- ``random``: uniform over the legal settings (rejection sampling over the 72,072 splits).
- ``greedy``: the strongest back, then the strongest middle from the other eight cards.
- ``balanced``: the rule of thumb "make every row as good as it can be for its position":
  the frontier setting with the largest sum of row percentiles, each row's percentile taken
  against random hands of its size (all 22,100 fronts; all 2,598,960 five-card hands).  Its
  ``points`` table holds those percentiles.
- ``houseway``: a short point count (``analysis.strategy.houseway``): the frontier setting with the
  most chart points (ties to the stronger back, then middle, then front); declares any
  natural it holds; surrenders when its best total is below the chart's threshold.
- ``table``: the frontier setting of highest expected value against the per-row strength
  distributions of the field (``row_mass``), with the ruleset's row, royalty, sweep and
  overall terms; declares its best natural or surrenders when that is worth more.
  ``fitted`` is ``table`` with distributions fitted by fictitious play.

The EV model of ``table`` treats the three rows of an opponent as independent (the price of
a table policy; the Monte Carlo analyses are exact).  Fouls are never chosen.
"""

import numpy as np
from numba import get_num_threads, njit, prange

from kernels import settle as S
from kernels.evaluate import CATEGORY_OF, N_STRENGTHS, WHEEL_SECOND, eval3, eval5
from kernels.naturals import best_natural
from kernels.rng import below
from kernels.settings import (
    FIVE_POSITIONS,
    FRONT_POSITIONS,
    N_FIVES,
    N_SPLITS,
    SPLIT_ROWS,
    _frontier,
    frontier_scratch,
    subset_strengths,
)

POLICIES = ("random", "greedy", "balanced", "table", "houseway")
RANDOM, GREEDY, BALANCED, TABLE, HOUSEWAY = range(5)
POINTS_SHAPE = (3, N_STRENGTHS + 1)  # per-row points of balanced and houseway, see decide
SURRENDER_BELOW = (0, N_STRENGTHS)  # where a points table keeps its surrender threshold
TABLE_SHAPE = (3, N_STRENGTHS + 1, 4)  # an EV table, see ev_tables
WIN, TIE, LOSS, GAIN = range(4)  # its columns
_SURRENDER_RATE = (0, N_STRENGTHS, 0)  # where ev_tables keeps the field's surrender rate
N_VALUES = 27  # outcome values, see outcome_values
_FRONTIER_ROOM = 36036


@njit(cache=True)
def split_rows(hand, split, wheel_second):
    """Strength triple of split ``split`` of a sorted hand: ndarray(int16), shape (3,)."""
    f = FRONT_POSITIONS[SPLIT_ROWS[split, 0]]
    m = FIVE_POSITIONS[SPLIT_ROWS[split, 1]]
    b = FIVE_POSITIONS[SPLIT_ROWS[split, 2]]
    out = np.empty(3, np.int16)
    out[0] = eval3(hand[f[0]], hand[f[1]], hand[f[2]])
    out[1] = eval5(hand[m[0]], hand[m[1]], hand[m[2]], hand[m[3]], hand[m[4]])
    out[2] = eval5(hand[b[0]], hand[b[1]], hand[b[2]], hand[b[3]], hand[b[4]])
    if wheel_second:
        out[1] = WHEEL_SECOND[out[1]]
        out[2] = WHEEL_SECOND[out[2]]
    return out


@njit(cache=True)
def random_legal_split(hand, wheel_second, state):
    """A split drawn uniformly from the legal ones (rejection sampling; ~3 draws on average)."""
    while True:
        split = below(state, N_SPLITS)
        r = split_rows(hand, split, wheel_second)
        if r[2] >= r[1] and r[1] >= r[0]:
            return split


@njit(cache=True)
def greedy_split(hand, wheel_second, s3, s5):
    """Strongest back, then strongest middle of the remaining eight; the rest in front."""
    subset_strengths(hand, wheel_second, s3, s5)
    back = 0
    for i in range(N_FIVES):
        if s5[i] > s5[back]:
            back = i
    taken = 0
    for p in FIVE_POSITIONS[back]:
        taken |= 1 << p
    middle = -1
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


@njit(cache=True)
def ev_tables(row_mass, params, royalty, surrender_rate):
    """Per-row EV tables from the field's row strength distributions.

    Parameters
    ----------
    row_mass : ndarray(float64), shape (3, N_STRENGTHS)
        Probability of each strength in each row of an opponent's setting (among opponents
        who set their hands).
    surrender_rate : float
        Share of the field that surrenders (kept at ``tables[0, N_STRENGTHS, 0]``): a
        surrendering opponent pays the surrender cost to a setting, and nothing to another
        surrender.

    Returns
    -------
    ndarray(float64), shape :data:`TABLE_SHAPE` = (3, N_STRENGTHS + 1, 4)
        For row k and own strength s, ``tables[k, s]`` holds [WIN] P(opponent's row weaker),
        [TIE] P(equal), [LOSS] P(stronger) and [GAIN] the expected units of the row alone:
        the row's payment when it wins, less the expected payment to an opponent who beats
        it, plus the royalty s earns and less the opponent's expected royalty (``always``
        mode).  Everything else a comparison pays depends on all three rows (see
        :func:`outcome_values`).  One row of four numbers per lookup keeps a setting's EV
        to three cache lines.
    """
    out = np.zeros(TABLE_SHAPE)
    out[_SURRENDER_RATE] = surrender_rate
    extra = params[S.P_ROYALTY_EXTRA]
    always = params[S.P_ROYALTY_ALWAYS]
    two_of_three = params[S.P_BASE] == S.BASE_TWO_OF_THREE
    pay = np.empty(N_STRENGTHS)
    earned = np.zeros(N_STRENGTHS)
    for k in range(3):
        mean_royalty = 0.0
        for s in range(N_STRENGTHS):
            roy = royalty[k, CATEGORY_OF[s]]
            unit = 0.0 if two_of_three else 1.0
            if always:
                pay[s] = unit
                earned[s] = roy
            elif extra:
                pay[s] = unit + roy
            else:
                pay[s] = roy if roy > 0 else unit
            if always:
                mean_royalty += row_mass[k, s] * roy
        below_mass = 0.0
        for s in range(N_STRENGTHS):
            out[k, s, WIN] = below_mass
            out[k, s, TIE] = row_mass[k, s]
            out[k, s, LOSS] = max(0.0, 1.0 - below_mass - row_mass[k, s])
            below_mass += row_mass[k, s]
        above_pay = 0.0
        for s in range(N_STRENGTHS - 1, -1, -1):
            out[k, s, GAIN] = out[k, s, WIN] * pay[s] - above_pay + earned[s] - mean_royalty
            above_pay += row_mass[k, s] * pay[s]
    return out


@njit(cache=True)
def outcome_values(params, out):
    """What a comparison pays beyond the rows' own units (:data:`GAIN`), per outcome.

    Fills ``out`` (:data:`N_VALUES`,): at ``9 a + 3 b + c`` the units for front, middle and
    back outcomes a, b, c (0 win, 1 tie, 2 loss): the base's extras, the sweep bonus and the
    overall point.  Each depends only on wins minus losses, computed the same way for equal
    differences, so equal differences get identical values (:func:`_summed_ev` relies on it).
    """
    base = params[S.P_BASE]
    for a in range(3):
        for b in range(3):
            for c in range(3):
                wins = (a == 0) + (b == 0) + (c == 0)
                losses = (a == 2) + (b == 2) + (c == 2)
                v = 0.0
                if base == S.BASE_TWO_FOUR:
                    v += 1.0 if wins > losses else (-1.0 if losses > wins else 0.0)
                elif base == S.BASE_ONE_SIX:
                    v += 3.0 if wins == 3 else (-3.0 if losses == 3 else 0.0)
                elif base == S.BASE_TWO_OF_THREE:
                    if wins == 3:
                        v += params[S.P_SWEEP_UNITS]
                    elif losses == 3:
                        v -= params[S.P_SWEEP_UNITS]
                    elif wins > losses:
                        v += params[S.P_MAJORITY_UNITS]
                    elif losses > wins:
                        v -= params[S.P_MAJORITY_UNITS]
                if wins == 3:
                    v += params[S.P_SWEEP_BONUS]
                elif losses == 3:
                    v -= params[S.P_SWEEP_BONUS]
                if params[S.P_OVERALL_POINT]:
                    v += 1.0 if wins > losses else (-1.0 if losses > wins else 0.0)
                out[9 * a + 3 * b + c] = v


@njit(cache=True, inline="always")
def _dot(b0, b1, b2, values, o):
    """Outcome probabilities (win, tie, loss) against the values at ``o .. o + 2``."""
    return b0 * values[o] + b1 * values[o + 1] + b2 * values[o + 2]


@njit(cache=True, inline="always")
def _power(x, n):
    """``x ** n`` for a small whole ``n`` (a float power call costs more than the EV)."""
    y = 1.0
    for _ in range(n):
        y *= x
    return y


@njit(cache=True, inline="always")
def _closed_form_ev(s0, s1, s2, tables, game, stake, opponents):
    """EV in the pool and single-winner games, which need no outcome sum.

    Pool: each row's stake goes to its best hand, shared on ties (a tie counted as half a
    win).  Single winner: the whole table to the player who wins two rows of three against
    every opponent.
    """
    f0, m0, b0 = tables[0, s0, WIN], tables[1, s1, WIN], tables[2, s2, WIN]
    if game == S.GAME_POOL:
        share = (_power(f0 + 0.5 * tables[0, s0, TIE], opponents)
                 + _power(m0 + 0.5 * tables[1, s1, TIE], opponents)
                 + _power(b0 + 0.5 * tables[2, s2, TIE], opponents))
        return share * stake * (opponents + 1) / 3.0
    two_of_three = f0 * m0 + f0 * b0 + m0 * b0 - 2.0 * f0 * m0 * b0
    return _power(two_of_three, opponents) * (opponents + 1)


@njit(cache=True, inline="always")
def _summed_ev(s0, s1, s2, tables, values, scoop, opponents):
    """EV of the games that sum over outcomes (all but pool and single winner); ``scoop`` is
    the sweep multiplier; ``s0, s1, s2`` the setting's strengths (scalars: a view of a
    frontier row per member costs reference counting).

    The hot loop of every table policy: scalar loads and the 27-outcome sum written out.  An
    outcome's value depends only on wins minus losses (:func:`outcome_values`), so the back's
    three outcomes are dotted once per net result of front and middle (five dots, not nine);
    the sum is the same, bit for bit, as the plain 27 terms.  Loading a member's three table
    rows costs about as much as the sum, so every frontier member is valued (bounds to skip
    some cost as much as they save).
    """
    f0, f1, f2 = tables[0, s0, WIN], tables[0, s0, TIE], tables[0, s0, LOSS]
    m0, m1, m2 = tables[1, s1, WIN], tables[1, s1, TIE], tables[1, s1, LOSS]
    b0, b1, b2 = tables[2, s2, WIN], tables[2, s2, TIE], tables[2, s2, LOSS]
    gain = tables[0, s0, GAIN] + tables[1, s1, GAIN] + tables[2, s2, GAIN]
    if scoop > 1:  # a sweep multiplies what the rows paid (3 units and the gain if positive)
        gain += (f0 * m0 * b0 - f2 * m2 * b2) * (scoop - 1) * (3.0 + max(0.0, gain))
    # the back's dot when front and middle net +2, +1, 0, -1, -2 (values at 9 a + 3 b + c)
    up2 = _dot(b0, b1, b2, values, 0)
    up1 = _dot(b0, b1, b2, values, 3)
    even = _dot(b0, b1, b2, values, 6)
    down1 = _dot(b0, b1, b2, values, 15)
    down2 = _dot(b0, b1, b2, values, 24)
    extras = (f0 * (m0 * up2 + m1 * up1 + m2 * even)
              + f1 * (m0 * up1 + m1 * even + m2 * down1)
              + f2 * (m0 * even + m1 * down1 + m2 * down2))
    return (gain + extras) * opponents


@njit(cache=True)
def setting_ev(rows, tables, values, params, opponents):
    """Expected units of a setting against ``opponents`` independent players of the field;
    ``values`` from :func:`outcome_values`."""
    game = params[S.P_GAME]
    if game == S.GAME_POOL or game == S.GAME_SINGLE_WINNER:
        return _closed_form_ev(rows[0], rows[1], rows[2], tables, game, params[S.P_POOL_STAKE],
                               opponents)
    return _summed_ev(rows[0], rows[1], rows[2], tables, values, params[S.P_SCOOP_MULT], opponents)


@njit(cache=True, inline="always")
def _gain(rows, i, tables):
    """Row gain of frontier member ``i``: the units its rows earn on their own."""
    return (tables[0, rows[i, 0], GAIN] + tables[1, rows[i, 1], GAIN]
            + tables[2, rows[i, 2], GAIN])


@njit(cache=True, inline="always")
def _better(value, split, best_value, best_split):
    """Whether (value, split) beats the best so far: a higher value, ties to the smaller split."""
    return value > best_value or (value == best_value and split < best_split)


@njit(cache=True)
def _best_on_frontier(policy, tables, values, points, params, opponents, size, splits, rows):
    """Best frontier split for ``balanced``, ``houseway`` or ``table``; returns (split,
    value): the best value, ties to the smaller split (``houseway``: to the stronger back,
    then middle, then front).  One loop per kind of value, so that the hot one has no branch
    but the comparison."""
    best_split = -1
    best_value = -1e300
    game = params[S.P_GAME]
    if policy == BALANCED:
        for i in range(size):
            value = points[0, rows[i, 0]] + points[1, rows[i, 1]] + points[2, rows[i, 2]]
            if _better(value, splits[i], best_value, best_split):
                best_value, best_split = value, splits[i]
    elif policy == HOUSEWAY:
        best = -1
        for i in range(size):
            value = points[0, rows[i, 0]] + points[1, rows[i, 1]] + points[2, rows[i, 2]]
            if best < 0 or value > best_value or (value == best_value and (
                    rows[i, 2] > rows[best, 2] or (rows[i, 2] == rows[best, 2] and (
                        rows[i, 1] > rows[best, 1] or (rows[i, 1] == rows[best, 1]
                                                       and rows[i, 0] > rows[best, 0]))))):
                best_value, best = value, i
        best_split = splits[best] if best >= 0 else -1
    elif game == S.GAME_POOL or game == S.GAME_SINGLE_WINNER:
        stake = params[S.P_POOL_STAKE]
        for i in range(size):
            value = _closed_form_ev(rows[i, 0], rows[i, 1], rows[i, 2], tables, game, stake,
                                    opponents)
            if _better(value, splits[i], best_value, best_split):
                best_value, best_split = value, splits[i]
    elif params[S.P_SCOOP_MULT] <= 1 and not values.any():
        # rows only (no extras, no multiplier): the EV is the row gains, exactly as the sum
        # below would give it (every outcome term is +0.0), at a third of the cost
        for i in range(size):
            value = _gain(rows, i, tables) * opponents
            if _better(value, splits[i], best_value, best_split):
                best_value, best_split = value, splits[i]
    else:
        scoop = params[S.P_SCOOP_MULT]
        for i in range(size):
            # unsigned strengths index without numba's negative-index fix-up
            value = _summed_ev(np.uint16(rows[i, 0]), np.uint16(rows[i, 1]), np.uint16(rows[i, 2]),
                               tables, values, scoop, opponents)
            if _better(value, splits[i], best_value, best_split):
                best_value, best_split = value, splits[i]
    return best_split, best_value


def _frontier_values_body(rows, tables, values, params, opponents, out):
    for i in prange(rows.shape[0]):
        out[i] = setting_ev(rows[i], tables, values, params, opponents)


_frontier_values = njit(cache=True, parallel=True)(_frontier_values_body)


def frontier_values(rows, tables, values, params, opponents):
    """:func:`setting_ev` of many settings (``rows`` int16 (n, 3)), in parallel: float64 (n,)."""
    out = np.empty(rows.shape[0])
    _frontier_values(rows, tables, values, params, opponents, out)
    return out


@njit(cache=True)
def policy_scratch():
    """Scratch arrays for :func:`decide`, one set per thread."""
    return (frontier_scratch(), np.empty(_FRONTIER_ROOM, np.int32),
            np.empty((_FRONTIER_ROOM, 3), np.int16), np.empty(N_VALUES))


@njit(cache=True)
def decide(hand, policy, tables, points, params, naturals, opponents, state, scratch):
    """A policy's decision for one sorted 13-card hand.

    Parameters
    ----------
    hand : ndarray(uint8), shape (13,)
        Sorted.
    policy : int
        Code in :data:`POLICIES`.
    tables : ndarray(float64), shape TABLE_SHAPE
        EV tables (:func:`ev_tables`) for ``table``; ignored otherwise.
    points : ndarray(float64), shape :data:`POINTS_SHAPE`
        Per-row points of ``balanced`` and ``houseway`` (``points[k, s]`` for row k and
        strength s); ``points[SURRENDER_BELOW]`` is the total below which ``houseway``
        surrenders (-inf: never).  Ignored by the other policies.
    params, naturals : ndarray(int64)
        The compiled ruleset.
    opponents : int
        Opponents at the table.
    state : ndarray(uint64), shape (1,)
        RNG state (``random`` only).
    scratch : tuple
        From :func:`policy_scratch`.

    Returns
    -------
    (split, natural, natural_key, surrender) : (int, int, int, bool)
        ``split`` is -1 when the hand declares a natural or surrenders.
    """
    size = 0
    held = (-1, np.int64(-1))
    if policy == BALANCED or policy == TABLE or policy == HOUSEWAY:
        _, size = _frontier(hand, params[S.P_WHEEL_SECOND] != 0, scratch[0], scratch[1],
                            scratch[2])
    if (policy == TABLE or policy == HOUSEWAY) and naturals.shape[0] > 0:
        held = best_natural(hand, naturals)
    return choose(hand, policy, tables, points, params, naturals, held, opponents, state,
                  scratch, scratch[1], scratch[2], size)


@njit(cache=True, inline="always")
def choose(hand, policy, tables, points, params, naturals, held, opponents, state, scratch,
           splits, rows, size):
    """:func:`decide` given the hand's frontier (``size`` members in ``splits`` and ``rows``,
    on this ruleset's strength scale) and its best natural, ``held`` = (index, key) as
    :func:`kernels.naturals.best_natural` gives it.  One frontier and one detection of
    naturals serve every ruleset of a simulation."""
    frontier, _, _, values = scratch
    wheel = params[S.P_WHEEL_SECOND] != 0
    if policy == RANDOM:
        return random_legal_split(hand, wheel, state), -1, np.int64(0), False
    if policy == GREEDY:
        return greedy_split(hand, wheel, frontier[0], frontier[1]), -1, np.int64(0), False
    if policy == TABLE:
        outcome_values(params, values)
    split, value = _best_on_frontier(policy, tables, values, points, params, opponents, size,
                                     splits, rows)
    index, key = held
    if policy == HOUSEWAY:
        if index >= 0:
            return -1, index, key, False
        if params[S.P_SURRENDER_ALLOWED] and value < points[SURRENDER_BELOW]:
            return -1, -1, np.int64(0), True
    if policy == TABLE:
        if index >= 0 and naturals[index, 2] * opponents >= value:
            return -1, index, key, False
        if params[S.P_SURRENDER_ALLOWED]:
            # against a field where a share q surrenders: a setting collects the cost from
            # them, a surrender pays only the others
            q = tables[_SURRENDER_RATE]
            cost = params[S.P_SURRENDER_COST] * opponents
            if -cost * (1.0 - q) > (1.0 - q) * value + q * cost:
                return -1, -1, np.int64(0), True
    return split, -1, np.int64(0), False


@njit(cache=True, inline="always")
def place(hand, decision, wheel_second, seat, rows, natural, natural_key, surrender):
    """Write one seat's decision (as :func:`decide` returns it) into the one-table arrays of
    :func:`kernels.settle.settle_into` (leading table axis of length 1)."""
    split, nat, key, sur = decision
    if split >= 0:
        r = split_rows(hand, split, wheel_second)
        rows[0, seat, 0] = r[0]
        rows[0, seat, 1] = r[1]
        rows[0, seat, 2] = r[2]
    natural[0, seat] = nat
    natural_key[0, seat] = key
    surrender[0, seat] = sur


def _play_hands_body(hands, policy, tables, points, params, naturals, opponents, states, bounds,
                     rows, natural, natural_key, surrender):
    n_chunks = states.shape[0]
    wheel = params[S.P_WHEEL_SECOND] != 0
    for c in prange(n_chunks):
        state = states[c:c + 1].copy()
        scratch = policy_scratch()
        for i in range(bounds[c], bounds[c + 1]):
            split, nat, key, sur = decide(hands[i], policy, tables, points, params, naturals,
                                          opponents, state, scratch)
            natural[i] = nat
            natural_key[i] = key
            surrender[i] = sur
            if split >= 0:
                r = split_rows(hands[i], split, wheel)
                rows[i, 0] = r[0]
                rows[i, 1] = r[1]
                rows[i, 2] = r[2]
            else:
                rows[i, :] = -1


play_hands_parallel = njit(cache=True, parallel=True)(_play_hands_body)


def play_hands(hands, policy, tables, points, params, naturals, opponents, states,
               progress=None, steps=8):
    """Decisions of a policy for many sorted hands, in parallel.

    ``states`` ndarray(uint64), shape (chunks,): one RNG stream per chunk of consecutive hands
    (chunk ``c`` is hands ``c * n // chunks`` up to the next; the chunking, not the thread
    count, fixes the numbers).  Returns ``rows`` int16 (n, 3) (-1 for a natural or
    surrender), ``natural`` int64 (n,), ``natural_key`` int64 (n,) and ``surrender`` bool (n,).
    With ``progress``, the chunks run in ``steps`` groups and ``progress(hands_done, n)`` is
    called after each: the same numbers, told as they come.
    """
    n = hands.shape[0]
    n_chunks = states.shape[0]
    bounds = (np.arange(n_chunks + 1, dtype=np.int64) * n) // max(n_chunks, 1)
    rows = np.empty((n, 3), np.int16)
    natural = np.empty(n, np.int64)
    natural_key = np.empty(n, np.int64)
    surrender = np.empty(n, np.bool_)
    groups = 1 if progress is None else max(1, min(steps, n_chunks // (2 * get_num_threads())))
    cuts = [g * n_chunks // groups for g in range(groups + 1)]
    for first, last in zip(cuts[:-1], cuts[1:]):
        play_hands_parallel(hands, policy, tables, points, params, naturals, opponents,
                            states[first:last], bounds[first:last + 1], rows, natural,
                            natural_key, surrender)
        if progress is not None:
            progress(int(bounds[last]), n)
    return rows, natural, natural_key, surrender
