"""Self-play for Open-Face Chinese Poker's heuristic (``sapsam ofc improve``): its weights
(what a foul costs, what a row's strength is worth, how much Fantasyland counts) tuned by duels
against itself.

A round tries each weight halved and doubled against the incumbent; a challenger replaces the
incumbent when its lead over the same hands, played from every seat, has a 95% interval above
zero (each duel on hands of its own).  The result is the ``improved`` policy
(:mod:`sapsam.ofc.play`).
"""

from dataclasses import dataclass

import numpy as np

from sapsam.base.files import provenance, write_json
from sapsam.base.stats import mean_interval
from sapsam.ofc.game import load_ofc_rules
from sapsam.ofc.kernels.learned import N_FEATURES, N_PLACED
from sapsam.ofc.kernels.policies import HEURISTIC
from sapsam.ofc.kernels.simulate import A_POINTS, N_TALLY, simulate_blocks
from sapsam.ofc.play import TUNED, default_params, game_tables
from sapsam.play.seeds import Stream

DUEL_BLOCK = 25  # consecutive hands a block of a duel
FACTORS = (0.5, 2.0)


@dataclass(frozen=True)
class Duel:
    lead: float  # the challenger's points a hand over the incumbent's field
    low: float
    high: float


def duel(rules, challenger, incumbent, players, hands, stream):
    """``challenger`` params in each seat in turn against ``incumbent`` in the others, on the
    same blocks of hands: the challenger's points a hand, with its 95% interval over blocks."""
    rules = load_ofc_rules(rules)
    tables = rules.tables
    game = game_tables(rules)
    blocks = max(2, -(-hands // (DUEL_BLOCK * players)))
    states = stream.states(blocks)
    lead = np.zeros(blocks)
    codes = np.full(players, HEURISTIC, np.int64)
    for seat in range(players):
        params = np.tile(incumbent, (players, 1))
        params[seat] = challenger
        tally = np.zeros((blocks, players, N_TALLY), np.int64)
        simulate_blocks(states, DUEL_BLOCK, codes, params, np.zeros((players, N_PLACED, N_FEATURES)), game,
                        tables.stay, tables.worth_milli, rules.fantasyland.stay_cards, tables.scores, tally)
        lead += tally[:, seat, A_POINTS] / (DUEL_BLOCK * players)
    mean, _, low, high = mean_interval(lead)
    return Duel(mean, low, high)


def improve(rules, players=2, rounds=3, hands=8000, seed=1, progress=None):
    """Coordinate search over the weights by self-play (module doc): ``(weights, history)``,
    the history a list of every duel (weight, factor, value tried, lead and interval, kept)."""
    rules = load_ofc_rules(rules)
    rules.check_players(players)
    incumbent = default_params()
    history = []
    steps = rounds * len(TUNED) * len(FACTORS)
    step = 0
    for round_ in range(rounds):
        for name, key in TUNED.items():
            for factor in FACTORS:
                challenger = incumbent.copy()
                challenger[key] *= factor
                result = duel(rules, challenger, incumbent, players, hands,
                              Stream(seed, "ofc-improve", (round_, step)))
                kept = result.low > 0
                history.append({"round": round_ + 1, "weight": name, "factor": factor,
                                "value": float(challenger[key]), "lead": result.lead,
                                "low": result.low, "high": result.high, "kept": kept})
                if kept:
                    incumbent = challenger
                step += 1
                if progress is not None:
                    progress(step, steps)
    return {name: float(incumbent[key]) for name, key in TUNED.items()}, history


def write_improvement(path, rules, players, weights, history, rounds, hands, seed):
    rules = load_ofc_rules(rules)
    write_json(path, {"rules": rules.id, "players": players, "weights": weights, "history": history,
                      "provenance": provenance(rounds=rounds, hands=hands, seed=seed)})
