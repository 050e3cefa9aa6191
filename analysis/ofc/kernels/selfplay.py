"""Open-Face Chinese Poker's self-play for the learned policy (``sapsam.ofc.strategy.learn``): hands
played as :func:`sapsam.ofc.kernels.simulate.simulate_blocks` plays them, every decision's
board kept with the seat's final result of the hand (``selfplay_blocks``), and the boards'
features (``trace_features``) for the least-squares fit."""

import numpy as np

from sapsam.kernels.compiler import njit
from sapsam.kernels.rng import shuffle_prefix
from sapsam.kernels.threads import borrowed, parallel_for
from sapsam.ofc.kernels.board import board_outcome, settle_boards
from sapsam.ofc.kernels.learned import N_FEATURES, draw_fills, features
from sapsam.ofc.kernels.policies import borrowed_game
from sapsam.ofc.kernels.simulate import block_streams, play_hand

TRACE = 17  # a decision's record: 13 cards, 3 rows' counts, the 52-bit mask of the cards seen


def selfplay_blocks(states, hands, policy, params, values, game, stay, worth_milli, stay_cards, scores,
                    traces, targets):
    """Blocks of ``hands`` consecutive hands (Fantasyland carried over, as ``simulate_blocks``
    plays them); for hand ``h`` of block ``b`` and a seat ``p`` that built its board,
    ``traces[b, h, p, placed]`` is its board after each decision (``play_hand``'s trace; rows
    of a count it never had stay 0) and ``targets[b, h, p]`` its result: its points against
    every other board plus the worth of Fantasyland if it enters.  A seat that sat in
    Fantasyland leaves its rows 0 (nothing to learn from) and its target NaN.  The blocks run
    on the kernel threads (:func:`sapsam.kernels.threads.parallel_for`)."""
    parallel_for(lambda b: selfplay_block(states, hands, policy, params, values, game, stay, worth_milli,
                                          stay_cards, scores, traces, targets, b), range(states.shape[0]))


@njit(cache=True, nogil=True)
def selfplay_block(states, hands, policy, params, values, game, stay, worth_milli, stay_cards, scores,
                   traces, targets, b):
    """Block ``b`` of :func:`selfplay_blocks`, its arrays borrowed (as race_stream's are)."""
    states, policy, params, values, game = borrowed(states), borrowed(policy), borrowed(params), borrowed(values), \
        borrowed_game(game)
    stay, scores, traces, targets = borrowed(stay), borrowed(scores), borrowed(traces), borrowed(targets)
    royalty, entry = game.royalty, game.entry
    players = policy.shape[0]
    decks, state = block_streams(states[b])
    deck = np.arange(52).astype(np.uint8)
    fl = np.zeros(players, np.int64)
    boards = np.zeros((players, 13), np.uint8)
    points = np.zeros(players, np.int64)
    trace = np.zeros((players, 14, TRACE), np.uint64)
    for h in range(hands):
        shuffle_prefix(deck, 52, decks)
        trace[:] = 0
        play_hand(deck, fl, policy, params, values, state, game, stay, worth_milli, boards, trace)
        settle_boards(boards, royalty, scores, points)
        for p in range(players):
            fouled, _, enters, stays = board_outcome(boards[p], royalty, stay, entry)
            if fl[p] > 0:
                targets[b, h, p] = np.nan
                fl[p] = stay_cards if stays else 0
                continue
            traces[b, h, p] = trace[p]
            targets[b, h, p] = points[p] + (game.worth if enters > 0 else 0.0)
            fl[p] = enters


def trace_features(records, fills, states, game, out):
    """``out[i]``: the :func:`sapsam.ofc.kernels.learned.features` of decision ``records[i]``
    (a ``TRACE`` row), its empty places filled ``fills`` times from the cards its seat had not
    seen; chunk ``c`` of the records draws from ``states[c]`` alone, on the kernel threads
    (:func:`sapsam.kernels.threads.parallel_for`)."""
    parallel_for(lambda c: trace_chunk(records, fills, states, game, out, c), range(states.shape[0]))


@njit(cache=True, nogil=True)
def trace_chunk(records, fills, states, game, out, c):
    """Chunk ``c`` of :func:`trace_features`."""
    n = records.shape[0]
    chunks = states.shape[0]
    state = states[c:c + 1].copy()
    board = np.empty(13, np.uint8)
    counts = np.empty(3, np.int64)
    phi = np.empty(N_FEATURES)
    for i in range(c * n // chunks, (c + 1) * n // chunks):
        for j in range(13):
            board[j] = records[i, j]
        for r in range(3):
            counts[r] = records[i, 13 + r]
        known = records[i, 16]
        drawn = draw_fills(known, 13 - counts[0] - counts[1] - counts[2], fills, state)
        features(board, counts, known, drawn, game, phi)
        out[i, :] = phi
