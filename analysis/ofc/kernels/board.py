"""Open-Face Chinese Poker on the shared strength scale (RULES.md part E): settling finished
boards, and Fantasyland — whether n cards can stay, and their exact best setting.

A ruleset reaches the kernels as three tables indexed by strength ordinal (built once in
``sapsam.ofc.game``): ``royalty[row, s]`` (points; row 0 front, 1 middle, 2 back),
``stay[row, s]`` (a row that keeps its board in Fantasyland) and ``entry[s]`` (cards dealt
next hand for a front of strength ``s``; 0 = no Fantasyland).  ``scores = (row, scoop)``.

A board is 13 card codes: front ``[0:3]``, middle ``[3:8]``, back ``[8:13]``.
"""

import numpy as np
from numba import prange

from sapsam.kernels.compiler import njit
from sapsam.kernels.evaluate import CATEGORY_OF, QUADS, eval3, eval5

FRONT, MIDDLE, BACK = 0, 1, 2
ROW_START = np.array([0, 3, 8], np.int64)  # where each row starts on a board, and its size
ROW_SIZE = np.array([3, 5, 5], np.int64)
STRENGTH_BITS = 16  # a setting's key: (1000 * value in points) << 16 | sum of its rows' strengths
MILLI = 1000


@njit(cache=True, inline="always")
def rows_of(board):
    """The three rows' strengths of a finished board."""
    return (eval3(board[0], board[1], board[2]),
            eval5(board[3], board[4], board[5], board[6], board[7]),
            eval5(board[8], board[9], board[10], board[11], board[12]))


@njit(cache=True)
def board_terms(board, royalty):
    """(front, middle, back strengths, fouled, royalties) of a finished board: what settling it
    needs (its royalties 0 if it fouls)."""
    f, m, b = rows_of(board)
    if not (b >= m >= f):
        return f, m, b, True, np.int64(0)
    return f, m, b, False, np.int64(royalty[FRONT, f] + royalty[MIDDLE, m] + royalty[BACK, b])


@njit(cache=True, inline="always")
def pair_points(f, m, b, foul, royalties, f2, m2, b2, foul2, royalties2, scores):
    """The points a board (its :func:`board_terms`) wins from another (which wins the
    negative): a row won scores ``scores[0]``, all three ``scores[1]`` more; a fouled board
    loses every row to one that is not; each collects its royalties from the other."""
    if foul and foul2:
        rows = 0
    elif foul:
        rows = -3
    elif foul2:
        rows = 3
    else:
        rows = (f > f2) - (f < f2) + (m > m2) - (m < m2) + (b > b2) - (b < b2)
    won = 1 if rows == 3 else -1 if rows == -3 else 0
    return rows * scores[0] + won * scores[1] + royalties - royalties2


@njit(cache=True)
def settle_boards(boards, royalty, scores, out):
    """Points of each of ``boards`` (shape (players, 13)) against all the others, into ``out``:
    every pair by :func:`pair_points`.  Zero-sum."""
    players = boards.shape[0]
    terms = np.empty((players, 5), np.int64)
    for p in range(players):
        f, m, b, foul, royalties = board_terms(boards[p], royalty)
        terms[p, 0], terms[p, 1], terms[p, 2], terms[p, 3], terms[p, 4] = f, m, b, foul, royalties
    for p in range(players):
        out[p] = 0
    for p in range(players):
        for q in range(p + 1, players):
            net = pair_points(terms[p, 0], terms[p, 1], terms[p, 2], terms[p, 3], terms[p, 4],
                              terms[q, 0], terms[q, 1], terms[q, 2], terms[q, 3], terms[q, 4], scores)
            out[p] += net
            out[q] -= net


@njit(cache=True)
def board_outcome(board, royalty, stay, entry):
    """(fouled, royalties, cards dealt next hand in Fantasyland or 0, stays) of a board."""
    f, m, b = rows_of(board)
    if not (b >= m >= f):
        return True, 0, 0, False
    stays = stay[FRONT, f] or stay[MIDDLE, m] or stay[BACK, b]
    return False, royalty[FRONT, f] + royalty[MIDDLE, m] + royalty[BACK, b], entry[f], stays


# --------------------------------------------------------------------------------------------
# Fantasyland: can n cards stay, and their best setting
# --------------------------------------------------------------------------------------------

@njit(cache=True)
def _fives(cards):
    """Every 5-subset of ``cards`` (up to 17) in lexicographic order of positions: (masks of
    positions int32, strengths int32)."""
    n = cards.shape[0]
    count = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) // 120
    masks = np.empty(count, np.int32)
    strengths = np.empty(count, np.int32)
    i = 0
    for a in range(n - 4):
        for b in range(a + 1, n - 3):
            for c in range(b + 1, n - 2):
                for d in range(c + 1, n - 1):
                    for e in range(d + 1, n):
                        masks[i] = (1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e)
                        strengths[i] = eval5(cards[a], cards[b], cards[c], cards[d], cards[e])
                        i += 1
    return masks, strengths


@njit(cache=True)
def _three_strengths(cards):
    """The strengths (int32) of every 3-subset of ``cards``."""
    n = cards.shape[0]
    strengths = np.empty(n * (n - 1) * (n - 2) // 6, np.int32)
    i = 0
    for a in range(n - 2):
        for b in range(a + 1, n - 1):
            for c in range(b + 1, n):
                strengths[i] = eval3(cards[a], cards[b], cards[c])
                i += 1
    return strengths


@njit(cache=True)
def best_fantasyland(cards, royalty, stay, worth_milli):
    """The best setting of 13 of ``cards`` (13 to 17 codes) that is not fouled.

    Value = royalties + ``worth_milli`` / 1000 if the board stays; equal values go to the
    larger sum of the rows' strengths.  Branch and bound over backs and middles in descending
    order of their value, each bounded by the best any middle and front no stronger could add;
    the front of a back and middle is the best of the C(n - 10, 3) left.

    Returns ``(key, front mask, middle mask, back mask)`` over positions in ``cards``;
    ``key = (1000 * value) << 16 | strength sum``, -1 if no setting is legal.
    """
    n = cards.shape[0]
    fives, s5 = _fives(cards)
    s3 = _three_strengths(cards)
    w = np.int64(worth_milli) << STRENGTH_BITS
    back_key = np.empty(fives.shape[0], np.int64)
    middle_key = np.empty(fives.shape[0], np.int64)
    for c in range(fives.shape[0]):
        s = s5[c]
        back_key[c] = ((MILLI * np.int64(royalty[BACK, s])) << STRENGTH_BITS) + s + (w if stay[BACK, s] else 0)
        middle_key[c] = ((MILLI * np.int64(royalty[MIDDLE, s])) << STRENGTH_BITS) + s + (
            w if stay[MIDDLE, s] else 0)
    # front_cap[s], middle_cap[s]: the most a front (a middle) of strength at most s can add
    front_cap = np.zeros(royalty.shape[1], np.int64)
    middle_cap = np.zeros(royalty.shape[1], np.int64)
    for c in range(s3.shape[0]):
        s = s3[c]
        key = ((MILLI * np.int64(royalty[FRONT, s])) << STRENGTH_BITS) + s + (w if stay[FRONT, s] else 0)
        front_cap[s] = max(front_cap[s], key)
    for c in range(fives.shape[0]):
        middle_cap[s5[c]] = max(middle_cap[s5[c]], middle_key[c])
    for s in range(1, royalty.shape[1]):
        front_cap[s] = max(front_cap[s], front_cap[s - 1])
        middle_cap[s] = max(middle_cap[s], middle_cap[s - 1])
    best_front = front_cap[-1]
    by_back = np.argsort(-back_key)
    by_middle = np.argsort(-middle_key)
    best_middle = middle_key[by_middle[0]]
    best = np.int64(-1)
    found = np.zeros(3, np.int32)
    left = np.empty(7, np.int64)
    for bi in range(by_back.shape[0]):
        b = by_back[bi]
        if back_key[b] + best_middle + best_front <= best:
            break
        if back_key[b] + middle_cap[s5[b]] + front_cap[s5[b]] <= best:
            continue  # the middle and front are at most the back
        back_stays = stay[BACK, s5[b]]
        for mi in range(by_middle.shape[0]):
            m = by_middle[mi]
            if back_key[b] + middle_key[m] + best_front <= best:
                break
            if fives[m] & fives[b] or s5[m] > s5[b] or back_key[b] + middle_key[m] + front_cap[s5[m]] <= best:
                continue
            middle_stays = stay[MIDDLE, s5[m]]
            base = back_key[b] + middle_key[m]
            if back_stays and middle_stays:
                base -= w  # one stay, however many rows earn it
            already = back_stays or middle_stays
            used = fives[b] | fives[m]
            k = 0
            for i in range(n):
                if not used >> i & 1:
                    left[k] = i
                    k += 1
            for x in range(k - 2):
                for y in range(x + 1, k - 1):
                    for z in range(y + 1, k):
                        s = eval3(cards[left[x]], cards[left[y]], cards[left[z]])
                        if s > s5[m]:
                            continue
                        key = base + ((MILLI * np.int64(royalty[FRONT, s])) << STRENGTH_BITS) + s
                        if stay[FRONT, s] and not already:
                            key += w
                        if key > best:
                            best = key
                            found[0] = (1 << left[x]) | (1 << left[y]) | (1 << left[z])
                            found[1] = fives[m]
                            found[2] = fives[b]
    return best, found[0], found[1], found[2]


@njit(cache=True)
def _best_five(cards):
    """The strength of the strongest 5-card hand among ``cards``."""
    n = cards.shape[0]
    best = np.int16(0)
    for a in range(n - 4):
        for b in range(a + 1, n - 3):
            for c in range(b + 1, n - 2):
                for d in range(c + 1, n - 1):
                    for e in range(d + 1, n):
                        best = max(best, eval5(cards[a], cards[b], cards[c], cards[d], cards[e]))
    return best


@njit(cache=True)
def _two_disjoint_at_least(cards, skip, floor, rest, good):
    """Whether the cards outside ``skip`` (a mask of positions) hold two disjoint 5-card hands
    of strength >= floor.  ``rest`` (room for the cards) and ``good`` (for every 5-subset's
    mask) are scratch."""
    n = 0
    for i in range(cards.shape[0]):
        if not skip >> i & 1:
            rest[n] = cards[i]
            n += 1
    count = 0
    for a in range(n - 4):
        for b in range(a + 1, n - 3):
            for c in range(b + 1, n - 2):
                for d in range(c + 1, n - 1):
                    for e in range(d + 1, n):
                        if eval5(rest[a], rest[b], rest[c], rest[d], rest[e]) < floor:
                            continue
                        mask = (1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e)
                        for g in range(count):
                            if not good[g] & mask:
                                return True
                        good[count] = mask
                        count += 1
    return False


@njit(cache=True)
def can_stay(cards, stay, full_house):
    """Whether some setting of 13 of ``cards`` that is not fouled stays in Fantasyland.

    The back stays with quads or better exactly when the best 5-card hand of the cards does
    (it goes in the back, the best of the rest in the middle, and any 3 left are below that);
    front's trips need two disjoint 5-card hands of the rest above them (the stronger the
    back); a middle full house (when it stays) needs two disjoint full houses or better
    (``full_house``: the weakest one's strength).  The 5-card hands are looped over
    directly, position by position (over a table of subsets' masks, picking each one's cards
    took longer than valuing them).
    """
    n = cards.shape[0]
    best = _best_five(cards)
    if stay[BACK, best] and CATEGORY_OF[best] >= QUADS:
        return True
    rest = np.empty(n, np.uint8)
    good = np.empty(n * (n - 1) * (n - 2) * (n - 3) * (n - 4) // 120, np.int32)
    if stay[MIDDLE, full_house] and _two_disjoint_at_least(cards, np.int64(0), np.int64(full_house), rest, good):
        return True
    for rank in range(12, -1, -1):
        where = 0
        for i in range(n):
            if cards[i] >> 2 == rank:
                where |= 1 << i
        trips = eval3(rank * 4, rank * 4 + 1, rank * 4 + 2)
        count = _bits(where)
        if count < 3 or not stay[FRONT, trips]:
            continue
        for i in range(n):  # the trips: the rank's three cards, or three of its four
            if count == 3 and i > 0:
                break
            if count == 4 and not where >> i & 1:
                continue
            skip = where & ~(1 << i) if count == 4 else where
            if _two_disjoint_at_least(cards, skip, np.int64(trips), rest, good):
                return True
    return False


@njit(cache=True, inline="always")
def _bits(mask):
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@njit(cache=True, parallel=True)
def stay_counts(decks, n, stay, full_house, out):
    """For each row of ``decks`` (shuffled decks), whether its first ``n`` cards can stay."""
    for d in prange(decks.shape[0]):
        out[d] = can_stay(decks[d, :n], stay, full_house)
