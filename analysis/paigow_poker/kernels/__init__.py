"""Pai Gow Poker's kernels (Numba only): ``hands`` (the 53 cards, the evaluators, the strength
scales), ``houseway`` (the setter driven by a house way's arrays) and ``exact`` (every hand
enumerated: categories, the house way's table, the dealer's histogram)."""
