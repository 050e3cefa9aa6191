"""The seven-card bonus hands of Pai Gow Poker's side bets (the Fortune bonus): every hand of
the 53 cards by the best bonus hand its seven cards make.

Bonus hands (:data:`BONUS_HANDS`, best first) extend the high-hand categories: a seven-card
straight flush (seven suited cards in sequence, A-2-3-4-5-6-7 included) without the joker or
with it, a royal flush with a *royal match* (a suited king and queen among the other two
cards), five aces, a natural royal flush (no joker) and one the joker completes, then the
best five-card hand's category, except that three of a kind ranks above a straight (as the
bonus pay tables do).  A hand counts once, under the best bonus hand it makes.
"""

import numpy as np

from sapsam.kernels.compiler import njit
from sapsam.kernels.evaluate import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
)
from sapsam.kernels.threads import parallel_for
from sapsam.paigow_poker.kernels.hands import FIVE_ACES, JOKER
from sapsam.paigow_poker.kernels.houseway import N_SETTINGS, settings_of

BONUS_HANDS = ("seven-card straight flush", "royal flush plus royal match",
               "seven-card straight flush with joker", "five aces", "royal flush",
               "royal flush with joker", "straight flush", "four of a kind", "full house", "flush",
               "three of a kind", "straight", "two pair", "one pair", "high card")
N_BONUS = len(BONUS_HANDS)
_OF_CATEGORY = np.zeros(10, dtype=np.int64)  # a best five's category -> its bonus hand
for _c, _b in ((FIVE_ACES, 3), (STRAIGHT_FLUSH, 6), (QUADS, 7), (FULL_HOUSE, 8), (FLUSH, 9),
               (TRIPS, 10), (STRAIGHT, 11), (TWO_PAIR, 12), (PAIR, 13), (HIGH_CARD, 14)):
    _OF_CATEGORY[_c] = _b
ROYAL = 0x1F00  # T J Q K A
WHEEL7 = 0x103F  # A 2 3 4 5 6 7


@njit(cache=True, inline="always")
def _run7(mask):
    """Whether a 13-bit rank mask is seven ranks in sequence (A-7 included)."""
    if mask == WHEEL7:
        return True
    low = mask & -mask
    return mask != 0 and mask == low * 0x7F


@njit(cache=True)
def bonus_hand(h, dense, joker, category, high, low):
    """The bonus hand (index into BONUS_HANDS) of seven ascending codes."""
    masks = np.zeros(4, dtype=np.int64)
    wild = h[6] == JOKER
    for m in range(7 - wild):
        masks[h[m] & 3] |= 1 << (h[m] >> 2)
    for s in range(4):
        if not wild and _run7(masks[s]):
            return 0
        if wild:
            n = 0
            for r in range(13):
                n += (masks[s] >> r) & 1
            if n == 6:
                for r in range(13):
                    if not (masks[s] >> r) & 1 and _run7(masks[s] | (1 << r)):
                        return 2
    settings_of(h, dense, joker, high, low)
    best = _OF_CATEGORY[category[high.max()]]
    if best <= 3:
        return best
    if best == 11:  # a straight that holds three of a kind (the joker an ace) counts as the trips
        counts = np.zeros(13, dtype=np.int64)
        for m in range(7):
            counts[min(np.int64(h[m]) >> 2, 12)] += 1
        if counts.max() >= 3:
            return 10
    for s in range(4):
        bits = masks[s] & ROYAL
        n = 0
        for r in range(8, 13):
            n += (bits >> r) & 1
        if n == 5 or (wild and n == 4):
            for x in range(4):  # a royal match: a suited king and queen beside the royal
                if x != s and (masks[x] >> 10) & 3 == 3:
                    return 1
            return 4 if n == 5 else 5
    return best


def bonus_counts(cards, pairs, dense, joker, category, chunks):
    """Hands of seven of ``cards`` by bonus hand: int64, shape (len(BONUS_HANDS),); the chunks
    on the kernel threads (:func:`sapsam.kernels.threads.parallel_for`)."""
    out = np.zeros((chunks, N_BONUS), dtype=np.int64)
    parallel_for(lambda t: bonus_chunk(cards, pairs, dense, joker, category, chunks, out, t), range(chunks))
    return out.sum(axis=0)


@njit(cache=True, nogil=True)
def bonus_chunk(cards, pairs, dense, joker, category, chunks, out, t):
    """Chunk ``t`` of :func:`bonus_counts`, into ``out[t]``."""
    h = np.empty(7, dtype=np.uint8)
    high = np.empty(N_SETTINGS, dtype=np.int16)
    low = np.empty(N_SETTINGS, dtype=np.int16)
    for p in range(t, pairs.shape[0], chunks):
        a5, a6 = pairs[p, 0], pairs[p, 1]
        h[5], h[6] = cards[a5], cards[a6]
        for a4 in range(4, a5):
            h[4] = cards[a4]
            for a3 in range(3, a4):
                h[3] = cards[a3]
                for a2 in range(2, a3):
                    h[2] = cards[a2]
                    for a1 in range(1, a2):
                        h[1] = cards[a1]
                        for a0 in range(a1):
                            h[0] = cards[a0]
                            out[t, bonus_hand(h, dense, joker, category, high, low)] += 1
