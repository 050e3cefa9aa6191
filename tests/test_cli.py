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
