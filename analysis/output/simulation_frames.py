"""A simulation's totals (:func:`sapsam.measure.simulate.run`) as tidy DataFrames: per ruleset
and seat (:func:`seats_frame`), per natural (:func:`naturals_frame`) and the points
distribution (:func:`points_frame`)."""

import numpy as np
import pandas as pd

from sapsam.base.stats import Z95
from sapsam.kernels import simulate as _ks
from sapsam.kernels.naturals import NATURAL_KINDS
from sapsam.kernels.settle import P_SCALE
from sapsam.measure.simulate import natural_kind


def seats_frame(sim, compiled, acc):
    """Per ruleset and seat: hands, total and mean units, SD, 95% CI and event rates."""
    rows = []
    for r, rules in enumerate(compiled.rulesets):
        scale = int(compiled.params[r, P_SCALE])
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
    return pd.DataFrame(rows)


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
