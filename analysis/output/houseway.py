"""The house way's files: its chart and cost, the price of simplicity, and the cost table.

A house way (:func:`analysis.strategy.houseway.derive`) is priced as its paired cost against
the fitted strategy (:func:`analysis.measure.compare.policy_gap`): seat 0 follows the house
way against fitted players on the same deals that seat 0 plays fitted.
"""

import time
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.base.files import provenance, write_atomic, write_json
from analysis.measure.compare import policy_gap
from analysis.output import plots
from analysis.strategy.houseway import (
    LINES,
    SAMPLE_HANDS,
    as_policy,
    class_label,
    derive,
)


def write_houseway(rules, players, tables, seed, out, stage=None):
    """Derive (from ``seed``), measure its cost against fitted (paired, ``tables`` tables from
    ``seed``), and write
    ``<rules>-<players>p.md`` and ``.json`` under ``out``; returns (HouseWay, Gap, paths).
    ``stage(label, unit)``, if given, makes a progress callback for each step."""

    from analysis.base.files import write_atomic

    start = time.perf_counter()
    name = rules if isinstance(rules, str) else rules.id
    way = derive(rules, players, seed=seed,
                 progress=_stage(stage, f"{name}: fitting the chart", "hands"))
    gap = policy_gap(rules, players, as_policy(way, f"house way derived with seed {seed}"),
                     tables=tables, seed=seed,
                     progress=_stage(stage, f"{name}: measuring its cost", "hands"))
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"{way.rules}-{players}p"
    text = (way.describe() + f"\n\nCost against the fitted strategy: {-gap.gap:.3f} units per "
            f"hand (95% CI {-gap.ci_high:.3f} to {-gap.ci_low:.3f}; paired, {tables:,} tables, "
            f"seed {seed}).\n")
    write_atomic(stem.with_suffix(".md"), text)
    write_json(stem.with_suffix(".json"), {
        "what": "house way (analysis.strategy.houseway)", "rules": way.rules, "players": players,
        "lines": [{"row": x.row, "from": class_label(x.first), "to": class_label(x.last),
                   "points": x.points} for x in way.lines],
        "surrender_below": None if not np.isfinite(way.surrender_below) else way.surrender_below,
        "declares_naturals": way.declares, "agreement_with_fitted": way.agreement,
        "derived_from": {"hands": SAMPLE_HANDS, "seed": seed, "lines_per_row": LINES},
        "cost": gap.to_dict(), "seconds": round(time.perf_counter() - start, 1),
        **provenance()})
    return way, gap, [stem.with_suffix(".md"), stem.with_suffix(".json")]


def price_of_simplicity(rules, players, lines=(2, 3, 4, 5, 6, 8), tables=20000, seed=0,
                        progress=None):
    """The house way's cost against fitted for charts of each number of ``lines`` per row:
    a DataFrame (lines, chart_lines, cost, ci_low, ci_high, agreement), paired on the same
    seeded tables.  ``progress(charts_done, charts)`` after each."""

    records = []
    for n in lines:
        way = derive(rules, players, lines=n, seed=seed)
        policy = as_policy(way, f"house way, {n} lines per row, derived with seed {seed}")
        gap = policy_gap(rules, players, policy, tables=tables, seed=seed)
        records.append({"ruleset": way.rules, "players": players, "lines_per_row": n,
                        "chart_lines": len(way.lines), "cost": -gap.gap, "ci_low": -gap.ci_high,
                        "ci_high": -gap.ci_low, "agreement": way.agreement})
        if progress is not None:
            progress(len(records), len(lines))
    return pd.DataFrame(records)


def write_price_of_simplicity(rules, players, tables, seed, out, lines=(2, 3, 4, 5, 6, 8),
                              progress=None):
    """:func:`price_of_simplicity` as ``price-<rules>-<players>p.csv`` and a plot (PNG, SVG)
    under ``out``; returns the paths."""

    frame = price_of_simplicity(rules, players, lines, tables, seed, progress)
    stem = Path(out) / f"price-{frame.ruleset[0]}-{players}p"
    write_atomic(stem.with_suffix(".csv"), frame.to_csv(index=False, float_format="%.5g"))
    figure = _price_figure(frame, players, tables, seed)
    return [stem.with_suffix(".csv"), *plots.save_figure(figure, stem)]


def write_costs(results, out, players):
    """``costs.csv`` under ``out``: one row per (HouseWay, Gap) measured; returns its path."""


    frame = pd.DataFrame([{
        "ruleset": way.rules, "players": players, "cost": -gap.gap, "ci_low": -gap.ci_high,
        "ci_high": -gap.ci_low, "sd": gap.sd, "tables": gap.tables, "seed": gap.seed,
        "agreement": way.agreement, "chart_lines": len(way.lines),
        "surrenders": bool(np.isfinite(way.surrender_below)), "declares": way.declares}
        for way, gap in results])
    path = Path(out) / f"costs-{players}p.csv"
    write_atomic(path, frame.to_csv(index=False, float_format="%.5g"))
    return path


@plots.styled
def _price_figure(frame, players, tables, seed):
    figure = plots.figure(7, 4)
    ax = figure.add_subplot()
    ax.errorbar(frame.chart_lines, frame.cost, yerr=[frame.cost - frame.ci_low,
                                                     frame.ci_high - frame.cost],
                fmt="o-")
    for x, y in zip(frame.chart_lines, frame.cost):
        ax.annotate(f"{y:.2f}", (x, y), textcoords="offset points", xytext=(6, 4), fontsize="small")
    ax.set_xlabel("chart lines (front + middle + back)")
    ax.set_ylabel("cost against fitted, units per hand")
    ax.set_ylim(bottom=0)
    ax.grid(True)
    ax.set_title(f"The price of simplicity: house way vs fitted, {frame.ruleset[0]}, "
                 f"{players} players\n(paired, {tables:,} tables, seed {seed}; 95% CI)",
                 fontsize=10)
    return figure


def _stage(stage, label, unit):
    return None if stage is None else stage(label, unit=unit)
