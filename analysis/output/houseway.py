"""The house way's files: its chart and cost, the price of simplicity, and the cost table.

A house way (:func:`sapsam.strategy.houseway.derive`) is priced as its paired cost against
the fitted strategy (:func:`sapsam.measure.compare.policy_gap`): seat 1 follows the house
way against fitted players on the same deals that seat 1 plays fitted.
"""

import time
from pathlib import Path

import numpy as np
import pandas as pd

from sapsam.base.files import provenance, write_atomic, write_json
from sapsam.measure.compare import policy_gap
from sapsam.output import plots
from sapsam.strategy.houseway import LINES, ROWS, as_policy, derive


def write_houseway(rules, players, tables, seed, out, stage=None):
    """Derive the house way (from ``seed``), measure its cost against fitted (paired,
    ``tables`` tables from ``seed``), and write ``<rules>-<players>p.md`` and ``.json`` and its
    printable one-page chart ``<rules>-<players>p-chart.pdf`` and ``.png`` under ``out``;
    returns (HouseWay, Gap, paths).  ``stage(label, unit)``, if given, makes a progress
    callback for each step."""
    start = time.perf_counter()
    name = rules if isinstance(rules, str) else rules.id
    way = derive(rules, players, seed=seed,
                 progress=_stage(stage, f"{name}: deriving the chart", "hands"))
    gap = policy_gap(rules, players, as_policy(way, f"house way derived with seed {seed}"),
                     tables=tables, seed=seed,
                     progress=_stage(stage, f"{name}: measuring its cost", "hands"))
    out = Path(out)
    stem = out / f"{way.rules}-{players}p"
    text = way.describe() + "\n\n" + _cost_text(gap) + "\n"
    write_atomic(stem.with_suffix(".md"), text)
    write_json(stem.with_suffix(".json"), {
        "what": "house way (sapsam.strategy.houseway)", **way.to_dict(),
        "derived_from": {"hands": way.hands, "seed": seed, "chart_lines": LINES},
        "cost": gap.to_dict(), "seconds": round(time.perf_counter() - start, 1),
        **provenance()})
    page = plots.save_figure(_chart_page(way, gap), stem.with_name(stem.name + "-chart"),
                             formats=("pdf", "png"))
    return way, gap, [stem.with_suffix(".md"), stem.with_suffix(".json"), *page]


def _cost_text(gap):
    return (f"Cost against the fitted strategy: {-gap.gap:.3f} units per hand (95% CI "
            f"{-gap.ci_high:.3f} to {-gap.ci_low:.3f}; paired, {gap.tables:,} tables, seed "
            f"{gap.seed}).")


@plots.styled
def _chart_page(way, gap):
    """The house way on one printable A4 page: its rules, the chart's lines per row, what it
    costs and how often it plays as the fitted strategy does."""
    import textwrap

    figure = plots.figure(8.27, 11.69)
    figure.set_layout_engine("none")  # text placed by hand on one page
    ax = figure.add_axes((0.08, 0.05, 0.84, 0.9))
    ax.axis("off")
    y = 1.0

    def put(text, size=11, weight="normal", indent=0.0, gap_after=0.012, width=88, **kw):
        nonlocal y
        for part in textwrap.wrap(text, width) or [""]:
            ax.text(indent, y, part, fontsize=size, weight=weight, va="top", transform=ax.transAxes,
                    **kw)
            y -= size * 0.0021
        y -= gap_after

    put(f"House way: {way.rules}, {way.players} players", 20, "bold", gap_after=0.004)
    put(f"{way.chart_lines} chart lines. Set any hand in three steps; the chart gives each "
        "row points by its hand.", 11, color="0.3", gap_after=0.025)
    for n, kind, text in way.rules_text():
        put(f"{n}.  {text}", 12, "bold" if n == 1 else "normal", width=80)
        if kind == "score":
            for row in ROWS:
                put(row.upper(), 12, "bold", indent=0.04, gap_after=0.006)
                lines = [x for x in way.lines if x.row == row]
                if len(lines) == 1:
                    put("no points: the tie rule sets it", 11, indent=0.08)
                    continue
                for line in reversed(lines):  # strongest first, as a chart is read
                    ax.text(0.08, y, f"{line.points:>3}", fontsize=12, weight="bold", va="top",
                            family="monospace", transform=ax.transAxes)
                    put(line.text, 11, indent=0.16, gap_after=0.006)
                y -= 0.012
    y -= 0.02
    put(_cost_text(gap), 10, color="0.3", width=100)
    put(f"It sets {way.agreement:.0%} of {way.hands:,} sampled hands exactly as the fitted "
        "strategy does. Derived by sapsam (analysis/strategy/houseway.py) from the fitted "
        "strategy of this ruleset and table.", 10, color="0.3", width=100)
    return figure


PRICE_LINES = (2, 3, 4, 6, 8, 12, 16, 24)  # chart lines of the price of simplicity
PRICE_HANDS = 3000  # sampled hands each of its charts is derived from


def price_of_simplicity(rules, players, lines=PRICE_LINES, tables=20000, seed=0, progress=None):
    """The house way's cost against fitted for charts of each number of ``lines`` in all,
    each derived from :data:`PRICE_HANDS` hands (a third of the shipped chart's, to keep the
    curve to minutes): a DataFrame (chart_lines, hands, cost, ci_low, ci_high, agreement,
    regret), paired on the same seeded tables.  ``progress(charts_done, charts)`` after each."""

    records = []
    for n in lines:
        way = derive(rules, players, lines=n, hands=PRICE_HANDS, seed=seed)
        policy = as_policy(way, f"house way, {n} chart lines, derived with seed {seed}")
        gap = policy_gap(rules, players, policy, tables=tables, seed=seed)
        records.append({"ruleset": way.rules, "players": players, "chart_lines": way.chart_lines,
                        "hands": way.hands,
                        "cost": -gap.gap, "ci_low": -gap.ci_high, "ci_high": -gap.ci_low,
                        "agreement": way.agreement, "regret": way.regret})
        if progress is not None:
            progress(len(records), len(lines))
    return pd.DataFrame(records)


def write_price_of_simplicity(rules, players, tables, seed, out, lines=PRICE_LINES,
                              progress=None):
    """:func:`price_of_simplicity` as ``price-<rules>-<players>p.csv`` and a plot (PNG, SVG)
    under ``out``; returns the paths."""

    frame = price_of_simplicity(rules, players, lines, tables, seed, progress)
    stem = Path(out) / f"price-{frame.ruleset[0]}-{players}p"
    write_atomic(stem.with_suffix(".csv"), frame.to_csv(index=False, float_format="%.5g"))
    figure = _price_figure(frame, players, tables, seed)
    return [stem.with_suffix(".csv"), *plots.save_figure(figure, stem)]


def write_costs(results, out, players):
    """``costs-<players>p.csv`` under ``out``: one row per (HouseWay, Gap) measured; returns
    its path."""
    frame = pd.DataFrame([{
        "ruleset": way.rules, "players": players, "cost": -gap.gap, "ci_low": -gap.ci_high,
        "ci_high": -gap.ci_low, "sd": gap.sd, "tables": gap.tables, "seed": gap.seed,
        "agreement": way.agreement, "chart_lines": way.chart_lines,
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
    ax.axhline(0, color="0.5", linewidth=0.8)
    ax.set_ylabel("cost against fitted, units per hand")
    ax.set_ylim(bottom=0)
    ax.grid(True)
    ax.set_title(f"The price of simplicity: house way vs fitted, {frame.ruleset[0]}, "
                 f"{players} players\n(each chart from {frame.hands[0]:,} hands; paired, "
                 f"{tables:,} tables, seed {seed}; 95% CI)",
                 fontsize=10)
    return figure


def _stage(stage, label, unit):
    return None if stage is None else stage(label, unit=unit)
