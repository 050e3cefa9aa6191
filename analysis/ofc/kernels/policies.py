"""Open-Face Chinese Poker street by street: placements and the policies that choose them.

A board is ``uint8[13]`` (front ``[0:3]``, middle ``[3:8]``, back ``[8:13]``) with the cards
placed so far in each row counted in ``int64[3]``.  A placement of ``nd`` dealt cards is an
integer whose 2-bit digits say, card by card, which row it goes to (0 front, 1 middle, 2 back)
or 3: discarded.

Policies (``policy`` per seat, with a row of ``params``):

- ``RANDOM``: a uniform choice among the legal placements;
- ``HEURISTIC``: the placement whose board is worth most when its empty places are filled at
  random from the unseen cards ``params[H_FILLS]`` times (the same fills for every
  placement); a finished board is worth its royalties, ``params[H_FANTASY]`` times the worth
  of Fantasyland if it enters, and ``params[H_ROW]`` per row times ``2 F - 1`` (``F``: the
  row's strength percentile, ``cdf``), and ``-params[H_FOUL]`` if it fouls;
- ``ROLLOUT``, ``LEARNED`` and ``LOOKAHEAD``: :mod:`sapsam.ofc.kernels.rollout` (boards played
  out; its ``decide`` is a seat's choice by any policy) and :mod:`sapsam.ofc.kernels.learned`.

The last street is solved exactly by every policy but ``RANDOM`` wherever a hand is played
between boards (:func:`play_out`, and ``play_hand`` in :mod:`sapsam.ofc.kernels.simulate`):
:func:`exact_last_choice` tries every placement of the cards dealt, each finishing the board,
and keeps the one worth most under the ruleset: rows, scoop, royalties and fouls settled
against every other board, plus the worth of Fantasyland if it enters.  Against a board
already finished and seen this is the exact settlement.  A board still building when this one
finishes (its owner acts later: seats act in turn and the last to act knows every other board)
is taken as its empty places filled at random from the cards this seat has not seen,
``params[H_FILLS]`` times, the same fills for every placement: the simplest completion that
uses only what the seat knows, so that a rollout never lets a board see cards it could not see
(which would bias every value up).  A Fantasyland board, set face down, counts every row as a
tie: its owner's royalties, or the rows and the scoop lost if this board fouls.

A Fantasyland hand is set by :func:`sapsam.ofc.kernels.board.best_fantasyland`; ``game``, a
:class:`Game`, bundles a ruleset's tables."""

from collections import namedtuple

import numpy as np

from sapsam.kernels.compiler import njit
from sapsam.kernels.rng import next_u64, shuffle_prefix
from sapsam.kernels.threads import borrowed
from sapsam.ofc.kernels.board import BACK, FRONT, MIDDLE, ROW_SIZE, ROW_START, board_terms, pair_points, rows_of
from sapsam.ofc.kernels.fills import fill_scratch, filled_rows

# An Open-Face ruleset's tables as the kernels take them (sapsam.ofc.play.game_tables): royalty
# (row, strength) and Fantasyland entry (strength) from the ruleset, cdf (row, strength): where a
# row's strength stands among the hands of its size, worth: a Fantasyland hand's value in points
# by cards, deal = (first, draw, keep), the cards of a street, and scores = (row, scoop)
Game = namedtuple("Game", ["royalty", "entry", "cdf", "worth", "deal", "scores"])

RANDOM, HEURISTIC, ROLLOUT = 0, 1, 2
# H_EXPLORE: learned.py's; H_SHORTLIST, H_HALVING, H_LATE_FANTASY: rollout.py's (the lookahead's)
H_FOUL, H_ROW, H_FILLS, H_ROLLOUTS, H_INNER_FILLS, H_FANTASY, H_EXPLORE, H_SHORTLIST, H_HALVING = range(9)
H_LATE_FANTASY = 9
N_PARAMS = 10
DISCARD = 3



@njit(cache=True, inline="always")
def borrowed_game(game):
    """A :data:`Game` of borrowed arrays (:func:`sapsam.kernels.threads.borrowed`), for a block
    kernel on the kernel threads: its callees then count no references to the shared tables."""
    return Game(borrowed(game.royalty), borrowed(game.entry), borrowed(game.cdf), game.worth, borrowed(game.deal),
                borrowed(game.scores))

@njit(cache=True)
def legal(code, nd, keep, counts):
    """Whether placement ``code`` of ``nd`` cards discards ``nd - keep`` and fits the rows."""
    front = middle = back = discards = 0  # counted in scalars: no array to allocate, it runs often
    for i in range(nd):
        r = (code >> (2 * i)) & 3
        if r == 0:
            front += 1
        elif r == 1:
            middle += 1
        elif r == 2:
            back += 1
        else:
            discards += 1
    return (discards == nd - keep and counts[0] + front <= ROW_SIZE[0] and counts[1] + middle <= ROW_SIZE[1]
            and counts[2] + back <= ROW_SIZE[2])


@njit(cache=True)
def legal_codes(nd, keep, counts):
    """The legal placements of ``nd`` dealt cards, in increasing order."""
    codes = np.empty(1 << (2 * nd), np.int64)
    n = 0
    for code in range(1 << (2 * nd)):
        if legal(code, nd, keep, counts):
            codes[n] = code
            n += 1
    return codes[:n]


@njit(cache=True)
def place(board, counts, dealt, nd, code):
    """Put the dealt cards where ``code`` says (in place)."""
    for i in range(nd):
        r = (code >> (2 * i)) & 3
        if r != DISCARD:
            board[ROW_START[r] + counts[r]] = dealt[i]
            counts[r] += 1


@njit(cache=True)
def finished_value(board, game, params):
    """The heuristic's worth of a finished board (see the module doc)."""
    f, m, b = rows_of(board)
    return rows_value(f, m, b, game, params)


@njit(cache=True, inline="always")
def rows_value(f, m, b, game, params):
    """:func:`finished_value` of a board whose rows have strengths ``f``, ``m``, ``b``."""
    royalty, entry, cdf, worth = game.royalty, game.entry, game.cdf, game.worth
    if not (b >= m >= f):
        return -params[H_FOUL]
    value = np.float64(royalty[FRONT, f] + royalty[MIDDLE, m] + royalty[BACK, b])
    if entry[f] > 0:
        value += params[H_FANTASY] * worth
    return value + params[H_ROW] * (2 * (cdf[FRONT, f] + cdf[MIDDLE, m] + cdf[BACK, b]) - 3)


@njit(cache=True)
def unseen(known):
    """The cards not in the 52-bit mask ``known``."""
    pool = np.empty(52, np.uint8)
    n = 0
    for c in range(52):
        if not (known >> np.uint64(c)) & np.uint64(1):
            pool[n] = c
            n += 1
    return pool, n


@njit(cache=True)
def next_subset(index, n):
    """Step ``index`` (increasing positions of ``n``) to the next subset of its size in
    lexicographic order, in place; False after the last (``index`` then as it was)."""
    k = index.shape[0]
    i = k - 1
    while i >= 0 and index[i] == n - k + i:
        i -= 1
    if i < 0:
        return False
    index[i] += 1
    for j in range(i + 1, k):
        index[j] = index[j - 1] + 1
    return True


@njit(cache=True)
def heuristic_choice(board, counts, dealt, nd, keep, known, state, game, params):
    """The heuristic's placement (the module doc): every legal one judged on the same random
    fills.  Every placement leaves the same number of empty places, so the fills (random
    cards from the unseen) are drawn once, not once a placement, and each placement's empty
    places take them in turn, row by row (its rows' strengths:
    :func:`sapsam.ofc.kernels.fills.filled_rows`)."""
    pool, npool = unseen(known)
    fills = np.int64(params[H_FILLS])
    need = 13 - counts[0] - counts[1] - counts[2] - keep
    drawn = np.empty((fills if need > 0 else 0, max(need, 0)), np.uint8)
    for k in range(drawn.shape[0]):
        shuffle_prefix(pool[:npool], need, state)
        drawn[k, :] = pool[:need]
    best_code, best_value = -1, -np.inf
    scratch = fill_scratch(nd, drawn.shape[0])
    versions = scratch[0]  # one column where the placement finishes the board: its own value
    for code in range(1 << (2 * nd)):
        if legal(code, nd, keep, counts):
            f, m, b = filled_rows(board, counts, dealt, nd, code, drawn, scratch)
            total = 0.0
            for k in range(versions.shape[1]):
                total += rows_value(versions[f, k], versions[m, k], versions[b, k], game, params)
            value = total / versions.shape[1]
            if value > best_value:
                best_code, best_value = code, value
    return best_code


@njit(cache=True)
def random_choice(nd, keep, counts, state):
    codes = legal_codes(nd, keep, counts)
    return codes[np.int64(next_u64(state) % np.uint64(codes.shape[0]))]


# --------------------------------------------------------------------------------------------
# Hands played out: whose turn, the basic policies
# --------------------------------------------------------------------------------------------

@njit(cache=True)
def next_turn(counts, order, turn, deal):
    """The next seat of ``order`` still building, from ``turn`` on (cyclically), with the cards
    it is dealt and keeps: ``(index in order, dealt, keep)``, or ``(-1, 0, 0)`` when every
    board is finished.  An empty board gets ``deal[0]`` cards, later streets ``deal[1]``."""
    for step in range(order.shape[0]):
        i = (turn + step) % order.shape[0]
        p = order[i]
        placed = counts[p, 0] + counts[p, 1] + counts[p, 2]
        if placed < 13:
            if placed == 0:
                return i, deal[0], deal[0]
            return i, deal[1], deal[2]
    return -1, 0, 0


@njit(cache=True)
def own_cards(board, counts):
    mask = np.uint64(0)
    for r in range(3):
        for i in range(counts[r]):
            mask |= np.uint64(1) << np.uint64(board[ROW_START[r] + i])
    return mask


@njit(cache=True)
def play_out(boards, counts, deck, order, policy, params, state, game, seen, turn):
    """Finish the boards of ``order`` (acting in that order, cyclically, from ``order[turn]``)
    by the random or heuristic policy of each, dealing from ``deck`` in turn; where there are
    other boards, a heuristic seat's last street is :func:`exact_last_choice`'s.  ``seen``: a
    52-bit mask of the cards every seat sees; each placed card joins it.  Returns the number
    of cards dealt."""
    own = np.zeros(boards.shape[0], np.uint64)
    for p in order:
        own[p] = own_cards(boards[p], counts[p])
    pos = 0
    while True:
        i, nd, keep = next_turn(counts, order, turn, game.deal)
        if i < 0:
            return pos
        p = order[i]
        dealt = deck[pos:pos + nd]
        pos += nd
        for c in dealt:
            own[p] |= np.uint64(1) << np.uint64(c)
        if policy[p] == RANDOM:
            code = random_choice(nd, keep, counts[p], state)
        elif boards.shape[0] > 1 and last_street(counts[p], keep):
            code = exact_last_choice(boards, counts, p, dealt, nd, keep, seen | own[p], state, game, params[p])
        else:
            code = heuristic_choice(boards[p], counts[p], dealt, nd, keep, seen | own[p], state, game, params[p])
        seen |= placed_mask(dealt, nd, code)
        place(boards[p], counts[p], dealt, nd, code)
        turn = i + 1


@njit(cache=True)
def placed_mask(dealt, nd, code):
    mask = np.uint64(0)
    for i in range(nd):
        if (code >> (2 * i)) & 3 != DISCARD:
            mask |= np.uint64(1) << np.uint64(dealt[i])
    return mask


# --------------------------------------------------------------------------------------------
# The last street, exactly
# --------------------------------------------------------------------------------------------

# What a seat knows of another board when it places its own last cards (others_terms)
KNOWN, BUILDING, HIDDEN = 0, 1, 2


@njit(cache=True)
def last_street(counts, keep):
    """Whether placing ``keep`` cards finishes a board whose rows hold ``counts``."""
    return counts[0] + counts[1] + counts[2] + keep == 13


@njit(cache=True)
def board_view(board, counts, known):
    """``KNOWN``: finished, every card in the 52-bit mask ``known``; ``HIDDEN``: finished but
    not seen (a Fantasyland board, set face down); ``BUILDING``: not finished."""
    if counts[0] + counts[1] + counts[2] < 13:
        return BUILDING
    for i in range(13):
        if not (known >> np.uint64(board[i])) & np.uint64(1):
            return HIDDEN
    return KNOWN


@njit(cache=True)
def others_terms(boards, counts, p, known, fills, state, game):
    """The other boards as seat ``p`` knows them (``known``: the cards it has seen), for
    :func:`final_value`: ``views[q]`` (``board_view``; -1 for ``p``), and ``versions[q]``
    finished versions of board ``q`` as ``terms[q, k] = (front, middle, back strengths,
    fouled, royalties)``: a known board itself, a building one ``fills`` times with its empty
    places filled at random from the cards ``p`` has not seen, a hidden one none."""
    players = boards.shape[0]
    terms = np.zeros((players, fills, 5), np.int64)
    versions = np.zeros(players, np.int64)
    views = np.full(players, -1, np.int64)
    pool, npool = unseen(known)
    full = np.empty(13, np.uint8)
    for q in range(players):
        if q == p:
            continue
        views[q] = board_view(boards[q], counts[q], known)
        if views[q] == HIDDEN:
            continue
        versions[q] = 1 if views[q] == KNOWN else fills
        need = 13 - counts[q, 0] - counts[q, 1] - counts[q, 2]
        for i in range(13):
            full[i] = boards[q, i]
        for k in range(versions[q]):
            if need:
                shuffle_prefix(pool[:npool], need, state)
                j = 0
                for r in range(3):
                    for i in range(counts[q, r], ROW_SIZE[r]):
                        full[ROW_START[r] + i] = pool[j]
                        j += 1
            f, m, b, foul, royalties = board_terms(full, game.royalty)
            terms[q, k, 0], terms[q, k, 1], terms[q, k, 2] = f, m, b
            terms[q, k, 3], terms[q, k, 4] = foul, royalties
    return terms, versions, views


@njit(cache=True)
def final_value(board, p, terms, versions, views, game):
    """Seat ``p``'s worth of its finished ``board`` under the ruleset: its points against
    every other board (the mean over the versions :func:`others_terms` made; against a hidden
    board, every row a tie: its royalties, or the three rows and the scoop lost if it fouls),
    plus the worth of Fantasyland if it enters."""
    scores = game.scores
    f, m, b, foul, royalties = board_terms(board, game.royalty)
    value = 0.0
    for q in range(views.shape[0]):
        if views[q] == HIDDEN:
            value += -(3 * scores[0] + scores[1]) if foul else royalties
        elif versions[q] > 0:
            total = 0
            for k in range(versions[q]):
                total += pair_points(f, m, b, foul, royalties, terms[q, k, 0], terms[q, k, 1],
                                     terms[q, k, 2], terms[q, k, 3], terms[q, k, 4], scores)
            value += total / versions[q]
    if not foul and game.entry[f] > 0:
        value += game.worth
    return value


@njit(cache=True)
def exact_last_choice(boards, counts, p, dealt, nd, keep, known, state, game, params):
    """Seat ``p``'s last street solved exactly: every legal placement of ``dealt`` finishes its
    board, each is worth its :func:`final_value` (the other boards as ``p`` knows them: a
    building one filled ``params[H_FILLS]`` times), and the best is played; of equals, one not
    fouled (a foul can cost no more than being scooped), then the stronger rows, then the
    first."""
    terms, versions, views = others_terms(boards, counts, p, known, max(np.int64(params[H_FILLS]), 1),
                                          state, game)
    trial = np.empty(13, np.uint8)
    trial_counts = np.empty(3, np.int64)
    best_code, best_value, best_rows = -1, -np.inf, -1
    for code in range(1 << (2 * nd)):
        if not legal(code, nd, keep, counts[p]):
            continue
        for i in range(13):
            trial[i] = boards[p, i]
        for r in range(3):
            trial_counts[r] = counts[p, r]
        place(trial, trial_counts, dealt, nd, code)
        value = final_value(trial, p, terms, versions, views, game)
        f, m, b = rows_of(trial)
        rows = (b >= m >= f) * (1 << 20) + f + m + b  # not fouled first, then the rows' strengths
        if value > best_value or (value == best_value and rows > best_rows):
            best_code, best_value, best_rows = code, value, rows
    return best_code
