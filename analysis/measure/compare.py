"""What a policy costs against a field: a paired (common random numbers) measurement.

:func:`policy_gap` deals seeded tables; seat 0 plays the policy under test, the other seats
play the baseline (``fitted`` by default), and every table is settled.  Then the *same*
tables are settled again with seat 0 playing the baseline.  The difference of seat 0's points
table by table removes the luck of the deal, so the gap has a much tighter interval than
either EV (the duplicate-deal idea of duplicate bridge; in Monte Carlo terms, common random
numbers).  :func:`policy_gaps` measures several policies on one deal, sharing the baseline.

The tables are set up as :mod:`sapsam.kernels.simulate` sets them: each table deals ``13 * players``
cards from one shuffled pack; the aces each hand holds go to the aces bet; in a bank game the
bank rotates with the table number (``table % players``) or sits at the ruleset's seat; chip
stacks are unlimited.

Randomness (:mod:`sapsam.play.seeds`): the tables come from the seed's ``tables`` stream; the
policies' own random choices (``random`` only) from one stream per chunk of hands
(:data:`sapsam.play.seeds.CHUNKS`), the baseline's from the ``field`` stream and seat 0's policy
from the ``seat`` stream.  The chunking, not the thread count, fixes the numbers.

Intervals are 95% intervals of a mean, Student's t (:func:`sapsam.base.stats.mean_interval`): at
thousands of tables the normal's mean +- 1.96 SD / sqrt(tables).
"""

from dataclasses import asdict, dataclass

import numpy as np

from sapsam.base.progress import shifted
from sapsam.base.stats import mean_interval
from sapsam.game.rules import Ruleset
from sapsam.game.ruleset_files import load_ruleset
from sapsam.game.score import points_scale, settle_tables
from sapsam.kernels.policies import play_hands
from sapsam.play.deal import deal_tables, table_setup
from sapsam.play.policy import Policy
from sapsam.play.seeds import CHUNKS, Stream
from sapsam.strategy.registry import make_policy


@dataclass(frozen=True)
class Gap:
    """Seat 0's units per hand with a policy and with the baseline, on the same tables.

    ``ev`` and ``ev_baseline`` are means over the tables with their own 95% intervals;
    ``gap = ev - ev_baseline`` is the mean of the per-table differences, ``sd`` their standard
    deviation (units), ``ci_low``/``ci_high`` the gap's 95% interval.
    """

    rules: str
    players: int
    policy: str
    baseline: str
    tables: int
    seed: int
    ev: float
    ev_ci_low: float
    ev_ci_high: float
    ev_baseline: float
    ev_baseline_ci_low: float
    ev_baseline_ci_high: float
    gap: float
    sd: float
    ci_low: float
    ci_high: float

    def to_dict(self):
        """The measurement as plain data (JSON-ready)."""
        return asdict(self)


@dataclass(frozen=True)
class Decisions:
    """What the seats of many tables did (arrays shaped like the hands without the cards).

    rows : ndarray(int16), shape (..., 3) -- strength triple, -1 for a natural or surrender
    natural : ndarray(int64), shape (...) -- row of the ruleset's naturals, -1 none
    natural_key : ndarray(int64), shape (...) -- tie-break key of a declared natural
    surrender : ndarray(bool), shape (...)
    """

    rows: np.ndarray
    natural: np.ndarray
    natural_key: np.ndarray
    surrender: np.ndarray


def policy_gap(rules, players, policy, baseline="fitted", tables=20000, seed=0, progress=None):
    """Seat 0's EV with ``policy`` minus its EV with ``baseline``, the other seats ``baseline``.

    Parameters
    ----------
    rules : Ruleset or str
        A ruleset or its id (or a TOML path).
    players : int
        2, 3 or 4 seats.
    policy, baseline : str
        Policy names (:func:`sapsam.strategy.registry.make_policy`); ``fitted`` needs a fitted
        strategy for the ruleset and table size.  ``policy`` may also be a ready
        :class:`sapsam.play.policy.Policy` (a house way with another chart, say).
    tables : int
        Seeded tables dealt (each settled twice).
    seed : int
        Fixes the deal and the policies' random choices.
    progress : callable, optional
        ``progress(hands_decided, hands)``, as in :func:`policy_gaps`.

    Returns
    -------
    Gap

    Raises
    ------
    ValueError
        Unknown ruleset or policy, no fitted strategy, ``players`` outside 2..4,
        ``tables < 1`` or a negative seed.

    Examples
    --------
    >>> gap = policy_gap("standard", 4, "greedy", tables=2000)  # doctest: +SKIP
    >>> gap.gap < 0  # doctest: +SKIP
    True
    """
    return policy_gaps(rules, players, (policy,), baseline, tables, seed, progress)[0]


def policy_gaps(rules, players, policies, baseline="fitted", tables=20000, seed=0,
                progress=None):
    """:func:`policy_gap` for several policies on the same tables (one deal, one baseline run).

    Parameters
    ----------
    rules : Ruleset or str
    players : int
    policies : sequence of str or Policy
        Policies for seat 0 (names, or ready :class:`sapsam.play.policy.Policy` objects), each
        measured against ``baseline``.
    baseline : str
    tables, seed : int
    progress : callable, optional
        ``progress(hands_decided, hands)`` as the baseline's and each policy's hands are set.

    Returns
    -------
    tuple of Gap
        In the order of ``policies``.

    Examples
    --------
    >>> pair = policy_gaps("standard", 4, ("greedy", "balanced"), tables=2000)  # doctest: +SKIP
    """
    rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
    policies = tuple(policies)
    if not policies:
        raise ValueError("name at least one policy to compare with the baseline")
    _check_count(players, tables, seed)
    rules.check_players(players)
    field = make_policy(baseline, rules, players)
    tested = [name if isinstance(name, Policy) else make_policy(name, rules, players)
              for name in policies]

    hands = deal_tables(tables, players * rules.hands, Stream(seed, "tables"))
    aces, bank = table_setup(rules, hands)
    scale = points_scale(rules)
    total = tables * (hands.shape[1] + len(tested))
    field_decisions = decide(field, rules, players, hands, Stream(seed, "field").states(CHUNKS),
                             shifted(progress, 0, total))
    baseline_points = settle_decisions(rules, field_decisions, aces, bank)[:, 0] / scale
    gaps = []
    for i, policy in enumerate(tested):
        seat = decide(policy, rules, players, hands[:, 0], Stream(seed, "seat").states(CHUNKS),
                      shifted(progress, tables * (hands.shape[1] + i), total))
        table = with_seat(field_decisions, 0, seat)
        points = settle_decisions(rules, table, aces, bank)[:, 0] / scale
        gaps.append(_paired(points, baseline_points, rules.id, players, policy.name, baseline,
                            seed))
    return tuple(gaps)


def _check_count(players, tables, seed):
    if not isinstance(players, (int, np.integer)) or not 2 <= players <= 4:
        raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
    if not isinstance(tables, (int, np.integer)) or tables < 1:
        raise ValueError(f"tables must be a whole number >= 1, got {tables!r}")
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, got {seed!r}")






def decide(policy, rules, players, hands, states, progress=None):
    """A policy's decisions for hands of any leading shape.

    Parameters
    ----------
    policy : sapsam.play.policy.Policy
    rules : Ruleset
    players : int
        Table size (the policy plays against ``rules.opposing_hands(players)`` hands).
    hands : ndarray(uint8), shape (..., 13)
        Sorted hands.
    states : ndarray(uint64), shape (chunks,)
        One random stream per chunk of consecutive hands (:func:`sapsam.kernels.policies.play_hands`).
    progress : callable, optional
        ``progress(hands_decided, hands)`` now and then.

    Returns
    -------
    Decisions
        Shaped like ``hands`` without its last axis.
    """
    compiled = rules.compile()
    shape = hands.shape[:-1]
    flat = np.ascontiguousarray(hands.reshape(-1, 13), np.uint8)
    # criss-cross tables (..., seats, 13): a player's two hands side by side, each the other's
    paired = rules.hands == 2 and len(shape) >= 2 and shape[-1] % 2 == 0
    rows, natural, key, surrender = play_hands(flat, policy.arrays, compiled.arrays,
                                               rules.opposing_hands(players), states,
                                               progress, paired=paired)
    return Decisions(rows.reshape(*shape, 3), natural.reshape(shape), key.reshape(shape),
                     surrender.reshape(shape))


def with_seat(decisions, seat, replacement):
    """Table decisions (T, P) with one seat's column replaced by ``replacement`` (T,)."""
    out = []
    for name in ("rows", "natural", "natural_key", "surrender"):
        array = getattr(decisions, name).copy()
        array[:, seat] = getattr(replacement, name)
        out.append(array)
    return Decisions(*out)


def settle_decisions(rules, decisions, aces, bank):
    """Every seat's points (int64 (T, P), in ``1 / points_scale(rules)`` units) of the tables."""
    return settle_tables(rules, decisions.rows, decisions.natural, decisions.natural_key,
                         decisions.surrender, aces, bank)




def _paired(points, baseline_points, rules_id, players, policy, baseline, seed):
    ev, _, ev_low, ev_high = mean_interval(points)
    base, _, base_low, base_high = mean_interval(baseline_points)
    _, sd, low, high = mean_interval(points - baseline_points)
    gap = ev - base  # the difference of the means, equal to the mean difference up to rounding
    half = (high - low) / 2
    low, high = gap - half, gap + half
    return Gap(rules_id, int(players), policy, baseline, len(points), int(seed), ev, ev_low,
               ev_high, base, base_low, base_high, gap, sd, low, high)
