"""The JSON answers of the one-hand commands, shared by the command line's ``--json`` and the
web API (:mod:`analysis.web.app`), so that both give the same data for the same request.

``best`` and ``review`` answer with :meth:`analysis.measure.best.BestResult.to_dict` and
:func:`analysis.measure.review.review_of`; the three here have no result type of their own.
"""

from analysis.game import ruleset_files as _rules
from analysis.game import settings as _settings
from analysis.game.cards import format_cards


def settings_frontier(hand, wheel_rank="ace-low", ruleset=None):
    """The frontier ``sapsam settings`` shows: under a ruleset's scales (an id or a TOML file:
    its wheel rank, a low middle) when one is given, else with ``wheel_rank``."""
    scales = (_settings.scales(_rules.load_ruleset(ruleset)) if ruleset is not None
              else {"wheel_rank": wheel_rank})
    return _settings.pareto_frontier(hand, **scales)


def settings_answer(hand, wheel_rank="ace-low", ruleset=None):
    """``sapsam settings --json``: the legal count and the Pareto frontier of a hand."""
    frontier = settings_frontier(hand, wheel_rank, ruleset)
    return {
        "hand": format_cards(frontier.hand, descending=True),
        "legal": frontier.legal,
        "distinct": frontier.distinct,
        "frontier": [[format_cards(row, descending=True) for row in (m.front, m.middle, m.back)]
                     for m in frontier.members],
        "details": [{"setting": m.text, "split": m.split, "strengths": list(m.strengths),
                     "rows": list(m.describe()), "same": m.equivalent}
                    for m in frontier.members],
    }


def rules_answer(ruleset=None):
    """``sapsam rules --json``: every named ruleset's one-line description by id, or one
    ruleset (an id or a TOML file) in full."""
    if ruleset is None:
        return {rid: _rules.load_ruleset(rid).describe() for rid in _rules.ruleset_ids()}
    return _rules.as_dict(_rules.load_ruleset(ruleset))


def score_answer(result):
    """``sapsam score --json``: a settled showdown
    (:func:`analysis.game.score.score_showdown`)."""
    return {"rules": result.rules.id, "names": list(result.names), "status": list(result.status),
            "totals": result.totals, "pairs": result.pairs(),
            **({"players": result.player_totals} if result.rules.hands > 1 else {})}
