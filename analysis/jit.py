"""Numba's cache of compiled kernels, as a user meets it: is it warm, and warming it.

Kernels compile on first use (a minute or two for all of them) and Numba caches the machine
code: beside the kernels' source (``kernels/__pycache__``) where the package folder can be
written, as in a virtual environment, and in the user's cache folder where it cannot (a
system-wide install; ``NUMBA_CACHE_DIR`` chooses another place).  Later runs load it in
about a second.  :func:`warm` compiles everything the commands use, once, so that no command
pays for it (``sapsam compile``; ``make demo`` and ``make test`` run it).
"""

HAND = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"


def cached(dispatchers):
    """Whether every Numba dispatcher given has machine code in its cache for this source."""
    for dispatcher in dispatchers:
        try:
            if not dispatcher._cache._cache_file._load_index():
                return False
        except (AttributeError, OSError, EOFError, ValueError):  # Numba's internals moved
            return True
    return True


def best_kernels():
    from kernels import montecarlo, policies

    return montecarlo.sample_blocks, policies.play_hands_parallel


def simulate_kernels():
    from kernels import simulate

    return (simulate.simulate_blocks,)


def policy_kernels():
    from kernels import policies, settings

    return policies.play_hands_parallel, policies._frontier_values, settings._frontier_batch_parallel


def hand_kernels():
    from kernels import settings, settle

    return settings.count_legal, settings.pareto_frontier, settle.settle_into


def all_kernels():
    return best_kernels() + simulate_kernels() + policy_kernels() + hand_kernels()


def warm(progress=None):
    """Compile (or load) every kernel the commands use, on tiny runs of each analysis.
    ``progress(steps_done, steps)`` after each."""
    from analysis.best import best_setting
    from analysis.compare import policy_gaps
    from analysis.exploit import exploitability
    from analysis.fit import fit_equilibrium
    from analysis.houseway import derive
    from analysis.score import score_showdown
    from analysis.simulate import Simulation, run
    from analysis.settings import pareto_frontier

    steps = [
        lambda: pareto_frontier(HAND),
        lambda: score_showdown("standard", ["6s 6d 4c | Ts Td 9s Qd 8c | 3s 3d 3c 2s 2d",
                                            "As Kd Qc | 9c 9d 5s 5d 4s | Kh Jh 9h 8h 7h"]),
        lambda: best_setting(HAND, "standard", 4, "fitted", samples=200),
        lambda: policy_gaps("standard", 4, ("greedy", "balanced"), tables=50),
        lambda: derive("standard", 4, hands=200),
        lambda: fit_equilibrium("basic", 2, iterations=1, hands=200),
        lambda: exploitability("two-four", 2, deals=1, samples=20),
        lambda: run(Simulation(("standard", "pusoy-single-winner"), 4,
                               ("fitted", "greedy", "balanced", "houseway"), 4, 0, 2)),
    ]
    for i, step in enumerate(steps, 1):
        step()
        if progress is not None:
            progress(i, len(steps))
