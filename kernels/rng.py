"""Random numbers and deals inside kernels: SplitMix64 with its state carried in an array.

Every block of work gets its own stream: a SeedSequence (``sapsam.play.seeds``) seeds one
``uint64`` state per block (see ``sapsam.play.seeds.Stream.states``), and a kernel advances the
state it was handed.  Nothing depends on which thread runs a block, so results are the same
with any number of threads or machines.  SplitMix64 (Steele, Lea and Flood, "Fast splittable
pseudorandom number generators", OOPSLA 2014) passes BigCrush and needs one word of state.
"""

import numpy as np

from sapsam.kernels.compiler import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def next_u64(state):
    """Advance ``state`` (ndarray(uint64), shape (1,)) and return the next 64-bit output."""
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def below(state, n):
    """A uniform integer in ``0 .. n - 1`` (n <= 2**32; bias below 2**-32, from a 64-bit
    multiply-shift of the top 32 bits)."""
    return np.int64(((next_u64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def shuffle_prefix(cards, k, state):
    """Put a uniform random ``k``-card sample of ``cards`` (in random order) in its first ``k``
    places: a partial Fisher-Yates shuffle, in place."""
    n = cards.shape[0]
    for i in range(k):
        j = i + below(state, n - i)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp


@njit(cache=True, inline="always")
def sorted_hand(cards, start, out):
    """Write the 13 cards ``cards[start:start + 13]`` into ``out`` in increasing order (an
    insertion sort: NumPy's sort takes seconds to compile and allocates)."""
    for i in range(13):
        c = cards[start + i]
        j = i
        while j > 0 and out[j - 1] > c:
            out[j] = out[j - 1]
            j -= 1
        out[j] = c
