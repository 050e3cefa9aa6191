"""``sapsam compile`` (issue 39, item 4): every kernel the commands list is compiled by a
warm-up step (else a command's notice says "compiling" forever), steps run in parallel
processes and then once here, and from an empty cache every kernel ends up in it."""

import pytest
import terminal

from sapsam.base.jit import cached
from sapsam.compile import LONGEST_FIRST, all_kernels, steps, warm


def test_a_second_compile_only_loads():
    """``make test`` compiled before the tests: every kernel listed is in the cache, so a
    command's notice stays quiet and compile only loads (one process)."""
    assert cached(all_kernels())
    run = terminal.piped("compile", "--quiet")
    assert run.status == 0, run.err
    assert "kernels loaded from the cache" in run.out and "compiling" not in run.err


def test_every_step_has_its_place_in_the_order():
    assert sorted(name for name, _ in steps()) == sorted(LONGEST_FIRST)


def test_steps_in_processes_then_here():
    """Two spawned processes take the steps, then this process runs them all (loading):
    progress counts each process's step and then the pass here, to the end."""
    calls = []
    warm(lambda done, total: calls.append((done, total)), one_hand=True, jobs=2)
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]


@pytest.mark.slow
def test_from_an_empty_cache_every_kernel_ends_up_in_it(tmp_path):
    """Two processes compiling at once can drop a kernel from Numba's cache index (the last
    to write it wins); the pass here puts it back, so a second compile only loads."""
    env = terminal.environment(NUMBA_CACHE_DIR=str(tmp_path))
    first = terminal.piped("compile", "--quiet", "--jobs", "2", env=env, timeout=1200)
    assert first.status == 0 and "kernels compiled and cached" in first.out, first.err
    second = terminal.piped("compile", "--quiet", env=env)
    assert second.status == 0 and "kernels loaded from the cache" in second.out, second.err
