"""What Open-Face's commands compile, and compiling it on tiny runs (``sapsam compile``)."""

HAND = "As Kd Qh Jc Ts 9s 9h 5c 5d 4h 3s 2c 2d Ad"


def compiled_kernels():
    """The Numba kernels the ``ofc`` commands compile (:func:`sapsam.base.jit.cached` checks)."""
    from sapsam.ofc.kernels import board, policies, race, selfplay, simulate

    return (board.best_fantasyland, board.stay_counts, board.settle_boards, simulate.simulate_block,
            race.race_stream, simulate.exact_placements, selfplay.selfplay_block, selfplay.trace_chunk,
            policies.legal_codes)


# what each command compiles, by the kernels' names: a command asked whether every kernel of
# every command is cached said "compiling" at each run until the one that compiles the rest ran
COMMAND_KERNELS = {
    "fantasyland": ("best_fantasyland",), "stay": ("stay_counts",),
    "place": ("race_stream", "exact_placements", "legal_codes"),
    "simulate": ("simulate_block",), "duel": ("simulate_block",), "improve": ("simulate_block",),
    "learn": ("selfplay_block", "trace_chunk", "simulate_block"),
}


def command_kernels(command):
    """The kernels of :func:`compiled_kernels` that ``command`` (``sapsam ofc COMMAND``) compiles."""
    return tuple(k for k in compiled_kernels() if k.py_func.__name__ in COMMAND_KERNELS[command])


def warm():
    """Compile (or load) them: a Fantasyland hand, a stay test, a hand played out, one
    placement's rollouts and one valued exactly, and a round of the learned policy's self-play."""
    from sapsam.ofc.measure.fantasyland import best_fantasyland, stay_chance
    from sapsam.ofc.measure.place import rank_placements
    from sapsam.ofc.measure.simulate import simulate_ofc
    from sapsam.ofc.strategy.learn import learn

    best_fantasyland(HAND)
    stay_chance(13, samples=10)
    simulate_ofc("ofc-pineapple", ("heuristic", "rollout"), 1, block_hands=1)
    rank_placements("ofc-pineapple", "As Ad | Kc Qc 5d | 9h 9s", "Ah 2c 7d", samples=1)
    rank_placements("ofc-pineapple", "As Ad | Kc Qc 5d 5c | 9h 9s 9c", "Ah 2c 7d",
                    opponents=["Ks Kd Kh | 2s 3s 4s 5s 6s | Th Tc Td Ts 8d"])
    learn("ofc-pineapple", rounds=1, hands=4, fills=1)
