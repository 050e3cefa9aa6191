"""Shared fixtures: JIT warm-up (paid once per session), seeded randomness, dealing."""

import os
import sys

import numba
import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))  # `import naive` from every test module


def _forget_stale_test_kernels():
    """The tests' own cached kernels (tests/__pycache__ or NUMBA_CACHE_DIR) compile the package's kernels into
    them, and Numba checks only their own file: when any kernel source changed, drop them,
    as :func:`sapsam.base.jit.forget_stale` drops the package's (a stale one can abort)."""
    from importlib.util import find_spec
    from pathlib import Path

    from sapsam.base.jit import _cache_folder, _kernel_sources, sources_digest

    folder = _cache_folder(Path(__file__))  # tests/__pycache__, or where NUMBA_CACHE_DIR says
    if folder is None:
        return
    package = Path(find_spec("sapsam").origin).parent
    digest = sources_digest(_kernel_sources(package, Path(find_spec("sapsam.kernels").origin).parent))
    stamp = folder / "kernels.sha256"
    if stamp.is_file() and stamp.read_text() == digest:
        return
    for entry in [*folder.glob("*.nbi"), *folder.glob("*.nbc")]:
        entry.unlink(missing_ok=True)
    folder.mkdir(exist_ok=True)
    stamp.write_text(digest)


_forget_stale_test_kernels()

# Commands under test see no terminal width unless a test gives one, as when piped (the
# processes of pytest-xdist are started with COLUMNS=80, which would narrow every table)
for _name in ("COLUMNS", "LINES"):
    os.environ.pop(_name, None)


def pytest_collection_modifyitems(items):
    """The wheel's module first (a build, a fresh install and a first compile: minutes), so that
    under pytest-xdist (a file to a process) one process runs it while the others run the rest,
    rather than all waiting on it at the end."""
    items.sort(key=lambda item: item.path.name != "test_wheel.py")

SEED = 20240613


def deal_hands(rng, n, size=13, sort=True):
    """``n`` hands of ``size`` distinct cards each: ndarray(uint8), shape (n, size).

    Each hand is an independent uniform deal from a full pack; rows are sorted ascending
    unless ``sort=False``.
    """
    packs = rng.permuted(np.tile(np.arange(52, dtype=np.uint8), (n, 1)), axis=1)
    hands = packs[:, :size]
    return np.ascontiguousarray(np.sort(hands, axis=1) if sort else hands)


@pytest.fixture(scope="session", autouse=True)
def own_data_folder(tmp_path_factory):
    """The user's data folder (their own fits) is a temporary one for every test and every
    command a test runs, so that neither sees nor changes the real one."""
    before = os.environ.get("SAPSAM_DATA")
    os.environ["SAPSAM_DATA"] = str(tmp_path_factory.mktemp("sapsam-data"))
    yield
    if before is None:
        os.environ.pop("SAPSAM_DATA", None)
    else:
        os.environ["SAPSAM_DATA"] = before


@pytest.fixture(scope="session", autouse=True)
def warm_jit():
    """Compile (or load from cache) every kernel once, on tiny inputs, before any test."""
    from sapsam.kernels import evaluate, settings

    hand = np.arange(0, 52, 4, dtype=np.uint8)  # 2c 3c ... Ac
    hands = np.stack([hand, np.arange(13, dtype=np.uint8)])
    for parallel in (False, True):
        evaluate.rank5(hands[:, :5], parallel=parallel)
        evaluate.rank3(hands[:, :3], parallel=parallel)
        settings.pareto_frontier_batch(hands, False, capacity=4, parallel=parallel)
    for wheel_second in (False, True):
        settings.split_strengths(hand, wheel_second)
        settings.count_legal(hand, wheel_second)
        settings.pareto_frontier(hand, wheel_second)


@pytest.fixture
def rng():
    """A fresh seeded numpy Generator per test (same numbers every run)."""
    return np.random.default_rng(SEED)


@pytest.fixture
def deal():
    """The dealing helper: ``deal(rng, n, size=13, sort=True) -> ndarray(uint8), (n, size)``."""
    return deal_hands


@pytest.fixture
def restore_threads():
    """Tests that compare 1 and 2 numba threads: skip on a 1-thread machine, restore after."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs 2 numba threads to compare with 1")
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)
