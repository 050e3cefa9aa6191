"""The plots of a simulation report (:mod:`sapsam.output.report`): EV by ruleset, the
distribution of points, and how often each natural is held against its exact probability.
"""

import numpy as np

from sapsam.output import plots


def _subtitle(sim, manifest):
    return (f"{manifest['tables_done']:,} tables of {sim.players} players, seed {sim.seed}"
            + ("" if manifest["complete"] else " (partial run)"))


@plots.styled
def plot_ev(sim, compiled, frames, manifest):
    seats = frames["seats"]
    ids = [r.id for r in compiled.rulesets]
    figure = plots.figure(min(14.0, max(6.0, 1.1 * len(ids) * max(1, sim.players) / 2 + 2)), 5.0)
    axes = figure.add_subplot()
    width = 0.7
    offsets = (np.arange(sim.players) - (sim.players - 1) / 2) * width / sim.players
    for p, policy in enumerate(sim.seats):
        rows = seats[seats.seat == p + 1].set_index("ruleset").loc[ids]
        x = np.arange(len(ids)) + offsets[p]
        mean = rows["mean"].to_numpy()
        axes.errorbar(x, mean, yerr=[mean - rows["ci_low"].to_numpy(), rows["ci_high"].to_numpy() - mean],
                      fmt="o", label=f"seat {p + 1}: {policy}")
    axes.axhline(0.0, color="grey", linewidth=0.8)
    axes.set_xticks(np.arange(len(ids)), ids, rotation=30 if len(ids) > 4 else 0,
                    ha="right" if len(ids) > 4 else "center")
    axes.set_xlabel("ruleset")
    axes.set_ylabel("mean points per hand (units)")
    axes.set_title(f"EV per hand by ruleset and seat, 95% CI\n{_subtitle(sim, manifest)}")
    axes.legend(title="seat: policy")
    axes.grid(True, axis="y")
    return figure


@plots.styled
def plot_points(sim, compiled, frames, manifest):
    points = frames["points"]
    n_rules = len(compiled.rulesets)
    columns = min(3, n_rules)
    lines = -(-n_rules // columns)
    figure = plots.figure(4.5 * columns + 0.5, 3.4 * lines + 0.6)
    figure.suptitle(f"Points per hand, each seat (hands ending on each whole number of units)\n"
                    f"{_subtitle(sim, manifest)}")
    for r, rules in enumerate(compiled.rulesets):
        axes = figure.add_subplot(lines, columns, r + 1)
        here = points[points.ruleset == rules.id]
        for p, policy in enumerate(sim.seats):
            seat = here[here.seat == p + 1]  # only the units some hand ended on
            axes.plot(seat.units, seat["count"] / seat["count"].sum(), "o-", markersize=3,
                      linewidth=1, alpha=0.8, label=f"seat {p + 1}: {policy}")
        plots.log_share_axis(axes, "y")
        axes.set_title(rules.id)
        axes.set_xlabel("points per hand (units, rounded down)")
        axes.set_ylabel("share of hands (log scale)")
        axes.axvline(0, color="grey", linewidth=0.8)
        axes.grid(True)
        if r == 0:
            axes.legend()
    return figure


@plots.styled
def plot_naturals(sim, compiled, frames, manifest):
    naturals = frames["naturals"]
    rows = len(naturals)
    figure = plots.figure(8.0, 1.8 + 0.32 * max(rows, 3))
    axes = figure.add_subplot()
    axes.set_title(f"Naturals held: observed frequency vs exact probability\n{_subtitle(sim, manifest)}")
    if rows == 0:
        axes.text(0.5, 0.5, "no naturals in these rulesets", ha="center", va="center",
                  transform=axes.transAxes)
        axes.set_axis_off()
        return figure
    y = np.arange(rows)[::-1]
    seen = naturals["count"].to_numpy() > 0
    freq = naturals["frequency"].to_numpy()
    low, high = naturals["ci_low"].to_numpy(), naturals["ci_high"].to_numpy()
    exact = naturals["exact"].to_numpy(np.float64)
    positive = np.concatenate([freq[seen], low[seen], high, exact[exact > 0]])
    left = positive.min() / 3
    if seen.any():
        axes.errorbar(freq[seen], y[seen], xerr=[freq[seen] - low[seen], high[seen] - freq[seen]],
                      fmt="o", label="observed, 95% Wilson interval")
    if (~seen).any():
        axes.hlines(y[~seen], left, high[~seen], color="C0", linestyle=":", linewidth=1)
        axes.plot(high[~seen], y[~seen], "<", color="C0", markerfacecolor="none",
                  label="none observed: 95% upper bound")
    shown = exact > 0
    axes.plot(exact[shown], y[shown], "x", color="C3", markersize=8, label="exact probability")
    axes.set_xscale("log")
    axes.set_xlim(left, min(1.0, positive.max() * 3))
    plots.log_share_axis(axes, "x")
    several = naturals.ruleset.nunique() > 1
    axes.set_yticks(y, [f"{row.ruleset}: {row.label}" if several else row.label
                        for row in naturals.itertuples(index=False)], fontsize="small")
    axes.set_xlabel("probability per hand (log scale)")
    axes.grid(True, axis="x")
    figure.legend(loc="outside lower center", ncols=3)
    return figure
