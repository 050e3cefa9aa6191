"""The decision of the ``balanced``, ``table`` (``fitted``) and ``houseway`` policies as it was
made before the search (sapsam.kernels.search): build the hand's whole Pareto frontier and take its
member of highest value.  Kept here, frozen, as the reference the kernels must match bit for
bit; it uses only the frontier (sapsam.kernels.settings, itself checked against a brute force in
test_settings) and the value arithmetic (sapsam.kernels.value).
"""

import numpy as np
from numba import njit

from sapsam.kernels import settle as S
from sapsam.kernels.naturals import best_natural
from sapsam.kernels.settings import _frontier, frontier_scratch
from sapsam.kernels.value import (
    GAIN,
    N_VALUES,
    SURRENDER_RATE,
    _closed_form_ev,
    _summed_ev,
    home_run_terms,
    outcome_values,
)

BALANCED, TABLE, HOUSEWAY = 2, 3, 4  # sapsam.kernels.policies.POLICIES
SURRENDER_BELOW = (0, 7917)  # sapsam.kernels.policies.SURRENDER_BELOW


@njit(cache=True)
def _best(policy, tables, values, points, params, opponents, size, splits, rows):
    best_split, best_value, best = -1, -1e300, -1
    game = params[S.P_GAME]
    for i in range(size):
        f, m, b = rows[i, 0], rows[i, 1], rows[i, 2]
        if policy != TABLE:
            v = points[0, f] + points[1, m] + points[2, b]
        elif game == S.GAME_POOL or game == S.GAME_SINGLE_WINNER or game == S.GAME_MATCH:
            v = _closed_form_ev(f, m, b, tables, params, opponents)
        elif params[S.P_SCOOP_MULT] <= 1 and params[S.P_HOME_RUN_MULT] <= 1 and not values.any():
            v = (tables[0, f, GAIN] + tables[1, m, GAIN] + tables[2, b, GAIN]) * opponents
        else:
            home, field = home_run_terms(params, tables, opponents)
            v = _summed_ev(f, m, b, tables, values, params[S.P_SCOOP_MULT], home, field, opponents)
        if policy == HOUSEWAY:
            better = best < 0 or v > best_value or (v == best_value and (
                f > rows[best, 0] or (f == rows[best, 0] and (
                    m > rows[best, 1] or (m == rows[best, 1] and b > rows[best, 2])))))
        else:
            better = v > best_value or (v == best_value and splits[i] < best_split)
        if better:
            best_split, best_value, best = splits[i], v, i
    return best_split, best_value


@njit(cache=True)
def reference_decide(hand, policy, tables, points, params, naturals, opponents, scratch, splits, rows):
    """(split, natural, natural_key, surrender), as sapsam.kernels.policies.decide returns it."""
    _, size = _frontier(hand, params[S.P_WHEEL_SECOND] != 0, scratch, splits, rows)
    values = np.zeros(N_VALUES)
    if policy == TABLE:
        outcome_values(params, values)
    split, value = _best(policy, tables, values, points, params, opponents, size, splits, rows)
    index, key = -1, np.int64(-1)
    if policy != BALANCED and naturals.shape[0] > 0:
        index, key = best_natural(hand, naturals)
    if policy == HOUSEWAY:
        if index >= 0:
            return -1, index, key, False
        if params[S.P_SURRENDER_ALLOWED] and value < points[SURRENDER_BELOW]:
            return -1, -1, np.int64(0), True
    if policy == TABLE:
        if index >= 0 and naturals[index, 2] * opponents >= value:
            return -1, index, key, False
        if params[S.P_SURRENDER_ALLOWED]:
            q = tables[SURRENDER_RATE]
            cost = params[S.P_SURRENDER_COST] * opponents
            if -cost * (1.0 - q) > (1.0 - q) * value + q * cost:
                return -1, -1, np.int64(0), True
    return split, -1, np.int64(0), False


@njit(cache=True)  # one thread: under pytest-xdist each CPU runs tests, and a parallel loop compiles 4x longer
def reference_decisions(hands, policy, tables, points, params, naturals, opponents, out):
    """``out`` int64 (n, 4): each hand's (split, natural, natural_key, surrender)."""
    scratch = frontier_scratch()
    splits = np.empty(36036, np.int32)
    rows = np.empty((36036, 3), np.int16)
    for i in range(hands.shape[0]):
        split, natural, key, surrender = reference_decide(hands[i], policy, tables, points, params,
                                                          naturals, opponents, scratch, splits, rows)
        out[i, 0], out[i, 1], out[i, 2], out[i, 3] = split, natural, key, surrender
