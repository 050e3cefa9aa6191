"""One scheme for all of sapsam's randomness.

Every random number sapsam draws comes from
``numpy.random.SeedSequence(seed, spawn_key=(PURPOSES[purpose], *key))``:

- ``seed`` is the user's ``--seed`` (a whole number >= 0);
- ``purpose`` says what the numbers are for (:data:`PURPOSES`), so that two uses of one seed
  never share a stream: a fit's training hands and ``exploit``'s held-out deals differ even
  when both run with seed 1;
- ``key`` says which piece of the work: a block of tables, a fit's round, a deal and seat.

Any piece can so be (re)computed alone: the same numbers with 1 or 2 threads, locally or on a
cluster, in one go or resumed.  The kernels draw from SplitMix64 (:mod:`sapsam.kernels.rng`), one
``uint64`` state per block (:meth:`Stream.states`); numpy code draws from a
:class:`numpy.random.Generator` (:meth:`Stream.generator`).

>>> Stream(1, "fit", (3,)).states(2).dtype
dtype('uint64')
>>> bool((Stream(1, "fit").states(4)[2:] == Stream(1, "fit").states(2, first=2)).all())
True
"""

from dataclasses import dataclass

import numpy as np

# Never renumber: a purpose's code fixes every number published with it.
PURPOSES = {
    "simulate": 1,   # a block of simulated tables (key: block)
    "opponents": 2,  # a block of the opponents best and review sample (key: block)
    "tables": 3,     # the tables of a paired comparison, every seat's hand
    "field": 4,      # the baseline seats' own random choices in a comparison (key: chunk)
    "seat": 5,       # the tested seat's own random choices in a comparison (key: chunk)
    "hands": 6,      # single hands sampled to chart what a strategy plays
    "fit": 7,        # a fit's round: its hands (key: round), its choices (key: round, 1)
    "exploit": 8,    # exploit's deal (key: deal) and a seat's samples (key: deal, seat, ...)
    "houseway": 9,   # the hands a house way is derived from, and the choices on them
    "balanced": 10,  # the field of balanced players the table policy and a fit start from
    "match": 11,     # a match run's deals (key: chunk) and each seat's choices (chunk, seat + 1)
    "equity": 12,    # the field's deals a match equity table is estimated from (as "match")
    "ofc-stay": 13,  # OFC: the cards whose Fantasyland stay is tested (key: cards, chunk)
    "ofc-play": 14,  # OFC: the decks of simulated hands (key: block)
    "ofc-place": 15,  # OFC: the rollouts of a placement's ranking (key: block)
    "ofc-improve": 16,  # OFC: the hands of a self-play duel (key: round, step, block)
    "paigow-poker-edge": 17,  # Pai Gow Poker: the deals of the house way against itself (key: block)
    "paigow-poker-gap": 18,  # Pai Gow Poker: the hands whose best play is met with the house way's
    "ofc-learn": 19,  # OFC: a learned policy's self-play round (key: round; its features' fills: round, 1)
    "paigow-poker-best": 20,  # Pai Gow Poker, the best play's edge: the dealer pool (key: 0, block),
                              # the hands the pool values (key: 1), the hands valued exactly (key: 2)
    "review": 21,  # a reviewed hand's loss measured apart from its ranking's tables (key: block)
}

SCHEME = 2  # this scheme's number: checkpoints record it, so no run resumes across schemes
CHUNKS = 64  # streams per batch of hands decided: the chunking, not the threads, fixes numbers


@dataclass(frozen=True)
class Stream:
    """A seeded stream of random numbers for one purpose (see the module doc).

    Parameters
    ----------
    seed : int
        A whole number >= 0.
    purpose : str
        One of :data:`PURPOSES`.
    key : tuple of int
        Which piece of the work.
    """

    seed: int
    purpose: str
    key: tuple = ()

    def __post_init__(self):
        if isinstance(self.seed, bool) or not isinstance(self.seed, (int, np.integer)) \
                or self.seed < 0:
            raise ValueError(f"seed must be a whole number >= 0, got {self.seed!r}")
        if self.purpose not in PURPOSES:
            raise ValueError(f"unknown purpose {self.purpose!r}: use one of {', '.join(PURPOSES)}")
        object.__setattr__(self, "seed", int(self.seed))
        object.__setattr__(self, "key", tuple(int(k) for k in self.key))

    def child(self, *key):
        """The stream of a piece of this one's work."""
        return Stream(self.seed, self.purpose, self.key + key)

    def sequence(self):
        """The :class:`numpy.random.SeedSequence` of this stream."""
        return np.random.SeedSequence(self.seed, spawn_key=(PURPOSES[self.purpose], *self.key))

    def generator(self):
        """A numpy :class:`~numpy.random.Generator` drawing this stream."""
        return np.random.default_rng(self.sequence())

    def states(self, count, first=0):
        """SplitMix64 states of the kernels' blocks ``first .. first + count - 1`` of this
        stream: ndarray(uint64), shape (count,); block ``i``'s state depends on ``i`` alone."""
        return np.array([self.child(i).sequence().generate_state(1, np.uint64)[0]
                         for i in range(first, first + count)], dtype=np.uint64)
