"""The 2-7 low scale (kernels/lowball.py, issue 18's low middle): every order it gives agrees
with a plain-Python reference written from the rule, and the landmarks of deuce-to-seven."""

from collections import Counter

import numpy as np

from sapsam.game.cards import parse_cards
from sapsam.kernels.lowball import N_LOW, rank5_low


def reference_key(cards):
    """The high-poker key of five cards with the ace always high and no wheel straight: the
    smaller key is the better 2-7 low."""
    ranks = [c >> 2 for c in cards]
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    flush = len({c & 3 for c in cards}) == 1
    straight = len(counts) == 5 and max(ranks) - min(ranks) == 4
    shape = sorted(counts.values(), reverse=True)
    category = (8 if straight and flush else 7 if shape[0] == 4 else 6 if shape == [3, 2]
                else 5 if flush else 4 if straight else 3 if shape[0] == 3
                else 2 if shape == [2, 2, 1] else 1 if shape[0] == 2 else 0)
    return category, order


def low(text):
    return int(rank5_low(np.array([parse_cards(text, 5)], dtype=np.uint8))[0])


def test_landmarks():
    assert low("7s 5d 4h 3c 2s") == N_LOW - 1  # the best low
    assert low("7s 6d 4h 3c 2s") == N_LOW - 2
    assert low("8s 5d 4h 3c 2s") < low("7s 6d 5h 4c 2s")
    assert low("As 5d 4h 3c 2s") < low("Ks Qd Jh Tc 8s")  # the ace is high: no wheel
    assert low("6s 5d 4h 3c 2s") < low("2s 2d 3h 4c 5s")  # a straight is worse than a pair
    assert low("7s 5s 4s 3s 2s") < low("Ah Ad Kc Ks Qh")  # so is a flush, than two pair
    assert low("As Ks Qs Js Ts") == 0  # the worst low
    assert low("5s 5d 4h 3c 2s") == low("5h 5c 4s 3d 2c")  # suits never matter off a flush


def test_every_order_agrees_with_the_reference(rng):
    deck = np.arange(52, dtype=np.uint8)
    hands = np.array([rng.choice(deck, 5, replace=False) for _ in range(4000)], dtype=np.uint8)
    ours = rank5_low(hands, parallel=False)
    assert (ours == rank5_low(hands, parallel=True)).all()
    keys = [reference_key([int(c) for c in h]) for h in hands]
    for i in range(0, 4000, 2):
        a, b = keys[i], keys[i + 1]
        assert (ours[i] > ours[i + 1]) == (a < b) and (ours[i] == ours[i + 1]) == (a == b), \
            (hands[i], hands[i + 1])


def test_the_scale_is_dense():
    """All 2,598,960 hands make exactly the 7,462 strengths 0 .. 7461."""
    from itertools import combinations

    hands = np.array(list(combinations(range(52), 5)), dtype=np.uint8)
    found = np.unique(rank5_low(hands))
    assert len(found) == N_LOW and found[0] == 0 and found[-1] == N_LOW - 1
