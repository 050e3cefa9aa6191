"""Opponent policies (kernels/policies.py, analysis/play/policy.py).

Every policy returns a legal setting (checked with the plain-Python hand keys of
tests/naive.py); ``balanced`` and ``table`` never pick a dominated one; ``greedy`` is exactly
"best back, then best middle"; ``random`` is uniform over the legal settings; the batch
driver ``play_hands`` agrees with ``decide`` and does not depend on the thread count.
"""

import dataclasses
from functools import cache
from itertools import chain, combinations, product

import naive
import numba
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sapsam.game.cards import parse_hand
from sapsam.game.hands import rank3, rank5
from sapsam.game.ruleset_files import load_ruleset, ruleset_ids
from sapsam.game.settings import pareto_frontier, split_cards, split_strengths
from sapsam.kernels import policies as KP
from sapsam.kernels import value as KV
from sapsam.kernels.evaluate import N_STRENGTHS
from sapsam.kernels.lowball import rank5_low
from sapsam.kernels.naturals import best_natural
from sapsam.play.policy import Policy, row_percentiles
from sapsam.play.seeds import Stream
from sapsam.strategy.fit import balanced_field
from sapsam.strategy.registry import make_policy

POLICY_NAMES = ("random", "greedy", "balanced", "table")
# (ruleset, players): the standard table (royalties, naturals, surrender) and heads-up 2-4
TABLES = (("standard", 4), ("two-four", 2))

hands_13 = st.permutations(list(range(52))).map(lambda p: np.array(sorted(p[:13]), np.uint8))
# A-2-3-4-5 and 2-3-4-5-6 in one hand: the greedy back depends on where the wheel ranks
WHEEL_AND_SIX_HIGH = "Ac 2d 3h 4s 5c 6d 9h 9c Jd Jh Ks Kc 8d"


@cache
def rules_of(rules_id):
    if rules_id == "standard-wheel-second":  # standard with A-2-3-4-5 the second-best straight
        return dataclasses.replace(load_ruleset("standard"), id=rules_id, wheel_rank="second")
    return load_ruleset(rules_id)


@cache
def policy_of(name, rules_id, players):
    return make_policy(name, rules_of(rules_id), players)


def wheel_second(rules):
    return str(rules.wheel_rank) == "second"


def decide(hand, policy, rules, players, state=None):
    """The kernel's decision: (split, natural, natural_key, surrender)."""
    compiled = rules.compile()
    state = np.array([12345], np.uint64) if state is None else state
    search = KP.searchable(*policy.arrays, compiled.params)
    return KP.decide(hand, hand[:0], *policy.arrays, compiled.params, compiled.naturals, players - 1, search, state,
                     KP.policy_scratch())


def setting_keys(hand, split, wheel=False):
    """Cards and naive key triple of split ``split`` of a sorted hand."""
    rows = [tuple(int(c) for c in row) for row in split_cards(hand, split)]
    return rows, tuple(naive.hand_key(row, wheel) for row in rows)


@pytest.fixture(scope="module", autouse=True)
def warm_policies():
    """Compile (or load) the policy kernels once for this module."""
    hand = np.sort(parse_hand(WHEEL_AND_SIX_HIGH))
    for name in POLICY_NAMES:
        for rules_id, players in TABLES:
            p = policy_of(name, rules_id, players)
            decide(hand, p, rules_of(rules_id), players)
    p = policy_of("random", "two-four", 2)
    c = rules_of("two-four").compile()
    KP.play_hands(hand[None], p.arrays, c.arrays, 1,
                  Stream(0, "field").states(1))


# --------------------------------------------------------------------------------------------
# Legal and undominated
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules_id, players", TABLES)
@pytest.mark.parametrize("name", POLICY_NAMES)
@settings(database=None, derandomize=True, max_examples=40, deadline=None)
@given(hand=hands_13)
def test_every_decision_is_legal(name, rules_id, players, hand):
    rules = rules_of(rules_id)
    compiled = rules.compile()
    split, natural, key, surrender = decide(hand, policy_of(name, rules_id, players), rules, players)
    if split < 0:
        # only ``table`` declares naturals or surrenders, and only what the ruleset has
        assert name == "table", (name, split)
        if natural >= 0:
            index, expected_key = best_natural(hand, compiled.naturals)
            assert (natural, key) == (index, expected_key)
            assert not surrender
        else:
            assert surrender and str(rules.surrender.mode) != "none"
        return
    assert 0 <= split < 72072 and natural == -1 and not surrender
    rows, keys = setting_keys(hand, split, wheel_second(rules))
    assert sorted(sum(rows, ())) == hand.tolist()
    assert naive.is_legal(keys), f"{name} fouled: {[naive.card_text(c) for r in rows for c in r]}"
    # the kernel's strength triple of the split is the naive one
    assert tuple(int(v) for v in KP.split_rows(hand, split, rules.compile().params)) == \
        naive.triple_strengths(keys, wheel_second(rules))


@pytest.mark.parametrize("rules_id, players", TABLES)
@pytest.mark.parametrize("name", ("balanced", "table"))
@settings(database=None, derandomize=True, max_examples=40, deadline=None)
@given(hand=hands_13)
def test_frontier_policies_never_pick_a_dominated_setting(name, rules_id, players, hand):
    rules = rules_of(rules_id)
    split, _, _, _ = decide(hand, policy_of(name, rules_id, players), rules, players)
    if split < 0:
        assert name == "table"
        return
    chosen = tuple(int(v) for v in KP.split_rows(hand, split, rules.compile().params))
    frontier = {m.strengths for m in pareto_frontier(hand, wheel_rank=str(rules.wheel_rank)).members}
    assert chosen in frontier, f"{name} chose {chosen}, not one of the {len(frontier)} frontier triples"


def all_five_card_hands():
    """All 2,598,960 five-card hands: ndarray(uint8), shape (2598960, 5)."""
    flat = np.fromiter(chain.from_iterable(combinations(range(52), 5)), np.uint8, count=2598960 * 5)
    return flat.reshape(-1, 5)


def test_row_percentiles_are_exact():
    """``balanced`` ranks rows by percentile among all 22,100 fronts / 2,598,960 fives, and the
    fives as 2-7 lows for a low middle (ties half)."""
    got = row_percentiles()
    fronts = np.array(list(combinations(range(52), 3)), np.uint8)
    fives = all_five_card_hands()
    for row, strengths, total in ((0, rank3(fronts), 22100), (1, rank5(fives), 2598960),
                                  (2, rank5_low(fives), 2598960)):
        counts = np.bincount(strengths.astype(np.int64), minlength=N_STRENGTHS)
        assert counts.sum() == total
        present = counts > 0
        below = np.cumsum(counts) - counts  # strictly weaker hands
        expected = (below + counts / 2) / total
        np.testing.assert_allclose(got[row][present], expected[present], rtol=0, atol=1e-12)
        assert np.all(np.diff(got[row][present]) > 0)


@settings(database=None, derandomize=True, max_examples=30, deadline=None)
@given(hand=hands_13)
def test_balanced_maximises_the_sum_of_row_percentiles(hand):
    """The rule of thumb in kernels/policies.py: the frontier setting of largest summed percentile."""
    rules = rules_of("standard")
    split, _, _, _ = decide(hand, policy_of("balanced", "standard", 4), rules, 4)
    pct = row_percentiles()

    def value(t):
        return pct[0, t[0]] + pct[1, t[1]] + pct[1, t[2]]

    members = pareto_frontier(hand).members
    best = max(value(m.strengths) for m in members)
    chosen = tuple(int(v) for v in KP.split_rows(hand, split, load_ruleset("basic").compile().params))
    assert value(chosen) == pytest.approx(best, abs=1e-12)


def independent_rows_ev(triple, row_mass, base, opponents):
    """EV against ``opponents`` players whose rows are independent draws from ``row_mass``
    (written from RULES.md A2: per-row one unit per row; two-four adds an overall unit)."""
    outcome = []  # per row: P(win), P(tie), P(loss)
    for k, s in enumerate(triple):
        w = row_mass[k, :s].sum()
        t = row_mass[k, s]
        outcome.append((w, t, 1.0 - w - t))
    ev = sum(win - loss for win, _, loss in outcome)
    if base == "two-four":
        for a in range(3):
            for b in range(3):
                for c in range(3):
                    p = outcome[0][a] * outcome[1][b] * outcome[2][c]
                    wins = (a, b, c).count(0)
                    losses = (a, b, c).count(2)
                    ev += p * ((wins > losses) - (losses > wins))
    return ev * opponents


@pytest.mark.parametrize("rules_id, players", (("basic", 4), ("two-four", 2), ("two-four", 3)))
@settings(database=None, derandomize=True, max_examples=25, deadline=None)
@given(hand=hands_13, mass_seed=st.integers(0, 2**32 - 1))
def test_table_maximises_ev_against_independent_rows(rules_id, players, hand, mass_seed):
    """Without royalties, naturals or surrender the table policy's objective has a closed form."""
    rules = rules_of(rules_id)
    mass = np.random.default_rng(mass_seed).random((3, N_STRENGTHS)) ** 6
    mass /= mass.sum(axis=1, keepdims=True)
    policy = Policy.from_row_mass("table", mass, rules, "test")
    split, natural, _, surrender = decide(hand, policy, rules, players)
    assert split >= 0 and natural == -1 and not surrender
    base = str(rules.scoring.base)
    values = {m.strengths: independent_rows_ev(m.strengths, mass, base, players - 1)
              for m in pareto_frontier(hand).members}
    chosen = tuple(int(v) for v in KP.split_rows(hand, split, load_ruleset("basic").compile().params))
    assert values[chosen] == pytest.approx(max(values.values()), abs=1e-9), \
        f"table chose EV {values[chosen]:.6f}, best frontier EV {max(values.values()):.6f}"


# --------------------------------------------------------------------------------------------
# Greedy
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules_id", ("standard", "standard-wheel-second"))
@settings(database=None, derandomize=True, max_examples=40, deadline=None)
@example(hand=np.sort(parse_hand(WHEEL_AND_SIX_HIGH)))
@example(hand=np.sort(parse_hand("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s")))
@example(hand=np.sort(parse_hand("As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qd Qc 2s")))
@given(hand=hands_13)
def test_greedy_takes_the_best_back_then_the_best_middle(rules_id, hand):
    rules = rules_of(rules_id)
    wheel = wheel_second(rules)
    split, _, _, _ = decide(hand, policy_of("greedy", "standard", 4), rules, 4)
    (front, middle, back), keys = setting_keys(hand, split, wheel)
    best_back, _ = naive.best_five(hand.tolist(), wheel)
    assert keys[2] == best_back, "greedy's back is not the best five of the 13 cards"
    left = sorted(set(hand.tolist()) - set(back))
    best_middle, _ = naive.best_five(left, wheel)
    assert keys[1] == best_middle, "greedy's middle is not the best five of the other eight"
    assert sorted(front) == sorted(set(left) - set(middle))
    # and the plain setter of tests/naive.py makes the same rows
    ref = naive.greedy_setting(hand.tolist(), wheel)
    assert tuple(naive.hand_key(r, wheel) for r in ref) == keys


def test_greedy_respects_the_wheel_rank():
    """With the wheel second-highest, greedy's back is A-2-3-4-5, not 2-3-4-5-6."""
    hand = np.sort(parse_hand(WHEEL_AND_SIX_HIGH))
    backs = {}
    for rules_id in ("standard", "standard-wheel-second"):
        rules = rules_of(rules_id)
        split, _, _, _ = decide(hand, policy_of("greedy", "standard", 4), rules, 4)
        backs[rules_id] = sorted(naive.card_text(c) for c in split_cards(hand, split)[2])
    assert "Ac" not in backs["standard"] and "6d" in backs["standard"]
    assert "Ac" in backs["standard-wheel-second"] and "6d" not in backs["standard-wheel-second"]


# --------------------------------------------------------------------------------------------
# Random
# --------------------------------------------------------------------------------------------

# The fewest legal settings among 20,000 random hands (seed 1): 17,429 of 72,072.
FEW_LEGAL = "2h 3h 4c 5s 6s 7d 9d Ts Js Qh Kc Ah As"


def test_random_is_uniform_over_legal_settings():
    hand = np.sort(parse_hand(FEW_LEGAL))
    rows = split_strengths(hand)
    legal = (rows[:, 2] >= rows[:, 1]) & (rows[:, 1] >= rows[:, 0])
    n_legal = int(legal.sum())
    assert n_legal == 17429
    rules = rules_of("two-four")
    policy = policy_of("random", "two-four", 2)
    compiled = rules.compile()
    state = Stream(99, "field").states(1)
    scratch = KP.policy_scratch()
    draws = 10 * n_legal
    splits = np.empty(draws, np.int64)
    for i in range(draws):
        splits[i] = KP.decide(hand, hand[:0], *policy.arrays, compiled.params, compiled.naturals, 1, False,
                              state, scratch)[0]
    counts = np.bincount(splits, minlength=72072)
    assert counts[~legal].sum() == 0, "random drew an illegal split"
    # per split: chi-square with n_legal - 1 degrees of freedom (10 expected per cell); accept
    # within 5 standard deviations of its mean (sd = sqrt(2 df))
    expected = draws / n_legal
    chi2 = ((counts[legal] - expected) ** 2 / expected).sum()
    df = n_legal - 1
    assert abs(chi2 - df) < 5 * np.sqrt(2 * df), f"per-split chi2 {chi2:.0f}, df {df}"
    # per front (286 cells, uneven expected counts): a sharper look at systematic bias
    by_front = np.bincount(np.arange(72072) // 252, weights=legal, minlength=286)
    seen = np.bincount(splits // 252, minlength=286)
    used = by_front > 0
    assert seen[~used].sum() == 0
    expected_front = draws * by_front[used] / n_legal
    chi2_front = ((seen[used] - expected_front) ** 2 / expected_front).sum()
    df_front = int(used.sum()) - 1
    assert abs(chi2_front - df_front) < 5 * np.sqrt(2 * df_front), \
        f"per-front chi2 {chi2_front:.1f}, df {df_front}"


def test_random_depends_on_its_state():
    hand = np.sort(parse_hand(FEW_LEGAL))
    policy = policy_of("random", "two-four", 2)
    rules = rules_of("two-four")

    def run(seed):
        state = Stream(seed, "field").states(1)
        return [decide(hand, policy, rules, 2, state)[0] for _ in range(20)]

    assert run(1) == run(1)
    assert run(1) != run(2)
    assert len(set(run(1))) > 15  # 20 draws among 17,429 settings: repeats are rare


# --------------------------------------------------------------------------------------------
# play_hands: the batch driver
# --------------------------------------------------------------------------------------------


def play(name, rules_id, players, hands, seed=0, chunks=8):
    rules = rules_of(rules_id)
    p = policy_of(name, rules_id, players)
    c = rules.compile()
    return KP.play_hands(hands, p.arrays, c.arrays, players - 1,
                         Stream(seed, "field").states(chunks))


@pytest.mark.parametrize("rules_id, players", TABLES)
@pytest.mark.parametrize("name", POLICY_NAMES)
def test_play_hands_matches_decide(name, rules_id, players, rng, deal):
    hands = deal(rng, 60)
    rules = rules_of(rules_id)
    rows, natural, key, surrender = play(name, rules_id, players, hands)
    for i, hand in enumerate(hands):
        if rows[i, 0] < 0:
            assert name == "table" and (natural[i] >= 0 or surrender[i])
            continue
        assert natural[i] == -1 and not surrender[i]
        assert rows[i, 2] >= rows[i, 1] >= rows[i, 0], f"hand {i}: {rows[i]} fouls"
        if name == "random":
            continue
        split, nat, k, sur = decide(hand, policy_of(name, rules_id, players), rules, players)
        if split < 0:
            pytest.fail(f"decide declared for hand {i} but play_hands did not")
        assert tuple(rows[i]) == tuple(KP.split_rows(hand, split, rules.compile().params))


def test_play_hands_does_not_depend_on_the_thread_count(rng, deal, restore_threads):
    hands = deal(rng, 200)
    out = {}
    for threads in (1, 2):
        numba.set_num_threads(threads)
        out[threads] = [play(name, "standard", 4, hands, seed=5) for name in ("random", "table")]
    for a, b in zip(out[1], out[2]):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
    # another seed changes what random does, not what the deterministic table policy does
    other_random = play("random", "standard", 4, hands, seed=6)
    assert not np.array_equal(other_random[0], out[1][0][0])
    np.testing.assert_array_equal(play("table", "standard", 4, hands, seed=6)[0], out[1][1][0])


def test_balanced_field_is_a_distribution():
    """``table``'s field: per-row strength distributions of balanced players."""
    mass = balanced_field(4)
    assert mass.shape == (3, N_STRENGTHS)
    np.testing.assert_allclose(mass.sum(axis=1), 1.0, atol=1e-12)
    fronts = np.zeros(N_STRENGTHS, bool)
    fronts[rank3(np.array(list(combinations(range(52), 3)), np.uint8))] = True
    assert fronts.sum() == 455 and N_STRENGTHS == 455 + 7462  # the two scales are disjoint
    assert mass[0, ~fronts].sum() == 0, "front mass on strengths no three cards make"
    assert mass[1:, fronts].sum() == 0, "middle/back mass on 3-card strengths"
    mean = mass @ np.arange(N_STRENGTHS)
    assert mean[0] < mean[1] < mean[2]


# --------------------------------------------------------------------------------------------
# The table policy's EV model, term by term, against the settlement kernel
# --------------------------------------------------------------------------------------------


def small_field(rng):
    """Per-row strength distributions on a few strengths each, chosen so that any draw of
    three rows is a legal setting and the rows reach royalty categories: fronts up to a pair
    of queens or trips, middles from two pair to a full house, backs from a straight up."""
    from sapsam.kernels.evaluate import CATEGORY_OF, FLUSH5, NONFLUSH5, RANK3_TABLE

    three = np.unique(RANK3_TABLE)
    five = np.union1d(np.unique(NONFLUSH5[NONFLUSH5 >= 0]), np.unique(FLUSH5[FLUSH5 >= 0]))
    cat = CATEGORY_OF
    fronts = three[(cat[three] <= 1) | (cat[three] == 3)]  # high card, pair, trips
    fronts = fronts[fronts < five[cat[five] == 2].min()]  # below every two pair
    middles = five[(cat[five] >= 2) & (cat[five] <= 6)]
    backs = five[cat[five] >= 4]
    support = [np.sort(rng.choice(fronts, 4, replace=False)),
               np.sort(rng.choice(middles[middles <= np.median(middles)], 4, replace=False)),
               np.sort(rng.choice(backs[backs >= np.median(middles)], 4, replace=False))]
    mass = np.zeros((3, N_STRENGTHS))
    for k in range(3):
        mass[k, support[k]] = rng.dirichlet(np.ones(4))
    return mass, support


def settled_ev(rules, triple, mass, support, opponents):
    """Exact EV of ``triple`` against ``opponents`` independent draws from ``mass``: every
    combination of the opponents' rows settled by the kernel and weighed (seat 0 the bank)."""
    from sapsam.game.score import points_scale, settle_tables

    draws = list(product(*support))  # one opponent's settings (rows independent)
    weights = np.array([mass[0, a] * mass[1, b] * mass[2, c] for a, b, c in draws])
    tables, probability = [], []
    for combo in product(range(len(draws)), repeat=opponents):
        tables.append([triple] + [draws[i] for i in combo])
        probability.append(np.prod(weights[list(combo)]))
    points = settle_tables(rules, np.array(tables, np.int16), bank=np.zeros(len(tables), np.int64))
    return float(np.dot(probability, points[:, 0])) / points_scale(rules)


def exact_model(rules_id):
    """Whether the EV model is exact for a ruleset (given independent rows): pairwise games
    without the overall point or a scoop multiplier.  Elsewhere it approximates: the overall
    point goes to whoever is ahead in units (the model: ahead in rows), a multiplier scales
    everything between two players (the model: 3 units and the row gain), a bank wins tied
    rows, and the pool and single-winner games pay by what the other players hold."""
    s = load_ruleset(rules_id).scoring
    return (str(s.game) == "pairwise" and not s.overall_point and s.scoop_multiplier == 1
            and s.home_run_multiplier == 1)


@pytest.mark.parametrize("rules_id", [r for r in ruleset_ids() if exact_model(r)])
def test_setting_ev_is_the_expected_settlement(rules_id):
    """``setting_ev`` (row gains, royalties in every mode, the base's extras, the sweep bonus)
    equals the exact expectation of the kernel's settlement against an opponent whose rows
    are independent draws from the field: the model's one assumption."""
    rules = load_ruleset(rules_id)
    compiled = rules.compile()
    rng = np.random.default_rng(sum(map(ord, rules_id)))
    values = np.empty(KV.N_VALUES)
    KV.outcome_values(compiled.params, values)
    for _ in range(3):
        mass, support = small_field(rng)
        tables = KV.ev_tables(mass, compiled.params, compiled.royalty, 0.0)
        # own rows drawn from the same supports: ties in every row are exercised
        triple = tuple(int(rng.choice(support[k])) for k in range(3))
        got = KV.setting_ev(np.array(triple, np.int16), tables, values, compiled.params, 1)
        want = settled_ev(rules, triple, mass, support, 1)
        assert got == pytest.approx(want, abs=1e-9), f"{rules_id} {triple}: model {got}, settled {want}"


@pytest.mark.parametrize("rules_id", ("vietnamese", "taiwanese"))
def test_the_model_values_a_home_run_as_the_settlement_pays_it(rules_id):
    """Sweeping every opponent (a home run) pays more than a sweep.  At a table of three the
    model values it (the setting sweeps each opponent alone, 3 units a pair; an opponent sweeps
    the other at the field's rate).  What the home run adds, the model's value less that of
    the same ruleset with its home run paid as a sweep, is within 15% of what it adds to the
    exact settlement against independent rows, on average over strong settings and fields
    (the sweep's own term, which the two share, is approximate: see exact_model)."""
    rules = load_ruleset(rules_id)
    plain = dataclasses.replace(rules, id=f"{rules_id}-no-home-run", scoring=dataclasses.replace(
        rules.scoring, home_run_multiplier=rules.scoring.scoop_multiplier))
    compiled, flat = rules.compile(), plain.compile()
    values = np.empty(KV.N_VALUES)
    KV.outcome_values(compiled.params, values)
    rng = np.random.default_rng(3)
    model, settled = [], []
    for _ in range(4):
        mass, support = small_field(rng)
        tables = KV.ev_tables(mass, compiled.params, compiled.royalty, 0.0)
        assert KV.monotone(KV.SUMMED, tables, values, None, compiled.params)
        for _ in range(3):
            triple = tuple(int(rng.choice(support[k][2:])) for k in range(3))  # strong rows sweep
            rows = np.array(triple, np.int16)
            model.append(KV.setting_ev(rows, tables, values, compiled.params, 2)
                         - KV.setting_ev(rows, tables, values, flat.params, 2))
            settled.append(settled_ev(rules, triple, mass, support, 2)
                           - settled_ev(plain, triple, mass, support, 2))
    model, settled = np.array(model), np.array(settled)
    assert settled.mean() > 0.1  # the home run is worth something here
    assert np.abs(model - settled).mean() < 0.15 * settled.mean(), (model, settled)


@pytest.mark.parametrize("rules_id", ruleset_ids())
def test_outcome_values_depend_only_on_wins_minus_losses(rules_id):
    """The EV sum dots the back's outcomes once per net result of front and middle, which is
    exact (bit for bit) only if outcomes with equal wins minus losses have identical values."""
    values = np.empty(KV.N_VALUES)
    KV.outcome_values(load_ruleset(rules_id).compile().params, values)
    net = {}
    for a, b, c in product(range(3), repeat=3):
        d = sum((x == 0) - (x == 2) for x in (a, b, c))
        net.setdefault(d, set()).add(values[9 * a + 3 * b + c])
    assert all(len(v) == 1 for v in net.values()), net
    assert net[3] == {-x for x in net[-3]}  # and zero-sum, as a two-player payment is


def test_the_exact_model_covers_royalties_and_extras():
    """The rulesets above span every royalty mode and base (so the test is not vacuous)."""
    exact = [load_ruleset(r) for r in ruleset_ids() if exact_model(r)]
    assert {str(r.royalties.mode) for r in exact if r.royalties.front or r.royalties.back} == {"instead", "extra"}
    assert {str(r.scoring.base) for r in exact} == {"per-row", "two-four", "one-six", "two-of-three"}
    assert any(r.scoring.sweep_bonus for r in exact)
