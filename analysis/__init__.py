"""sapsam: a Monte Carlo strategy analyser for 13-card Chinese Poker.

The Python face of the Numba kernels, in layers (ARCHITECTURE.md): parsing, descriptions,
settings, rulesets, policies, analyses, reports and the ``sapsam`` command line.  The public
names below are imported on first use (PEP 562), so that importing the package, as the
command line does, does not load Numba.
"""

from importlib import import_module

__version__ = "0.1.0"

_PUBLIC = {
    "format_cards": "analysis.game.cards", "format_setting": "analysis.game.cards",
    "parse_cards": "analysis.game.cards", "parse_hand": "analysis.game.cards",
    "parse_setting": "analysis.game.cards",
    "describe": "analysis.game.hands", "rank3": "analysis.game.hands", "rank5": "analysis.game.hands",
    "strength": "analysis.game.hands",
    "Frontier": "analysis.game.settings", "Setting": "analysis.game.settings",
    "legal_splits": "analysis.game.settings", "pareto_frontier": "analysis.game.settings",
    "pareto_frontier_batch": "analysis.game.settings", "split_strengths": "analysis.game.settings",
    "Ruleset": "analysis.game.rules", "load_ruleset": "analysis.game.ruleset_files",
    "ruleset_ids": "analysis.game.ruleset_files", "score_showdown": "analysis.game.score",
    "make_policy": "analysis.strategy.registry", "best_setting": "analysis.measure.best",
    "policy_gap": "analysis.measure.compare", "exploitability": "analysis.measure.exploit",
    "Simulation": "analysis.measure.simulate",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name):
    if name in _PUBLIC:
        return getattr(import_module(_PUBLIC[name]), name)
    raise AttributeError(f"module 'analysis' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + __all__)
