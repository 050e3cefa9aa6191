"""Reviewing a setting someone played: its place among the best candidates of the hand.

:func:`best_setting` runs with the played setting as an extra candidate (``extra=[rows]``),
so that the played setting meets the same sampled opponents as every candidate and its loss
is a paired gap; :func:`review_of` reads its place from that ranking.
"""

import numpy as np

from sapsam.game.cards import format_cards, format_setting, parse_hand, parse_setting
from sapsam.game.settings import settled_rows
from sapsam.measure.best import candidates
from sapsam.play.policy import Policy


def played_setting(hand, setting):
    """The hand's cards and the played rows ``(front, middle, back)``, parsed; a setting of
    other cards than the hand's is refused (``ValueError``)."""
    cards = parse_hand(hand)
    rows = parse_setting(setting)
    played, held = set(np.concatenate(rows).tolist()), set(cards.tolist())
    if played != held:
        extra, missing = format_cards(sorted(played - held)), format_cards(sorted(held - played))
        raise ValueError("the setting must use exactly the 13 cards of the hand: "
                         + "; ".join(part for part in (f"{extra} not in the hand" if extra else "",
                                                       f"{missing} of the hand not set" if missing else "")
                                     if part))
    return cards, rows


def review_of(result, rows):
    """The played ``rows`` in a :class:`~sapsam.measure.best.BestResult` computed with
    ``extra=[rows]``: a dict of its rank, EV and CI, the best setting, the loss and its CI,
    whether the loss is distinguishable from 0, and whether the setting is legal (the JSON of
    ``sapsam review``)."""
    ranking = result.table
    triple, legal = settled_rows(*rows, result.rules)
    # the played setting, or the candidate with its strength triple (they score the same)
    same = {c.label for c in candidates(result.hand, result.rules, extra=[rows])
            if c.rows == triple and c.natural < 0 and not c.surrender}
    rank = [i for i, c in enumerate(ranking["setting"]) if c in same][0]
    return {"setting": format_setting(*rows), "legal": bool(legal),
            **_verdict(result, rank)}


def _verdict(result, rank):
    """Candidate ``rank`` (0-based) of a result against its best: rank, EV and CI, the best
    setting, its EV and CI, the loss and its CI, whether the loss is distinguishable from 0:
    Python's numbers, not the table's numpy ones (as JSON holds them)."""
    ranking = result.table
    row, best = ranking.iloc[rank], ranking.iloc[0]
    return {"rank": int(rank) + 1, "candidates": len(ranking), "ev": float(row.ev),
            "ci": [float(row.ci_low), float(row.ci_high)], "best": str(best.setting),
            "best_ev": float(best.ev), "best_ci": [float(best.ci_low), float(best.ci_high)],
            # 0.0 - x, not -x: the best's loss is 0.0, never -0.0 ("-0.000" when printed)
            "loss": 0.0 - float(row.gap), "loss_ci": [0.0 - float(row.gap_high), 0.0 - float(row.gap_low)],
            "distinguishable": bool(row.distinguishable), "samples": int(result.samples)}


def houseway_review(hand, rules, players=4, opponents="fitted", samples=10000, seed=0,
                    stage=None, other=None):
    """How the house way sets ``hand`` and which rule decided it, beside the best setting
    against ``opponents`` (a policy name or a ready Policy): the
    JSON of ``sapsam houseway HAND`` (the review of the house way's decision, with ``hand`` and
    ``houseway``: :meth:`~sapsam.strategy.houseway_chart.HandDecision.to_dict`).
    ``stage(label, total, unit)`` gives progress callbacks (deriving, sampling); ``other`` is
    the player's other hand in criss-cross (:func:`sapsam.measure.best.best_setting`)."""
    return houseway_ranked(hand, rules, players, opponents, samples, seed, stage, other)[0]


def houseway_ranked(hand, rules, players=4, opponents="fitted", samples=10000, seed=0,
                    stage=None, other=None):
    """:func:`houseway_review`'s JSON and the :class:`~sapsam.measure.best.BestResult` that
    ranked the house way's setting among the hand's candidates."""
    from sapsam.measure.best import best_setting
    from sapsam.strategy.houseway import derive
    from sapsam.strategy.houseway_chart import decide_hand
    from sapsam.strategy.registry import make_policy

    cards = parse_hand(hand)
    way = derive(rules, players, progress=stage("deriving the house way", None, "hands")
                 if stage else None)
    decision = decide_hand(way, cards, rules, players)
    policy = opponents if isinstance(opponents, Policy) else make_policy(opponents, rules,
                                                                          players, stage=stage)
    result = best_setting(cards, rules, players, policy, samples, seed, other=other,
                          progress=stage("sampling tables", None, "tables") if stage else None)
    rank = int(np.flatnonzero(result.table["setting"].to_numpy() == decision.label)[0])
    return {"hand": result.hand_text, "rules": result.rules.id, "players": players,
            "opponents": policy.name, "seed": seed, "houseway": decision.to_dict(),
            **_verdict(result, rank)}, result
