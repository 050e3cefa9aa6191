"""Opponent policies as the analyses use them: names, their tables, and fitted strategies.

A :class:`Policy` bundles what :func:`kernels.policies.decide` needs: the policy code, the EV
tables of ``table``/``fitted`` (built from the field's per-row strength distributions under a
ruleset) and the per-row points of ``balanced`` (row percentiles) and ``houseway`` (its chart,
:mod:`analysis.houseway`).

Fitted strategies are files ``<ruleset>-<players>p.npz`` with a JSON manifest beside them,
written by ``sapsam fit`` (:mod:`analysis.fit`).  They ship inside the package
(``analysis/strategies/``); a user's own fits live in the user's data folder
(:func:`user_strategy_dir`) and take precedence, so that a fit the user made is the one used.
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
SHIPPED_STRATEGY_DIR = Path(__file__).resolve().parent / "strategies"


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


def user_strategy_dir():
    """The folder of the user's own fits: ``$SAPSAM_DATA/strategies`` if that variable is set,
    else ``strategies`` in the user's data folder (platformdirs)."""
    import os

    from platformdirs import user_data_path

    root = os.environ.get("SAPSAM_DATA")
    return (Path(root) if root else user_data_path("sapsam", appauthor=False)) / "strategies"


def strategy_name(rules_id, players):
    """The file name of a ruleset id's strategy at a table size."""
    return f"{rules_id}-{players}p.npz"


def strategy_path(rules_id, players):
    """The strategy file used for a ruleset id and table size: the user's own fit if there is
    one, else the shipped one (which may not exist: check ``is_file()``)."""
    own = user_strategy_dir() / strategy_name(rules_id, players)
    return own if own.is_file() else SHIPPED_STRATEGY_DIR / strategy_name(rules_id, players)


def fitted_strategies():
    """(ruleset id, players) of every shipped or user-fitted strategy, sorted."""
    found = set()
    for folder in (SHIPPED_STRATEGY_DIR, user_strategy_dir()):
        for path in folder.glob("*p.npz"):
            rid, _, n = path.stem.rpartition("-")
            if n[:-1].isdigit():
                found.add((rid, int(n[:-1])))
    return sorted(found)


def check_strategy(path, rules_id, players):
    """Refuse a strategy file made for another ruleset or table size (its manifest says which)."""
    path = Path(path)
    try:
        made = manifest(path)
    except (OSError, ValueError) as exc:
        raise ValueError(f"strategy {path}: its manifest {path.with_suffix('.json')} cannot be "
                         f"read ({getattr(exc, 'strerror', None) or exc}); a strategy file needs the "
                         "manifest 'sapsam fit' writes beside it") from None
    theirs = (made.get("ruleset"), made.get("players"))
    if theirs != (rules_id, players):
        raise ValueError(f"strategy {path} was fitted for {theirs[0]} with {theirs[1]} players, "
                         f"not {rules_id} with {players} players")


def load_strategy(path):
    """A strategy file's per-row strength distribution (float64 (3, N_STRENGTHS)) and the
    share of the field that surrenders (0 for files without it)."""
    from analysis.provenance import load_npz

    data = load_npz(path, "strategy file (as 'sapsam fit' writes)", ("row_mass",))
    mass = data["row_mass"]
    rate = float(data["surrender_rate"]) if "surrender_rate" in data else 0.0
    if mass.shape != (3, N_STRENGTHS):
        raise ValueError(f"{path}: row_mass has shape {mass.shape}, expected (3, {N_STRENGTHS})")
    return mass, rate


def manifest(path):
    """The JSON manifest beside a strategy file."""
    return json.loads(Path(path).with_suffix(".json").read_text())


def make_policy(name, rules, players, strategy=None, progress=None):
    """A :class:`Policy` by name for a ruleset and table size.

    Parameters
    ----------
    name : {"random", "greedy", "balanced", "table", "fitted", "houseway"}
    rules : Ruleset or str
    players : int
    strategy : path, optional
        A strategy file for ``fitted`` (default: the one for this ruleset and table size).
        ``table`` uses the field of ``balanced`` players.
    progress : callable, optional
        ``progress(done, total)`` while ``houseway`` derives its chart (seconds of work).
    """
    rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
    if name not in POLICY_NAMES:
        raise ValueError(f"unknown policy {name!r}: use one of {', '.join(POLICY_NAMES)}")
    empty = np.zeros(_kp.TABLE_SHAPE)
    if name in ("random", "greedy", "balanced"):
        return Policy(name, _kp.POLICIES.index(name), empty, balanced_points(), "")
    if name == "houseway":
        from analysis.houseway import as_policy, derive

        way = derive(rules.id, players, progress=progress)
        return as_policy(way, f"house way derived from {strategy_path(rules.id, players)}")
    if name == "table":
        return Policy.from_row_mass(name, balanced_field(players), rules,
                                    "rows of balanced players (4,000 deals, seed 0)")
    path = Path(strategy) if strategy else strategy_path(rules.id, players)
    if strategy and path.is_file():
        check_strategy(path, rules.id, players)
    if not path.is_file():
        have = ", ".join(f"{r} ({p} players)" for r, p in fitted_strategies()) or "none"
        raise ValueError(f"no fitted strategy for {rules.id} with {players} players at {path} "
                         f"(have: {have}); run 'sapsam fit --rules {rules.id} --players {players}'")
    mass, rate = load_strategy(path)
    return Policy.from_row_mass(name, mass, rules, str(path), rate)


@cache
def balanced_field(players, deals=4000):
    """Per-row strength distribution of ``balanced`` settings over ``deals`` random hands: a
    fixed part of the ``table`` policy and of a fit's start, so drawn from seed 0 whatever a
    command's ``--seed``."""
    from analysis.fit import played_row_mass
    from analysis.seeds import Stream

    policy = Policy("balanced", _kp.BALANCED, np.zeros(_kp.TABLE_SHAPE), balanced_points(), "")
    return played_row_mass(policy, load_ruleset("basic"), players, deals, Stream(0, "balanced"))
