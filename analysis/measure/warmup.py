"""Warming Numba's cache: compile (or load) every kernel the commands use, once, so that no
command pays for it (``sapsam compile``; ``make demo`` and ``make test`` run it).
"""

HAND = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d"


def warm(progress=None, one_hand=False):
    """Compile (or load) every kernel the commands use, on tiny runs of each analysis
    (``one_hand``: only those of settings, score and best, as the web app's requests use).
    ``progress(steps_done, steps)`` after each."""
    from analysis.game.score import score_showdown
    from analysis.game.settings import pareto_frontier
    from analysis.measure.best import best_setting
    from analysis.measure.compare import policy_gaps
    from analysis.measure.exploit import exploitability
    from analysis.measure.match import play_matches, warm_equity
    from analysis.measure.ofc_fantasyland import best_fantasyland, stay_chance
    from analysis.measure.ofc_place import rank_placements
    from analysis.measure.ofc_simulate import simulate_ofc
    from analysis.measure.paigow import house_edge_table
    from analysis.measure.simulate import Simulation, run
    from analysis.strategy.fit import fit_equilibrium
    from analysis.strategy.houseway import derive

    steps = [
        lambda: (pareto_frontier(HAND), pareto_frontier(HAND, middle="deuce-to-seven")),
        lambda: score_showdown("standard", ["6s 6d 4c | Ts Td 9s Qd 8c | 3s 3d 3c 2s 2d",
                                            "As Kd Qc | 9c 9d 5s 5d 4s | Kh Jh 9h 8h 7h"]),
        # two kernels: valued opponents' (the search alone) and any other's (greedy, random,
        # a low middle: kernels.policies.search_mode)
        lambda: (best_setting(HAND, "standard", 4, "fitted", samples=200),
                 best_setting(HAND, "standard", 4, "greedy", samples=20)),
        lambda: policy_gaps("standard", 4, ("greedy", "balanced"), tables=50),
        lambda: derive("standard", 4, hands=200),
        lambda: fit_equilibrium("basic", 2, iterations=1, hands=200),
        lambda: exploitability("two-four", 2, deals=1, samples=20),
        lambda: run(Simulation(("standard", "pusoy-single-winner"), 4,
                               ("fitted", "greedy", "balanced", "houseway"), 4, 0, 2)),
        house_edge_table,
        lambda: (play_matches("first-to-11", ("greedy", "greedy"), 1), warm_equity()),
        lambda: (best_fantasyland(HAND + " Ad"), stay_chance(13, samples=10),
                 simulate_ofc("ofc-pineapple", ("heuristic", "rollout"), 1, block_hands=1),
                 rank_placements("ofc-pineapple", "As Ad | Kc Qc 5d | 9h 9s", "Ah 2c 7d", samples=1)),
    ]
    if one_hand:
        steps = steps[:3]
    for i, step in enumerate(steps, 1):
        step()
        if progress is not None:
            progress(i, len(steps))
