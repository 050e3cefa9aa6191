"""The Python API (analysis/api.py, analysis/paigow/api.py, analysis/ofc/api.py): each function
gives what its command's ``--json`` gives for the same arguments and seed, its tables as
DataFrames, its bad input as the command's one-line error, and ``import sapsam`` loads no
Numba."""

import json
import re
import subprocess
import sys

import pandas as pd
import pytest
from click.testing import CliRunner

import sapsam
from sapsam.base.files import json_text
from sapsam.cli import main
from sapsam.game.ruleset_files import as_dict

HAND = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"
PLAYED = "5c 5d 2c | 9s 9h 4h 3s 2d | As Kd Qh Jc Ts"
OTHER = "Ac Kc Qc Jd Td 8s 8h 7c 6d 6h 4s 3c 3d"  # criss-cross: the player's other hand
SHOWDOWN = ["Ah Ad 2c | Ks Kd 7h 7c 3s | 9s 9h 9d 4c 4d",
            "Qh Qd 5c | Js Jd 8h 8c 2s | Ts Th Td 6c 6d"]
FANTASYLAND = "As Ad Ac Kh Kd Qs Qh Jc Tc 9c 8c 7c 2d 3h"


def command(*args):
    """What a command prints with --json, read back."""
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def error_line(*args):
    """The one-line error a command prints, without its ``Error: ``."""
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 2, result.output
    return result.stderr.strip().removeprefix("Error: ")


def same(data):
    """``data`` as the command's JSON reads back (tuples as lists, numpy numbers as Python's, an
    undefined figure's NaN as null)."""
    return json.loads(json_text(data))


def test_importing_sapsam_loads_no_numba():
    code = ("import sys, sapsam; sapsam.paigow, sapsam.ofc, sapsam.paigow.best, sapsam.ofc.place; "
            "print(sorted(m for m in ('numba', 'numpy', 'pandas') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_package_names_the_api_and_the_games():
    for name in ("best", "review", "score", "settings", "rulesets", "ruleset", "simulate",
                 "report", "exploit", "houseway", "chart", "paigow", "ofc", "best_setting"):
        assert name in dir(sapsam)
    assert sapsam.paigow.__name__ == "sapsam.paigow" and sapsam.ofc.__name__ == "sapsam.ofc"
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        sapsam.nothing  # noqa: B018


@pytest.mark.parametrize("options", [
    {"seed": 1, "samples": 300},
    {"seed": 2, "samples": 200, "rules": "two-four", "players": 2, "opponents": "greedy"},
    {"seed": 3, "samples": 400, "precision": 0.5},
])
def test_best_is_the_command(options):
    args = [f"--{k}={v}" for k, v in options.items()]
    result = sapsam.best(HAND, **options)
    assert result.to_dict() == command("best", HAND, *args)
    frame = result.to_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame) == len(result.to_dict()["candidates"])
    assert frame.index[0] == 1 and frame["setting"].tolist() == result.table["setting"].tolist()


def test_best_of_two_hands_in_criss_cross():
    both = command("best", HAND, "--other", OTHER, "--rules", "criss-cross", "--samples", "200")
    assert both["hands"] == [sapsam.best(HAND, "criss-cross", other=OTHER, samples=200).to_dict(),
                             sapsam.best(OTHER, "criss-cross", other=HAND, samples=200).to_dict()]


def test_best_for_a_match():
    result = sapsam.best(HAND, "first-to-11", scores=(8, 10), samples=200, seed=1)
    assert same(result.to_dict()) == command("best", HAND, "--rules", "first-to-11",
                                             "--score", "8,10", "--samples", "200", "--seed", "1")
    assert len(result.to_frame()) == len(result.table)


def test_review_is_the_command():
    played = sapsam.review(HAND, PLAYED, samples=300, seed=1)
    assert played.to_dict() == command("review", HAND, PLAYED, "--samples", "300", "--seed", "1")
    assert played.to_frame().loc[played.rank, "ev"] == played.ev


def test_score_is_the_command():
    names = ["North", "South"]
    settled = sapsam.score(SHOWDOWN, "two-four", names=names)
    assert settled.to_dict() == command("score", *SHOWDOWN, "--rules", "two-four",
                                        "--names", ",".join(names))
    assert settled.totals == settled.to_dict()["totals"]
    assert settled.to_frame()[["first", "second"]].values.tolist() == [names]


def test_rulesets_are_the_command():
    listed = sapsam.rulesets()
    assert listed.to_dict() == command("rules")
    assert list(listed) == list(command("rules")) and len(listed.to_frame()) == len(listed)
    assert as_dict(sapsam.ruleset("taiwanese")) == command("rules", "taiwanese")


@pytest.mark.parametrize("options", [{}, {"rules": "low-middle"}, {"wheel_rank": "second"}])
def test_settings_are_the_command(options):
    args = [f"--{k.replace('_', '-')}={v}" for k, v in options.items()]
    found = sapsam.settings(HAND, **options)
    assert found.to_dict() == command("settings", HAND, *args)
    assert len(found.to_frame()) == len(found.members) == len(found.frontier)


def test_exploit_is_the_command():
    found = sapsam.exploit(deals=2, samples=40, seed=1)
    assert same(found.to_dict()) == command("exploit", "--deals", "2", "--samples", "40",
                                            "--seed", "1")
    assert len(found.to_frame()) == found.to_dict()["hands"]


def test_houseway_of_a_hand_is_the_command():
    way = sapsam.houseway(HAND, samples=200, seed=1)
    assert way.to_dict() == command("houseway", HAND, "--samples", "200", "--seed", "1")


def test_houseway_and_its_cost_are_the_command(tmp_path):
    result = CliRunner().invoke(main, ["houseway", "--tables", "300", "--out", str(tmp_path / "cli"),
                                       "--quiet"])
    assert result.exit_code == 0, result.output
    written = json.loads((tmp_path / "cli" / "standard-4p.json").read_text())
    for way in (sapsam.houseway(tables=300), sapsam.houseway(tables=300, out=tmp_path / "api")):
        assert same(way.to_dict()) == {key: written[key] for key in way.to_dict()}
    assert {p.name for p in way.paths} <= {p.name for p in (tmp_path / "cli").iterdir()}


def test_simulate_and_report_are_the_command(tmp_path):
    args = ["--rules", "standard,two-four", "--seats", "greedy", "--tables", "600", "--seed", "1",
            "--block-size", "200", "--quiet"]
    result = CliRunner().invoke(main, ["simulate", *args, "--out", str(tmp_path / "cli")])
    assert result.exit_code == 0, result.output
    memory = sapsam.simulate(["standard", "two-four"], seats="greedy", tables=600, seed=1,
                             block_size=200)
    written = sapsam.simulate(["standard", "two-four"], seats="greedy", tables=600, seed=1,
                              block_size=200, out=tmp_path / "api")
    command_report = sapsam.report(tmp_path / "cli")
    for other in (written, command_report):
        for name, frame in memory.frames.items():
            pd.testing.assert_frame_equal(other.frames[name], frame, check_dtype=False)
    assert written.manifest["run"] == command_report.manifest["run"]
    assert len(memory.to_frame()) == 2 * 4


def test_chart_is_the_command(tmp_path):
    result = CliRunner().invoke(main, ["chart", "front", "--samples", "300", "--seed", "1",
                                       "--out", str(tmp_path / "cli"), "--quiet"])
    assert result.exit_code == 0, result.output
    made = sapsam.chart("front", samples=300, seed=1, out=tmp_path / "api")
    assert {p.name for p in made.paths} == {p.name for p in (tmp_path / "cli").iterdir()}
    csv = next(p.name for p in made.paths if p.suffix == ".csv")
    assert (tmp_path / "api" / csv).read_text() == (tmp_path / "cli" / csv).read_text()
    pd.testing.assert_frame_equal(sapsam.chart("front", samples=300, seed=1).to_frame(),
                                  made.to_frame(), check_dtype=False)


@pytest.mark.parametrize("options", [{}, {"banking": True, "commission": 0.0476}])
def test_paigow_best_is_the_command(options):
    args = (["--banking"] if options.get("banking") else []) + (
        ["--commission", str(options["commission"])] if "commission" in options else [])
    found = sapsam.paigow.best("teen day gee joon eight", **options)
    assert found.to_dict() == command("paigow", "best", "teen day gee joon eight", *args)
    assert len(found.to_frame()) == len(found.settings)


def test_paigow_table_is_the_command():
    table = sapsam.paigow.table()
    assert table.to_dict() == command("paigow", "table")
    assert len(table.to_frame()) == len(table.rows) == 8
    teen = sapsam.paigow.table(high_three="teen")
    assert teen.to_dict() == command("paigow", "table", "--high-three", "teen")
    assert teen.to_frame()["push %"].tolist() != table.to_frame()["push %"].tolist()


def test_ofc_fantasyland_is_the_command():
    best = sapsam.ofc.fantasyland(FANTASYLAND)
    mine, theirs = best.to_dict(), command("ofc", "fantasyland", FANTASYLAND)
    mine.pop("seconds"), theirs.pop("seconds")  # the search's wall time
    assert mine == theirs
    assert best.to_frame()["royalty"].sum() == best.royalties


BOARD = "As Ad | Kc Qc 5d | 9h 9s"


@pytest.mark.parametrize("options, args", [
    ({"samples": 64}, ["--samples", "64"]),
    ({"samples": 32, "seed": 4, "opponents": ["fantasyland:14"], "dead": "2d",
      "policy": "heuristic"},
     ["--samples", "32", "--seed", "4", "--opponents", "fantasyland:14", "--dead", "2d",
      "--policy", "heuristic"]),
])
def test_ofc_place_is_the_command(options, args):
    ranked = sapsam.ofc.place("Ah 2c 7d", board=BOARD, **options)
    assert ranked.to_dict() == command("ofc", "place", "--board", BOARD, "--hand", "Ah 2c 7d", *args)
    assert len(ranked.to_frame()) == len(ranked.to_dict()["placements"])


def test_ofc_stay_and_simulate_are_the_command():
    stays = sapsam.ofc.stay(cards=[14, 15], samples=3000, seed=2)
    assert stays.to_dict() == command("ofc", "stay", "--cards", "14,15", "--samples", "3000",
                                      "--seed", "2")
    # seats that play fast (the default lookahead plays 50 hands in about 25 s a ruleset)
    run = sapsam.ofc.simulate(["ofc-pineapple", "ofc-classic"], seats=["improved", "heuristic"], hands=50, seed=3)
    assert same(run.to_dict()) == same(command(
        "ofc", "simulate", "--rules", "ofc-pineapple,ofc-classic", "--seats", "improved,heuristic", "--hands", "50",
        "--seed", "3"))
    assert run.to_frame()[["rules", "seat"]].values.tolist() == [
        ["ofc-pineapple", 0], ["ofc-pineapple", 1], ["ofc-classic", 0], ["ofc-classic", 1]]


@pytest.mark.parametrize("call, args", [
    (lambda: sapsam.best(HAND.replace("Ts", "Xs")), ("best", HAND.replace("Ts", "Xs"))),
    (lambda: sapsam.best(HAND, rules="no-such-rules"), ("best", HAND, "--rules", "no-such-rules")),
    (lambda: sapsam.review(HAND, PLAYED.replace("2c", "Ah")), ("review", HAND, PLAYED.replace("2c", "Ah"))),
    (lambda: sapsam.settings(HAND[:-3]), ("settings", HAND[:-3])),
    (lambda: sapsam.ruleset("no-such-rules"), ("rules", "no-such-rules")),
    (lambda: sapsam.score(SHOWDOWN[:1]), ("score", SHOWDOWN[0])),
    (lambda: sapsam.paigow.best("teen day"), ("paigow", "best", "teen day")),
    (lambda: sapsam.ofc.fantasyland("As Ad"), ("ofc", "fantasyland", "As Ad")),
    (lambda: sapsam.ofc.place("Ah 2c", board="As Ad | Kc Qc 5d | 9h 9s"),
     ("ofc", "place", "--board", "As Ad | Kc Qc 5d | 9h 9s", "--hand", "Ah 2c")),
])
def test_bad_input_is_a_value_error_saying_what_the_command_says(call, args):
    with pytest.raises(ValueError) as raised:
        call()
    assert " ".join(str(raised.value).split()) == error_line(*args)


@pytest.mark.parametrize("call, says", [
    (lambda: sapsam.best(HAND, samples="100"), "samples must be a whole number, got '100'"),
    (lambda: sapsam.best(HAND, samples=100.5), "samples must be a whole number, got 100.5"),
    (lambda: sapsam.best(HAND, samples=100, precision=float("nan")), "precision must be a finite number, got nan"),
    (lambda: sapsam.best(HAND, seed=-1), "seed must be at least 0"),
    (lambda: sapsam.review(HAND, PLAYED, samples=None), "samples must be a whole number, got None"),
    (lambda: sapsam.simulate("standard", seats="greedy", tables="x"), "tables must be a whole number"),
    (lambda: sapsam.exploit(deals=True), "deals must be a whole number, got True"),
    (lambda: sapsam.score(None), "give the declarations as a list"),
    (lambda: sapsam.best(None), "expected a hand of 13 cards"),
    (lambda: sapsam.best(HAND, rules="no-such-file.toml"), "no ruleset file no-such-file.toml"),
    (lambda: sapsam.best(HAND, rules="first-to-11", players=2, scores="3 x"), "scores are whole numbers"),
    (lambda: sapsam.ofc.stay(cards="14", samples=10), "cards must be a whole number, got '14'"),
    (lambda: sapsam.ofc.place("Ah 2c 7d", board="As Ad | Kc Qc 5d | 9h 9s", race="no"), "race must be True or False"),
    (lambda: sapsam.paigow.best([0, 0, 0, 0]), "repeat a tile"),
    (lambda: sapsam.paigow.best([0, 1, 2, 99]), "tile index 99"),
    (lambda: sapsam.paigow.best([0, 1, 2]), "3 tiles given"),
    (lambda: sapsam.paigow.best(None), "give the tiles as text"),
    (lambda: sapsam.paigow.best("6-6 1-1 4-2 5-3", commission="x"), "commission must be a finite number"),
    (lambda: sapsam.paigow.best("6-6 1-1 4-2 5-3", banking="no"), "banking must be True or False"),
    (lambda: sapsam.paigow_poker.house_edge(deals="10"), "deals must be a whole number"),
    # card codes reach a kernel only from the deck: 99 crashed the interpreter (a segmentation fault)
    (lambda: sapsam.ofc.fantasyland(list(range(13)) + [99]), "card codes lie in 0 to 51"),
    (lambda: sapsam.ofc.fantasyland([0] * 14), "duplicate card 2c in Fantasyland hand"),
    (lambda: sapsam.ofc.fantasyland(list(range(20))), "13 to 17 cards, got 20"),
    (lambda: sapsam.ofc.fantasyland(5), "expected Fantasyland hand as text"),
    (lambda: sapsam.score([1, 2]), "a declaration is text"),
    (lambda: sapsam.review(HAND, PLAYED.split(" | ")), "a setting is text"),
    (lambda: sapsam.houseway(5), "expected hand as text"),
    (lambda: sapsam.paigow_poker.best(5), "expected hand as text"),
    (lambda: sapsam.ofc.place("Ah 2c 7d", board=5), "a board is text"),
    (lambda: sapsam.simulate([]), "rules: a name or a list of names, got []"),
    (lambda: sapsam.simulate("standard", seats=3), "seats: a name or a list of names, got 3"),
    (lambda: sapsam.best(HAND, rules="first-to-11", scores=5), "scores are a player's score each"),
    # a strength ordinal, not cards: "invalid literal for int() with base 10: 'x'" said nothing of it
    (lambda: sapsam.describe("x"), "expected a hand's strength, a whole number from 0 to 7916"),
    (lambda: sapsam.describe("Kh Ks Kd 8c 8d"), 'as strength("Kh Ks Kd 8c 8d") gives'),
])
def test_a_python_caller_s_wrong_types_are_value_errors_naming_the_argument(call, says):
    """What the command line's types refuse, the API refuses in words: never a ``TypeError``
    from deep inside (a ``"100"`` compared with 1)."""
    with pytest.raises(ValueError, match=re.escape(says)):
        call()


def test_numpy_values_are_taken_as_their_python_kind():
    """A number or flag from numpy (an array's element) is as good as Python's."""
    import numpy as np

    assert sapsam.paigow.best("6-6 1-1 4-2 5-3", banking=np.True_, commission=np.float64(0.05)).banking is True
    assert sapsam.best(HAND, samples=np.int64(100), seed=np.int32(1)).to_dict() == sapsam.best(
        HAND, samples=100, seed=1).to_dict()


def test_a_chart_plays_the_ruleset_s_table_by_default():
    assert sapsam.chart("rows", rules="criss-cross").info["players"] == 2
    assert sapsam.chart("rows").info["players"] == 4


def test_the_api_takes_cards_and_tiles_as_lists_of_text_and_is_an_attribute():
    listed = sapsam.best(HAND.split(), samples=100, seed=1).to_dict()
    assert listed == sapsam.best(HAND, samples=100, seed=1).to_dict()
    assert sapsam.paigow.best(["6-6", "1-1", "4-2", "5-3"]).tiles == sapsam.paigow.best("6-6 1-1 4-2 5-3").tiles
    assert sapsam.best(HAND, rules="first-to-11", samples=100, scores="3,5").to_dict()["scores"] == [3, 5]
    assert sapsam.api.best is sapsam.best and "best" in sapsam.api.__all__ and "Path" not in sapsam.api.__all__



def test_fantasyland_takes_cards_as_a_list_too():
    as_text, as_list = (sapsam.ofc.fantasyland(c).to_dict() for c in (FANTASYLAND, FANTASYLAND.split()))
    as_text.pop("seconds"), as_list.pop("seconds")
    assert as_list == as_text


def numbers_not_python_s(data, where="to_dict()"):
    """The places in ``data`` holding anything but Python's own JSON values (a numpy.float64 is a
    float subclass that ``json.dumps`` takes, but prints as ``np.float64(...)`` in a repr)."""
    if isinstance(data, dict):
        return [bad for key, value in data.items() for bad in numbers_not_python_s(value, f"{where}[{key!r}]")]
    if isinstance(data, list | tuple):
        return [bad for i, value in enumerate(data) for bad in numbers_not_python_s(value, f"{where}[{i}]")]
    return [] if data is None or type(data) in (str, int, float, bool) else [f"{where}: {type(data).__name__}"]


def test_results_hold_python_s_numbers():
    """Every figure of a result's ``to_dict()`` (its confidence intervals too) and of its repr
    is a Python float, not numpy's."""
    results = [sapsam.review(HAND, PLAYED, samples=200, seed=1), sapsam.houseway(HAND, samples=200, seed=1),
               sapsam.exploit(deals=2, samples=40, seed=1), sapsam.paigow.best("6-6 1-1 4-2 5-3"),
               sapsam.paigow.table()]
    for result in results:
        assert numbers_not_python_s(result.to_dict()) == [], type(result).__name__
        assert "np." not in repr(result), repr(result)
    review, way, found = results[:3]
    assert all(type(x) is float for x in (*review.ci, *review.best_ci, *review.loss_ci, *way.ci, *way.best_ci,
                                           *found.ci, *found.ci_in_sample))


def test_the_house_way_of_a_hand_has_its_ranking_as_a_frame():
    way = sapsam.houseway(HAND, samples=200, seed=1)
    frame = way.to_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame) == way.candidates
    assert frame.loc[way.rank, "setting"] == way.houseway["decision"] and frame.loc[way.rank, "ev"] == way.ev
    assert frame.loc[1, "setting"] == way.best and "ranking" not in way.to_dict()


def test_api_errors_name_the_keywords_not_the_command_s_options(tmp_path):
    """What the API refuses is said in its keywords (``bank=``, ``fresh=True``), the command's
    in its options (``--bank``, ``--fresh``)."""
    def refused(call):
        with pytest.raises(ValueError) as raised:
            call()
        assert not re.search(r"--\w", str(raised.value)), str(raised.value)
        return str(raised.value)

    assert "bank= applies only to bank rulesets" in refused(lambda: sapsam.score(SHOWDOWN, bank=1))
    assert "--bank applies only to bank rulesets" in error_line("score", *SHOWDOWN, "--bank", "1")
    assert "use players=2" in refused(lambda: sapsam.simulate("criss-cross", players=4, seats="greedy", tables=10))
    run = {"seats": "greedy", "tables": 200, "block_size": 100, "out": tmp_path / "run"}
    sapsam.simulate("standard", **run)
    assert "add resume=True to continue it, or fresh=True" in refused(lambda: sapsam.simulate("standard", **run))
    assert "add --resume to continue it, or --fresh" in error_line(
        "simulate", "--rules", "standard", "--seats", "greedy", "--tables", "200", "--block-size", "100",
        "--out", str(tmp_path / "run"))
    found = {"deals": 1, "samples": 20, "out": tmp_path / "exploit.json"}
    sapsam.exploit(**found)
    assert "add fresh=True to replace it" in refused(lambda: sapsam.exploit(**found))
    (tmp_path / "file").write_text("")
    assert "cannot write to out " in refused(lambda: sapsam.simulate("standard", **{**run, "out": tmp_path / "file"}))
    assert "cannot write to out " in refused(lambda: sapsam.chart("rows", out=tmp_path / "file"))


def test_the_paigow_chart_writes_only_where_it_is_asked_to(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    found = sapsam.paigow.chart()
    assert list(tmp_path.iterdir()) == [] and found.paths == () and found.folder is None
    assert len(found.to_frame()) == 3620 and numbers_not_python_s(found.to_dict()) == []
    assert found.figure().axes and found.text().startswith("# Pai Gow tiles")
    result = CliRunner().invoke(main, ["paigow", "chart", "--out", str(tmp_path / "cli")])
    assert result.exit_code == 0, result.output
    written = sapsam.paigow.chart(out=tmp_path / "api")
    assert sorted(p.name for p in written.paths) == sorted(p.name for p in (tmp_path / "cli").iterdir())
    assert all(p.parent == tmp_path / "api" for p in written.paths) and written.to_dict() == found.to_dict()
    assert (tmp_path / "api" / "strategy.md").read_text() == (tmp_path / "cli" / "strategy.md").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["api", "cli"]


def test_the_paigow_poker_docstrings_say_what_the_functions_do():
    edge = sapsam.paigow_poker.house_edge(deals=100)
    assert [row["deals"] for row in edge["rows"]] == [128, 128]  # rounded up to a multiple of 64
    assert "multiple of 64" in " ".join(sapsam.paigow_poker.house_edge.__doc__.split())
    with pytest.raises(ValueError, match="hands must be at least 2"):
        sapsam.paigow_poker.house_way_cost(hands=1)
    assert "None for a single hand" not in " ".join(sapsam.paigow_poker.house_way_cost.__doc__.split())
