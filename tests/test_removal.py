"""Card removal (sapsam.kernels.removal): a fitted policy's field corrected for the hand's cards.

The kernels never build a hand's corrected tables; they read each needed entry from per-bin
sums.  The reference here builds them: the field's mass times each bin's factor, renormalised,
through the same ``ev_tables`` as a plain ``table`` policy, and the frontier member of highest
value under them.  The kernels' decisions must be those (up to rounding on exact ties).
"""

import numpy as np
import pytest
from reference_decide import _best

from sapsam.game.cards import parse_hand
from sapsam.game.ruleset_files import load_ruleset
from sapsam.kernels import policies as KP
from sapsam.kernels import removal as KR
from sapsam.kernels import settle as S
from sapsam.kernels import value as KV
from sapsam.kernels.evaluate import N_STRENGTHS, THREE_CARD
from sapsam.kernels.settings import _frontier, frontier_scratch
from sapsam.play.deal import deal_sorted_hands
from sapsam.play.policy import Policy
from sapsam.play.seeds import Stream
from sapsam.play.strategy_files import find_strategy, load_removal, load_strategy
from sapsam.strategy.fit import fit_and_save, fit_removal
from sapsam.strategy.registry import make_policy

# rows and extras (standard), heads-up (two-four), royalties always paid and a sweep multiplier
# (taiwanese), royalties instead of the unit (vietnamese), a closed form (pagat-pool)
CASES = [("standard", 4), ("two-four", 2), ("taiwanese", 4), ("vietnamese", 4), ("pagat-pool", 4)]


def model_policy(rules, players, scale=1.0, with_copula=False):
    """The shipped fit's policy with a card-removal model: the shipped one, or (for a file
    without one) a model of random numbers of a realistic size (the kernels' arithmetic is
    what is tested, not the fit); ``with_copula``: and the shipped fit's field copula, if it has
    one (the rows' arithmetic alone, without)."""
    path = find_strategy(rules, players)
    mass, rate = load_strategy(path)
    model = load_removal(path)
    if model is None:
        rng = np.random.default_rng(7)
        gamma = rng.normal(0, 0.05, (3, KR.N_BINS, KR.N_FEATURES))
        x = np.zeros((200, KR.N_FEATURES))
        KR.many_features(np.stack(deal_sorted_hands(200, Stream(12, "hands"))), False, x)
        model = (gamma, x.mean(axis=0), KR.removal_edges(mass), None)  # about the features' means
    gamma, xmean, edges, copula = model
    model = (gamma * scale, xmean, edges, copula if with_copula else None)
    return Policy.from_row_mass("fitted", mass, rules, str(path), rate, model), mass


def corrected_tables(hand, policy, mass, rules):
    """The EV tables of the field less the hand's cards, built whole (the reference)."""
    compiled = rules.compile()
    x = np.zeros(KR.N_FEATURES)
    KR.hand_features(hand, hand[:0], x)
    removal = policy.removal
    x = x[:removal.xmean.size]  # the model's own features
    g = np.maximum(np.einsum("kfb,f->kb", removal.gamma[:, :x.size], x - removal.xmean), -1.0)
    corrected = mass * (1.0 + np.take_along_axis(g, removal.bin_of[:, :N_STRENGTHS], axis=1))
    corrected /= corrected.sum(axis=1, keepdims=True)
    return KV.ev_tables(corrected, compiled.params, compiled.royalty,
                        float(policy.tables[KV.SURRENDER_RATE]))


@pytest.mark.parametrize("rules_id, players", CASES)
def test_each_entry_is_the_corrected_fields(rules_id, players):
    rules = load_ruleset(rules_id)
    policy, mass = model_policy(rules, players)
    rng = np.random.default_rng(1)
    scratch = KR.removal_scratch()
    for hand in deal_sorted_hands(5, Stream(11, "hands")):
        want = corrected_tables(hand, policy, mass, rules)
        KR.prepare(hand, hand[:0], policy.removal, scratch)
        for k in range(3):
            pool = np.flatnonzero(THREE_CARD if k == 0 else ~THREE_CARD)
            for s in rng.choice(pool, 40):
                got = KR.row_entry(k, s, policy.tables, policy.removal, scratch)
                np.testing.assert_allclose(got, want[k, s], atol=1e-12, rtol=0)


@pytest.mark.parametrize("rules_id, players", CASES)
def test_decisions_are_the_best_against_the_corrected_field(rules_id, players):
    rules = load_ruleset(rules_id)
    compiled = rules.compile()
    policy, mass = model_policy(rules, players)
    values = np.zeros(KV.N_VALUES)
    KV.outcome_values(compiled.params, values)
    search = KP.search_mode(*policy.arrays, compiled.params)
    assert search is KP.SEARCH_ONLY
    scratch, state = KP.policy_scratch(), np.zeros(1, np.uint64)
    frontier, splits, rows = frontier_scratch(), np.empty(36036, np.int32), np.empty((36036, 3), np.int16)
    changed = 0
    for hand in deal_sorted_hands(300, Stream(12, "hands", (players,))):
        split, natural, _, surrender = KP.decide(hand, hand[:0], *policy.arrays, compiled.params, compiled.naturals,
                                                 players - 1, search, state, scratch)
        if split < 0:
            continue  # a natural or surrender: the same rules as without the model
        tables = corrected_tables(hand, policy, mass, rules)
        _, size = _frontier(hand, False, frontier, splits, rows)
        best, value = _best(KP.TABLE, tables, values, policy.points, compiled.params, players - 1,
                            size, splits, rows)
        member = np.flatnonzero(splits[:size] == split)[0]
        chosen = _best(KP.TABLE, tables, values, policy.points, compiled.params, players - 1, 1,
                       splits[member:member + 1], rows[member:member + 1])[1]
        assert chosen == pytest.approx(value, abs=1e-9), (hand, split, best)
        plain = _best(KP.TABLE, policy.tables, values, policy.points, compiled.params, players - 1,
                      size, splits, rows)[0]
        changed += plain != best
    assert changed > 0  # the model moves some decisions


@pytest.mark.parametrize("rules_id", ("standard", "vietnamese", "one-six"))
def test_search_and_frontier_decide_alike_bit_for_bit(rules_id):
    """The search skips settings by the value's rising with every row: with the field's copula
    too (vietnamese and one-six pay for sweeps)."""
    rules = load_ruleset(rules_id)
    compiled = rules.compile()
    policy, _ = model_policy(rules, 4, with_copula=True)
    assert rules_id == "standard" or KR.has_copula(policy.removal)
    hands = deal_sorted_hands(5000, Stream(13, "hands"))
    searched = KP.play_hands(hands, policy.arrays, compiled.arrays, 3, Stream(0, "field").states(8))
    scanned = KP.play_hands(hands, policy.arrays, compiled.arrays, 3, Stream(0, "field").states(8),
                            search=False)
    for a, b in zip(searched, scanned):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("rules_id", ("vietnamese", "one-six"))
def test_a_copula_values_sweeps_by_the_fields_joint_chances(rules_id):
    """With the field's copula a setting's value is its value over the corrected rows with the
    chances of sweeping and being swept read from the copula, in each term that pays for a
    sweep (the scoop, the home run, the sweep bonus), written out here: each decision is the
    frontier's best by it."""
    rules = load_ruleset(rules_id)
    compiled = rules.compile()
    params, opponents = compiled.params, 3
    policy, _ = model_policy(rules, 4, with_copula=True)
    removal = policy.removal
    assert KR.has_copula(removal)
    apart = removal._replace(copula=KR.no_copula())
    values = np.zeros(KV.N_VALUES)
    KV.outcome_values(params, values)
    scoop = params[S.P_SCOOP_MULT]
    home, field = KV.home_run_terms(params, policy.tables, opponents)
    search = KP.search_mode(*policy.arrays, params)
    scratch, state, prepared = KP.policy_scratch(), np.zeros(1, np.uint64), KR.removal_scratch()
    frontier, splits, rows = frontier_scratch(), np.empty(36036, np.int32), np.empty((36036, 3), np.int16)
    moved = 0
    for hand in deal_sorted_hands(60, Stream(16, "hands")):
        split = KP.decide(hand, hand[:0], *policy.arrays, params, compiled.naturals, opponents, search,
                          state, scratch)[0]
        if split < 0:
            continue
        KR.prepare(hand, hand[:0], removal, prepared)
        _, size = _frontier(hand, False, frontier, splits, rows)
        worth, apart_worth = [], []
        for i in range(size):
            entries = [KR.row_entry(k, rows[i, k], policy.tables, removal, prepared) for k in range(3)]
            win, loss = [e[0] for e in entries], [e[2] for e in entries]
            gain = sum(e[3] for e in entries)
            swept, lost = KR.sweep_chances(removal, *win, *loss)
            apart_swept, apart_lost = np.prod(win), np.prod(loss)
            change = ((swept - apart_swept) * (values[0] - values[1])
                      + (lost - apart_lost) * (values[26] - values[25]))
            if scoop > 1:
                change += ((swept - lost) - (apart_swept - apart_lost)) * (scoop - 1) * (3 + max(0.0, gain))
            change += home * 3 * ((swept ** opponents - apart_swept ** opponents) - (lost - apart_lost) * field)
            base = KV.removal_value(KV.SUMMED, *(np.uint16(r) for r in rows[i]), policy.tables, apart,
                                    prepared, values, params, opponents)
            apart_worth.append(base)
            worth.append(base + change * opponents)
        chosen = worth[int(np.flatnonzero(splits[:size] == split)[0])]
        assert chosen == pytest.approx(max(worth), abs=1e-9), (hand, split)
        moved += int(np.argmax(worth)) != int(np.argmax(apart_worth))
    assert moved > 0  # the copula moves some decisions


def test_the_features_of_a_hand():
    """Counts and suits (the first 16, a model of 2026-11-28's), then what is not linear in
    them: which ranks are held two, three or four times, and the suit lengths' powers."""
    hand = np.sort(parse_hand("As Ah Ad Ks Kh 2s 3s 4s 5s 7c 8c 9d Td"))
    x = np.full(KR.N_FEATURES, -1.0)
    KR.hand_features(hand, hand[:0], x)
    counts = np.array([1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 2, 3])  # deuce to ace
    np.testing.assert_array_equal(x[:13], counts)
    np.testing.assert_array_equal(x[13:16], [6, 3, 2])  # spades, diamonds, then hearts or clubs
    twice, thrice, four = (x[16 + 13 * i:29 + 13 * i] for i in range(3))
    np.testing.assert_array_equal(twice, counts == 2)
    np.testing.assert_array_equal(thrice, counts == 3)
    np.testing.assert_array_equal(four, np.zeros(13))
    np.testing.assert_array_equal(x[55:], [36, 9, 4, 216, 27, 8])
    assert KR.N_FEATURES == 61 and KR.BASE_FEATURES == 16


def test_a_model_of_the_first_features_decides_as_before_when_stacked():
    """A fit of the first 16 features (the shipped fits of 2026-11-28) read alone and read from
    a simulation's stack, padded to every feature, corrects every entry alike, bit for bit."""
    rules = load_ruleset("two-four")
    policy = make_policy("fitted", rules, 2)
    if policy.removal.xmean.size != KR.BASE_FEATURES:
        pytest.skip("the shipped two-four fit has every feature")
    stacked, features = KR.stack_removals([policy.removal, KR.no_removal()])
    assert features.tolist() == [KR.BASE_FEATURES, 0]
    alone, from_stack = KR.removal_scratch(), KR.removal_scratch()
    padded = KR.Removal(stacked.gamma[0], stacked.xmean[0, :features[0]], stacked.bin_of[0],
                        stacked.bins_sum[0], stacked.rows[0], stacked.copula[0])
    for hand in deal_sorted_hands(50, Stream(15, "hands")):
        KR.prepare(hand, hand[:0], policy.removal, alone)
        KR.prepare(hand, hand[:0], padded, from_stack)
        for a, b in zip(alone[1:], from_stack[1:]):
            assert np.array_equal(a, b)


def test_a_model_of_zeros_changes_nothing():
    rules = load_ruleset("two-four")
    compiled = rules.compile()
    with_model, mass = model_policy(rules, 2, scale=0.0)
    without = Policy.from_row_mass("fitted", mass, rules, "", float(with_model.tables[KV.SURRENDER_RATE]))
    hands = deal_sorted_hands(3000, Stream(14, "hands"))
    a = KP.play_hands(hands, with_model.arrays, compiled.arrays, 1, Stream(0, "field").states(8))
    b = KP.play_hands(hands, without.arrays, compiled.arrays, 1, Stream(0, "field").states(8))
    for x, y in zip(a, b):
        assert np.array_equal(x, y)


def test_the_fit_learns_that_held_aces_leave_the_opponent_fewer():
    """Holding aces, an opponent's front is less often a pair of aces: the fitted model gives
    the front's bins of aces a negative weight on the ace count; and a fit is its seed's."""
    rules = load_ruleset("two-four")
    mass, rate = load_strategy(find_strategy(rules, 2))
    runs = [fit_removal(rules, 2, mass, rate, rounds=1, tables=20000, seed=3) for _ in range(2)]
    (_, _, (gamma, xmean, edges, copula), _), (_, _, again, _) = runs
    for a, b in zip((gamma, xmean, edges, copula), again):
        assert np.array_equal(a, b)
    bin_of = KR.bins_of_edges(edges)
    pairs_of_aces = np.flatnonzero(THREE_CARD)[-25:-13]  # below the 13 trips, AA2 to AAK
    ace = 12  # the feature counting aces
    weight = np.mean([gamma[0, bin_of[0, s], ace] for s in pairs_of_aces])
    assert weight < -0.1


def test_a_fit_stores_its_model_and_plays_it(tmp_path):
    path = tmp_path / "two-four-2p.npz"
    meta = fit_and_save("two-four", 2, path, iterations=1, hands=500, seed=2, removal_rounds=1,
                        removal_tables=20000)
    assert meta["card_removal"]["rounds"] == 1 and meta["card_removal"]["tables_per_round"] == 20000
    assert meta["card_removal"]["copula_grid"] == KR.N_GRID
    gamma, xmean, edges, copula = load_removal(path)
    assert gamma.shape == (3, KR.N_BINS, KR.N_FEATURES) and np.abs(gamma).max() > 0
    assert copula.shape == (2,) + (KR.N_GRID + 1,) * 3 and copula[:, -1, -1, -1] == pytest.approx(1.0)
    policy = make_policy("fitted", "two-four", 2, strategy=path)
    assert policy.removal.xmean.size == KR.N_FEATURES
    assert np.array_equal(policy.removal.copula, copula)
    few = tmp_path / "two-four-2p-16.npz"  # a model of the first 16 features, as --removal-features 16
    assert fit_and_save("two-four", 2, few, iterations=1, hands=500, seed=2, removal_rounds=1,
                        removal_tables=20000, removal_features=16)["card_removal"]["features"] == 16
    assert load_removal(few)[0].shape == (3, KR.N_BINS, KR.BASE_FEATURES)
    assert make_policy("fitted", "two-four", 2, strategy=few).removal.xmean.size == KR.BASE_FEATURES
    with pytest.raises(ValueError, match="reads 16 or 61 features of a hand, not 20"):
        fit_removal("two-four", 2, *load_strategy(few), rounds=1, tables=1000, features=20)
    low = tmp_path / "low-middle-2p.npz"  # a low middle too: the middle's bins are of its lows
    assert fit_and_save("low-middle", 2, low, iterations=1, hands=500, removal_rounds=1,
                        removal_tables=20000)["card_removal"]["rounds"] == 1
    assert make_policy("fitted", "low-middle", 2, strategy=low).removal.xmean.size == KR.N_FEATURES


def test_a_malformed_model_is_named(tmp_path):
    path = tmp_path / "x.npz"
    np.savez(path, row_mass=np.zeros((3, N_STRENGTHS)), removal_gamma=np.zeros((3, 5, 2)),
             removal_xmean=np.zeros(KR.N_FEATURES), removal_edges=np.zeros((3, KR.N_BINS), np.int64))
    with pytest.raises(ValueError, match=r"x\.npz: removal_gamma has shape \(3, 5, 2\)"):
        load_removal(path)
    grid = (KR.N_GRID + 1,) * 3
    np.savez(path, row_mass=np.zeros((3, N_STRENGTHS)), removal_gamma=np.zeros((3, KR.N_BINS, KR.N_FEATURES)),
             removal_xmean=np.zeros(KR.N_FEATURES), removal_edges=np.zeros((3, KR.N_BINS), np.int64),
             removal_copula=np.ones((2,) + grid) - np.arange(KR.N_GRID + 1)[:, None, None] / 100)
    with pytest.raises(ValueError, match=r"x\.npz: removal_copula must be a distribution function"):
        load_removal(path)
    np.savez(path, row_mass=np.zeros((3, N_STRENGTHS)))
    assert load_removal(path) is None


def related_field(rng, n, together):
    """A field of ``n`` settings on 300 strengths a row, each row's place the sum of a shared
    part (how strong the hand is, weight ``together``) and its own: (rows int (n, 3), row_mass)."""
    latent = together * rng.normal(size=(n, 1)) + rng.normal(size=(n, 3))
    ranks = np.argsort(np.argsort(latent, axis=0), axis=0)
    rows = (ranks * 300 // n).astype(np.int64) * 7  # strengths 0, 7, ..., spread on the scale
    mass = np.stack([np.bincount(rows[:, k], minlength=N_STRENGTHS) for k in range(3)]) / n
    return rows, mass


@pytest.mark.parametrize("together", (0.0, 1.5))
def test_the_copula_gives_the_fields_own_sweep_chances(together):
    """For settings of a field whose rows go together (or not), the chance of sweeping one of its
    players and of being swept, read from the field's copula at the setting's rows' win and
    loss chances, is the share of the field it sweeps and is swept by, within 0.01 (the grid's
    interpolation); rows drawn apart give the product of the rows' chances, within 0.01."""
    rng = np.random.default_rng(5)
    rows, mass = related_field(rng, 200000, together)
    model = KR.no_removal()._replace(copula=KR.field_copula(rows, mass))
    below = np.cumsum(mass, axis=1) - mass
    for _ in range(40):
        s = rows[rng.integers(len(rows))]
        win = [below[k, s[k]] for k in range(3)]
        loss = [1.0 - below[k, s[k]] - mass[k, s[k]] for k in range(3)]
        swept, lost = KR.sweep_chances(model, *win, *loss)
        assert swept == pytest.approx(np.mean(np.all(rows < s, axis=1)), abs=0.01)
        assert lost == pytest.approx(np.mean(np.all(rows > s, axis=1)), abs=0.01)
        if together == 0.0:
            assert swept == pytest.approx(np.prod(win), abs=0.01)
            assert lost == pytest.approx(np.prod(loss), abs=0.01)
