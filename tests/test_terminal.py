"""Every long command as a person runs it: in an 80-column terminal and piped, with colours,
with TERM=dumb and NO_COLOR=1.  Progress shows on the terminal only; no run says "Error" or
prints a traceback (issue 12, items 1, 2 and 9)."""

import sys
from pathlib import Path

import pytest
from terminal import HAND, environment, in_terminal, piped

SETTING = "5d 5c 4h | 9s 9h 3s 2d 2c | As Kd Qh Jc Ts"

# each command with a small budget, and a word of its progress bar
COMMANDS = {
    "best": (["best", HAND, "--samples", "3000"], "sampling tables"),
    "review": (["review", HAND, SETTING, "--samples", "3000"], "sampling tables"),
    "review-file": (["review", "--file", str(Path(__file__).parents[1] / "docs" / "night.csv"), "--samples", "3000"],
                    "reviewing hands"),
    "best-houseway": (["best", HAND, "--opponents", "houseway", "--samples", "1000"],
                      "deriving the house way"),
    "fit": (["fit", "--rules", "basic", "--players", "2", "--iterations", "3", "--hands", "3000",
             "--removal-rounds", "1", "--removal-tables", "1000", "--out", "{tmp}/basic-2p.npz"], "fitting"),
    "exploit": (["exploit", "--deals", "3", "--samples", "200"], "deals"),
    "simulate": (["simulate", "--rules", "standard,two-four", "--tables", "3000",
                  "--block-size", "100", "--out", "{tmp}/sim"], "tables"),
    "houseway": (["houseway", "--tables", "2000", "--out", "{tmp}/hw"], "deriving the chart"),
    "chart": (["chart", "policies", "--samples", "3000", "--out", "{tmp}/charts"], "chart policies"),
}


def _args(name, tmp_path):
    args, word = COMMANDS[name]
    return [a.format(tmp=tmp_path) for a in args], word


def _clean(run):
    text = run.out + run.err
    assert run.status == 0, text
    assert "Error" not in text and "Traceback" not in text, text


@pytest.mark.parametrize("name", COMMANDS)
def test_in_a_terminal_with_progress(name, tmp_path):
    args, word = _args(name, tmp_path)
    run = in_terminal(*args)
    _clean(run)
    assert word in run.out, f"no progress bar ({word!r}) on the terminal:\n{run.out}"
    assert "━" in run.raw and " left" in run.out  # the bar itself, with the time left
    assert "\x1b[" in run.raw  # colours and cursor moves: a real terminal


@pytest.mark.parametrize("name", COMMANDS)
def test_piped_without_progress(name, tmp_path):
    args, word = _args(name, tmp_path)
    run = piped(*args)
    _clean(run)
    assert word not in run.err and "━" not in run.raw, run.err
    assert "\x1b[" not in run.raw  # no escape codes in a file or a pipe


def test_quiet_terminal_shows_no_bar():
    run = in_terminal("best", HAND, "--samples", "2000", "--quiet")
    _clean(run)
    assert "sampling tables" not in run.out and "━" not in run.raw


@pytest.mark.parametrize("variable, value", [("TERM", "dumb"), ("NO_COLOR", "1")])
def test_dumb_terminal_and_no_color(variable, value):
    run = in_terminal("best", HAND, "--samples", "2000", env=environment(**{variable: value}))
    _clean(run)
    assert "Hand: As Kd Qh Jc Ts 9s 9h 5d 5c 4h 3s 2d 2c" in run.out
    if variable == "TERM":  # no animation on a terminal that cannot move its cursor
        assert "━" not in run.raw
    else:  # the bar, but not a colour
        assert not any(f"\x1b[{code}m" in run.raw for code in ("31", "32", "36", "91"))


@pytest.mark.parametrize("args", [
    ["best", HAND, "--samples", "2000", "--top", "12"],
    ["review", HAND, SETTING, "--samples", "2000"],
    ["settings", HAND],
    ["rules"],
    ["houseway", "--tables", "500", "--out", "{tmp}", "--quiet"],  # the text, not the bar
    ["score", "--names", "Amy,Bob", "6s 6d 4c | Ts Td 9s Qd 8c | 3s 3d 3c 2s 2d",
     "As Kd Qc | 9c 9d 5s 5d 4s | Kh Jh 9h 8h 7h"],
    ["paigow", "best", "6-6 1-1 4-2 5-3"],
    ["paigow", "table"],
    ["ofc", "place", "--board", "As Ad | Kc Qc 5d | 9h 9s", "--hand", "Ah 2c 7d", "--samples", "64"],
    ["paigow-poker", "side-bets"],
], ids=["best", "review", "settings", "rules", "houseway", "score", "paigow-best", "paigow-table", "ofc-place",
        "paigow-poker-side-bets"])
@pytest.mark.parametrize("columns", [80, 132, 200])
def test_tables_fit_the_terminal(args, columns, tmp_path):
    """Every line fits, and no number is cut to an ellipsis: a wide table is shown only where
    all of it fits (the 13-card ranking's needs about 175 columns), else the compact one."""
    run = in_terminal(*[a.format(tmp=tmp_path) for a in args], columns=columns)
    _clean(run)
    lines = run.out.splitlines()
    assert max(len(line) for line in lines) <= columns, run.out
    assert "…" not in run.out, run.out  # nothing cut short
    table_rows = [line for line in lines if line.strip()[:1].isdigit() and "|" in line]
    if args[0] == "best":  # one line per candidate: '1   <front> | <middle> | <back>  EV ...'
        assert len(table_rows) >= 5, run.out
        assert all(line.count("|") == 2 for line in table_rows)
        assert ("F w/t/l" in run.out) == (columns >= 200)
    if args[0] == "settings":
        assert ("front hand" in run.out) == (columns >= 200)


def test_piped_width_follows_columns():
    wide = piped("best", HAND, "--samples", "1000")
    narrow = piped("best", HAND, "--samples", "1000", env=environment(COLUMNS="80"))
    assert "F w/t/l" in wide.out and "F w/t/l" not in narrow.out
    assert max(map(len, narrow.out.splitlines())) <= 80


def test_help_and_version_do_not_load_numba():
    """``--help`` and ``--version`` import the command line only: no Numba, no kernels."""
    import subprocess

    code = ("import sys; from sapsam.cli import main\n"
            "heavy = [m for m in ('numba', 'kernels', 'pandas', 'matplotlib') if m in sys.modules]\n"
            "assert not heavy, heavy")
    subprocess.run([sys.executable, "-c", code], check=True)
    for flag in ("--help", "--version"):
        run = piped(flag)
        assert run.status == 0 and run.out and not run.err


def test_a_bar_copes_with_a_total_not_known_yet(monkeypatch, capsys):
    """The crash of issue 12: a task whose total comes later (or never), drawn for real."""
    from sapsam.base import progress

    monkeypatch.setattr(progress, "shows_progress", lambda quiet=False: True)
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich draws as on a terminal
    with progress.Progress() as bars:
        unknown = bars.task("spinning", unit="hands")
        later = bars.task("counting", unit="tables")
        for done in range(1, 4):
            unknown(done)
            later(done, None if done < 2 else 3)
            bars._bars.refresh()
    drawn = capsys.readouterr().err
    assert "spinning" in drawn and "counting" in drawn and "3/3" in drawn



@pytest.mark.parametrize("args", [["rules"], ["rules", "--json"], ["settings", HAND],
                                  ["paigow-poker", "house-ways"], ["paigow-poker", "house-ways", "--json"]],
                         ids=["table", "json", "settings", "paigow-poker", "paigow-poker-json"])
def test_a_reader_that_left_is_no_error(args):
    """``sapsam rules | head -1``: the reader of the pipe leaves; status 0 and nothing on stderr
    (rich's console and click's own main each exit with status 1 there, unless told).  The pipe
    is closed before the command writes, so that its first line breaks it, not a race with head."""
    import os
    import subprocess

    from terminal import sapsam

    read, write = os.pipe()
    os.close(read)
    try:
        proc = subprocess.run([sapsam(), *args], stdout=write, stderr=subprocess.PIPE, text=True,
                              env=environment(), timeout=600, stdin=subprocess.DEVNULL)
    finally:
        os.close(write)
    assert (proc.returncode, proc.stderr) == (0, "")


def test_a_broken_pipe_elsewhere_is_an_error():
    """A broken pipe that is not stdout's (a socket, another process's pipe) is not a reader
    who left: one line saying so and status 1, where it exited 0 as if all were well."""
    import subprocess

    code = ("import sys\nfrom sapsam.cli import main\n"
            "@main.command('boom')\ndef boom():\n    raise BrokenPipeError(32, 'Broken pipe')\n"
            "sys.argv = ['sapsam', 'boom']\nmain()\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environment(),
                          timeout=600, stdin=subprocess.DEVNULL)
    assert (proc.returncode, proc.stderr) == (1, "Error: a connection broke: [Errno 32] Broken pipe\n")


def test_no_stdout_at_all_is_no_error():
    """A command whose stdout is closed outright (``sapsam rules >&-``) writes nowhere, quietly."""
    import os
    import subprocess

    from terminal import sapsam

    proc = subprocess.run([sapsam(), "rules"], stderr=subprocess.PIPE, text=True, env=environment(),
                          timeout=600, stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(1))
    assert (proc.returncode, proc.stderr) == (0, "")


def test_best_at_60_columns_writes_each_setting_over_three_lines():
    """Too narrow for a setting on one line, ``best`` writes its rows one under another rather
    than cutting the setting and its EV to an ellipsis."""
    run = in_terminal("best", HAND, "--samples", "500", "--top", "3", columns=60)
    assert run.status == 0 and "…" not in run.out, run.out
    lines = run.out.splitlines()
    assert max(len(line) for line in lines) <= 60
    first = next(i for i, line in enumerate(lines) if line.startswith("1 "))
    front, middle, back = lines[first].split()[1:4], lines[first + 1].split(), lines[first + 2].split()
    assert (len(middle), len(back)) == (5, 5) and all(len(c) == 2 for c in front + middle + back), run.out
