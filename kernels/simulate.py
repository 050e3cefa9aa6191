"""Table simulation: deal tables in blocks, let every seat decide, score under every ruleset.

A block deals ``n`` tables with its own random stream.  Each seat's hand gets what its
decisions are found from once per strength scale in use, for every ruleset to share: with
up to :data:`SEARCH_RULESETS` rulesets, the strengths of its fronts and five-card subsets
(each ruleset's policy then searches, :mod:`sapsam.kernels.search`); with more, its Pareto frontier
(built once, cheap to value many times; the ``wheel_rank = "second"`` one is a remap of the
ace-low one for the eleven hands in twelve where the wheel's rank cannot matter).  A ruleset
with a low middle always searches (:mod:`sapsam.kernels.low_search`), from the subsets' high and low
strengths.  Then, for
every selected ruleset, each seat decides by its policy with that ruleset's tables (a player
adapts to the rules) and the table is settled.  The same deals meet every ruleset (common
random numbers).  Everything accumulated is an integer, so blocks add up exactly in any
order, on any number of threads or machines.

Accumulators per (ruleset, seat) are the ``A_*`` columns; ``hist`` counts each hand's points
in whole units (floored, clipped to +-``HIST_HALF``); ``held`` counts hands holding each of a
ruleset's naturals (detected, whether or not declared).
"""

from collections import namedtuple

import numpy as np

from sapsam.kernels import settle as S
from sapsam.kernels.compiler import njit
from sapsam.kernels.evaluate import WHEEL_SECOND, is_ace
from sapsam.kernels.low_settings import low_subset_strengths
from sapsam.kernels.naturals import best_held, kind_keys
from sapsam.kernels.policies import _borrowed_removal, choose, place, policy_scratch
from sapsam.kernels.removal import Removal
from sapsam.kernels.rng import shuffle_prefix, sorted_hand
from sapsam.kernels.settings import (
    N_FIVES,
    N_FRONTS,
    _frontier,
    remap_wheel_second,
    subset_strengths,
    wheel_rank_matters,
)
from sapsam.kernels.threads import borrowed

(A_HANDS, A_SUM, A_SUMSQ, A_FOULS, A_SURRENDERS, A_NATURALS, A_SWEEPS_GIVEN, A_SWEEPS_TAKEN,
 A_HOME_RUNS, A_BANK_HANDS) = range(10)
N_ACC = 10
ACC_NAMES = ("hands", "sum", "sumsq", "fouls", "surrenders", "naturals", "sweeps_given",
             "sweeps_taken", "home_runs", "bank_hands")
HIST_HALF = 200
N_HIST = 2 * HIST_HALF + 1
BANK_NONE, BANK_ROTATE, BANK_FIXED = range(3)
# above this many rulesets a shared frontier beats a search per ruleset (measured: equal at six,
# a search costing about a fifth of a frontier and valuing a frontier for a ruleset a fiftieth)
SEARCH_RULESETS = 6
# every seat's policy as simulate takes them (sapsam.measure.simulate.CompiledSimulation): the
# policy code per seat (P,), the distinct EV tables (M,) + TABLE_SHAPE and points tables
# (M,) + POINTS_SHAPE of the run's models, each seat's model per ruleset (R, P) and whether it
# searches (sapsam.kernels.policies.searchable) under that ruleset (R, P), the models' card-removal
# models stacked (a sapsam.kernels.removal.Removal of (M, ...) arrays) and whether each has one (M,)
Seats = namedtuple("Seats", ["policy", "tables", "points", "model", "search", "removal", "removal_features"])


@njit(cache=True, nogil=True)
def simulate_block(states, first_table, counts, players, seats, rules, n_naturals, natural_kinds,
                   natural_index, bank_mode, bank_seat, acc, hist, held, b):
    """Block ``b`` of a run: its tables, by its random stream ``states[b]``, into ``acc[b]``,
    ``hist[b]`` and ``held[b]``.  It releases the GIL: Python threads run blocks side by side
    (:func:`sapsam.measure.simulate.stream_blocks`).

    Parameters
    ----------
    states : ndarray(uint64), shape (B,)
    first_table, counts : ndarray(int64), shape (B,)
        Index of each block's first table (bank rotation) and its number of tables.
    players : int
        Hands dealt per table, P: the players, or twice them in criss-cross (``P_HANDS`` = 2, which
        every ruleset of a run then has).
    seats : Seats
        ``policy`` int64 (P,): the policy code per seat (sapsam.kernels.policies.POLICIES);
        ``tables`` float64 (M,) + TABLE_SHAPE and ``points`` float64 (M,) + POINTS_SHAPE: the
        distinct (EV table, points table) pairs of the run's (ruleset, policy) models;
        ``model`` int64 (R, P): index into them of each seat's model under each ruleset;
        ``search`` bool (R, P): sapsam.kernels.policies.searchable for it.
    rules : sapsam.kernels.settle.Rules
        Every ruleset's, stacked: ``params`` (R, N_PARAMS), ``royalty`` (R, 3, 9),
        ``naturals`` (R, K, 4), padded (ruleset r has ``n_naturals[r]`` rows).
    natural_kinds : ndarray(int64), shape (U, 2)
        The distinct (kind, parameter) of all rulesets' naturals, detected once per hand.
    natural_index : ndarray(int64), shape (R, K)
        Row of ``natural_kinds`` for each ruleset's natural.
    n_naturals, bank_mode, bank_seat : ndarray(int64), shape (R,)
    acc : ndarray(int64), shape (B, R, P / hands, N_ACC)
    hist : ndarray(int64), shape (B, R, P / hands, N_HIST)
    held : ndarray(int64), shape (B, R, K)
        Outputs, zeroed by the caller.
    b : int
        The block to simulate.
    """
    seat_policy = seats.policy
    tables, points, seat_model, seat_search = (borrowed(seats.tables), borrowed(seats.points),
                                               borrowed(seats.model), borrowed(seats.search))
    params, royalty, naturals = borrowed(rules.params), borrowed(rules.royalty), borrowed(rules.naturals)
    acc, hist = borrowed(acc), borrowed(hist)
    removals, removal_features = _borrowed_removal(seats.removal), borrowed(seats.removal_features)
    n_rules = params.shape[0]
    state = states[b:b + 1].copy()
    deck = np.arange(52).astype(np.uint8)
    hands = np.empty((players, 13), np.uint8)
    scratch = policy_scratch()
    frontier, out_split, out_rows, _, _, _, _ = scratch
    share = n_rules > SEARCH_RULESETS  # one frontier per hand and scale, else searches
    s3 = np.empty((players, N_FRONTS), np.int16)  # per seat; fronts need no remap
    s5 = np.empty((2, players, N_FIVES), np.int16)  # per strength scale and seat
    l5 = np.empty((players, N_FIVES), np.int16)  # per seat: low strengths (a low middle)
    room = out_split.shape[0] if share else 1  # frontiers kept for every ruleset to share
    sizes = np.full((2, players), -1, np.int64)  # frontier size per scale and seat
    front_split = np.empty((2, players, room), np.int32)
    front_rows = np.empty((2, players, room, 3), np.int16)
    keys = np.empty((players, natural_kinds.shape[0]), np.int64)  # per seat and kind
    rule_keys = np.empty(naturals.shape[1], np.int64)  # one seat's, one ruleset's
    rows = np.zeros((1, players, 3), np.int16)
    natural = np.full((1, players), -1, np.int64)
    key = np.zeros((1, players), np.int64)
    surrender = np.zeros((1, players), np.bool_)
    aces = np.zeros((1, players), np.int64)
    banks = np.zeros(1, np.int64)
    chips = np.full((1, players), -1, np.int64)
    table_arrays = S.Table(rows, natural, key, surrender, aces, banks, chips)
    net = np.zeros((1, players), np.int64)
    work = S.new_work()
    detail = np.zeros((1, 1, S.N_DETAIL), np.int64)
    results = np.zeros((1, 1, 3), np.int8)
    wheel_used = np.zeros(2, np.bool_)
    low_used = False  # a ruleset with a low middle: it searches, whatever ``share``
    for r in range(n_rules):
        wheel_used[1 if params[r, S.P_WHEEL_SECOND] else 0] = True
        low_used |= params[r, S.P_LOW_MIDDLE] != 0
    for t in range(counts[b]):
        table = first_table[b] + t
        shuffle_prefix(deck, 13 * players, state)
        for p in range(players):
            sorted_hand(deck, 13 * p, hands[p])
            count = 0
            for c in hands[p]:
                count += is_ace(c)
            aces[0, p] = count
            kind_keys(hands[p], natural_kinds, keys[p])  # each distinct natural once
            if share:
                # one frontier per strength scale in use; the second is a remap of the first
                # unless the wheel's rank matters to the hand (one hand in twelve)
                first = 0 if wheel_used[0] else 1
                _, sizes[first, p] = _frontier(hands[p], first == 1, frontier,
                                               front_split[first, p], front_rows[first, p])
                if first == 0 and wheel_used[1]:
                    if wheel_rank_matters(hands[p]):
                        _, sizes[1, p] = _frontier(hands[p], np.bool_(True), frontier, front_split[1, p],
                                                   front_rows[1, p])
                    else:
                        sizes[1, p] = sizes[0, p]
                        remap_wheel_second(sizes[0, p], front_split[0, p], front_rows[0, p],
                                           front_split[1, p], front_rows[1, p])
            if low_used:
                low_subset_strengths(hands[p], l5[p])
            if share and not low_used:
                continue
            subset_strengths(hands[p], np.bool_(False), s3[p], s5[0, p])
            if wheel_used[1]:
                for i in range(N_FIVES):
                    s5[1, p, i] = WHEEL_SECOND[s5[0, p, i]]
        draw = state.copy()  # every ruleset sees the same random choices
        for r in range(n_rules):
            w = 1 if params[r, S.P_WHEEL_SECOND] else 0
            searches = not share or params[r, S.P_LOW_MIDDLE] != 0
            for p in range(players):
                for k in range(n_naturals[r]):
                    rule_keys[k] = keys[p, natural_index[r, k]]
                    held[b, r, k] += rule_keys[k] >= 0
                rule_naturals = naturals[r, :n_naturals[r]]
                best = best_held(rule_naturals, rule_keys[:n_naturals[r]])
                state[0] = draw[0] + np.uint64(p + 1)  # seat p's stream for this table
                model = seat_model[r, p]
                if share:
                    splits, members = front_split[w, p], front_rows[w, p]
                else:  # a frontier is built at the decision that needs it, in the scratch's room
                    splits, members = out_split, out_rows
                removal = Removal(removals.gamma[model], removals.xmean[model, :removal_features[model]],
                                  removals.bin_of[model], removals.bins_sum[model], removals.rows[model],
                                  removals.copula[model])
                other = hands[p ^ 1] if params[r, S.P_HANDS] == 2 else hands[p, :0]
                decision = choose(hands[p], other, seat_policy[p], tables[model], points[model], removal,
                                  params[r], rule_naturals, best, players - params[r, S.P_HANDS],
                                  seat_search[r, p] and searches, state, scratch, s3[p],
                                  s5[w, p], l5[p], splits, members, sizes[w, p])
                place(hands[p], decision, params[r], p, rows, natural, key, surrender)
            if bank_mode[r] == BANK_ROTATE:
                banks[0] = table % players
            elif bank_mode[r] == BANK_FIXED:
                banks[0] = bank_seat[r]
            else:
                banks[0] = -1
            S.settle_into(S.Rules(params[r], royalty[r], naturals[r, :n_naturals[r]]), table_arrays,
                          net, np.int64(0), work, detail, results, np.bool_(False))
            _tally(params[r], rows, work[S.W_SEAT, S.SEAT_STATUS], banks[0], net, r, players, acc[b],
                   hist[b])
        state[0] = draw[0] + np.uint64(players + 1)


@njit(cache=True)
def _tally(params, rows, status, bank, net, r, players, acc, hist):
    """Add one settled table to the accumulators of ruleset ``r``; ``status`` is each seat's
    status as settlement saw it (sapsam.kernels.settle SET, FOUL, NATURAL, SURRENDER).  In
    criss-cross (``P_HANDS`` = 2) a player holds seats ``2 q`` and ``2 q + 1``: its points are
    their sum, its fouls, surrenders, naturals and sweeps those of either hand."""
    scale = params[S.P_SCALE]
    hands = params[S.P_HANDS]
    for q in range(players // hands):
        a = acc[r, q]
        x = 0
        for p in range(q * hands, (q + 1) * hands):
            x += net[0, p]
            a[A_FOULS] += status[p] == S.FOUL
            a[A_SURRENDERS] += status[p] == S.SURRENDER
            a[A_NATURALS] += status[p] == S.NATURAL
            a[A_BANK_HANDS] += p == bank
        a[A_HANDS] += 1
        a[A_SUM] += x
        a[A_SUMSQ] += x * x
        units = x // scale
        hist[r, q, min(max(units, -HIST_HALF), HIST_HALF) + HIST_HALF] += 1
    # sweeps among seats that compared rows (bank games: only with the bank)
    compares = params[S.P_GAME] == S.GAME_PAIRWISE or params[S.P_GAME] == S.GAME_BANK
    for i in range(players):
        swept_all = players - hands >= 2 and compares  # a home run: every opposing hand swept
        for j in range(players):
            if j == i or S.same_player(params, i, j, players):
                continue
            if not compares or status[i] >= S.NATURAL or status[j] >= S.NATURAL or (
                    bank >= 0 and i != bank and j != bank):
                swept_all = False
                continue
            wins = 0
            for k in range(3):
                if status[j] == S.FOUL and status[i] == S.SET:
                    wins += 1
                elif status[i] == S.SET and status[j] == S.SET and rows[0, i, k] > rows[0, j, k]:
                    wins += 1
            if wins == 3:
                acc[r, i // hands, A_SWEEPS_GIVEN] += 1
                acc[r, j // hands, A_SWEEPS_TAKEN] += 1
            else:
                swept_all = False
        acc[r, i // hands, A_HOME_RUNS] += swept_all
