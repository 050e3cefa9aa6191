"""What Pai Gow Poker's settings are worth: one hand exactly against every dealer hand
(:mod:`~sapsam.paigow_poker.measure.exact`), and the best play's house edge against a house way
(:mod:`~sapsam.paigow_poker.measure.best_play`)."""
