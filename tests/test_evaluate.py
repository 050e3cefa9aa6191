"""Hand evaluation (kernels/evaluate.py, analysis/game/hands.py), proved exhaustively (STYLE.md 3).

References: the exact counts in DESIGN.md, phevaluator (an independent 5-card evaluator,
test-only) over all 2,598,960 five-card hands, and ``naive.hand_key`` over every hand class
for the shared 3-/5-card scale and the wheel options.
"""

from itertools import chain, combinations, starmap

import naive
import numpy as np
import pytest
from phevaluator import evaluate_cards

from sapsam.game import hands
from sapsam.kernels import evaluate as ev

N_FIVE = 2_598_960
N_THREE = 22_100

FIVE_CARD_COUNTS = {  # DESIGN.md, "Independent references for tests"
    ev.STRAIGHT_FLUSH: 40, ev.QUADS: 624, ev.FULL_HOUSE: 3_744, ev.FLUSH: 5_108,
    ev.STRAIGHT: 10_200, ev.TRIPS: 54_912, ev.TWO_PAIR: 123_552, ev.PAIR: 1_098_240,
    ev.HIGH_CARD: 1_302_540,
}
THREE_CARD_COUNTS = {ev.TRIPS: 52, ev.PAIR: 3_744, ev.HIGH_CARD: 18_304}


def all_hands(size):
    """Every ``size``-card hand, in ``itertools.combinations`` order: ndarray(uint8)."""
    flat = np.fromiter(chain.from_iterable(combinations(range(52), size)), dtype=np.uint8)
    return flat.reshape(-1, size)


@pytest.fixture(scope="module")
def five():
    """All 5-card hands and their kernel strengths."""
    cards = all_hands(5)
    return cards, ev.rank5(cards)


@pytest.fixture(scope="module")
def three():
    cards = all_hands(3)
    return cards, ev.rank3(cards)


@pytest.fixture(scope="module")
def phevaluator_ranks():
    """phevaluator's rank of every 5-card hand in ``all_hands(5)`` order (1 = royal flush).

    phevaluator uses the same integer cards as sapsam (``rank * 4 + suit``, deuce = 0,
    suits c d h s), checked in ``test_phevaluator_card_convention``.  One pass over all
    2.6 M hands through its public function takes about 2 s here, so it is exhaustive.
    """
    ranks = starmap(evaluate_cards, combinations(range(52), 5))
    return np.fromiter(ranks, dtype=np.int32, count=N_FIVE)


@pytest.fixture(scope="module")
def classes():
    """One representative per class: (front hands, five-card hands) as uint8 arrays."""
    fronts, fives = naive.class_representatives()
    return np.array(fronts, dtype=np.uint8), np.array(fives, dtype=np.uint8)


def strength(text):
    return hands.strength(text)


# ---- exhaustive counts -----------------------------------------------------------------------

def test_five_card_category_counts(five):
    cards, s = five
    assert cards.shape == (N_FIVE, 5)
    counts = np.bincount(hands.category(s), minlength=9)
    assert {c: int(counts[c]) for c in range(9)} == FIVE_CARD_COUNTS


def test_five_card_distinct_strengths(five):
    _, s = five
    assert s.dtype == np.int16
    assert len(np.unique(s)) == 7_462
    per_category = np.bincount(hands.category(np.unique(s)), minlength=9)
    # classes per category: 10 SF, 156 quads, 156 boats, 1277 flushes, 10 straights,
    # 858 trips, 858 two pair, 2860 pairs, 1277 high cards
    assert per_category.tolist() == [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]


def test_three_card_counts(three):
    cards, s = three
    assert cards.shape == (N_THREE, 3)
    counts = np.bincount(hands.category(s), minlength=9)
    assert {c: int(counts[c]) for c in range(9) if counts[c]} == THREE_CARD_COUNTS
    assert len(np.unique(s)) == 455


def test_scale_is_dense_and_shared(five, three):
    """Fronts and five-card hands never tie and together fill 0..7916 exactly."""
    s5 = np.unique(five[1])
    s3 = np.unique(three[1])
    assert len(np.intersect1d(s5, s3)) == 0
    assert np.array_equal(np.union1d(s5, s3), np.arange(ev.N_STRENGTHS))
    assert ev.N_STRENGTHS == 7_917


def test_card_order_within_hand_is_irrelevant(five, three, rng):
    cards, s = five
    assert np.array_equal(ev.rank5(np.ascontiguousarray(cards[:, ::-1])), s)
    assert np.array_equal(ev.rank5(np.ascontiguousarray(cards[:, [2, 4, 0, 3, 1]])), s)
    sample = rng.choice(N_FIVE, 200_000, replace=False)
    shuffled = rng.permuted(cards[sample], axis=1)
    assert np.array_equal(ev.rank5(shuffled), s[sample])
    cards3, s3 = three
    for order in ([0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]):
        assert np.array_equal(ev.rank3(np.ascontiguousarray(cards3[:, order])), s3)


def test_serial_equals_parallel(five, three):
    assert np.array_equal(ev.rank5(five[0], parallel=False), five[1])
    assert np.array_equal(ev.rank3(three[0], parallel=False), three[1])


# ---- the order of all 5-card hands equals phevaluator's ---------------------------------------

def test_phevaluator_card_convention():
    assert evaluate_cards(*naive.cards("As Ks Qs Js Ts")) == evaluate_cards("As", "Ks", "Qs", "Js", "Ts") == 1
    assert evaluate_cards(*naive.cards("7c 5d 4h 3s 2c")) == evaluate_cards("7c", "5d", "4h", "3s", "2c") == 7462
    assert evaluate_cards(*naive.cards("Ac Ad Ah As Kc")) < evaluate_cards(*naive.cards("Kc Kd Kh Ks Ac"))


def test_order_equals_phevaluator(five, phevaluator_ranks):
    """Strength is a strictly decreasing function of phevaluator's rank, and vice versa.

    Equivalently: the (strength, phevaluator rank) pairs over all hands are 7,462 distinct
    pairs, one per distinct strength and one per distinct phevaluator rank, and sorting them
    by strength sorts phevaluator ranks in reverse.
    """
    s = five[1].astype(np.int64)
    p = phevaluator_ranks.astype(np.int64)
    assert p.min() == 1 and p.max() == 7_462
    pairs = np.unique(s * 10_000 + p)  # sorted by strength, then phevaluator rank
    assert len(pairs) == len(np.unique(s)) == len(np.unique(p)) == 7_462
    ps = pairs // 10_000
    pp = pairs % 10_000
    assert np.all(np.diff(ps) > 0)
    assert np.all(np.diff(pp) < 0)


def test_phevaluator_categories(five, phevaluator_ranks):
    """Category boundaries in phevaluator's rank (1..7462) agree with our categories."""
    bounds = [10, 166, 322, 1599, 1609, 2467, 3325, 6185, 7462]  # SF, quads, ..., high card
    pe_category = 8 - np.searchsorted(bounds, phevaluator_ranks)
    assert np.array_equal(pe_category, hands.category(five[1]))


# ---- the shared 3-/5-card scale against the naive reference ----------------------------------

@pytest.mark.parametrize("weaker, stronger", [  # RULES.md A1
    ("Kc Kd 5h", "Ks Kh Ad Qc Jc"),
    ("Ac Ad Kh", "As Ah Kd 7c 2c"),
    ("Ac Kd Qh", "As Kh Qd 3c 2c"),
    ("Ks Kh Qd Jc Tc", "Kc Kd Ah"),
])
def test_rules_a1_examples(weaker, stronger):
    assert strength(weaker) < strength(stronger)
    assert naive.hand_key(naive.cards(weaker)) < naive.hand_key(naive.cards(stronger))


@pytest.mark.parametrize("a, b", [
    ("Ac Kd Qh", "As Ks Qd"),  # suits never rank
    ("Tc Td 4h", "Ts Th 4d"),
    ("Ac Kd Qh Jc 9d", "As Kh Qs Js 9h"),
])
def test_ties(a, b):
    assert strength(a) == strength(b)


@pytest.mark.parametrize("weaker, stronger", [
    ("Ac Kd Qh", "2c 2d 3h"),  # pair beats high card in front
    ("Ac Ad Kh", "2c 2d 2h"),
    ("2c 3d 4h", "Kc Qd Jh Tc 8c"),  # no straight in front; 5-card high card K beats 4-high
    ("Ac Ad Ah", "2c 3d 4h 5c 6c"),  # front trips < any straight
    ("Ac Ad Ah", "Ac Ad Ah 3c 2d"),
    ("Ac 2d 3h 4c 5c", "2c 3d 4h 5c 6c"),  # wheel is the lowest straight
    ("Kc Ad 2h 3c 4c", "Ac 2d 3h 4c 5c"),  # no wrap-around: K-A-2-3-4 is ace high
    ("Ac 2c 3c 4c 5c", "2d 3d 4d 5d 6d"),
    ("Ac Ad 2h 2c 3c", "Ac Kc Qc Jc 9c"),  # flush beats two pair
])
def test_ordering_examples(weaker, stronger):
    assert strength(weaker) < strength(stronger)
    assert naive.hand_key(naive.cards(weaker)) < naive.hand_key(naive.cards(stronger))


def test_classes_equal_naive_scale(classes):
    """Every class representative's strength is its naive key's place on the naive scale."""
    fronts, fives = classes
    assert len(fronts) == 455 and len(fives) == 7_462
    got = np.concatenate([ev.rank3(fronts), ev.rank5(fives)]).tolist()
    want = [naive.strength(h) for h in fronts.tolist() + fives.tolist()]
    assert got == want
    assert sorted(got) == list(range(ev.N_STRENGTHS))


def test_mixed_front_vs_five_card_order(classes):
    """All 455 x 7,462 front-versus-five-card comparisons agree with naive keys."""
    fronts, fives = classes
    kf = ev.rank3(fronts).astype(np.int32)
    k5 = ev.rank5(fives).astype(np.int32)
    keys_f = [naive.hand_key(h) for h in fronts.tolist()]
    keys_5 = [naive.hand_key(h) for h in fives.tolist()]
    # naive order without the kernel: position of each key among all keys sorted
    order = sorted(set(keys_f) | set(keys_5))
    place = {k: i for i, k in enumerate(order)}
    nf = np.array([place[k] for k in keys_f])
    n5 = np.array([place[k] for k in keys_5])
    got = np.sign(kf[:, None] - k5[None, :])
    want = np.sign(nf[:, None] - n5[None, :])
    assert got.shape == (455, 7_462)
    assert np.array_equal(got, want)
    assert not np.any(got == 0)  # a front never ties a five-card hand


def test_random_hands_equal_naive(rng, deal, three):
    cards = deal(rng, 20_000, size=5, sort=False)
    got = ev.rank5(cards).tolist()
    assert got == [naive.strength(h) for h in cards.tolist()]
    cards3, s3 = three
    assert s3.tolist() == [naive.strength(h) for h in cards3.tolist()]


# ---- wheel_rank = "second" --------------------------------------------------------------------

def test_wheel_second_is_a_permutation():
    assert ev.WHEEL_SECOND.dtype == np.int16
    assert np.array_equal(np.sort(ev.WHEEL_SECOND), np.arange(ev.N_STRENGTHS))
    assert np.sum(ev.WHEEL_SECOND != np.arange(ev.N_STRENGTHS)) > 0


def test_wheel_second_equals_naive(classes):
    fronts, fives = classes
    got = np.concatenate([ev.rank3(fronts), ev.WHEEL_SECOND[ev.rank5(fives)]]).tolist()
    want = [naive.strength(h, wheel_second=True) for h in fronts.tolist() + fives.tolist()]
    assert got == want


@pytest.mark.parametrize("wheel, below, above", [
    ("Ac 2d 3h 4c 5c", "Tc Jd Qh Kc Ac", "9c Td Jh Qc Kc"),
    ("Ac 2c 3c 4c 5c", "Tc Jc Qc Kc Ac", "9c Tc Jc Qc Kc"),
])
def test_wheel_second_places_wheel_below_broadway(wheel, below, above):
    second = ev.WHEEL_SECOND
    w, b, k = (int(second[strength(t)]) for t in (wheel, below, above))
    assert k < w < b and w == b - 1
    assert strength(wheel) < strength(above)  # default: wheel is lowest


def test_wheel_second_keeps_other_order(classes):
    fronts, fives = classes
    s = np.concatenate([ev.rank3(fronts), ev.rank5(fives)])
    wheels = {strength("Ac 2d 3h 4c 5c"), strength("Ac 2c 3c 4c 5c")}
    others = np.sort(np.array([v for v in s if v not in wheels]))
    assert np.all(np.diff(ev.WHEEL_SECOND[others]) > 0)


# ---- packed form -----------------------------------------------------------------------------

def test_packed_round_trip():
    ordinals = np.arange(ev.N_STRENGTHS)
    packed = ev.to_packed(ordinals)
    assert np.all(np.diff(packed) > 0)  # order-preserving
    back = ev.from_packed(packed)
    assert back.dtype == np.int16
    assert np.array_equal(back, ordinals)
    assert np.array_equal(hands.from_packed(hands.to_packed(ordinals)), ordinals)


@pytest.mark.parametrize("text, packed", [
    ("Kh Ks Kd 8c 8d", 6 << 20 | 0xC7000),
    ("Ac 2d 3h 4c 5c", 4 << 20 | 0x43210),
    ("As Ks Qs Js Ts", 8 << 20 | 0xDCBA9),
    ("6c 6d 4h", 1 << 20 | 0x53000),
    ("Ac Kd Qh", 0 << 20 | 0xDCB00),
    ("7c 7d 7h", 3 << 20 | 0x60000),
    ("Ac Ad Ah As 2c", 7 << 20 | 0xD1000),
])
def test_packed_values(text, packed):
    assert int(ev.to_packed(strength(text))) == packed
    assert int(ev.from_packed(packed)) == strength(text)


@pytest.mark.parametrize("garbage", [
    0,  # no hand has no cards
    -1,
    9 << 20,  # no category 9
    1 << 30,
    1 << 20 | 0xDD000,  # pair of aces with an ace kicker
    4 << 20 | 0xDCBA0,  # "straight" A K Q J + gap
    (6 << 20 | 0xC7000) + 1,
])
def test_from_packed_rejects_garbage(garbage):
    with pytest.raises(ValueError):
        ev.from_packed(garbage)
    with pytest.raises(ValueError):
        ev.from_packed(np.array([int(ev.to_packed(0)), garbage]))


def test_packed_category_matches_naive(classes):
    fronts, fives = classes
    s = np.concatenate([ev.rank3(fronts), ev.rank5(fives)])
    want = [naive.category_of_key(naive.hand_key(h)) for h in fronts.tolist() + fives.tolist()]
    assert (ev.to_packed(s) >> 20).tolist() == want
    assert hands.category(s).tolist() == want


# ---- descriptions ----------------------------------------------------------------------------

@pytest.mark.parametrize("text, words", [
    ("Kh Ks Kd 8c 8d", "Full house, kings over eights"),
    ("6c 6d 4h", "Pair of sixes, four kicker"),
    ("As Ks Qs Js Ts", "Royal flush"),
    ("Ah Kh Qh Jh Th", "Royal flush"),
    ("Ac 2d 3h 4c 5c", "Straight, five high"),
    ("Ac 2c 3c 4c 5c", "Straight flush, five high"),
    ("9c Tc Jc Qc Kc", "Straight flush, king high"),
    ("Tc Jd Qh Kc Ac", "Straight, ace high"),
    ("2c 3d 4h 5c 6c", "Straight, six high"),
    ("Ac Ad Ah As 2c", "Four of a kind, aces, two kicker"),
    ("7c 7d 7h", "Three of a kind, sevens"),
    ("7c 7d 7h Kc 2d", "Three of a kind, sevens, king-two kickers"),
    ("Kc Kd 8h 8c Ad", "Two pair, kings and eights, ace kicker"),
    ("Ac Kd Qh", "High card, ace-king-queen"),
    ("Ac 9c 7c 4c 2c", "Flush, ace-nine-seven-four-two"),
    ("6c 6d Ah Kc 2d", "Pair of sixes, ace-king-two kickers"),
])
def test_describe(text, words):
    assert hands.describe(strength(text)) == words


def test_describe_every_strength_is_distinct():
    words = [hands.describe(v) for v in range(ev.N_STRENGTHS)]
    assert len(set(words)) == ev.N_STRENGTHS


@pytest.mark.parametrize("bad", [-1, ev.N_STRENGTHS])
def test_describe_rejects_out_of_range(bad):
    with pytest.raises(ValueError):
        hands.describe(bad)


# ---- input validation at the analysis boundary -------------------------------------------------

def test_rank5_accepts_text_and_codes():
    want = strength("As Ks Qs Js Ts")
    assert hands.rank5("As Ks Qs Js Ts").tolist() == [want]
    assert hands.rank5(naive.cards("As Ks Qs Js Ts")).tolist() == [want]
    codes = np.array([naive.cards("As Ks Qs Js Ts"), naive.cards("2c 3d 4h 5c 7c")], dtype=np.int64)
    assert hands.rank5(codes).tolist() == [want, strength("2c 3d 4h 5c 7c")]
    assert hands.rank5(codes).dtype == np.int16


@pytest.mark.parametrize("bad, error", [
    (np.zeros((2, 4), dtype=np.uint8) + np.arange(4, dtype=np.uint8), ValueError),  # shape
    (np.arange(6, dtype=np.uint8), ValueError),
    (np.arange(10, dtype=np.uint8).reshape(1, 2, 5), ValueError),
    (np.arange(5, dtype=np.float64), TypeError),
    (np.array([True, False, True, False, True]), TypeError),
    (np.array([48, 49, 50, 51, 52]), ValueError),  # code 52
    (np.array([-1, 0, 1, 2, 3]), ValueError),
    (np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 3]]), ValueError),  # repeated card
    ("As Ks Qs Js", ValueError),
    ("As Ks Qs Js Xs", ValueError),
])
def test_rank5_rejects(bad, error):
    with pytest.raises(error):
        hands.rank5(bad)


@pytest.mark.parametrize("bad, error", [
    (np.arange(5), ValueError),
    (np.arange(3, dtype=np.float32), TypeError),
    (np.array([0, 0, 1]), ValueError),
    (np.array([50, 51, 52]), ValueError),
])
def test_rank3_rejects(bad, error):
    with pytest.raises(error):
        hands.rank3(bad)


def test_strength_rejects_four_cards():
    with pytest.raises(ValueError, match="3 or 5"):
        hands.strength("As Ks Qs Js")
