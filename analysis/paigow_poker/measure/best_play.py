"""The best play's house edge against a house way, to a hundredth of a point (issue 40, part 3).

The best play's edge is the house way's edge against itself less the mean *gain* of a hand's
best setting over the house way's setting.  The gain varies a great deal from hand to hand
(a standard deviation near 1.7 points), so a hundredth of a point needs over 100,000 hands,
and valuing each exactly (a tenth of a second) would take hours.  So two samples of hands:

- many hands valued against a fixed pool of dealer hands (:mod:`sapsam.paigow_poker.kernels.pool`:
  a million hands of the deck, of which a hand meets the third or so that share no card with it),
  about a millisecond a hand: the *pooled gain*, a fixed function of the hand once the pool is
  drawn, close to the exact gain but not equal to it;
- a few hundred other hands valued both ways, exactly (every dealer hand of the 46 cards left,
  :mod:`sapsam.paigow_poker.measure.exact`) and against the pool: the mean *correction*, exact less
  pooled.

The mean gain is the pooled gain's mean plus the correction's (a difference estimator: unbiased
whatever the pool, since both samples' hands are drawn at random and the pooled gain is the
same function in both); the two samples and the house way's own edge are independent, so their
variances add.  The exact and pooled gains correlate above 0.9999, so the correction's share of
the interval is small and the pooled hands' count sets it.
"""

from math import sqrt

import numpy as np

from sapsam.paigow_poker.game import tables
from sapsam.paigow_poker.kernels.pool import draw_pool, pool_gains
from sapsam.paigow_poker.measure.exact import (
    N_CARDS,
    dealer_histogram,
    house_setting_of,
    legal_settings,
    outcome_counts,
    remaining_cards,
)

POOL = 1_000_000  # dealer hands in the pool
HANDS = 200_000  # hands valued against the pool
EXACT_HANDS = 500  # hands valued exactly and against the pool
EDGE_DEALS = 100_000_000  # deals of the house way against itself
BLOCKS = 64  # the pool's random streams
CHUNK = 10_000  # hands valued against the pool between checkpoints (and per random stream)
EXACT_CHUNK = 25  # hands valued exactly between checkpoints
Z = 1.96


def sample_hands(deck, count, seed, key):
    """``count`` random hands of seven of ``deck`` (rows of ascending codes): chunk ``c`` of
    :data:`CHUNK` hands from its own stream ``(key, c)``, so a resumed run draws the same."""
    from sapsam.play.seeds import Stream

    deck = np.asarray(deck, dtype=np.uint8)
    out = []
    for c in range(-(-count // CHUNK)):
        n = min(CHUNK, count - c * CHUNK)
        rng = Stream(seed, "paigow-poker-best", (key, c)).generator()
        picks = rng.random((n, len(deck))).argsort(axis=1)[:, :7]
        out.append(np.sort(deck[picks], axis=1))
    return np.concatenate(out).astype(np.uint8) if out else np.zeros((0, 7), dtype=np.uint8)


def dealer_pool(way, rules, size, seed, deck=None):
    """The pool: ``size`` (rounded up to :data:`BLOCKS` equal blocks) random hands of the deck
    set by the house way, as card masks and (high, low) strengths."""
    from sapsam.play.seeds import Stream

    scale, joker = tables(rules)
    deck = np.arange(N_CARDS, dtype=np.uint8) if deck is None else np.asarray(deck, dtype=np.uint8)
    states = Stream(seed, "paigow-poker-best", (0,)).states(BLOCKS)
    return draw_pool(deck, -(-int(size) // BLOCKS), way.arrays, scale, joker, states)


def pooled_gains(hands, pool, way, rules):
    """Each hand's best setting less the house way's against the pool: (n, 2) per unit bet,
    not banking and banking."""
    scale, joker = tables(rules)
    gains, _ = pool_gains(np.ascontiguousarray(hands, dtype=np.uint8), *pool, way.arrays, scale, joker,
                          rules.commission)
    return gains


def exact_gains(hand, way, rules, deck=None):
    """The same against every dealer hand of the cards left (of ``deck``, else of all 53):
    (not banking, banking)."""
    histogram = dealer_histogram(remaining_cards(hand, deck), way, rules, direct=deck is not None)
    settings, _ = legal_settings(hand, rules)
    mine = [(s[0], s[1]) for s in settings].index(house_setting_of(hand, way, rules))
    total = histogram.sum()
    out = []
    for banking in (False, True):
        win, _, loss = outcome_counts(histogram, [s[0] for s in settings], [s[1] for s in settings], banking)
        value = ((1 - rules.commission) * win - loss) / total
        out.append(float(value.max() - value[mine]))
    return out


def mean_gain(pooled, exact, exact_pooled):
    """The mean gain, one side of the bet: ``pooled`` gains of the many hands, ``exact`` and
    ``exact_pooled`` of the few.  Every half-width is a 95% one (z = 1.96)."""
    correction = np.asarray(exact) - np.asarray(exact_pooled)
    pooled_var = float(np.var(pooled, ddof=1)) / len(pooled)
    correction_var = float(np.var(correction, ddof=1)) / len(correction)
    return {"gain": float(np.mean(pooled)) + float(np.mean(correction)),
            "gain_half_width": Z * sqrt(pooled_var + correction_var),
            "pooled_gain": float(np.mean(pooled)), "pooled_half_width": Z * sqrt(pooled_var),
            "correction": float(np.mean(correction)), "correction_half_width": Z * sqrt(correction_var),
            "correlation": (float(np.corrcoef(exact, exact_pooled)[0, 1])
                            if np.std(exact) > 0 and np.std(exact_pooled) > 0 else None),
            "departs": float(np.mean(np.asarray(exact) > 1e-12))}


class Checkpoint:
    """The finished chunks of a run, kept in an ``.npz`` beside its output (or nowhere)."""

    def __init__(self, path, run, resume, fresh):
        from sapsam.base.files import read_checkpoint

        self.path, self.run = path, run
        self.arrays = {}
        if path is not None:
            found = read_checkpoint(path, run, resume, fresh)
            self.arrays = {k: v for k, v in (found or {}).items() if k != "run"}

    def get(self, key, shape):
        if key not in self.arrays:
            self.arrays[key] = np.full(shape, np.nan)
        return self.arrays[key]

    def save(self):
        if self.path is not None:
            import json

            from sapsam.base.files import write_npz

            write_npz(self.path, run=np.array(json.dumps(self.run)), **self.arrays)


def best_play_gains(ways, rules, hands=HANDS, exact_hands=EXACT_HANDS, pool=POOL, seed=0, deck=None,
                    progress=None, checkpoint=None, resume=True, fresh=False):
    """The mean gain of the best play over each house way's setting, not banking and banking:
    per house way a list of two :func:`mean_gain` dicts.  ``deck``: the hands and the dealer's
    from these cards only (a check on a small deck).  ``checkpoint``: an ``.npz`` path where
    finished chunks are kept (continued with ``resume``, discarded with ``fresh``);
    ``progress(done, total)`` after each chunk."""
    hands, exact_hands, pool = int(hands), int(exact_hands), int(pool)
    for name, value, least in (("hands", hands, 2), ("exact_hands", exact_hands, 2), ("pool", pool, BLOCKS)):
        if value < least:
            raise ValueError(f"{name} must be at least {least}, got {value}")
    deck = None if deck is None else [int(c) for c in deck]
    run = {"ways": [w.id for w in ways], "hands": hands, "exact_hands": exact_hands, "pool": pool,
           "seed": int(seed), "deck": deck, "commission": rules.commission, "wheel_second": rules.wheel_second}
    saved = Checkpoint(checkpoint, run, resume, fresh)
    all_cards = np.arange(N_CARDS) if deck is None else np.asarray(deck)
    many = sample_hands(all_cards, hands, seed, 1)
    few = sample_hands(all_cards, exact_hands, seed, 2)
    steps = len(ways) * (-(-hands // CHUNK) + -(-exact_hands // EXACT_CHUNK))
    done, out = 0, []
    for way in ways:
        dealers = dealer_pool(way, rules, pool, seed, deck)
        pooled = saved.get(f"{way.id}.pooled", (hands, 2))
        exact = saved.get(f"{way.id}.exact", (exact_hands, 2))
        for start in range(0, hands, CHUNK):
            if np.isnan(pooled[start]).any():
                pooled[start:start + CHUNK] = pooled_gains(many[start:start + CHUNK], dealers, way, rules)
                saved.save()
            done += 1
            if progress:
                progress(done, steps)
        for start in range(0, exact_hands, EXACT_CHUNK):
            if np.isnan(exact[start]).any():
                for i in range(start, min(start + EXACT_CHUNK, exact_hands)):
                    exact[i] = exact_gains(few[i], way, rules, deck)
                saved.save()
            done += 1
            if progress:
                progress(done, steps)
        exact_pooled = pooled_gains(few, dealers, way, rules)
        out.append([mean_gain(pooled[:, b], exact[:, b], exact_pooled[:, b]) for b in (0, 1)])
    return out
