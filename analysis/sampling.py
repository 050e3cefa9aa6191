"""Seeds for blocks of work: one independent stream per block, whatever runs it.

Block ``i`` of a run with seed ``s`` is seeded by ``SeedSequence(s, spawn_key=(i,))``, the
``i``-th child ``SeedSequence(s).spawn`` would give, so any block can be (re)computed alone:
the same numbers with 1 or 2 threads, locally or on a cluster, in one go or resumed.
"""

import numpy as np


def block_states(seed, first, count):
    """SplitMix64 states of blocks ``first .. first + count - 1``: ndarray(uint64), shape (count,)."""
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, got {seed!r}")
    return np.array([np.random.SeedSequence(int(seed), spawn_key=(i,)).generate_state(1, np.uint64)[0]
                     for i in range(first, first + count)], dtype=np.uint64)
