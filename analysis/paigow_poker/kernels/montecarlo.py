"""The house way against itself, sampled: random deals of 14 cards, each seven set by the house
way's table (:func:`sapsam.paigow_poker.kernels.exact.house_table`).

Each deal is met both ways round (the first seven as the player, then the second seven): the
two outcomes are tallied jointly, ``out[block, banking, a, b]`` for outcome ``a`` of the first
way round and ``b`` of the second (0 win, 1 push, 2 loss, for the player), so that the
variance of their mean, and so the confidence interval, is exact from the counts.  Block ``b``
draws from its own SplitMix64 state, so the tallies do not depend on the threads.
"""

import numpy as np

from sapsam.kernels.compiler import njit
from sapsam.kernels.rng import shuffle_prefix
from sapsam.kernels.threads import parallel_for
from sapsam.paigow_poker.kernels.hands import BINOM


@njit(cache=True, inline="always")
def _index(cards, start, h):
    """Colex index of the seven cards ``cards[start:start + 7]`` (sorted here, into ``h``, int64
    (7,))."""
    for i in range(7):
        c = np.int64(cards[start + i])
        j = i
        while j > 0 and h[j - 1] > c:
            h[j] = h[j - 1]
            j -= 1
        h[j] = c
    index = 0
    for i in range(7):
        index += BINOM[h[i], i + 1]
    return index


@njit(cache=True, inline="always")
def _outcome(hp, lp, hd, ld, banking):
    if banking:
        if hp >= hd and lp >= ld:
            return 0
        return 2 if hp < hd and lp < ld else 1
    if hp > hd and lp > ld:
        return 0
    return 2 if hp <= hd and lp <= ld else 1


def house_against_house(high_table, low_table, states, deals):
    """Tallies of ``deals`` deals in each block: int64, shape (blocks, 2, 3, 3) (see above); the
    blocks on the kernel threads (:func:`sapsam.kernels.threads.parallel_for`)."""
    blocks = states.shape[0]
    out = np.zeros((blocks, 2, 3, 3), dtype=np.int64)
    parallel_for(lambda b: house_block(high_table, low_table, states, deals, out, b), range(blocks))
    return out


@njit(cache=True, nogil=True)
def house_block(high_table, low_table, states, deals, out, b):
    """Block ``b`` of :func:`house_against_house`, into ``out[b]``: tallied in an array of its
    own (stores that the tables' reads cannot alias)."""
    state = states[b:b + 1].copy()
    deck = np.arange(53).astype(np.uint8)
    tally = np.zeros((2, 3, 3), dtype=np.int64)
    h = np.empty(7, dtype=np.int64)  # one array for every hand's sort: no allocation a deal
    for _ in range(deals):
        shuffle_prefix(deck, 14, state)
        i, j = _index(deck, 0, h), _index(deck, 7, h)
        h1, l1, h2, l2 = high_table[i], low_table[i], high_table[j], low_table[j]
        for banking in range(2):
            tally[banking, _outcome(h1, l1, h2, l2, banking), _outcome(h2, l2, h1, l1, banking)] += 1
    out[b] = tally
