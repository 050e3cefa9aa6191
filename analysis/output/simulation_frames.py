"""A simulation's totals (:func:`sapsam.measure.simulate.run`) as tidy DataFrames: per ruleset
and seat (:func:`seats_frame`), per natural (:func:`naturals_frame`) and the points
distribution (:func:`points_frame`)."""

import numpy as np
import pandas as pd

from sapsam.base.stats import Z95, wilson_interval
from sapsam.kernels import simulate as _ks
from sapsam.kernels.naturals import NATURAL_KINDS
from sapsam.kernels.settle import P_HANDS, P_SCALE
from sapsam.measure.simulate import natural_kind

# the events a report gives the rates of with their intervals (bank hands, which rotate by the
# rules, are counted but not sampled)
EVENTS = ("fouls", "surrenders", "naturals", "sweeps_given", "sweeps_taken", "home_runs")


def seats_frame(sim, compiled, acc):
    """Per ruleset and seat: hands, total and mean units, SD, 95% CI, each event's count with
    the 95% interval of its rate per hand (:data:`EVENTS`; ``fouls_low``, ``fouls_high``, ...:
    :func:`event_interval`), and the hands it held the bank."""
    rows = []
    for r, rules in enumerate(compiled.rulesets):
        scale = int(compiled.params[r, P_SCALE])
        hands = int(compiled.params[r, P_HANDS])  # a player's hands (criss-cross: 2)
        most = {name: hands for name in EVENTS}  # the most of each event a player's deal can hold
        most["sweeps_given"] = most["sweeps_taken"] = hands * (len(compiled.seat_policy) - hands)
        for p, policy in enumerate(sim.seats):
            a = acc[r, p]
            n = int(a[_ks.A_HANDS])
            mean = a[_ks.A_SUM] / n / scale
            var = (a[_ks.A_SUMSQ] / scale**2 - n * mean**2) / (n - 1) if n > 1 else float("nan")
            sd = float(np.sqrt(max(var, 0.0)))
            half = Z95 * sd / np.sqrt(n)
            rows.append({
                "ruleset": rules.id, "seat": p + 1, "policy": policy, "hands": n,
                "total_units": a[_ks.A_SUM] / scale, "mean": mean, "sd": sd,
                "ci_low": mean - half, "ci_high": mean + half,
                **{name: int(a[i]) for i, name in enumerate(_ks.ACC_NAMES)
                   if i not in (_ks.A_HANDS, _ks.A_SUM, _ks.A_SUMSQ)},
            })
            for name in EVENTS:
                rows[-1][f"{name}_low"], rows[-1][f"{name}_high"] = event_interval(rows[-1][name], n, most[name])
    return pd.DataFrame(rows)


def event_interval(count, hands, most=1):
    """The 95% interval of an event's rate per hand, ``count`` events in ``hands`` hands and at
    most ``most`` in one (a hand sweeps up to each opponent): Wilson's, on the share
    ``count / most`` of ``hands`` trials scaled back.  Exact Wilson for an event once a hand; for
    more, conservative, since a count bounded by ``most`` has at most the variance of a
    binomial share of the same mean (sweeps of one hand go together)."""
    low, high = wilson_interval(count / most, hands)
    return most * low, most * high


def naturals_frame(sim, compiled, held, exact=None):
    """Per ruleset and natural: hands holding it, frequency, and (if given) its exact
    probability ``exact(kind, parameter)``."""
    rows = []
    for r, rules in enumerate(compiled.rulesets):
        hands = sim.tables * len(compiled.seat_policy)
        for k in range(int(compiled.n_naturals[r])):
            kind, parameter = natural_kind(compiled.naturals[r, k])
            count = int(held[r, k])
            rows.append({"ruleset": rules.id, "natural": NATURAL_KINDS[kind], "count": count,
                         "hands": hands, "frequency": count / hands,
                         "exact": exact(kind, parameter) if exact else float("nan")})
    return pd.DataFrame(rows, columns=["ruleset", "natural", "count", "hands", "frequency", "exact"])


def points_frame(sim, compiled, hist):
    """Points distribution: per ruleset and seat, hands ending on each whole number of units."""
    units = np.arange(-_ks.HIST_HALF, _ks.HIST_HALF + 1)
    rows = []
    for r, rules in enumerate(compiled.rulesets):
        for p in range(sim.players):
            for u, count in zip(units, hist[r, p]):
                if count:
                    rows.append({"ruleset": rules.id, "seat": p + 1, "units": int(u),
                                 "count": int(count)})
    return pd.DataFrame(rows, columns=["ruleset", "seat", "units", "count"])
