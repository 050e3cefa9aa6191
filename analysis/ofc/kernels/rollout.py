"""Open-Face Chinese Poker's policies that play a board out before they place (``ROLLOUT``,
``LOOKAHEAD``), and a seat's choice of placement by any policy (:func:`decide`).

- ``ROLLOUT``: the placement whose board finishes with the most heuristic value
  (:func:`sapsam.ofc.kernels.policies.finished_value`) on average over ``params[H_ROLLOUTS]``
  deals of the cards this seat has not seen (the same deals and random draws for every
  placement), its later streets played by the heuristic with ``params[H_INNER_FILLS]`` fills;
  its last street takes the placement whose finished board is worth most, exactly.
- ``LOOKAHEAD`` (issue 38): the same rollouts of the ``params[H_SHORTLIST]`` placements the
  learned value ranks highest (:func:`sapsam.ofc.kernels.learned.learned_values`, by the
  seat's weights), or of all of them where there are no more, spent in rounds of sequential
  halving (``params[H_HALVING]``: the placements still close to the best get the most
  rollouts).  The learned value alone buys its Fantasyland entries with fouls (27.9% of its
  hands in heads-up self-play): it judges a board by features of the cards so far, where a
  rollout sees the board finished by its owner, so the shortlist is wide: 54 of a first
  street's 232 placements (a later street has at most 27: it keeps them all); 108 did no
  better on a screen, and all 232 would cost four times as much (docs/ofc.md, its tuning).
  It counts Fantasyland's worth :func:`fantasy_weight` times, in the rollouts' play and their
  boards' value: ``params[H_FANTASY]`` times on the first street, falling in a straight line to
  ``params[H_LATE_FANTASY]`` times on the fourth, since an early street's rollouts play more
  streets by the heuristic, which under-reaches Fantasyland, than a late one's.  With one street
  left it rolls nothing out (:func:`exact_next_street`): a placement is worth the mean, over
  every deal of the last street's cards from those it has not seen, of the best board that deal
  finishes, which is what its rollouts estimate, without their noise.

Neither sees the other boards: in a hand, every policy's last street but ``RANDOM``'s is
:func:`sapsam.ofc.kernels.policies.exact_last_choice`'s, against them."""

import numpy as np

from sapsam.kernels.compiler import njit
from sapsam.kernels.rng import shuffle_prefix
from sapsam.ofc.kernels.learned import LEARNED, learned_choice, learned_values
from sapsam.ofc.kernels.policies import (
    H_FANTASY,
    H_FILLS,
    H_HALVING,
    H_INNER_FILLS,
    H_LATE_FANTASY,
    H_ROLLOUTS,
    H_SHORTLIST,
    HEURISTIC,
    RANDOM,
    finished_value,
    heuristic_choice,
    legal_codes,
    next_subset,
    place,
    play_out,
    random_choice,
    unseen,
)

LOOKAHEAD = 4  # after LEARNED
LATE = 9  # cards on a board from which the lookahead counts Fantasyland params[H_LATE_FANTASY] times


@njit(cache=True)
def fantasy_weight(counts, params):
    """How many times the lookahead counts Fantasyland's worth on a board whose rows hold
    ``counts`` cards: ``params[H_FANTASY]`` on an empty board, ``params[H_LATE_FANTASY]`` from
    ``LATE`` cards on (Pineapple's fourth street), in a straight line
    between."""
    placed = counts[0] + counts[1] + counts[2]
    if placed >= LATE:
        return params[H_LATE_FANTASY]
    return params[H_FANTASY] + (params[H_LATE_FANTASY] - params[H_FANTASY]) * placed / LATE


@njit(cache=True)
def rolled_out(board, counts, dealt, nd, codes, known, state, game, params):
    """Of placements ``codes``, the one whose board finishes with the most heuristic value on
    average over ``params[H_ROLLOUTS]`` deals (the module doc); the first of equals.  With
    ``params[H_HALVING]`` the same number of rollouts in all is spent in rounds of sequential
    halving: each round shares its rollouts equally among the placements still in, on deals of
    its own, and keeps the better half by their mean over every round (the first of equals)."""
    pool, npool = unseen(known)
    n = codes.shape[0]
    totals = np.zeros(n, np.float64)
    deck = pool[:npool].copy()
    alive = np.arange(n)
    if params[H_HALVING] == 0 or n <= 2:
        for _ in range(np.int64(params[H_ROLLOUTS])):
            roll_deal(board, counts, dealt, nd, codes, alive, known, deck, npool, state, game, params, totals)
        return codes[np.argmax(totals)]
    rounds = np.int64(np.ceil(np.log2(n)))
    budget = np.int64(params[H_ROLLOUTS]) * n
    while alive.shape[0] > 1:
        each = max(budget // (alive.shape[0] * rounds), 1)
        for _ in range(each):
            roll_deal(board, counts, dealt, nd, codes, alive, known, deck, npool, state, game, params, totals)
        keep = (alive.shape[0] + 1) // 2
        alive = alive[np.argsort(-totals[alive], kind="mergesort")[:keep]]
        alive.sort()
    return codes[alive[0]]


@njit(cache=True)
def roll_deal(board, counts, dealt, nd, codes, which, known, deck, npool, state, game, params, totals):
    """One rollout of placements ``codes[which]``: a fresh deal of ``deck`` (the cards unseen,
    ``npool`` of them), each placement's board finished on it by the heuristic from the same
    random state, its :func:`finished_value` added to ``totals``."""
    shuffle_prefix(deck, npool, state)
    start = state.copy()
    boards = np.empty((1, 13), np.uint8)
    row_counts = np.empty((1, 3), np.int64)
    order = np.zeros(1, np.int64)
    policy = np.full(1, HEURISTIC, np.int64)
    inner = params.copy().reshape(1, -1)
    inner[0, H_FILLS] = params[H_INNER_FILLS]
    for j in which:
        boards[0, :] = board
        row_counts[0, :] = counts
        place(boards[0], row_counts[0], dealt, nd, codes[j])
        state[:] = start
        play_out(boards, row_counts, deck, order, policy, inner, state, game, known, 0)
        totals[j] += finished_value(boards[0], game, params)


@njit(cache=True)
def one_street_left(counts, keep, game):
    """Whether placing ``keep`` cards on a board whose rows hold ``counts`` leaves it one street."""
    return counts[0] + counts[1] + counts[2] + keep + game.deal[2] == 13


@njit(cache=True)
def exact_next_street(board, counts, dealt, nd, codes, known, game, params):
    """Of placements ``codes``, each leaving the board one street, the one whose board is worth
    most (:func:`finished_value`) on average over every deal of that street's cards from those
    not in ``known``, each deal's cards placed exactly (its best placement); the first of equals.
    What the rollouts estimate, without their noise: a finished board's value is its own, so the
    other seats' cards do not matter."""
    pool, n = unseen(known)
    draw, keep = game.deal[1], game.deal[2]
    after = np.empty(13, np.uint8)
    after_counts = np.empty(3, np.int64)
    trial = np.empty(13, np.uint8)
    trial_counts = np.empty(3, np.int64)
    index = np.empty(draw, np.int64)  # each placement starts it at 0, 1, ..., draw - 1
    deal = np.empty(draw, np.uint8)
    best_code, best_total = codes[0], -np.inf
    for code in codes:
        after[:] = board
        after_counts[:] = counts
        place(after, after_counts, dealt, nd, code)
        lasts = legal_codes(draw, keep, after_counts)
        for i in range(draw):
            index[i] = i
        total = 0.0
        while True:
            for i in range(draw):
                deal[i] = pool[index[i]]
            best = -np.inf
            for last in lasts:
                trial[:] = after
                trial_counts[:] = after_counts
                place(trial, trial_counts, deal, draw, last)
                best = max(best, finished_value(trial, game, params))
            total += best
            if not next_subset(index, n):
                break
        if total > best_total:
            best_code, best_total = code, total
    return best_code


@njit(cache=True)
def lookahead_choice(board, counts, dealt, nd, keep, known, state, game, params, weights):
    """``LOOKAHEAD``'s placement of ``dealt`` (the module doc)."""
    params = params.copy()
    params[H_FANTASY] = fantasy_weight(counts, params)
    codes = legal_codes(nd, keep, counts)
    shortlist = np.int64(params[H_SHORTLIST])
    if codes.shape[0] > shortlist:
        values = learned_values(board, counts, dealt, nd, keep, known, state, game, params, weights, codes)
        codes = codes[np.argsort(-values, kind="mergesort")[:shortlist]]  # of equals, the first code
    if one_street_left(counts, keep, game):
        return exact_next_street(board, counts, dealt, nd, codes, known, game, params)
    return rolled_out(board, counts, dealt, nd, codes, known, state, game, params)


@njit(cache=True)
def decide(board, counts, dealt, nd, keep, known, policy, params, state, game, weights):
    """A seat's placement of ``dealt`` by its policy (``weights``: a learned or lookahead seat's)."""
    if policy == RANDOM:
        return random_choice(nd, keep, counts, state)
    if policy == HEURISTIC:
        return heuristic_choice(board, counts, dealt, nd, keep, known, state, game, params)
    if policy == LEARNED:
        return learned_choice(board, counts, dealt, nd, keep, known, state, game, params, weights)
    if policy == LOOKAHEAD:
        return lookahead_choice(board, counts, dealt, nd, keep, known, state, game, params, weights)
    return rolled_out(board, counts, dealt, nd, legal_codes(nd, keep, counts), known, state, game, params)
