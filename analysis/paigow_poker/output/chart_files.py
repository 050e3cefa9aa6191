"""Pai Gow Poker's strategy chart as people read it: the tables (pandas), the markdown, the
figure and the files of a chart (:func:`sapsam.paigow_poker.output.departures.chart_answer`),
and the copies that ship as package data for the web tab."""

import numpy as np

from sapsam.base.stats import Z95, t95


def _points(x, digits=3):
    return "" if x is None else f"{100 * x:.{digits}f}"


def chart_frame(answer):
    """One row per house way, hand group and move, in points (percent of a unit bet)."""
    import pandas as pd

    rows = []
    for w in answer["house_ways"]:
        for r in w["rows"]:
            rows.append({"house_way": w["house_way"]["id"], "group": r["group"], "move": r["move"],
                         "departures": r["departures"], "hands": w["hands"],
                         "share_pct": 100 * r["share"], "share_low_pct": 100 * r["share_low"],
                         "share_high_pct": 100 * r["share_high"],
                         "cost_per_departure_pts": 100 * r["cost_per_departure"],
                         "cost_per_departure_ci95_pts": None if r["cost_per_departure_half_width"] is None
                         else 100 * r["cost_per_departure_half_width"],
                         "cost_per_hand_pts": 100 * r["cost_per_hand"],
                         "cost_per_hand_ci95_pts": 100 * (r["cost_per_hand_half_width"] or 0),
                         "example": r["example"], "example_cost_pts": 100 * r["example_cost"]})
    return pd.DataFrame(rows)


def departures_frame(answer):
    """Every departing hand of every house way: its cards, both settings and the exact cost."""
    import pandas as pd

    return pd.DataFrame([{"house_way": w["house_way"]["id"], "cards": d["cards"], "group": d["group"],
                          "move": d["move"], "house_high": d["house"][0], "house_low": d["house"][1],
                          "best_high": d["best"][0], "best_low": d["best"][1],
                          "cost_pts": 100 * d["cost"]}
                         for w in answer["house_ways"] for d in w["departing_hands"]])


def _setting(s):
    return f"{s[0]} / {s[1]}"


def best_play_lines(answer):
    """Per house way one line: the house way against itself and the best play against it, in
    percent with 95% half-widths ("exact" where counted), and the published line if any."""
    lines = []
    for w in answer["house_ways"]:
        b = w.get("best_play")
        if b is None:
            continue
        house = "exact" if b["house_way_exact"] else f"± {100 * b['house_way_half_width']:.4f}"
        best = "" if b["half_width"] is None else f" ± {100 * b['half_width']:.3f}"
        lines.append(f"{w['house_way']['name']}: house way against itself {100 * b['house_way_edge']:.4f}% "
                     f"{house}; best play {100 * b['edge']:.3f}%{best}")
    p = answer.get("published")
    if p:
        lines.append(f"published (Foxwoods): house way against itself {100 * p['house_way_edge']:.4f}% "
                     f"exact; best play about {100 * p['best_play_edge']:.2f}% (0.21 points lower)")
    return lines


def best_play_markdown(answer):
    """The chart's section on the house edge: the house way against itself and the best play
    against it, per house way, with the published figures; [] where there is none."""
    ways = [w for w in answer["house_ways"] if w.get("best_play")]
    if not ways:
        return []
    side = "Banking (copies are the player's)" if answer["banking"] else "Not banking"
    deals = ways[0]["best_play"]
    source = ("every hand of the deck against every dealer hand, exact" if deals["house_way_exact"] else
              f"{deals['house_way_deals']:,} deals of the whole deck (seed {answer['seed']}), each both "
              "ways round, as `sapsam paigow-poker edge`")
    lines = ["", "## The house edge: the house way against itself, and the best play against it", "",
             f"{side}, {100 * answer['commission']:g}% commission, in percent of a unit bet. The house way "
             f"against itself: {source}. The best play against the house way: that edge less the cost "
             f"per hand above ({answer['hands']:,} hands, each hand's best setting worth its house way "
             "setting plus its cost, exactly); its 95% interval is the two intervals in quadrature, almost "
             "all of it the sample of hands, so far wider than the issue's 0.01 points: the last column "
             "says how many hands would bring it to 0.01 at the same spread.", "",
             "| house way | house way against itself | 95% ± | best play against the house way | 95% ± "
             "| hands for ± 0.01 |", "|---|--:|--:|--:|--:|--:|"]
    for w in ways:
        b = w["best_play"]
        house = "exact" if b["house_way_exact"] else _points(b["house_way_half_width"], 4)
        # at that many hands the normal's z, not this sample's t: the same spread
        spread = None if not w["half_width"] else w["half_width"] * Z95 / t95(answer["hands"] - 1)
        needed = "" if spread is None else f"{answer['hands'] * (spread / 0.0001) ** 2:,.0f}"
        lines.append(f"| {w['house_way']['name']} | {100 * b['house_way_edge']:.4f}% | {house} | "
                     f"{100 * b['edge']:.3f}% | {_points(b['half_width'])} | {needed} |")
    p = answer.get("published")
    if p:
        lines += [f"| published, Foxwoods | {100 * p['house_way_edge']:.4f}% | exact | "
                  f"about {100 * p['best_play_edge']:.2f}% | | |", "",
                  f"Published: the house way against itself, {p['source']}; the best play, "
                  f"{p['best_play_source']}."]
    return lines


def chart_markdown(answer):
    """The chart as markdown: each house way's cost, then its departures."""
    n, seed = answer["hands"], answer["seed"]
    lines = ["# Pai Gow Poker: where the best play departs from the house way", "",
             f"{n:,} random hands (seed {seed}, the same hands for every house way), each valued "
             f"exactly: every setting against every dealer hand of the cards left, the dealer "
             f"setting by the house way; {'banking' if answer['banking'] else 'not banking'}, "
             f"{100 * answer['commission']:g}% commission. A hand *departs* where the house way's "
             "setting is worth strictly less than the best setting; its cost is the difference in "
             "points (percent of a unit bet), exact for the hand. Shares, means and parts of the "
             "cost per hand are over the sampled hands, with 95% intervals (shares: Wilson; means: "
             "Student's t, blank for a single departure). A group's parts add up to the house way's cost.",
             "", "## What each house way costs against the best play", "",
             "| house way | hands | best play departs | 95% CI | cost per hand (points) | 95% ± |",
             "|---|--:|--:|--:|--:|--:|"]
    for w in answer["house_ways"]:
        lines.append(f"| {w['house_way']['name']} | {w['hands']:,} | {100 * w['share']:.1f}% | "
                     f"{100 * w['share_low']:.1f}-{100 * w['share_high']:.1f}% | "
                     f"{_points(w['cost_per_hand'])} | {_points(w['half_width'])} |")
    lines += best_play_markdown(answer)
    for w in answer["house_ways"]:
        lines += ["", f"## {w['house_way']['name']}: the departures", "",
                  f"{w['departures']} of {w['hands']:,} hands depart; by the hand (every move "
                  "together), where the cost comes from:", "",
                  "| hand | hands | departs | cost per hand (points) | 95% ± |", "|---|--:|--:|--:|--:|"]
        for g in w["by_group"]:
            if g["departures"]:
                lines.append(f"| {g['group']} | {g['hands']:,} | {g['departures']} | "
                             f"{_points(g['cost_per_hand'])} | {_points(g['cost_per_hand_half_width'])} |")
        others = sum(g["hands"] for g in w["by_group"] if not g["departures"])
        lines += ["", f"No departure in the other {others:,} hands "
                  f"({'; '.join(g['group'] for g in w['by_group'] if not g['departures']) or 'none'}).",
                  "", "What the best play does instead, costliest first:", "",
                  "| hand | the best play | departures | share of hands | cost per departure (points) "
                  "| cost per hand (points) | the costliest: house way → best (points) |",
                  "|---|---|--:|--:|--:|--:|---|"]
        for r in w["rows"]:
            per = _points(r["cost_per_departure"])
            if r["cost_per_departure_half_width"] is not None:
                per += f" ± {_points(r['cost_per_departure_half_width'])}"
            lines.append(f"| {r['group']} | {r['move']} | {r['departures']} | {100 * r['share']:.2f}% "
                         f"({100 * r['share_low']:.2f}-{100 * r['share_high']:.2f}) | {per} | "
                         f"{_points(r['cost_per_hand'])} ± {_points(r['cost_per_hand_half_width'])} | "
                         f"{r['example']}: {_setting(r['example_house'])} → {_setting(r['example_best'])} "
                         f"({_points(r['example_cost'])}) |")
    return "\n".join(lines) + "\n"


def chart_figure(answer, stem):
    """Each house way's cost per hand by hand group, with 95% intervals: one panel a house
    way, the groups that depart."""
    from sapsam.output.plots import figure, save_figure

    ways = answer["house_ways"]
    groups = sorted({g["group"] for w in ways for g in w["by_group"] if g["departures"]},
                    key=lambda g: -max((r["cost_per_hand"] for w in ways for r in w["by_group"]
                                        if r["group"] == g), default=0))
    fig = figure(8.0, 1.6 + 0.45 * len(groups))
    ax = fig.add_subplot()
    height = 0.8 / max(1, len(ways))
    for i, w in enumerate(ways):
        found = {g["group"]: g for g in w["by_group"]}
        y = np.arange(len(groups)) + i * height
        x = [100 * found[g]["cost_per_hand"] if g in found else 0 for g in groups]
        err = [100 * (found[g]["cost_per_hand_half_width"] or 0) if g in found else 0 for g in groups]
        ax.barh(y, x, height, xerr=err, label=f"{w['house_way']['name']}: {100 * w['cost_per_hand']:.3f} "
                f"± {100 * (w['half_width'] or 0):.3f} points a hand", capsize=2)
    ax.set_yticks(np.arange(len(groups)) + height * (len(ways) - 1) / 2, groups)
    ax.invert_yaxis()
    ax.set_xlabel("cost per hand against the best play (points, 95% interval)")
    fig.suptitle(f"Pai Gow Poker: what each house way gives up against the best play, by hand\n"
                 f"({answer['hands']:,} hands, {'banking' if answer['banking'] else 'not banking'}, "
                 f"{100 * answer['commission']:g}% commission)")
    ax.legend(loc="lower right", fontsize=7)
    save_figure(fig, stem, formats=("png",))


def write_chart(answer, folder):
    """Write ``chart.md``, ``chart.csv`` (a row per house way, group and move),
    ``chart-departures.csv`` (every departing hand), ``chart.json`` and ``chart.png`` into
    ``folder`` (``chart-banking.*`` when banking).  Returns the markdown's path."""
    from pathlib import Path

    from sapsam.base.files import provenance, write_atomic, write_json

    folder = Path(folder)
    stem = folder / ("chart-banking" if answer["banking"] else "chart")
    write_atomic(stem.with_suffix(".md"), chart_markdown(answer))
    write_atomic(stem.with_suffix(".csv"), chart_frame(answer).to_csv(index=False, float_format="%.5g"))
    write_atomic(stem.parent / f"{stem.name}-departures.csv",
                 departures_frame(answer).to_csv(index=False, float_format="%.5g"))
    write_json(stem.with_suffix(".json"), {**answer, "provenance": provenance(
        game="pai gow poker", hands=answer["hands"], seed=answer["seed"])})
    chart_figure(answer, stem)
    return stem.with_suffix(".md")


# The committed charts ship as package data for the web tab: results/paigow_poker's chart.json
# and chart-banking.json less every departing hand (the rows, groups and best play stay), and
# best-play.json less its provenance, in
# the package's folder ``shipped`` (analysis/paigow_poker/shipped).  After a new run into results/paigow_poker:
#   python -c "from sapsam.paigow_poker.output.chart_files import ship_charts; ship_charts()"
# (tests/paigow_poker/test_chart.py holds the two to each other in a checkout).
SHIPPED = "shipped"


def shipped_chart(answer):
    """The part of a chart (:func:`sapsam.paigow_poker.output.departures.chart_answer`, as
    written to ``chart.json``) that the web tab shows: all but each house way's departing hands."""
    return {**answer, "house_ways": [{k: v for k, v in w.items() if k != "departing_hands"}
                                     for w in answer["house_ways"]]}


def ship_charts(results="results/paigow_poker", package=None):
    """Write :func:`shipped_chart` of ``results``' chart.json and chart-banking.json (those
    there) into the package's ``shipped`` folder (``package``): the checkout's
    analysis/paigow_poker/shipped by default.  Returns the paths written."""
    import json
    from pathlib import Path

    from sapsam.base.files import write_atomic

    package = Path(__file__).parent.parent / SHIPPED if package is None else Path(package)
    package.mkdir(parents=True, exist_ok=True)
    written = []
    for name in ("chart.json", "chart-banking.json", BEST_PLAY):
        source = Path(results) / name
        if source.is_file():
            answer = json.loads(source.read_text(encoding="utf-8"))
            answer = shipped_best_play(answer) if name == BEST_PLAY else shipped_chart(answer)
            write_atomic(package / name, json.dumps(answer, indent=1) + "\n")
            written.append(package / name)
    return written


BEST_PLAY = "best-play.json"  # sapsam paigow-poker best-play's committed run


def shipped_best_play(answer):
    """The part of a best-play run (``best-play.json``) that the web tab shows: all but its
    provenance."""
    return {k: v for k, v in answer.items() if k != "provenance"}


def shipped_best_play_edge():
    """The shipped best-play run (:func:`shipped_best_play`), from the package data; None
    where none ships."""
    return _package_json(BEST_PLAY)


def shipped(banking=False):
    """The shipped chart (:func:`shipped_chart` of the committed run), banking or not, from
    the package data; None where none ships."""
    return _package_json("chart-banking.json" if banking else "chart.json")


def _package_json(name):
    import json
    from importlib.resources import files

    source = files("sapsam.paigow_poker").joinpath(SHIPPED, name)
    return json.loads(source.read_text(encoding="utf-8")) if source.is_file() else None


def figure_png(answer):
    """:func:`chart_figure` of a chart as PNG bytes (the same bytes as its ``chart.png``)."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory(prefix="sapsam-pgp-chart-") as folder:
        chart_figure(answer, Path(folder) / "chart")
        return (Path(folder) / "chart.png").read_bytes()
