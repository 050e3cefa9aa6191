"""The data of the strategy charts (:mod:`sapsam.output.charts`): one tidy DataFrame per
kind, computed from the fitted strategy, seeded deals and paired comparisons.
"""

from functools import cache

import numpy as np
import pandas as pd

from sapsam.base.progress import shifted
from sapsam.base.stats import mean_interval, wilson_interval
from sapsam.game.cards import RANKS
from sapsam.game.hands import CATEGORY_NAMES
from sapsam.game.rules import Ruleset
from sapsam.game.ruleset_files import load_ruleset
from sapsam.game.score import points_scale
from sapsam.kernels.evaluate import N_STRENGTHS, ORDINAL_TO_PACKED, RANK3_TABLE, WHEEL_SECOND
from sapsam.kernels.lowball import LOW_TO_PACKED, N_LOW
from sapsam.measure.compare import decide, policy_gaps, settle_decisions
from sapsam.output.report import natural_label
from sapsam.play.deal import deal_sorted_hands, deal_tables, table_setup
from sapsam.play.names import CHART_KINDS
from sapsam.play.seeds import CHUNKS, Stream
from sapsam.play.strategy_files import load_strategy
from sapsam.strategy.fit import fitted_strategy
from sapsam.strategy.houseway_chart import has_house_way
from sapsam.strategy.registry import make_policy

ROW_NAMES = ("front", "middle", "back")
BASELINE = "fitted"


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
    # a cumulative sum can round a hair above 1: a probability is kept within [0, 1]
    return np.clip(np.cumsum(mass, axis=1) - mass / 2, 0.0, 1.0)


def rows_frame(rules, players):
    """Per row and hand group (category x top rank): exact win probability against fitted.

    Columns: ``rules``, ``players``, ``row``, ``category`` (0..8), ``category_name``,
    ``top_rank`` (0..12), ``rank_name``, ``classes`` (strength classes in the group),
    ``p_weakest``, ``p_median``, ``p_strongest`` (P(win) + P(tie) / 2 of the group's weakest,
    median and strongest hand, 0..1) and ``played`` (share of the fitted strategy's hands in
    this row that fall in the group).
    """
    mass, _ = load_strategy(fitted_strategy(rules, players))
    # a hand's strength on the ruleset's scale, indexed by its ace-low ordinal
    scale = WHEEL_SECOND.astype(np.int64) if rules.compile().wheel_second \
        else np.arange(N_STRENGTHS)
    win_own = win_probability(mass)
    share = mass / mass.sum(axis=1, keepdims=True)
    win, played = win_own[:, scale], share[:, scale]
    category, top, three_card = strength_classes()
    records = []
    for k, row in enumerate(ROW_NAMES):
        members = three_card if k == 0 else ~three_card
        if k == 1 and rules.low_middle:  # a 2-7 low: its groups by the low's own scale
            low = np.zeros(N_STRENGTHS, np.bool_)
            low[:N_LOW] = True
            packed = np.zeros(N_STRENGTHS, np.int64)
            packed[:N_LOW] = LOW_TO_PACKED
            row_category, row_top = packed >> 20, ((packed >> 16) & 15) - 1
            records += _groups(rules, players, row, low, row_category, row_top, win_own[k],
                               share[k], "Low")
            continue
        records += _groups(rules, players, row, members, category, top, win[k], played[k])
    return pd.DataFrame(records)


def _groups(rules, players, row, members, category, top, win, played, no_pair="High card"):
    """The records of one row of :func:`rows_frame`: its hands grouped by category and top
    rank (``no_pair`` names the category of hands without a pair: a low's "Low")."""
    records = []
    for cat in np.unique(category[members]):
            for rank in np.unique(top[members & (category == cat)]):
                group = np.flatnonzero(members & (category == cat) & (top == rank))
                p = np.sort(win[group])
                records.append({
                    "rules": rules.id, "players": players, "row": row, "category": int(cat),
                    "category_name": no_pair if cat == 0 else CATEGORY_NAMES[cat],
                    "top_rank": int(rank), "rank_name": RANKS[rank], "classes": len(group),
                    "p_weakest": p[0], "p_median": float(np.median(p)), "p_strongest": p[-1],
                    "played": float(played[group].sum())})
    return records


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
    """How often seat 1 of a table of fitted players declares or surrenders, and its worth.

    Deals ``tables`` seeded tables (set up as :mod:`sapsam.measure.compare` does), every seat
    playing fitted, settles them and sorts seat 1's hands by decision.

    Columns: ``rules``, ``players``, ``decision`` (``"set a hand"``, ``"surrender"`` or the
    natural's label), ``kind`` (``set``, ``surrender``, ``natural``), ``face_value`` (a
    natural's units per opponent in the ruleset, else NaN), ``count``, ``tables``, ``share``
    with its Wilson 95% interval ``share_ci_low``/``share_ci_high``, and seat 1's mean units
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
    if compiled.surrender_allowed:
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
                        "share": count / tables, "share_ci_low": low,
                        "share_ci_high": high, "ev": ev, "ev_sd": sd,
                        "ev_ci_low": ev_low, "ev_ci_high": ev_high})
    return pd.DataFrame(records)


def policies_frame(rules, players, policies, tables, seed, progress=None):
    """Seat 0's EV with each policy against fitted opponents and the paired gap to fitted.

    Columns: those of :meth:`sapsam.measure.compare.Gap.to_dict` (``rules``, ``players``,
    ``policy``, ``baseline``, ``tables``, ``seed``, ``ev``, ``ev_ci_low``, ``ev_ci_high``,
    ``ev_baseline``, ``ev_baseline_ci_low``, ``ev_baseline_ci_high``, ``gap``, ``sd``,
    ``ci_low``, ``ci_high``), one row per policy, all in units per hand.
    """
    gaps = policy_gaps(rules, players, policies, BASELINE, tables, seed, progress)
    return pd.DataFrame([g.to_dict() for g in gaps])


def rulesets_frame(rulesets, players, policies, tables, seed, progress=None):
    """:func:`policies_frame` for every ruleset, in order (the same seeded deals for each); the
    house way only where there is one (:func:`sapsam.strategy.houseway_chart.has_house_way`)."""
    each = tables * (players + len(policies))  # hands decided per ruleset
    total = each * len(rulesets)
    frames = []
    for i, r in enumerate(rulesets):
        rules = r if isinstance(r, Ruleset) else load_ruleset(r)
        played = [p for p in policies if p != "houseway" or has_house_way(rules)]
        frames.append(policies_frame(rules, players, played, tables, seed,
                                     shifted(progress, i * each, total)))
    return pd.concat(frames, ignore_index=True)


def check_kind(kind):
    if kind not in CHART_KINDS:
        raise ValueError(f"unknown chart {kind!r}: use one of {', '.join(CHART_KINDS)}")
    return kind
