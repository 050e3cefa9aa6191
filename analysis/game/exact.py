"""Exact probabilities of the naturals over all C(52, 13) thirteen-card hands.

A simulation counts how often each natural is held (:func:`sapsam.output.simulation_frames.naturals_frame`);
this module gives the number it should approach.  Every natural of
:data:`sapsam.kernels.naturals.NATURAL_KINDS` is counted exactly, in integers, by one of three means
(definitions and ``parameter`` meanings: the docstring of :mod:`sapsam.kernels.naturals`):

Closed forms (choose the cards outright):

- ``clean-dragon``: 4 hands (one per suit).
- ``all-one-colour``: ``2 * C(26, 13)``; ``twelve-one-colour``: ``2 * C(26, 12) * 26``.
- ``small`` (every rank <= ``parameter``): ``C(4 * (parameter + 1), 13)``; ``big`` (every rank
  >= ``parameter``): ``C(4 * (13 - parameter), 13)``.
- ``twelve-pictures``: the 12 J, Q, K and any one of the other 40 cards: 40.
- ``twelve-royalties``: 13 of the 16 cards J..A: ``C(16, 13)``.  ``no-pictures``: ``C(40, 13)``.

Count profiles with the kernel as judge (``dragon``, ``six-pairs``, ``five-pairs-trips``,
``four-trips``, ``three-quads``).  These depend only on how many ranks are held 0, 1, 2, 3 and 4
times, ``n = (n0, .., n4)`` with ``sum(n) = 13`` and ``sum(c * n_c) = 13``: 39 profiles.  A profile
is shared by ``13! / prod(n_c!)`` rank patterns, each by ``prod C(4, c) ** n_c`` hands;
:func:`sapsam.kernels.naturals.natural_key` decides one representative hand per profile.  So the
count is exactly what the simulator detects, summed over every hand.

Enumeration of the hands themselves:

- ``three-straights`` depends on the ranks only: the hand's rank counts must be the sum of two
  five-card runs (A-5 .. T-A) and a three-card run (A-2-3 .. Q-K-A, less the one ``parameter``
  excludes).  The distinct rank-count vectors so built (1,200 triples of runs) are collected,
  each weighted by ``prod C(4, c)`` suit choices.
- ``three-flushes`` depends on the suit counts only (rows of one suit of sizes 3, 5 and 5 exist
  whenever the counts allow them, whatever the ranks): the 560 suit-count patterns ``(a, b, c,
  d)``, each decided by :func:`sapsam.kernels.naturals.natural_key` on a representative hand and
  weighted by ``C(13, a) C(13, b) C(13, c) C(13, d)`` hands.
- ``three-straight-flushes`` depends on ranks and suits together: every choice of a suited
  five-card run for back and for middle and a suited three-card run for front (both front aces;
  10 * 10 * 12 * 4**3 = 76,800 choices) whose 13 cards are distinct gives a hand; the distinct
  hands (as 52-bit masks) are counted.

Every kind is exact and fast (well under a second the first time, cached after), so
:func:`natural_probability` never returns NaN for a known kind.  The counts are checked against
independent closed forms and Monte Carlo frequencies in ``tests/test_report.py``.
"""

from functools import cache
from math import comb, factorial, prod

import numpy as np

from sapsam.kernels.naturals import (
    ALL_ONE_COLOUR,
    BIG,
    CLEAN_DRAGON,
    DRAGON,
    FIVE_PAIRS_TRIPS,
    FOUR_TRIPS,
    NATURAL_KINDS,
    NO_PICTURES,
    SIX_PAIRS,
    SMALL,
    THREE_FLUSHES,
    THREE_QUADS,
    THREE_STRAIGHT_FLUSHES,
    THREE_STRAIGHTS,
    TWELVE_ONE_COLOUR,
    TWELVE_PICTURES,
    TWELVE_ROYALTIES,
    natural_key,
)

N_HANDS = comb(52, 13)  # 635,013,559,600 thirteen-card hands

# allowed ``parameter`` values per kind (sapsam.kernels.naturals docstring); other kinds take 0 only
PARAMETERS = {SIX_PAIRS: range(3), THREE_STRAIGHTS: range(3), FOUR_TRIPS: range(2),
              SMALL: range(13), BIG: range(13)}

_ACE = 12
# five-card runs A-2-3-4-5 .. T-J-Q-K-A; three-card runs by top rank: 1 is A-2-3, 12 is Q-K-A
RUNS5 = [(_ACE, 0, 1, 2, 3)] + [tuple(range(top - 4, top + 1)) for top in range(4, 13)]
RUNS3 = {1: (_ACE, 0, 1), **{top: (top - 2, top - 1, top) for top in range(2, 13)}}


def kind_code(kind):
    """The code of a natural given by code or name (``"dragon"`` -> 0); ValueError if unknown."""
    if isinstance(kind, str):
        if kind not in NATURAL_KINDS:
            raise ValueError(f"unknown natural {kind!r}: use one of {', '.join(NATURAL_KINDS)}")
        return NATURAL_KINDS.index(kind)
    code = int(kind)
    if not 0 <= code < len(NATURAL_KINDS):
        raise ValueError(f"natural code must be 0..{len(NATURAL_KINDS) - 1}, got {code}")
    return code


def natural_probability(kind, parameter=0):
    """Exact probability that a random 13-card hand holds a natural.

    Parameters
    ----------
    kind : int or str
        Code (position in :data:`sapsam.kernels.naturals.NATURAL_KINDS`) or name of the natural.
    parameter : int
        Its option, as :mod:`sapsam.kernels.naturals` documents (six pairs 0..2, three straights
        0..2, four trips 0..1, small and big a rank index 0..12; 0 for every other kind).

    Returns
    -------
    float
        ``natural_count(kind, parameter) / C(52, 13)``.  Never NaN: every kind is computed
        exactly (see the module docstring for how).

    Examples
    --------
    >>> round(1 / natural_probability("dragon"))  # 4**13 / C(52, 13)
    9462
    >>> natural_probability("clean-dragon") == 4 / 635013559600
    True
    """
    return natural_count(kind, parameter) / N_HANDS


def natural_count(kind, parameter=0):
    """Exact number of 13-card hands (of C(52, 13)) holding a natural: an ``int``.

    Same arguments as :func:`natural_probability`; results are cached.

    Examples
    --------
    >>> natural_count("three-quads")  # C(13, 3) quads and one of the 40 other cards
    11440
    """
    code = kind_code(kind)
    parameter = int(parameter)
    if parameter not in PARAMETERS.get(code, range(1)):
        allowed = PARAMETERS.get(code, range(1))
        raise ValueError(f"{NATURAL_KINDS[code]} takes parameter {allowed.start}.."
                         f"{allowed.stop - 1}, got {parameter}")
    return _count(code, parameter)


@cache
def _count(code, parameter):
    if code == CLEAN_DRAGON:
        return 4
    if code == ALL_ONE_COLOUR:
        return 2 * comb(26, 13)
    if code == TWELVE_ONE_COLOUR:
        return 2 * comb(26, 12) * 26
    if code == SMALL:
        return comb(4 * (parameter + 1), 13)
    if code == BIG:
        return comb(4 * (13 - parameter), 13)
    if code == TWELVE_PICTURES:
        return 40
    if code == TWELVE_ROYALTIES:
        return comb(16, 13)
    if code == NO_PICTURES:
        return comb(40, 13)
    if code in (DRAGON, SIX_PAIRS, FIVE_PAIRS_TRIPS, FOUR_TRIPS, THREE_QUADS):
        return sum(hands for hand, hands in count_profiles()
                   if natural_key(hand, code, parameter) >= 0)
    if code == THREE_STRAIGHTS:
        return _count_three_straights(parameter)
    if code == THREE_FLUSHES:
        return sum(hands for hand, hands in suit_patterns()
                   if natural_key(hand, code, parameter) >= 0)
    if code == THREE_STRAIGHT_FLUSHES:
        return len(three_straight_flush_masks())
    raise AssertionError(f"no count for natural {code}")  # every code is handled above


@cache
def count_profiles():
    """One representative hand per count profile and the number of hands sharing it.

    Returns
    -------
    list of (ndarray(uint8) shape (13,), int)
        A sorted hand whose ranks are held ``n4`` times 4, then ``n3`` times 3, .. (lowest
        ranks first, suits from clubs up) and ``13! / prod(n_c!) * prod(C(4, c) ** n_c)``;
        the weights sum to C(52, 13).
    """
    out = []
    for n4 in range(4):
        for n3 in range(5):
            for n2 in range(7):
                n1 = 13 - 4 * n4 - 3 * n3 - 2 * n2
                n0 = 13 - n1 - n2 - n3 - n4
                if n1 < 0 or n0 < 0:
                    continue
                n = (n0, n1, n2, n3, n4)
                patterns = factorial(13) // prod(factorial(k) for k in n)
                per_pattern = prod(comb(4, c) ** k for c, k in enumerate(n))
                counts = [4] * n4 + [3] * n3 + [2] * n2 + [1] * n1 + [0] * n0
                hand = np.array([r * 4 + s for r, c in enumerate(counts) for s in range(c)], np.uint8)
                out.append((hand, patterns * per_pattern))
    return out


@cache
def suit_patterns():
    """One representative hand per suit-count pattern and the number of hands sharing it.

    Returns
    -------
    list of (ndarray(uint8) shape (13,), int)
        560 patterns ``(a, b, c, d)`` (clubs, diamonds, hearts, spades): a sorted hand with the
        lowest ``a`` clubs, ``b`` diamonds, ..., and ``C(13, a) C(13, b) C(13, c) C(13, d)``.
    """
    out = []
    for a in range(14):
        for b in range(14 - a):
            for c in range(14 - a - b):
                counts = (a, b, c, 13 - a - b - c)
                hand = np.sort(np.array([r * 4 + s for s, k in enumerate(counts) for r in range(k)],
                                        np.uint8))
                out.append((hand, prod(comb(13, k) for k in counts)))
    return out


def _count_three_straights(parameter):
    fronts = [run for top, run in RUNS3.items()
              if not (top == 12 and parameter == 1) and not (top == 1 and parameter == 2)]
    patterns = set()
    for back in RUNS5:
        for middle in RUNS5:
            for front in fronts:
                counts = [0] * 13
                for r in back + middle + front:
                    counts[r] += 1
                patterns.add(tuple(counts))  # at most 3 runs share a rank: never over 4
    return sum(prod(comb(4, c) for c in counts) for counts in patterns)


@cache
def three_straight_flush_masks():
    """Every hand of three straight flushes, as a frozenset of 52-bit card masks (bit ``card``)."""
    def suited(run, suit):
        return sum(1 << (r * 4 + suit) for r in run)

    fives = [suited(run, s) for run in RUNS5 for s in range(4)]
    threes = [suited(run, s) for run in RUNS3.values() for s in range(4)]
    hands = set()
    for i, back in enumerate(fives):
        for middle in fives[i + 1:]:  # unordered: the same two rows either way round
            if back & middle:
                continue
            rows = back | middle
            hands.update(rows | front for front in threes if not rows & front)
    return frozenset(hands)
