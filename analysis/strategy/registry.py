"""Policies by name: the one place a name such as ``fitted`` or ``houseway`` becomes a
:class:`~sapsam.play.policy.Policy` for a ruleset and table size.
"""

import numpy as np

from sapsam.game.rules import Ruleset
from sapsam.game.ruleset_files import load_ruleset
from sapsam.kernels import policies as _kp
from sapsam.kernels import value as _kv
from sapsam.play.names import POLICY_NAMES
from sapsam.play.policy import Policy, balanced_points
from sapsam.play.strategy_files import fitted_policy
from sapsam.strategy.fit import balanced_field, fitted_strategy
from sapsam.strategy.houseway import as_policy, derive, require_house_way


def make_policy(name, rules, players, strategy=None, stage=None):
    """A :class:`Policy` by name for a ruleset and table size.

    Parameters
    ----------
    name : {"random", "greedy", "balanced", "table", "fitted", "houseway"}
    rules : Ruleset or str
    players : int
    strategy : path, optional
        A strategy file for ``fitted`` (default: the one for this ruleset and table size,
        fitted now and cached if there is none: :func:`sapsam.strategy.fit.fitted_strategy`).
        ``table`` uses the field of ``balanced`` players.
    stage : callable, optional
        ``stage(label, total, unit)`` gives a progress callback for work that takes seconds: a
        fit on demand, deriving the house way (as :meth:`sapsam.base.progress.Progress.task`).
    """
    rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
    if name not in POLICY_NAMES:
        raise ValueError(f"unknown policy {name!r}: use one of {', '.join(POLICY_NAMES)}")
    empty = np.zeros(_kv.TABLE_SHAPE)
    if name in ("random", "greedy", "balanced"):
        return Policy(name, _kp.POLICIES.index(name), empty, balanced_points(rules.low_middle), "")
    if name == "houseway":
        require_house_way(rules)  # before fitting what it would be derived from
        fitted = fitted_strategy(rules, players, stage)
        way = derive(rules, players, progress=stage("deriving the house way", None, "hands")
                     if stage else None)
        return as_policy(way, f"house way derived from {fitted}")
    if name == "table":
        return Policy.from_row_mass(name, balanced_field(players, rules.low_middle), rules,
                                    "rows of balanced players (4,000 deals, seed 0)")
    return fitted_policy(rules, players, strategy or fitted_strategy(rules, players, stage))
