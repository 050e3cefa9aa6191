"""Strategy charts: what the fitted strategy plays, what it wins, and what other policies cost.

Five kinds (:data:`CHART_KINDS`), each a tidy DataFrame (:func:`chart_data`), a figure drawn
from that frame alone (:func:`chart_figure`) and a folder of files (:func:`write_chart`):

============  ================================================================================
``rows``      per-row win probability of each hand against one fitted opponent's row, exact
              from the strategy file: P(win) + P(tie) / 2 under the fitted per-row strength
              distribution (:func:`kernels.policies.ev_tables` keeps the same two numbers),
              that is against an opponent who sets a hand (not one who declares or surrenders).
              Hands are grouped by category and top rank (high card by its top card, pairs by
              the pair, ...); a group's marker is its median hand, its bar spans the weakest
              to the strongest hand of the group.
``front``     what goes in front: the shapes of the fronts the fitted strategy plays over
              ``samples`` seeded hands (high card by top rank, pair by rank, trips; hands
              declared a natural or surrendered are their own bar), with Wilson 95% intervals.
``rulesets``  per ruleset, seat 0's EV with each of ``policies`` against fitted opponents and
              the paired gap to playing fitted itself (:func:`analysis.compare.policy_gaps`,
              ``samples`` tables per ruleset, the same deals for every ruleset).
``declare``   how often the fitted strategy surrenders or declares each natural (seat 0 over
              ``samples`` seeded tables of fitted players, Wilson 95% intervals) and seat 0's
              mean units per hand in the tables where it did (normal 95% intervals).
``policies``  for one ruleset, seat 0's EV with each of ``policies`` against fitted opponents
              and the paired gap to fitted (``samples`` tables).
============  ================================================================================

Files (:func:`write_chart`): ``<kind>-<rules>-<players>p.png``/``.svg``/``.csv`` and a
``.json`` manifest with the inputs, the files, the wall time and :func:`analysis.provenance`
(STYLE.md item 11), every one written atomically.

Intervals: shares get the Wilson score interval (:func:`analysis.report.wilson_interval`),
sensible at zero counts; means get mean +- 1.96 SD / sqrt(n), rough where n is small (a rare
natural seen a handful of times).
"""

import time
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd

from analysis import plots
from analysis.cards import RANKS
from analysis.compare import (deal_tables, decide, mean_interval, policy_gaps,
                              settle_decisions, table_setup)
from analysis.fit import deal_sorted_hands
from analysis.hands import CATEGORY_NAMES
from analysis.policies import load_strategy, make_policy, strategy_path
from analysis.progress import shifted
from analysis.provenance import REPOSITORY, provenance, writable_folder, write_atomic, write_json
from analysis.report import natural_label, wilson_interval
from analysis.rules import Ruleset, load_ruleset, ruleset_ids
from analysis.seeds import CHUNKS, Stream
from analysis.score import points_scale
from kernels.evaluate import N_STRENGTHS, ORDINAL_TO_PACKED, RANK3_TABLE, WHEEL_SECOND
from kernels.settle import P_SURRENDER_ALLOWED, P_WHEEL_SECOND

CHART_KINDS = ("rows", "front", "rulesets", "declare", "policies")
DEFAULT_SAMPLES = {"rows": None, "front": 20000, "rulesets": 4000, "declare": 20000,
                   "policies": 20000}
DEFAULT_POLICIES = ("greedy", "balanced")
ROW_NAMES = ("front", "middle", "back")
BASELINE = "fitted"
_FEW_RULESETS = 4  # up to this many ruleset ids are joined in a rulesets chart's file name


# ---- data -------------------------------------------------------------------------------------

def chart_data(kind, rules, players=4, samples=None, seed=0, policies=DEFAULT_POLICIES):
    """The tidy table behind a chart.

    Parameters
    ----------
    kind : str
        One of :data:`CHART_KINDS`.
    rules : str, Ruleset, sequence of str
        One ruleset (id, TOML path or Ruleset); for ``rulesets`` also a list of ids or
        ``"all"`` (every named ruleset with a fitted strategy for ``players``).
    players : int
        Table size (2..4); the fitted strategy for it must exist.
    samples : int, optional
        Hands (``front``) or tables (``rulesets``: per ruleset; ``declare``, ``policies``);
        default :data:`DEFAULT_SAMPLES`.  ``rows`` is exact and ignores it.
    seed : int
        Fixes the deals and the policies' random choices.
    policies : sequence of str
        Policies measured against fitted (``rulesets``, ``policies``; ignored otherwise).

    Returns
    -------
    pandas.DataFrame
        One row per plotted point; the columns are described by each ``*_frame`` function.

    Raises
    ------
    ValueError
        Unknown kind, ruleset or policy, no fitted strategy, ``samples < 1``.

    Examples
    --------
    >>> chart_data("rows", "standard").query("row == 'front'").head(3)  # doctest: +SKIP
    """
    return _compute(*_checked(kind, rules, players, samples, seed, policies))


def _checked(kind, rules, players, samples, seed, policies):
    """The inputs of a chart validated and normalised, before any work: (kind, rulesets,
    players, samples, seed, policies); rulesets a list, policies a tuple (empty if unused)."""
    kind = _check_kind(kind)
    samples = _check_samples(kind, samples)
    if not isinstance(players, (int, np.integer)) or not 2 <= players <= 4:
        raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, got {seed!r}")
    rulesets = _ruleset_list(rules, players) if kind == "rulesets" else [_one_ruleset(rules)]
    if kind in ("rulesets", "policies"):
        policies = _check_policies(policies, rulesets, players)
    else:
        policies = ()
        make_policy(BASELINE, rulesets[0], players)  # no fitted strategy: says how to fit one
    return kind, rulesets, int(players), samples, int(seed), policies


def _compute(kind, rulesets, players, samples, seed, policies, progress=None):
    if kind == "rulesets":
        return rulesets_frame(rulesets, players, policies, samples, seed, progress)
    if kind == "policies":
        return policies_frame(rulesets[0], players, policies, samples, seed, progress)
    if kind == "rows":
        return rows_frame(rulesets[0], players)
    if kind == "front":
        return front_frame(rulesets[0], players, samples, seed, progress)
    return declare_frame(rulesets[0], players, samples, seed, progress)


def _check_kind(kind):
    if kind not in CHART_KINDS:
        raise ValueError(f"unknown chart {kind!r}: use one of {', '.join(CHART_KINDS)}")
    return kind


def _check_samples(kind, samples):
    if kind == "rows":
        return None  # exact
    if samples is None:
        return DEFAULT_SAMPLES[kind]
    if not isinstance(samples, (int, np.integer)) or samples < 1:
        raise ValueError(f"samples must be a whole number >= 1, got {samples!r}")
    return int(samples)


def _one_ruleset(rules):
    if isinstance(rules, Ruleset):
        return rules
    if not isinstance(rules, str) or rules == "all":
        raise ValueError(f"this chart takes one ruleset, got {rules!r}")
    return load_ruleset(rules)


def _ruleset_list(rules, players):
    """Rulesets of a ``rulesets`` chart: ``"all"`` is every named one with a fitted strategy."""
    if isinstance(rules, (str, Ruleset)) and rules != "all":
        rules = [rules]
    if rules == "all":
        ids = [rid for rid in ruleset_ids() if strategy_path(rid, players).is_file()]
        if not ids:
            raise ValueError(f"no fitted strategy for {players} players in "
                             f"{strategy_path('x', players).parent}")
        return [load_ruleset(rid) for rid in ids]
    rulesets = [r if isinstance(r, Ruleset) else load_ruleset(r) for r in rules]
    if not rulesets:
        raise ValueError("name at least one ruleset")
    if len({r.id for r in rulesets}) < len(rulesets):
        raise ValueError("a ruleset is named twice")
    return rulesets


def _check_policies(policies, rulesets, players):
    """Policy names as a tuple, each checked (with fitted) on every ruleset before any work."""
    if isinstance(policies, str):
        policies = (policies,)
    policies = tuple(policies)
    if not policies:
        raise ValueError("name at least one policy to compare with fitted")
    for rules in rulesets:
        for name in (BASELINE, *policies):
            make_policy(name, rules, players)
    return policies


@cache
def strength_classes():
    """Category, top rank and front-or-not of every strength ordinal (ace-low scale).

    Returns
    -------
    category : ndarray(int64), shape (N_STRENGTHS,)
        0 = high card .. 8 = straight flush.
    top : ndarray(int64), shape (N_STRENGTHS,)
        Rank (0 = deuce .. 12 = ace) of the hand's leading group: the top card of a high
        card, flush or straight (a wheel's is the five), the pair, the higher pair, the trips
        of a full house, the quads.
    three_card : ndarray(bool), shape (N_STRENGTHS,)
        True for the 455 classes of 3-card fronts.
    """
    category = (ORDINAL_TO_PACKED >> 20).astype(np.int64)
    top = ((ORDINAL_TO_PACKED >> 16) & 15).astype(np.int64) - 1
    three_card = np.zeros(N_STRENGTHS, np.bool_)
    three_card[np.unique(RANK3_TABLE)] = True
    return category, top, three_card


def win_probability(row_mass):
    """P(win) + P(tie) / 2 of every strength against a row drawn from ``row_mass``.

    Parameters
    ----------
    row_mass : ndarray(float64), shape (3, N_STRENGTHS)
        Per-row strength distribution of the opponents' settings (a strategy file).

    Returns
    -------
    ndarray(float64), shape (3, N_STRENGTHS)
        On the strength scale of ``row_mass`` (the ruleset's).
    """
    mass = np.asarray(row_mass, np.float64)
    mass = mass / mass.sum(axis=1, keepdims=True)
    return np.cumsum(mass, axis=1) - mass / 2


def rows_frame(rules, players):
    """Per row and hand group (category x top rank): exact win probability against fitted.

    Columns: ``rules``, ``players``, ``row``, ``category`` (0..8), ``category_name``,
    ``top_rank`` (0..12), ``rank_name``, ``classes`` (strength classes in the group),
    ``p_weakest``, ``p_median``, ``p_strongest`` (P(win) + P(tie) / 2 of the group's weakest,
    median and strongest hand, 0..1) and ``played`` (share of the fitted strategy's hands in
    this row that fall in the group).
    """
    mass, _ = load_strategy(strategy_path(rules.id, players))
    # a hand's strength on the ruleset's scale, indexed by its ace-low ordinal
    scale = WHEEL_SECOND.astype(np.int64) if rules.compile().params[P_WHEEL_SECOND] \
        else np.arange(N_STRENGTHS)
    win = win_probability(mass)[:, scale]
    played = (mass / mass.sum(axis=1, keepdims=True))[:, scale]
    category, top, three_card = strength_classes()
    records = []
    for k, row in enumerate(ROW_NAMES):
        members = three_card if k == 0 else ~three_card
        for cat in np.unique(category[members]):
            for rank in np.unique(top[members & (category == cat)]):
                group = np.flatnonzero(members & (category == cat) & (top == rank))
                p = np.sort(win[k, group])
                records.append({
                    "rules": rules.id, "players": players, "row": row, "category": int(cat),
                    "category_name": CATEGORY_NAMES[cat], "top_rank": int(rank),
                    "rank_name": RANKS[rank], "classes": len(group), "p_weakest": p[0],
                    "p_median": float(np.median(p)), "p_strongest": p[-1],
                    "played": float(played[k, group].sum())})
    return pd.DataFrame(records)


def front_shapes(strengths):
    """Shape of each front (high card by top rank, pair by rank, trips; -1: no front).

    Parameters
    ----------
    strengths : ndarray(int16), shape (n,)
        Front strengths (3-card ordinals), -1 for a hand declared or surrendered.

    Returns
    -------
    shape : ndarray(object), shape (n,)
        ``"high card"``, ``"pair"``, ``"trips"`` or ``"natural or surrender"``.
    rank : ndarray(int64), shape (n,)
        The top card or the pair's rank; -1 for trips and no front.
    """
    strengths = np.asarray(strengths, np.int64)
    category, top, _ = strength_classes()
    set_ = strengths >= 0
    cat = np.where(set_, category[np.maximum(strengths, 0)], -1)
    names = {0: "high card", 1: "pair", 3: "trips", -1: "natural or surrender"}
    shape = np.array([names[c] for c in cat], dtype=object)
    rank = np.where((cat == 0) | (cat == 1), top[np.maximum(strengths, 0)], -1)
    return shape, rank


def front_frame(rules, players, hands, seed, progress=None):
    """Shares of the front shapes the fitted strategy plays over ``hands`` seeded hands.

    Columns: ``rules``, ``players``, ``shape``, ``top_rank`` (-1 where none), ``label``
    (``"Q-high"``, ``"QQ"``, ``"trips"``, ``"natural or surrender"``), ``count``, ``hands``,
    ``share`` and its Wilson 95% interval ``ci_low``, ``ci_high`` (0..1).
    """
    policy = make_policy(BASELINE, rules, players)
    stream = Stream(seed, "hands")
    dealt = deal_sorted_hands(hands, stream)
    decisions = decide(policy, rules, players, dealt, stream.child(1).states(CHUNKS), progress)
    shape, rank = front_shapes(decisions.rows[:, 0])
    observed = pd.DataFrame({"shape": shape, "top_rank": rank}).value_counts()
    groups = ([("high card", r) for r in range(2, 13)] + [("pair", r) for r in range(13)]
              + [("trips", -1), ("natural or surrender", -1)])
    counts = np.array([int(observed.get(g, 0)) for g in groups], np.int64)
    low, high = wilson_interval(counts, hands)
    labels = [f"{RANKS[r]}-high" if s == "high card" else 2 * RANKS[r] if s == "pair" else s
              for s, r in groups]
    return pd.DataFrame({
        "rules": rules.id, "players": players, "shape": [g[0] for g in groups],
        "top_rank": [g[1] for g in groups], "label": labels, "count": counts, "hands": hands,
        "share": counts / hands, "ci_low": low, "ci_high": high})


def declare_frame(rules, players, tables, seed, progress=None):
    """How often seat 0 of a table of fitted players declares or surrenders, and its worth.

    Deals ``tables`` seeded tables (set up as :mod:`analysis.compare` does), every seat
    playing fitted, settles them and sorts seat 0's hands by decision.

    Columns: ``rules``, ``players``, ``decision`` (``"set a hand"``, ``"surrender"`` or the
    natural's label), ``kind`` (``set``, ``surrender``, ``natural``), ``face_value`` (a
    natural's units per opponent in the ruleset, else NaN), ``count``, ``tables``, ``share``
    with its Wilson 95% interval ``share_ci_low``/``share_ci_high``, and seat 0's mean units
    per hand in those tables ``ev`` with ``ev_sd``, ``ev_ci_low``, ``ev_ci_high`` (NaN when
    fewer than two).
    """
    policy = make_policy(BASELINE, rules, players)
    hands = deal_tables(tables, players, Stream(seed, "tables"))
    aces, bank = table_setup(rules, hands)
    decisions = decide(policy, rules, players, hands, Stream(seed, "field").states(CHUNKS),
                       progress)
    units = settle_decisions(rules, decisions, aces, bank)[:, 0] / points_scale(rules)
    natural, surrender = decisions.natural[:, 0], decisions.surrender[:, 0]
    compiled = rules.compile()
    choices = [("set a hand", "set", float("nan"), (natural < 0) & ~surrender)]
    if compiled.params[P_SURRENDER_ALLOWED]:
        choices.append(("surrender", "surrender", float("nan"), surrender))
    for k, (kind, parameter, value, _) in enumerate(compiled.naturals):
        choices.append((natural_label(int(kind), int(parameter)), "natural", float(value),
                        natural == k))
    records = []
    for label, kind, value, chosen in choices:
        count = int(chosen.sum())
        low, high = wilson_interval(count, tables)
        ev, sd, ev_low, ev_high = mean_interval(units[chosen]) if count else (float("nan"),) * 4
        records.append({"rules": rules.id, "players": players, "decision": label, "kind": kind,
                        "face_value": value, "count": count, "tables": tables,
                        "share": count / tables, "share_ci_low": float(low),
                        "share_ci_high": float(high), "ev": ev, "ev_sd": sd,
                        "ev_ci_low": ev_low, "ev_ci_high": ev_high})
    return pd.DataFrame(records)


def policies_frame(rules, players, policies, tables, seed, progress=None):
    """Seat 0's EV with each policy against fitted opponents and the paired gap to fitted.

    Columns: those of :meth:`analysis.compare.Gap.to_dict` (``rules``, ``players``,
    ``policy``, ``baseline``, ``tables``, ``seed``, ``ev``, ``ev_ci_low``, ``ev_ci_high``,
    ``ev_baseline``, ``ev_baseline_ci_low``, ``ev_baseline_ci_high``, ``gap``, ``sd``,
    ``ci_low``, ``ci_high``), one row per policy, all in units per hand.
    """
    gaps = policy_gaps(rules, players, policies, BASELINE, tables, seed, progress)
    return pd.DataFrame([g.to_dict() for g in gaps])


def rulesets_frame(rulesets, players, policies, tables, seed, progress=None):
    """:func:`policies_frame` for every ruleset, in order (the same seeded deals for each)."""
    each = tables * (players + len(policies))  # hands decided per ruleset
    total = each * len(rulesets)
    return pd.concat([policies_frame(r, players, policies, tables, seed,
                                     shifted(progress, i * each, total))
                      for i, r in enumerate(rulesets)], ignore_index=True)


# ---- figures ----------------------------------------------------------------------------------

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
        On the Agg canvas (:func:`analysis.plots.figure`), at most 14 inches wide.

    Examples
    --------
    >>> info = {"rules": "standard", "players": 4, "samples": None, "seed": 0}
    >>> chart_figure("rows", chart_data("rows", "standard"), info)  # doctest: +SKIP
    """
    draw = {"rows": _draw_rows, "front": _draw_front, "rulesets": _draw_rulesets,
            "declare": _draw_declare, "policies": _draw_policies}[_check_kind(kind)]
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
        axes.grid(axis="y", alpha=0.3)
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
    axes.grid(axis="y", alpha=0.3)
    axes.legend(fontsize="small")
    return fig


def _draw_declare(frame, info):
    rows = len(frame)
    fig = plots.figure(12.0, 2.2 + 0.38 * max(rows, 3))
    fig.suptitle("When the fitted strategy declares a natural or surrenders, and what it is "
                 f"worth (seat 0 against fitted players)\n{_subtitle(info, 'tables')}")
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
                            fmt="o", capsize=3, label="share, 95% Wilson interval")
    if (~seen).any():
        share_axes.hlines(y[~seen], 100 * left, 100 * high[~seen], color="C0", linestyle=":",
                          linewidth=1)
        share_axes.plot(100 * high[~seen], y[~seen], "<", color="C0", markerfacecolor="none",
                        label="never: 95% upper bound")
    share_axes.set_xscale("log")
    share_axes.set_xlim(100 * left, 100 * min(1.0, max(high) * 3))
    share_axes.set_xlabel("share of hands (%, log scale)")
    share_axes.legend(fontsize="small", loc="lower right")
    share_axes.grid(axis="x", alpha=0.3)
    labels = [f"{row.decision} ({row.count:,})" if row.kind != "natural" or np.isnan(row.face_value)
              else f"{row.decision}, {row.face_value:g}/opp. ({row.count:,})"
              for row in frame.itertuples(index=False)]
    share_axes.set_yticks(y, labels, fontsize="small")

    ev = frame.ev.to_numpy()
    ev_low, ev_high = frame.ev_ci_low.to_numpy(), frame.ev_ci_high.to_numpy()
    has_ci = ~np.isnan(ev_low)
    ev_axes.errorbar(ev[has_ci], y[has_ci], xerr=[ev[has_ci] - ev_low[has_ci],
                                                  ev_high[has_ci] - ev[has_ci]],
                     fmt="o", color="C1", capsize=3, label="mean units, 95% CI")
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
    ev_axes.set_xlabel("seat 0's units per hand in those tables")
    ev_axes.legend(fontsize="small", loc="lower right")
    ev_axes.grid(axis="x", alpha=0.3)
    return fig


def _ruleset_panels(fig, frame, ids):
    """EV (with the baseline's) and paired-gap panels of a rulesets chart, a column per ruleset."""
    ev_axes, gap_axes = fig.subplots(2, 1, sharex=True)
    x = np.arange(len(ids))
    policies = list(dict.fromkeys(frame.policy))
    series = [("fitted (baseline)", "ev_baseline")] + [(p, "ev") for p in policies]
    for s, (name, column) in enumerate(series):
        rows = (frame.drop_duplicates("rules") if s == 0 else frame[frame.policy == name])
        rows = rows.set_index("rules").loc[ids]
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
    ev_axes.set_ylabel("seat 0's units per hand")
    ev_axes.set_title("EV against fitted opponents, 95% CI", fontsize="medium")
    gap_axes.set_ylabel("units per hand vs playing fitted")
    gap_axes.set_title("paired gap to fitted (same deals), 95% CI", fontsize="medium")
    for axes in (ev_axes, gap_axes):
        axes.axhline(0, color="grey", linewidth=0.8)
        axes.grid(axis="y", alpha=0.3)
        for between in x[1:] - 0.5:
            axes.axvline(between, color="grey", linewidth=0.5, alpha=0.4)
    fig.legend(*ev_axes.get_legend_handles_labels(), loc="outside lower center",
               ncols=len(series), fontsize="small", title="seat 0 plays", title_fontsize="small")
    gap_axes.set_xticks(x, ids, rotation=35, ha="right", rotation_mode="anchor")
    gap_axes.set_xlim(-0.6, len(ids) - 0.4)
    gap_axes.set_xlabel("ruleset")


def _draw_policies(frame, info):
    fig = plots.figure(11.0, 4.8)
    fig.suptitle("What a policy is worth against fitted players (seat 0; the other seats fitted)\n"
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
    ev_axes.set_ylabel("seat 0's units per hand")
    ev_axes.set_title("EV against fitted opponents, 95% CI", fontsize="medium")
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
    gap_axes.set_title("paired gap to fitted (same deals), 95% CI", fontsize="medium")
    for axes in (ev_axes, gap_axes):
        axes.axhline(0, color="grey", linewidth=0.8)
        axes.grid(axis="y", alpha=0.3)
        axes.set_xlabel("seat 0 plays")
    ev_axes.set_xlim(-0.5, len(names) - 0.5 + 0.4)
    return ev_axes, gap_axes


def _draw_rulesets(frame, info):
    ids = list(dict.fromkeys(frame.rules))
    fig = plots.figure(min(14.0, max(9.0, 2.5 + 0.65 * len(ids))), 9.0)
    fig.suptitle("What a policy is worth against fitted players, by ruleset\n"
                 "seat 0 plays it, the other seats fitted; "
                 + _subtitle(info, "tables per ruleset"))
    _ruleset_panels(fig, frame, ids)
    return fig


# ---- files ------------------------------------------------------------------------------------

def chart_stem(kind, rules, players):
    """File name without extension: ``<kind>-<rules>-<players>p``.

    ``rules`` is an id, ``"all"`` or a list of ids (a ``rulesets`` chart): up to four ids are
    joined with ``+``; more become ``<n>-rulesets-<digest>`` unless they are ``all``.
    """
    if isinstance(rules, str):
        tag = rules
    elif len(rules) <= _FEW_RULESETS:
        tag = "+".join(rules)
    else:
        import hashlib

        tag = f"{len(rules)}-rulesets-{hashlib.sha1(','.join(rules).encode()).hexdigest()[:8]}"
    return f"{kind}-{tag}-{players}p"


def write_chart(kind, rules, players=4, samples=None, seed=0, out="results/charts",
                policies=DEFAULT_POLICIES, progress=None):
    """Compute a chart and write its figure (PNG, SVG), data (CSV) and manifest (JSON).

    Parameters
    ----------
    kind, rules, players, samples, seed, policies
        As :func:`chart_data`.
    out : path
        Folder (created if missing); files with the same names are replaced atomically.
    progress : callable, optional
        ``progress(hands_decided, hands)`` as the fitted and measured policies set hands.

    Returns
    -------
    list of pathlib.Path
        ``<stem>.png``, ``<stem>.svg``, ``<stem>.csv``, ``<stem>.json``
        (stem: :func:`chart_stem`).

    Raises
    ------
    ValueError
        Bad input (see :func:`chart_data`) or an ``out`` that cannot be written.

    Examples
    --------
    >>> write_chart("front", "standard", 4, samples=2000, out="charts")  # doctest: +SKIP
    [PosixPath('charts/front-standard-4p.png'), ..., PosixPath('charts/front-standard-4p.json')]
    """
    start = time.perf_counter()
    checked = _checked(kind, rules, players, samples, seed, policies)
    kind, rulesets, players, samples, seed, policies = checked
    folder = writable_folder(out)
    frame = _compute(*checked, progress)
    ids = [r.id for r in rulesets]
    label = ("all" if isinstance(rules, str) and rules == "all" else ids) if kind == "rulesets" \
        else ids[0]
    info = {"rules": ids if kind == "rulesets" else ids[0], "players": players,
            "samples": samples, "seed": seed, "name": rulesets[0].name}
    stem = folder / chart_stem(kind, label, players)
    written = plots.save_figure(chart_figure(kind, frame, info), stem)
    csv = stem.with_name(stem.name + ".csv")
    write_atomic(csv, frame.to_csv(index=False))
    written.append(csv)
    manifest = stem.with_name(stem.name + ".json")
    written.append(manifest)
    write_json(manifest, _manifest(kind, ids, players, samples, seed, list(policies) or None,
                                   written, time.perf_counter() - start))
    return written


def _manifest(kind, ids, players, samples, seed, policies, files, seconds):
    import matplotlib

    strategies = {}
    for rid in ids:
        path = strategy_path(rid, players)
        if path.is_file():
            strategies[rid] = str(path.relative_to(REPOSITORY)) \
                if path.is_relative_to(REPOSITORY) else str(path)
    return provenance(
        what=f"strategy chart '{kind}' (analysis.charts)", kind=kind,
        rules=ids if kind == "rulesets" else ids[0], players=players, samples=samples,
        samples_are={"rows": "none (exact)", "front": "hands", "rulesets": "tables per ruleset",
                     "declare": "tables", "policies": "tables"}[kind],
        seed=None if kind == "rows" else seed, policies=policies,
        baseline=BASELINE, strategies=strategies, files=[Path(f).name for f in files],
        seconds=round(seconds, 3), pandas=pd.__version__, matplotlib=matplotlib.__version__)


__all__ = ["CHART_KINDS", "DEFAULT_SAMPLES", "chart_data", "chart_figure", "chart_stem",
           "write_chart"]
