"""Policies as the kernels play them.

A :class:`Policy` bundles what :func:`sapsam.kernels.policies.decide` needs: the policy code, the EV
tables of ``table``/``fitted`` (built from the field's per-row strength distributions under a
ruleset) and the per-row points of ``balanced`` (row percentiles) and ``houseway`` (its chart,
:mod:`sapsam.strategy.houseway`).  Names become policies in :mod:`sapsam.strategy.registry`.
"""

from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import combinations_with_replacement
from math import comb

import numpy as np

from sapsam.kernels import crossed as _kc
from sapsam.kernels import policies as _kp
from sapsam.kernels import removal as _kr
from sapsam.kernels import settle as _S
from sapsam.kernels import value as _kv
from sapsam.kernels.evaluate import CARD_WEIGHT, FLUSH5, N_STRENGTHS, NONFLUSH5, RANK3_TABLE
from sapsam.kernels.lowball import LOW_FLUSH5, LOW_NONFLUSH5


@cache
def row_percentiles():
    """Exact percentile of every strength among random hands of its size.

    Returns ndarray(float64), shape (3, N_STRENGTHS): row 0 for 3-card fronts (22,100 hands),
    row 1 for 5-card hands (2,598,960), row 2 for 5-card hands as 2-7 lows
    (:mod:`sapsam.kernels.lowball`); the percentile counts ties as half.  Counted by combinatorics
    over rank multisets: a multiset with counts c_r has prod C(4, c_r) suit choices, four of
    them flushes when its five ranks differ.  Every game that ranks its rows by these
    strengths reads this one table.
    """
    counts = np.zeros((3, N_STRENGTHS))
    weights = CARD_WEIGHT[::4]
    for ranks in combinations_with_replacement(range(13), 3):
        ways = np.prod([comb(4, c) for c in Counter(ranks).values()])
        counts[0, RANK3_TABLE[(ranks[0] * 13 + ranks[1]) * 13 + ranks[2]]] += ways
    for ranks in combinations_with_replacement(range(13), 5):
        multiplicity = Counter(ranks)
        if max(multiplicity.values()) > 4:
            continue
        ways = np.prod([comb(4, c) for c in multiplicity.values()])
        key = int(sum(weights[r] for r in ranks))
        if len(multiplicity) == 5:
            mask = sum(1 << r for r in ranks)
            counts[1, FLUSH5[mask]] += 4
            counts[2, LOW_FLUSH5[mask]] += 4
            ways -= 4
        counts[1, NONFLUSH5[key]] += ways
        counts[2, LOW_NONFLUSH5[key]] += ways
    cdf = np.cumsum(counts, axis=1) - counts / 2
    return cdf / counts.sum(axis=1, keepdims=True)


def balanced_points(low_middle=False):
    """``balanced``'s points table: the front's percentile, and the five-card one for the
    middle (as a 2-7 low with ``low_middle``) and the back (float64
    sapsam.kernels.policies.POINTS_SHAPE; never surrenders).  A copy of its own, writable as
    every policy's points are (a read-only one would compile every decision kernel again)."""
    return _balanced_points(low_middle).copy()


@cache
def _balanced_points(low_middle):
    pct = row_percentiles()
    points = np.zeros(_kp.POINTS_SHAPE)
    points[0, :-1], points[1, :-1], points[2, :-1] = pct[0], pct[2 if low_middle else 1], pct[1]
    points[_kp.SURRENDER_BELOW] = -np.inf
    return points


@dataclass(frozen=True)
class Policy:
    """A policy ready for the kernels."""

    name: str
    code: int
    tables: np.ndarray  # float64 sapsam.kernels.policies.TABLE_SHAPE; zeros unless table/fitted
    points: np.ndarray  # float64 sapsam.kernels.policies.POINTS_SHAPE: balanced's and houseway's
    source: str  # where the tables came from
    # table/fitted: its card-removal model (sapsam.kernels.removal.Removal; empty: none)
    removal: tuple = field(default_factory=_kr.no_removal)
    # criss-cross fits: (splits, rounds, blend) of the exact field each player's hands are set
    # against (crossed; sapsam.kernels.crossed), () for none
    exact: tuple = ()

    @property
    def arrays(self):
        """The policy as the kernels take it (:class:`sapsam.kernels.policies.Policy`)."""
        return _kp.Policy(self.code, self.tables, self.points, self.removal)

    def crossed(self, rules, cards, players=2):
        """Criss-cross: this policy as it plays for the player holding ``cards`` (26): with an
        exact field (:attr:`exact`), a ``table`` policy against that player's field
        (:func:`sapsam.kernels.crossed.crossed_field`), which the kernels take as they take any
        field; else itself."""
        if not self.exact:
            return self
        cards = np.sort(np.asarray(cards, np.uint8))
        if cards.shape != (26,):
            raise ValueError(f"a criss-cross player holds 26 cards, got {cards.shape[0]}")
        compiled = rules.compile()
        splits, rounds, blend = self.exact
        tables = _kc.crossed_field(cards, int(splits), int(rounds), float(blend), self.tables, self.points,
                                   self.removal, compiled.params, compiled.naturals, rules.opposing_hands(players),
                                   _kp.search_mode(*self.arrays, compiled.params))
        return replace(self, tables=tables, removal=_kr.no_removal(), exact=(),
                       source=f"{self.source}, against the exact field of its cards")

    @classmethod
    def from_row_mass(cls, name, row_mass, rules, source, surrender_rate=0.0, removal=None, exact=()):
        """A ``table`` policy against a field whose rows have the strength distributions
        ``row_mass`` (float64 (3, N_STRENGTHS)), a share ``surrender_rate`` of it
        surrendering; with ``removal`` = (gamma, xmean, edges, copula), corrected for each hand's
        cards (:mod:`sapsam.kernels.removal`; under a low middle too, the middle's strengths its
        lows), and with a copula (None: none) for the joint chances of a sweep.

        ``exact`` = (splits, rounds, blend) (criss-cross, rows that pay their unit alone): each
        player's settings are valued against the exact field of the opponent's 26 cards,
        played from this policy (:meth:`crossed`); (): the fitted field."""
        compiled = rules.compile()
        row_mass = np.ascontiguousarray(row_mass, np.float64)
        tables = _kv.ev_tables(row_mass, compiled.params, compiled.royalty, float(surrender_rate))
        model = _kr.no_removal()
        if removal is not None:
            gamma, xmean, edges, copula = removal
            copula = _kr.no_copula() if copula is None else np.ascontiguousarray(copula, np.float64)
            model = _kr.removal_model(row_mass, np.ascontiguousarray(gamma, np.float64),
                                      np.ascontiguousarray(xmean, np.float64), _kr.bins_of_edges(edges),
                                      compiled.params, compiled.royalty, copula)
        if exact:
            require_exact_field(rules, exact)
            exact = (int(exact[0]), int(exact[1]), float(exact[2]))
        return cls(name, _kp.TABLE, tables, balanced_points(rules.low_middle), source, model, tuple(exact))


def require_exact_field(rules, exact):
    """Refuse an exact field (:meth:`Policy.from_row_mass`) where it does not apply: it is for
    two hands each (criss-cross) whose rows pay their unit alone (no royalties, naturals or
    surrender), and ``exact`` = (splits, rounds, blend) must be 1 to 100,000 splits, 0 to
    1,000 rounds and a blend in (0, 1]."""
    if rules.hands != 2:
        raise ValueError(f"an exact field is for two hands each (criss-cross); {rules.id} deals one")
    compiled = rules.compile()
    if compiled.royalty.any() or compiled.naturals.shape[0] or compiled.params[_S.P_SURRENDER_ALLOWED]:
        raise ValueError(f"an exact field values rows that pay their unit alone; {rules.id} has royalties, "
                         "naturals or surrender")
    splits, rounds, blend = exact
    if not (splits == int(splits) and 1 <= splits <= 100_000 and rounds == int(rounds) and 0 <= rounds <= 1000
            and 0 < blend <= 1):
        raise ValueError(f"an exact field is (splits 1-100,000, rounds 0-1,000, blend in (0, 1]), got {exact}")
