"""Open-Face Chinese Poker in duplicate (``sapsam ofc duel``): one policy against another on
the same decks, each seat taken by the first policy in turn.

A block of hands deals its decks from a stream of its own, apart from the policies' random
draws (:func:`sapsam.ofc.kernels.simulate.block_streams`), so the same seed deals the same
decks whoever sits where; the lead of a block is the first policy's points a hand averaged over
its seats, and its 95% interval comes from the spread of the blocks' leads (paired: the luck of
the cards cancels).
"""

from dataclasses import dataclass

import numpy as np

from sapsam.base.stats import mean_interval
from sapsam.ofc.game import load_ofc_rules
from sapsam.ofc.kernels.simulate import A_FL_HANDS, A_HANDS, A_POINTS
from sapsam.ofc.measure.simulate import simulate_ofc, table_rules


@dataclass(frozen=True)
class Duplicate:
    rules: str
    first: str
    second: str
    players: int
    seed: int
    lead: float  # the first policy's points a hand, the same decks from every seat
    low: float
    high: float
    runs: tuple  # one OfcRun a seat of the first policy

    @property
    def hands(self):
        return self.runs[0].hands

    def to_dict(self):
        return {"rules": self.rules, "first": self.first, "second": self.second, "players": self.players,
                "seed": self.seed, "hands": self.hands, "lead": self.lead, "ci_low": self.low,
                "ci_high": self.high, "seatings": [run.to_dict() for run in self.runs]}


def duel_rules(rules, first, second, players):
    """The ruleset, checked for a duel: both policies known (and their weights there), this
    many players."""
    rules = load_ofc_rules(rules)
    rules.check_players(players)
    table_rules([rules.id], (first,) + (second,) * (players - 1))
    return rules


def duplicate_duel(rules, first, second, players=2, hands=10_000, seed=1, progress=None):
    """``first`` against ``second`` (policy names) at a table of ``players``: the first in each
    seat in turn, the others the second, every seating on the same decks (module doc)."""
    rules = duel_rules(rules, first, second, players)
    runs = []
    for seat in range(players):
        seats = [second] * players
        seats[seat] = first
        runs.append(simulate_ofc(rules, tuple(seats), hands, seed))
        if progress is not None:
            progress(seat + 1, players)
    lead = np.zeros(runs[0].tally.shape[0])
    for seat, run in enumerate(runs):
        t = run.tally[:, seat]
        lead += t[:, A_POINTS] / (t[:, A_HANDS] + t[:, A_FL_HANDS]) / players
    mean, _, low, high = mean_interval(lead)
    return Duplicate(rules.id, first, second, players, seed, mean, low, high, tuple(runs))
