"""Which setting wins more (analysis/measure/best.py, kernels/montecarlo.py).

The Monte Carlo is held to exact enumeration: heads-up with the opponent dealt 13 of 14
known cards there are 14 equally likely opponent hands, so every candidate's EV is an exact
average of the plain-Python scorer of tests/naive.py.  Tolerances are stated in standard
errors computed from the exact distribution.
"""

import csv
import functools
import json
import math

import naive
import numba
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import sapsam.measure.best as best_module
from sapsam.cli import main
from sapsam.game.cards import format_setting, parse_cards, parse_setting
from sapsam.game.hands import rank3, rank5
from sapsam.game.ruleset_files import load_ruleset
from sapsam.game.score import points_scale
from sapsam.game.settings import pareto_frontier, sorted_hand, split_cards
from sapsam.kernels import policies as KP
from sapsam.kernels.evaluate import WHEEL_SECOND
from sapsam.kernels.montecarlo import ST_COMPARED
from sapsam.measure.best import BLOCK, best_setting, candidates, simulate
from sapsam.strategy.registry import make_policy

HAND = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"
DRAGON = "As Kd Qh Jc Ts 9s 8h 7c 6d 5s 4h 3c 2d"
CLEAN_DRAGON = "As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s"
SIX_PAIRS = "As Ad Ks Kd Qs Qd Js Jd Ts Td 9s 9d 2c"
Z975 = 1.959963984540054  # the standard normal's 97.5% quantile: 95% two-sided intervals

# (ruleset, opponent policy, hero hand, 14 unseen cards): heads-up exact cases
EXACT_CASES = [
    # royalties, naturals and surrender among the candidates; greedy opponents
    ("standard", "greedy", HAND, "Ah Ad Kh Ks Qd Qc 8s 8h 7c 7d 6h 6s Jh Td"),
    ("standard", "balanced", "Ac Ad 8h 8d 8c Kc Qc 9c 6c 3h 4h 5d 7s",
     "As Ah Kh Kd Ks Qs Qh Jc Jd Th Tc 9h 9d 2s"),
    # naturals on both sides: the hero's six pairs; without the ace the opponent holds all
    # low (every card 8 or lower, a higher natural), which the table policy declares
    ("standard", "table", SIX_PAIRS, "8s 8d 7s 7d 6s 6d 5s 5d 4s 4d 3s 3d Ah 2h"),
    ("house", "greedy", HAND, "Ah Ad Kh Ks Qd Qc 8s 8h 7c 7d 6h 6s Jh Td"),  # the opponent banks
    ("pagat-pool", "greedy", HAND, "Ah Ad Kh Ks Qd Qc 8s 8h 7c 7d 6h 6s Jh Td"),  # scale > 1
    ("pagat-typical", "balanced", "Ac Ad Ah 8s 8d Kc Qc 9c 6c 3h 4h 5d 7s",
     "As Kh Kd Ks Qs Qh Jc Jd Th Tc 9h 9d 2s 2h"),
]


@functools.cache
def rules_of(rules_id):
    return load_ruleset(rules_id)


@functools.cache
def policy_of(name, rules_id, players):
    return make_policy(name, rules_of(rules_id), players)


@pytest.fixture(scope="module", autouse=True)
def warm_montecarlo():
    """Compile (or load) the Monte Carlo kernels once for this module."""
    hand = sorted_hand(HAND)
    simulate(hand, rules_of("standard"), 2, policy_of("greedy", "standard", 2),
             candidates(hand, rules_of("standard")), 10, 0)


def cards_of(text):
    return tuple(int(c) for c in parse_cards(text))


def seat_of(rows, aces):
    return naive.Seat(*(tuple(int(c) for c in row) for row in rows), aces=aces)


def exact_points(hand, rules, policy, unseen, players=2):
    """Hero points of every candidate against every possible opponent hand.

    The opponent is dealt 13 of ``unseen`` (13 or 14 cards: 1 or 14 equally likely hands)
    and decides by ``policy`` (deterministic); each table is settled by ``naive.settle``.

    Returns
    -------
    candidates : list of Candidate
    points : ndarray(int64), shape (C, O)
        The hero's points (units of 1 / scale) against opponent hand ``o``.
    outcome : ndarray(int8), shape (C, O, 3)
        The hero's row results (+1 / 0 / -1), 2 where the rows are not compared (a natural
        or a surrender on either side, or a pool game).
    """
    compiled = rules.compile()
    wheel = str(rules.wheel_rank) == "second"
    game = str(rules.scoring.game)
    cands = candidates(hand, rules)
    members = pareto_frontier(hand, wheel_rank=str(rules.wheel_rank)).members
    bank = players - 1 if game == "bank" else -1
    unseen = np.sort(np.asarray(unseen, np.uint8))
    opponent_hands = [unseen] if len(unseen) == 13 else [np.delete(unseen, i) for i in range(len(unseen))]
    opponents = []
    for opp in opponent_hands:
        split, natural, key, surrender = KP.decide(
            opp, opp[:0], *policy.arrays, compiled.params, compiled.naturals,
            players - 1, KP.searchable(*policy.arrays, compiled.params),
            np.array([1], np.uint64), KP.policy_scratch())
        aces = int(((opp >> 2) == 12).sum())
        if split >= 0:
            opponents.append(seat_of(split_cards(opp, split), aces))
        else:
            opponents.append(naive.Seat(natural=int(natural), natural_key=int(key),
                                        surrender=bool(surrender), aces=aces))
    hero_aces = int(((hand >> 2) == 12).sum())
    points = np.zeros((len(cands), len(opponents)), np.int64)
    outcome = np.full((len(cands), len(opponents), 3), 2, np.int8)
    for c, cand in enumerate(cands):
        if c < len(members):
            m = members[c]
            assert cand.label == m.text and cand.rows == m.strengths
            hero = seat_of((m.front, m.middle, m.back), hero_aces)
        else:
            hero = naive.Seat(natural=cand.natural, natural_key=cand.natural_key,
                              surrender=cand.surrender, aces=hero_aces)
        for o, opp in enumerate(opponents):
            points[c, o] = naive.settle(rules, [hero, opp], bank=bank)[0]
            set_both = all(s.natural < 0 and not s.surrender for s in (hero, opp))
            if set_both and game in ("pairwise", "bank"):
                keys = [tuple(naive.hand_key(r, wheel) for r in (s.front, s.middle, s.back))
                        for s in (hero, opp)]
                if c < len(members):
                    assert naive.triple_strengths(keys[0], wheel) == m.strengths
                outcome[c, o] = naive.pair_outcome(rules, keys[0], keys[1], not naive.is_legal(keys[0]),
                                                   not naive.is_legal(keys[1]), -1 if bank >= 0 else 0)
    return cands, points, outcome


def chi2_upper(df, z=3.719):
    """Wilson-Hilferty upper quantile of chi-square(df) at normal z (3.719: one-sided 1e-4)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


# --------------------------------------------------------------------------------------------
# Monte Carlo against exact enumeration
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules_id, opponents, hero, pack", EXACT_CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in EXACT_CASES])
def test_monte_carlo_matches_exact_enumeration(rules_id, opponents, hero, pack):
    rules = rules_of(rules_id)
    hand = sorted_hand(hero)
    unseen = np.sort(parse_cards(pack))
    assert len(unseen) == 14 and not set(unseen.tolist()) & set(hand.tolist())
    policy = policy_of(opponents, rules_id, 2)
    cands, exact, outcome = exact_points(hand, rules, policy, unseen)
    n = 20000
    points, stats = simulate(hand, rules, 2, policy, cands, n, 11, unseen=unseen)
    assert points.shape == (len(cands), n)

    # every sampled table is exactly one of the 14 possible ones, for all candidates at once
    columns, group = np.unique(exact, axis=1, return_inverse=True)
    group = np.asarray(group).ravel()
    lookup = {tuple(col): g for g, col in enumerate(columns.T)}
    drawn = np.array([lookup.get(tuple(col), -1) for col in points.T])
    assert (drawn >= 0).all(), f"{(drawn < 0).sum()} sampled tables match no possible opponent hand"
    # ... and the 14 hands are equally likely: chi-square over the distinct tables
    tables = columns.shape[1]
    expected = n * np.bincount(group, minlength=tables) / exact.shape[1]
    observed = np.bincount(drawn, minlength=tables)
    if tables > 1:
        chi2 = ((observed - expected) ** 2 / expected).sum()
        assert chi2 < chi2_upper(tables - 1), \
            f"opponent hands not equally likely: chi2 {chi2:.1f} over {tables - 1} df"

    # EVs within 4 standard errors of the exact EVs (SE from the exact variance)
    mean = exact.mean(axis=1)
    se = exact.std(axis=1) / np.sqrt(n)
    mc = points.mean(axis=1)
    for c, cand in enumerate(cands):
        if se[c] == 0:
            assert mc[c] == mean[c], f"{cand.label}: MC {mc[c]} != exact {mean[c]} (no variance)"
        else:
            assert abs(mc[c] - mean[c]) <= 4 * se[c], (
                f"{cand.label}: MC {mc[c]:.4f} vs exact {mean[c]:.4f}: "
                f"{abs(mc[c] - mean[c]) / se[c]:.1f} SE apart, tolerance 4 SE")

    # per-row win / tie / loss counts and compared tables, within 4 SE of the exact frequencies
    compared = (outcome != 2).all(axis=2)
    checks = [("compared", stats[:, ST_COMPARED], compared.mean(axis=1))]
    for k, row in enumerate(("front", "middle", "back")):
        for j, (what, code) in enumerate((("wins", 1), ("ties", 0), ("losses", -1))):
            checks.append((f"{row} {what}", stats[:, 3 * k + j],
                           ((outcome[:, :, k] == code) & compared).mean(axis=1)))
    for what, counts, p in checks:
        se = np.sqrt(p * (1 - p) / n)
        for c, cand in enumerate(cands):
            if se[c] == 0:
                assert counts[c] == p[c] * n, f"{cand.label} {what}: {counts[c]} != {p[c] * n}"
            else:
                assert abs(counts[c] / n - p[c]) <= 4 * se[c], (
                    f"{cand.label} {what}: {counts[c] / n:.4f} vs exact {p[c]:.4f} (tolerance 4 SE)")


@pytest.mark.parametrize("rules_id, opponents, hero, pack", EXACT_CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in EXACT_CASES])
def test_fixed_opponent_gives_the_exact_points_every_sample(rules_id, opponents, hero, pack):
    """13 unseen cards: the opponent's hand is fixed, every sample is the exact table."""
    rules = rules_of(rules_id)
    hand = sorted_hand(hero)
    unseen = np.sort(parse_cards(pack))[:13]
    policy = policy_of(opponents, rules_id, 2)
    cands, exact, outcome = exact_points(hand, rules, policy, unseen)
    points, stats = simulate(hand, rules, 2, policy, cands, 250, 3, unseen=unseen)
    np.testing.assert_array_equal(points, np.repeat(exact, 250, axis=1))
    compared = (outcome[:, 0] != 2).all(axis=1)
    np.testing.assert_array_equal(stats[:, ST_COMPARED], 250 * compared)
    for k in range(3):
        for j, code in enumerate((1, 0, -1)):
            np.testing.assert_array_equal(stats[:, 3 * k + j], 250 * (compared & (outcome[:, 0, k] == code)))


def test_simulate_checks_the_pack():
    rules = rules_of("standard")
    hand = sorted_hand(HAND)
    policy = policy_of("greedy", "standard", 2)
    cands = candidates(hand, rules)
    with pytest.raises(ValueError, match="unseen"):
        simulate(hand, rules, 2, policy, cands, 10, 0, unseen=np.arange(12, 24, dtype=np.uint8))
    overlapping = np.concatenate([hand[:1], np.setdiff1d(np.arange(52, dtype=np.uint8), hand)[:13]])
    with pytest.raises(ValueError, match="unseen"):
        simulate(hand, rules, 2, policy, cands, 10, 0, unseen=overlapping)
    with pytest.raises(ValueError, match="unseen"):  # 3 players need 26 cards
        simulate(hand, rules, 3, policy, cands, 10, 0,
                 unseen=np.setdiff1d(np.arange(52, dtype=np.uint8), hand)[:25])


# --------------------------------------------------------------------------------------------
# Seeds, threads and blocks
# --------------------------------------------------------------------------------------------


def test_same_seed_same_numbers_with_one_or_two_threads(restore_threads):
    rules = rules_of("standard")
    hand = sorted_hand(HAND)
    policy = policy_of("table", "standard", 4)
    cands = candidates(hand, rules)
    runs = {}
    for threads in (1, 2):
        numba.set_num_threads(threads)
        runs[threads] = (simulate(hand, rules, 4, policy, cands, 450, 21),
                         best_setting(HAND, rules, 4, "balanced", 450, seed=21).table)
    (p1, s1), t1 = runs[1]
    (p2, s2), t2 = runs[2]
    np.testing.assert_array_equal(p1, p2)
    np.testing.assert_array_equal(s1, s2)
    pd.testing.assert_frame_equal(t1, t2)
    # a different seed deals different opponents
    p3, _ = simulate(hand, rules, 4, policy, cands, 450, 22)
    assert (p3 != p1).any(axis=1).all()
    t3 = best_setting(HAND, rules, 4, "balanced", 450, seed=22).table
    assert not np.array_equal(t3["ev"].to_numpy(), t1["ev"].to_numpy())


def test_blocks_extend_one_run():
    """Block b draws the same opponents whatever else is run: samples 100.. of a 250-sample run
    are the first 150 of a run starting at block 1."""
    rules = rules_of("standard")
    hand = sorted_hand(HAND)
    policy = policy_of("greedy", "standard", 4)
    cands = candidates(hand, rules)
    whole, _ = simulate(hand, rules, 4, policy, cands, 250, 8)
    later, _ = simulate(hand, rules, 4, policy, cands, 150, 8, first_block=1)
    np.testing.assert_array_equal(later, whole[:, BLOCK:])
    # and the candidates do not disturb each other (common random numbers)
    alone, _ = simulate(hand, rules, 4, policy, cands[2:3], 250, 8)
    np.testing.assert_array_equal(alone[0], whole[2])


# --------------------------------------------------------------------------------------------
# best_setting: the report
# --------------------------------------------------------------------------------------------


def test_best_setting_report_matches_the_samples():
    rules = rules_of("standard")
    n = 600
    result = best_setting(HAND, "standard", 4, "greedy", n, seed=4)
    table = result.table
    hand = sorted_hand(HAND)
    cands = candidates(hand, rules)
    points, _ = simulate(hand, rules, 4, policy_of("greedy", "standard", 4), cands, n, 4)
    x = points / points_scale(rules)
    by_label = {c.label: i for i, c in enumerate(cands)}
    assert sorted(table["setting"]) == sorted(by_label)
    assert result.samples == n and (table["samples"] == n).all()
    assert (np.diff(table["ev"].to_numpy()) <= 0).all(), "not best first"
    top = by_label[table["setting"].iloc[0]]
    for row in table.itertuples(index=False):
        i = by_label[row.setting]
        assert row.ev == pytest.approx(x[i].mean(), abs=1e-12)
        half = Z975 * x[i].std(ddof=1) / np.sqrt(n)
        ci = (x[i].mean() - half, x[i].mean() + half)
        assert (row.ci_low, row.ci_high) == pytest.approx(ci, abs=1e-12)
        d = x[i] - x[top]
        assert row.gap == pytest.approx(d.mean(), abs=1e-12)
        if i == top:
            assert (row.gap, row.gap_low, row.gap_high, row.distinguishable) == (0, 0, 0, False)
        else:
            gap_half = Z975 * d.std(ddof=1) / np.sqrt(n)
            gap_ci = (d.mean() - gap_half, d.mean() + gap_half)
            assert (row.gap_low, row.gap_high) == pytest.approx(gap_ci, abs=1e-12)
            assert row.distinguishable == (d.mean() + gap_half < 0)
        if row.setting != "surrender":
            for name in ("front", "middle", "back"):
                total = sum(getattr(row, f"{name}_{what}") for what in ("win", "tie", "loss"))
                assert total == pytest.approx(1.0)
    # the paired gap is tighter than either CI
    second = table.iloc[1]
    assert second.gap_high - second.gap_low < second.ci_high - second.ci_low


def test_natural_and_surrender_have_their_exact_value():
    """Greedy opponents never declare: a dragon collects 36 from each of 3, surrender pays 2 each."""
    result = best_setting(DRAGON, "standard", 4, "greedy", 300, seed=2)
    table = result.table.set_index("setting")
    assert result.table["setting"].iloc[0] == "natural (dragon)"
    assert table.loc["natural (dragon)", ["ev", "ci_low", "ci_high"]].tolist() == [108, 108, 108]
    assert table.loc["surrender", ["ev", "ci_low", "ci_high"]].tolist() == [-6, -6, -6]


def test_ci_coverage_is_near_95_percent(monkeypatch):
    """400 seeds x 100 samples against the 14-hand exact case: each candidate's 95% CI must cover
    its exact EV a binomial(400, 0.95)-plausible number of times (two-sided tail 1e-4 each)."""
    rules_id, opponents, hero, pack = EXACT_CASES[0]
    rules = rules_of(rules_id)
    hand = sorted_hand(hero)
    unseen = np.sort(parse_cards(pack))
    cands, exact, _ = exact_points(hand, rules, policy_of(opponents, rules_id, 2), unseen)
    truth = dict(zip((c.label for c in cands), exact.mean(axis=1)))
    varied = [c.label for c, sd in zip(cands, exact.std(axis=1)) if sd > 0]
    assert len(varied) >= 4
    monkeypatch.setattr(best_module, "unseen_cards", lambda *args: unseen)
    seeds = 400
    covered = dict.fromkeys(varied, 0)
    for seed in range(seeds):
        table = best_setting(hand, rules, 2, opponents, 100, seed).table.set_index("setting")
        for label in varied:
            covered[label] += table.loc[label, "ci_low"] <= truth[label] <= table.loc[label, "ci_high"]
    pmf = [math.comb(seeds, k) * 0.95 ** k * 0.05 ** (seeds - k) for k in range(seeds + 1)]
    low = next(k for k in range(seeds + 1) if sum(pmf[:k + 1]) > 1e-4)
    high = next(k for k in range(seeds, -1, -1) if sum(pmf[k:]) > 1e-4)
    for label, count in covered.items():
        assert low <= count <= high, (f"{label}: CI covered the exact EV {count}/{seeds} times; "
                                      f"binomial(400, 0.95) band [{low}, {high}]")


# --------------------------------------------------------------------------------------------
# Racing
# --------------------------------------------------------------------------------------------

# two-four heads-up: two quads-in-back settings are nearly tied (their EVs differ by ~0.001,
# no budget here separates them) and the rest clearly worse: the race drops the rest after its
# first round and stops once the two survivors' intervals are narrower than the precision
RACE_HAND = "Ac Ad Kh Kd 7s 7h 7d 7c 5s 4s 3h 2c 2d"


def test_racing_finds_the_fixed_sample_best_with_fewer_samples():
    budget = 20000
    raced = best_setting(RACE_HAND, "two-four", 2, "greedy", budget, seed=1, precision=0.03)
    fixed = best_setting(RACE_HAND, "two-four", 2, "greedy", budget, seed=1)
    leader = raced.table["setting"].iloc[0]
    assert fixed.table.set_index("setting").loc[leader, "gap_high"] >= 0, \
        "the race's leader is distinguishably worse than the fixed run's best"
    assert raced.samples < budget, f"the race used the whole budget ({raced.samples})"
    assert fixed.samples == budget
    counts = raced.table["samples"]
    assert counts.iloc[0] == raced.samples and (counts.iloc[1:] < raced.samples).any()
    # a race extends one run: a candidate that met k samples has the EV of a fixed k-sample run
    for k in sorted(set(counts)):
        fixed_k = best_setting(RACE_HAND, "two-four", 2, "greedy", int(k), seed=1).table.set_index("setting")
        for row in raced.table[counts == k].itertuples(index=False):
            assert row.ev == fixed_k.loc[row.setting, "ev"], (row.setting, k)


def test_racing_stops_once_every_interval_is_narrow():
    raced = best_setting(HAND, "two-four", 2, "greedy", 20000, seed=1, precision=5.0)
    assert raced.samples == 20 * BLOCK  # one round: every half-width is below 5 units
    with pytest.raises(ValueError, match="precision"):
        best_setting(HAND, "two-four", 2, "greedy", 100, seed=1, precision=0)


# --------------------------------------------------------------------------------------------
# Candidates
# --------------------------------------------------------------------------------------------


def labels(cands):
    return [c.label for c in cands]


@pytest.mark.parametrize("hand, rules_id, natural", [
    (DRAGON, "standard", "dragon"),
    (CLEAN_DRAGON, "standard", "clean-dragon"),
    (SIX_PAIRS, "standard", "six-pairs"),
    (HAND, "standard", None),
    (DRAGON, "two-four", None),  # no naturals, no surrender
    (DRAGON, "pagat-surrender", "dragon"),
    (HAND, "pagat-surrender", None),
])
def test_candidates_are_the_frontier_plus_natural_plus_surrender(hand, rules_id, natural):
    rules = rules_of(rules_id)
    cards = sorted_hand(hand)
    cands = candidates(cards, rules)
    members = pareto_frontier(cards, wheel_rank=str(rules.wheel_rank)).members
    assert labels(cands[:len(members)]) == [m.text for m in members]
    assert [c.rows for c in cands[:len(members)]] == [m.strengths for m in members]
    assert all(c.natural == -1 and not c.surrender for c in cands[:len(members)])
    rest = cands[len(members):]
    expected = ([f"natural ({natural})"] if natural else []) + \
        (["surrender"] if str(rules.surrender.mode) != "none" else [])
    assert labels(rest) == expected
    for c in rest:
        if c.label.startswith("natural"):
            assert str(rules.naturals.hands[c.natural].kind) == natural
            assert not c.surrender
        else:
            assert c.surrender and c.natural == -1


def test_extra_settings_are_added_unless_their_triple_is_a_candidate():
    rules = rules_of("standard")
    cards = sorted_hand(HAND)
    base = candidates(cards, rules)
    member = pareto_frontier(cards).members[0]
    foul = parse_setting("As Kd Qh | 9s 9h 5c 5d 4h | Jc Ts 3s 2c 2d")
    dominated = parse_setting("4h 3s 2c | As Kd Qh 5d 2d | Jc Ts 9s 9h 5c")  # legal, not frontier
    same_triple = (member.front, member.middle, member.back)
    got = candidates(cards, rules, extra=[foul, same_triple, dominated])
    assert labels(got[:len(base)]) == labels(base)
    added = got[len(base):]
    assert labels(added) == [format_setting(*foul), format_setting(*dominated)]
    foul_rows = (int(rank3(foul[0])[0]), int(rank5(foul[1])[0]), int(rank5(foul[2])[0]))
    assert added[0].rows == foul_rows and not foul_rows[2] >= foul_rows[1] >= foul_rows[0]
    assert added[0].natural == -1 and not added[0].surrender
    # a setting with a member's triple but other cards (suits of the pair swapped) is not added
    swapped = [np.array([{parse_cards("9s")[0]: parse_cards("9h")[0],
                          parse_cards("9h")[0]: parse_cards("9s")[0]}.get(c, c) for c in row], np.uint8)
               for row in same_triple]
    assert len(candidates(cards, rules, extra=[swapped])) == len(base)


def test_a_foul_extra_setting_is_evaluated_as_a_foul():
    """Against greedy opponents a fouled hand loses every row and pays as if scooped: 4 units
    under 2-4 scoring, plus any royalties of the opponent's rows."""
    foul = parse_setting("As Kd Qh | 9s 9h 5c 5d 4h | Jc Ts 3s 2c 2d")
    result = best_setting(HAND, "standard", 2, "greedy", 400, seed=3, extra=[foul])
    row = result.table.set_index("setting").loc[format_setting(*foul)]
    assert row.ev <= -4 and row.front_loss == 1 and row.middle_loss == 1 and row.back_loss == 1
    assert row.distinguishable


# --------------------------------------------------------------------------------------------
# The command line: best and review
# --------------------------------------------------------------------------------------------


def run(*args):
    return CliRunner().invoke(main, list(args))


def best_json(*extra):
    result = run("best", HAND, "--opponents", "greedy", "--samples", "500", "--json", *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_cli_best_json():
    payload = best_json()
    cands = payload["candidates"]
    assert len(cands) == len(candidates(sorted_hand(HAND), rules_of("standard")))
    assert payload["samples"] == 500 and payload["rules"] == "standard" and payload["players"] == 4
    evs = [c["ev"] for c in cands]
    assert evs == sorted(evs, reverse=True), "candidates not best first"
    for i, c in enumerate(cands):
        assert {"setting", "ev", "ci", "gap", "gap_ci", "distinguishable"} <= set(c)
        low, high = c["ci"]
        assert low <= c["ev"] <= high
        g_low, g_high = c["gap_ci"]
        assert g_low <= c["gap"] <= g_high
        assert isinstance(c["distinguishable"], bool) and c["distinguishable"] == (g_high < 0)
        if i == 0:
            assert c["gap"] == 0 and c["gap_ci"] == [0, 0] and not c["distinguishable"]
        else:
            assert c["gap"] <= 0
            assert c["gap"] == pytest.approx(c["ev"] - cands[0]["ev"], abs=1e-9)
    # the same numbers as the library
    table = best_setting(HAND, "standard", 4, "greedy", 500, 0).table
    assert [c["setting"] for c in cands] == table["setting"].tolist()
    assert evs == pytest.approx(table["ev"].tolist(), abs=0)


def test_cli_best_top_and_csv(tmp_path):
    full = best_json()["candidates"]
    top = best_json("--top", "3")["candidates"]
    assert top == full[:3]
    path = tmp_path / "best.csv"
    best_json("--csv", str(path))
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["setting"] for r in rows] == [c["setting"] for c in full]
    assert [float(r["ev"]) for r in rows] == pytest.approx([c["ev"] for c in full])
    assert {"ci_low", "ci_high", "gap", "gap_low", "gap_high", "distinguishable"} <= set(rows[0])


@pytest.mark.parametrize("args, token", [
    ((" ".join(HAND.split()[:12]), "--opponents", "greedy"), "12"),
    ((HAND, "--opponents", "cunning"), "cunning"),
    ((HAND, "--opponents", "greedy", "--samples", "0"), "--samples"),
    ((HAND, "--opponents", "greedy", "--rules", "klondike"), "klondike"),
    ((HAND, "--opponents", "greedy", "--players", "5"), "--players"),
])
def test_cli_best_bad_input_exits_2(args, token):
    result = run("best", *args)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output and result.stdout == ""
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and token in errors[0], result.stderr
    if token in ("12", "klondike"):  # our own validation: nothing but the one line
        assert len(result.stderr.splitlines()) == 1, result.stderr


def review_json(setting, *extra):
    result = run("review", HAND, setting, "--opponents", "greedy", "--samples", "500", "--json", *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_cli_review_ranks_the_played_setting():
    full = best_json()["candidates"]
    # the best setting itself: rank 1, no loss
    top = review_json(full[0]["setting"])
    assert top["rank"] == 1 and top["loss"] == 0 and top["best"] == full[0]["setting"]
    assert top["held_out_loss"] == 0 and top["held_out_ci"] == [0, 0]  # nothing to measure apart
    assert top["candidates"] == len(full) and top["samples"] == 500
    # the third candidate: its rank and the loss the best run reports (same seed, same samples)
    third = review_json(full[2]["setting"])
    assert third["rank"] == 3
    assert third["ev"] == pytest.approx(full[2]["ev"], abs=0)
    assert third["loss"] == pytest.approx(-full[2]["gap"], abs=1e-12)
    assert third["loss_ci"] == pytest.approx([-full[2]["gap_ci"][1], -full[2]["gap_ci"][0]], abs=1e-12)
    # a foul: added as a candidate, ranked and charged
    foul = review_json("As Kd Qh | 9s 9h 5c 5d 4h | Jc Ts 3s 2c 2d")
    assert foul["candidates"] == len(full) + 1
    assert foul["rank"] == len(full) + 1 and foul["loss"] > 0 and foul["distinguishable"]
    # measured apart, on tables of its own: a clear loss still, and not the same estimate
    assert foul["held_out_ci"][0] > 0 and foul["held_out_loss"] != foul["loss"]
    assert foul["best_ev"] == pytest.approx(full[0]["ev"], abs=0)
    assert foul["best_ci"] == pytest.approx(full[0]["ci"], abs=0)  # the best's estimate with its error


def swap_across_rows(setting):
    """The setting with two cards of one rank in different rows exchanged (same strength
    triple, other cards), or None if no rank is split across rows."""
    rows = [row.split() for row in setting.split(" | ")]
    for a in range(3):
        for b in range(a + 1, 3):
            for i, x in enumerate(rows[a]):
                for j, y in enumerate(rows[b]):
                    if x[0] == y[0]:
                        rows[a][i], rows[b][j] = y, x
                        return " | ".join(" ".join(row) for row in rows)
    return None


def test_cli_review_matches_an_equivalent_setting_to_its_candidate():
    """Same strength triple as a candidate but other cards: the candidate's rank and numbers."""
    full = best_json()["candidates"]
    rank, swapped = next((i + 1, s) for i, c in enumerate(full) if c["setting"] != "surrender"
                         and (s := swap_across_rows(c["setting"])) is not None)
    assert format_setting(*parse_setting(swapped)) != full[rank - 1]["setting"]
    review = review_json(swapped)
    assert review["candidates"] == len(full)
    assert review["rank"] == rank and review["ev"] == pytest.approx(full[rank - 1]["ev"], abs=0)


def test_cli_review_rejects_other_cards():
    result = run("review", HAND, "As Kd Qh | 9s 9h 5c 5d 4h | Jc Ts 3s 2c 7d", "--opponents", "greedy",
                 "--samples", "10", "--json")
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("Error:")


WHEEL_SECOND_TOML = '''id = "standard-wheel-second"
extends = "standard"
name = "Standard with A-2-3-4-5 the second-highest straight"
source = "tests/test_best.py"
wheel_rank = "second"
'''


@pytest.fixture
def wheel_second_rules(tmp_path):
    path = tmp_path / "standard-wheel-second.toml"
    path.write_text(WHEEL_SECOND_TOML)
    return str(path)


def test_cli_review_equivalent_setting_with_the_wheel_second(wheel_second_rules):
    """Two 9-high straights: the played setting swaps the nines between middle and back, so it
    has a candidate's strength triple but not its cards.  Under wheel_rank = "second" every
    straight from six to king high sits one place lower on the strength scale, and the review
    must still find the candidate."""
    hand = "9s 8h 7c 6d 5s 9h 8d 7s 6h 5c Ac Kd 2h"
    played = "Ac Kd 2h | 9h 8h 7c 6d 5s | 9s 8d 7s 6h 5c"
    rules = load_ruleset(wheel_second_rules)
    labels_ = [c.label for c in candidates(sorted_hand(hand), rules)]
    assert format_setting(*parse_setting(played)) not in labels_
    result = run("review", hand, played, "--rules", wheel_second_rules, "--opponents", "greedy",
                 "--samples", "200", "--players", "2", "--json")
    assert result.exit_code == 0, f"exit {result.exit_code}: {result.exception!r}"
    payload = json.loads(result.stdout)
    assert payload["candidates"] == len(labels_)
    front, middle, back = parse_setting(played)
    triple = (int(rank3(front)[0]), int(WHEEL_SECOND[rank5(middle)[0]]), int(WHEEL_SECOND[rank5(back)[0]]))
    same = [c.label for c in candidates(sorted_hand(hand), rules) if c.rows == triple]
    assert len(same) == 1
    table = best_setting(hand, rules, 2, "greedy", 200, 0).table
    member = table["setting"].tolist().index(same[0])
    assert payload["rank"] == member + 1
    assert payload["ev"] == table["ev"].iloc[member]


def test_cli_review_calls_a_wheel_second_foul_a_foul(wheel_second_rules):
    """Wheel in the middle, six-high straight in the back: legal with the wheel lowest, a foul
    with the wheel second-highest (sapsam score says so); review must say the same."""
    hand = "Ac 2d 3h 4s 5c 6d 2c 3d 4h 5s 9h Jc Kd"
    played = "9h Jc Kd | Ac 5c 4s 3h 2d | 6d 5s 4h 3d 2c"
    score = run("score", "--rules", wheel_second_rules, played, "As Ks Qs | Js Ts 9s 8s 7c | 7d 7h 7s 8c 8d")
    assert score.exit_code == 0 and "FOUL" in score.stdout
    result = run("review", hand, played, "--rules", wheel_second_rules, "--opponents", "greedy",
                 "--samples", "200", "--players", "2")
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert first.startswith("Played:")
    assert "(foul)" in first, f"review reports {first!r} for a setting the ruleset scores as a foul"
    # the ace-low ruleset really has it legal
    legal = run("review", hand, played, "--opponents", "greedy", "--samples", "200", "--players", "2")
    assert "(legal)" in legal.stdout.splitlines()[0]


@pytest.mark.parametrize("precision", [None, 0.05])
def test_progress_does_not_change_the_numbers(precision):
    """A progress bar (a terminal) samples in steps, but the rounds the stopping rule sees are
    the same: the ranking is identical with and without it."""
    hand = "Ah Ad Ac Kh Kd 7s 7c 6h 5d 4c 3s 2h 2d"
    calls = []
    plain = best_setting(hand, "standard", 4, "fitted", 6000, seed=3, precision=precision)
    shown = best_setting(hand, "standard", 4, "fitted", 6000, seed=3, precision=precision,
                         progress=lambda done, total: calls.append(done))
    assert len(calls) > 1 and calls == sorted(calls)
    assert plain.samples == shown.samples
    pd.testing.assert_frame_equal(plain.table, shown.table)
