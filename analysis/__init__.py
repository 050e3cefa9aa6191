"""sapsam: a Monte Carlo strategy analyser for 13-card Chinese Poker.

The Python face of the Numba kernels: parsing, descriptions, settings, rulesets, analyses,
reports and the ``sapsam`` command line.
"""

from analysis.cards import format_cards, format_setting, parse_cards, parse_hand, parse_setting
from analysis.hands import describe, rank3, rank5, strength
from analysis.settings import (Frontier, Setting, legal_splits, pareto_frontier,
                               pareto_frontier_batch, split_strengths)

__version__ = "0.1.0"

__all__ = ["Frontier", "Setting", "describe", "format_cards", "format_setting", "legal_splits",
           "pareto_frontier", "pareto_frontier_batch", "parse_cards", "parse_hand",
           "parse_setting", "rank3", "rank5", "split_strengths", "strength"]
