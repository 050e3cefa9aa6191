"""Opponent policies as the analyses use them: names, their tables, and fitted strategies.

A :class:`Policy` bundles what :func:`kernels.policies.decide` needs: the policy code, the EV
tables of ``table``/``fitted`` (built from the field's per-row strength distributions under a
ruleset) and the per-row points of ``balanced`` (row percentiles) and ``houseway`` (its chart,
:mod:`analysis.houseway`).  Fitted strategies are files under
``results/strategies/`` (``<ruleset>-<players>p.npz`` with a JSON manifest), written by
``sapsam fit`` (:mod:`analysis.fit`).
"""

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import comb
from pathlib import Path

import numpy as np

from analysis.rules import Ruleset, load_ruleset
from kernels import policies as _kp
from kernels.evaluate import CARD_WEIGHT, FLUSH5, N_STRENGTHS, NONFLUSH5, RANK3_TABLE

POLICY_NAMES = ("random", "greedy", "balanced", "table", "fitted", "houseway")
STRATEGY_DIR = Path(__file__).resolve().parents[1] / "results" / "strategies"


@cache
def row_percentiles():
    """Exact percentile of every strength among random hands of its size.

    Returns ndarray(float64), shape (2, N_STRENGTHS): row 0 for 3-card fronts (22,100 hands),
    row 1 for 5-card hands (2,598,960); the percentile counts ties as half.  Counted by
    combinatorics over rank multisets: a multiset with counts c_r has prod C(4, c_r) suit
    choices, four of them flushes when its five ranks differ.
    """
    counts = np.zeros((2, N_STRENGTHS))
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
            counts[1, FLUSH5[sum(1 << r for r in ranks)]] += 4
            ways -= 4
        counts[1, NONFLUSH5[key]] += ways
    cdf = np.cumsum(counts, axis=1) - counts / 2
    return cdf / counts.sum(axis=1, keepdims=True)


@cache
def balanced_points():
    """``balanced``'s points table: the front's percentile, and the five-card one for the
    middle and the back (float64 kernels.policies.POINTS_SHAPE; never surrenders)."""
    pct = row_percentiles()
    points = np.zeros(_kp.POINTS_SHAPE)
    points[0, :-1], points[1, :-1], points[2, :-1] = pct[0], pct[1], pct[1]
    points[_kp.SURRENDER_BELOW] = -np.inf
    points.setflags(write=False)
    return points


@dataclass(frozen=True)
class Policy:
    """A policy ready for the kernels."""

    name: str
    code: int
    tables: np.ndarray  # float64 kernels.policies.TABLE_SHAPE; zeros unless table/fitted
    points: np.ndarray  # float64 kernels.policies.POINTS_SHAPE: balanced's and houseway's
    source: str  # where the tables came from

    @classmethod
    def from_row_mass(cls, name, row_mass, rules, source, surrender_rate=0.0):
        compiled = rules.compile()
        tables = _kp.ev_tables(np.ascontiguousarray(row_mass, np.float64), compiled.params,
                               compiled.royalty, float(surrender_rate))
        return cls(name, _kp.TABLE, tables, balanced_points(), source)


def strategy_path(rules_id, players):
    """Where the fitted strategy of a ruleset id and table size lives."""
    return STRATEGY_DIR / f"{rules_id}-{players}p.npz"


def fitted_strategies():
    """(ruleset id, players) of every shipped or fitted strategy."""
    found = []
    for path in sorted(STRATEGY_DIR.glob("*p.npz")):
        rid, _, n = path.stem.rpartition("-")
        found.append((rid, int(n[:-1])))
    return found


def load_strategy(path):
    """A strategy file's per-row strength distribution (float64 (3, N_STRENGTHS)) and the
    share of the field that surrenders (0 for files without it)."""
    with np.load(path) as data:
        mass = data["row_mass"]
        rate = float(data["surrender_rate"]) if "surrender_rate" in data.files else 0.0
    if mass.shape != (3, N_STRENGTHS):
        raise ValueError(f"{path}: row_mass has shape {mass.shape}, expected (3, {N_STRENGTHS})")
    return mass, rate


def manifest(path):
    """The JSON manifest beside a strategy file."""
    return json.loads(Path(path).with_suffix(".json").read_text())


def make_policy(name, rules, players, strategy=None):
    """A :class:`Policy` by name for a ruleset and table size.

    Parameters
    ----------
    name : {"random", "greedy", "balanced", "table", "fitted", "houseway"}
    rules : Ruleset or str
    players : int
    strategy : path, optional
        A strategy file for ``fitted`` (default: the one for this ruleset and table size).
        ``table`` uses the field of ``balanced`` players.
    """
    rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
    if name not in POLICY_NAMES:
        raise ValueError(f"unknown policy {name!r}: use one of {', '.join(POLICY_NAMES)}")
    empty = np.zeros(_kp.TABLE_SHAPE)
    if name in ("random", "greedy", "balanced"):
        return Policy(name, _kp.POLICIES.index(name), empty, balanced_points(), "")
    if name == "houseway":
        from analysis.houseway import derive

        way = derive(rules.id, players)
        return Policy(name, _kp.HOUSEWAY, empty, way.points,
                      f"house way derived from {strategy_path(rules.id, players)}")
    if name == "table":
        return Policy.from_row_mass(name, balanced_field(players), rules,
                                    "rows of balanced players (4,000 seeded deals)")
    path = Path(strategy) if strategy else strategy_path(rules.id, players)
    if not path.is_file():
        have = ", ".join(f"{r} ({p} players)" for r, p in fitted_strategies()) or "none"
        raise ValueError(f"no fitted strategy for {rules.id} with {players} players at {path} "
                         f"(have: {have}); run 'sapsam fit --rules {rules.id} --players {players}'")
    mass, rate = load_strategy(path)
    return Policy.from_row_mass(name, mass, rules, str(path), rate)


@cache
def balanced_field(players, deals=4000, seed=20261121):
    """Per-row strength distribution of ``balanced`` settings over seeded random deals."""
    from analysis.fit import played_row_mass

    policy = Policy("balanced", _kp.BALANCED, np.zeros(_kp.TABLE_SHAPE), balanced_points(), "")
    return played_row_mass(policy, load_ruleset("basic"), players, deals, seed)
