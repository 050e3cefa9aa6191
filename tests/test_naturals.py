"""Naturals (kernels/naturals.py) against tests/naive.py and exact combinatorics.

1. Each detector on hand-made hands, positive and negative, every option.
2. Tie-break keys order holders of the same natural as RULES.md A4 says.
3. The kernel agrees with ``naive.natural_key`` on random hands and on random hands built to
   be (or nearly be) each natural; ``natural_setting`` realises the natural it names.
4. Counts: for the naturals that depend only on ranks (or only on suits) the kernel is run on
   one hand per rank pattern (per suit pattern), 3,598,180 (560) of them, weighted by the
   number of hands sharing the pattern: the total is the exact number of 13-card hands that
   are the natural, compared with a closed-form count.  Frequencies over random deals are
   compared with the exact probabilities within 4 binomial standard errors.
"""

from collections import Counter
from functools import cache
from math import comb, prod, sqrt

import naive
import numpy as np
import pytest
from conftest import SEED, deal_hands

from sapsam.game.cards import parse_cards
from sapsam.game.settings import split_cards
from sapsam.kernels import naturals as kn

KINDS = kn.NATURAL_KINDS
RANK = {ch: i for i, ch in enumerate(naive.RANK_CHARS)}
# every (kind, option) the rulesets can ask for
OPTIONS = [(k, 0) for k in KINDS if k not in ("six-pairs", "three-straights", "four-trips",
                                                 "small", "big")]
OPTIONS += [("six-pairs", o) for o in (0, 1, 2)] + [("three-straights", o) for o in (0, 1, 2)]
OPTIONS += [("four-trips", o) for o in (0, 1)]
OPTIONS += [("small", RANK[r]) for r in "89T"] + [("big", RANK[r]) for r in "789"]


def kernel_key(hand, kind, option=0):
    """sapsam.kernels.naturals.natural_key of a hand (text or codes), sorted as the kernel wants."""
    cards = parse_cards(hand) if isinstance(hand, str) else np.asarray(hand, np.uint8)
    return int(kn.natural_key(np.sort(cards), KINDS.index(kind), option))


def naive_key(hand, kind, option=0):
    cards = parse_cards(hand).tolist() if isinstance(hand, str) else [int(c) for c in hand]
    return _naive_key(tuple(sorted(cards)), kind, option)


@cache
def _naive_key(cards, kind, option):  # the same hands are asked about in several tests
    return naive.natural_key(cards, kind, option)


def test_kind_names_agree():
    assert naive.NATURAL_KIND_NAMES == KINDS


# ---- 1. detectors on constructed hands -------------------------------------------------------

DRAGON = "Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc"
CLEAN_DRAGON = "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks"
SIX_PAIRS = "Ac Ad Kc Kd 2c 2d 3h 3s 4c 4d 6h 6s 9c"
SIX_PAIRS_QUADS = "Ac Ad Ah As Kc Kd 2c 2d 3h 3s 4c 4d 9c"  # quads + four pairs + single
SIX_PAIRS_TRIPS = "Ac Ad Ah Kc Kd 2c 2d 3h 3s 4c 4d 6h 6s"  # trips + five pairs
FIVE_PAIRS = "Ac Ad Kc Kd 2c 2d 3h 3s 4c 4d 6h 7s 9c"
STRAIGHTS_ANY_FRONT = "Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc"  # a dragon cuts both ways
STRAIGHTS_LOW_ONLY = "Ac 2d 3h 9c 9d Tc Td Jc Jd Qc Qd Kc Kd"  # A-2-3 + 9-K + 9-K only
STRAIGHTS_HIGH_ONLY = "Qh Kh Ah 2c 2d 3c 3d 4c 4d 5c 5d 6c 6d"  # Q-K-A + 2-6 + 2-6 only
STRAIGHTS_WRAP = "Kh Ah 2h 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d"  # K-A-2 front: no straight
STRAIGHTS_WHEEL = "Ac 2c 3c 4c 5d 4d 5h 6h 7h 8h 6s 7s 8s"  # A-5, 4-8, 6-7-8
FLUSHES = "2h 7h Kh 3c 5c 8c Tc Qc 4s 2s 9s Js As"  # 3 + 5 + 5, no rank run
FLUSHES_8_5 = "2c 3c 5c 7c 8c Tc Qc Kc 3s 6s 9s Js As"  # eight clubs make front and middle
NO_FLUSHES = "2h 7h Kh 9h 3c 5c 8c Tc 4s 6s 9s Js As"  # 4 + 4 + 5
STRAIGHT_FLUSHES = "Ah 2h 3h 4c 5c 6c 7c 8c 9s Ts Js Qs Ks"
STRAIGHTS_NOT_FLUSH = "Ah 2h 3h 4c 5c 6c 7c 8d 9s Ts Js Qs Ks"
FIVE_PAIRS_TRIPS = "Ac Ad Ah Kc Kd Qc Qd Jc Jd Tc Td 9c 9d"
FOUR_TRIPS = "Ac Ad Ah Kc Kd Kh Qc Qd Qh Jc Jd Jh 2c"
FOUR_TRIPS_QUADS = "Ac Ad Ah As Kc Kd Kh Qc Qd Qh Jc Jd Jh"  # quads counting as trips
THREE_QUADS = "Ac Ad Ah As Kc Kd Kh Ks Qc Qd Qh Qs 2c"
ALL_RED = "2d 3h 5d 7h 8d 9h Td Jh Qd Kh Ad Ah 4h"
TWELVE_RED = "2d 3h 5d 7h 8d 9h Td Jh Qd Kh Ad Ah 4s"
SMALL_8 = "2c 2d 3h 4s 5c 5d 6h 6s 7c 7d 8h 8s 3c"
SMALL_9 = "2c 2d 3h 4s 5c 5d 6h 6s 7c 7d 8h 9s 3c"
SMALL_T = "2c 2d 3h 4s 5c 5d 6h 6s 7c 7d 8h Ts 3c"
BIG_8 = "8c 8d 9h 9s Tc Td Jh Js Qc Qd Kh Ks Ac"
BIG_9 = "9c 9d 9h 9s Tc Td Jh Js Qc Qd Kh Ks Ac"
BIG_7 = "7c 8d 9h 9s Tc Td Jh Js Qc Qd Kh Ks Ac"
TWELVE_PICTURES = "Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks 2c"
ELEVEN_PICTURES = "Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh 2d 2c"
ROYALTIES = "Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Ks Ac"
NOT_ROYALTIES = "Jc Jd Jh Js Qc Qd Qh Qs Kc Kd Kh Tc Ac"
NO_PICTURES = "2c 3d 4h 5s 6c 7d 8h 9s Tc Ac Ad Ah As"
ONE_PICTURE = "2c 3d 4h 5s 6c 7d 8h 9s Tc Ac Ad Ah Ks"

EIGHT, NINE, TEN, SEVEN = RANK["8"], RANK["9"], RANK["T"], RANK["7"]
CASES = [  # (hand, kind, option, is it?)
    (DRAGON, "dragon", 0, True), (CLEAN_DRAGON, "dragon", 0, True),
    (DRAGON.replace("Kc", "Ad"), "dragon", 0, False),
    (CLEAN_DRAGON, "clean-dragon", 0, True), (DRAGON, "clean-dragon", 0, False),
    (SIX_PAIRS, "six-pairs", 0, True), (SIX_PAIRS, "six-pairs", 1, True),
    (SIX_PAIRS, "six-pairs", 2, True),
    (SIX_PAIRS_QUADS, "six-pairs", 0, False), (SIX_PAIRS_QUADS, "six-pairs", 1, True),
    (SIX_PAIRS_QUADS, "six-pairs", 2, True),
    (SIX_PAIRS_TRIPS, "six-pairs", 0, False), (SIX_PAIRS_TRIPS, "six-pairs", 1, False),
    (SIX_PAIRS_TRIPS, "six-pairs", 2, True),
    (FIVE_PAIRS, "six-pairs", 2, False), (THREE_QUADS, "six-pairs", 2, True),
    (FIVE_PAIRS_TRIPS, "six-pairs", 2, True), (FOUR_TRIPS, "six-pairs", 2, False),
    (STRAIGHTS_ANY_FRONT, "three-straights", 0, True),
    (STRAIGHTS_ANY_FRONT, "three-straights", 1, True),
    (STRAIGHTS_ANY_FRONT, "three-straights", 2, True),
    (STRAIGHTS_LOW_ONLY, "three-straights", 0, True), (STRAIGHTS_LOW_ONLY, "three-straights", 1, True),
    (STRAIGHTS_LOW_ONLY, "three-straights", 2, False),
    (STRAIGHTS_HIGH_ONLY, "three-straights", 0, True), (STRAIGHTS_HIGH_ONLY, "three-straights", 1, False),
    (STRAIGHTS_HIGH_ONLY, "three-straights", 2, True),
    (STRAIGHTS_WRAP, "three-straights", 0, False), (STRAIGHTS_WHEEL, "three-straights", 0, True),
    (STRAIGHTS_NOT_FLUSH, "three-straights", 0, True), (FLUSHES, "three-straights", 0, False),
    (FLUSHES, "three-flushes", 0, True), (FLUSHES_8_5, "three-flushes", 0, True),
    (CLEAN_DRAGON, "three-flushes", 0, True), (NO_FLUSHES, "three-flushes", 0, False),
    (STRAIGHT_FLUSHES, "three-flushes", 0, True),
    (STRAIGHT_FLUSHES, "three-straight-flushes", 0, True),
    (STRAIGHTS_NOT_FLUSH, "three-straight-flushes", 0, False),
    (CLEAN_DRAGON, "three-straight-flushes", 0, True), (FLUSHES, "three-straight-flushes", 0, False),
    (FIVE_PAIRS_TRIPS, "five-pairs-trips", 0, True), (SIX_PAIRS, "five-pairs-trips", 0, False),
    (SIX_PAIRS_TRIPS, "five-pairs-trips", 0, True), (FOUR_TRIPS, "five-pairs-trips", 0, False),
    (FOUR_TRIPS, "four-trips", 0, True), (FOUR_TRIPS, "four-trips", 1, True),
    (FOUR_TRIPS_QUADS, "four-trips", 0, False), (FOUR_TRIPS_QUADS, "four-trips", 1, True),
    (THREE_QUADS, "four-trips", 1, False), (FIVE_PAIRS_TRIPS, "four-trips", 1, False),
    (THREE_QUADS, "three-quads", 0, True), (FOUR_TRIPS_QUADS, "three-quads", 0, False),
    (ALL_RED, "all-one-colour", 0, True), (CLEAN_DRAGON, "all-one-colour", 0, True),
    (TWELVE_RED, "all-one-colour", 0, False),
    (TWELVE_RED, "twelve-one-colour", 0, True), (ALL_RED, "twelve-one-colour", 0, False),
    (FLUSHES, "twelve-one-colour", 0, False),
    (SMALL_8, "small", EIGHT, True), (SMALL_9, "small", EIGHT, False), (SMALL_9, "small", NINE, True),
    (SMALL_T, "small", NINE, False), (SMALL_T, "small", TEN, True), (SMALL_8, "small", TEN, True),
    (BIG_8, "big", EIGHT, True), (BIG_7, "big", EIGHT, False), (BIG_7, "big", SEVEN, True),
    (BIG_8, "big", NINE, False), (BIG_9, "big", NINE, True),
    (TWELVE_PICTURES, "twelve-pictures", 0, True), (ROYALTIES, "twelve-pictures", 0, True),
    (ELEVEN_PICTURES, "twelve-pictures", 0, False),
    (ROYALTIES, "twelve-royalties", 0, True), (NOT_ROYALTIES, "twelve-royalties", 0, False),
    (TWELVE_PICTURES, "twelve-royalties", 0, False),
    (NO_PICTURES, "no-pictures", 0, True), (ONE_PICTURE, "no-pictures", 0, False),
    (SMALL_T, "no-pictures", 0, True),
]


@pytest.mark.parametrize("hand, kind, option, want", CASES)
def test_detector_on_constructed_hand(hand, kind, option, want):
    assert (kernel_key(hand, kind, option) >= 0) == want
    assert (naive_key(hand, kind, option) is not None) == want


def test_no_natural_in_an_ordinary_hand():
    hand = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"
    for kind, option in OPTIONS:
        assert kernel_key(hand, kind, option) == -1, kind
        assert naive_key(hand, kind, option) is None, kind


def test_options_from_ruleset_fields():
    """NaturalHand.parameter (what the kernels get) equals the option read from the fields."""
    from sapsam.game.ruleset_files import load_ruleset, ruleset_ids

    seen = set()
    for rid in ruleset_ids():
        for hand in load_ruleset(rid).naturals.hands:
            kind, option = naive.natural_option(hand)
            assert hand.parameter == option, (rid, kind)
            seen.add((kind, option))
    assert {("six-pairs", 2), ("three-straights", 1), ("four-trips", 1), ("small", NINE),
            ("small", EIGHT), ("big", EIGHT)} <= seen


# ---- 2. tie-break keys ------------------------------------------------------------------------

def assert_ascending(hands, kind, option=0):
    """Kernel and naive keys both strictly ascending along ``hands``."""
    kernel = [kernel_key(h, kind, option) for h in hands]
    reference = [naive_key(h, kind, option) for h in hands]
    assert min(kernel) >= 0 and None not in reference
    assert all(a < b for a, b in zip(kernel, kernel[1:])), kernel
    assert all(a < b for a, b in zip(reference, reference[1:])), reference


def test_six_pairs_compare_highest_pair_first():
    assert_ascending([
        "Kc Kd Qc Qd Jc Jd Th Ts 9c 9d 8h 8s Ac",  # K Q J T 9 8 (and an ace single)
        "Ac Ad 2c 2d 3h 3s 4c 4d 5h 5s 6c 6d Kc",  # A 6 5 4 3 2
        "Ac Ad 7c 7d 3h 3s 4c 4d 5h 5s 6c 6d 2c",  # A 7 6 5 4 3
        "Ac Ad Kh Ks 3h 3s 4c 4d 5h 5s 6c 6d 2c",  # A K 6 5 4 3
        "Ac Ad Kh Ks Qh Qs 4c 4d 5h 5s 6c 6d 2c",  # A K Q 6 5 4
    ], "six-pairs")
    # suits never rank: the same pairs tie, whatever the single
    a = "Ac Ad Kh Ks Qh Qs 4c 4d 5h 5s 6c 6d 2c"
    b = "Ah As Kc Kd Qc Qd 4h 4s 5c 5d 6h 6s 9c"
    assert kernel_key(a, "six-pairs") == kernel_key(b, "six-pairs")
    assert naive_key(a, "six-pairs") == naive_key(b, "six-pairs")
    # a four of a kind counts as two pairs of its rank
    quads = "Ac Ad Ah As 3h 3s 4c 4d 5h 5s 6c 6d 2c"  # A A 6 5 4 3
    assert_ascending(["Ac Ad Kc Kd 3h 3s 4c 4d 5h 5s 6c 6d 2c", quads], "six-pairs", 1)


def test_three_straights_compare_back_then_middle_then_front():
    assert_ascending([
        "9c 9d Tc Td Jc Jd Qc Qd Kc Kd Qh Kh Ah",  # back 9-K, middle 9-K, front Q-K-A
        "Tc Jc Qc Kc Ad Ac 2c 3c 4c 5c Ah 2d 3d",  # back T-A, middle A-5, front A-2-3
        "Tc Jc Qc Kc Ad 6c 7c 8c 9c Td 2c 3c 4c",  # back T-A, middle 6-T, front 2-3-4
        "Tc Jc Qc Kc Ad 6c 7c 8c 9c Td 3d 4d 5d",  # back T-A, middle 6-T, front 3-4-5
    ], "three-straights")


def test_three_flushes_compare_back_then_middle_then_front():
    assert_ascending([
        "2h 3h 4h 2c 3c 4c 5c 7c Ks Qs Js 9s 8s",  # back K-high flush
        "2h 3h 4h 2c 3c 4c 5c 7c As 6s 5s 4s 3s",  # back A-6 flush beats K-high
        "2h 3h 4h 2c 3c 4c 5c 8c As 6s 5s 4s 3s",  # same back, middle 8-high over 7-high
        "2h 3h 5h 2c 3c 4c 5c 8c As 6s 5s 4s 3s",  # same, front 5-3-2 over 4-3-2
        "2s 3s 4s 5s 6s 2c 3c 4c 5c 8c 5h 3h 2h",  # back straight flush beats a flush
    ], "three-flushes")


def test_same_natural_ties_when_it_has_no_order():
    for kind, a, b in [("dragon", DRAGON, CLEAN_DRAGON), ("three-quads", THREE_QUADS,
                                                         "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s Ac")]:
        assert kernel_key(a, kind) == kernel_key(b, kind) >= 0
        assert naive_key(a, kind) == naive_key(b, kind) == ()


# ---- 3. kernel against naive on random and built hands ---------------------------------------

RUN5 = [r for _, r in naive.FIVE_RUNS]
RUN3 = [r for _, r in naive.FRONT_RUNS]


def _from_ranks(rng, ranks):
    """Cards for a multiset of ranks (at most 4 of each), suits at random; None if not."""
    count = Counter(ranks)
    if max(count.values()) > 4:
        return None
    return [r * 4 + int(s) for r, k in count.items() for s in rng.choice(4, k, replace=False)]


def built_hand(rng, kind):
    """A random hand that is (or, with a swapped card, nearly is) natural ``kind``."""
    while True:
        ranks = None
        if kind == "dragon":
            ranks = list(range(13))
        elif kind == "six-pairs":
            r = rng.choice(13, 7, replace=False).tolist()
            shape = [[2] * 6 + [1], [4, 2, 2, 2, 2, 1], [3, 2, 2, 2, 2, 2], [4, 3, 2, 2, 2]][
                int(rng.integers(4))]
            ranks = [x for x, k in zip(r, shape) for _ in range(k)]
        elif kind in ("five-pairs-trips", "four-trips", "three-quads"):
            shape = {"five-pairs-trips": [3, 2, 2, 2, 2, 2], "four-trips": [[3, 3, 3, 3, 1],
                     [4, 3, 3, 3]][int(rng.integers(2))], "three-quads": [4, 4, 4, 1]}[kind]
            r = rng.choice(13, len(shape), replace=False).tolist()
            ranks = [x for x, k in zip(r, shape) for _ in range(k)]
        elif kind in ("three-straights", "three-straight-flushes"):
            ranks = (list(RUN5[int(rng.integers(len(RUN5)))]) + list(RUN5[int(rng.integers(len(RUN5)))])
                     + list(RUN3[int(rng.integers(len(RUN3)))]))
            if kind == "three-straight-flushes":
                suits = rng.integers(4, size=3)
                cards = ([r * 4 + int(suits[0]) for r in ranks[:5]] + [r * 4 + int(suits[1]) for r in ranks[5:10]]
                         + [r * 4 + int(suits[2]) for r in ranks[10:]])
                if len(set(cards)) == 13:
                    return cards
                continue
        if ranks is not None:
            cards = _from_ranks(rng, ranks)
            if cards is not None:
                return cards
            continue
        if kind in ("clean-dragon", "three-flushes"):
            shape = [13] if kind == "clean-dragon" else [[3, 5, 5], [8, 5], [10, 3], [13]][int(rng.integers(4))]
            suits = rng.choice(4, len(shape), replace=False)
            return [int(r) * 4 + int(s) for s, k in zip(suits, shape) for r in rng.choice(13, k, replace=False)]
        if kind in ("all-one-colour", "twelve-one-colour"):
            colour = [c for c in range(52) if naive.suit_of(c) in ((0, 3), (1, 2))[int(rng.integers(2))]]
            other = [c for c in range(52) if c not in colour]
            k = 13 if kind == "all-one-colour" else 12
            return rng.choice(colour, k, replace=False).tolist() + rng.choice(other, 13 - k, replace=False).tolist()
        if kind in ("small", "big", "twelve-royalties", "no-pictures"):
            low = {"small": 0, "big": int(rng.integers(5, 9)), "twelve-royalties": 9, "no-pictures": 0}[kind]
            high = {"small": int(rng.integers(6, 9)), "big": 12, "twelve-royalties": 12,
                    "no-pictures": 12}[kind]
            pool = [c for c in range(low * 4, high * 4 + 4)
                    if kind != "no-pictures" or naive.rank_of(c) not in (9, 10, 11)]
            return rng.choice(pool, 13, replace=False).tolist()
        if kind == "twelve-pictures":
            return list(range(36, 48)) + [int(rng.choice([c for c in range(52) if not 36 <= c < 48]))]
        raise AssertionError(kind)


def near_miss(rng, hand):
    """The hand with one card swapped for a card it does not hold."""
    hand = list(hand)
    out = [c for c in range(52) if c not in hand]
    hand[int(rng.integers(13))] = int(rng.choice(out))
    return hand


@pytest.fixture(scope="module")
def hand_pool():
    rng = np.random.default_rng(SEED)
    pool = [h.tolist() for h in deal_hands(rng, 200)]
    for kind in KINDS:
        for _ in range(12):
            hand = built_hand(rng, kind)
            pool.append(hand)
            pool.append(near_miss(rng, hand))
    for h in pool:
        assert len(set(h)) == 13
    return pool


@pytest.mark.parametrize("kind, option", OPTIONS)
def test_kernel_equals_naive(hand_pool, kind, option):
    """Same verdict on every hand; among the holders, the same order of keys (ties alike)."""
    holders = []
    for hand in hand_pool:
        k, n = kernel_key(hand, kind, option), naive_key(hand, kind, option)
        assert (k >= 0) == (n is not None), (naive.card_text(c) for c in sorted(hand))
        if n is not None:
            holders.append((n, k))
    assert len(holders) >= 5, f"too few {kind} hands to compare keys"
    holders.sort()
    for (n1, k1), (n2, k2) in zip(holders, holders[1:]):
        assert (k1 < k2) if n1 < n2 else (k1 == k2)


def rows_of(hand, split):
    front, middle, back = split_cards(np.sort(np.asarray(hand, np.uint8)), split)
    return [r.tolist() for r in (front, middle, back)]


@pytest.mark.parametrize("kind, option", [("three-flushes", 0), ("three-straights", 0),
                                          ("three-straights", 1), ("three-straights", 2),
                                          ("three-straight-flushes", 0)])
def test_natural_setting_realises_the_natural(hand_pool, kind, option):
    rng = np.random.default_rng(SEED + 3)
    hands = [h for h in hand_pool if naive_key(h, kind, option) is not None]
    hands += [built_hand(rng, kind) for _ in range(10)]
    hands = [h for h in hands if naive_key(h, kind, option) is not None]
    assert len(hands) >= 10
    for hand in hands:
        split = int(kn.natural_setting(np.sort(np.asarray(hand, np.uint8)), KINDS.index(kind), option))
        assert 0 <= split < 72072
        front, middle, back = rows_of(hand, split)
        assert sorted(front + middle + back) == sorted(hand)
        best = naive_key(hand, kind, option)
        if kind == "three-flushes":
            assert all(len({naive.suit_of(c) for c in row}) == 1 for row in (front, middle, back))
            assert (naive.hand_key(back), naive.hand_key(middle), naive.hand_key(front)) == best
        else:
            tops = []
            for row, runs in ((back, naive.FIVE_RUNS), (middle, naive.FIVE_RUNS), (front, naive.FRONT_RUNS)):
                ranks = sorted(naive.rank_of(c) for c in row)
                top = [t for t, r in runs if sorted(r) == ranks]
                assert top, row
                tops.append(top[0])
                if kind == "three-straight-flushes":
                    assert len({naive.suit_of(c) for c in row}) == 1
            # the tie-break key names the higher straight first; the setting puts the stronger
            # five-card hand in back, which is the lower straight when that one is suited
            assert (max(tops[:2]), min(tops[:2]), tops[2]) == best
        # every realising setting is legal, so a player can also set the hand that way
        assert naive.is_legal([naive.hand_key(front), naive.hand_key(middle), naive.hand_key(back)])


def test_natural_setting_none_for_other_kinds():
    assert kn.natural_setting(np.sort(parse_cards(SIX_PAIRS)), KINDS.index("six-pairs"), 0) == -1
    assert kn.natural_setting(np.sort(parse_cards(SIX_PAIRS)), KINDS.index("three-flushes"), 0) == -1


def test_best_natural_picks_the_highest():
    """A clean dragon is also a dragon, three flushes and all one colour: the highest wins."""
    from sapsam.game.ruleset_files import load_ruleset

    compiled = load_ruleset("standard").compile()
    index, key = kn.best_natural(np.sort(parse_cards(CLEAN_DRAGON)), compiled.naturals)
    assert KINDS[compiled.naturals[index, 0]] == "clean-dragon"
    index, _ = kn.best_natural(np.sort(parse_cards(SIX_PAIRS)), compiled.naturals)
    assert KINDS[compiled.naturals[index, 0]] == "six-pairs"
    assert kn.best_natural(np.sort(parse_cards(FIVE_PAIRS)), compiled.naturals)[0] == -1


# ---- 4. exact counts and frequencies ---------------------------------------------------------

N_HANDS = comb(52, 13)


def count_six_pairs(option):
    """Hands with six pairs: q fours of a kind (two pairs each, option >= 1), p pairs and one
    odd rank, a single or (option 2) a three of a kind, 2q + p + (1 if trips) = 6."""
    total = 0
    for q in range(4 if option >= 1 else 1):
        for trips in (0, 1) if option == 2 else (0,):
            p = 6 - 2 * q - trips
            if p < 0:
                continue
            total += comb(13, q) * comb(13 - q, p) * (13 - q - p) * comb(4, 2) ** p * 4
    return total


def count_three_straights(option):
    """Rank patterns made of two 5-card runs and a 3-card run (enumerated), each weighted by
    the number of ways to pick suits."""
    fronts = [r for top, r in naive.FRONT_RUNS
              if not (top == 12 and option == 1) and not (top == 1 and option == 2)]
    patterns = set()
    for back in RUN5:
        for middle in RUN5:
            for front in fronts:
                count = Counter(back) + Counter(middle) + Counter(front)
                if max(count.values()) <= 4:
                    patterns.add(tuple(count[r] for r in range(13)))
    return sum(prod(comb(4, c) for c in p) for p in patterns)


EXACT_RANK_COUNTS = {  # (kind, option): number of 13-card hands
    ("dragon", 0): 4 ** 13,
    ("six-pairs", 0): count_six_pairs(0),
    ("six-pairs", 1): count_six_pairs(1),
    ("six-pairs", 2): count_six_pairs(2),
    ("three-straights", 0): count_three_straights(0),
    ("three-straights", 1): count_three_straights(1),
    ("three-straights", 2): count_three_straights(2),
    ("five-pairs-trips", 0): 13 * 4 * comb(12, 5) * 6 ** 5,
    ("four-trips", 0): comb(13, 4) * 4 ** 4 * 9 * 4,
    ("four-trips", 1): comb(13, 4) * 4 ** 4 * 9 * 4 + comb(13, 3) * 4 ** 3 * 10,
    ("three-quads", 0): comb(13, 3) * 40,
    ("small", EIGHT): comb(28, 13), ("small", NINE): comb(32, 13), ("small", TEN): comb(36, 13),
    ("big", SEVEN): comb(32, 13), ("big", EIGHT): comb(28, 13), ("big", NINE): comb(24, 13),
    ("twelve-pictures", 0): 40,
    ("twelve-royalties", 0): comb(16, 13),
    ("no-pictures", 0): comb(40, 13),
}
EXACT_SUIT_COUNTS = {
    ("clean-dragon", 0): 4,
    ("all-one-colour", 0): 2 * comb(26, 13),
    ("twelve-one-colour", 0): 2 * comb(26, 12) * 26,
    # suit counts {13}, {10, 3}, {8, 5} or {5, 5, 3} cut into one-suit rows of 3, 5 and 5
    ("three-flushes", 0): (4 + 12 * comb(13, 10) * comb(13, 3) + 12 * comb(13, 8) * comb(13, 5)
                           + 12 * comb(13, 5) ** 2 * comb(13, 3)),
}


def test_closed_forms_are_consistent():
    """The hand-written counts against simpler ones where they must agree."""
    assert count_six_pairs(0) == comb(13, 6) * 7 * 6 ** 6 * 4
    assert count_six_pairs(0) < count_six_pairs(1) < count_six_pairs(2)
    assert count_three_straights(0) > count_three_straights(1) > 0
    assert count_three_straights(0) > count_three_straights(2) > 0


@pytest.fixture(scope="module")
def rank_patterns():
    """One sorted hand per rank pattern (suits 0.. in order) and the number of hands with
    that pattern: 3,598,180 patterns, weights summing to C(52, 13)."""
    counts = np.zeros((1, 0), np.int8)
    total = np.zeros(1, np.int64)
    for r in range(13):
        room = 4 * (12 - r)
        grown, sums = [], []
        for c in range(5):
            s = total + c
            keep = (s <= 13) & (s + room >= 13)
            grown.append(np.hstack([counts[keep], np.full((int(keep.sum()), 1), c, np.int8)]))
            sums.append(s[keep])
        counts, total = np.vstack(grown), np.concatenate(sums)
    weight = np.array([comb(4, c) for c in range(5)], np.int64)[counts].prod(axis=1)
    present = counts[:, :, None] > np.arange(4)[None, None, :]
    hands = np.nonzero(present.reshape(len(counts), 52))[1].astype(np.uint8).reshape(-1, 13)
    return hands, weight


@pytest.fixture(scope="module")
def suit_patterns():
    hands, weight = [], []
    for a in range(14):
        for b in range(14 - a):
            for c in range(14 - a - b):
                d = 13 - a - b - c
                hands.append(sorted(r * 4 + s for s, k in enumerate((a, b, c, d)) for r in range(k)))
                weight.append(comb(13, a) * comb(13, b) * comb(13, c) * comb(13, d))
    return np.array(hands, np.uint8), np.array(weight, np.int64)


def kernel_count(hands, weight, kind, option):
    naturals = np.array([[KINDS.index(kind), option, 1, 0]], np.int64)
    index, _ = kn.best_naturals(hands, naturals)
    return int(weight[index >= 0].sum())


def test_rank_patterns_cover_every_hand(rank_patterns, suit_patterns):
    assert len(rank_patterns[0]) == 3_598_180
    assert int(rank_patterns[1].sum()) == N_HANDS
    assert len(suit_patterns[0]) == 560 and int(suit_patterns[1].sum()) == N_HANDS


@pytest.mark.parametrize("kind, option", sorted(EXACT_RANK_COUNTS))
def test_exact_count_over_rank_patterns(rank_patterns, kind, option):
    """Rank-only naturals: the kernel's verdict on one hand per rank pattern, weighted, is the
    exact number of such hands among all C(52, 13)."""
    assert kernel_count(*rank_patterns, kind, option) == EXACT_RANK_COUNTS[kind, option]


@pytest.mark.parametrize("kind, option", sorted(EXACT_SUIT_COUNTS))
def test_exact_count_over_suit_patterns(suit_patterns, kind, option):
    assert kernel_count(*suit_patterns, kind, option) == EXACT_SUIT_COUNTS[kind, option]


def count_three_straight_flushes():
    """Hands of three straight flushes, counted by suit pattern: the rows' suits give suit
    counts {5, 5, 3}, {10, 3}, {8, 5} or {13}, and each suit's ranks must be its runs."""
    ten = {frozenset(a) | frozenset(b) for a in RUN5 for b in RUN5 if not set(a) & set(b)}
    eight = {frozenset(a) | frozenset(c) for a in RUN5 for c in RUN3 if not set(a) & set(c)}
    thirteen = {frozenset(a) | frozenset(b) | frozenset(c) for a in RUN5 for b in RUN5 for c in RUN3
                if len(set(a) | set(b) | set(c)) == 13}
    return (4 * 3 * len(RUN3) * len(RUN5) ** 2  # front's suit, the two middle/back suits
            + 4 * 3 * len(ten) * len(RUN3) + 4 * 3 * len(eight) * len(RUN5) + 4 * len(thirteen))


def test_three_straight_flushes_exhaustive():
    """Three straight flushes depend on ranks and suits together and are far too rare for
    random deals: build every such hand (three suited runs, as card sets), check the kernel
    finds each one, and check how many there are against a count by suit pattern."""
    found = set()
    for back in RUN5:
        for middle in RUN5:
            for front in RUN3:
                for sb in range(4):
                    for sm in range(4):
                        for sf in range(4):
                            cards = ([r * 4 + sb for r in back] + [r * 4 + sm for r in middle]
                                     + [r * 4 + sf for r in front])
                            if len(set(cards)) == 13:
                                found.add(tuple(sorted(cards)))
    assert len(found) == count_three_straight_flushes()
    hands = np.array(sorted(found), np.uint8)
    naturals = np.array([[KINDS.index("three-straight-flushes"), 0, 1, 0]], np.int64)
    index, _ = kn.best_naturals(hands, naturals)
    assert (index == 0).all()


# ---- frequencies over random deals ------------------------------------------------------------

N_DEALS = 1_000_000
# Naturals common enough to measure in N_DEALS random hands (>= ~30 expected).  The rare ones
# (three quads ~2e-8, twelve pictures ~6e-11, twelve royalties, clean dragon, four trips ~1e-5,
# three straight flushes) cannot be measured by random deals in a test's time: their exact
# counts over every hand are checked above (rank and suit patterns, and the enumeration of all
# three-straight-flush hands); four trips also gets a slow run of 10^7 deals.
FREQUENT = [
    ("dragon", 0), ("six-pairs", 0), ("six-pairs", 2), ("three-straights", 0), ("three-straights", 1),
    ("three-flushes", 0), ("five-pairs-trips", 0), ("all-one-colour", 0), ("twelve-one-colour", 0),
    ("small", EIGHT), ("small", NINE), ("big", EIGHT), ("no-pictures", 0),
]


def exact_probability(kind, option):
    count = EXACT_RANK_COUNTS.get((kind, option)) or EXACT_SUIT_COUNTS.get((kind, option))
    return count / N_HANDS


def check_frequency(hands, kind, option, sigmas=4.0):
    """Observed count within ``sigmas`` binomial standard errors of n * p."""
    naturals = np.array([[KINDS.index(kind), option, 1, 0]], np.int64)
    index, _ = kn.best_naturals(hands, naturals)
    observed = int((index >= 0).sum())
    n, p = len(hands), exact_probability(kind, option)
    expected, se = n * p, sqrt(n * p * (1 - p))
    assert abs(observed - expected) <= sigmas * se, (kind, option, observed, expected, se)


@pytest.fixture(scope="module")
def random_deals():
    return deal_hands(np.random.default_rng(SEED + 5), N_DEALS)


@pytest.mark.parametrize("kind, option", FREQUENT)
def test_frequency_over_random_deals(random_deals, kind, option):
    check_frequency(random_deals, kind, option)


@pytest.fixture(scope="module")
def many_random_deals(request):
    """Ten million deals, only when slow tests are asked for (``-m slow``: make test-slow)."""
    if "slow" not in (request.config.option.markexpr or "") or "not slow" in request.config.option.markexpr:
        pytest.skip("slow: run with -m slow")
    rng = np.random.default_rng(SEED + 6)
    return np.concatenate([deal_hands(rng, 1_000_000) for _ in range(10)])


@pytest.mark.slow
@pytest.mark.parametrize("kind, option", FREQUENT + [("four-trips", 0), ("four-trips", 1),
                                                     ("six-pairs", 1), ("big", NINE),
                                                     ("three-straights", 2), ("small", TEN)])
def test_frequency_over_many_random_deals(many_random_deals, kind, option):
    """Ten million deals: the rarer naturals (four trips, about 10 in a million) and a
    tighter check of the frequent ones."""
    check_frequency(many_random_deals, kind, option)
