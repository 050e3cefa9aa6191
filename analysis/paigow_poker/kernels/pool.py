"""What the best play gains over the house way, approximately and fast: every setting of a hand
valued against a fixed *pool* of dealer hands (the pool's hands that share no card with it), not
against all 53,524,680 dealer hands.

Once the pool is drawn, the approximate gain is a fixed function of the hand, so the sampled
best-play edge (:mod:`sapsam.paigow_poker.measure.best_play`) can correct its bias with exact values on
a subsample of hands (a difference estimator): it has to be close to the exact gain, not equal.

One hand's dealer hands fall into buckets of the hand's own setting strengths: a dealer high
``hd`` goes to ``2 * (candidate highs below hd) + (1 if hd is one)``, a low likewise, so that
"below a candidate" and "at most a candidate" are prefixes.  The histogram has at most 43 x 43
cells, and its cumulative sums give every setting's win and loss counts, banking and not, as
:func:`sapsam.paigow_poker.measure.exact.outcome_counts` takes them from the full histogram.
"""

import numpy as np

from sapsam.kernels.compiler import njit
from sapsam.kernels.rng import shuffle_prefix
from sapsam.kernels.threads import parallel_for, parallel_ranges
from sapsam.paigow_poker.kernels.hands import LOW_PACKED, N_HIGH, N_LOW
from sapsam.paigow_poker.kernels.houseway import N_SETTINGS, house_setting


@njit(cache=True, inline="always")
def _sort7(cards, out):
    """The first seven of ``cards``, ascending, into ``out``."""
    for i in range(7):
        c = cards[i]
        j = i
        while j > 0 and out[j - 1] > c:
            out[j] = out[j - 1]
            j -= 1
        out[j] = c


def draw_pool(deck, per_block, way, scale, joker, states):
    """``per_block`` random hands of seven of ``deck`` for each SplitMix64 state, set by the
    house way: their card masks (uint64) and (high, low) strengths (int16), block after block,
    so that the pool does not depend on the threads (the blocks run on the kernel threads,
    :func:`sapsam.kernels.threads.parallel_for`)."""
    n = states.shape[0] * per_block
    masks = np.zeros(n, dtype=np.uint64)
    highs = np.zeros(n, dtype=np.int16)
    lows = np.zeros(n, dtype=np.int16)
    parallel_for(lambda b: pool_block(deck, per_block, way, scale, joker, states, masks, highs, lows, b),
                 range(states.shape[0]))
    return masks, highs, lows


@njit(cache=True, nogil=True)
def pool_block(deck, per_block, way, scale, joker, states, masks, highs, lows, b):
    """Block ``b`` of :func:`draw_pool`."""
    state = states[b:b + 1].copy()
    cards = deck.copy()
    h = np.empty(7, dtype=np.uint8)
    high = np.empty(N_SETTINGS, dtype=np.int16)
    low = np.empty(N_SETTINGS, dtype=np.int16)
    for i in range(b * per_block, (b + 1) * per_block):
        shuffle_prefix(cards, 7, state)
        _sort7(cards, h)
        k = house_setting(h, way, scale, joker, high, low)
        mask = np.uint64(0)
        for m in range(7):
            mask |= np.uint64(1) << np.uint64(h[m])
        masks[i], highs[i], lows[i] = mask, high[k], low[k]


@njit(cache=True, inline="always")
def _buckets(values, legal, count, out):
    """Fill ``out`` (shape (count,)) with each strength's bucket among the legal ``values``;
    return the number of buckets."""
    distinct = np.sort(values[legal])
    below = 0
    for v in range(count):
        while below < distinct.shape[0] and distinct[below] < v:
            below += 1
        equal = below < distinct.shape[0] and distinct[below] == v
        out[v] = 2 * below + (1 if equal else 0)
    last = distinct.shape[0]
    return 2 * last + 1


def pool_gains(hands, masks, highs, lows, way, scale, joker, commission):
    """Per hand (rows of seven ascending codes): the best setting's value less the house way's
    against the pool's dealer hands that share no card with it, not banking and banking:
    float64, shape (n, 2); and how many of the pool's hands it met: int64, shape (n,).  In
    chunks of consecutive hands on the kernel threads (:func:`sapsam.kernels.threads.parallel_ranges`)."""
    n = hands.shape[0]
    gains = np.zeros((n, 2), dtype=np.float64)
    met = np.zeros(n, dtype=np.int64)
    parallel_ranges(lambda first, last: gains_chunk(hands, masks, highs, lows, way, scale, joker, commission,
                                                    gains, met, first, last), n)
    return gains, met


@njit(cache=True, nogil=True)
def gains_chunk(hands, masks, highs, lows, way, scale, joker, commission, gains, met, first, last):
    """Hands ``first`` up to ``last`` of :func:`pool_gains`."""
    packed = scale[1]
    for i in range(first, last):
        h = hands[i]
        high = np.empty(N_SETTINGS, dtype=np.int16)
        low = np.empty(N_SETTINGS, dtype=np.int16)
        k = house_setting(h, way, scale, joker, high, low)
        legal = np.empty(N_SETTINGS, dtype=np.bool_)
        for s in range(N_SETTINGS):
            legal[s] = packed[high[s]] > LOW_PACKED[low[s]] or s == k
        hb = np.empty(N_HIGH, dtype=np.int64)
        lb = np.empty(N_LOW, dtype=np.int64)
        nh = _buckets(high, legal, N_HIGH, hb)
        nl = _buckets(low, legal, N_LOW, lb)
        mask = np.uint64(0)
        for m in range(7):
            mask |= np.uint64(1) << np.uint64(h[m])
        cum = np.zeros((nh, nl), dtype=np.int64)
        for j in range(masks.shape[0]):
            if (masks[j] & mask) == 0:
                cum[hb[highs[j]], lb[lows[j]]] += 1
        for a in range(nh):  # cum[a, b]: dealer hands in buckets at most a and b
            for b in range(nl):
                if a > 0:
                    cum[a, b] += cum[a - 1, b]
                if b > 0:
                    cum[a, b] += cum[a, b - 1]
                if a > 0 and b > 0:
                    cum[a, b] -= cum[a - 1, b - 1]
        total = cum[nh - 1, nl - 1]
        met[i] = total
        if total == 0:
            continue
        for banking in range(2):
            best = -np.inf
            mine = 0.0
            for s in range(N_SETTINGS):
                if not legal[s]:
                    continue
                a = hb[high[s]] - 1 + banking  # the buckets below the setting, or at most it
                b = lb[low[s]] - 1 + banking
                win = cum[a, b]
                loss = total - cum[a, nl - 1] - cum[nh - 1, b] + cum[a, b]
                value = ((1 - commission) * win - loss) / total
                best = max(best, value)
                if s == k:
                    mine = value
            gains[i, banking] = best - mine
    return gains, met
