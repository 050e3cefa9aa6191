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


def test_a_kernel_compiles_once_for_every_caller():
    """A literal argument (``0``, ``True``) or a read-only array makes Numba compile a kernel,
    and everything it calls, once more for that type: the decision and settlement kernels are
    in the cache once, whoever called them (``make test`` compiled every command's kernels
    first), but for ``search``'s two routes (:func:`sapsam.kernels.policies.search_mode`)."""
    from numba import types

    from sapsam.kernels import policies, search, settle, value

    # settle_into's ``detailed`` is a literal on purpose where one route is wanted, in its
    # inlined twin, whose entries share settle_into's index: the sampler's True (its hottest
    # call) and settle_tables' False
    deliberate = (types.literal(True), types.literal(False))
    for kernel, routes in ((settle.settle_into, 1), (policies.choose, 2), (search.best_split, 1),
                           (value.value, 1), (policies._best_valued, 1), (search._pick, 1)):
        signatures = [key[0] for key in kernel._cache._cache_file._load_index()
                      if not (kernel is settle.settle_into and key[0][7] in deliberate)]
        assert 1 <= len(signatures) <= routes, (kernel.__name__, signatures)
        for signature in signatures:
            assert not any(isinstance(t, types.Literal) or getattr(t, "readonly", False)
                           for t in signature), (kernel.__name__, signature)


def package_kernels():
    """(dotted name, dispatcher) of every kernel defined in the package's kernel modules: the
    13-card core's and each game's."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    import sapsam
    import sapsam.kernels

    names = [m.name for m in pkgutil.walk_packages(sapsam.kernels.__path__, "sapsam.kernels.")]
    names += [m.name for m in pkgutil.walk_packages(sapsam.__path__, "sapsam.") if ".kernels" in m.name]
    for name in names:
        for attribute, kernel in vars(importlib.import_module(name)).items():
            if isinstance(kernel, CPUDispatcher) and kernel.py_func.__module__ == name:
                yield f"{name}.{attribute}", kernel


def test_every_kernel_is_compiled_without_the_c_wrapper():
    """Every kernel comes from :func:`sapsam.kernels.compiler.njit`: Numba's, less the
    C-callable wrapper nothing here uses (about 4% of the compile).  A module that took
    ``njit`` from Numba again would bring the wrapper back without a word."""
    kernels = dict(package_kernels())
    assert len(kernels) > 150
    with_wrapper = sorted(name for name, kernel in kernels.items()
                          if not kernel.targetoptions.get("no_cfunc_wrapper"))
    assert not with_wrapper, with_wrapper


def test_no_two_kernels_share_a_cache_entry():
    """Numba names a cache file after the Python function: two dispatchers of one function (a
    serial and a ``parallel=True`` loop, say) share an entry per signature and load each
    other's code, which once ran the parallel 5-card evaluation on one thread.  Every cached
    kernel of the package has an index of its own but two twins that differ only in how
    callers inline them: ``settle_into``'s, which only ever compiles for literal ``detailed``
    arguments that ``settle_into`` never takes (:func:`test_a_kernel_compiles_once_for_every_caller`),
    and the closed form's, which Numba inlines and so never compiles on its own."""
    from collections import defaultdict

    from numba.core.caching import NullCache

    owners = defaultdict(set)
    for name, kernel in package_kernels():
        if not isinstance(kernel._cache, NullCache):
            owners[kernel._cache._cache_file._index_path].add(name)
    assert len(owners) > 100
    shared = sorted(sorted(kernels) for kernels in owners.values() if len(kernels) > 1)
    assert shared == [["sapsam.kernels.settle.settle_into", "sapsam.kernels.settle.settle_into_inline"],
                      ["sapsam.kernels.value._closed_form_called", "sapsam.kernels.value._closed_form_ev"]]


@pytest.mark.parametrize("ruleset, opponents", [("standard", "fitted"), ("standard", "greedy"),
                                                ("low-middle", "fitted"), ("pagat-surrender", "table")])
def test_the_sampler_warms_up_for_the_types_best_samples_with(monkeypatch, ruleset, opponents):
    """A first ``best`` compiles the sampler on a made-up candidate (:func:`warm_sampler`)
    while a second process compiles the hand's kernels: it must be the very kernel that
    ``best`` then runs, every argument of the same Numba type, or ``best`` compiles it again."""
    import numba

    import sapsam.measure.best as best
    from sapsam.game.ruleset_files import load_ruleset
    from sapsam.kernels import montecarlo
    from sapsam.strategy.registry import make_policy

    calls = []
    real = montecarlo.sample_blocks

    def recorded(*arguments):
        calls.append(tuple(numba.typeof(a) for a in arguments))
        return real(*arguments)

    monkeypatch.setattr(montecarlo, "sample_blocks", recorded)
    rules = load_ruleset(ruleset)
    policy = make_policy(opponents, rules, 3)
    best.warm_sampler(rules, 3, policy)
    best.best_setting("As Ad Kh Qh Jh 9s 9h 8c 7d 5s 4s 3c 2d", rules, 3, policy, samples=64)
    assert len(calls) == 2 and calls[0] == calls[1], calls


def test_the_hand_compiles_beside_and_a_late_process_is_stopped():
    """:func:`start_beside` runs the hand's warm-up in a process of its own (here it loads
    from the cache) and finishes cleanly; :func:`join_beside` stops one still running at its
    time limit."""
    import subprocess
    import sys

    from sapsam.compile import join_beside, start_beside

    beside = start_beside("low-middle")
    assert beside.wait(120) == 0
    slow = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    join_beside(slow, timeout=0.1)
    assert slow.returncode is not None and slow.returncode != 0
    join_beside(None)


@pytest.mark.slow
def test_a_first_best_from_an_empty_cache_answers_as_a_warm_one(tmp_path):
    """From an empty cache ``best`` compiles its sampler here and the hand's kernels beside
    (a process of its own): the same answer, bit for bit, as from the warm cache."""
    env = terminal.environment(NUMBA_CACHE_DIR=str(tmp_path))
    arguments = ("best", "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d", "--samples", "2000", "--json")
    first = terminal.piped(*arguments, env=env, timeout=600)
    assert first.status == 0, first.err
    assert list(tmp_path.rglob("*pareto_frontier*.nbi")) and list(tmp_path.rglob("*sample_block*.nbi"))
    warm = terminal.piped(*arguments)
    assert warm.status == 0 and warm.out == first.out, (first.err, warm.err)


def test_the_settlement_compiled_beside_is_the_samplers():
    """The process beside a first ``best`` compiles the sampler's settlement from its types
    alone (:func:`settlement_signature`): they must be those the sampler calls it with, the
    one literal-``True`` entry in ``settle_into``'s cache index (``make test`` compiled the
    sampler first; a signature of other types, compiled beside, would be a second entry)."""
    from numba import types

    from sapsam.kernels import settle
    from sapsam.measure.best import settlement_signature

    index = settle.settle_into._cache._cache_file._load_index()
    sampler = [key[0] for key in index if key[0][7] == types.literal(True)]
    assert sampler == [settlement_signature()], sampler


def test_the_search_compiled_beside_is_the_samplers():
    """The process beside a first ``best`` compiles the opponents' search from its types alone
    (:func:`search_signature`): they must be those the sampler's decision calls it with, the
    one entry in ``best_split``'s cache index (every route of the sampler and of the other
    commands' decisions makes that one; a signature of other types, compiled beside, would
    be a second)."""
    from sapsam.kernels import search
    from sapsam.measure.best import search_signature

    index = search.best_split._cache._cache_file._load_index()
    assert [key[0] for key in index] == [search_signature()], list(index)
