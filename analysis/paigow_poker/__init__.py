"""Pai Gow Poker, a game beside the 13-card core (ARCHITECTURE.md): seven cards of 53 (a
joker) set into a five-card high hand and a two-card low hand against a dealer who sets by a
casino's house way.

``sapsam.paigow_poker.best`` and ``house_ways`` (:mod:`sapsam.paigow_poker.api`) are imported
on first use (PEP 562), so that importing the package loads no Numba.
"""

from importlib import import_module

_API = ("best", "best_play", "chart", "house_edge", "house_way_cost", "house_ways", "side_bets", "PaiGowPokerBest")
__all__ = list(_API)


def __getattr__(name):
    if name in _API:
        return getattr(import_module("sapsam.paigow_poker.api"), name)
    raise AttributeError(f"module 'sapsam.paigow_poker' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__})
