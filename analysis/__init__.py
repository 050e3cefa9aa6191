"""sapsam: a Monte Carlo strategy analyser for 13-card Chinese Poker.

The Python face of the Numba kernels, in layers (ARCHITECTURE.md): parsing, descriptions,
settings, rulesets, policies, analyses, reports and the ``sapsam`` command line.

A notebook's functions are those of the commands (:mod:`sapsam.api`): ``sapsam.best``,
``review``, ``score``, ``settings``, ``rulesets``, ``ruleset``, ``simulate``, ``report``,
``exploit``, ``houseway`` and ``chart``, each the same computation as its command, its
result's ``to_dict()`` the command's ``--json``.  Every other game is a package of its own,
``sapsam.paigow`` and ``sapsam.ofc`` (named by the registry, :mod:`sapsam.games`), with its
own functions (``sapsam.paigow.best``, ``sapsam.ofc.place``...).

The public names below, and the games, are imported on first use (PEP 562), so that
importing the package, as the command line does, loads neither numpy nor Numba (but to find
Numba's cache where it is not beside the kernels: :func:`sapsam.base.jit.forget_stale`).
"""

from importlib import import_module

__version__ = "0.1.0"


def _forget_stale_kernels():
    """Numba's cached kernels are dropped when a kernel source changed
    (:func:`sapsam.base.jit.forget_stale`): before any kernel is loaded from the cache."""
    from importlib.util import find_spec
    from pathlib import Path

    from sapsam.base.jit import forget_stale

    forget_stale(Path(__file__).parent, Path(find_spec("sapsam.kernels").origin).parent)


_forget_stale_kernels()

_API = ("best", "review", "score", "settings", "rulesets", "ruleset", "simulate", "report",
        "exploit", "houseway", "chart")

_PUBLIC = {
    "format_cards": "sapsam.game.cards", "format_setting": "sapsam.game.cards",
    "parse_cards": "sapsam.game.cards", "parse_hand": "sapsam.game.cards",
    "parse_setting": "sapsam.game.cards",
    "describe": "sapsam.game.hands", "rank3": "sapsam.game.hands", "rank5": "sapsam.game.hands",
    "strength": "sapsam.game.hands",
    "Frontier": "sapsam.game.settings", "Setting": "sapsam.game.settings",
    "legal_splits": "sapsam.game.settings", "pareto_frontier": "sapsam.game.settings",
    "pareto_frontier_batch": "sapsam.game.settings", "split_strengths": "sapsam.game.settings",
    "Ruleset": "sapsam.game.rules", "load_ruleset": "sapsam.game.ruleset_files",
    "ruleset_ids": "sapsam.game.ruleset_files", "score_showdown": "sapsam.game.score",
    "make_policy": "sapsam.strategy.registry", "best_setting": "sapsam.measure.best",
    "policy_gap": "sapsam.measure.compare", "exploitability": "sapsam.measure.exploit",
    "Simulation": "sapsam.measure.simulate",
    **dict.fromkeys(_API, "sapsam.api"),
}

__all__ = sorted(_PUBLIC)


def _games():
    """The names of the other games' packages (the registry's)."""
    from sapsam.games import GAMES

    return {game.name: game.package for game in GAMES}


def __getattr__(name):
    if name in _PUBLIC:
        return getattr(import_module(_PUBLIC[name]), name)
    if name == "api":  # the functions' module, as the docs name it
        return import_module("sapsam.api")
    games = _games()
    if name in games:
        return import_module(games[name])
    raise AttributeError(f"module 'sapsam' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__, *_games()})
