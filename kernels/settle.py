"""Settlement of a Chinese Poker table under a compiled ruleset (RULES.md part A).

Inputs per seat (``P`` = 2..4 seats): the strength triple of its setting (front, middle,
back, on the ruleset's strength scale), the natural it declares (index into the ruleset's
natural table, -1 for none) with its tie-break key, a surrender flag, and its number of aces.
A setting that is not back >= middle >= front is a foul.  Points are ``int64`` in units of
``1 / params[P_SCALE]`` (1 except in the pool game, whose shares can split).

Order of settlement between two seats (defaults where RULES.md is silent are marked *):

1. Naturals (A4): a natural is paid its value by each opponent without one; two naturals
   clash by the ruleset's rule.  A natural is never multiplied.  *A natural facing a
   surrender or a foul is paid its value; nothing else passes between them.
2. Surrender (A5): the surrendering seat pays its cost to each opponent that neither
   surrendered nor declared a natural.  *Two surrendering seats pay nothing to each other.
3. Showdown (A2, A3, A6): rows compared; a fouled seat loses every row and pays the
   opponent's royalties, its own count for nothing; two fouls are even.  Row points, the
   scoring base's extras, the sweep bonus, royalties, then the overall point, then the scoop
   multiplier (or, for a seat that swept every opponent, the home-run multiplier) on all of
   it.  *A home run needs at least two opponents, every one of them swept.
4. Aces side bet (A11), on every pair that is compared, when the ruleset has it.
5. Chip-limited settlement (A10): pairs in order 0-1, 0-2, ..., naturals first, each seat
   putting at risk only the chips it has not yet used in earlier settlements.
6. Rake: each seat pays ``P_RAKE``.

Bank games (A7) compare players with the bank only, the bank winning tied rows.  The pool
(A8) and single-winner (A9) games settle rows only.
"""

import numpy as np
from numba import njit, prange

from kernels.evaluate import CATEGORY_OF

(P_GAME, P_BASE, P_SWEEP_BONUS, P_OVERALL_POINT, P_SCOOP_MULT, P_HOME_RUN_MULT,
 P_MAJORITY_UNITS, P_SWEEP_UNITS, P_HOME_RUN_UNITS, P_ROYALTY_EXTRA, P_ROYALTY_ALWAYS,
 P_CLASH, P_FOUL_ALLOWED, P_POOL_STAKE, P_POOL_SWEEP_ALL, P_POOL_SWEEP_EXTRA,
 P_SINGLE_UNITS, P_CHIP_LIMITED, P_ACES_BET, P_RAKE, P_WHEEL_SECOND, P_SCALE,
 P_SURRENDER_COST, P_SURRENDER_ALLOWED) = range(24)
N_PARAMS = 24

GAME_PAIRWISE, GAME_BANK, GAME_POOL, GAME_SINGLE_WINNER = range(4)
BASE_PER_ROW, BASE_TWO_FOUR, BASE_ONE_SIX, BASE_TWO_OF_THREE = range(4)
CLASH_HIGHER_WINS_FULL, CLASH_DIFFERENCE, CLASH_EQUAL_TIER_NO_PAYMENT = range(3)

# per-pair breakdown, units to seat i from seat j
(D_ROWS, D_ROYALTIES, D_BONUS, D_NATURALS, D_SURRENDER, D_ACES, D_TOTAL, D_PAID,
 D_WON, D_LOST) = range(10)
N_DETAIL = 10
DETAIL_NAMES = ("rows", "royalties", "bonus", "naturals", "surrender", "aces", "total", "paid",
                "rows_won", "rows_lost")

# seat status
SET, FOUL, NATURAL, SURRENDER = range(4)
NOT_COMPARED = 2  # row result code for pairs settled before the showdown

ACES_VALUE = np.array([0, 1, 2, 6, 8], np.int64)


@njit(cache=True)
def _row_royalties(royalty, rows, fouled, out):
    for k in range(3):
        out[k] = 0 if fouled else royalty[k, CATEGORY_OF[rows[k]]]


@njit(cache=True)
def _natural_amount(params, naturals, ni, ki, nj, kj):
    """Units to the holder of natural ``ni`` (key ``ki``) from that of ``nj`` (-1 = none)."""
    if nj < 0:
        return naturals[ni, 2]
    if ni < 0:
        return -naturals[nj, 2]
    vi, vj = naturals[ni, 2], naturals[nj, 2]
    ti, tj = naturals[ni, 3], naturals[nj, 3]
    clash = params[P_CLASH]
    if clash == CLASH_DIFFERENCE:
        return vi - vj
    if ti == tj and clash == CLASH_HIGHER_WINS_FULL and naturals[ni, 0] == naturals[nj, 0]:
        return vi if ki > kj else (-vj if ki < kj else 0)
    if ti == tj:
        return 0
    return vi if ti > tj else -vj


@njit(cache=True)
def two_rows_lost(params):
    """What a hand that loses two rows and wins one pays (no royalties): the surrender cost
    of ``surrender.mode = "two-rows"``; returned as a negative number of units."""
    base = params[P_BASE]
    if base == BASE_TWO_OF_THREE:
        amount = -params[P_MAJORITY_UNITS]
    elif base == BASE_TWO_FOUR:
        amount = -2
    else:
        amount = -1
    if params[P_OVERALL_POINT]:
        amount -= 1
    return amount


@njit(cache=True)
def _showdown(params, royalty, ri, rj, status_i, status_j, bank_side, roy_i, roy_j, res, parts):
    """Compare two seats' rows; fill ``res`` (3,) from i's side and ``parts`` (rows, royalties,
    bonus) before multipliers. ``bank_side`` = +1 if i is the bank, -1 if j is, else 0.
    Returns (wins, losses) of i."""
    foul_i = status_i == FOUL
    foul_j = status_j == FOUL
    _row_royalties(royalty, ri, foul_i, roy_i)
    _row_royalties(royalty, rj, foul_j, roy_j)
    parts[0] = 0
    parts[1] = 0
    parts[2] = 0
    if foul_i and foul_j:
        for k in range(3):
            res[k] = 0
        return 0, 0
    wins = 0
    losses = 0
    for k in range(3):
        if foul_i:
            r = -1
        elif foul_j:
            r = 1
        elif ri[k] > rj[k]:
            r = 1
        elif ri[k] < rj[k]:
            r = -1
        else:
            r = bank_side
        res[k] = r
        wins += r == 1
        losses += r == -1
    extra = params[P_ROYALTY_EXTRA]
    always = params[P_ROYALTY_ALWAYS]
    two_of_three = params[P_BASE] == BASE_TWO_OF_THREE
    for k in range(3):
        r = res[k]
        if always:
            parts[1] += roy_i[k] - roy_j[k]
            if not two_of_three:
                parts[0] += r
        elif r == 1:
            if not two_of_three:
                parts[0] += 1
            if roy_i[k] > 0:
                parts[1] += roy_i[k] if extra else roy_i[k] - 1
        elif r == -1:
            if not two_of_three:
                parts[0] -= 1
            if roy_j[k] > 0:
                parts[1] -= roy_j[k] if extra else roy_j[k] - 1
    base = params[P_BASE]
    if two_of_three:
        if wins == 3:
            parts[0] = params[P_SWEEP_UNITS]
        elif losses == 3:
            parts[0] = -params[P_SWEEP_UNITS]
        elif wins > losses:
            parts[0] = params[P_MAJORITY_UNITS]
        elif losses > wins:
            parts[0] = -params[P_MAJORITY_UNITS]
    elif base == BASE_TWO_FOUR:
        parts[2] += 1 if wins > losses else (-1 if losses > wins else 0)
    elif base == BASE_ONE_SIX:
        parts[2] += 3 if wins == 3 else (-3 if losses == 3 else 0)
    if wins == 3:
        parts[2] += params[P_SWEEP_BONUS]
    elif losses == 3:
        parts[2] -= params[P_SWEEP_BONUS]
    if params[P_OVERALL_POINT]:
        total = parts[0] + parts[1] + parts[2]
        parts[2] += 1 if total > 0 else (-1 if total < 0 else 0)
    return wins, losses


@njit(cache=True)
def _status(rows, natural, surrender, params):
    n = rows.shape[0]
    status = np.empty(n, np.int64)
    for i in range(n):
        if natural[i] >= 0:
            status[i] = NATURAL
        elif surrender[i] and params[P_SURRENDER_ALLOWED]:
            status[i] = SURRENDER
        elif rows[i, 2] >= rows[i, 1] and rows[i, 1] >= rows[i, 0]:
            status[i] = SET
        else:
            status[i] = FOUL
    return status


@njit(cache=True)
def _settle_pool(params, rows, status, net):
    n = rows.shape[0]
    scale = params[P_SCALE]
    stake = params[P_POOL_STAKE] * scale
    pot = stake * n
    for i in range(n):
        net[i] = -stake
    sole = np.full(3, -1, np.int64)
    for k in range(3):
        best = -1
        winners = 0
        for i in range(n):
            v = -1 if status[i] == FOUL else rows[i, k]
            if v > best:
                best = v
                winners = 1
            elif v == best:
                winners += 1
        for i in range(n):
            v = -1 if status[i] == FOUL else rows[i, k]
            if v == best:
                net[i] += pot // (3 * winners)
                if winners == 1:
                    sole[k] = i
    if params[P_POOL_SWEEP_ALL] and sole[0] >= 0 and sole[0] == sole[1] and sole[1] == sole[2]:
        w = sole[0]
        extra = params[P_POOL_SWEEP_EXTRA] * scale
        for i in range(n):
            net[i] = -stake - extra
        net[w] = pot - stake + extra * (n - 1)


@njit(cache=True)
def _settle_single_winner(params, rows, status, net):
    n = rows.shape[0]
    for i in range(n):
        net[i] = 0
    for i in range(n):
        if status[i] == FOUL:
            continue
        beats_all = True
        for j in range(n):
            if j == i:
                continue
            won = 0
            for k in range(3):
                won += status[j] == FOUL or rows[i, k] > rows[j, k]
            if won < 2:
                beats_all = False
                break
        if beats_all:
            for j in range(n):
                net[j] = -params[P_SINGLE_UNITS]
            net[i] = params[P_SINGLE_UNITS] * (n - 1)
            return


@njit(cache=True)
def settle_into(params, royalty, naturals, rows, natural, natural_key, surrender, aces, bank,
                chips, net, detail, results, detailed):
    """Settle one table.

    Parameters
    ----------
    params, royalty, naturals : ndarray(int64)
        A compiled ruleset (``analysis.rules.CompiledRules``).
    rows : ndarray(int16), shape (P, 3)
        Strength triple of each seat's setting.
    natural : ndarray(int64), shape (P,)
        Declared natural (row of ``naturals``) or -1.
    natural_key : ndarray(int64), shape (P,)
        Tie-break key of the declared natural (``kernels.naturals.natural_key``).
    surrender : ndarray(bool), shape (P,)
    aces : ndarray(int64), shape (P,)
        Aces held, for the side bet.
    bank : int
        The bank's seat in a bank game, else ignored.
    chips : ndarray(int64), shape (P,)
        Chip stacks for chip-limited settlement (negative: unlimited).
    net : ndarray(int64), shape (P,)
        Output: each seat's points, in units of ``1 / params[P_SCALE]``.
    detail : ndarray(int64), shape (P, P, N_DETAIL)
        Output when ``detailed``: the breakdown ``D_*`` of units to seat i from seat j.
    results : ndarray(int8), shape (P, P, 3)
        Output when ``detailed``: row results from i's side (+1, -1, 0; 2 not compared).
    """
    n = rows.shape[0]
    status = _status(rows, natural, surrender, params)
    game = params[P_GAME]
    if detailed:
        detail[:] = 0
        results[:] = NOT_COMPARED
    if game == GAME_POOL:
        _settle_pool(params, rows, status, net)
        return
    if game == GAME_SINGLE_WINNER:
        _settle_single_winner(params, rows, status, net)
        return
    is_bank = game == GAME_BANK
    first = np.zeros((n, n), np.int64)  # naturals: settled first under chip limits
    rest = np.zeros((n, n), np.int64)
    swept = np.zeros((n, n), np.bool_)
    compared = np.zeros((n, n), np.bool_)
    roy_i = np.empty(3, np.int64)
    roy_j = np.empty(3, np.int64)
    res = np.empty(3, np.int64)
    parts = np.empty(3, np.int64)
    # showdown amounts before multipliers, then the multiplier from who swept whom
    for i in range(n):
        for j in range(i + 1, n):
            if is_bank and i != bank and j != bank:
                continue
            compared[i, j] = True
            si, sj = status[i], status[j]
            if si == NATURAL or sj == NATURAL:
                amount = _natural_amount(params, naturals, natural[i], natural_key[i],
                                         natural[j], natural_key[j])
                first[i, j] = amount
                if detailed:
                    detail[i, j, D_NATURALS] = amount
            elif si == SURRENDER or sj == SURRENDER:
                amount = 0
                if si != sj:
                    amount = -params[P_SURRENDER_COST] if si == SURRENDER else params[P_SURRENDER_COST]
                rest[i, j] = amount
                if detailed:
                    detail[i, j, D_SURRENDER] = amount
            else:
                bank_side = 0
                if is_bank:
                    bank_side = 1 if i == bank else -1
                wins, losses = _showdown(params, royalty, rows[i], rows[j], si, sj, bank_side,
                                         roy_i, roy_j, res, parts)
                swept[i, j] = wins == 3
                swept[j, i] = losses == 3
                rest[i, j] = parts[0] + parts[1] + parts[2]
                if detailed:
                    detail[i, j, D_ROWS] = parts[0]
                    detail[i, j, D_ROYALTIES] = parts[1]
                    detail[i, j, D_BONUS] = parts[2]
                    detail[i, j, D_WON] = wins
                    detail[i, j, D_LOST] = losses
                    for k in range(3):
                        results[i, j, k] = res[k]
                        results[j, i, k] = -res[k]
    home_run = np.zeros(n, np.bool_)
    if n >= 3:
        for i in range(n):
            all_swept = True
            for j in range(n):
                if j != i and not swept[i, j]:
                    all_swept = False
            home_run[i] = all_swept
    for i in range(n):
        for j in range(i + 1, n):
            if not compared[i, j]:
                continue
            for winner in (i, j):
                loser = j if winner == i else i
                if not swept[winner, loser]:
                    continue
                if params[P_BASE] == BASE_TWO_OF_THREE and home_run[winner]:
                    step = params[P_HOME_RUN_UNITS] - params[P_SWEEP_UNITS]
                    bump = step if winner == i else -step
                    rest[i, j] += bump
                    if detailed:
                        detail[i, j, D_BONUS] += bump
                mult = params[P_HOME_RUN_MULT] if home_run[winner] else params[P_SCOOP_MULT]
                if mult != 1:
                    if detailed:  # the multiplier's increment is booked as a bonus
                        detail[i, j, D_BONUS] += rest[i, j] * (mult - 1)
                    rest[i, j] *= mult
            if params[P_ACES_BET]:
                amount = ACES_VALUE[aces[i]] - ACES_VALUE[aces[j]]
                rest[i, j] += amount
                if detailed:
                    detail[i, j, D_ACES] = amount
    # payments, optionally limited by chips (naturals first, then the rest, pair order)
    for i in range(n):
        net[i] = 0
    limited = params[P_CHIP_LIMITED] and chips.shape[0] == n
    free = chips.copy() if limited else chips
    for stage in range(2):
        amounts = first if stage == 0 else rest
        for i in range(n):
            for j in range(i + 1, n):
                amount = amounts[i, j]
                if amount == 0:
                    continue
                paid = amount
                if limited:
                    cap = amount if amount > 0 else -amount
                    if free[i] >= 0 and free[i] < cap:
                        cap = free[i]
                    if free[j] >= 0 and free[j] < cap:
                        cap = free[j]
                    paid = cap if amount > 0 else -cap
                    if free[i] >= 0:
                        free[i] -= cap
                    if free[j] >= 0:
                        free[j] -= cap
                net[i] += paid
                net[j] -= paid
                if detailed:
                    detail[i, j, D_PAID] += paid
    if detailed:
        for i in range(n):
            for j in range(i + 1, n):
                detail[i, j, D_TOTAL] = first[i, j] + rest[i, j]
                for d in range(N_DETAIL):
                    sign = 1 if d < D_WON else 0
                    if sign:
                        detail[j, i, d] = -detail[i, j, d]
                detail[j, i, D_WON] = detail[i, j, D_LOST]
                detail[j, i, D_LOST] = detail[i, j, D_WON]
    rake = params[P_RAKE] * params[P_SCALE]
    if rake:
        for i in range(n):
            net[i] -= rake


def _settle_tables_body(params, royalty, naturals, rows, natural, natural_key, surrender, aces,
                        bank, chips, net):
    detail = np.zeros((1, 1, N_DETAIL), np.int64)
    results = np.zeros((1, 1, 3), np.int8)
    for t in prange(rows.shape[0]):
        settle_into(params, royalty, naturals, rows[t], natural[t], natural_key[t], surrender[t],
                    aces[t], bank[t], chips[t], net[t], detail, results, False)


_settle_tables_serial = njit(cache=True)(_settle_tables_body)
_settle_tables_parallel = njit(cache=True, parallel=True)(_settle_tables_body)


def settle_tables(params, royalty, naturals, rows, natural, natural_key, surrender, aces, bank,
                  chips, parallel=True):
    """Settle many tables: arrays as in :func:`settle_into` with a leading table axis
    (``bank`` int64 (T,), ``chips`` int64 (T, P) or (T, 0) when unlimited).

    Returns ndarray(int64), shape (T, P): each seat's points.
    """
    net = np.empty(natural.shape, np.int64)
    (_settle_tables_parallel if parallel else _settle_tables_serial)(
        params, royalty, naturals, rows, natural, natural_key, surrender, aces, bank, chips, net)
    return net
