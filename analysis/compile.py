"""Compiling the kernels: what each command compiles, and compiling (or loading) them all
once, so that no command pays for it (``sapsam compile``; ``make demo`` and ``make test`` run
it), or a first ``best``'s in two processes (:func:`start_beside`).  The 13-card game's
kernels are named here; every other game's come from the registry (:mod:`sapsam.games`).
Whether they are in Numba's cache, :func:`sapsam.base.jit.cached` says.
"""

from sapsam.games import GAMES

HAND = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"
OTHER = "Ah Kh Qs Jd Tc 9d 8c 7h 6s 6d 4c 3h 2s"  # criss-cross: the player's other hand


def steps(one_hand=False):
    """The warm-up steps: (name, callable) tiny runs of each analysis, then each game's own
    (``one_hand``: only those of settings, score and best, as the web app's requests use)."""
    from sapsam.game.score import score_showdown
    from sapsam.game.settings import pareto_frontier
    from sapsam.measure.best import best_setting
    from sapsam.measure.compare import policy_gaps
    from sapsam.measure.exploit import exploitability
    from sapsam.measure.match import play_matches, warm_equity
    from sapsam.measure.simulate import Simulation, run
    from sapsam.strategy.fit import fit_equilibrium
    from sapsam.strategy.houseway import derive

    out = [
        ("frontier", lambda: (pareto_frontier(HAND), pareto_frontier(HAND, middle="deuce-to-seven"))),
        ("score", lambda: score_showdown("standard", ["6s 6d 4c | Ts Td 9s Qd 8c | 3s 3d 3c 2s 2d",
                                                      "As Kd Qc | 9c 9d 5s 5d 4s | Kh Jh 9h 8h 7h"])),
        # two kernels: valued opponents' (the search alone) and any other's (greedy, random,
        # a low middle: sapsam.kernels.policies.search_mode)
        ("best", lambda: (best_setting(HAND, "standard", 4, "fitted", samples=200),
                          best_setting(HAND, "standard", 4, "greedy", samples=20),
                          best_setting(HAND, "criss-cross", 2, "fitted", samples=20, other=OTHER))),
        ("compare", lambda: policy_gaps("standard", 4, ("greedy", "balanced"), tables=50)),
        ("houseway", lambda: derive("standard", 4, hands=200)),
        ("fit", lambda: fit_equilibrium("basic", 2, iterations=1, hands=200)),
        ("exploit", lambda: exploitability("two-four", 2, deals=1, samples=20)),
        ("simulate", lambda: run(Simulation(("standard", "pusoy-single-winner"), 4,
                                            ("fitted", "greedy", "balanced", "houseway"), 4, 0, 2))),
        ("match", lambda: (play_matches("first-to-11", ("greedy", "greedy"), 1), warm_equity())),
    ]
    if one_hand:
        return out[:3]
    return out + [(game.name, game.load("warm")) for game in GAMES]


# The order in which parallel processes take the steps: the longest to compile first (measured
# from an empty cache on 2 cores, one step after another: best 54 s, ofc 48, compare 12,
# frontier 11, paigow_poker 10, simulate 8, score 6, houseway 5; the two longest start together
# whichever comes first), so that no process is left with a long one at the end; and the steps
# whose kernels others compile too (fit, exploit) last, when those are in the cache.
LONGEST_FIRST = ("ofc", "best", "compare", "simulate", "paigow_poker", "houseway", "frontier", "score",
                 "match", "paigow", "fit", "exploit")


def warm(progress=None, one_hand=False, jobs=1):
    """Compile (or load) every kernel the commands use: :func:`steps`, one after another, or
    first in ``jobs`` processes at once, each compiling its steps into Numba's cache, and then
    all of them here, loading from the cache.  That last pass compiles what two processes
    compiling one kernel for different types at once dropped from its cache index (the last
    to write it wins), a few seconds.  ``progress(steps_done, steps)`` after each step."""
    todo = steps(one_hand)
    parallel = jobs > 1 and len(todo) > 1
    total = len(todo) + (1 if parallel else 0)
    if parallel:
        _warm_in_processes([name for name, _ in todo], jobs, progress, total, one_hand)
    for i, (_, step) in enumerate(todo, 1):
        step()
        if progress is not None and not parallel:
            progress(i, total)
    if parallel and progress is not None:
        progress(total, total)


def _warm_in_processes(names, jobs, progress, total, one_hand):
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    order = sorted(names, key=lambda n: LONGEST_FIRST.index(n) if n in LONGEST_FIRST else -1)
    # spawned, not forked: each process starts clean, with no Numba threads or locks copied
    with ProcessPoolExecutor(min(jobs, len(order)), mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(_run_step, name, one_hand) for name in order]
        for done, future in enumerate(as_completed(futures), 1):
            future.result()
            if progress is not None:
                progress(done, total)


def _run_step(name, one_hand):
    """Run one warm-up step by name (in a process of :func:`warm`)."""
    dict(steps(one_hand))[name]()


def cold(one_hand=False):
    """Whether any kernel :func:`steps` compiles (``one_hand``: the web app's, ``best``'s and
    the hand's) is not in Numba's cache yet: then :func:`warm` compiles, best in a process a
    CPU, where otherwise it loads them in seconds, in one."""
    from sapsam.base.jit import cached

    return not cached(best_kernels() + hand_kernels() if one_hand else all_kernels())


def start_beside(ruleset):
    """Start compiling (or loading) parts of a first ``best``'s kernels in a process beside
    this one (:func:`_warm_hand`: the opponents' search and the sampler's settlement, then the
    hand's own kernels, its Pareto frontier and naturals under ``ruleset``, an id or a ruleset
    file), while this one compiles the rest of the sampler
    (:func:`sapsam.measure.best.warm_sampler`), the longer part: on 2 cores a
    first ``sapsam best`` takes about the sampler's time instead of both's
    (docs/performance.md, "Compile time").  A plain ``python -c`` process, not
    multiprocessing's, which would run the caller's script again.  Returns the process, or
    None where none could start (this one then compiles it all, as before); its output is
    dropped, since anything it fails to compile, this one compiles when it needs it."""
    import subprocess
    import sys

    code = f"from sapsam.compile import _warm_hand; _warm_hand({str(ruleset)!r})"
    try:
        return subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        return None


def join_beside(process, timeout=300):
    """Wait for a process of :func:`start_beside` (None: none), for at most ``timeout``
    seconds, and stop it if it is still running then (or this one is interrupted)."""
    import subprocess

    if process is None:
        return
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        pass
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def _warm_hand(ruleset):
    """What :func:`start_beside`'s process runs, in the order the sampler's compile here needs
    them: the opponents' search (:func:`sapsam.measure.best.warm_search`, which it reaches a
    third of the way in), its settlement (:func:`sapsam.measure.best.warm_settlement`, reached
    last), then the hand's candidates, which this process asks for once the sampler is done
    (their naturals' kernel is the opponents' too, in the cache by then)."""
    from sapsam.game.ruleset_files import load_ruleset
    from sapsam.game.settings import sorted_hand
    from sapsam.measure.best import candidates, warm_search, warm_settlement

    warm_search()
    warm_settlement()
    candidates(sorted_hand(HAND), load_ruleset(ruleset))


def best_kernels(rules=None, opponents=None):
    """What ``best`` and the commands built on its sampler (``review``, ``exploit``, a house
    way's hand, matches) compile: the sampler, the opponents' decisions compiled into it (which
    of its routes, :func:`sapsam.measure.best.sampler_search` says), and criss-cross's exact
    field where ``rules`` (a ruleset or its id) are criss-cross's and the ``opponents`` fitted,
    the one use of it; every one without ``rules``.  (Asked of every ruleset, a ``best`` whose
    opponents never compile the exact field said it was compiling, and compiled, at every run.)"""
    from sapsam.game.rules import Ruleset
    from sapsam.game.ruleset_files import load_ruleset
    from sapsam.kernels import crossed, montecarlo

    if rules is not None:
        hands = (rules if isinstance(rules, Ruleset) else load_ruleset(rules)).hands
        if hands == 1 or opponents != "fitted":
            return (montecarlo.sample_block,)
    return montecarlo.sample_block, crossed.crossed_field


def simulate_kernels():
    from sapsam.kernels import simulate

    return (simulate.simulate_block,)


def policy_kernels():
    from sapsam.kernels import policies, settings, value

    return policies.play_chunk, value._frontier_values, settings.frontier_chunk


def hand_kernels():
    """What ``settings`` compiles (not ``count_legal``, which only the Python API
    and the benchmarks call: listed here, it made every ``settings`` say it was compiling)."""
    from sapsam.kernels import low_settings, settings, settle

    return settings.pareto_frontier, settle.settle_into, low_settings.low_pareto_frontier


def match_kernels():
    """What ``sapsam match`` compiles: the seats' decisions and matches played out."""
    from sapsam.kernels import match, policies

    return match.play_out, policies.play_chunk


def match_equity_kernels():
    """What ranking a hand by the chance of winning a match adds to ``best``'s sampler
    (``best --score``): the match equity of a field and after a deal."""
    from sapsam.kernels import match

    return match.equity, match.equity_after


def all_kernels():
    """Every kernel the commands use, every game's."""
    core = (best_kernels() + simulate_kernels() + policy_kernels() + hand_kernels()
            + match_kernels() + match_equity_kernels())
    return core + tuple(kernel for game in GAMES for kernel in game.load("kernels")())
