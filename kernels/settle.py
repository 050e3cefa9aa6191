"""Settlement of a Chinese Poker table under a compiled ruleset (RULES.md part A).

Inputs per seat (``P`` = 2..4 seats): the strength triple of its setting (front, middle,
back, on the ruleset's strength scale), the natural it declares (index into the ruleset's
natural table, -1 for none) with its tie-break key, a surrender flag, and its number of aces.
A setting that is not back >= middle >= front is a foul.  With ``P_LOW_MIDDLE`` the middle is on
the deuce-to-seven low scale (:mod:`sapsam.kernels.lowball`) and only back >= front is checked here;
the stricter ``P_LOW_HIGH_ORDER`` (the middle's high value between them too) needs the cards,
so the caller checks it and gives a fouled setting :data:`FOUL_ROWS`.  Points are ``int64`` in units of
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
(A8), single-winner (A9) and match (A13, first to 11: points scored this deal, not a
transfer) games settle rows only.  In criss-cross (A14, ``P_HANDS`` = 2) a player's two hands
are never compared with each other (:func:`same_player`).
"""

from collections import namedtuple

import numpy as np

from sapsam.kernels.compiler import njit
from sapsam.kernels.evaluate import CATEGORY_OF
from sapsam.kernels.naturals import NAT_KIND, NAT_TIER, NAT_VALUE
from sapsam.kernels.threads import parallel_ranges

(P_GAME, P_BASE, P_SWEEP_BONUS, P_OVERALL_POINT, P_SCOOP_MULT, P_HOME_RUN_MULT,
 P_MAJORITY_UNITS, P_SWEEP_UNITS, P_HOME_RUN_UNITS, P_ROYALTY_EXTRA, P_ROYALTY_ALWAYS,
 P_CLASH, P_FOUL_ALLOWED, P_POOL_STAKE, P_POOL_SWEEP_ALL, P_POOL_SWEEP_EXTRA,
 P_SINGLE_UNITS, P_CHIP_LIMITED, P_ACES_BET, P_RAKE, P_WHEEL_SECOND, P_SCALE,
 P_SURRENDER_COST, P_SURRENDER_ALLOWED, P_LOW_MIDDLE, P_LOW_HIGH_ORDER, P_HANDS,
 P_MATCH_SWEEP_FROM) = range(28)
N_PARAMS = 28

# What the kernels take together, as named tuples of arrays (Numba types each field):
# a compiled ruleset (sapsam.game.rules.CompiledRules.arrays; in simulate, every ruleset's
# stacked on a leading axis) and the declared settings of a batch of tables (leading axis T).
Rules = namedtuple("Rules", ["params", "royalty", "naturals"])
Table = namedtuple("Table", ["rows", "natural", "natural_key", "surrender", "aces", "bank", "chips"])

GAME_PAIRWISE, GAME_BANK, GAME_POOL, GAME_SINGLE_WINNER, GAME_MATCH = range(5)
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
SHOWDOWN = 2  # work[W_COMPARED] code of a pair settled by comparing rows (1: otherwise)
NOT_COMPARED = 2  # row result code for pairs settled before the showdown

FOUL_ROWS = (7916, 0, 0)  # a triple every ruleset calls a foul (a front above its back)

ACES_VALUE = np.array([0, 1, 2, 6, 8], np.int64)

# scratch ``work`` int64 (7, 4, 4): per-pair tables, per-seat vectors, royalties per seat
# and row, and the current pair's row results and parts
W_FIRST, W_REST, W_SWEPT, W_COMPARED, W_SEAT, W_ROYALTY, W_ROW = range(7)
SEAT_STATUS, _SEAT_HOME_RUN, _SEAT_FREE = range(3)  # rows of work[W_SEAT]; after a call,
# work[W_SEAT, SEAT_STATUS] holds each seat's status (SET, FOUL, NATURAL or SURRENDER)
_ROW_RES, _ROW_PARTS = range(2)  # rows of work[W_ROW]


@njit(cache=True)
def new_work():
    """Scratch for :func:`settle_into`: ndarray(int64), shape (7, 4, 4)."""
    return np.zeros((7, 4, 4), np.int64)


# settle_into's parts are functions of their own (compiled once, without reference counts,
# as settle_into is), not Numba-inlined: Numba copied them into each of settle_into's three
# compiles (Python's, the sampler's and settle_tables') and typed and lowered the whole again,
# 40-43 s on the AMD VM against 27 s this way.  LLVM still inlines their bitcode where it pays,
# also when the other process of `sapsam compile` compiled them (settle_tables and `best` as
# fast, docs/performance.md).  The two that other kernels call in their own loops (row_pay,
# same_player) stay inlined.
@njit(cache=True, _nrt=False)
def _natural_amount(params, naturals, ni, ki, nj, kj):
    """Units to the holder of natural ``ni`` (key ``ki``) from that of ``nj`` (-1 = none)."""
    if nj < 0:
        return naturals[ni, NAT_VALUE]
    if ni < 0:
        return -naturals[nj, NAT_VALUE]
    vi, vj = naturals[ni, NAT_VALUE], naturals[nj, NAT_VALUE]
    ti, tj = naturals[ni, NAT_TIER], naturals[nj, NAT_TIER]
    clash = params[P_CLASH]
    if clash == CLASH_DIFFERENCE:
        return vi - vj
    if ti == tj and clash == CLASH_HIGHER_WINS_FULL and naturals[ni, NAT_KIND] == naturals[nj, NAT_KIND]:
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


@njit(cache=True, inline="always")
def row_pay(params, roy):
    """(paid, earned) of a row whose royalty is ``roy``, as the field's EV tables and the
    card-removal model price it: ``paid``, what the row takes from a row it beats (the unit,
    the unit and the royalty, or the royalty instead of the unit, by the ruleset's royalty
    mode; no unit under two of three); ``earned``, the royalty it collects won or lost (the
    ``always`` mode), else 0."""
    unit = 0.0 if params[P_BASE] == BASE_TWO_OF_THREE else 1.0
    if params[P_ROYALTY_ALWAYS]:
        return unit, float(roy)
    if params[P_ROYALTY_EXTRA]:
        return unit + roy, 0.0
    return (roy if roy > 0 else unit) + 0.0, 0.0


@njit(cache=True, _nrt=False)
def _overall_point(total):
    """The overall point: one more unit to whoever is ahead."""
    return 1 if total > 0 else (-1 if total < 0 else 0)


@njit(cache=True, _nrt=False)
def _showdown(params, royalty, rows, t, i, j, foul_i, foul_j, bank_side, overall, work):
    """Compare seats i and j (royalties per seat and row already in ``work[W_ROYALTY]``);
    leave in ``work[W_ROW]`` the row results from i's side and the parts (rows, royalties,
    bonus) before multipliers.  ``bank_side`` = +1 if i is the bank,
    -1 if j is, else 0; ``overall``: add the overall point now (else the caller adds it after
    the home-run units).  Returns (wins, losses) of i."""
    work[W_ROW, _ROW_PARTS, 0] = 0
    work[W_ROW, _ROW_PARTS, 1] = 0
    work[W_ROW, _ROW_PARTS, 2] = 0
    if foul_i and foul_j:
        for k in range(3):
            work[W_ROW, _ROW_RES, k] = 0
        return 0, 0
    wins = 0
    losses = 0
    for k in range(3):
        if foul_i:
            r = -1
        elif foul_j:
            r = 1
        elif rows[t, i, k] > rows[t, j, k]:
            r = 1
        elif rows[t, i, k] < rows[t, j, k]:
            r = -1
        else:
            r = bank_side
        work[W_ROW, _ROW_RES, k] = r
        wins += r == 1
        losses += r == -1
    extra = params[P_ROYALTY_EXTRA]
    always = params[P_ROYALTY_ALWAYS]
    two_of_three = params[P_BASE] == BASE_TWO_OF_THREE
    row_points = 0
    royalties = 0
    for k in range(3):
        r = work[W_ROW, _ROW_RES, k]
        roy_i = work[W_ROYALTY, i, k]
        roy_j = work[W_ROYALTY, j, k]
        row_points += r
        if always:
            royalties += roy_i - roy_j
        elif r == 1 and roy_i > 0:
            royalties += roy_i if extra else roy_i - 1
        elif r == -1 and roy_j > 0:
            royalties -= roy_j if extra else roy_j - 1
    bonus = 0
    base = params[P_BASE]
    if two_of_three:
        row_points = 0
        if wins == 3:
            row_points = params[P_SWEEP_UNITS]
        elif losses == 3:
            row_points = -params[P_SWEEP_UNITS]
        elif wins > losses:
            row_points = params[P_MAJORITY_UNITS]
        elif losses > wins:
            row_points = -params[P_MAJORITY_UNITS]
    elif base == BASE_TWO_FOUR:
        bonus += 1 if wins > losses else (-1 if losses > wins else 0)
    elif base == BASE_ONE_SIX:
        bonus += 3 if wins == 3 else (-3 if losses == 3 else 0)
    if wins == 3:
        bonus += params[P_SWEEP_BONUS]
    elif losses == 3:
        bonus -= params[P_SWEEP_BONUS]
    if overall and params[P_OVERALL_POINT]:
        bonus += _overall_point(row_points + royalties + bonus)
    work[W_ROW, _ROW_PARTS, 0] = row_points
    work[W_ROW, _ROW_PARTS, 1] = royalties
    work[W_ROW, _ROW_PARTS, 2] = bonus
    return wins, losses


@njit(cache=True, _nrt=False)
def _other_pair(only, i, j):
    """Pair (i, j) is left out: ``only`` names a seat (>= 0) that is neither."""
    return only >= 0 and i != only and j != only


@njit(cache=True, _nrt=False)
def _multiplied(amount, mult, detail, i, j, detailed):
    """A swept pair's amount times its multiplier (the increment booked as a bonus)."""
    if mult != 1 and detailed:
        detail[i, j, D_BONUS] += amount * (mult - 1)
    return amount * mult


@njit(cache=True, _nrt=False)
def _aces(params, aces, t, i, j, detail, detailed):
    """The aces side bet between seats i and j, to i (0 without it)."""
    if not params[P_ACES_BET]:
        return 0
    amount = ACES_VALUE[aces[t, i]] - ACES_VALUE[aces[t, j]]
    if detailed:
        detail[i, j, D_ACES] = amount
    return amount


@njit(cache=True, _nrt=False)
def _mirror(detail, i, j):
    """Seat j's side of pair (i, j)'s breakdown."""
    for d in range(D_WON):
        detail[j, i, d] = -detail[i, j, d]
    detail[j, i, D_WON] = detail[i, j, D_LOST]
    detail[j, i, D_LOST] = detail[i, j, D_WON]


@njit(cache=True, _nrt=False)
def _status(rows, t, natural, surrender, params, work):
    n = rows.shape[1]
    for i in range(n):
        if natural[t, i] >= 0:
            work[W_SEAT, SEAT_STATUS, i] = NATURAL
        elif surrender[t, i] and params[P_SURRENDER_ALLOWED]:
            work[W_SEAT, SEAT_STATUS, i] = SURRENDER
        elif rows[t, i, 2] >= rows[t, i, 0] and (params[P_LOW_MIDDLE] or (
                rows[t, i, 2] >= rows[t, i, 1] and rows[t, i, 1] >= rows[t, i, 0])):
            work[W_SEAT, SEAT_STATUS, i] = SET
        else:
            work[W_SEAT, SEAT_STATUS, i] = FOUL


@njit(cache=True, _nrt=False)
def _settle_pool(params, rows, t, work, net):
    n = rows.shape[1]
    scale = params[P_SCALE]
    stake = params[P_POOL_STAKE] * scale
    pot = stake * n
    for i in range(n):
        net[t, i] = -stake
    sole = (-1, -1, -1)
    for k in range(3):
        best = -1
        winners = 0
        for i in range(n):
            v = -1 if work[W_SEAT, SEAT_STATUS, i] == FOUL else rows[t, i, k]
            if v > best:
                best = v
                winners = 1
            elif v == best:
                winners += 1
        for i in range(n):
            v = -1 if work[W_SEAT, SEAT_STATUS, i] == FOUL else rows[t, i, k]
            if v == best:
                net[t, i] += pot // (3 * winners)
                if winners == 1:
                    sole = (i if k == 0 else sole[0], i if k == 1 else sole[1], i if k == 2 else sole[2])
    if params[P_POOL_SWEEP_ALL] and sole[0] >= 0 and sole[0] == sole[1] and sole[1] == sole[2]:
        w = sole[0]
        extra = params[P_POOL_SWEEP_EXTRA] * scale
        for i in range(n):
            net[t, i] = -stake - extra
        net[t, w] = pot - stake + extra * (n - 1)


@njit(cache=True, _nrt=False)
def _settle_match(params, rows, t, work, net):
    """A point for the one best hand of each row (tied best: nobody's; a foul wins no row), a
    fourth for winning all three at a table of ``P_MATCH_SWEEP_FROM`` or more."""
    n = rows.shape[1]
    for i in range(n):
        net[t, i] = 0
    sole = -1
    for k in range(3):
        best = -1
        winner = -1
        for i in range(n):
            v = -1 if work[W_SEAT, SEAT_STATUS, i] == FOUL else rows[t, i, k]
            if v > best:
                best = v
                winner = i
            elif v == best:
                winner = -1
        if winner >= 0:
            net[t, winner] += 1
        sole = winner if k == 0 else (sole if winner == sole else -1)
    if sole >= 0 and n >= params[P_MATCH_SWEEP_FROM]:
        net[t, sole] += 1


@njit(cache=True, inline="always")
def same_player(params, i, j, n):
    """Whether seats i and j of a table of n hold one player's hands (criss-cross,
    ``P_HANDS`` = 2): seats are grouped from the last, so that at a table of four seats 0-1
    and 2-3 are the two players, and at three (a hand and the opponent's two) seats 1-2; a
    table of two is one hand against one of the opponent's."""
    hands = params[P_HANDS]
    return hands > 1 and n > 2 and (n - 1 - i) // hands == (n - 1 - j) // hands


@njit(cache=True, _nrt=False)
def _settle_single_winner(params, rows, t, work, net):
    n = rows.shape[1]
    for i in range(n):
        net[t, i] = 0
    for i in range(n):
        if work[W_SEAT, SEAT_STATUS, i] == FOUL:
            continue
        beats_all = True
        for j in range(n):
            if j == i:
                continue
            won = 0
            for k in range(3):
                won += work[W_SEAT, SEAT_STATUS, j] == FOUL or rows[t, i, k] > rows[t, j, k]
            if won < 2:
                beats_all = False
                break
        if beats_all:
            for j in range(n):
                net[t, j] = -params[P_SINGLE_UNITS]
            net[t, i] = params[P_SINGLE_UNITS] * (n - 1)
            return


@njit(cache=True)
def seat_alone(params, n):
    """Whether a seat's points at a table of ``n`` come from its own pairs alone, so that
    ``settle_into(..., only=seat)`` gives them: a game settled pair by pair, no chip limit (an
    order of payment among every pair), and nothing that asks whether a seat swept the whole
    table (a home run's multiplier or units, from three seats)."""
    game = params[P_GAME]
    if (game != GAME_PAIRWISE and game != GAME_BANK) or params[P_CHIP_LIMITED] != 0:
        return False
    return n < 3 or (params[P_HOME_RUN_MULT] == params[P_SCOOP_MULT] and (
        params[P_BASE] != BASE_TWO_OF_THREE or params[P_HOME_RUN_UNITS] == params[P_SWEEP_UNITS]))


# without reference counts (it allocates nothing): its bundles are taken apart at every table
# and a reference count at each would cost settle_tables 13% of its rate
@njit(cache=True, _nrt=False)
def settle_into(rules, table, net, t, work, detail, results, detailed, only=-1):
    """Settle table ``t`` of a batch.

    Parameters
    ----------
    rules : Rules
        A compiled ruleset: ``params``, ``royalty``, ``naturals`` (int64;
        ``sapsam.game.rules.CompiledRules.arrays``).
    table : Table
        The batch's declared settings, its fields:
    rows : ndarray(int16), shape (T, P, 3)
        Strength triple of each seat's setting.
    natural : ndarray(int64), shape (T, P)
        Declared natural (row of ``naturals``) or -1.
    natural_key : ndarray(int64), shape (T, P)
        Tie-break key of the declared natural (``sapsam.kernels.naturals.natural_key``).
    surrender : ndarray(bool), shape (T, P)
    aces : ndarray(int64), shape (T, P)
        Aces held, for the side bet.
    bank : ndarray(int64), shape (T,)
        The bank's seat in a bank game, else ignored.
    chips : ndarray(int64), shape (T, P)
        Chip stacks for chip-limited settlement (negative: unlimited).
    net : ndarray(int64), shape (T, P)
        Output: each seat's points, in units of ``1 / params[P_SCALE]``.
    t : int
        The table to settle.
    work : ndarray(int64), shape (7, 4, 4)
        Scratch (:func:`new_work`), reused across calls.
    detail : ndarray(int64), shape (P, P, N_DETAIL)
        Output when ``detailed``: the breakdown ``D_*`` of units to seat i from seat j.
    results : ndarray(int8), shape (P, P, 3)
        Output when ``detailed``: row results from i's side (+1, -1, 0; 2 not compared).
    only : int, optional
        A seat whose points need no other pairs (:func:`seat_alone`): settle its pairs only
        (the sampler settles each candidate against the same opponents).  ``net`` then holds
        that seat's points only, ``detail`` and ``results`` its pairs only.  Omitted (-1):
        every pair.

    Everything is indexed in place (no views, no allocation): this is the simulator's inner
    loop.
    """
    params, royalty, naturals = rules
    rows, natural, natural_key, surrender, aces, bank, chips = table
    n = rows.shape[1]
    _status(rows, t, natural, surrender, params, work)
    for i in range(n):  # royalties a seat's rows would earn (a foul earns none)
        fouled = work[W_SEAT, SEAT_STATUS, i] == FOUL
        for k in range(3):
            work[W_ROYALTY, i, k] = 0 if fouled else royalty[k, CATEGORY_OF[rows[t, i, k]]]
    game = params[P_GAME]
    if detailed:
        for i in range(n):
            for j in range(n):
                if not _other_pair(only, i, j):
                    detail[i, j, :] = 0
                    results[i, j, :] = NOT_COMPARED
    if game == GAME_POOL or game == GAME_SINGLE_WINNER or game == GAME_MATCH:
        if game == GAME_POOL:
            _settle_pool(params, rows, t, work, net)
        elif game == GAME_MATCH:
            _settle_match(params, rows, t, work, net)
        else:
            _settle_single_winner(params, rows, t, work, net)
        _rake(params, net, t, n)
        return
    is_bank = game == GAME_BANK
    # Most rulesets pay each pair as soon as it is settled.  Multipliers (who swept whom at
    # the whole table: a home run's replaces a scoop's), chip limits (an order of payment) and
    # the breakdown need every pair's amount first: the "deferred" path keeps them in ``work``
    # for the passes below.  One seat's pairs (``only``, :func:`seat_alone`) never need it: a
    # scoop's multiplier is then the pair's own business.
    deferred = only < 0 and (detailed or params[P_CHIP_LIMITED] != 0 or params[P_SCOOP_MULT] != 1
                             or params[P_HOME_RUN_MULT] != 1 or (params[P_BASE] == BASE_TWO_OF_THREE and n >= 3))
    for i in range(n):
        net[t, i] = 0
        if deferred:
            for j in range(n):
                work[W_FIRST, i, j] = 0
                work[W_REST, i, j] = 0
                work[W_SWEPT, i, j] = 0
                work[W_COMPARED, i, j] = 0
    for i in range(n):
        for j in range(i + 1, n):
            if (_other_pair(only, i, j) or (is_bank and i != bank[t] and j != bank[t])
                    or same_player(params, i, j, n)):
                continue
            si, sj = work[W_SEAT, SEAT_STATUS, i], work[W_SEAT, SEAT_STATUS, j]
            stage = W_REST  # where a deferred amount waits: naturals are paid first
            code = 1
            wins = losses = 0
            if si == NATURAL or sj == NATURAL:
                amount = _natural_amount(params, naturals, natural[t, i], natural_key[t, i],
                                         natural[t, j], natural_key[t, j])
                stage = W_FIRST
                if detailed:
                    detail[i, j, D_NATURALS] = amount
            elif si == SURRENDER or sj == SURRENDER:
                amount = 0
                if si != sj:
                    amount = -params[P_SURRENDER_COST] if si == SURRENDER else params[P_SURRENDER_COST]
                if detailed:
                    detail[i, j, D_SURRENDER] = amount
            else:
                bank_side = 0
                if is_bank:
                    bank_side = 1 if i == bank[t] else -1
                code = SHOWDOWN
                wins, losses = _showdown(params, royalty, rows, t, i, j, si == FOUL, sj == FOUL,
                                         bank_side, not deferred, work)
                row_points = work[W_ROW, _ROW_PARTS, 0]
                royalties = work[W_ROW, _ROW_PARTS, 1]
                bonus = work[W_ROW, _ROW_PARTS, 2]
                amount = row_points + royalties + bonus
                if deferred:
                    work[W_SWEPT, i, j] = wins == 3
                    work[W_SWEPT, j, i] = losses == 3
                if detailed:
                    detail[i, j, D_ROWS] = row_points
                    detail[i, j, D_ROYALTIES] = royalties
                    detail[i, j, D_BONUS] = bonus
                    detail[i, j, D_WON] = wins
                    detail[i, j, D_LOST] = losses
                    for k in range(3):
                        results[i, j, k] = work[W_ROW, _ROW_RES, k]
                        results[j, i, k] = -work[W_ROW, _ROW_RES, k]
            if deferred:
                work[W_COMPARED, i, j] = code
                work[stage, i, j] = amount
            else:  # paid at once, a scoop's multiplier and the aces bet with it
                if code == SHOWDOWN and (wins == 3 or losses == 3):
                    amount = _multiplied(amount, params[P_SCOOP_MULT], detail, i, j, detailed)
                amount += _aces(params, aces, t, i, j, detail, detailed)
                net[t, i] += amount
                net[t, j] -= amount
                if detailed:
                    detail[i, j, D_TOTAL] = amount
                    detail[i, j, D_PAID] = amount
                    _mirror(detail, i, j)
    if not deferred:
        _rake(params, net, t, n)
        return
    # multipliers: a sweep scoops; sweeping every opponent (two or more) is a home run
    for i in range(n):
        all_swept = n >= 3
        for j in range(n):
            if j != i and not work[W_SWEPT, i, j]:
                all_swept = False
        work[W_SEAT, _SEAT_HOME_RUN, i] = all_swept
    for i in range(n):
        for j in range(i + 1, n):
            if not work[W_COMPARED, i, j]:
                continue
            showdown = work[W_COMPARED, i, j] == SHOWDOWN
            for side in range(2):
                winner = i if side == 0 else j
                if work[W_SWEPT, winner, j if side == 0 else i] and showdown and (
                        params[P_BASE] == BASE_TWO_OF_THREE and work[W_SEAT, _SEAT_HOME_RUN, winner]):
                    step = (1 if side == 0 else -1) * (params[P_HOME_RUN_UNITS] - params[P_SWEEP_UNITS])
                    work[W_REST, i, j] += step
                    if detailed:
                        detail[i, j, D_ROWS] += step
            if showdown and params[P_OVERALL_POINT]:  # after the base's home-run units
                point = _overall_point(work[W_REST, i, j])
                work[W_REST, i, j] += point
                if detailed:
                    detail[i, j, D_BONUS] += point
            for side in range(2):
                winner = i if side == 0 else j
                if not work[W_SWEPT, winner, j if side == 0 else i]:
                    continue
                mult = params[P_HOME_RUN_MULT] if work[W_SEAT, _SEAT_HOME_RUN, winner] else params[P_SCOOP_MULT]
                work[W_REST, i, j] = _multiplied(work[W_REST, i, j], mult, detail, i, j, detailed)
            work[W_REST, i, j] += _aces(params, aces, t, i, j, detail, detailed)
    # payments, optionally limited by chips (naturals first, then the rest, in pair order)
    limited = params[P_CHIP_LIMITED] != 0
    for i in range(n):
        work[W_SEAT, _SEAT_FREE, i] = chips[t, i] if limited else -1
    for stage in range(2):
        for i in range(n):
            for j in range(i + 1, n):
                amount = work[W_FIRST + stage, i, j]  # naturals first, then the rest
                if amount == 0:
                    continue
                paid = amount
                if limited:
                    cap = amount if amount > 0 else -amount
                    if work[W_SEAT, _SEAT_FREE, i] >= 0 and work[W_SEAT, _SEAT_FREE, i] < cap:
                        cap = work[W_SEAT, _SEAT_FREE, i]
                    if work[W_SEAT, _SEAT_FREE, j] >= 0 and work[W_SEAT, _SEAT_FREE, j] < cap:
                        cap = work[W_SEAT, _SEAT_FREE, j]
                    paid = cap if amount > 0 else -cap
                    if work[W_SEAT, _SEAT_FREE, i] >= 0:
                        work[W_SEAT, _SEAT_FREE, i] -= cap
                    if work[W_SEAT, _SEAT_FREE, j] >= 0:
                        work[W_SEAT, _SEAT_FREE, j] -= cap
                net[t, i] += paid
                net[t, j] -= paid
                if detailed:
                    detail[i, j, D_PAID] += paid
    if detailed:
        for i in range(n):
            for j in range(i + 1, n):
                detail[i, j, D_TOTAL] = work[W_FIRST, i, j] + work[W_REST, i, j]
                _mirror(detail, i, j)
    _rake(params, net, t, n)


@njit(cache=True, _nrt=False)
def _rake(params, net, t, n):
    rake = params[P_RAKE] * params[P_SCALE]
    if rake:
        for i in range(n):
            net[t, i] -= rake


# settle_into as LLVM inlines it into a loop that does little else, the bulk kernel's and the
# sampler's candidates': a call passes fourteen arrays, each reference-counted in and out, about
# half a table's settling (every other caller settles a table among much other work and calls
# settle_into, which keeps them quicker to compile)
settle_into_inline = njit(cache=True, _nrt=False, forceinline=True)(settle_into.py_func)


@njit(cache=True, nogil=True)
def _settle_chunk(params, royalty, naturals, rows, natural, natural_key, surrender, aces, bank, chips,
                  net, first, last):
    """Tables ``first`` up to ``last`` of :func:`settle_tables`."""
    rules = Rules(params, royalty, naturals)
    table = Table(rows, natural, natural_key, surrender, aces, bank, chips)
    work = new_work()
    detail = np.zeros((1, 1, N_DETAIL), np.int64)
    results = np.zeros((1, 1, 3), np.int8)
    for t in range(first, last):
        settle_into_inline(rules, table, net, t, work, detail, results, False)


def settle_tables(rules, table, parallel=True):
    """Settle many tables: a :class:`Table` of arrays as in :func:`settle_into` (``bank`` int64
    (T,), ``chips`` int64 (T, P) or (T, 0) when unlimited).

    Returns ndarray(int64), shape (T, P): each seat's points.
    """
    net = np.empty(table.natural.shape, np.int64)
    # loose arrays into the chunks: a tuple the kernel takes whole costs reference counts at
    # every table (a third of settle_tables' rate on two threads)
    parallel_ranges(lambda first, last: _settle_chunk(*rules, *table, net, first, last), table.rows.shape[0],
                    parallel=parallel)
    return net
