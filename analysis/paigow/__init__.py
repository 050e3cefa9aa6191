"""Pai Gow tiles, a game beside the 13-card core (ARCHITECTURE.md).

``sapsam.paigow.best``, ``table`` and ``chart`` (:mod:`sapsam.paigow.api`) are imported on
first use (PEP 562), so that importing the package loads no Numba.
"""

from importlib import import_module

_API = ("best", "table", "chart", "PaigowBest", "HouseEdgeTable", "PaigowChart")
__all__ = list(_API)


def __getattr__(name):
    if name in _API:
        return getattr(import_module("sapsam.paigow.api"), name)
    raise AttributeError(f"module 'sapsam.paigow' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__})
