"""benchmarks/simulate_account.py's arithmetic: a run's thread-seconds split into the blocks'
kernels, the serial Python around them and the time between blocks, on a timeline made up here
(the script's own runs take minutes; ``make bench`` does not run it)."""

import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "simulate_account.py"
_SPEC = importlib.util.spec_from_file_location("simulate_account", _PATH)
account_script = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(account_script)


def test_the_account_splits_every_thread_second():
    # two threads, a run from 0 to 10 s: the first block starts at 0.5, the last ends at 9.4
    timeline = [("start", 0.0),
                (0, "a", 0.5, 4.0), (1, "b", 0.5, 4.5), (2, "a", 4.6, 4.0), (3, "b", 5.1, 4.3),
                ("end", 10.0)]
    got = account_script.account(timeline, threads=16)
    assert got["threads"] == 16 and got["ran"] == 2 and got["blocks"] == 4
    assert got["wall"] == pytest.approx(10.0)
    assert got["kernels"] == pytest.approx(16.8)
    assert got["busy"] == pytest.approx({"a": 8.0, "b": 8.8})
    assert got["serial"] == pytest.approx(0.5 + 0.6)  # before the first block, after the last
    assert got["between"] == pytest.approx(2 * (9.4 - 0.5) - 16.8)  # a's gap, a's tail, b's gap
    assert got["lost"] == pytest.approx(1 - 16.8 / 20)
    # nothing counted twice or left out: the three parts are the threads' whole time
    assert got["kernels"] + got["ran"] * got["serial"] + got["between"] == pytest.approx(got["ran"] * got["wall"])
    assert got["block_mean"] == pytest.approx(4.2) and got["block_max"] == pytest.approx(4.5)
