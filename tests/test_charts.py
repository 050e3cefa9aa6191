"""Strategy charts (analysis/output/charts.py) and ``sapsam chart``."""

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from sapsam.cli import main
from sapsam.game.ruleset_files import load_ruleset, ruleset_ids
from sapsam.kernels.evaluate import N_STRENGTHS
from sapsam.kernels.value import TIE, WIN
from sapsam.output import charts
from sapsam.output.chart_frames import win_probability
from sapsam.output.charts import CHART_KINDS, chart_data, chart_stem, write_chart
from sapsam.play.strategy_files import load_strategy, strategy_path
from sapsam.strategy.registry import make_policy

# tiny budgets: a chart in about a second
TINY = {"rows": None, "front": 300, "rulesets": 60, "declare": 200, "policies": 100, "match": 2}
RULES = {"rulesets": ["standard", "basic"], "match": "first-to-11"}


@pytest.mark.parametrize("kind", CHART_KINDS)
def test_every_kind_writes_figure_data_and_manifest(kind, tmp_path):
    rules = RULES.get(kind, "standard")
    written = write_chart(kind, rules, 4, samples=TINY[kind], seed=1, out=tmp_path / "charts")
    stem = chart_stem(kind, rules, 4)
    assert [p.name for p in written] == [f"{stem}.{ext}" for ext in ("png", "svg", "csv", "json")]
    png, svg, csv, manifest = written
    assert all(p.stat().st_size > 0 for p in written)
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert b"<svg" in svg.read_bytes()[:1000]
    frame = pd.read_csv(csv)
    assert len(frame) > 0
    record = json.loads(manifest.read_text())
    assert record["files"] == [p.name for p in written]
    assert record["kind"] == kind and record["players"] == 4
    assert record["samples"] == TINY[kind]
    assert record["rules"] == rules
    assert {"sapsam", "numba", "numpy", "git", "date", "seconds"} <= set(record)
    uses_policies = kind in ("rulesets", "policies")
    assert record["policies"] == (["greedy", "balanced"] if uses_policies else None)
    assert not list((tmp_path / "charts").glob(".*"))  # no temporary or probe files left


def test_chart_files_are_reproducible(tmp_path):
    first = write_chart("front", "standard", 4, samples=300, seed=2, out=tmp_path / "a")
    again = write_chart("front", "standard", 4, samples=300, seed=2, out=tmp_path / "b")
    for one, two in zip(first[:3], again[:3]):  # png, svg, csv: the same bytes
        assert one.read_bytes() == two.read_bytes(), one.name


def test_rows_are_the_ev_tables_win_and_tie_chances():
    # tables[k, s, WIN] = P(opponent's row weaker), tables[k, s, TIE] = P(equal) (ev_tables)
    tables = make_policy("fitted", "standard", 4).tables[:, :N_STRENGTHS]
    mass, _ = load_strategy(strategy_path("standard", 4))
    np.testing.assert_allclose(win_probability(mass), tables[..., WIN] + tables[..., TIE] / 2,
                               atol=1e-12)
    frame = chart_data("rows", "standard", 4)
    assert set(frame.row) == {"front", "middle", "back"}
    # A stronger hand never wins less often.  The groups (category, then top rank) split each
    # row's strength scale into consecutive runs, so in that order weakest, median, strongest
    # of one group, then of the next, never go down: a group's strongest hand wins at most
    # what the next group's weakest does.  (Within a group alone the check would hold whatever
    # the chart computed: the frame sorts each group's numbers.)
    for row, here in frame.groupby("row"):
        ordered = here.sort_values(["category", "top_rank"])
        chain = ordered[["p_weakest", "p_median", "p_strongest"]].to_numpy().ravel()
        assert (np.diff(chain) >= 0).all(), row
        assert chain[-1] > chain[0], row  # and the row's best hand wins more than its worst
    assert frame.p_weakest.min() >= 0 and frame.p_strongest.max() <= 1
    front = frame[frame.row == "front"]
    assert set(front.category_name) == {"High card", "Pair", "Three of a kind"}
    assert len(front) == 11 + 13 + 13 and front.classes.sum() == 455
    assert frame[frame.row != "front"].groupby("row").classes.sum().tolist() == [7462, 7462]
    pairs = front[front.category_name == "Pair"].sort_values("top_rank")
    assert pairs.p_median.is_monotonic_increasing
    for row, played in frame.groupby("row").played.sum().items():
        assert played == pytest.approx(1.0), row


def test_front_and_declare_shares_add_up():
    front = chart_data("front", "standard", 4, samples=400, seed=3)
    assert front["count"].sum() == 400 and front.share.sum() == pytest.approx(1.0)
    assert (front.ci_low <= front.share).all() and (front.share <= front.ci_high).all()
    assert front.label.iloc[0] == "4-high" and "AA" in set(front.label)
    declare = chart_data("declare", "standard", 4, samples=400, seed=3)
    assert declare["count"].sum() == 400  # set, surrender or one natural: every hand once
    assert declare.decision.iloc[:2].tolist() == ["set a hand", "surrender"]
    assert (declare.kind == "natural").sum() == 12  # standard's naturals
    assert declare.loc[declare["count"] == 0, "ev"].isna().all()


def test_rulesets_all_is_every_named_ruleset(monkeypatch):
    picked = {}

    def fake_frame(rulesets, players, policies, tables, seed, progress=None):
        picked["ids"] = [r.id for r in rulesets]
        return pd.DataFrame()

    monkeypatch.setattr(charts, "rulesets_frame", fake_frame)
    for players in (2, 4):
        chart_data("rulesets", "all", players, samples=10)
        assert picked["ids"] == [rid for rid in ruleset_ids()
                                 if players in load_ruleset(rid).tables]
    assert "criss-cross" not in picked["ids"]  # heads-up only


def test_a_rulesets_chart_plays_the_house_way_where_there_is_one(tmp_path):
    """low-middle has no house way (its middle is a low): a rulesets chart with the house way
    (as ``make results`` draws all of them) leaves it out there, not the ruleset; a policies
    chart of low-middle alone, which asks for nothing else, is refused."""
    frame = chart_data("rulesets", ["low-middle", "standard"], 4, samples=20,
                       policies=("greedy", "houseway"))
    assert sorted(zip(frame["rules"], frame["policy"])) == [
        ("low-middle", "greedy"), ("standard", "greedy"), ("standard", "houseway")]
    with pytest.raises(ValueError, match="no house way"):
        chart_data("policies", "low-middle", 4, samples=20, policies=("houseway",))
    paths = write_chart("rulesets", ["low-middle", "standard"], 4, samples=20, out=tmp_path,
                        policies=("greedy", "houseway"))  # its figure: no house way point there
    assert {p.suffix for p in paths} == {".png", ".svg", ".csv", ".json"}


def test_stems():
    assert chart_stem("rows", "standard", 4) == "rows-standard-4p"
    assert chart_stem("rulesets", "all", 4) == "rulesets-all-4p"
    assert chart_stem("rulesets", ["standard", "basic"], 2) == "rulesets-standard+basic-2p"
    many = chart_stem("rulesets", ["a", "b", "c", "d", "e"], 4)
    assert many.startswith("rulesets-5-rulesets-") and many != chart_stem(
        "rulesets", ["a", "b", "c", "d", "f"], 4)


@pytest.mark.parametrize("kind, options, message", [
    ("rows", {"rules": "nope"}, "unknown ruleset 'nope'"),
    ("policies", {"policies": ("bogus",)}, "unknown policy 'bogus'"),
    ("policies", {"policies": ()}, "at least one policy"),
    ("front", {"samples": 0}, "samples must be a whole number >= 1"),
    ("bars", {}, "unknown chart 'bars'"),
    ("rows", {"rules": ["standard", "basic"]}, "takes one ruleset"),
])
def test_bad_input_raises_before_any_work(kind, options, message, tmp_path):
    arguments = {"rules": "standard", **options}
    with pytest.raises(ValueError, match=message):
        write_chart(kind, out=tmp_path / "out", **arguments)
    assert not (tmp_path / "out").exists()  # nothing created for bad input


# ---- command line -----------------------------------------------------------------------------

def run(*args):
    return CliRunner().invoke(main, list(args))


def test_cli_chart_prints_the_files(tmp_path):
    out = tmp_path / "charts"
    result = run("chart", "policies", "--rules", "standard", "--players", "4", "--samples", "80",
                 "--seed", "4", "--policies", "greedy,random", "--out", str(out))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.rsplit("/", 1)[-1] for line in lines] == [
        f"policies-standard-4p.{ext}" for ext in ("png", "svg", "csv", "json")]
    assert all((out / line.rsplit("/", 1)[-1]).is_file() for line in lines)
    assert list(pd.read_csv(out / "policies-standard-4p.csv").policy) == ["greedy", "random"]


def test_cli_rulesets_take_a_list(tmp_path):
    result = run("chart", "rulesets", "--rules", "standard,basic", "--samples", "40",
                 "--policies", "greedy", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "rulesets-standard+basic-4p.png").is_file()


def test_cli_rulesets_of_all_are_those_played_at_the_table(tmp_path):
    """``--rules all`` (the default) is every named ruleset played by four: criss-cross, which
    is heads-up, is left out, not fitted for four and refused."""
    result = run("chart", "rulesets", "--samples", "20", "--policies", "greedy", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    rules = set(pd.read_csv(tmp_path / "rulesets-all-4p.csv")["rules"])
    assert "standard" in rules and "criss-cross" not in rules


@pytest.mark.parametrize("args, token", [
    (("rows", "--rules", "nope"), "nope"),
    (("policies", "--policies", "greedy,bogus", "--samples", "10"), "bogus"),
    (("front", "--rules", "standard,basic"), "one ruleset"),
])
def test_cli_bad_input_exits_2_with_one_line(args, token, tmp_path):
    result = run("chart", *args, "--out", str(tmp_path))
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error:") and token in lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args, token", [(("front", "--samples", "0"), "--samples"),
                                         (("bars",), "bars")])
def test_cli_usage_errors_exit_2(args, token, tmp_path):
    # click's own usage errors (one line from the installed command, see sapsam.cli.run)
    result = run("chart", *args, "--out", str(tmp_path))
    assert result.exit_code == 2, result.output
    assert token in result.stderr


def test_cli_unwritable_out_exits_2(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = run("chart", "rows", "--out", str(blocker / "charts"))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("Error:") and "cannot write to" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_a_match_ruleset_is_labelled_in_a_rulesets_chart():
    """first-to-11's points are won a deal, not netted, so its EV sits off 0: its tick says so."""
    from sapsam.output.chart_figures import _ruleset_label

    assert _ruleset_label("first-to-11") == "first-to-11 (match points)"
    assert _ruleset_label("standard") == "standard"
