"""The house way: a point count of about a dozen lines for setting a hand, derived from a
fitted strategy, and what following it costs.

Nobody can value a hundred settings against a field's row distributions at the table; anyone
can add three numbers from a short chart.  The house way is:

1. Declare a natural whenever you hold one (in a ruleset that pays naturals).
2. Score every legal setting: front, middle and back points from the ruleset's chart (a few
   lines per row, by hand category and rank); play the highest total.  On a tie keep the
   stronger back, then the stronger middle, then the stronger front.
3. Where the ruleset allows surrender: surrender when no setting reaches the chart's total.

:func:`derive` builds the chart from the fitted strategy of a ruleset and table size:

a. Deal hands (the seed's ``houseway`` stream) and value every Pareto-frontier setting of each with the fitted table
   policy's own EV (:func:`kernels.value.setting_ev`, what the fitted strategy maximises).
b. Regress those values, within each hand (only the order inside a hand matters), on
   indicators of fine hand classes per row: category x top rank (:data:`CLASS_OF`).
c. Make each row's class values non-decreasing in hand strength (pool adjacent violators),
   then merge the classes into ``lines`` segments per row, the optimal piecewise-constant fit
   weighted by how often the classes occur (dynamic programming).
d. Refit the segment values within hands and round them to small whole points (each step
   between lines at least a point where the largest line allows, see :func:`_point_scale`).
e. Surrender total: the threshold on a hand's best total that agrees most often with the
   fitted strategy's own surrender decisions over the sample.

Its price is measured as the paired cost against the fitted strategy
(:func:`analysis.measure.compare.policy_gap`): seat 0 follows the house way against fitted players
on the same deals that seat 0 plays fitted.
"""

from dataclasses import dataclass

import numpy as np

from analysis.base.progress import shifted
from analysis.game.cards import RANKS
from analysis.game.rules import Ruleset
from analysis.game.ruleset_files import load_ruleset
from analysis.play.deal import deal_sorted_hands
from analysis.play.seeds import CHUNKS, Stream
from analysis.play.strategy_files import fitted_policy
from analysis.strategy.fit import fitted_strategy
from kernels import policies as _kp
from kernels import value as _kv
from kernels.evaluate import N_STRENGTHS, ORDINAL_TO_PACKED, RANK3_TABLE, WHEEL_SECOND
from kernels.settings import pareto_frontier_batch

ROWS = ("front", "middle", "back")
LINES = 4  # chart lines per row: 12 lines and three rules
MAX_POINTS = 40  # the strongest line of any row scores at most this
SAMPLE_HANDS = 3000


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
    points: np.ndarray  # float64 kernels.policies.POINTS_SHAPE, on the ruleset's scale

    def describe(self):
        """The house way as numbered rules with its chart, in Markdown."""
        out = [f"House way for `{self.rules}`, {self.players} players"]
        n = 1
        if self.declares:
            out.append(f"{n}. Declare a natural whenever you hold one.")
            n += 1
        out.append(f"{n}. Score every legal setting from the chart; play the highest total. "
                   "On a tie keep the stronger back, then middle, then front.")
        for row in ROWS:
            cells = [f"{line.text} **{line.points}**" for line in self.lines if line.row == row]
            out.append(f"   - {row}: " + "; ".join(cells))
        if np.isfinite(self.surrender_below):
            out.append(f"{n + 1}. Surrender when no setting scores {self.surrender_below:g} "
                       "points or more.")
        out.append(f"\n(Matches the fitted strategy's setting on {self.agreement:.0%} of "
                   f"{SAMPLE_HANDS:,} sampled hands.)")
        return "\n".join(out)


def _fitted_values(rules, players, fitted, hands):
    """Per sampled hand its frontier (rows on the ruleset's scale) and the fitted EV (strategy
    file ``fitted``) of every member: (offsets, rows, values, decisions)."""
    policy = fitted_policy(rules, players, fitted)
    compiled = rules.compile()
    wheel = compiled.wheel_second
    _, offsets, _, rows = pareto_frontier_batch(hands, wheel)
    outcome = np.empty(_kv.N_VALUES)
    _kv.outcome_values(compiled.params, outcome)
    values = _kv.frontier_values(rows, policy.tables, outcome, compiled.params, players - 1)
    return offsets, rows, values, policy


def _ace_low(rows, wheel):
    """Strengths on the ace-low scale (the class tables' scale)."""
    if not wheel:
        return rows
    inverse = np.argsort(WHEEL_SECOND)
    return inverse[rows]


def _design(offsets, rows, values, wheel, segment, progress=None):
    """Within-hand centred design (class indicators per row) and values; ``segment`` maps
    each row's fine class to a column (per row, offset into one column space).
    ``progress(hands_done, hands)`` every few hundred hands."""
    low = _ace_low(rows.astype(np.int64), wheel)
    columns = np.stack([segment[0][CLASS_OF[0, low[:, 0]]],
                        segment[1][CLASS_OF[1, low[:, 1]]],
                        segment[2][CLASS_OF[1, low[:, 2]]]], axis=1)
    n_columns = max(int(s.max()) for s in segment) + 1
    xtx = np.zeros((n_columns, n_columns))
    xty = np.zeros(n_columns)
    for h in range(len(offsets) - 1):
        a, b = offsets[h], offsets[h + 1]
        if b - a < 2:
            continue
        x = np.zeros((b - a, n_columns))
        np.add.at(x, (np.repeat(np.arange(b - a), 3), columns[a:b].ravel()), 1.0)
        x -= x.mean(axis=0)
        y = values[a:b] - values[a:b].mean()
        xtx += x.T @ x
        xty += x.T @ y
        if progress is not None and (h + 1) % 250 == 0:
            progress(h + 1, len(offsets) - 1)
    if progress is not None:
        progress(len(offsets) - 1, len(offsets) - 1)
    counts = np.bincount(columns.ravel(), minlength=n_columns)
    return xtx, xty, counts, columns


def _solve(xtx, xty):
    """Least squares (minimum norm: a row's values are fixed up to a constant)."""
    return np.linalg.lstsq(xtx + 1e-9 * np.eye(len(xty)), xty, rcond=None)[0]


def _isotonic(y, w):
    """Pool adjacent violators: the non-decreasing fit of ``y`` with weights ``w``."""
    blocks = []  # [value, weight, length]
    for v, wt in zip(y, w):
        blocks.append([v, wt, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            v2, w2, n2 = blocks.pop()
            v1, w1, n1 = blocks.pop()
            wsum = w1 + w2
            blocks.append([(v1 * w1 + v2 * w2) / wsum if wsum > 0 else (v1 + v2) / 2, wsum, n1 + n2])
    return np.concatenate([[v] * n for v, _, n in blocks])


def _segments(y, w, k):
    """Boundaries of the best ``k``-piece constant fit of ``y`` (weights ``w``): a list of
    (start, stop) index ranges covering ``y`` in order."""
    n = len(y)
    k = min(k, n)
    cw = np.concatenate([[0.0], np.cumsum(w)])
    cwy = np.concatenate([[0.0], np.cumsum(w * y)])
    cwyy = np.concatenate([[0.0], np.cumsum(w * y * y)])

    def cost(i, j):  # weighted squared error of one piece y[i:j]
        wt = cw[j] - cw[i]
        if wt <= 0:
            return 0.0
        s = cwy[j] - cwy[i]
        return (cwyy[j] - cwyy[i]) - s * s / wt

    best = np.full((k + 1, n + 1), np.inf)
    cut = np.zeros((k + 1, n + 1), np.int64)
    best[0, 0] = 0.0
    for pieces in range(1, k + 1):
        for j in range(1, n + 1):
            for i in range(pieces - 1, j):
                c = best[pieces - 1, i] + cost(i, j)
                if c < best[pieces, j]:
                    best[pieces, j], cut[pieces, j] = c, i
    bounds, j = [], n
    for pieces in range(k, 0, -1):
        i = cut[pieces, j]
        bounds.append((i, j))
        j = i
    return bounds[::-1]


_DERIVED = {}  # derive's results in this process (each takes seconds)


def derive(rules, players=4, lines=LINES, hands=SAMPLE_HANDS, seed=0, progress=None):
    """The house way of a ruleset and table size, from its fitted strategy.

    Parameters
    ----------
    rules : Ruleset or str
        A ruleset or its id; its fitted strategy is fitted now if there is none
        (:func:`analysis.strategy.fit.fitted_strategy`).
    lines : int
        Chart lines per row.
    hands, seed : int
        Sampled hands the chart is fitted on, and their seed; the house way that serves as
        a policy (``houseway``) is the one derived with seed 0.
    progress : callable, optional
        ``progress(done, total)`` as the chart is fitted (two passes over the hands).
    """
    rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
    fitted = fitted_strategy(rules, players)
    key = (rules, players, lines, hands, seed, str(fitted), fitted.stat().st_mtime_ns)
    if key not in _DERIVED:  # a refit derives anew
        _DERIVED[key] = _derive(rules, players, fitted, lines, hands, seed, progress)
    return _DERIVED[key]


def _derive(rules_obj, players, fitted, lines, hands, seed, progress):
    if lines < 1:
        raise ValueError(f"lines must be at least 1, got {lines}")
    compiled = rules_obj.compile()
    wheel = compiled.wheel_second
    stream = Stream(seed, "houseway")
    sample = deal_sorted_hands(hands, stream)
    offsets, rows, values, policy = _fitted_values(rules_obj, players, fitted, sample)
    n_fine = [len(CLASS_KEYS[0]), len(CLASS_KEYS[1]), len(CLASS_KEYS[1])]
    # b. fine classes: one column per (row, class)
    starts = np.cumsum([0] + n_fine[:-1])
    fine = [starts[k] + np.arange(n_fine[k]) for k in range(3)]
    xtx, xty, counts, _ = _design(offsets, rows, values, wheel, fine,
                                  shifted(progress, 0, 2 * hands))
    beta = _solve(xtx, xty)
    # c. monotone per row, then k segments weighted by occurrence
    segment = []
    next_column = 0
    bounds_per_row = []
    for k in range(3):
        y = beta[fine[k]]
        w = counts[fine[k]].astype(float)
        seen = w > 0
        y = np.where(seen, y, 0.0)
        y = _isotonic(y, np.where(seen, w, 1e-12))
        bounds = _segments(y, w, lines)
        column = np.empty(n_fine[k], np.int64)
        for i, (a, b) in enumerate(bounds):
            column[a:b] = next_column + i
        segment.append(column)
        bounds_per_row.append(bounds)
        next_column += len(bounds)
    # d. refit the segments, scale, round
    xtx, xty, counts, columns = _design(offsets, rows, values, wheel, segment,
                                        shifted(progress, hands, 2 * hands))
    seg_values = _solve(xtx, xty)
    lines_out, table = [], np.zeros(_kp.POINTS_SHAPE)
    per_row = []
    for k in range(3):
        ids = np.unique(segment[k])
        v = np.maximum.accumulate(seg_values[ids])  # keep the chart increasing
        per_row.append(v - v[0])  # a row's weakest line scores 0
    scale = _point_scale(per_row)
    for k in range(3):
        ids = np.unique(segment[k])
        pts = np.rint(per_row[k] * scale).astype(int)
        kind = 0 if k == 0 else 1
        keys = CLASS_KEYS[kind]
        for i, (a, b) in enumerate(bounds_per_row[k]):
            lines_out.append(Line(ROWS[k], keys[a], keys[b - 1], int(pts[i])))
        # points of every strength (ace-low ordinal), then on the ruleset's scale
        strengths = np.flatnonzero(CLASS_OF[kind] >= 0)
        low_points = np.zeros(N_STRENGTHS)
        seg_of_class = segment[k] - segment[k].min()
        low_points[strengths] = pts[seg_of_class[CLASS_OF[kind, strengths]]]
        table[k, :N_STRENGTHS] = low_points[np.argsort(WHEEL_SECOND)] if wheel else low_points
    # e. surrender threshold and agreement with the fitted decisions
    totals = np.array([_best_total(table, rows[offsets[h]:offsets[h + 1]])
                       for h in range(len(offsets) - 1)])
    table[_kp.SURRENDER_BELOW] = -np.inf
    if compiled.surrender_allowed:
        fitted_surrenders = _play(policy, rules_obj, players, sample, stream)[3]
        table[_kp.SURRENDER_BELOW] = _threshold(totals, fitted_surrenders)
    agreement = _agreement(table, policy, rules_obj, players, sample, stream)
    return HouseWay(rules_obj.id, players, tuple(lines_out), float(table[_kp.SURRENDER_BELOW]),
                    len(compiled.naturals) > 0, agreement, table)


def _point_scale(per_row):
    """Points per unit of value: every step between adjacent lines worth at least one point
    (rounding must not merge lines), and no line above :data:`MAX_POINTS`; the rare hands with
    big royalties (quads in the back) do not squeeze the common ones."""
    values = np.concatenate(per_row)
    steps = np.concatenate([np.diff(v) for v in per_row])
    steps = steps[steps > 1e-9]
    if values.max() <= 0 or len(steps) == 0:
        return 1.0
    return min(1.0 / steps.min(), MAX_POINTS / values.max())


def _best_total(table, rows):
    rows = rows.astype(np.int64)
    return float((table[0, rows[:, 0]] + table[1, rows[:, 1]] + table[2, rows[:, 2]]).max())


def _play(policy, rules, players, hands, stream):
    """What a policy does with each hand (its choices from ``stream``'s child 1):
    (rows, natural, key, surrender)."""
    compiled = rules.compile()
    return _kp.play_hands(hands, policy.code, policy.tables, policy.points, compiled.params,
                          compiled.naturals, players - 1, stream.child(1).states(CHUNKS))


def _threshold(totals, surrenders):
    """The total below which surrendering agrees most often with ``surrenders``."""
    if not surrenders.any():
        return -np.inf
    candidates = np.unique(totals)
    agree = [((totals < t) == surrenders).mean() for t in np.append(candidates, np.inf)]
    best = int(np.argmax(agree))
    if ((totals < -np.inf) == surrenders).mean() >= agree[best]:
        return -np.inf
    return float(np.append(candidates, np.inf)[best])


def _agreement(table, policy, rules, players, hands, stream):
    """Share of hands the house way sets (or declares, surrenders) as the fitted one does."""
    from analysis.play.policy import Policy

    house = Policy("houseway", _kp.HOUSEWAY, np.zeros(_kv.TABLE_SHAPE), table, "")
    mine = _play(house, rules, players, hands, stream)
    theirs = _play(policy, rules, players, hands, stream)
    same = np.all(mine[0] == theirs[0], axis=1) & (mine[1] == theirs[1]) & (mine[3] == theirs[3])
    return float(same.mean())




def as_policy(way, source):
    """A :class:`HouseWay` as a policy the kernels play."""
    from analysis.play.policy import Policy

    return Policy("houseway", _kp.HOUSEWAY, np.zeros(_kv.TABLE_SHAPE), way.points, source)
