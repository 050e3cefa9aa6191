"""Monte Carlo showdowns of one hand's candidate decisions against sampled opponents.

Every candidate meets the same opponents (common random numbers): sample ``i`` of block ``b``
deals the opponents from the unseen cards with block ``b``'s own random stream, each opponent
decides by its policy, and each candidate is settled against exactly those decisions.  Points
per candidate and sample are kept, so a paired difference between two candidates has the
exact sample variance; nothing depends on the number of threads.
"""

import numpy as np

from sapsam.kernels import settle as S
from sapsam.kernels.compiler import njit
from sapsam.kernels.evaluate import is_ace
from sapsam.kernels.policies import _borrowed_removal, decide, place, policy_scratch
from sapsam.kernels.rng import shuffle_prefix, sorted_hand
from sapsam.kernels.threads import borrowed, parallel_for

# per-candidate statistics, summed over opponents and samples
N_ROW_STATS = 9  # row k: wins at 3k, ties at 3k + 1, losses at 3k + 2
ST_SWEEPS, ST_SWEPT, ST_ROYALTIES, ST_COMPARED = 9, 10, 11, 12
N_STATS = 13


@njit(cache=True, nogil=True)
def sample_block(hero, cand_rows, cand_natural, cand_key, cand_surrender, unseen, players,
                 policy, search, rules, bank, states, block_size, n_samples, points, stats, b):
    """Block ``b`` of :func:`sample_blocks`: its samples into ``points[:, b * block_size:]``,
    its statistics into ``stats[b]``, from its own random stream ``states[b]``."""
    code, tables, policy_points = policy.code, borrowed(policy.tables), borrowed(policy.points)
    removal = _borrowed_removal(policy.removal)
    params, royalty, naturals = borrowed(rules.params), borrowed(rules.royalty), borrowed(rules.naturals)
    rules = S.Rules(params, royalty, naturals)
    state = states[b:b + 1].copy()
    first = b * block_size
    count = min(block_size, n_samples - first)
    acc = stats[b]
    n_cand = cand_rows.shape[0]
    opponents = players - 1
    deck = unseen.copy()
    scratch = policy_scratch()
    rows = np.zeros((1, players, 3), np.int16)
    natural = np.full((1, players), -1, np.int64)
    key = np.zeros((1, players), np.int64)
    surrender = np.zeros((1, players), np.bool_)
    aces = np.zeros((1, players), np.int64)
    banks = np.full(1, bank, np.int64)
    chips = np.full((1, players), -1, np.int64)
    table = S.Table(rows, natural, key, surrender, aces, banks, chips)
    net = np.zeros((1, players), np.int64)
    work = S.new_work()
    detail = np.zeros((players, players, S.N_DETAIL), np.int64)
    results = np.zeros((players, players, 3), np.int8)
    hands = np.empty((opponents, 13), np.uint8)
    crossed = params[S.P_HANDS] == 2  # criss-cross: the opponents are one player's two hands
    packed = params[S.P_GAME] == S.GAME_MATCH  # every seat's points, see sample_blocks
    only = np.int64(0) if S.seat_alone(params, players) else np.int64(-1)  # the hero's pairs
    hero_aces = 0
    for c in hero:
        hero_aces += is_ace(c)
    for s in range(first, first + count):
        shuffle_prefix(deck, 13 * opponents, state)
        for o in range(opponents):
            sorted_hand(deck, 13 * o, hands[o])
        for o in range(opponents):
            hand = hands[o]
            other = hands[o ^ 1] if crossed else hands[o, :0]
            seat = o + 1
            place(hand, decide(hand, other, code, tables, policy_points, removal, params, naturals,
                               opponents, search, state, scratch), params, seat, rows, natural, key,
                  surrender)
            a = 0
            for c in hand:
                a += is_ace(c)
            aces[0, seat] = a
        aces[0, 0] = hero_aces
        for c in range(n_cand):
            rows[0, 0, 0] = cand_rows[c, 0]
            rows[0, 0, 1] = cand_rows[c, 1]
            rows[0, 0, 2] = cand_rows[c, 2]
            natural[0, 0] = cand_natural[c]
            key[0, 0] = cand_key[c]
            surrender[0, 0] = cand_surrender[c]
            # the hottest call: inlined (a call passes fourteen arrays, each reference-counted
            # in and out: half a candidate's settling), ``detailed`` a literal (a run-time flag
            # cost a tenth of best's time), the hero's pairs alone where they suffice
            S.settle_into_inline(rules, table, net, np.int64(0), work, detail, results, True, only)
            if packed:
                seats = 0  # not `code`: that name holds the opponents' policy
                for p in range(players):
                    seats |= net[0, p] << (3 * p)
                points[c, s] = seats
            else:
                points[c, s] = net[0, 0]
            for j in range(1, players):
                if results[0, j, 0] == S.NOT_COMPARED:
                    continue
                acc[c, ST_COMPARED] += 1
                for k in range(3):
                    r = results[0, j, k]
                    acc[c, 3 * k + (0 if r > 0 else (1 if r == 0 else 2))] += 1
                acc[c, ST_SWEEPS] += detail[0, j, S.D_WON] == 3
                acc[c, ST_SWEPT] += detail[0, j, S.D_LOST] == 3
                acc[c, ST_ROYALTIES] += detail[0, j, S.D_ROYALTIES]


def sample_blocks(hero, cand_rows, cand_natural, cand_key, cand_surrender, unseen, players,
                  policy, search, rules, bank, states, block_size, n_samples, points, stats):
    """Run blocks of samples in parallel (on ``numba.get_num_threads()`` threads).

    Parameters
    ----------
    hero : ndarray(uint8), shape (13,)
    cand_rows : ndarray(int16), shape (C, 3)
        Candidates' strength triples (anything for a natural or surrender candidate).
    cand_natural, cand_key : ndarray(int64), shape (C,)
    cand_surrender : ndarray(bool), shape (C,)
    unseen : ndarray(uint8), shape (39,)
    players, bank : int
    policy : sapsam.kernels.policies.Policy
        The opponents'.
    search : bool or SEARCH_ONLY
        sapsam.kernels.policies.search_mode for the opponents' policy under this ruleset.
    rules : sapsam.kernels.settle.Rules
    states : ndarray(uint64), shape (B,)
        One random stream per block.
    block_size, n_samples : int
        Samples per block, and samples in these B blocks together.
    points : ndarray(int64), shape (C, n_samples)
        Output: the hero's points per candidate and sample; in the match game (``GAME_MATCH``,
        a deal's points 0 to 4 a seat) every seat's, three bits each (seat p at bits 3p, the hero
        at 0), for the chance of winning the match (:func:`sapsam.kernels.match.equity_after`).
    stats : ndarray(int64), shape (B, C, N_STATS)
        Output: per-block statistics (zeroed by the caller).
    """
    parallel_for(lambda b: sample_block(hero, cand_rows, cand_natural, cand_key, cand_surrender,
                                        unseen, players, policy, search, rules, bank, states,
                                        block_size, n_samples, points, stats, b), range(len(states)))
