"""Opponent policies: a 13-card hand in, a decision out (a legal setting, a natural or surrender).

Policies (codes are positions in :data:`POLICIES`):

- ``random``: uniform over the legal settings (rejection sampling over the 72,072 splits).
- ``greedy``: the strongest back, then the strongest middle from the other eight cards.
- ``balanced``: the rule of thumb "make every row as good as it can be for its position":
  the frontier setting with the largest sum of row percentiles, each row's percentile taken
  against random hands of its size (all 22,100 fronts; all 2,598,960 five-card hands).
- ``table``: the frontier setting of highest expected value against the per-row strength
  distributions of the field (``row_mass``), with the ruleset's row, royalty, sweep and
  overall terms; declares its best natural or surrenders when that is worth more.
  ``fitted`` is ``table`` with distributions fitted by fictitious play.

The EV model of ``table`` treats the three rows of an opponent as independent (the price of
a table policy; the Monte Carlo analyses are exact).  Fouls are never chosen.
"""

import numpy as np
from numba import njit, prange

from kernels import settle as S
from kernels.evaluate import CATEGORY_OF, N_STRENGTHS, WHEEL_SECOND, eval3, eval5
from kernels.naturals import best_natural
from kernels.rng import below
from kernels.settings import (FIVE_POSITIONS, FRONT_POSITIONS, N_FIVES, N_SPLITS, SPLIT_ROWS,
                              _frontier, _scratch, subset_strengths)

POLICIES = ("random", "greedy", "balanced", "table")
RANDOM, GREEDY, BALANCED, TABLE = range(4)
N_TABLE = 7  # rows of an EV table per hand row, see ev_tables
_SURRENDER_RATE = (0, 6, 0)  # where ev_tables keeps the field's surrender rate
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
        if FRONT_POSITIONS[i, 0] == front[0] and FRONT_POSITIONS[i, 1] == front[1] and FRONT_POSITIONS[i, 2] == front[2]:
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
        Share of the field that surrenders (kept at ``tables[0, 6, 0]``): a surrendering
        opponent pays the surrender cost to a setting, and nothing to another surrender.

    Returns
    -------
    ndarray(float64), shape (3, N_TABLE, N_STRENGTHS)
        For row k and own strength s: [0] P(opponent weaker), [1] P(equal), [2] units won
        when the row wins, [3] expected units paid to an opponent who beats s,
        [4] the royalty s earns whatever happens (``always`` mode), [5] expected royalty of
        the opponent's row (``always`` mode); [6] holds the surrender rate (row 0, s = 0).
    """
    out = np.zeros((3, N_TABLE, N_STRENGTHS))
    out[_SURRENDER_RATE] = surrender_rate
    extra = params[S.P_ROYALTY_EXTRA]
    always = params[S.P_ROYALTY_ALWAYS]
    two_of_three = params[S.P_BASE] == S.BASE_TWO_OF_THREE
    for k in range(3):
        pay = np.empty(N_STRENGTHS)
        mean_royalty = 0.0
        for s in range(N_STRENGTHS):
            roy = royalty[k, CATEGORY_OF[s]]
            unit = 0.0 if two_of_three else 1.0
            if always:
                pay[s] = unit
                out[k, 4, s] = roy
            elif extra:
                pay[s] = unit + roy
            else:
                pay[s] = roy if roy > 0 else unit
            out[k, 2, s] = pay[s]
            mean_royalty += row_mass[k, s] * roy
        below_mass = 0.0
        for s in range(N_STRENGTHS):
            out[k, 0, s] = below_mass
            out[k, 1, s] = row_mass[k, s]
            below_mass += row_mass[k, s]
        above_pay = 0.0
        for s in range(N_STRENGTHS - 1, -1, -1):
            out[k, 3, s] = above_pay
            above_pay += row_mass[k, s] * pay[s]
        for s in range(N_STRENGTHS):
            out[k, 5, s] = mean_royalty
    return out


@njit(cache=True, inline="always")
def _outcomes(tables, k, s):
    w = tables[k, 0, s]
    t = tables[k, 1, s]
    return (w, t, max(0.0, 1.0 - w - t))


@njit(cache=True, inline="always")
def _row_gain(rows, tables):
    """Expected row and royalty units against one opponent (the separable part of the EV)."""
    gain = 0.0
    for k in range(3):
        s = rows[k]
        gain += tables[k, 0, s] * tables[k, 2, s] - tables[k, 3, s] + tables[k, 4, s] - tables[k, 5, s]
    return gain


@njit(cache=True)
def extras_bound(params):
    """Largest expected units the base's extras, the sweep bonus and the overall point can add
    per opponent; infinite where the EV is not row gain plus such extras (multipliers, pool,
    single winner), which turns pruning off."""
    game = params[S.P_GAME]
    if game == S.GAME_POOL or game == S.GAME_SINGLE_WINNER or params[S.P_SCOOP_MULT] > 1:
        return np.inf
    base = params[S.P_BASE]
    bound = 0.0
    if base == S.BASE_TWO_FOUR:
        bound = 1.0
    elif base == S.BASE_ONE_SIX:
        bound = 3.0
    elif base == S.BASE_TWO_OF_THREE:
        bound = max(params[S.P_SWEEP_UNITS], params[S.P_MAJORITY_UNITS])
    return bound + params[S.P_SWEEP_BONUS] + (1.0 if params[S.P_OVERALL_POINT] else 0.0)


@njit(cache=True)
def setting_ev(rows, tables, params, opponents):
    """Expected units of a setting against ``opponents`` independent players of the field."""
    gain = _row_gain(rows, tables)
    # per row (P(win), P(tie), P(loss)) as tuples: no allocation in this hot function
    p0 = _outcomes(tables, 0, rows[0])
    p1 = _outcomes(tables, 1, rows[1])
    p2 = _outcomes(tables, 2, rows[2])
    game = params[S.P_GAME]
    if game == S.GAME_POOL or game == S.GAME_SINGLE_WINNER:
        gain = 0.0
    base = params[S.P_BASE]
    extras = 0.0
    sweep_gain = 0.0
    for a in range(3):
        for b in range(3):
            for c in range(3):
                prob = p0[a] * p1[b] * p2[c]
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
                if game == S.GAME_SINGLE_WINNER:
                    v = 1.0 if wins >= 2 else 0.0
                extras += prob * v
                if wins == 3:
                    sweep_gain += prob
                elif losses == 3:
                    sweep_gain -= prob
    one = gain + extras
    if params[S.P_SCOOP_MULT] > 1:
        one += sweep_gain * (params[S.P_SCOOP_MULT] - 1) * (3.0 + max(0.0, gain))
    if game == S.GAME_POOL:
        share = 0.0
        for pk in (p0, p1, p2):
            share += (pk[0] + 0.5 * pk[1]) ** opponents
        return share * params[S.P_POOL_STAKE] * (opponents + 1) / 3.0
    if game == S.GAME_SINGLE_WINNER:
        return extras ** opponents * (opponents + 1)
    return one * opponents


@njit(cache=True)
def _best_on_frontier(policy, tables, percentile, params, opponents, size, out_split, out_rows):
    """Best frontier split for ``balanced`` or ``table``; returns (split, value)."""
    best_split = -1
    best_value = -1e300
    bound = extras_bound(params) * opponents
    for i in range(size):
        if policy == BALANCED:
            value = (percentile[0, out_rows[i, 0]] + percentile[1, out_rows[i, 1]]
                     + percentile[1, out_rows[i, 2]])
        else:
            # the extras can add at most ``bound``: skip members that cannot reach the best
            if _row_gain(out_rows[i], tables) * opponents + bound < best_value:
                continue
            value = setting_ev(out_rows[i], tables, params, opponents)
        if value > best_value or (value == best_value and out_split[i] < best_split):
            best_value = value
            best_split = out_split[i]
    return best_split, best_value


@njit(cache=True)
def policy_scratch():
    """Scratch arrays for :func:`decide`, one set per thread."""
    s3, s5, r5, seen, best, cand = _scratch()
    return (s3, s5, r5, seen, best, cand, np.empty(_FRONTIER_ROOM, np.int32),
            np.empty((_FRONTIER_ROOM, 3), np.int16))


@njit(cache=True)
def decide(hand, policy, tables, percentile, params, naturals, opponents, state, scratch):
    """A policy's decision for one sorted 13-card hand.

    Parameters
    ----------
    hand : ndarray(uint8), shape (13,)
        Sorted.
    policy : int
        Code in :data:`POLICIES`.
    tables : ndarray(float64), shape (3, N_TABLE, N_STRENGTHS)
        EV tables (:func:`ev_tables`) for ``table``; ignored otherwise.
    percentile : ndarray(float64), shape (2, N_STRENGTHS)
        Row percentiles for ``balanced``.
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
    s3, s5, r5, seen, best, cand, out_split, out_rows = scratch
    size = 0
    if policy == BALANCED or policy == TABLE:
        _, size = _frontier(hand, params[S.P_WHEEL_SECOND] != 0, s3, s5, r5, seen, best, cand,
                            out_split, out_rows)
    return choose(hand, policy, tables, percentile, params, naturals, opponents, state, scratch,
                  size)


@njit(cache=True)
def choose(hand, policy, tables, percentile, params, naturals, opponents, state, scratch, size):
    """:func:`decide` given the hand's frontier, already in ``scratch`` (``size`` members, on
    this ruleset's strength scale): one frontier serves every ruleset of a simulation."""
    s3, s5, r5, seen, best, cand, out_split, out_rows = scratch
    wheel = params[S.P_WHEEL_SECOND] != 0
    if policy == RANDOM:
        return random_legal_split(hand, wheel, state), -1, np.int64(0), False
    if policy == GREEDY:
        return greedy_split(hand, wheel, s3, s5), -1, np.int64(0), False
    split, value = _best_on_frontier(policy, tables, percentile, params, opponents, size,
                                     out_split, out_rows)
    if policy == TABLE:
        if naturals.shape[0] > 0:
            index, key = best_natural(hand, naturals)
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


def _play_hands_body(hands, policy, tables, percentile, params, naturals, opponents, states,
                     rows, natural, natural_key, surrender):
    n = hands.shape[0]
    n_chunks = states.shape[0]
    wheel = params[S.P_WHEEL_SECOND] != 0
    for c in prange(n_chunks):
        state = states[c:c + 1].copy()
        scratch = policy_scratch()
        for i in range(c * n // n_chunks, (c + 1) * n // n_chunks):
            split, nat, key, sur = decide(hands[i], policy, tables, percentile, params, naturals,
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


def play_hands(hands, policy, tables, percentile, params, naturals, opponents, states):
    """Decisions of a policy for many sorted hands, in parallel.

    ``states`` ndarray(uint64), shape (chunks,): one RNG stream per chunk of consecutive hands
    (the chunking, not the thread count, fixes the numbers).  Returns ``rows`` int16 (n, 3)
    (-1 for a natural or surrender), ``natural`` int64 (n,), ``natural_key`` int64 (n,) and
    ``surrender`` bool (n,).
    """
    n = hands.shape[0]
    rows = np.empty((n, 3), np.int16)
    natural = np.empty(n, np.int64)
    natural_key = np.empty(n, np.int64)
    surrender = np.empty(n, np.bool_)
    play_hands_parallel(hands, policy, tables, percentile, params, naturals, opponents, states,
                        rows, natural, natural_key, surrender)
    return rows, natural, natural_key, surrender
