"""The house way, set by data: a Numba setter that reads a house way's rules as flat arrays.

A house way (:mod:`sapsam.paigow_poker.strategy`, from the TOML files in ``houseways/``) is
compiled into a :class:`HouseWay` bundle; no rule is named in this module.  The setter looks
at the seven cards' rank pattern (the joker counted as an ace), decides which *low hand* the
rules want (a pair, or two singletons), and of the settings giving that low hand takes the one
with the best high hand; where the rules want "any complete hand (straight, flush, straight
flush) in back with the highest low hand", it takes the best low hand among the settings whose
high hand is complete, then the best high hand.

Thresholds ("keep two pair together if an ace can play in front") are two ranks ``(top,
second)``: the rule holds when the two highest singletons are at least ``top`` and ``second``
(``-1`` always holds, ``13`` never does).

A setting of seven ascending cards ``h`` is its index ``k`` in 0 .. 20: the low hand is
``h[i], h[j]`` for the ``k``-th pair ``i < j`` (:data:`PAIRS`), the other five the high hand.
"""

from collections import namedtuple

import numpy as np

from sapsam.kernels.compiler import njit
from sapsam.kernels.evaluate import FLUSH, STRAIGHT, STRAIGHT_FLUSH
from sapsam.paigow_poker.kernels.hands import (
    ACE,
    LOW_INDEX,
    LOW_PACKED,
    LOW_PAIR,
    high_strength,
    low_strength,
)

PAIRS = np.array([(i, j) for i in range(6) for j in range(i + 1, 7)], dtype=np.int8)
OTHERS = np.array([[m for m in range(7) if m not in p] for p in PAIRS], dtype=np.int8)
N_SETTINGS = 21

# two_pair int8 (13, 13, 2): [big, small] -> keep-together threshold; quads int8 (13, 2);
# trips_split bool (13,); full_house int8 (13, 2): [pair] -> keep-together threshold;
# pair_exception bool (13,): a pair that stays in back for an ace in front beside a straight
# or flush; params int8 (2,): [lowest pair kept in front beside five aces (13: none),
# whether the pair exception needs the ace to improve the front (1) or always holds (0)]
HouseWay = namedtuple("HouseWay", "two_pair quads trips_split full_house pair_exception params")


@njit(cache=True, inline="always")
def _holds(threshold, s1, s2):
    return s1 >= threshold[0] and s2 >= threshold[1]


@njit(cache=True)
def settings_of(h, dense, joker, high, low):
    """Fill ``high``, ``low`` (int16, shape (21,)) with every setting's dense strengths."""
    for k in range(N_SETTINGS):
        o = OTHERS[k]
        high[k] = high_strength(h[o[0]], h[o[1]], h[o[2]], h[o[3]], h[o[4]], dense, joker)
        low[k] = low_strength(h[PAIRS[k, 0]], h[PAIRS[k, 1]])


@njit(cache=True)
def _with_low(target, high, low, packed):
    best = -1
    for k in range(N_SETTINGS):
        if low[k] == target and packed[high[k]] > LOW_PACKED[low[k]] and \
                (best < 0 or high[k] > high[best]):
            best = k
    return best


@njit(cache=True)
def _best_complete(high, low, category):
    best = -1
    for k in range(N_SETTINGS):
        kind = category[high[k]]
        if kind == STRAIGHT or kind == FLUSH or kind == STRAIGHT_FLUSH:
            if best < 0 or low[k] > low[best] or (low[k] == low[best] and high[k] > high[best]):
                best = k
    return best


@njit(cache=True)
def house_setting(h, way, scale, joker, high, low):
    """The house way's setting of seven ascending card codes ``h`` (uint8, shape (7,)).

    ``high`` and ``low`` are scratch arrays (int16, shape (21,)), left holding every setting's
    strengths.  Returns the setting's index (0 .. 20).
    """
    dense, packed, category = scale
    settings_of(h, dense, joker, high, low)
    count = np.zeros(13, dtype=np.int8)
    for m in range(7):
        count[min(np.int64(h[m]) >> 2, ACE)] += 1
    quad, five = -1, count[ACE] == 5
    t1 = t2 = p1 = p2 = -1
    s1 = s2 = s3 = -1
    n_pairs = 0
    for r in range(12, -1, -1):
        c = count[r]
        if c == 4:
            quad = max(quad, r)
        elif c == 3:
            if t1 < 0:
                t1 = r
            else:
                t2 = r
        elif c == 2:
            n_pairs += 1
            if p1 < 0:
                p1 = r
            elif p2 < 0:
                p2 = r
        elif c == 1:
            if s1 < 0:
                s1 = r
            elif s2 < 0:
                s2 = r
            elif s3 < 0:
                s3 = r
    target = -1
    if five:
        target = LOW_PAIR + (p1 if p1 >= way.params[0] else ACE)
    elif quad >= 0:
        other = max(t1, p1)
        if other >= 0:
            target = LOW_PAIR + other
        elif _holds(way.quads[quad], s1, s2):
            target = LOW_INDEX[s1 * 13 + s2]
        else:
            target = LOW_PAIR + quad
    elif t2 >= 0:
        target = LOW_PAIR + t1
    elif t1 >= 0 and p1 >= 0:
        if n_pairs == 1 and _holds(way.full_house[p1], s1, s2):
            target = LOW_INDEX[s1 * 13 + s2]
        else:
            target = LOW_PAIR + p1
    elif t1 >= 0:
        complete = _best_complete(high, low, category)
        if complete >= 0:
            k = _with_complete_low(LOW_PAIR + t1, high, low, category)
            if k >= 0:
                return k
        target = LOW_INDEX[t1 * 13 + s1] if way.trips_split[t1] else LOW_INDEX[s1 * 13 + s2]
    elif n_pairs == 3:
        target = LOW_PAIR + p1
    elif n_pairs == 2:
        if _holds(way.two_pair[p1, p2], s1, s2):
            target = LOW_INDEX[s1 * 13 + s2]
        else:
            target = LOW_PAIR + p2
    elif n_pairs == 1:
        complete = _best_complete(high, low, category)
        if complete < 0:
            target = LOW_INDEX[s1 * 13 + s2]
        elif way.pair_exception[p1] and s1 == ACE and \
                (way.params[1] == 0 or low[complete] < LOW_INDEX[ACE * 13 + s2]):
            target = LOW_INDEX[ACE * 13 + s2]
        else:
            return complete
    else:
        complete = _best_complete(high, low, category)
        if complete >= 0:
            return complete
        target = LOW_INDEX[s2 * 13 + s3]
    k = _with_low(target, high, low, packed)
    if k < 0:  # a safeguard: the rules always name a low hand some setting has; else the best legal high
        for m in range(N_SETTINGS):
            if packed[high[m]] > LOW_PACKED[low[m]] and (k < 0 or high[m] > high[k]):
                k = m
    return k


@njit(cache=True)
def _with_complete_low(target, high, low, category):
    best = -1
    for k in range(N_SETTINGS):
        kind = category[high[k]]
        if low[k] == target and (kind == STRAIGHT or kind == FLUSH or kind == STRAIGHT_FLUSH) \
                and (best < 0 or high[k] > high[best]):
            best = k
    return best
