"""The rollouts of ``sapsam ofc place`` in rounds (issue 38, item 3): each round deals more
hands to the placements still in the race, so that the caller can drop the ones clearly worse
than the leader between rounds (:mod:`sapsam.ofc.measure.place`).

A stream's deals do not depend on which placements are still in the race: each deal shuffles
the unseen cards from the stream's state and takes one more draw from it to seed the choices
of that deal (the same for every placement), so a placement's rollouts are the same whether
the others were dropped or not, and every placement meets the same deals (common random
numbers: the gaps between placements are measured on the same deals).

Until seat 0's next turn, the opponents' turns are the same for every placement, but for an
opponent's last street: an opponent's choice sees the cards every seat knows (in the rollouts,
seat 0's whole hand, discard included, from the start) and its own, not where seat 0's cards
went; only the last street's exact choice looks at seat 0's board.  Those turns are played once
a deal, not once a placement.  With the opponent's board empty (``ofc place`` without
``--opponents``) they are its first street, its dearest (every one of the 232 placements of
five cards judged on random fills), and where this placement finishes seat 0's board, every
opponent's street but its last.
"""

import numpy as np

from sapsam.kernels.compiler import njit
from sapsam.kernels.rng import next_u64, shuffle_prefix
from sapsam.kernels.threads import borrowed, parallel_for
from sapsam.ofc.kernels.board import rows_of, settle_boards
from sapsam.ofc.kernels.learned import LEARNED, learned_choice
from sapsam.ofc.kernels.policies import (
    RANDOM,
    borrowed_game,
    exact_last_choice,
    heuristic_choice,
    last_street,
    next_turn,
    own_cards,
    place,
    placed_mask,
    random_choice,
)
from sapsam.ofc.kernels.simulate import set_fantasyland


@njit(cache=True)
def play_turns(boards, counts, deck, pos, order, policy, params, values, state, game, seen, own, turn, shared):
    """:func:`sapsam.ofc.kernels.policies.play_out` from ``order[turn]`` on (a learned seat by
    its weights ``values[p]``), dealing from
    ``deck[pos:]``, with each seat's own cards ``own`` (updated) carried in, until every board
    is finished, or (``shared``) until seat 0 is to act or a seat is to play its last street
    with seat 0's board there to see (module doc).  Returns ``(pos, seen, turn)`` to go on
    from."""
    while True:
        i, nd, keep = next_turn(counts, order, turn, game.deal)
        if i < 0:
            return pos, seen, turn
        p = order[i]
        if shared and (p == 0 or (policy[p] != RANDOM and last_street(counts[p], keep))):
            return pos, seen, i
        dealt = deck[pos:pos + nd]
        pos += nd
        for c in dealt:
            own[p] |= np.uint64(1) << np.uint64(c)
        if policy[p] == RANDOM:
            code = random_choice(nd, keep, counts[p], state)
        elif boards.shape[0] > 1 and last_street(counts[p], keep):
            code = exact_last_choice(boards, counts, p, dealt, nd, keep, seen | own[p], state, game, params[p])
        elif policy[p] == LEARNED:
            code = learned_choice(boards[p], counts[p], dealt, nd, keep, seen | own[p], state, game, params[p],
                                  values[p])
        else:
            code = heuristic_choice(boards[p], counts[p], dealt, nd, keep, seen | own[p], state, game, params[p])
        seen |= placed_mask(dealt, nd, code)
        place(boards[p], counts[p], dealt, nd, code)
        turn = i + 1


def race_rollouts(board, counts, dealt, codes, active, boards, row_counts, fl_cards, decks, seen, states,
                  first, deals, share, policy, params, values, game, stay, worth_milli, scores, out):
    """``deals`` more rollouts a stream of each placement ``codes[active[a]]`` of ``dealt``
    on seat 0's board (``board``, ``counts``), played out: every board finished by its policy,
    seats acting in turn after seat 0 (seat 1 first), an opponent with ``fl_cards[p] > 0`` in
    Fantasyland (dealt that many cards from the end of the shuffled deck and set at once,
    unseen by the others), every placement meeting the same deals and random choices, into
    ``out[o, s, first + j]``: seat 0's points plus the worth of Fantasyland if it enters.
    Stream ``s`` carries its state ``states[s]`` and its deck ``decks[s]`` (the unseen
    cards, shuffled in place) from round to round.  ``share``: the
    turns the placements share are played once a deal (module doc); False: once a placement,
    the same numbers (the tests hold them to it).  The streams run on the kernel threads
    (:func:`sapsam.kernels.threads.parallel_for`), each writing its own part of ``out``."""
    parallel_for(lambda s: race_stream(board, counts, dealt, codes, active, boards, row_counts, fl_cards, decks,
                                       seen, states, first, deals, share, policy, params, values, game, stay,
                                       worth_milli, scores, out, s), range(states.shape[0]))


@njit(cache=True, nogil=True)
def race_stream(board, counts, dealt, codes, active, boards, row_counts, fl_cards, decks, seen, states,
                first, deals, share, policy, params, values, game, stay, worth_milli, scores, out, s):
    """Stream ``s`` of :func:`race_rollouts`: its arrays borrowed (no reference counts in the
    calls that pass them on, which on two threads cost a fifth of the time)."""
    board, counts, dealt = borrowed(board), borrowed(counts), borrowed(dealt)
    codes, active, boards, row_counts = borrowed(codes), borrowed(active), borrowed(boards), borrowed(row_counts)
    fl_cards, decks, states, policy = borrowed(fl_cards), borrowed(decks), borrowed(states), borrowed(policy)
    params, values, game, stay = borrowed(params), borrowed(values), borrowed_game(game), borrowed(stay)
    scores, out = borrowed(scores), borrowed(out)
    royalty, entry, worth = game.royalty, game.entry, game.worth
    players = boards.shape[0]
    nd = dealt.shape[0]
    state = states[s:s + 1]
    deck = decks[s]
    base = np.empty_like(boards)
    base_counts = np.empty_like(row_counts)
    work = np.empty_like(boards)
    work_counts = np.empty_like(row_counts)
    own = np.zeros(players, np.uint64)
    own_base = np.zeros(players, np.uint64)
    points = np.zeros(players, np.int64)
    order = np.arange(players)
    play = np.zeros(1, np.uint64)
    start = np.zeros(1, np.uint64)
    for j in range(deals):
        shuffle_prefix(deck, deck.shape[0], state)
        play[0] = next_u64(state)
        base[:] = boards
        base_counts[:] = row_counts
        end = deck.shape[0]
        for p in range(players):
            if fl_cards[p] > 0:
                set_fantasyland(deck[end - fl_cards[p]:end], royalty, stay, worth_milli, base[p],
                                base_counts[p])
                end -= fl_cards[p]
        base[0, :] = board
        base_counts[0, :] = counts
        pos, known, turn = np.int64(0), seen, np.int64(1)
        if share:  # seat 0's board placed by any placement: these turns do not see where
            place(base[0], base_counts[0], dealt, nd, codes[active[0]])
            for p in range(players):
                own_base[p] = own_cards(base[p], base_counts[p])
            pos, known, turn = play_turns(base, base_counts, deck, pos, order, policy, params, values, play,
                                          game, seen, own_base, turn, np.bool_(True))
            base[0, :] = board
            base_counts[0, :] = counts
        start[:] = play
        for a in range(active.shape[0]):
            o = active[a]
            work[:] = base
            work_counts[:] = base_counts
            place(work[0], work_counts[0], dealt, nd, codes[o])
            for p in range(players):
                own[p] = own_base[p] if share and p > 0 else own_cards(work[p], work_counts[p])
            play[:] = start
            play_turns(work, work_counts, deck, pos, order, policy, params, values, play, game, known, own,
                       turn, np.bool_(False))
            settle_boards(work, royalty, scores, points)
            value = np.float64(points[0])
            f, m, b = rows_of(work[0])
            if b >= m >= f and entry[f] > 0:
                value += worth
            out[o, s, first + j] = value
