"""Fitted strategies (analysis/strategy/fit.py), exploitability (analysis/measure/exploit.py) and their commands.

The fitted policy is held to a measured margin: on random hero hands at a 4-player standard
table, the hero's points with the fitted decision and with the greedy (or random) decision
are compared against the same sampled opponents (paired), and the mean gap per hand must
have a 95% interval clear of a stated margin.
"""

import json
import os
from itertools import combinations

import numba
import numpy as np
import pytest
from click.testing import CliRunner

from sapsam.base.stats import Z95
from sapsam.cli import main
from sapsam.game.hands import rank3
from sapsam.game.ruleset_files import load_ruleset
from sapsam.kernels import policies as KP
from sapsam.kernels.evaluate import N_STRENGTHS
from sapsam.measure.best import Candidate, simulate
from sapsam.measure.exploit import exploitability
from sapsam.play.seeds import Stream
from sapsam.play.strategy_files import load_strategy, manifest, strategy_path
from sapsam.strategy.fit import fit_and_save, fit_equilibrium, save_strategy
from sapsam.strategy.registry import make_policy

FRONT_STRENGTHS = np.zeros(N_STRENGTHS, bool)
FRONT_STRENGTHS[rank3(np.array(list(combinations(range(52), 3)), np.uint8))] = True


def check_row_mass(mass):
    assert mass.shape == (3, N_STRENGTHS) and mass.dtype == np.float64
    assert (mass >= 0).all()
    np.testing.assert_allclose(mass.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert mass[0, ~FRONT_STRENGTHS].sum() == 0, "front mass on strengths three cards cannot make"
    assert mass[1:, FRONT_STRENGTHS].sum() == 0, "middle/back mass on 3-card strengths"


# --------------------------------------------------------------------------------------------
# fit_equilibrium
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules_id, players", [("standard", 4), ("two-four", 2)])
def test_fit_is_reproducible_from_its_seed(rules_id, players, restore_threads):
    runs = {}
    for threads in (1, 2):
        numba.set_num_threads(threads)
        runs[threads] = fit_equilibrium(rules_id, players, iterations=2, hands=500, seed=7)
    (mass, _, history), (mass2, _, history2) = runs[1], runs[2]
    np.testing.assert_array_equal(mass, mass2)  # same seed: identical, whatever the threads
    assert history == history2 and 1 <= len(history) <= 2
    check_row_mass(mass)
    other, _, _ = fit_equilibrium(rules_id, players, iterations=2, hands=500, seed=8)
    check_row_mass(other)
    assert not np.array_equal(mass, other), "another seed dealt the same hands"


def test_fit_reports_progress_and_stops_at_the_tolerance():
    seen = []
    _, _, history = fit_equilibrium("two-four", 2, iterations=3, hands=500, seed=1, tolerance=0.0,
                                 progress=lambda it, change: seen.append((it, change)))
    assert [it for it, _ in seen] == [1, 2, 3] and [c for _, c in seen] == history
    assert all(c > 0 for c in history)
    _, _, history = fit_equilibrium("two-four", 2, iterations=3, hands=500, seed=1, tolerance=1.0)
    assert len(history) == 1  # every CDF change is below 1: stop after the first round


# --------------------------------------------------------------------------------------------
# Strategy files
# --------------------------------------------------------------------------------------------


def test_save_strategy_writes_the_file_and_its_manifest(tmp_path):
    rules = load_ruleset("two-four")
    mass, rate, history = fit_equilibrium(rules, 2, iterations=2, hands=500, seed=5)
    path = tmp_path / "strategies" / "two-four-2p.npz"
    written = save_strategy(path, mass, rate, rules, 2, history, 500, 5, 1.25)
    assert sorted(p.name for p in path.parent.iterdir()) == ["two-four-2p.json", "two-four-2p.npz"]
    np.testing.assert_array_equal(load_strategy(path)[0], mass)
    meta = manifest(path)
    assert meta == json.loads(json.dumps(written))
    assert {"ruleset", "players", "iterations", "seed", "hands_per_iteration"} <= set(meta)
    assert (meta["ruleset"], meta["players"], meta["iterations"], meta["seed"],
            meta["hands_per_iteration"]) == ("two-four", 2, len(history), 5, 500)
    assert meta["cdf_change_per_iteration"] == history
    # the file is a usable fitted policy
    policy = make_policy("fitted", rules, 2, strategy=path)
    assert policy.code == KP.TABLE and policy.source == str(path)


def test_save_strategy_replaces_files_atomically(tmp_path, monkeypatch):
    """Crash at the last moment (every rename fails): the previous strategy and manifest are
    still there, whole and unchanged; a file written in place would already be clobbered."""
    rules = load_ruleset("two-four")
    path = tmp_path / "two-four-2p.npz"
    old_mass = np.full((3, N_STRENGTHS), 1.0 / N_STRENGTHS)
    save_strategy(path, old_mass, 0.0, rules, 2, [0.5], 100, 1, 0.1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["two-four-2p.json", "two-four-2p.npz"]
    before = path.read_bytes(), path.with_suffix(".json").read_bytes()

    def crash(*args, **kwargs):
        raise OSError("crash before the rename")

    new_mass = old_mass.copy()
    new_mass[:, :2] *= 3
    new_mass /= new_mass.sum(axis=1, keepdims=True)
    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", crash)
        patch.setattr(os, "rename", crash)
        with pytest.raises(OSError, match="crash before the rename"):
            save_strategy(path, new_mass, 0.0, rules, 2, [0.1], 100, 2, 0.1)
    assert (path.read_bytes(), path.with_suffix(".json").read_bytes()) == before
    np.testing.assert_array_equal(load_strategy(path)[0], old_mass)
    # and a save that completes replaces both
    save_strategy(path, new_mass, 0.0, rules, 2, [0.1], 100, 2, 0.1)
    np.testing.assert_array_equal(load_strategy(path)[0], new_mass)
    assert manifest(path)["seed"] == 2


def test_fitted_policy_refuses_a_missing_strategy_file(tmp_path):
    assert strategy_path("standard", 4).name == "standard-4p.npz"
    with pytest.raises(ValueError, match="strategy file .*missing.npz does not exist"):
        make_policy("fitted", "two-four", 3, strategy=tmp_path / "missing.npz")


# --------------------------------------------------------------------------------------------
# A fitted policy beats greedy and random at the 4-player standard table
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_fit(tmp_path_factory):
    """A small fit of standard, 4 players (3 rounds of 3,000 hands, seed 1; its card-removal
    model one round of 5,000 tables), saved and loaded."""
    path = tmp_path_factory.mktemp("strategies") / "standard-4p.npz"
    meta = fit_and_save("standard", 4, path, iterations=3, hands=3000, seed=1, removal_rounds=1,
                        removal_tables=5000)
    assert meta["iterations"] >= 1
    return make_policy("fitted", "standard", 4, strategy=path)


def decision(hand, policy, compiled, opponents, state):
    """A policy's decision for a sorted hand as a Candidate (natural/surrender included)."""
    split, natural, key, surrender = KP.decide(hand, hand[:0], *policy.arrays, compiled.params,
                                               compiled.naturals, opponents,
                                               KP.searchable(*policy.arrays, compiled.params),
                                               state, KP.policy_scratch())
    if split < 0:
        return Candidate(policy.name, (0, 0, 0), int(natural), int(key), bool(surrender))
    return Candidate(policy.name, tuple(int(r) for r in KP.split_rows(hand, split, compiled.params)))


def paired_margins(hero_policies, field, hands, samples, seed):
    """Per hand: mean points of each hero policy's decision against the same sampled opponents
    of ``field`` (standard, 4 players).  Returns ndarray (hands, len(hero_policies))."""
    rules = load_ruleset("standard")
    compiled = rules.compile()
    rng = np.random.default_rng(seed)
    out = np.empty((hands, len(hero_policies)))
    for i in range(hands):
        hand = np.sort(rng.permutation(52)[:13].astype(np.uint8))
        state = Stream(seed, "field").states(1, i)
        cands = [decision(hand, p, compiled, 3, state) for p in hero_policies]
        points, _ = simulate(hand, rules, 4, field, cands, samples, seed * 1000 + i)
        out[i] = points.mean(axis=1)
    return out


def assert_margin(gaps, floor, what):
    mean = gaps.mean()
    half = Z95 * gaps.std(ddof=1) / np.sqrt(len(gaps))
    message = (f"{what}: {mean:+.3f} units per hand, 95% CI [{mean - half:+.3f}, {mean + half:+.3f}] "
               f"over {len(gaps)} hands; required CI above {floor:+.2f}")
    assert mean - half > floor, message
    return message


def test_fitted_policy_beats_greedy_and_random(small_fit):
    """60 hero hands x 100 sampled tables against a field of the fitted policy.

    Measured when written (40 hands, seed 3): fitted - greedy +2.9 units per hand (95% CI
    +-0.7), fitted - random +9.3 (+-1.3), table - greedy +2.1 (+-0.8).  The floors (1 unit
    against greedy, 4 against random) ask for a clear margin, not for these exact values.
    """
    greedy = make_policy("greedy", "standard", 4)
    random_ = make_policy("random", "standard", 4)
    table = make_policy("table", "standard", 4)
    means = paired_margins([small_fit, table, greedy, random_], small_fit, hands=60, samples=100, seed=3)
    assert_margin(means[:, 0] - means[:, 2], 1.0, "fitted - greedy")
    assert_margin(means[:, 0] - means[:, 3], 4.0, "fitted - random")
    assert_margin(means[:, 1] - means[:, 2], 1.0, "table - greedy")


def test_fitted_policy_beats_greedy_in_a_greedy_field(small_fit):
    """The same against greedy opponents (cheap to sample): 120 hands x 100 tables.
    Measured when written: fitted - greedy +4.3 (95% CI +-0.7), fitted - random +9.9 (+-0.9)."""
    greedy = make_policy("greedy", "standard", 4)
    random_ = make_policy("random", "standard", 4)
    means = paired_margins([small_fit, greedy, random_], greedy, hands=120, samples=100, seed=4)
    assert_margin(means[:, 0] - means[:, 1], 1.0, "fitted - greedy (greedy field)")
    assert_margin(means[:, 0] - means[:, 2], 4.0, "fitted - random (greedy field)")


def test_shipped_standard_strategy():
    path = strategy_path("standard", 4)
    if not path.is_file():
        pytest.skip(f"no shipped strategy at {path} yet (run 'sapsam fit --rules standard --players 4'); "
                    "test_fitted_policy_beats_greedy_and_random covers a self-fitted one")
    meta = manifest(path)
    assert (meta["ruleset"], meta["players"]) == ("standard", 4)
    assert {"iterations", "seed", "hands_per_iteration"} <= set(meta)
    check_row_mass(load_strategy(path)[0])
    shipped = make_policy("fitted", "standard", 4)
    greedy = make_policy("greedy", "standard", 4)
    means = paired_margins([shipped, greedy], greedy, hands=120, samples=100, seed=5)
    assert_margin(means[:, 0] - means[:, 1], 1.0, "shipped fitted - greedy (greedy field)")


# --------------------------------------------------------------------------------------------
# Commands: fit and exploit
# --------------------------------------------------------------------------------------------


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_cli_fit_writes_the_strategy_and_manifest(tmp_path):
    out = tmp_path / "x.npz"
    result = run("fit", "--rules", "two-four", "--players", "2", "--iterations", "1", "--hands", "200",
                 "--removal-rounds", "0", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "card_removal" not in manifest(out)  # the field alone: tests/test_removal.py fits the model
    assert out.is_file() and out.with_suffix(".json").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.json", "x.npz"]
    meta = manifest(out)
    assert (meta["ruleset"], meta["players"], meta["iterations"], meta["seed"],
            meta["hands_per_iteration"]) == ("two-four", 2, 1, 0, 200)
    assert "two-four" in result.stdout and "1 iterations" in result.stdout
    expected, _, _ = fit_equilibrium("two-four", 2, iterations=1, hands=200, seed=0)
    np.testing.assert_array_equal(load_strategy(out)[0], expected)


def test_cli_fit_bad_input_exits_2(tmp_path):
    result = run("fit", "--rules", "klondike", "--iterations", "1", "--hands", "200",
                 "--out", str(tmp_path / "x.npz"))
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and "klondike" in result.stderr
    assert not (tmp_path / "x.npz").exists()
    result = run("fit", "--rules", "two-four", "--hands", "10", "--out", str(tmp_path / "x.npz"))
    assert result.exit_code == 2 and "--hands" in result.stderr


def test_cli_exploit_json():
    args = ["exploit", "--rules", "two-four", "--players", "2", "--policy", "greedy", "--deals", "2",
            "--samples", "40", "--json"]
    result = run(*args)
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert {"gap", "ci", "deals"} <= set(payload)
    assert payload["deals"] == 2 and payload.get("hands", 4) == 4
    low, high = payload["ci"]
    assert low <= payload["gap"] <= high
    if "gap_in_sample" in payload:  # the in-sample best includes the policy's own decision
        assert payload["gap_in_sample"] >= 0
    library = exploitability("two-four", 2, "greedy", deals=2, samples=40, seed=0)
    assert payload["gap"] == library.gap and payload["ci"] == list(library.ci)
    assert len(library.gaps) == 4  # every deal from both seats
    # the same again: a seeded run
    assert json.loads(run(*args).stdout) == payload


def test_cli_exploit_bad_input_exits_2():
    result = run("exploit", "--rules", "two-four", "--policy", "fitted", "--strategy", "/nonexistent.npz",
                 "--deals", "1", "--samples", "8", "--json")
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("Error:")


def test_the_exploitability_table_gathers_every_result(tmp_path):
    """`sapsam exploit --out` results become one row each of results/exploit/table.md and .csv."""
    from sapsam.output.exploits import exploit_rows, write_table

    for rules, players in (("two-four", 2), ("basic", 3)):
        out = tmp_path / f"{rules}-{players}p-greedy.json"
        result = run("exploit", "--rules", rules, "--players", str(players), "--policy", "greedy",
                     "--deals", "1", "--samples", "8", "--out", str(out), "--quiet")
        assert result.exit_code == 0, result.output
    rows = exploit_rows(tmp_path)
    assert [(r["ruleset"], r["players"], r["hands"]) for r in rows] == [("basic", 3, 3),
                                                                         ("two-four", 2, 2)]
    saved = json.loads((tmp_path / "basic-3p-greedy.json").read_text())
    assert rows[0]["gap"] == saved["gap"] and rows[0]["ci_low"] == saved["ci"][0]
    md, csv = write_table(tmp_path)
    assert "| basic | 3 | greedy |" in md.read_text()
    assert csv.read_text().splitlines()[0].startswith("ruleset,players,policy,gap")
    (tmp_path / "junk-2p-x.json").write_text("{}")
    with pytest.raises(ValueError, match="junk-2p-x.json: not a result of 'sapsam exploit"):
        exploit_rows(tmp_path)


def test_make_exploits_measures_the_tables_older_than_their_fit_or_short_of_deals(tmp_path):
    from sapsam.game.ruleset_files import shipped_tables
    from sapsam.output.exploits import DEALS, stale_tables

    everything = stale_tables(tmp_path)  # no results: every shipped table
    assert [(r, p) for r, p, _ in everything] == shipped_tables()
    assert dict(((r, p), d) for r, p, d in everything)[("two-four", 2)] == 2000
    assert dict(((r, p), d) for r, p, d in everything)[("basic", 3)] == DEALS
    for date, stale in (("2000-01-01T00:00:00+00:00", True), ("2999-01-01T00:00:00+00:00", False)):
        (tmp_path / "two-four-2p-fitted.json").write_text(json.dumps({"provenance": {"date": date}}))
        assert (("two-four", 2, 2000) in stale_tables(tmp_path)) is stale
    # measured after the fit, but on fewer deals than the table asks
    later = {"provenance": {"date": "2999-01-01T00:00:00+00:00"}}
    for deals, stale in ((1999, True), (2000, False)):
        (tmp_path / "two-four-2p-fitted.json").write_text(json.dumps({**later, "deals": deals}))
        assert (("two-four", 2, 2000) in stale_tables(tmp_path)) is stale


def test_interrupted_fit_resumes_to_the_same_strategy(tmp_path):
    """Rounds are checkpointed: 2 rounds, then a resumed run to 4, equal 4 rounds in one go."""
    from sapsam.strategy.fit import fit_equilibrium

    whole, _, whole_history = fit_equilibrium("basic", 2, iterations=4, hands=400, seed=5, tolerance=0)
    checkpoint = tmp_path / "fit.partial.npz"
    fit_equilibrium("basic", 2, iterations=2, hands=400, seed=5, tolerance=0, checkpoint=checkpoint)
    resumed, _, history = fit_equilibrium("basic", 2, iterations=4, hands=400, seed=5, tolerance=0,
                                       checkpoint=checkpoint, resume=True)
    assert np.array_equal(resumed, whole) and history == whole_history
    with pytest.raises(ValueError, match="checkpoint of another run"):
        fit_equilibrium("basic", 2, iterations=4, hands=500, seed=5, tolerance=0,
                        checkpoint=checkpoint, resume=True)


def test_interrupted_exploit_resumes_to_the_same_numbers(tmp_path):
    """Deals are checkpointed: 2 deals, then a resumed run to 4, equal 4 deals in one go."""
    from sapsam.measure.exploit import exploitability

    whole = exploitability("two-four", 2, "greedy", deals=4, samples=20, seed=9)
    checkpoint = tmp_path / "exploit.partial.npz"
    exploitability("two-four", 2, "greedy", deals=2, samples=20, seed=9, checkpoint=checkpoint)
    resumed = exploitability("two-four", 2, "greedy", deals=4, samples=20, seed=9,
                             checkpoint=checkpoint, resume=True)
    assert np.array_equal(resumed.gaps, whole.gaps) and resumed.gap == whole.gap


def test_exploit_out_keeps_a_finished_result(tmp_path):
    """Finished work is never replaced silently: a second run to the same file is refused
    unless --fresh (or --resume, which finishes a run) says so."""
    out = tmp_path / "gap.json"
    args = ["exploit", "--rules", "two-four", "--players", "2", "--policy", "greedy", "--deals", "2",
            "--samples", "20", "--out", str(out), "--quiet"]
    assert run(*args).exit_code == 0
    first = out.read_text()
    again = run(*args[:-3], "--seed", "5", *args[-3:])
    assert again.exit_code == 2 and "add --fresh (fresh=True) to replace it" in again.output
    assert out.read_text() == first
    assert run(*args, "--seed", "5", "--fresh").exit_code == 0 and out.read_text() != first


def test_a_surrender_ruleset_fits_to_a_finite_strategy_that_still_plays_hands():
    """Surrender feeds on itself if a surrendering field is ignored (every hand surrendered and
    the row distribution became 0/0); the fitted policy weighs the field's surrender rate."""
    mass, rate, history = fit_equilibrium("pagat-surrender", 4, iterations=6, hands=1500, seed=3,
                                          tolerance=0)
    assert np.isfinite(mass).all() and np.isfinite(history).all()
    np.testing.assert_allclose(mass.sum(axis=1), 1.0)
    assert 0.0 <= rate < 0.5, f"the fitted field surrenders {rate:.1%} of hands"
