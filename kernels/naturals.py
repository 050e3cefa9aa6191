"""Naturals: special 13-card hands declared instead of setting the hand (RULES.md A4).

``natural_key(hand, kind, parameter)`` is ``-1`` when the hand is not that natural, else a
tie-break key (higher wins; equal keys tie) comparing two holders of the same natural:
six pairs by their pairs from the highest down; three straights and three flushes by back,
then middle, then front; straight flushes likewise; every other kind ties.

Kinds (codes are positions in :data:`NATURAL_KINDS`) and their ``parameter``:

- ``dragon``: one card of every rank A..K.  ``clean-dragon``: all thirteen of one suit.
- ``six-pairs``: six pairs and one odd card; parameter 0 strict, 1 quads count as two pairs,
  2 any (three of a kind counts as a pair and an odd card).
- ``three-straights``: two 5-card straights and a 3-card straight front; parameter 0 both A-2-3
  and Q-K-A count as front straights, 1 only A-2-3, 2 only Q-K-A.
- ``three-flushes``: two 5-card flushes and three cards of one suit in front.
- ``three-straight-flushes``: three straights that are also three flushes (both front aces).
- ``five-pairs-trips``: five pairs and a three of a kind.
- ``four-trips``: four threes of a kind and an odd card; parameter 1: a four of a kind counts
  as a three of a kind.  ``three-quads``: three fours of a kind and an odd card.
- ``all-one-colour``: 13 red or 13 black.  ``twelve-one-colour``: exactly 12 of one colour.
- ``small``: every rank <= parameter (rank index, 6 = eight).  ``big``: every rank >=
  parameter.  ``twelve-pictures``: all twelve J, Q, K.  ``twelve-royalties``: every card J..A.
  ``no-pictures``: no J, Q or K.
"""

import numpy as np
from numba import prange

from sapsam.kernels.compiler import njit
from sapsam.kernels.evaluate import eval3, eval5
from sapsam.kernels.settings import (
    FIVE_POSITIONS,
    FRONT_POSITIONS,
    N_FRONTS,
    N_SPLITS,
    SPLIT_ROWS,
)

NATURAL_KINDS = (
    "dragon", "clean-dragon", "six-pairs", "three-straights", "three-flushes",
    "three-straight-flushes", "five-pairs-trips", "four-trips", "three-quads", "all-one-colour",
    "twelve-one-colour", "small", "big", "twelve-pictures", "twelve-royalties", "no-pictures",
)
(DRAGON, CLEAN_DRAGON, SIX_PAIRS, THREE_STRAIGHTS, THREE_FLUSHES, THREE_STRAIGHT_FLUSHES,
 FIVE_PAIRS_TRIPS, FOUR_TRIPS, THREE_QUADS, ALL_ONE_COLOUR, TWELVE_ONE_COLOUR, SMALL, BIG,
 TWELVE_PICTURES, TWELVE_ROYALTIES, NO_PICTURES) = range(len(NATURAL_KINDS))

# The columns of a ruleset's naturals table, int64 (k, NAT_COLUMNS) in the order the ruleset
# lists them (sapsam.game.rules.CompiledRules.naturals): the kind (its code in NATURAL_KINDS),
# its parameter, the units it is paid and its tier (a higher tier beats a lower whatever their
# units; sapsam.kernels.settle).  A table of distinct naturals, ``kinds`` of
# :func:`kind_keys`, has the first two.
NAT_KIND, NAT_PARAMETER, NAT_VALUE, NAT_TIER = range(4)
NAT_COLUMNS = 4

_JACK, _KING = 9, 11


@njit(cache=True)
def _counts(hand):
    ranks = np.zeros(13, np.int64)
    suits = np.zeros(4, np.int64)
    for c in hand:
        ranks[c >> 2] += 1
        suits[c & 3] += 1
    return ranks, suits


@njit(cache=True, inline="always")
def _count(ranks, lo, hi):
    """Cards of ranks ``lo .. hi - 1``, by a loop (slices and their sums compile slowly)."""
    n = 0
    for r in range(max(lo, 0), min(hi, 13)):
        n += ranks[r]
    return n


@njit(cache=True)
def _take_straight(need, top, length):
    """Remove ``length`` consecutive ranks ending at ``top`` (top 3 / 1 with an ace low) from
    ``need`` if all are there; return whether it did."""
    for j in range(length):
        r = top - j
        if r < 0:
            r = 12  # the ace below the deuce
        if need[r] == 0:
            for k in range(j):  # undo
                rr = top - k
                need[rr if rr >= 0 else 12] += 1
            return False
        need[r] -= 1
    return True


@njit(cache=True)
def _give_back(need, top, length):
    for j in range(length):
        r = top - j
        need[r if r >= 0 else 12] += 1


@njit(cache=True)
def _three_straights_key(hand, front_ace):
    """Best (back, middle, front) straight tops as ``back*169 + middle*13 + front``, or -1."""
    need, _ = _counts(hand)
    for back in range(12, 2, -1):  # 5-card straight tops: 12 (ace) .. 3 (five, the wheel)
        if not _take_straight(need, back, 5):
            continue
        for middle in range(back, 2, -1):
            if not _take_straight(need, middle, 5):
                continue
            for front in range(12, 0, -1):  # 3-card tops: 12 (Q-K-A) .. 1 (A-2-3)
                if (front == 12 and front_ace == 1) or (front == 1 and front_ace == 2):
                    continue
                if _take_straight(need, front, 3):
                    return np.int64(back * 169 + middle * 13 + front)
            _give_back(need, middle, 5)
        _give_back(need, back, 5)
    return np.int64(-1)


@njit(cache=True)
def _straight_flush_cards(have, top, length, suit):
    """Bit mask of the straight flush ending at ``top`` in ``suit`` if ``have`` holds it, else 0."""
    mask = np.uint64(0)
    for j in range(length):
        r = top - j
        if r < 0:
            r = 12
        bit = np.uint64(1) << np.uint64(r * 4 + suit)
        if have & bit == 0:
            return np.uint64(0)
        mask |= bit
    return mask


@njit(cache=True)
def _three_straight_flushes_key(hand):
    have = np.uint64(0)
    for c in hand:
        have |= np.uint64(1) << np.uint64(c)
    best = np.int64(-1)
    for back in range(12, 2, -1):
        for sb in range(4):
            mb = _straight_flush_cards(have, back, 5, sb)
            if mb == 0:
                continue
            for middle in range(back, 2, -1):
                for sm in range(4):
                    mm = _straight_flush_cards(have & ~mb, middle, 5, sm)
                    if mm == 0:
                        continue
                    for front in range(12, 0, -1):
                        for sf in range(4):
                            if _straight_flush_cards(have & ~mb & ~mm, front, 3, sf) != 0:
                                key = np.int64(back * 169 + middle * 13 + front)
                                if key > best:
                                    best = key
    return best


@njit(cache=True)
def _flush_rows_possible(suits):
    """Can the suit counts supply a 3-card and two 5-card one-suit rows?"""
    for fs in range(4):
        for ms in range(4):
            for bs in range(4):
                ok = True
                for suit in range(4):
                    need = 3 * (fs == suit) + 5 * (ms == suit) + 5 * (bs == suit)
                    if need > suits[suit]:
                        ok = False
                if ok:
                    return True
    return False


@njit(cache=True)
def _three_flushes_best(hand):
    """(key, split) of the best three-flush setting of a sorted hand, or (-1, -1).

    Key = back * 8192**2 + middle * 8192 + front strengths; only called when the suit
    counts allow three one-suit rows.  Splits are walked in order (the first of the best
    key wins), only under one-suit fronts.
    """
    best = np.int64(-1)
    best_split = -1
    for front in range(N_FRONTS):  # split s has front s // 252: skip the mixed fronts' 252
        f = FRONT_POSITIONS[front]
        suit = hand[f[0]] & 3
        if hand[f[1]] & 3 != suit or hand[f[2]] & 3 != suit:
            continue
        for s in range(front * 252, front * 252 + 252):
            m = FIVE_POSITIONS[SPLIT_ROWS[s, 1]]
            b = FIVE_POSITIONS[SPLIT_ROWS[s, 2]]
            ok = True
            for rows_pos in (m, b):
                suit = hand[rows_pos[0]] & 3
                for p in rows_pos:
                    if hand[p] & 3 != suit:
                        ok = False
            if not ok:
                continue
            sm = eval5(hand[m[0]], hand[m[1]], hand[m[2]], hand[m[3]], hand[m[4]])
            sb = eval5(hand[b[0]], hand[b[1]], hand[b[2]], hand[b[3]], hand[b[4]])
            if sm > sb:
                continue  # the same rows swapped are also walked
            sf = eval3(hand[f[0]], hand[f[1]], hand[f[2]])
            key = (np.int64(sb) << 26) | (np.int64(sm) << 13) | np.int64(sf)
            if key > best:
                best = key
                best_split = s
    return best, best_split


@njit(cache=True)
def natural_key(hand, kind, parameter):
    """Tie-break key (>= 0) if the sorted 13-card ``hand`` is natural ``kind``, else -1."""
    ranks, suits = _counts(hand)
    return _natural_key(hand, ranks, suits, kind, parameter)


@njit(cache=True)
def _natural_key(hand, ranks, suits, kind, parameter):
    """:func:`natural_key` given the hand's rank and suit counts."""
    no = np.int64(-1)
    if kind == DRAGON:
        for r in range(13):
            if ranks[r] != 1:
                return no
        return np.int64(0)
    if kind == CLEAN_DRAGON:
        return np.int64(0) if max(suits[0], suits[1], suits[2], suits[3]) == 13 else no
    if kind == SIX_PAIRS:
        pairs = 0
        for r in range(13):
            c = ranks[r]
            if c == 3 and parameter < 2 or c == 4 and parameter < 1:
                return no
            pairs += c // 2
        if pairs != 6:
            return no
        key = np.int64(0)
        for r in range(12, -1, -1):
            for _ in range(ranks[r] // 2):
                key = key * 13 + r
        return key
    if kind == THREE_STRAIGHTS:
        return _three_straights_key(hand, parameter)
    if kind == THREE_FLUSHES:
        if not _flush_rows_possible(suits):
            return no
        return _three_flushes_best(hand)[0]
    if kind == THREE_STRAIGHT_FLUSHES:
        if not _flush_rows_possible(suits):
            return no
        return _three_straight_flushes_key(hand)
    if kind == FIVE_PAIRS_TRIPS:
        n2 = 0
        n3 = 0
        for r in range(13):
            n2 += ranks[r] == 2
            n3 += ranks[r] == 3
        return np.int64(0) if n2 == 5 and n3 == 1 else no
    if kind == FOUR_TRIPS:
        n3 = 0
        n4 = 0
        for r in range(13):
            n3 += ranks[r] == 3
            n4 += ranks[r] == 4
        ok = n3 == 4 or (parameter == 1 and n3 == 3 and n4 == 1)
        return np.int64(0) if ok else no
    if kind == THREE_QUADS:
        n4 = 0
        for r in range(13):
            n4 += ranks[r] == 4
        return np.int64(0) if n4 == 3 else no
    black = suits[0] + suits[3]
    if kind == ALL_ONE_COLOUR:
        return np.int64(0) if black == 13 or black == 0 else no
    if kind == TWELVE_ONE_COLOUR:
        return np.int64(0) if black == 12 or black == 1 else no
    if kind == SMALL:
        return np.int64(0) if _count(ranks, parameter + 1, 13) == 0 else no
    if kind == BIG:
        return np.int64(0) if _count(ranks, 0, parameter) == 0 else no
    if kind == TWELVE_PICTURES:
        return np.int64(0) if _count(ranks, _JACK, _KING + 1) == 12 else no
    if kind == TWELVE_ROYALTIES:
        return np.int64(0) if _count(ranks, 0, _JACK) == 0 else no
    if kind == NO_PICTURES:
        return np.int64(0) if _count(ranks, _JACK, _KING + 1) == 0 else no
    return no


@njit(cache=True)
def kind_keys(hand, kinds, out):
    """Fill ``out`` (int64, (U,)) with the sorted hand's key for each natural of ``kinds``
    (int64 (U, 2): kind, parameter), -1 where it does not hold it; ranks and suits are
    counted once."""
    ranks, suits = _counts(hand)
    for u in range(kinds.shape[0]):
        out[u] = _natural_key(hand, ranks, suits, kinds[u, NAT_KIND], kinds[u, NAT_PARAMETER])


@njit(cache=True)
def natural_keys(hand, naturals):
    """Keys of one sorted hand for every natural of a compiled ruleset.

    ``naturals`` is ndarray(int64), shape (k, NAT_COLUMNS) (kind, parameter, value, tier);
    returns ndarray(int64), shape (k,), -1 where the hand is not that natural.
    """
    out = np.empty(naturals.shape[0], np.int64)
    for i in range(naturals.shape[0]):
        out[i] = natural_key(hand, naturals[i, NAT_KIND], naturals[i, NAT_PARAMETER])
    return out


@njit(cache=True)
def best_natural(hand, naturals):
    """(index, key) of the highest natural (by tier, then value) the hand holds, or (-1, -1)."""
    ranks, suits = _counts(hand)
    keys = np.empty(naturals.shape[0], np.int64)
    for i in range(naturals.shape[0]):
        keys[i] = _natural_key(hand, ranks, suits, naturals[i, NAT_KIND], naturals[i, NAT_PARAMETER])
    return best_held(naturals, keys)


@njit(cache=True)
def best_held(naturals, keys):
    """(index, key) of the highest natural (by tier, then value) among a ruleset's
    ``naturals`` (int64 (k, NAT_COLUMNS)) whose ``keys`` (int64 (k,)) are not -1, or (-1, -1);
    ties go to the first."""
    best = -1
    best_key = np.int64(-1)
    for i in range(naturals.shape[0]):
        if keys[i] < 0:
            continue
        if best < 0 or naturals[i, NAT_TIER] > naturals[best, NAT_TIER] or (
                naturals[i, NAT_TIER] == naturals[best, NAT_TIER]
                and naturals[i, NAT_VALUE] > naturals[best, NAT_VALUE]):
            best = i
            best_key = keys[i]
    return best, best_key


def _best_naturals_body(hands, naturals, index, key):
    for i in prange(hands.shape[0]):
        index[i], key[i] = best_natural(hands[i], naturals)


_best_naturals_parallel = njit(cache=True, parallel=True)(_best_naturals_body)


def best_naturals(hands, naturals):
    """Best natural of each sorted hand: ``hands`` uint8 (n, 13) -> (index int64 (n,), key int64 (n,))."""
    index = np.empty(hands.shape[0], np.int64)
    key = np.empty(hands.shape[0], np.int64)
    _best_naturals_parallel(hands, naturals, index, key)
    return index, key


@njit(cache=True)
def natural_setting(hand, kind, parameter):
    """Split index of the best legal setting realising a row-shaped natural, or -1.

    For three flushes: the setting with the best back, then middle, then front.  For three
    straights and three straight flushes: a setting whose rows are the straights of the best
    tie-break key, either five-card straight in either row, the stronger one in back.  Other
    kinds need no setting: -1.
    """
    if kind == THREE_FLUSHES:
        return _three_flushes_best(hand)[1]
    if kind != THREE_STRAIGHTS and kind != THREE_STRAIGHT_FLUSHES:
        return -1
    target = natural_key(hand, kind, parameter)
    if target < 0:
        return -1
    back, middle, front = target // 169, (target // 13) % 13, target % 13
    best = -1
    best_key = np.int64(-1)
    for s in range(N_SPLITS):
        f = FRONT_POSITIONS[SPLIT_ROWS[s, 0]]
        m = FIVE_POSITIONS[SPLIT_ROWS[s, 1]]
        b = FIVE_POSITIONS[SPLIT_ROWS[s, 2]]
        if not _row_is_run(hand, f, front, kind):
            continue
        if not ((_row_is_run(hand, b, back, kind) and _row_is_run(hand, m, middle, kind))
                or (_row_is_run(hand, b, middle, kind) and _row_is_run(hand, m, back, kind))):
            continue
        sb = eval5(hand[b[0]], hand[b[1]], hand[b[2]], hand[b[3]], hand[b[4]])
        sm = eval5(hand[m[0]], hand[m[1]], hand[m[2]], hand[m[3]], hand[m[4]])
        if sm > sb:
            continue  # the same rows the other way round are legal (a straight flush in back)
        key = (np.int64(sb) << 26) | (np.int64(sm) << 13) | np.int64(eval3(hand[f[0]], hand[f[1]], hand[f[2]]))
        if key > best_key:
            best_key = key
            best = s
    return best


@njit(cache=True)
def _row_is_run(hand, positions, top, kind):
    """Do the cards at ``positions`` form the run ending at ``top`` (one suit if needed)?"""
    n = positions.shape[0]
    seen = np.zeros(13, np.int64)
    suit = hand[positions[0]] & 3
    for p in positions:
        seen[hand[p] >> 2] += 1
        if kind == THREE_STRAIGHT_FLUSHES and hand[p] & 3 != suit:
            return False
    for j in range(n):
        r = top - j
        if seen[r if r >= 0 else 12] != 1:
            return False
    return True
