"""Pai Gow Poker's hands (issue 40): the joker's evaluator against a plain-Python reference,
the low hands, and the published table of best 7-card hands, exactly."""

from math import comb

import numpy as np
import pytest

from sapsam.paigow_poker.game import Rules, format_cards, high_words, low_words, parse_hand, tables
from sapsam.paigow_poker.kernels.exact import category_counts, top_pairs
from sapsam.paigow_poker.kernels.hands import JOKER, LOW_PACKED, N_HIGH, N_LOW, high_strength, low_strength
from sapsam.paigow_poker.kernels.houseway import N_SETTINGS, settings_of
from tests.paigow_poker import reference as ref

# the Wizard of Odds' table of the best 5-card hand of 7 from 53 cards (issue 40)
PUBLISHED_7 = {"five aces": 1_128, "straight flush": 210_964, "four of a kind": 307_472,
               "full house": 4_188_528, "flush": 6_172_088, "straight": 11_236_028,
               "three of a kind": 7_470_676, "two pair": 35_553_816, "one pair": 64_221_960,
               "high card": 24_780_420}
CATEGORIES = ("high card", "one pair", "two pair", "three of a kind", "straight", "flush",
              "full house", "four of a kind", "straight flush", "five aces")


def strength(text, wheel_second=True):
    scale, joker = tables(Rules(wheel_second=wheel_second))
    return int(high_strength(*parse_hand(text, 5), scale.dense, joker))


def words(text):
    scale, _ = tables(Rules())
    return high_words(scale.packed[strength(text)])


@pytest.mark.parametrize("wheel_second", [True, False])
def test_the_joker_evaluator_orders_hands_as_the_reference(wheel_second):
    """Random 5-card hands, a third with the joker: the dense strengths order them exactly
    as the reference, which tries every card in the joker's place."""
    rng = np.random.default_rng(40)
    hands = [sorted(rng.choice(53, 5, replace=False).tolist()) for _ in range(1500)]
    hands += [sorted(rng.choice(52, 4, replace=False).tolist()) + [JOKER] for _ in range(1500)]
    scale, joker = tables(Rules(wheel_second=wheel_second))
    dense = [int(high_strength(*np.array(h, np.uint8), scale.dense, joker)) for h in hands]
    keys = [ref.high_key(h, wheel_second) for h in hands]
    ordered = sorted(zip(keys, dense))
    for (k1, d1), (k2, d2) in zip(ordered, ordered[1:]):
        assert (k1 < k2) == (d1 < d2)


@pytest.mark.parametrize("text, expected", [
    ("Jk Ah Ad Ac As", "five aces"),
    ("Jk Kh Qh Jh Th", "straight flush, A high"),        # the joker completes a royal flush
    ("Jk 9s 8s 6s 5s", "straight flush, 9 high"),        # ... or fills the gap
    ("Jk 3c 4d 5h 6s", "straight, 7 high"),              # the highest straight it can make
    ("Jk Ah 9h 7h 2h", "flush, A high"),                 # the joker in a flush
    ("Jk Kd Kc 7h 2s", "one pair, kings"),               # an ace kicker, not a third king
    ("Jk Ad Kc 7h 2s", "one pair, aces"),
    ("Jk Kd Kc 7h 7s", "two pair, kings and sevens"),    # the joker the ace kicker
])
def test_the_joker_plays_as_an_ace_or_completes_a_straight_or_flush(text, expected):
    assert words(text).startswith(expected) or words(text) == expected


def test_the_wheel_is_the_second_straight_or_the_lowest():
    wheel, six, broadway = "Ad 2c 3d 4h 5s", "2c 3d 4h 5s 6c", "Ad Kc Qd Jh Ts"
    assert strength(six) < strength(wheel) < strength(broadway)
    assert strength(wheel, False) < strength(six, False)
    assert strength("Jk 2c 3d 4h 5s") == strength(wheel)  # with the wheel second, the joker is the ace


def test_low_hands_rank_pairs_over_high_cards_and_the_joker_is_an_ace():
    lows = [int(low_strength(*parse_hand(t, 2, "low"))) for t in ("3c 2d", "Ah Kd", "2c 2d", "Jk Ac")]
    assert lows == sorted(lows) and lows[-1] == N_LOW - 1 and lows[0] == 0
    assert low_words(lows[-1]) == "pair of aces" and low_words(lows[1]) == "A-K"


def test_the_high_hand_must_outrank_the_low():
    """Of the 21 ways to set seven cards, a low pair above the high hand's pair fouls; the
    same pair in both is no foul (the high hand has kickers)."""
    scale, joker = tables(Rules())
    hand = parse_hand("Kc Kd 9s 7h 5c 3d 2s")
    high = np.empty(N_SETTINGS, np.int16)
    low = np.empty(N_SETTINGS, np.int16)
    settings_of(hand, scale.dense, joker, high, low)
    legal = scale.packed[high] > LOW_PACKED[low]
    kings_in_front = [low_words(v) == "pair of kings" for v in low]
    kings_in_back = [words_ == "one pair" for words_ in (high_words(scale.packed[v])[:8] for v in high)]
    assert not legal[kings_in_front].any() and legal[kings_in_back].all()
    assert not legal[[low_words(v) == "K-9" for v in low]].any()  # K 7 5 3 2 is below K-9
    assert legal[[low_words(v) == "K-2" for v in low]].all()      # K 9 7 5 3 is above K-2


def test_category_counts_of_a_small_deck_match_the_reference():
    """Every 7-card hand of a 15-card deck with the joker: the best five's category, by the
    kernel and by the reference."""
    from itertools import combinations

    deck = np.array([48, 49, 50, 44, 45, 40, 41, 36, 32, 12, 8, 4, 0, 1, JOKER], dtype=np.uint8)
    deck.sort()
    scale, joker = tables(Rules())
    counts = category_counts(deck, top_pairs(len(deck)), scale.dense, joker, scale.category, 2)
    assert counts.sum() == comb(15, 7)
    key = {five: ref.high_key(five) for five in combinations(deck.tolist(), 5)}  # 3,003 fives
    expected = np.zeros(10, np.int64)
    for hand in combinations(deck.tolist(), 7):
        expected[max(key[five] for five in combinations(hand, 5))[0]] += 1
    assert counts.tolist() == expected.tolist()


@pytest.mark.slow
def test_the_published_table_of_best_seven_card_hands_exactly():
    """All 154,143,080 hands of 7 from 53 cards (about a minute on two cores)."""
    scale, joker = tables(Rules())
    counts = category_counts(np.arange(53, dtype=np.uint8), top_pairs(53), scale.dense, joker,
                             scale.category, 8)
    assert dict(zip(CATEGORIES, counts.tolist())) == PUBLISHED_7
    assert counts.sum() == comb(53, 7)


def test_cards_read_and_write_with_the_joker():
    assert format_cards(parse_hand("joker as kd 10h 9c 3s 2d")) == "Jk As Kd Th 9c 3s 2d"
    with pytest.raises(ValueError, match="duplicate card 'jk'"):
        parse_hand("Jk jk As Kd Th 9c 3s")
    with pytest.raises(ValueError, match="needs 7 cards, got 6"):
        parse_hand("Jk As Kd Th 9c 3s")
    assert N_HIGH == 7463
