"""Reviewing a setting someone played: its place among the best candidates of the hand.

:func:`best_setting` runs with the played setting as an extra candidate (``extra=[rows]``),
so that the played setting meets the same sampled opponents as every candidate and its loss
is a paired gap; :func:`review_of` reads its place from that ranking.
"""

import numpy as np

from analysis.game.cards import format_setting, parse_hand, parse_setting
from analysis.game.hands import setting_strengths
from analysis.measure.best import candidates


def played_setting(hand, setting):
    """The hand's cards and the played rows ``(front, middle, back)``, parsed; a setting of
    other cards than the hand's is refused (``ValueError``)."""
    cards = parse_hand(hand)
    rows = parse_setting(setting)
    if sorted(np.concatenate(rows).tolist()) != sorted(cards.tolist()):
        raise ValueError("the setting must use exactly the 13 cards of the hand")
    return cards, rows


def review_of(result, rows):
    """The played ``rows`` in a :class:`~analysis.measure.best.BestResult` computed with
    ``extra=[rows]``: a dict of its rank, EV and CI, the best setting, the loss and its CI,
    whether the loss is distinguishable from 0, and whether the setting is legal (the JSON of
    ``sapsam review``)."""
    ranking = result.table
    triple = setting_strengths(*rows, result.rules.wheel_rank)
    # the played setting, or the candidate with its strength triple (they score the same)
    same = {c.label for c in candidates(result.hand, result.rules, extra=[rows])
            if c.rows == triple and c.natural < 0 and not c.surrender}
    rank = [i for i, c in enumerate(ranking["setting"]) if c in same][0]
    row, best = ranking.iloc[rank], ranking.iloc[0]
    return {"setting": format_setting(*rows), "legal": bool(triple[2] >= triple[1] >= triple[0]),
            "rank": rank + 1, "candidates": len(ranking), "ev": row.ev,
            "ci": [row.ci_low, row.ci_high], "best": best.setting, "best_ev": best.ev,
            "loss": -row.gap, "loss_ci": [-row.gap_high, -row.gap_low],
            "distinguishable": bool(row.distinguishable), "samples": result.samples}
