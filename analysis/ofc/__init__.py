"""Open-Face Chinese Poker, a game beside the 13-card core (ARCHITECTURE.md).

``sapsam.ofc.place``, ``fantasyland``, ``stay`` and ``simulate`` (:mod:`sapsam.ofc.api`) are
imported on first use (PEP 562), so that importing the package loads no Numba.
"""

from importlib import import_module

_API = ("place", "fantasyland", "stay", "simulate", "StayChances", "OfcSimulation")
__all__ = list(_API)


def __getattr__(name):
    if name in _API:
        return getattr(import_module("sapsam.ofc.api"), name)
    raise AttributeError(f"module 'sapsam.ofc' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__})
