"""The ``sapsam`` command line (analysis/cli.py)."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from sapsam.cli import main
from sapsam.game import settings as api
from sapsam.game.cards import parse_cards
from sapsam.game.hands import rank3, rank5
from sapsam.kernels.evaluate import WHEEL_SECOND

HAND = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"
WHEEL_HAND = "Ac 2d 3h 4s 5c 5d 9h Tc Jd Qh Ks 7c 8d"
TWELVE = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c"


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_settings_table():
    result = run("settings", HAND)
    assert result.exit_code == 0, result.output
    frontier = api.pareto_frontier(HAND)
    assert f"Legal splits: {frontier.legal:,} of 72,072" in result.stdout
    assert f"distinct strength triples: {frontier.distinct:,}" in result.stdout
    assert f"frontier: {len(frontier.members):,}" in result.stdout
    for m in frontier.members:
        front, middle, back = m.text.split(" | ")
        assert front in result.stdout and middle in result.stdout and back in result.stdout
    assert result.stderr == ""


@pytest.mark.parametrize("hand, wheel_rank", [(HAND, "ace-low"), (WHEEL_HAND, "ace-low"),
                                              (WHEEL_HAND, "second")])
def test_settings_json(hand, wheel_rank):
    result = run("settings", "--json", "--wheel-rank", wheel_rank, hand)
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert {"legal", "distinct", "frontier"} <= set(payload)
    frontier = api.pareto_frontier(hand, wheel_rank=wheel_rank)
    assert payload["legal"] == frontier.legal
    assert payload["distinct"] == frontier.distinct
    assert len(payload["frontier"]) == len(frontier.members)
    hand_cards = sorted(parse_cards(hand).tolist())
    for item, member in zip(payload["frontier"], frontier.members):
        assert isinstance(item, list) and len(item) == 3
        rows = [parse_cards(text) for text in item]
        assert [len(r) for r in rows] == [3, 5, 5]
        assert sorted(sum((r.tolist() for r in rows), [])) == hand_cards
        assert [sorted(r.tolist()) for r in rows] == [
            sorted(member.front.tolist()), sorted(member.middle.tolist()), sorted(member.back.tolist())]
        five = WHEEL_SECOND if wheel_rank == "second" else np.arange(len(WHEEL_SECOND))
        assert (int(rank3(rows[0])[0]), int(five[rank5(rows[1])[0]]),
                int(five[rank5(rows[2])[0]])) == member.strengths


def test_wheel_rank_option_changes_json():
    low = json.loads(run("settings", "--json", WHEEL_HAND).stdout)
    second = json.loads(run("settings", "--json", "--wheel-rank", "second", WHEEL_HAND).stdout)
    assert low["frontier"] != second["frontier"]


@pytest.mark.parametrize("hand, token", [
    (TWELVE, "12"),
    (HAND.replace("2d", "2c"), "2c"),  # duplicate
    (HAND.replace("Ts", "Xs"), "Xs"),
    (HAND.replace("Ts", "1s"), "1s"),
    (HAND.replace("Ts", "Tx"), "Tx"),
])
def test_bad_input_exits_2_with_one_line(hand, token):
    result = run("settings", hand)
    assert result.exit_code == 2
    assert isinstance(result.exception, SystemExit)  # a clean exit, not an uncaught error
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error:")
    assert token in lines[0]
    assert "Traceback" not in result.output
    assert result.stdout == ""


def test_bad_option_exits_2():
    result = run("settings", "--wheel-rank", "high", HAND)
    assert result.exit_code == 2
    assert "high" in result.stderr


def sapsam_script():
    """The installed console script, next to this interpreter."""
    path = os.path.join(os.path.dirname(sys.executable), "sapsam")
    if not os.path.exists(path):
        pytest.skip(f"no console script at {path} (install the package with pip -e .)")
    return path


def test_console_script_bad_input():
    proc = subprocess.run([sapsam_script(), "settings", HAND.replace("Ts", "Xs")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("Error:") and "Xs" in lines[0]
    assert proc.stdout == ""


def test_score_writes_declarations_as_settings_are_written_and_says_what_chips_did():
    """``score`` echoes each declaration normalised (rows from the highest card down), names
    the first card held twice as given, and says under its table when chips limited the units."""
    a = "6S 6D 4C|TS td 9s qd 8c|3s 3d 3c 2s 2d"
    b = "As Kd Qc | 9c 9d 5s 5d 4s | Kh Jh 9h 8h 7h"
    result = run("score", a, b)
    assert result.exit_code == 0 and "P1: 6s 6d 4c | Qd Ts Td 9s 8c | 3s 3d 3c 2s 2d" in result.stdout
    assert "chip-limited" not in result.stdout
    limited = run("score", "--chips", "0,0", a, b)
    assert limited.exit_code == 0 and "chip-limited (P1 0, P2 0)" in limited.stdout
    twice = run("score", a, a)
    assert twice.exit_code == 2 and "card 6s is held by two players" in twice.stderr


def test_all_goes_alone(tmp_path):
    result = run("simulate", "--rules", "all,standard", "--tables", "100", "--out", str(tmp_path))
    assert result.exit_code == 2 and "'all' stands for every name and goes alone" in result.stderr


def test_a_corrupt_manifest_is_named(tmp_path):
    from sapsam.measure.simulate import Simulation
    from sapsam.measure.simulate import run as simulate

    simulate(Simulation(("basic",), 2, ("greedy",) * 2, tables=20, seed=1, block_size=10), tmp_path)
    (tmp_path / "manifest.json").write_text("{")
    result = run("report", str(tmp_path))
    assert result.exit_code == 2
    assert f"{tmp_path / 'manifest.json'} is not a readable simulation manifest" in result.stderr


@pytest.mark.parametrize("damage", ["manifest a list", "run without seats", "run not JSON"])
def test_a_damaged_simulation_folder_is_named(tmp_path, damage):
    """report on a folder whose files are damaged: one line naming the file, not a traceback."""
    from sapsam.measure.simulate import Simulation
    from sapsam.measure.simulate import run as simulate

    simulate(Simulation(("basic",), 2, ("greedy",) * 2, tables=20, seed=1, block_size=10), tmp_path)
    totals = tmp_path / "checkpoint.npz"  # a run's totals before its report
    if damage == "manifest a list":
        (tmp_path / "manifest.json").write_text("[]")
        named = tmp_path / "manifest.json"
    else:
        arrays = dict(np.load(totals))
        run_ = json.loads(str(arrays["run"]))
        del run_["seats"]
        arrays["run"] = np.array(json.dumps(run_) if damage == "run without seats" else "{not json")
        np.savez(totals, **arrays)
        named = totals
    result = run("report", str(tmp_path))
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert result.stderr.startswith(f"Error: {named}") and len(result.stderr.strip().splitlines()) == 1


def test_a_strategy_file_for_opponents_that_are_not_fitted_is_refused():
    """``best --opponents greedy --strategy F`` would ignore F: refused, and named."""
    from sapsam.play.strategy_files import strategy_path

    result = run("best", HAND, "--opponents", "greedy", "--strategy", str(strategy_path("standard", 4)),
                 "--samples", "100")
    assert result.exit_code == 2 and "--strategy is for fitted opponents, and these are greedy" in result.stderr


@pytest.mark.parametrize("command, criss_cross", [("best", False), ("best", True), ("houseway", True)])
def test_a_missing_or_needless_other_hand_is_told_before_a_fit_on_demand(tmp_path, monkeypatch, command,
                                                                         criss_cross):
    """A ruleset file with no fit yet is fitted on demand (a minute or more): a hand the table
    cannot take is refused first, as with a named ruleset, not after the fit."""
    import sapsam.cli.decide
    import sapsam.cli.strategy

    def no_fit(*args, **kwargs):
        raise AssertionError("a fit began before the hands were checked")

    for module in (sapsam.cli.decide, sapsam.cli.strategy):
        monkeypatch.setattr(module, "fits_ready", no_fit)
    ruleset = tmp_path / "mine.toml"
    table = 'players = 2\n[table]\nhands = 2\n' if criss_cross else ""
    ruleset.write_text(f'id = "mine"\nname = "mine"\nsource = "test"\nextends = "standard"\n{table}'
                       '[royalties.back]\nquads = 6\n')
    other = [] if criss_cross else ["--other", "Ah Kh Qd Jd Td 9d 9c 8c 8d 8h 7c 7d 7h"]
    result = run(command, HAND, "--rules", str(ruleset), "--samples", "100", "--quiet", *other)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert ("give your other hand too" if criss_cross else "give no other hand") in result.stderr


def test_exploit_says_what_it_measured():
    """Its text names the policy, the ruleset, the table and the seed (it named only the policy)."""
    result = run("exploit", "--policy", "greedy", "--deals", "1", "--samples", "40", "--seed", "3", "--quiet")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("greedy loses ") and "to its best response" in result.output
    assert result.output.rstrip().endswith("two-four, 2 players, seed 3")


def test_a_race_that_ends_early_says_why():
    """best --precision stops once the best is separated (or every setting still racing is
    narrow enough): the text says so, where it showed only the tables it had sampled."""
    early = run("best", HAND, "--opponents", "greedy", "--samples", "20000", "--precision", "0.5", "--quiet")
    assert early.exit_code == 0, early.output
    assert "stopped at 2,000 of 20,000 tables: the best setting led every other at 95%" in early.output
    whole = run("best", HAND, "--opponents", "greedy", "--samples", "2000", "--quiet")
    assert "stopped at" not in whole.output


def test_a_surrender_has_no_row_figures_in_the_ranking():
    """best's whole table shows '-' for the rows and sweeps of a surrender (no row meets
    another), where it showed 0.00/0.00/0.00, which read as never losing a row."""
    result = run("best", HAND, "--opponents", "greedy", "--samples", "300", "--quiet")
    line = next(line for line in result.output.splitlines() if " surrender " in line)
    assert line.split()[-5:] == ["-"] * 5 and "0.00/" not in line
