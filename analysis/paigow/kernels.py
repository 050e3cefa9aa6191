"""Pai Gow tiles: the 32 Chinese dominoes, a two-tile hand's strength, and exact comparison of
every setting of four tiles against every banker hand of the 28 tiles left.

Tiles are ``uint8`` indices ``0 .. 31`` in descending single-tile rank: the eleven civil tiles
two of each (teen 6-6, day 1-1, yun 4-4, gor 1-3, mooy 5-5, chong 3-3, bon 2-2, foo 5-6, ping
4-6, tit 1-6, look 1-5), then the military tiles one of each, paired by their pips (nines 4-5
and 3-6, eights 3-5 and 2-6, sevens 3-4 and 2-5, fives 1-4 and 2-3) and the Gee Joon tiles 1-2
and 2-4.  ``GROUP[t] = t // 2`` is the tile's pair: two tiles of one group make a pair.

A hand's *strength* is one ``uint8``, higher is better and equal is a copy (the banker wins):

- a pair: ``192 + PAIR_RANK`` (Gee Joon 16, teen 15, day 14 .. mixed fives 1);
- otherwise ``16 * points + RANK[highest tile]``, where points are the pips' last digit (a Gee
  Joon tile counting 3 or 6, whichever scores more), a teen or day with an eight-pip tile is
  a gong (10 points) and with a nine a wong (11); the highest tile breaks a tie of points, a
  Gee Joon tile ranking lowest ("no value in ties"), military tiles of one group alike;
- every hand of 0 points is 0: any zero-zero tie goes to the banker, whatever the tiles.

A *setting* of four tiles ``t0 < t1 < t2 < t3`` is one of three partitions: 0 = ``t0 t1 | t2
t3``, 1 = ``t0 t2 | t1 t3``, 2 = ``t0 t3 | t1 t2``; its low hand is the weaker half.
"""

from itertools import combinations

import numpy as np

from sapsam.kernels.compiler import njit
from sapsam.kernels.threads import parallel_ranges

N_TILES = 32
N_HANDS = 35960  # 4-tile sets of the 32 tiles, told apart by index
N_BANKER = 20475  # 4-tile sets of the 28 tiles a player's hand leaves
# the two halves of each setting, as positions in the sorted four tiles
SETTING_HALVES = np.array([[0, 1, 2, 3], [0, 2, 1, 3], [0, 3, 1, 2]], dtype=np.uint8)

FACES = np.array([(6, 6)] * 2 + [(1, 1)] * 2 + [(4, 4)] * 2 + [(1, 3)] * 2 + [(5, 5)] * 2
                 + [(3, 3)] * 2 + [(2, 2)] * 2 + [(5, 6)] * 2 + [(4, 6)] * 2 + [(1, 6)] * 2
                 + [(1, 5)] * 2 + [(4, 5), (3, 6), (3, 5), (2, 6), (3, 4), (2, 5), (1, 4),
                                   (2, 3), (1, 2), (2, 4)], dtype=np.uint8)
PIPS = FACES.sum(axis=1).astype(np.uint8)
GROUP = (np.arange(N_TILES) // 2).astype(np.uint8)
RANK = (15 - GROUP).astype(np.uint8)  # single-tile rank for ties: teen 15 .. Gee Joon 0
PAIR_RANK = np.where(GROUP == 15, 16, RANK).astype(np.uint8)  # the Gee Joon pair is highest
GEE_JOON = 15  # the group of 1-2 and 2-4
PAIR_BASE = 192  # above every non-pair strength (11 * 16 + 15 = 191)


@njit(cache=True)
def points(a, b):
    """The points of two tiles of different groups: 0 .. 9, gong 10, wong 11."""
    pa, pb = np.int64(PIPS[a]), np.int64(PIPS[b])
    if RANK[a] >= 14 or RANK[b] >= 14:  # teen or day
        other = pb if RANK[a] >= 14 else pa
        if other == 9:
            return 11
        if other == 8:
            return 10
    best = (pa + pb) % 10
    if GROUP[a] == GEE_JOON:  # 1-2 counts 3 or 6, and 2-4 too
        best = max(best, (9 - pa + pb) % 10)
    if GROUP[b] == GEE_JOON:
        best = max(best, (pa + 9 - pb) % 10)
    return best


@njit(cache=True)
def strength(a, b):
    """The strength of the two-tile hand ``a b`` (see the module's docstring)."""
    if GROUP[a] == GROUP[b]:
        return PAIR_BASE + np.int64(PAIR_RANK[a])
    p = points(a, b)
    if p == 0:
        return 0
    return 16 * p + max(np.int64(RANK[a]), np.int64(RANK[b]))


def _build_hands():
    hands = np.array(list(combinations(range(N_TILES), 4)), dtype=np.uint8)
    masks = (np.uint32(1) << hands.astype(np.uint32)).sum(axis=1).astype(np.uint32)
    return hands, masks


HANDS, MASKS = _build_hands()


@njit(cache=True)
def setting_strengths(hands):
    """``(n, 3, 2)`` uint8: each setting's (low, high) strength for each 4-tile hand."""
    out = np.empty((hands.shape[0], 3, 2), dtype=np.uint8)
    for i in range(hands.shape[0]):
        for k in range(3):
            h = SETTING_HALVES[k]
            x = strength(hands[i, h[0]], hands[i, h[1]])
            y = strength(hands[i, h[2]], hands[i, h[3]])
            out[i, k, 0], out[i, k, 1] = min(x, y), max(x, y)
    return out


def exact_counts(players, player_masks, banker_masks, banker_low, banker_high, banking):
    """Every setting of each player hand against every banker hand of the tiles it leaves.

    ``players`` is ``(n, 3, 2)`` (low, high) strengths, ``player_masks`` their tile bits;
    the banker hands are all 35,960 (those sharing a tile with the player are skipped) set as
    ``banker_low``/``banker_high`` say.  Returns ``(n, 3, 3)`` int64 counts of (win, push,
    loss) for the player, out of 20,475 banker hands.  Copies go to the banker, or to the
    player when ``banking`` (the player is the banker, the other hand the house's).  In
    chunks of consecutive player hands on the kernel threads
    (:func:`sapsam.kernels.threads.parallel_ranges`)."""
    n = players.shape[0]
    out = np.zeros((n, 3, 3), dtype=np.int64)
    edge = np.int64(1 if banking else 0)  # a copy wins for the player when banking
    parallel_ranges(lambda first, last: counts_chunk(players, player_masks, banker_masks, banker_low, banker_high,
                                                     edge, out, first, last), n)
    return out


@njit(cache=True, nogil=True)
def counts_chunk(players, player_masks, banker_masks, banker_low, banker_high, edge, out, first, last):
    """Player hands ``first`` up to ``last`` of :func:`exact_counts` (``edge`` 1: a copy wins
    for the player, who banks)."""
    for i in range(first, last):
        mask = player_masks[i]
        for j in range(banker_masks.shape[0]):
            if banker_masks[j] & mask:
                continue
            bl, bh = np.int64(banker_low[j]), np.int64(banker_high[j])
            for k in range(3):
                won = (np.int64(players[i, k, 0]) + edge > bl) + \
                      (np.int64(players[i, k, 1]) + edge > bh)
                out[i, k, 2 - won] += 1
