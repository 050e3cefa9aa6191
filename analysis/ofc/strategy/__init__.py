"""Open-Face Chinese Poker's strategies made by self-play: the heuristic's weights tuned by
duels (:mod:`sapsam.ofc.strategy.improve`, the ``improved`` policy) and the learned policy's
values fitted to self-play's results (:mod:`sapsam.ofc.strategy.learn`)."""
