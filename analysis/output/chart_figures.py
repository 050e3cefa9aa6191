"""The figures of the strategy charts (:mod:`sapsam.output.charts`), each drawn from its
tidy DataFrame alone.
"""

import numpy as np

from sapsam.game.hands import CATEGORY_NAMES
from sapsam.output import plots
from sapsam.output.chart_frames import ROW_NAMES, check_kind


@plots.styled
def chart_figure(kind, frame, title_info):
    """Draw a chart from its :func:`chart_data` frame.

    Parameters
    ----------
    kind : str
        One of :data:`CHART_KINDS`.
    frame : pandas.DataFrame
        From :func:`chart_data` with the same kind (or read back from its CSV).
    title_info : dict
        ``rules`` (an id, or a list of ids), ``players``, ``samples`` (None for ``rows``),
        ``seed``, and optionally ``name`` (the ruleset's name).

    Returns
    -------
    matplotlib.figure.Figure
        On the Agg canvas (:func:`sapsam.output.plots.figure`), at most 14 inches wide.

    Examples
    --------
    >>> info = {"rules": "standard", "players": 4, "samples": None, "seed": 0}
    >>> chart_figure("rows", chart_data("rows", "standard"), info)  # doctest: +SKIP
    """
    draw = {"rows": _draw_rows, "front": _draw_front, "rulesets": _draw_rulesets,
            "declare": _draw_declare, "policies": _draw_policies, "match": _draw_match}[check_kind(kind)]
    return draw(frame, title_info)


def _subtitle(info, what):
    rules = info["rules"]
    rules = rules if isinstance(rules, str) else ", ".join(rules) if len(rules) <= 3 \
        else f"{len(rules)} rulesets"
    parts = [rules, f"{info['players']} players"]
    if info.get("samples"):
        parts.append(f"{info['samples']:,} {what}, seed {info['seed']}")
    return ", ".join(parts)


def _draw_rows(frame, info):
    fig = plots.figure(14.0, 10.5)
    fig.suptitle("How often a hand wins its row against one fitted opponent's row\n"
                 f"exact, from the fitted strategy (ties count half); {_subtitle(info, '')}")
    for k, row in enumerate(ROW_NAMES):
        axes = fig.add_subplot(3, 1, k + 1)
        here = frame[frame.row == row].sort_values(["category", "top_rank"])
        x = np.arange(len(here))
        for c, (cat, group) in enumerate(here.groupby("category", sort=True)):
            xs = x[(here.category == cat).to_numpy()]
            median = 100 * group.p_median.to_numpy()
            axes.errorbar(xs, median, yerr=[median - 100 * group.p_weakest.to_numpy(),
                                            100 * group.p_strongest.to_numpy() - median],
                          fmt="o-", markersize=3.5, linewidth=1, capsize=2,
                          color=f"C{c % 10}", label=CATEGORY_NAMES[cat])
            axes.text(xs.mean(), 1.02, CATEGORY_NAMES[cat].lower(), ha="center", va="bottom",
                      fontsize="small", transform=axes.get_xaxis_transform())
            if c:
                axes.axvline(xs[0] - 0.5, color="grey", linewidth=0.6, alpha=0.6)
        axes.set_xticks(x, here.rank_name, fontsize=7 if len(x) > 40 else "small")
        axes.set_xlim(-0.7, len(x) - 0.3)
        axes.set_ylim(0, 100)
        axes.set_yticks(range(0, 101, 20))
        axes.set_ylabel(f"{row}: P(win) %")
        axes.set_xlabel(f"{row} hand: category, then top rank (the pair, the trips, the top "
                        "card...); marker = median hand of the group, bar = weakest to strongest",
                        fontsize="small")
        axes.grid(True, axis="y")
    return fig


def _draw_front(frame, info):
    fig = plots.figure(13.0, 5.0)
    axes = fig.add_subplot()
    x = np.arange(len(frame))
    share = 100 * frame.share.to_numpy()
    colours = {"high card": "C0", "pair": "C1", "trips": "C2", "natural or surrender": "C7"}
    for shape, colour in colours.items():
        mask = (frame["shape"] == shape).to_numpy()
        if not mask.any():
            continue
        axes.bar(x[mask], share[mask], color=colour, alpha=0.8, label=shape)
    axes.errorbar(x, share, yerr=[share - 100 * frame.ci_low.to_numpy(),
                                  100 * frame.ci_high.to_numpy() - share],
                  fmt="none", ecolor="black", capsize=2, linewidth=0.8, label="95% Wilson interval")
    axes.set_xticks(x, frame.label, rotation=45, ha="right", rotation_mode="anchor",
                    fontsize="small")
    axes.set_xlim(-0.7, len(x) - 0.3)
    axes.set_ylabel("share of hands (%)")
    axes.set_xlabel("front played (high card by its top card, pair by rank)")
    axes.set_title("What the fitted strategy puts in front\n" + _subtitle(info, "sampled hands"))
    axes.grid(True, axis="y")
    axes.legend()
    return fig


def _draw_declare(frame, info):
    rows = len(frame)
    fig = plots.figure(12.0, 2.2 + 0.38 * max(rows, 3))
    fig.suptitle("When the fitted strategy declares a natural or surrenders, and what it is "
                 f"worth (seat 1 against fitted players)\n{_subtitle(info, 'tables')}")
    share_axes, ev_axes = fig.subplots(1, 2, sharey=True)
    y = np.arange(rows)[::-1]
    share = frame.share.to_numpy()
    low, high = frame.share_ci_low.to_numpy(), frame.share_ci_high.to_numpy()
    seen = frame["count"].to_numpy() > 0
    left = max(min(np.concatenate([share[seen], high])) / 3, 1e-7)
    if seen.any():
        share_axes.errorbar(100 * share[seen], y[seen],
                            xerr=[100 * (share[seen] - low[seen]),
                                  100 * (high[seen] - share[seen])],
                            fmt="o", label="share, 95% Wilson interval")
    if (~seen).any():
        share_axes.hlines(y[~seen], 100 * left, 100 * high[~seen], color="C0", linestyle=":",
                          linewidth=1)
        share_axes.plot(100 * high[~seen], y[~seen], "<", color="C0", markerfacecolor="none",
                        label="never: 95% upper bound")
    share_axes.set_xscale("log")
    share_axes.set_xlim(100 * left, 100 * min(1.0, max(high) * 3))
    share_axes.set_xlabel("share of hands (%, log scale)")
    share_axes.legend(loc="lower right")
    share_axes.grid(True, axis="x")
    labels = [f"{row.decision} ({row.count:,})" if row.kind != "natural" or np.isnan(row.face_value)
              else f"{row.decision}, {row.face_value:g}/opp. ({row.count:,})"
              for row in frame.itertuples(index=False)]
    share_axes.set_yticks(y, labels, fontsize="small")

    ev = frame.ev.to_numpy()
    ev_low, ev_high = frame.ev_ci_low.to_numpy(), frame.ev_ci_high.to_numpy()
    has_ci = ~np.isnan(ev_low)
    ev_axes.errorbar(ev[has_ci], y[has_ci], xerr=[ev[has_ci] - ev_low[has_ci],
                                                  ev_high[has_ci] - ev[has_ci]],
                     fmt="o", color="C1", label="mean units, 95% CI")
    single = ~has_ci & ~np.isnan(ev)
    if single.any():
        ev_axes.plot(ev[single], y[single], "o", color="C1", markerfacecolor="none",
                     label="seen once: no interval")
    for yy, value, low_, high_ in zip(y, ev, ev_low, ev_high):
        if np.isnan(value):
            continue
        text = f"{value:+.2f}" + ("" if np.isnan(low_) else f" [{low_:+.2f}, {high_:+.2f}]")
        ev_axes.annotate(text, (value, yy), textcoords="offset points", xytext=(0, 7),
                         ha="center", fontsize="x-small")
    for yy in y[np.isnan(ev)]:
        ev_axes.text(0.02, yy, "never played", va="center", fontsize="small", color="grey",
                     transform=ev_axes.get_yaxis_transform())
    ev_axes.axvline(0, color="grey", linewidth=0.8)
    ev_axes.margins(x=0.15)
    ev_axes.set_xlabel("seat 1's units per hand in those tables")
    ev_axes.legend(loc="lower right")
    ev_axes.grid(True, axis="x")
    return fig


def _ruleset_label(rid):
    """A ruleset's tick: its id, and where its points are a match's (first to 11: points won a
    deal, not units netted against the table, so its EV is not centred on 0), a word on it."""
    from sapsam.game.mechanisms import Game
    from sapsam.game.ruleset_files import load_ruleset

    try:
        match = load_ruleset(rid).scoring.game == Game.MATCH
    except ValueError:  # a ruleset file's id: no name to load it by
        return rid
    return f"{rid} (match points)" if match else rid


def _ruleset_panels(fig, frame, ids):
    """EV (with the baseline's) and paired-gap panels of a rulesets chart, a column per ruleset."""
    ev_axes, gap_axes = fig.subplots(2, 1, sharex=True)
    x = np.arange(len(ids))
    policies = list(dict.fromkeys(frame.policy))
    series = [("fitted (baseline)", "ev_baseline")] + [(p, "ev") for p in policies]
    for s, (name, column) in enumerate(series):
        rows = (frame.drop_duplicates("rules") if s == 0 else frame[frame.policy == name])
        rows = rows.set_index("rules").reindex(ids)  # NaN where a policy does not play (no house way)
        mean = rows[column].to_numpy()
        offset = (s - (len(series) - 1) / 2) * 0.7 / len(series)
        ev_axes.errorbar(x + offset, mean, yerr=[mean - rows[column + "_ci_low"].to_numpy(),
                                                 rows[column + "_ci_high"].to_numpy() - mean],
                         fmt="o", markersize=4, capsize=2,
                         color="black" if s == 0 else f"C{s - 1}", label=name)
        if s:  # at the same place as in the EV panel
            gap = rows.gap.to_numpy()
            gap_axes.errorbar(x + offset, gap, yerr=[gap - rows.ci_low.to_numpy(),
                                                     rows.ci_high.to_numpy() - gap],
                              fmt="o", markersize=4, capsize=2, color=f"C{s - 1}", label=name)
    ev_axes.set_ylabel("seat 1's units per hand")
    ev_axes.set_title("EV against fitted opponents, 95% CI")
    gap_axes.set_ylabel("units per hand vs playing fitted")
    gap_axes.set_title("paired gap to fitted (same deals), 95% CI")
    for axes in (ev_axes, gap_axes):
        axes.axhline(0, color="grey", linewidth=0.8)
        axes.grid(True, axis="y")
        for between in x[1:] - 0.5:
            axes.axvline(between, color="grey", linewidth=0.5, alpha=0.4)
    fig.legend(*ev_axes.get_legend_handles_labels(), loc="outside lower center",
               ncols=len(series), title="seat 1 plays")
    gap_axes.set_xticks(x, [_ruleset_label(rid) for rid in ids], rotation=35, ha="right", rotation_mode="anchor")
    gap_axes.set_xlim(-0.6, len(ids) - 0.4)
    gap_axes.set_xlabel("ruleset")


def _draw_policies(frame, info):
    fig = plots.figure(11.0, 4.8)
    fig.suptitle("What a policy is worth against fitted players (seat 1; the other seats fitted)\n"
                 + _subtitle(info, "tables"))
    _policy_panels(fig, frame, list(frame.policy))
    return fig


def _policy_panels(fig, frame, policies):
    ev_axes, gap_axes = fig.subplots(1, 2)
    names = ["fitted (baseline)"] + policies
    x = np.arange(len(names))
    base = frame.iloc[0]
    means = np.concatenate([[base.ev_baseline], frame.ev.to_numpy()])
    lows = np.concatenate([[base.ev_baseline_ci_low], frame.ev_ci_low.to_numpy()])
    highs = np.concatenate([[base.ev_baseline_ci_high], frame.ev_ci_high.to_numpy()])
    for i in range(len(names)):
        ev_axes.errorbar(x[i], means[i], yerr=[[means[i] - lows[i]], [highs[i] - means[i]]],
                         fmt="o", capsize=4, color="black" if i == 0 else f"C{i - 1}")
        ev_axes.annotate(f"{means[i]:+.3f}", (x[i], means[i]), textcoords="offset points",
                         xytext=(8, 0), va="center", fontsize="small")
    ev_axes.set_xticks(x, names)
    ev_axes.set_ylabel("seat 1's units per hand")
    ev_axes.set_title("EV against fitted opponents, 95% CI")
    gx = np.arange(len(policies))
    gap = frame.gap.to_numpy()
    for i in range(len(policies)):
        gap_axes.errorbar(gx[i], gap[i], yerr=[[gap[i] - frame.ci_low.iloc[i]],
                                               [frame.ci_high.iloc[i] - gap[i]]],
                          fmt="o", capsize=4, color=f"C{i}")
        gap_axes.annotate(f"{gap[i]:+.3f} [{frame.ci_low.iloc[i]:+.3f}, "
                          f"{frame.ci_high.iloc[i]:+.3f}]", (gx[i], gap[i]),
                          textcoords="offset points", xytext=(8, 0), va="center",
                          fontsize="small")
    gap_axes.set_xticks(gx, policies)
    gap_axes.set_xlim(-0.5, len(policies) - 0.5 + 0.6)
    gap_axes.set_ylabel("units per hand vs playing fitted")
    gap_axes.set_title("paired gap to fitted (same deals), 95% CI")
    for axes in (ev_axes, gap_axes):
        axes.axhline(0, color="grey", linewidth=0.8)
        axes.grid(True, axis="y")
        axes.set_xlabel("seat 1 plays")
    ev_axes.set_xlim(-0.5, len(names) - 0.5 + 0.4)
    return ev_axes, gap_axes


def _draw_rulesets(frame, info):
    ids = list(dict.fromkeys(frame.rules))
    fig = plots.figure(min(14.0, max(9.0, 2.5 + 0.65 * len(ids))), 9.0)
    fig.suptitle("What a policy is worth against fitted players, by ruleset\n"
                 "seat 1 plays it, the other seats fitted; "
                 + _subtitle(info, "tables per ruleset"))
    _ruleset_panels(fig, frame, ids)
    return fig


def _draw_match(frame, info):
    size = int(frame.mine.max()) + 1
    fig = plots.figure(12.0, 5.6)
    fig.suptitle("Playing for the match or for the points of one deal: where they differ, by score "
                 f"(fitted opponents)\n{_subtitle(info, 'hands')}")
    panels = (("share_differ", "hands where the settings differ (%)", "Blues"),
              ("gain", "chance of winning the match gained (points of %)", "Greens"))
    for axes, (column, label, colours) in zip(fig.subplots(1, 2), panels):
        grid = 100 * frame.pivot(index="theirs", columns="mine", values=column).to_numpy()
        image = axes.imshow(grid, origin="lower", cmap=colours, vmin=0)
        for (theirs, mine), value in np.ndenumerate(grid):
            axes.text(mine, theirs, f"{value:.0f}" if column == "share_differ" else f"{value:.1f}",
                      ha="center", va="center", fontsize="x-small")
        axes.set_xticks(range(size))
        axes.set_yticks(range(size))
        axes.set_xlabel("your score")
        axes.set_ylabel("each opponent's score")
        fig.colorbar(image, ax=axes, label=label, shrink=0.8)
    return fig
