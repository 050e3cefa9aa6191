"""The house way (analysis/strategy/houseway.py): a short point count derived from a fitted strategy.

It must set every hand legally, follow its own chart exactly, be reproducible from its seeds,
and cost what its paired measurement says, reproducibly.
"""

from itertools import combinations

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import SEED, deal_hands

from analysis.cli import main
from analysis.game.ruleset_files import load_ruleset
from analysis.measure.compare import policy_gap
from analysis.play.seeds import Stream
from analysis.strategy import houseway as H
from analysis.strategy.fit import fitted_strategy
from analysis.strategy.registry import make_policy
from kernels import policies as KP


@pytest.fixture(scope="module")
def standard():
    return H.derive("standard", 4)


def test_isotonic_is_the_weighted_monotone_fit():
    y = np.array([3.0, 1.0, 2.0, 5.0, 4.0])
    w = np.array([1.0, 1.0, 2.0, 1.0, 3.0])
    fit = H._isotonic(y, w)
    assert np.all(np.diff(fit) >= 0)
    assert np.dot(fit, w) == pytest.approx(np.dot(y, w))  # pooling keeps weighted sums
    assert fit.tolist() == pytest.approx([2.0] * 3 + [4.25] * 2)  # (3, 1) pool to 2; (5, 4) to 4.25


def test_segments_are_the_best_piecewise_constant_fit():
    rng = np.random.default_rng(SEED)
    y = np.sort(rng.random(9))
    w = rng.random(9) + 0.1

    def cost(bounds):
        return sum(float(np.dot(w[a:b], (y[a:b] - np.average(y[a:b], weights=w[a:b])) ** 2))
                   for a, b in bounds)

    got = H._segments(y, w, 3)
    assert got[0][0] == 0 and got[-1][1] == 9 and all(a[1] == b[0] for a, b in zip(got, got[1:]))
    brute = min(cost([(0, i), (i, j), (j, 9)]) for i, j in combinations(range(1, 9), 2))
    assert cost(got) == pytest.approx(brute)


def test_the_chart_is_short_increasing_and_is_what_the_policy_scores(standard):
    rules = load_ruleset("standard")
    assert len(standard.lines) == 3 * H.LINES
    for row in H.ROWS:
        points = [line.points for line in standard.lines if line.row == row]
        assert points == sorted(points) and points[0] == 0
    # every strength scores its line's points (on the ruleset's strength scale)
    scale = np.argsort(KP.WHEEL_SECOND) if str(rules.wheel_rank) == "second" else np.arange(KP.N_STRENGTHS)
    for k, row in enumerate(H.ROWS):
        kind = 0 if k == 0 else 1
        for line in (x for x in standard.lines if x.row == row):
            a = H.CLASS_KEYS[kind].index(line.first)
            b = H.CLASS_KEYS[kind].index(line.last)
            for s in np.flatnonzero((H.CLASS_OF[kind] >= a) & (H.CLASS_OF[kind] <= b)):
                assert standard.points[k, np.flatnonzero(scale == s)[0]] == line.points
    text = standard.describe()
    assert "Declare a natural" in text and "Surrender" in text  # standard has both
    assert "Declare a natural" not in H.derive("basic", 4).describe()


def test_the_house_way_sets_every_hand_legally_by_its_chart(standard):
    rules = load_ruleset("standard")
    compiled = rules.compile()
    policy = make_policy("houseway", rules, 4)
    hands = deal_hands(np.random.default_rng(SEED + 3), 400)
    rows, natural, _, surrender = KP.play_hands(hands, policy.code, policy.tables, policy.points,
                                                compiled.params, compiled.naturals, 3,
                                                Stream(SEED, "field").states(8))
    set_ = (natural < 0) & ~surrender
    assert set_.mean() > 0.8
    r = rows[set_].astype(np.int64)
    assert np.all((r[:, 2] >= r[:, 1]) & (r[:, 1] >= r[:, 0]))  # never a foul
    # the chart's best total among the frontier, and below the threshold only when surrendering
    from analysis.game.settings import pareto_frontier

    for hand, row, sur in list(zip(hands, rows, surrender))[:60]:
        members = [m.strengths for m in pareto_frontier(hand, wheel_rank=str(rules.wheel_rank)).members]
        totals = [sum(standard.points[k, s[k]] for k in range(3)) for s in members]
        if sur:
            assert max(totals) < standard.surrender_below
        elif row[0] >= 0:
            assert sum(standard.points[k, row[k]] for k in range(3)) == max(totals)


def test_derivation_and_cost_are_reproducible_from_their_seeds(standard):
    rules = load_ruleset("standard")
    fitted = fitted_strategy(rules, 4)
    fresh = H._derive(rules, 4, fitted, H.LINES, H.SAMPLE_HANDS, 0, None)  # not from the cache
    assert fresh.lines == standard.lines and np.array_equal(fresh.points, standard.points)
    a = policy_gap("standard", 4, "houseway", tables=1500, seed=3)
    b = policy_gap("standard", 4, "houseway", tables=1500, seed=3)
    assert a == b
    # what a house way costs is real: worse than fitted, by a clear margin over 1,500 tables
    assert a.ci_high < 0


def test_cli_houseway(tmp_path):
    result = CliRunner().invoke(main, ["houseway", "--rules", "standard", "--tables", "300",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "House way for `standard`" in result.output and "Cost against fitted" in result.output
    assert (tmp_path / "standard-4p.md").read_text().startswith("House way")
    assert (tmp_path / "standard-4p.json").is_file()


@pytest.mark.parametrize("args, message", [
    (["--rules", "nope"], "unknown ruleset"),
    (["--rules", "standard", "--tables", "0"], "--tables"),
    (["--rules", "standard", "--out", "/proc/forbidden"], "cannot write"),
])
def test_cli_houseway_bad_input(args, message):
    result = CliRunner().invoke(main, ["houseway", *args])
    assert result.exit_code == 2
    assert message in result.output
