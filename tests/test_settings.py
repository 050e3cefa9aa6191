"""Settings of a 13-card hand (kernels/settings.py, analysis/game/settings.py) against tests/naive.py."""

from collections import Counter

import naive
import numba
import numpy as np
import pytest
from conftest import SEED, deal_hands
from hypothesis import given, settings
from hypothesis import strategies as st

from sapsam.game import settings as api
from sapsam.kernels import settings as ks
from sapsam.kernels.evaluate import WHEEL_SECOND, eval3, eval5

N_NAIVE_DEALS = 30
WHEEL_HANDS = [  # hands holding A-2-3-4-5 where the wheel option changes the answer
    "Ac 2d 3h 4s 5c 5d 9h Tc Jd Qh Ks 7c 8d",  # wheel and broadway straights
    "As 2s 3s 4s 5s 6s Ad Kd Qd Jd Td 9c 8c",  # steel wheel, 6-high straight flush, royal
    "Ah 2c 3d 4s 5h 2h 3c 4d 5s 9c 9d Kc Ks",  # two wheels
    "2c 3d 4h 5s 6c 2d 3h 4s 5c 6d Ac Kd Qh",  # twin 6-high straights: middle ties back
]
BIG_FRONTIER_HAND = "2s 3d 5h 6s 7d 8c Td Jd Qc Kc Ks Ac Ah"  # 2,875 members (of 20,000 deals the most)


def naive_deals():
    return deal_hands(np.random.default_rng(SEED + 1), N_NAIVE_DEALS)


@pytest.fixture(scope="module")
def deals():
    return naive_deals()


def legal_mask(rows):
    return (rows[:, 2] >= rows[:, 1]) & (rows[:, 1] >= rows[:, 0])


def triple_code(rows):
    """One int64 per strength triple, order-preserving lexicographically."""
    rows = np.asarray(rows, dtype=np.int64)
    return (rows[:, 0] << 26) | (rows[:, 1] << 13) | rows[:, 2]


def naive_as_strengths(pairs, wheel_second=False):
    """naive ``(split, key_triple)`` pairs -> {(split, strength triple)} on the kernel scale."""
    return {(s, naive.triple_strengths(t, wheel_second)) for s, t in pairs}


def kernel_members(frontier):
    return {(m.split, m.strengths) for m in frontier.members}


# ---- against the naive reference -------------------------------------------------------------

@pytest.mark.parametrize("i", range(N_NAIVE_DEALS))
def test_frontier_equals_naive(deals, i):
    hand = deals[i]
    cards = hand.tolist()
    legal = naive.legal_splits(cards)
    frontier = api.pareto_frontier(hand)

    assert frontier.legal == len(legal)
    assert api.legal_splits(hand).tolist() == [s for s, _ in legal]
    assert ks.count_legal(hand, False) == len(legal)
    assert frontier.distinct == len({t for _, t in legal})
    assert kernel_members(frontier) == naive_as_strengths(naive.pareto_frontier(cards))
    same_triple = Counter(naive.triple_strengths(t) for _, t in legal)
    assert [m.equivalent for m in frontier.members] == [same_triple[m.strengths]
                                                        for m in frontier.members]


@numba.njit(cache=True)
def _subsets_one_by_one(hand, wheel_second, s3, s5):
    """Each subset through the evaluators themselves, as ``ks.subset_strengths`` once did."""
    for i in range(ks.N_FRONTS):
        f = ks.FRONT_POSITIONS[i]
        s3[i] = eval3(hand[f[0]], hand[f[1]], hand[f[2]])
    for i in range(ks.N_FIVES):
        p = ks.FIVE_POSITIONS[i]
        s5[i] = eval5(hand[p[0]], hand[p[1]], hand[p[2]], hand[p[3]], hand[p[4]])
        if wheel_second:
            s5[i] = WHEEL_SECOND[s5[i]]


@pytest.mark.parametrize("wheel_second", [False, True])
def test_subset_strengths_equal_the_evaluators(rng, wheel_second):
    """The nested loops give every subset the strength eval5 and eval3 give it, on 3,000 random
    hands (one in four with five or more of a suit, and flushes among the subsets)."""
    got = (np.empty(ks.N_FRONTS, np.int16), np.empty(ks.N_FIVES, np.int16))
    want = (np.empty(ks.N_FRONTS, np.int16), np.empty(ks.N_FIVES, np.int16))
    for _ in range(3000):
        hand = np.sort(rng.choice(52, 13, replace=False)).astype(np.uint8)
        ks.subset_strengths(hand, wheel_second, *got)
        _subsets_one_by_one(hand, wheel_second, *want)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1]), hand


@pytest.mark.parametrize("i", range(5))
def test_all_split_strengths_equal_naive(deals, i):
    """Every one of the 72,072 splits, legal or not: same cards' strengths at the same index."""
    hand = deals[i]
    rows = api.split_strengths(hand)
    assert rows.shape == (ks.N_SPLITS, 3) and rows.dtype == np.int16
    want = [naive.triple_strengths(t) for _, t in naive.split_keys(hand.tolist())]
    assert rows.tolist() == [list(t) for t in want]


def test_split_cards_follow_convention(deals):
    hand = deals[0]
    for split, front, middle, back in naive.all_splits(hand.tolist()):
        if split % 997 == 0 or split == ks.N_SPLITS - 1:
            f, m, b = api.split_cards(hand, split)
            assert (tuple(f.tolist()), tuple(m.tolist()), tuple(b.tolist())) == (front, middle, back)


def test_pair_k_of_a_front_is_split_k_and_251_minus_k():
    """The frontier names a pair's two splits by arithmetic: pair k of front f puts "a" in
    the middle in split f * 252 + k and "b" in split f * 252 + 251 - k."""
    f = np.repeat(np.arange(ks.N_FRONTS), ks.N_PAIRS)
    k = np.tile(np.arange(ks.N_PAIRS), ks.N_FRONTS)
    a, b = ks.PAIR_A[f, k].astype(np.int64), ks.PAIR_B[f, k].astype(np.int64)
    assert np.array_equal(ks.SPLIT_ROWS[f * 252 + k], np.stack([f, a, b], axis=1))
    assert np.array_equal(ks.SPLIT_ROWS[f * 252 + 251 - k], np.stack([f, b, a], axis=1))


def test_naive_split_convention():
    """The first and last splits, spelled out by hand."""
    hand = list(range(0, 52, 4))  # 2c 3c ... Ac
    splits = list(naive.all_splits(hand))
    assert len(splits) == ks.N_SPLITS == 286 * 252
    assert [s for s, *_ in splits] == list(range(ks.N_SPLITS))
    assert splits[0][1:] == (tuple(hand[0:3]), tuple(hand[3:8]), tuple(hand[8:13]))
    assert splits[1][1:] == (tuple(hand[0:3]), tuple(hand[3:7] + [hand[8]]),
                             tuple([hand[7]] + hand[9:13]))
    assert splits[252][1:3] == (tuple(hand[0:2] + [hand[3]]), tuple([hand[2]] + hand[4:8]))
    assert splits[-1][1:] == (tuple(hand[10:13]), tuple(hand[5:10]), tuple(hand[0:5]))


def test_naive_frontier_sweep_equals_definition(deals):
    cards = deals[1].tolist()
    assert naive.pareto_frontier(cards) == naive.pareto_frontier_brute_force(cards)


@pytest.mark.parametrize("text", WHEEL_HANDS)
@pytest.mark.parametrize("wheel_rank", ["ace-low", "second"])
def test_wheel_modes_equal_naive(text, wheel_rank):
    second = wheel_rank == "second"
    cards = naive.cards(text)
    legal = naive.legal_splits(cards, second)
    frontier = api.pareto_frontier(text, wheel_rank=wheel_rank)
    assert frontier.legal == len(legal)
    assert frontier.distinct == len({t for _, t in legal})
    assert kernel_members(frontier) == naive_as_strengths(
        naive.pareto_frontier(cards, second), second)
    assert api.legal_splits(text, wheel_rank).tolist() == [s for s, _ in legal]
    hand = np.sort(np.array(cards, dtype=np.uint8))
    assert ks.count_legal(hand, second) == len(legal)
    rows = ks.split_strengths(hand, second)
    want = [naive.triple_strengths(t, second) for _, t in naive.split_keys(cards, second)]
    assert rows.tolist() == [list(t) for t in want]


@pytest.mark.parametrize("text", WHEEL_HANDS)
def test_wheel_mode_matters(text):
    """The option changes strengths and the frontier, but not the legal or distinct counts.

    The counts cannot change: a front is never a straight, so moving the wheel among the
    straights only reorders 5-card rows among themselves, which swaps which of middle and
    back is the legal orientation of a pair without changing how many are legal.
    """
    low = api.split_strengths(text, "ace-low")
    second = api.split_strengths(text, "second")
    assert not np.array_equal(low, second)
    frontier_low = api.pareto_frontier(text, wheel_rank="ace-low")
    frontier_second = api.pareto_frontier(text, wheel_rank="second")
    assert ([(m.split, m.strengths) for m in frontier_low.members]
            != [(m.split, m.strengths) for m in frontier_second.members])
    assert frontier_low.legal == frontier_second.legal
    assert frontier_low.distinct == frontier_second.distinct


def test_second_frontier_is_a_remap_where_the_wheel_rank_cannot_matter():
    """The simulator's shortcut: unless a hand holds A-2-3-4-5 and another straight's ranks,
    its frontier is the same under both wheel ranks, five-card rows remapped."""
    hands = list(deal_hands(np.random.default_rng(SEED + 7), 400))
    hands += [np.sort(np.array(naive.cards(text), dtype=np.uint8)) for text in WHEEL_HANDS]
    checked = matters = 0
    for hand in hands:
        if ks.wheel_rank_matters(hand):
            matters += 1
            continue
        _, splits, rows = ks.pareto_frontier(hand, False)
        _, want_splits, want_rows = ks.pareto_frontier(hand, True)
        got_splits = np.empty_like(splits)
        got_rows = np.empty_like(rows)
        ks.remap_wheel_second(len(splits), splits, rows, got_splits, got_rows)
        assert np.array_equal(got_splits, want_splits) and np.array_equal(got_rows, want_rows)
        checked += 1
    assert checked > 350 and matters >= 3  # WHEEL_HANDS[2] holds two wheels and no other straight
    assert not ks.wheel_rank_matters(np.sort(np.array(naive.cards(WHEEL_HANDS[2]), dtype=np.uint8)))


def test_bad_wheel_rank():
    with pytest.raises(ValueError, match="wheel_rank"):
        api.pareto_frontier(WHEEL_HANDS[0], wheel_rank="high")


@pytest.mark.parametrize("bad, error", [
    (np.arange(12), ValueError),
    (np.arange(14), ValueError),
    (np.array([0] * 13), ValueError),
    (np.arange(40, 53), ValueError),
    (np.arange(13, dtype=np.float64), TypeError),
    ("As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c", ValueError),
    ("As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c Xs", ValueError),
])
def test_hand_validation(bad, error):
    for function in (api.pareto_frontier, api.split_strengths, api.legal_splits):
        with pytest.raises(error):
            function(bad)


def test_several_hands_are_not_one_hand():
    """A (2, 13) array is two hands: the one-hand API must refuse it, not use row 0."""
    two = np.arange(26).reshape(2, 13)
    for function in (api.pareto_frontier, api.split_strengths, api.legal_splits):
        with pytest.raises(ValueError):
            function(two)


# ---- properties of the frontier, vectorised from split_strengths -----------------------------

def check_frontier(hand, frontier, rows):
    """The frontier is exactly the non-dominated legal triples, smallest split each."""
    ok = legal_mask(rows)
    splits = np.array([m.split for m in frontier.members], dtype=np.int64)
    front = np.array([m.strengths for m in frontier.members], dtype=np.int64).reshape(-1, 3)
    assert len(splits) > 0
    # members are legal splits and carry their own strengths
    assert np.all(ok[splits])
    assert np.array_equal(rows[splits], front)
    # pairwise: no member matches or beats another (so triples are distinct, too)
    ge = np.all(front[:, None, :] >= front[None, :, :], axis=2)
    np.fill_diagonal(ge, False)
    assert not ge.any()
    # every legal setting is matched or beaten in all rows by some member
    legal_rows = rows[ok].astype(np.int64)
    covered = np.zeros(len(legal_rows), dtype=bool)
    for chunk in np.array_split(np.arange(len(front)), max(1, len(front) // 64)):
        covered |= np.any(np.all(front[chunk, None, :] >= legal_rows[None, :, :], axis=2), axis=0)
    assert covered.all()
    # representatives: the smallest legal split with each triple
    legal_index = np.flatnonzero(ok)
    codes = triple_code(rows[ok])
    unique, first, counts = np.unique(codes, return_index=True, return_counts=True)
    where = np.searchsorted(unique, triple_code(front))
    assert np.array_equal(legal_index[first[where]], splits)
    # counts
    assert frontier.legal == ok.sum()
    assert frontier.distinct == len(unique)
    equivalents = np.array([m.equivalent for m in frontier.members])
    assert np.array_equal(equivalents, counts[where])
    assert equivalents.min() >= 1 and equivalents.sum() <= frontier.legal
    # order: front descending, then middle descending
    assert np.all(np.diff((front[:, 0] << 13) | front[:, 1]) < 0)


def test_frontier_properties_random(rng, deal):
    for hand in deal(rng, 20):
        check_frontier(hand, api.pareto_frontier(hand), api.split_strengths(hand).astype(np.int64))


@pytest.mark.parametrize("text", [
    "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d",  # README demo
    "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac",  # dragon in one suit
    "2c 2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s Ac",  # three sets of quads
    "2c 3d 4h 5s 7c 8d 9h Js Qc Kd 6h Ts Ac",  # rainbow run
    "Ac Ad Ah As Kc Kd Kh Ks Qc Qd Qh Qs Jc",
    "2c 3d 5h 7s 9c Jd Kh 4c 6d 8h Ts Qc Ad",  # no pair, every rank once
    BIG_FRONTIER_HAND,
] + WHEEL_HANDS)
def test_frontier_properties_special(text):
    for wheel_rank in ("ace-low", "second"):
        frontier = api.pareto_frontier(text, wheel_rank=wheel_rank)
        check_frontier(frontier.hand, frontier, api.split_strengths(text, wheel_rank).astype(np.int64))


def test_frontier_of_unsorted_input_refers_to_sorted_hand(rng, deal):
    hand = deal(rng, 1, sort=False)[0]
    frontier = api.pareto_frontier(hand)
    assert frontier.hand.tolist() == sorted(hand.tolist())
    for m in frontier.members[:10]:
        f, mid, b = api.split_cards(frontier.hand, m.split)
        assert sorted(np.concatenate([f, mid, b]).tolist()) == sorted(hand.tolist())
        assert (m.front.tolist(), m.middle.tolist(), m.back.tolist()) == (f.tolist(), mid.tolist(), b.tolist())


# ---- invariance under suit permutation ----------------------------------------------------------

def frontier_summary(hand, wheel_rank="ace-low"):
    f = api.pareto_frontier(hand, wheel_rank=wheel_rank)
    return f.legal, f.distinct, sorted(m.strengths for m in f.members), \
        sorted(m.equivalent for m in f.members)


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(deck=st.permutations(range(52)), suits=st.permutations(range(4)))
def test_suit_permutation_invariance(deck, suits):
    hand = np.array(deck[:13], dtype=np.uint8)
    relabelled = (hand & ~np.uint8(3)) | np.array(suits, dtype=np.uint8)[hand & 3]
    assert frontier_summary(relabelled) == frontier_summary(hand)


def test_suit_permutation_invariance_wheel_hands():
    for text in WHEEL_HANDS:
        hand = np.array(naive.cards(text), dtype=np.uint8)
        for suits in ([1, 2, 3, 0], [3, 2, 1, 0], [0, 2, 1, 3]):
            relabelled = (hand & ~np.uint8(3)) | np.array(suits, dtype=np.uint8)[hand & 3]
            for wheel_rank in ("ace-low", "second"):
                assert frontier_summary(relabelled, wheel_rank) == frontier_summary(hand, wheel_rank)


# ---- batch = one by one, any thread count, any capacity ---------------------------------------

@pytest.fixture(scope="module")
def batch_hands():
    return deal_hands(np.random.default_rng(SEED + 2), 200)


@pytest.fixture(scope="module")
def one_by_one(batch_hands):
    return [ks.pareto_frontier(h, False) for h in batch_hands]


def assert_batch_equals(result, one_by_one):
    legal, offsets, splits, rows = result
    assert legal.dtype == np.int64 and offsets.dtype == np.int64
    assert splits.dtype == np.int32 and rows.dtype == np.int16
    assert len(legal) == len(one_by_one) and offsets[0] == 0 and offsets[-1] == len(splits)
    for i, (want_legal, want_splits, want_rows) in enumerate(one_by_one):
        assert legal[i] == want_legal
        assert np.array_equal(splits[offsets[i]:offsets[i + 1]], want_splits)
        assert np.array_equal(rows[offsets[i]:offsets[i + 1]], want_rows)


@pytest.fixture
def restore_threads():
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)


@pytest.mark.parametrize("capacity", [512, 64, 4, 1])
def test_batch_equals_one_by_one(batch_hands, one_by_one, capacity, restore_threads):
    sizes = np.array([len(s) for _, s, _ in one_by_one])
    assert (sizes > capacity).any()  # the overflow-recompute path runs...
    if capacity > 1:
        assert (sizes <= capacity).any()  # ...beside the padded path
    results = []
    for threads in (1, 2):
        if threads > numba.config.NUMBA_NUM_THREADS:
            pytest.skip("needs 2 Numba threads")
        numba.set_num_threads(threads)
        results.append(ks.pareto_frontier_batch(batch_hands, False, capacity=capacity))
    results.append(ks.pareto_frontier_batch(batch_hands, False, capacity=capacity, parallel=False))
    for result in results:
        assert_batch_equals(result, one_by_one)
    for result in results[1:]:
        for a, b in zip(result, results[0]):
            assert np.array_equal(a, b)


def test_batch_default_capacity_overflow():
    """Hands with more members than the capacity, between hands that fit."""
    big = np.sort(np.array(naive.cards(BIG_FRONTIER_HAND), dtype=np.uint8))
    small = np.sort(np.array(naive.cards(WHEEL_HANDS[0]), dtype=np.uint8))
    _, splits, rows = ks.pareto_frontier(big, False)
    _, small_splits, small_rows = ks.pareto_frontier(small, False)
    assert len(splits) > 512 > len(small_splits)
    hands = np.stack([small, big, small, big])
    legal, offsets, got_splits, got_rows = ks.pareto_frontier_batch(hands, False)
    assert np.array_equal(got_splits, np.concatenate([small_splits, splits] * 2))
    assert np.array_equal(got_rows, np.concatenate([small_rows, rows] * 2))


def test_api_batch_equals_per_hand(batch_hands, restore_threads):
    unsorted = np.random.default_rng(SEED + 3).permuted(batch_hands[:40], axis=1)
    cards, legal, offsets, splits, rows = api.pareto_frontier_batch(unsorted)
    assert np.array_equal(cards, batch_hands[:40])
    for i, hand in enumerate(unsorted):
        frontier = api.pareto_frontier(hand)
        assert legal[i] == frontier.legal
        assert splits[offsets[i]:offsets[i + 1]].tolist() == [m.split for m in frontier.members]
        assert [tuple(r) for r in rows[offsets[i]:offsets[i + 1]].tolist()] == [
            m.strengths for m in frontier.members]


def test_batch_wheel_second(restore_threads):
    hands = np.sort(np.array([naive.cards(t) for t in WHEEL_HANDS], dtype=np.uint8), axis=1)
    legal, offsets, splits, rows = ks.pareto_frontier_batch(hands, True, capacity=4)
    for i, hand in enumerate(hands):
        want_legal, want_splits, want_rows = ks.pareto_frontier(hand, True)
        assert legal[i] == want_legal
        assert np.array_equal(splits[offsets[i]:offsets[i + 1]], want_splits)
        assert np.array_equal(rows[offsets[i]:offsets[i + 1]], want_rows)


def test_batch_of_no_hands():
    legal, offsets, splits, rows = ks.pareto_frontier_batch(np.empty((0, 13), np.uint8))
    assert len(legal) == 0 and offsets.tolist() == [0] and len(splits) == 0 and rows.shape == (0, 3)


# ---- Setting.equivalent and frontier sizes ------------------------------------------------------

def test_equivalent_counts(deals):
    for hand in deals[:3]:
        frontier = api.pareto_frontier(hand)
        counts = Counter(naive.triple_strengths(t) for _, t in naive.legal_splits(hand.tolist()))
        assert [m.equivalent for m in frontier.members] == [counts[m.strengths] for m in frontier.members]
        assert sum(m.equivalent for m in frontier.members) <= frontier.legal
        assert sum(counts.values()) == frontier.legal


def test_setting_text_and_describe():
    # counts agree with naive.legal_splits / distinct_triples / pareto_frontier on this hand
    frontier = api.pareto_frontier("As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d")
    assert (frontier.legal, frontier.distinct, len(frontier.members)) == (21_100, 5_952, 7)
    best_back = max(frontier.members, key=lambda m: m.strengths[2])
    assert best_back.describe()[2] == "Straight, ace high"
    for m in frontier.members:
        front, middle, back = (part.split() for part in m.text.split(" | "))
        assert (len(front), len(middle), len(back)) == (3, 5, 5)
        assert len(m.describe()) == 3


def test_split_strengths_batch_equals_one_hand_at_a_time(rng):
    """The batch of all splits (and their legality) equals the per-hand API, with any order of
    cards in a row."""
    hands = np.stack([rng.permutation(52)[:13] for _ in range(6)]).astype(np.uint8)
    cards, rows, legal = api.split_strengths_batch(hands)
    assert rows.shape == (6, 72072, 3) and legal.shape == (6, 72072)
    for i in range(6):
        assert np.array_equal(cards[i], np.sort(hands[i]))
        one = api.split_strengths(hands[i])
        assert np.array_equal(rows[i], one)
        assert np.array_equal(np.flatnonzero(legal[i]), api.legal_splits(hands[i]))
        assert legal[i].sum() == api.pareto_frontier(hands[i]).legal
