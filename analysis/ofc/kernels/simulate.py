"""Open-Face Chinese Poker hands dealt and played: whole hands with Fantasyland carried from
one to the next (``simulate_blocks``; each seat decides by
:func:`sapsam.ofc.kernels.rollout.decide`), and the exact values of a decision's placements
where every deal left can be enumerated (``exact_placements``; sampled ones race,
:mod:`sapsam.ofc.kernels.race`).  The policies are :mod:`sapsam.ofc.kernels.policies`'s,
:mod:`sapsam.ofc.kernels.learned`'s and :mod:`sapsam.ofc.kernels.rollout`'s."""

import numpy as np

from sapsam.kernels.compiler import njit
from sapsam.kernels.rng import next_u64, shuffle_prefix
from sapsam.kernels.threads import borrowed, parallel_for
from sapsam.ofc.kernels.board import best_fantasyland, board_outcome, settle_boards
from sapsam.ofc.kernels.policies import (
    RANDOM,
    borrowed_game,
    exact_last_choice,
    final_value,
    last_street,
    legal,
    next_subset,
    next_turn,
    others_terms,
    place,
    placed_mask,
)
from sapsam.ofc.kernels.rollout import decide

# A block's tally per seat (simulate_blocks): normal and Fantasyland hands, points in all and in
# Fantasyland, their squares, fouls, Fantasyland entries and stays, royalties.
A_HANDS, A_FL_HANDS, A_POINTS, A_FL_POINTS, A_SQUARES, A_FL_SQUARES, A_FOULS, A_ENTRIES, A_STAYS, \
    A_ROYALTIES = range(10)
N_TALLY = 10


@njit(cache=True)
def set_fantasyland(cards, royalty, stay, worth_milli, board, counts):
    """``board`` (13 codes: front, middle, back) set from a Fantasyland hand's ``cards`` by
    the best setting (:func:`sapsam.ofc.kernels.board.best_fantasyland`), its row ``counts`` full."""
    _, front, middle, back = best_fantasyland(cards, royalty, stay, worth_milli)
    counts[0], counts[1], counts[2] = 3, 5, 5
    k = 0
    for mask in (front, middle, back):
        for i in range(cards.shape[0]):
            if mask >> i & 1:
                board[k] = cards[i]
                k += 1


@njit(cache=True)
def play_hand(deck, fl_cards, policy, params, values, state, game, stay, worth_milli, boards, trace):
    """One hand: a seat with ``fl_cards[p] > 0`` is in Fantasyland and sets that many cards
    at once (its board unseen by the others until the end); the others build their boards
    street by street in seat order, each seeing the cards placed before its turn; a seat that
    is not random plays its last street exactly (``exact_last_choice``), its other streets by
    :func:`sapsam.ofc.kernels.rollout.decide` (a learned or lookahead seat with its weights
    ``values[p]``).  Each decision leaves its board in
    ``trace[p, placed]`` (13 cards, the 3 rows' counts, then the 52-bit mask of the cards the
    seat has seen), for self-play to learn from."""
    royalty = game.royalty
    players = fl_cards.shape[0]
    counts = np.zeros((players, 3), np.int64)
    pos = 0
    building = 0
    for p in range(players):
        if fl_cards[p] > 0:
            set_fantasyland(deck[pos:pos + fl_cards[p]], royalty, stay, worth_milli, boards[p],
                            counts[p])
            pos += fl_cards[p]
        else:
            building += 1
    order = np.empty(building, np.int64)
    own = np.zeros(players, np.uint64)
    k = 0
    for p in range(players):
        if fl_cards[p] == 0:
            order[k] = p
            k += 1
    seen = np.uint64(0)
    turn = np.int64(0)  # not a literal: next_turn compiles for int64 alone
    while True:
        i, nd, keep = next_turn(counts, order, turn, game.deal)
        if i < 0:
            return
        p = order[i]
        dealt = deck[pos:pos + nd]
        pos += nd
        for c in dealt:
            own[p] |= np.uint64(1) << np.uint64(c)
        if policy[p] != RANDOM and players > 1 and last_street(counts[p], keep):
            code = exact_last_choice(boards, counts, p, dealt, nd, keep, seen | own[p], state, game, params[p])
        else:
            code = decide(boards[p], counts[p], dealt, nd, keep, seen | own[p], policy[p], params[p], state, game,
                          values[p])
        seen |= placed_mask(dealt, nd, code)
        place(boards[p], counts[p], dealt, nd, code)
        placed = counts[p, 0] + counts[p, 1] + counts[p, 2]
        trace[p, placed, :13] = boards[p]
        trace[p, placed, 13:16] = counts[p]
        trace[p, placed, 16] = seen | own[p]
        turn = i + 1


@njit(cache=True)
def block_streams(seed):
    """A block's two streams from its state ``seed``: the decks', and the policies' (their
    random fills and choices), apart so that the same block deals the same decks whoever sits
    where (duplicate hands: the same seed with the seats swapped)."""
    decks = np.empty(1, np.uint64)
    decks[0] = seed
    play = np.empty(1, np.uint64)
    play[0] = next_u64(decks)  # SplitMix64's next output seeds a stream of its own
    return decks, play


def simulate_blocks(states, hands, policy, params, values, game, stay, worth_milli, stay_cards, scores, tally):
    """Blocks of ``hands`` consecutive hands, every seat starting outside Fantasyland; block
    ``b`` draws from ``states[b]`` alone (:func:`block_streams`) and adds each seat's figures
    into ``tally[b, seat]`` (the ``A_*`` fields above).  ``values``: the learned seats'
    weights (:func:`play_hand`).  The blocks run on the kernel threads
    (:func:`sapsam.kernels.threads.parallel_for`)."""
    parallel_for(lambda b: simulate_block(states, hands, policy, params, values, game, stay, worth_milli,
                                          stay_cards, scores, tally, b), range(states.shape[0]))


@njit(cache=True, nogil=True)
def simulate_block(states, hands, policy, params, values, game, stay, worth_milli, stay_cards, scores, tally, b):
    """Block ``b`` of :func:`simulate_blocks`, its arrays borrowed (:func:`race_stream`'s note)."""
    states, policy, params, values, game = borrowed(states), borrowed(policy), borrowed(params), borrowed(values), \
        borrowed_game(game)
    stay, scores, tally = borrowed(stay), borrowed(scores), borrowed(tally)
    royalty, entry = game.royalty, game.entry
    players = policy.shape[0]
    decks, state = block_streams(states[b])
    deck = np.arange(52).astype(np.uint8)
    fl = np.zeros(players, np.int64)
    boards = np.zeros((players, 13), np.uint8)
    points = np.zeros(players, np.int64)
    trace = np.zeros((players, 14, 17), np.uint64)
    for _ in range(hands):
        shuffle_prefix(deck, 52, decks)
        play_hand(deck, fl, policy, params, values, state, game, stay, worth_milli, boards, trace)
        settle_boards(boards, royalty, scores, points)
        for p in range(players):
            fouled, royalties, enters, stays = board_outcome(boards[p], royalty, stay, entry)
            tally[b, p, A_POINTS] += points[p]
            tally[b, p, A_SQUARES] += points[p] * points[p]
            tally[b, p, A_ROYALTIES] += royalties
            if fl[p] > 0:
                tally[b, p, A_FL_HANDS] += 1
                tally[b, p, A_FL_POINTS] += points[p]
                tally[b, p, A_FL_SQUARES] += points[p] * points[p]
                tally[b, p, A_STAYS] += stays
                fl[p] = stay_cards if stays else 0
            else:
                tally[b, p, A_HANDS] += 1
                tally[b, p, A_FOULS] += fouled
                tally[b, p, A_ENTRIES] += enters > 0
                fl[p] = enters


@njit(cache=True)
def exact_placements(board, counts, dealt, codes, boards, row_counts, pool, game, params, out):
    """Each placement ``codes[o]`` of ``dealt`` on seat 0's board (``board``, ``counts``) worth
    exactly, the other boards (``boards[1:]``, ``row_counts[1:]``) seen and each finished or
    on its last street, nothing hidden:

    - every other board finished: a placement that finishes seat 0's board is worth its
      :func:`~sapsam.ofc.kernels.policies.final_value`; one that leaves a street, the mean over
      every deal of that street's cards from ``pool`` of the best final value of its placements
      (:func:`~sapsam.ofc.kernels.policies.exact_last_choice`'s, with nothing to sample);
    - one other board on its last street (this placement finishes seat 0's board, and that
      seat acts next, knowing every board): the mean over every deal of its last street from
      ``pool`` of seat 0's final value once that seat has played it by
      :func:`~sapsam.ofc.kernels.policies.exact_last_choice` (``params``: its row), as the
      rollouts play it.

    ``out[o]``: the value; returns the number of deals."""
    players = boards.shape[0]
    nd = dealt.shape[0]
    draw, keep = game.deal[1], game.deal[2]
    everything = np.uint64(0xFFFFFFFFFFFFF)  # every board is seen: nothing is filled at random
    state = np.zeros(1, np.uint64)
    responder = np.int64(0)
    for q in range(1, players):
        if row_counts[q, 0] + row_counts[q, 1] + row_counts[q, 2] < 13:
            responder = q
    mine = everything  # what seat 0 knows: every card but the pool's
    for i in range(pool.shape[0]):
        mine ^= np.uint64(1) << np.uint64(pool[i])
    work = boards.copy()
    work_counts = row_counts.copy()
    terms, versions, views = others_terms(boards, row_counts, np.int64(0), mine, np.int64(1), state, game)
    after = np.empty(13, np.uint8)
    after_counts = np.empty(3, np.int64)
    trial = np.empty(13, np.uint8)
    trial_counts = np.empty(3, np.int64)
    n = pool.shape[0]
    index = np.arange(draw)
    deal = np.empty(draw, np.uint8)
    lasts = np.empty(1 << (2 * draw), np.int64)
    deals = 1
    for o in range(codes.shape[0]):
        after[:] = board
        after_counts[:] = counts
        place(after, after_counts, dealt, nd, codes[o])
        finished = after_counts[0] + after_counts[1] + after_counts[2] == 13
        if finished and responder == 0:
            out[o] = final_value(after, np.int64(0), terms, versions, views, game)
            continue
        n_lasts = 0
        for code in range(1 << (2 * draw)):
            if not finished and legal(code, draw, keep, after_counts):
                lasts[n_lasts] = code
                n_lasts += 1
        work[0, :] = after
        work_counts[0, :] = after_counts
        for i in range(draw):
            index[i] = i
        total = 0.0
        deals = 0
        while True:
            for i in range(draw):
                deal[i] = pool[index[i]]
            if finished:  # the responder plays its last street, knowing every board
                work[responder, :] = boards[responder]
                work_counts[responder, :] = row_counts[responder]
                reply = exact_last_choice(work, work_counts, responder, deal, draw, keep, everything, state,
                                          game, params)
                place(work[responder], work_counts[responder], deal, draw, reply)
                seen, seen_versions, seen_views = others_terms(work, work_counts, np.int64(0), everything,
                                                               np.int64(1), state, game)
                total += final_value(after, np.int64(0), seen, seen_versions, seen_views, game)
            else:
                best = -np.inf
                for j in range(n_lasts):
                    trial[:] = after
                    trial_counts[:] = after_counts
                    place(trial, trial_counts, deal, draw, lasts[j])
                    best = max(best, final_value(trial, np.int64(0), terms, versions, views, game))
                total += best
            deals += 1
            if not next_subset(index, n):
                break
        out[o] = total / deals
    return deals
