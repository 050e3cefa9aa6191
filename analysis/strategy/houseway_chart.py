"""The house way's chart: the hand classes it is written in, its lines, the points table the
kernels play, and its decision for one hand explained (which rule and which lines decided it).

A chart gives each row's hands points by line: a line is a run of fine classes of one row
(:data:`CLASS_KEYS`, category x rank of the leading group, weakest first), e.g. "pair of 4s
to pair of Js: 14".  The house way scores every legal setting by its rows' lines, plays the
highest total and on a tie the stronger front, then middle, then back
(:mod:`sapsam.strategy.houseway` derives the chart; :mod:`sapsam.kernels.policies` plays it).
"""

from dataclasses import dataclass

import numpy as np

from sapsam.base.stats import wilson_interval
from sapsam.game.cards import RANKS
from sapsam.kernels import policies as _kp
from sapsam.kernels import value as _kv
from sapsam.kernels.evaluate import N_STRENGTHS, ORDINAL_TO_PACKED, RANK3_TABLE, WHEEL_SECOND

ROWS = ("front", "middle", "back")


def has_house_way(rules):
    """Whether a house way can be derived for ``rules``: its chart scores a high middle, so a
    ruleset whose middle plays as a 2-7 low has none."""
    return not rules.low_middle


def require_house_way(rules):
    if not has_house_way(rules):
        raise ValueError(f"{rules.id} plays the middle as a 2-7 low, and a house way's chart "
                         "scores a high middle: no house way for it (play fitted, table, "
                         "balanced, greedy or random)")


def _classes():
    """Fine class of every strength ordinal (ace-low scale) and the classes' labels.

    A class is a row kind (front or five cards), a category and the rank of the hand's
    leading group (the top card, the pair, the higher pair, the trips...).  Returns
    ``class_of`` int64 (2, N_STRENGTHS) (-1 where a strength is not a hand of that size) and
    per kind a list of (category, top rank) in increasing strength.
    """
    category = (ORDINAL_TO_PACKED >> 20).astype(np.int64)
    top = ((ORDINAL_TO_PACKED >> 16) & 15).astype(np.int64) - 1
    three = np.zeros(N_STRENGTHS, np.bool_)
    three[np.unique(RANK3_TABLE)] = True
    class_of = np.full((2, N_STRENGTHS), -1, np.int64)
    labels = []
    for kind, members in enumerate((three, ~three)):
        keys = sorted({(int(category[s]), int(top[s])) for s in np.flatnonzero(members)})
        index = {key: i for i, key in enumerate(keys)}
        for s in np.flatnonzero(members):
            class_of[kind, s] = index[(int(category[s]), int(top[s]))]
        labels.append(keys)
    return class_of, labels


CLASS_OF, CLASS_KEYS = _classes()


def class_label(key):
    """Words for a class, e.g. ``'pair of 7s'``, ``'A-high flush'``, ``'8s full'``."""
    category, top = key
    rank = RANKS[top]
    return ("{r}-high", "pair of {r}s", "two pair, {r}s up", "three {r}s", "{r}-high straight",
            "{r}-high flush", "{r}s full", "four {r}s", "{r}-high straight flush")[category].format(r=rank)


@dataclass(frozen=True)
class Line:
    """One chart line: the classes ``first`` .. ``last`` of a row score ``points``."""

    row: str
    first: tuple  # (category, top rank) of the weakest class on the line
    last: tuple
    points: int

    @property
    def text(self):
        if self.first == self.last:
            return class_label(self.first)
        return f"{class_label(self.first)} to {class_label(self.last)}"


@dataclass(frozen=True)
class HouseWay:
    """A derived house way: its chart as lines and as a kernel points table."""

    rules: str
    players: int
    lines: tuple  # Line per row segment, front then middle then back, weakest first
    surrender_below: float  # surrender when the best total is below this (-inf: never)
    declares: bool  # the ruleset pays naturals
    agreement: float  # share of sampled hands set exactly as the fitted strategy sets them
    points: np.ndarray  # float64 sapsam.kernels.policies.POINTS_SHAPE, on the ruleset's scale
    hands: int = 0  # sampled hands it was derived from
    regret: float = float("nan")  # mean fitted EV lost on those hands (in-sample)

    @property
    def chart_lines(self):
        """Lines a person learns: those of the rows that score (a row of one line scores 0)."""
        return sum(n for n in (sum(x.row == row for x in self.lines) for row in ROWS) if n > 1)

    @property
    def rule_numbers(self):
        """The number of each of its rules: ``{"declare": 1, "score": 2, "surrender": 3}``
        (a rule the ruleset has no use for is left out and the others move up)."""
        kinds = (["declare"] if self.declares else []) + ["score"]
        kinds += ["surrender"] if np.isfinite(self.surrender_below) else []
        return {kind: n for n, kind in enumerate(kinds, 1)}

    def rules_text(self):
        """The house way's numbered rules: [(number, kind, text)], the chart's rows belonging
        to the ``score`` rule (see :meth:`describe`)."""
        text = {"declare": "Declare a natural whenever you hold one.",
                "score": "Score every legal setting from the chart; play the highest total. "
                         "On a tie keep the stronger front, then middle, then back.",
                "surrender": f"Surrender when no setting scores {self.surrender_below:g} "
                             "points or more."}
        return [(n, kind, text[kind]) for kind, n in self.rule_numbers.items()]

    def row_text(self, row, markdown=True):
        """One row of the chart in words, e.g. ``'pair of 2s to pair of 9s **2**; ...'`` (plain
        text: ``'pair of 2s to pair of 9s = 2; ...'``)."""
        lines = [x for x in self.lines if x.row == row]
        if len(lines) == 1:
            return "no points (the tie rule sets it)"
        return "; ".join(f"{x.text} **{x.points}**" if markdown else f"{x.text} = {x.points}" for x in lines)

    def describe(self, markdown=True):
        """The house way as numbered rules with its chart, in Markdown (else plain text, for a
        terminal)."""
        name = f"`{self.rules}`" if markdown else self.rules
        out = [f"House way for {name}, {self.players} players ({self.chart_lines} chart lines)"]
        for n, kind, text in self.rules_text():
            out.append(f"{n}. {text}")
            if kind == "score":
                out += [f"   - {row}: {self.row_text(row, markdown)}" for row in ROWS]
        low, high = wilson_interval(round(self.agreement * self.hands), self.hands)
        out.append(f"\n(Matches the fitted strategy's setting on {self.agreement:.0%} of "
                   f"{self.hands:,} sampled hands, 95% CI {low:.0%}-{high:.0%}.)")
        return "\n".join(out)

    def to_dict(self):
        """The chart as plain data: enough to rebuild it (:func:`from_dict`)."""
        return {"rules": self.rules, "players": self.players,
                "lines": [{"row": x.row, "from": class_label(x.first), "to": class_label(x.last),
                           "first": list(x.first), "last": list(x.last), "points": x.points}
                          for x in self.lines],
                "chart_lines": self.chart_lines,
                "surrender_below": (self.surrender_below if np.isfinite(self.surrender_below)
                                    else None),
                "declares_naturals": self.declares, "agreement_with_fitted": self.agreement,
                "hands": self.hands, "regret": self.regret}


def from_dict(data, rules):
    """A :class:`HouseWay` from :meth:`HouseWay.to_dict`'s data, for ``rules`` (a Ruleset; the
    chart may have been derived under another id for the same rules)."""
    lines = tuple(Line(x["row"], tuple(x["first"]), tuple(x["last"]), int(x["points"]))
                  for x in data["lines"])
    below = data["surrender_below"]
    below = -np.inf if below is None else float(below)
    points = points_table(lines, rules.compile().wheel_second)
    points[_kp.SURRENDER_BELOW] = below
    return HouseWay(rules.id, int(data["players"]), lines, below,
                    bool(data["declares_naturals"]), float(data["agreement_with_fitted"]),
                    points, int(data["hands"]), float(data["regret"]))


def points_table(lines, wheel):
    """The kernels' points table of a chart's lines (float64 POINTS_SHAPE, on the ruleset's
    strength scale; its surrender entry left 0)."""
    table = np.zeros(_kp.POINTS_SHAPE)
    for k, row in enumerate(ROWS):
        kind = 0 if k == 0 else 1
        low_points = np.zeros(N_STRENGTHS)
        for line in (x for x in lines if x.row == row):
            a, b = CLASS_KEYS[kind].index(line.first), CLASS_KEYS[kind].index(line.last)
            low_points[(CLASS_OF[kind] >= a) & (CLASS_OF[kind] <= b)] = line.points
        table[k, :N_STRENGTHS] = low_points[np.argsort(WHEEL_SECOND)] if wheel else low_points
    return table


def _ace_low(rows, wheel):
    """Strengths on the ace-low scale (the class tables' scale)."""
    if not wheel:
        return rows
    inverse = np.argsort(WHEEL_SECOND)
    return inverse[rows]


def as_policy(way, source):
    """A :class:`HouseWay` as a policy the kernels play."""
    from sapsam.play.policy import Policy

    return Policy("houseway", _kp.HOUSEWAY, np.zeros(_kv.TABLE_SHAPE), way.points, source)


@dataclass(frozen=True)
class HandDecision:
    """What the house way does with one hand and which of its rules decided it."""

    rule: int  # the number of the deciding rule in HouseWay.rules_text
    label: str  # as sapsam best names the decision: "front | middle | back", "natural (kind)", "surrender"
    reason: str  # the rule's reason in words
    lines: tuple  # (row, line text, points) per row of a setting; () for a natural or surrender
    total: float  # the chart total of the setting played (of the best setting when surrendering)
    tied: int  # frontier settings sharing the highest total (more than 1: the tie rule chose)

    def to_dict(self):
        return {"rule": self.rule, "decision": self.label, "reason": self.reason,
                "lines": [{"row": r, "line": t, "points": p} for r, t, p in self.lines],
                "total": self.total, "tied": self.tied}


def line_of(way, row, strength, wheel):
    """The chart line (a :class:`Line`) that scores ``strength`` (ruleset scale) in ``row``."""
    k = ROWS.index(row)
    kind = 0 if k == 0 else 1
    low = int(_ace_low(np.array([strength], np.int64), wheel)[0])
    index = CLASS_OF[kind, low]
    for line in (x for x in way.lines if x.row == row):
        if CLASS_KEYS[kind].index(line.first) <= index <= CLASS_KEYS[kind].index(line.last):
            return line
    raise ValueError(f"strength {strength} is not a {row} hand")


def decide_hand(way, hand, rules, players):
    """The house way's decision for one hand (text or 13 card codes), as the kernels play it,
    with the rule and the chart lines that decided it: a :class:`HandDecision`."""
    from sapsam.game.settings import pareto_frontier, sorted_hand
    from sapsam.kernels.naturals import NAT_KIND, NATURAL_KINDS
    from sapsam.play.seeds import CHUNKS, Stream

    cards = sorted_hand(hand)
    compiled = rules.compile()
    policy = as_policy(way, "")
    rows, natural, _, surrender = _kp.play_hands(
        cards[None], policy.arrays, compiled.arrays, rules.opposing_hands(players),
        Stream(0, "houseway").states(CHUNKS))
    numbers = way.rule_numbers
    frontier = pareto_frontier(cards, wheel_rank=str(rules.wheel_rank)).members
    totals = [sum(way.points[k, m.strengths[k]] for k in range(3)) for m in frontier]
    top = float(max(totals))
    tied = int(sum(t == top for t in totals))
    if natural[0] >= 0:
        kind = NATURAL_KINDS[compiled.naturals[natural[0], NAT_KIND]]
        return HandDecision(numbers["declare"], f"natural ({kind})",
                            f"a natural ({kind}) is declared whenever held", (), top, tied)
    if surrender[0]:
        return HandDecision(numbers["surrender"], "surrender",
                            f"no setting scores {way.surrender_below:g} points: the best scores "
                            f"{top:g}", (), top, tied)
    chosen = next(m for m in frontier if m.strengths == tuple(int(r) for r in rows[0]))
    lines = tuple((row, line_of(way, row, chosen.strengths[k], compiled.wheel_second).text,
                   int(way.points[k, chosen.strengths[k]])) for k, row in enumerate(ROWS))
    reason = f"the highest total, {top:g} points"
    if tied > 1:
        reason += (f", which {tied} settings score; the tie rule keeps the stronger front, "
                   "then middle, then back")
    return HandDecision(numbers["score"], chosen.text, reason, lines, top, tied)
