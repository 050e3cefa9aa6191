"""Open-Face Chinese Poker's policies by name, and the tables they play with
(:mod:`sapsam.ofc.kernels.policies`'s module doc says how each decides).  ``improved`` is the heuristic
with the weights self-play chose (:mod:`sapsam.ofc.strategy.improve`), read from
``strategies/<ruleset>-<players>p.json`` (shipped) or the user's own in
``<user data>/strategies/ofc/`` (which wins); ``learned`` plays by the weights self-play fitted
(:mod:`sapsam.ofc.strategy.learn`), read likewise from ``learned-<ruleset>-<players>p.json``.

>>> OFC_POLICIES
('random', 'heuristic', 'rollout', 'improved', 'learned', 'lookahead')
>>> round(float(row_percentiles()[1, 7916]), 6)  # a royal flush beats almost every 5 cards
0.999999
"""

import json
from pathlib import Path

import numpy as np

from sapsam.ofc.game import load_ofc_rules
from sapsam.ofc.kernels.learned import LEARNED, N_FEATURES, N_PLACED
from sapsam.ofc.kernels.policies import (
    H_EXPLORE,
    H_FANTASY,
    H_FILLS,
    H_FOUL,
    H_HALVING,
    H_INNER_FILLS,
    H_LATE_FANTASY,
    H_ROLLOUTS,
    H_ROW,
    H_SHORTLIST,
    HEURISTIC,
    N_PARAMS,
    RANDOM,
    ROLLOUT,
    Game,
)
from sapsam.ofc.kernels.rollout import LOOKAHEAD
from sapsam.play.policy import row_percentiles
from sapsam.play.strategy_files import user_strategy_dir

OFC_POLICIES = ("random", "heuristic", "rollout", "improved", "learned", "lookahead")
_CODES = {"random": RANDOM, "heuristic": HEURISTIC, "rollout": ROLLOUT, "improved": HEURISTIC, "learned": LEARNED,
          "lookahead": LOOKAHEAD}
WEIGHTED = ("learned", "lookahead")  # the policies that read the learned weights
SHIPPED_OFC_DIR = Path(__file__).resolve().parent / "strategies"
TUNED = {"foul": H_FOUL, "row": H_ROW, "fantasy": H_FANTASY}  # the weights self-play tunes

# The heuristic's weights: a foul costs 6 points (three rows and the scoop to every opponent
# that is not fouled), a row 1 point per unit of 2F - 1, 16 random fills a placement; the
# rollout policy finishes its board 24 times a placement, by the heuristic with 4 fills; the
# worth of Fantasyland counts once; no exploration (a learned seat's, in self-play only).
DEFAULT_PARAMS = {H_FOUL: 6.0, H_ROW: 1.0, H_FILLS: 16, H_ROLLOUTS: 24, H_INNER_FILLS: 4, H_FANTASY: 1.0,
                  H_EXPLORE: 0.0, H_SHORTLIST: 0, H_HALVING: 0, H_LATE_FANTASY: 1.0}
# The lookahead's (sapsam.ofc.kernels.rollout): the learned value's 54 best placements (of a first
# street's 232; a later street has at most 27) rolled out 128 times each on average, by the
# heuristic with 16 fills, spent in rounds of sequential halving (more rollouts for the placements
# still close to the best); Fantasyland worth 3.5 times its worth in points on the first street,
# whose rollouts play three streets by a heuristic that under-reaches it, falling to 1.75 times
# (H_LATE_FANTASY) from the fourth, which rolls nothing out: every deal of the last street is
# played best (rollout.fantasy_weight: a straight line between; docs/ofc.md, its tuning)
LOOKAHEAD_PARAMS = {H_SHORTLIST: 54, H_ROLLOUTS: 128, H_INNER_FILLS: 16, H_FANTASY: 3.5, H_LATE_FANTASY: 1.75,
                    H_HALVING: 1}


def policy_code(name):
    if name not in _CODES:
        raise ValueError(f"unknown OFC policy {name!r}: use one of {', '.join(OFC_POLICIES)}")
    return _CODES[name]


def default_params():
    params = np.zeros(N_PARAMS)
    for key, value in DEFAULT_PARAMS.items():
        params[key] = value
    return params


def seat_arrays(names, rules=None, players=None):
    """The kernels' policy codes and params of seats named ``names`` (``improved`` reads the
    weights for ``rules`` at ``players``)."""
    codes = np.array([policy_code(n) for n in names], np.int64)
    params = np.tile(default_params(), (len(names), 1))
    for seat, name in enumerate(names):
        if name == "improved":
            params[seat] = improved_params(load_ofc_rules(rules).id, players or len(names))
        elif name == "lookahead":
            for key, value in LOOKAHEAD_PARAMS.items():
                params[seat, key] = value
    return codes, params


def seat_values(names, rules=None, players=None):
    """The kernels' ``values`` of seats named ``names``: a learned or lookahead seat's weights
    for ``rules`` at ``players`` (:func:`learned_weights`), zeros for the others."""
    values = np.zeros((len(names), N_PLACED, N_FEATURES))
    for seat, name in enumerate(names):
        if name in WEIGHTED:
            values[seat] = learned_weights(load_ofc_rules(rules).id, players or len(names))
    return values


# The self-play weights of a ruleset and table size: ``sapsam ofc learn`` writes the learned
# policy's as learned-<rules>-<n>p.json, ``sapsam ofc improve`` the heuristic's as <rules>-<n>p.json;
# a user's own (in their data folder) win over the shipped.
_WEIGHTS = {"learned": ("learned-", "learn"), "improved": ("", "improve")}


def own_weights_path(policy, rules_id, players):
    """Where ``sapsam ofc learn`` (``policy`` "learned") or ``improve`` ("improved") writes a
    user's own weights."""
    prefix = _WEIGHTS[policy][0]
    return user_strategy_dir() / "ofc" / f"{prefix}{rules_id}-{players}p.json"


def weights_path(policy, rules_id, players):
    """The weights ``policy`` reads: the user's own, else the shipped file."""
    own = own_weights_path(policy, rules_id, players)
    return own if own.is_file() else SHIPPED_OFC_DIR / own.name


def _read_weights(policy, rules_id, players):
    """The ``weights`` of :func:`weights_path`, or a ValueError saying how to make them."""
    path = weights_path(policy, rules_id, players)
    if not path.is_file():
        raise ValueError(f"no {policy} OFC strategy for {rules_id} at {players} players: make one with "
                         f"`sapsam ofc {_WEIGHTS[policy][1]} --rules {rules_id} --players {players}`")
    return path, json.loads(path.read_text(encoding="utf-8"))["weights"]


def learned_weights(rules_id, players):
    """The learned policy's weights, ``(N_PLACED, N_FEATURES)`` (:func:`weights_path`)."""
    path, weights = _read_weights("learned", rules_id, players)
    weights = np.array(weights, np.float64)
    if weights.shape != (N_PLACED, N_FEATURES):
        raise ValueError(f"{path}: weights of shape {weights.shape}, this version needs "
                         f"{(N_PLACED, N_FEATURES)}: make them again with `sapsam ofc learn`")
    return weights


def improved_params(rules_id, players):
    """The heuristic's params with the weights self-play chose for a ruleset and table size."""
    _, weights = _read_weights("improved", rules_id, players)
    params = default_params()
    for name, key in TUNED.items():
        params[key] = weights[name]
    return params


def game_tables(rules):
    """The kernels' :class:`sapsam.ofc.kernels.policies.Game` of a ruleset;
    ``cdf[row, s]`` is where a front (3 cards), middle or back (5) of strength ``s`` stands
    among the hands of its size (:func:`sapsam.play.policy.row_percentiles`)."""
    rules = load_ofc_rules(rules)
    tables = rules.tables
    deal = np.array([rules.deal.first, rules.deal.draw, rules.deal.keep], np.int64)
    cdf = row_percentiles()[[0, 1, 1]]  # the front's row, then the 5-card row for middle and back
    return Game(tables.royalty, tables.entry, cdf, tables.worth_milli / 1000, deal, tables.scores)
