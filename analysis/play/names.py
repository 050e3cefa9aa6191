"""The names the command line offers, in a module that loads no numpy, so that ``--help`` and
option checks do not load the kernels: the policies (:mod:`sapsam.strategy.registry` makes a
policy of each) and the chart kinds (:mod:`sapsam.output.charts` draws each)."""

POLICY_NAMES = ("random", "greedy", "balanced", "table", "fitted", "houseway")
CHART_KINDS = ("rows", "front", "rulesets", "declare", "policies", "match")
