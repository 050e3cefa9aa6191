"""Open-Face Chinese Poker's learned policy (``LEARNED``): a placement is worth a learned linear
function of the board it leaves, fitted to self-play's final results (``sapsam.ofc.strategy.learn``).

Why: the heuristic (:mod:`sapsam.ofc.kernels.policies`) values a partial board by filling its
empty places with random unseen cards, as if its owner had no say where later cards go, so a
board that needs care later (a pair of queens in front with the back still to build) looks like
it fouls far more often than it does, and Fantasyland is under-entered.  The learned value keeps
those random-fill estimates as features and lets self-play correct them with features of the
rows built so far.

``V(board) = weights[placed] . phi(board)``, ``placed`` the cards on the board after the
placement (one weight row per count, 0 to 13), ``phi`` (:func:`features`, ``N_FEATURES``):

- ``F_BIAS``: 1;
- over the same random fills of the empty places (``params[H_FILLS]`` of them): the share that
  foul (``F_FOUL``), that enter Fantasyland (``F_ENTRY``), the mean royalties and the mean
  ``sum of 2 F - 1`` over the rows (``F``: a row's percentile; both 0 on a fouled fill).  With
  weights ``-foul, fantasy x worth, 1, row`` on these four the value is the heuristic's;
- the front so far (``F_FRONT``): a pair 22-55, 66-JJ, QQ, KK, AA, trips; ``F_FRONT_DRAW``: live
  cards (unseen by the seat) of an unpaired queen, king or ace in a front with room, over 3;
- ``F_ROOM``: each row's empty places over its size;
- the middle's and the back's cards so far (``F_MIDDLE``, ``F_BACK``, ``ROW_FEATURES`` each):
  pair, two pair, trips, full house or quads, the top group's rank over 12, a live flush draw
  (every card one suit, at least 2, enough of the suit unseen), the same times cards over 5, a
  live straight draw (distinct ranks within a five-rank window) times cards over 5;
- ``F_FRONT_OVER_MIDDLE``: the front's pair or trips beat the middle's groups so far;
  ``F_MIDDLE_OVER_BACK``: the middle's groups beat the back's;
- ``F_FANTASY_FOUL``, ``F_FANTASY_ROOM``, ``F_FANTASY_ROWS``: a front that enters Fantasyland as
  it stands, times the fills' foul share, times the middle's and back's empty places over 10,
  and times each of the middle's and the back's features (what such a front needs behind it).

A learned seat's params row: ``H_FILLS`` (the fills, and its exact last street's,
:func:`sapsam.ofc.kernels.policies.exact_last_choice`) and ``H_EXPLORE``: the chance of a
uniformly random legal placement instead (self-play's exploration; 0 in play)."""

import numpy as np

from sapsam.kernels.compiler import njit
from sapsam.kernels.evaluate import eval3, eval5
from sapsam.kernels.rng import next_u64, shuffle_prefix
from sapsam.ofc.kernels.policies import H_EXPLORE, H_FILLS, ROW_SIZE, ROW_START, legal, place, random_choice, unseen

LEARNED = 3  # after policies' RANDOM, HEURISTIC, ROLLOUT
F_BIAS, F_FOUL, F_ENTRY, F_ROYALTY, F_ROWS = range(5)
F_FRONT = 5  # 6: pair 22-55, 66-JJ, QQ, KK, AA, trips
F_FRONT_DRAW = 11
F_ROOM = 12  # 3: front, middle, back
ROW_FEATURES = 8
F_MIDDLE = 15
F_BACK = F_MIDDLE + ROW_FEATURES
F_FRONT_OVER_MIDDLE = F_BACK + ROW_FEATURES
F_MIDDLE_OVER_BACK = F_FRONT_OVER_MIDDLE + 1
F_FANTASY_FOUL = F_MIDDLE_OVER_BACK + 1
F_FANTASY_ROOM = F_FANTASY_FOUL + 1
F_FANTASY_ROWS = F_FANTASY_ROOM + 1  # 2 x ROW_FEATURES: the middle's, the back's
N_FEATURES = F_FANTASY_ROWS + 2 * ROW_FEATURES
N_PLACED = 14  # weight rows: cards placed 0 to 13
NOTHING, PAIR, TWO_PAIR, TRIPS, FULL_HOUSE, QUADS = range(6)


@njit(cache=True)
def groups(board, start, n):
    """The made groups of a row's ``n`` cards from ``board[start]``: ``(kind, rank)``, kind one
    of ``NOTHING .. QUADS`` (straights and flushes are draws until the row is full) and rank
    the top group's (-1 for ``NOTHING``).  The ranks' counts are 3-bit fields of one integer:
    nothing allocated, as it runs for every placement of every decision."""
    packed = np.int64(0)
    for i in range(n):
        packed += np.int64(1) << (3 * np.int64(board[start + i] >> 2))
    pairs = 0
    top2 = top3 = top4 = -1
    for r in range(13):
        count = (packed >> (3 * r)) & 7
        if count == 2:
            pairs += 1
            top2 = r
        elif count == 3:
            top3 = r
        elif count == 4:
            top4 = r
    if top4 >= 0:
        return QUADS, top4
    if top3 >= 0:
        return (FULL_HOUSE if pairs else TRIPS), top3
    if pairs >= 2:
        return TWO_PAIR, top2
    if pairs == 1:
        return PAIR, top2
    return NOTHING, -1


@njit(cache=True, inline="always")
def is_live(known, card):
    return not (known >> np.uint64(card)) & np.uint64(1)


@njit(cache=True)
def row_features(board, start, n, size, known, kind, rank, out, at):
    """The ``ROW_FEATURES`` of a 5-card row's ``n`` cards so far (their :func:`groups`:
    ``kind``, ``rank``) into ``out[at:]``."""
    if kind != NOTHING:
        out[at + min(kind, FULL_HOUSE) - 1] = 1.0  # quads count as a full house
        out[at + 4] = rank / 12
    if n < 2:
        return
    suit = board[start] & 3
    same = True
    ranks = 0
    low, high = 13, -1
    for i in range(n):
        c = board[start + i]
        same = same and (c & 3) == suit
        r = c >> 2
        ranks |= 1 << r
        low, high = min(low, r), max(high, r)
    if same:
        live = 0
        for r in range(13):
            live += is_live(known, r * 4 + suit)
        if live >= size - n:
            out[at + 5] = 1.0
            out[at + 6] = n / size
    distinct = kind == NOTHING
    if distinct and (high - low <= 4 or (ranks & (1 << 12) and ranks & ~(1 << 12) < (1 << 4))):
        out[at + 7] = n / size  # a window of five ranks, the wheel's included


@njit(cache=True)
def enters_as_is(kind, rank, game):
    """Whether a front whose cards so far hold ``kind`` (:func:`groups`) of ``rank`` enters
    Fantasyland as it stands."""
    if kind == TRIPS:
        return game.entry[eval3(rank * 4, rank * 4 + 1, rank * 4 + 2)] > 0
    if kind == PAIR:
        return game.entry[eval3(rank * 4, rank * 4 + 1, 4 if rank == 0 else 0)] > 0
    return False


@njit(cache=True)
def features(board, counts, known, drawn, game, out):
    """``phi`` of a board (the module doc) into ``out``: its rows hold ``counts`` cards, the
    seat has seen the cards of the 52-bit mask ``known``, and ``drawn[k]`` fills its empty
    places row by row (the first ``13 - placed`` cards of each fill).  The fills are written
    into ``board``'s empty places (scratch: nothing is allocated for them)."""
    royalty, entry, cdf = game.royalty, game.entry, game.cdf
    out[:] = 0.0
    out[F_BIAS] = 1.0
    f = eval3(board[0], board[1], board[2]) if counts[0] == 3 else -1
    m = eval5(board[3], board[4], board[5], board[6], board[7]) if counts[1] == 5 else -1
    b = eval5(board[8], board[9], board[10], board[11], board[12]) if counts[2] == 5 else -1
    fills = max(drawn.shape[0], 1)
    for k in range(fills):
        j = 0
        for r in range(3):
            for i in range(counts[r], ROW_SIZE[r]):
                board[ROW_START[r] + i] = drawn[k, j]
                j += 1
        ff = f if f >= 0 else eval3(board[0], board[1], board[2])
        mm = m if m >= 0 else eval5(board[3], board[4], board[5], board[6], board[7])
        bb = b if b >= 0 else eval5(board[8], board[9], board[10], board[11], board[12])
        if not (bb >= mm >= ff):
            out[F_FOUL] += 1
            continue
        out[F_ROYALTY] += royalty[0, ff] + royalty[1, mm] + royalty[2, bb]
        out[F_ENTRY] += entry[ff] > 0
        out[F_ROWS] += 2 * (cdf[0, ff] + cdf[1, mm] + cdf[2, bb]) - 3
    for i in range(F_FOUL, F_ROWS + 1):
        out[i] /= fills
    # the front so far
    kind, rank = groups(board, 0, counts[0])
    if kind == TRIPS:
        out[F_FRONT + 5] = 1.0
    elif kind == PAIR:
        out[F_FRONT + (0 if rank < 4 else 1 if rank < 10 else rank - 8)] = 1.0
    elif counts[0] < 3:
        live = 0
        for i in range(counts[0]):
            r = board[i] >> 2
            if r >= 10:
                for s in range(4):
                    live += is_live(known, r * 4 + s)
        out[F_FRONT_DRAW] = live / 3
    for r in range(3):
        out[F_ROOM + r] = (ROW_SIZE[r] - counts[r]) / ROW_SIZE[r]
    middle_kind, middle_rank = groups(board, 3, counts[1])
    back_kind, back_rank = groups(board, 8, counts[2])
    row_features(board, 3, counts[1], 5, known, middle_kind, middle_rank, out, F_MIDDLE)
    row_features(board, 8, counts[2], 5, known, back_kind, back_rank, out, F_BACK)
    if kind != NOTHING and (middle_kind < kind or (middle_kind == kind and middle_rank < rank)):
        out[F_FRONT_OVER_MIDDLE] = 1.0
    if middle_kind != NOTHING and (back_kind < middle_kind or (back_kind == middle_kind and back_rank < middle_rank)):
        out[F_MIDDLE_OVER_BACK] = 1.0
    if enters_as_is(kind, rank, game):
        out[F_FANTASY_FOUL] = out[F_FOUL]
        out[F_FANTASY_ROOM] = (10 - counts[1] - counts[2]) / 10
        for i in range(2 * ROW_FEATURES):
            out[F_FANTASY_ROWS + i] = out[F_MIDDLE + i]


@njit(cache=True)
def draw_fills(known, need, fills, state):
    """``fills`` random fills of ``need`` empty places from the cards not in ``known``."""
    pool, npool = unseen(known)
    drawn = np.empty((fills if need > 0 else 0, max(need, 0)), np.uint8)
    for k in range(drawn.shape[0]):
        shuffle_prefix(pool[:npool], need, state)
        drawn[k, :] = pool[:need]
    return drawn


@njit(cache=True)
def learned_choice(board, counts, dealt, nd, keep, known, state, game, params, weights):
    """The legal placement of ``dealt`` whose board is worth most by ``weights`` (the module
    doc), every placement judged on the same fills; with chance ``params[H_EXPLORE]`` a
    uniformly random legal one instead."""
    if params[H_EXPLORE] > 0 and (next_u64(state) >> np.uint64(11)) * 2.0 ** -53 < params[H_EXPLORE]:
        return random_choice(nd, keep, counts, state)
    placed = counts[0] + counts[1] + counts[2] + keep
    drawn = draw_fills(known, 13 - placed, np.int64(params[H_FILLS]), state)
    w = weights[placed]
    phi = np.empty(N_FEATURES)
    trial = np.empty(13, np.uint8)
    trial_counts = np.empty(3, np.int64)
    best_code, best_value = -1, -np.inf
    for code in range(1 << (2 * nd)):
        if not legal(code, nd, keep, counts):
            continue
        value = _placed_value(board, counts, dealt, nd, code, known, drawn, game, w, phi, trial, trial_counts)
        if value > best_value:
            best_code, best_value = code, value
    return best_code


@njit(cache=True)
def learned_values(board, counts, dealt, nd, keep, known, state, game, params, weights, codes):
    """:func:`learned_choice`'s value of each placement ``codes[i]`` (legal ones), on the same
    fills."""
    placed = counts[0] + counts[1] + counts[2] + keep
    drawn = draw_fills(known, 13 - placed, np.int64(params[H_FILLS]), state)
    phi = np.empty(N_FEATURES)
    trial = np.empty(13, np.uint8)
    trial_counts = np.empty(3, np.int64)
    values = np.empty(codes.shape[0])
    for i in range(codes.shape[0]):
        values[i] = _placed_value(board, counts, dealt, nd, codes[i], known, drawn, game, weights[placed], phi,
                                  trial, trial_counts)
    return values


@njit(cache=True, inline="always")
def _placed_value(board, counts, dealt, nd, code, known, drawn, game, w, phi, trial, trial_counts):
    """``w . phi`` of the board placement ``code`` leaves (``phi``, ``trial``: scratch)."""
    trial[:] = board
    trial_counts[:] = counts
    place(trial, trial_counts, dealt, nd, code)
    features(trial, trial_counts, known, drawn, game, phi)
    value = 0.0
    for i in range(N_FEATURES):
        value += w[i] * phi[i]
    return value
