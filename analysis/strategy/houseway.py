"""The house way: a point count of a dozen lines for setting a hand, derived from a fitted
strategy, and what following it costs.

Nobody can value a hundred settings against a field's row distributions at the table; anyone
can add three numbers from a short chart.  The house way is:

1. Declare a natural whenever you hold one (in a ruleset that pays naturals).
2. Score every legal setting from the chart (a few lines per row, by hand category and the rank
   of its leading group); play the highest total.  On a tie keep the stronger front, then the
   stronger middle, then the stronger back.
3. Where the ruleset allows surrender: surrender when no setting reaches the chart's total.

The tie rule carries much of the chart: among settings of equal points it puts the best cards in
front, where kickers decide most rows (with the stronger *back* first, the same dozen lines cost
twice as much).

:func:`derive` builds the chart from the fitted strategy of a ruleset and table size:

a. Deal hands (the seed's ``houseway`` stream) and value every Pareto-frontier setting of each
   with the fitted policy's own EV (:func:`sapsam.kernels.value.setting_ev`, what it maximises).
b. Regress those values, within each hand (only the order inside a hand matters), on
   indicators of fine hand classes per row: category x top rank (:data:`CLASS_OF`), and make
   each row's class values non-decreasing in hand strength (pool adjacent violators).
c. For every way to share the ``lines`` among the rows, merge the classes into that many
   segments per row (the optimal piecewise-constant fit weighted by how often the classes
   occur, dynamic programming) and round the segment values to whole points; keep the share
   whose chart loses least.
d. Improve that chart by local search, moving boundaries between lines and changing points
   one at a time while the mean regret falls: the fitted EV of each sampled hand's best
   setting less that of the setting the chart picks (ties broken as rule 2 says).
e. Surrender total: the threshold on a hand's best total that agrees most often with the
   fitted strategy's own surrender decisions over the sample.

A row given a single line scores nothing and needs no line on the chart (the tie rule sets it),
so ``lines`` counts the lines of the rows that score.  The derived chart of a named ruleset
ships with the package (``houseways/``, keyed by the fitted strategy's contents) and one derived
on demand is cached beside the user's fits, so the ``houseway`` policy starts at once.  Its price
is the paired cost against fitted (:func:`sapsam.measure.compare.policy_gap`).
"""

import hashlib
import json
from pathlib import Path

import numpy as np

from sapsam.base.files import provenance, write_json
from sapsam.base.fits import isotonic, segmentations
from sapsam.base.progress import shifted
from sapsam.game.rules import Ruleset
from sapsam.game.ruleset_files import load_ruleset
from sapsam.kernels import policies as _kp
from sapsam.kernels import value as _kv
from sapsam.kernels.settings import pareto_frontier_batch
from sapsam.play.deal import deal_sorted_hands
from sapsam.play.seeds import CHUNKS, Stream
from sapsam.play.strategy_files import fitted_policy, on_demand_dir
from sapsam.strategy.fit import fitted_strategy
from sapsam.strategy.houseway_chart import (  # noqa: F401 (the chart's names, re-exported)
    CLASS_KEYS,
    CLASS_OF,
    ROWS,
    HouseWay,
    Line,
    _ace_low,
    as_policy,
    class_label,
    from_dict,
    points_table,
    require_house_way,
)

LINES = 12  # chart lines (of the rows that score) of the house way every command plays
MAX_POINTS = 50  # the strongest line of any row scores at most this
SAMPLE_HANDS = 10000
METHOD = 2  # the derivation's version: a cached chart of another version is derived anew
SHIPPED_DIR = Path(__file__).resolve().parent / "houseways"


def _fitted_values(rules, players, fitted, hands):
    """Per sampled hand its frontier (rows on the ruleset's scale) and the fitted EV (strategy
    file ``fitted``) of every member: (offsets, rows, values, decisions)."""
    policy = fitted_policy(rules, players, fitted)
    compiled = rules.compile()
    wheel = compiled.wheel_second
    _, offsets, _, rows = pareto_frontier_batch(hands, wheel)
    outcome = np.empty(_kv.N_VALUES)
    _kv.outcome_values(compiled.params, outcome)
    values = _kv.frontier_values(rows, policy.tables, outcome, compiled.params, rules.opposing_hands(players))
    return offsets, rows, values, policy


def _design(offsets, rows, values, wheel, segment, progress=None):
    """Normal equations of the within-hand centred regression of the values on class
    indicators per row; ``segment`` maps each row's fine class to a column (per row, offset
    into one column space).  Returns (xtx, xty, counts, columns).

    Centring within a hand: X'X = sum of the members' indicator outer products less, per
    hand, its column sums' outer product over its size; X'y likewise from the values less
    their hand mean.  ``progress(hands_done, hands)`` once done."""
    low = _ace_low(rows.astype(np.int64), wheel)
    columns = np.stack([segment[0][CLASS_OF[0, low[:, 0]]],
                        segment[1][CLASS_OF[1, low[:, 1]]],
                        segment[2][CLASS_OF[1, low[:, 2]]]], axis=1)
    n_columns = max(int(s.max()) for s in segment) + 1
    hands = len(offsets) - 1
    size = np.diff(offsets)
    hand = np.repeat(np.arange(hands), size)
    xtx = np.zeros(n_columns * n_columns)
    for a in range(3):
        for b in range(3):
            xtx += np.bincount(columns[:, a] * n_columns + columns[:, b],
                               minlength=n_columns * n_columns)
    xtx = xtx.reshape(n_columns, n_columns)
    sums = np.zeros((hands, n_columns))
    for a in range(3):
        np.add.at(sums, (hand, columns[:, a]), 1.0)
    xtx -= sums.T @ (sums / size[:, None])
    centred = values - (np.add.reduceat(values, offsets[:-1]) / size)[hand]
    xty = sum(np.bincount(columns[:, a], centred, minlength=n_columns) for a in range(3))
    if progress is not None:
        progress(hands, hands)
    counts = np.bincount(columns.ravel(), minlength=n_columns)
    return xtx, xty, counts, columns


def _solve(xtx, xty):
    """Least squares (minimum norm: a row's values are fixed up to a constant)."""
    return np.linalg.lstsq(xtx + 1e-9 * np.eye(len(xty)), xty, rcond=None)[0]


def _shares(lines, sizes):
    """Every way to give ``lines`` chart lines to the rows: (segments per row) with a row of
    one segment costing no line and no row more segments than it has classes."""
    out = []
    for f in range(1, min(lines, sizes[0]) + 1):
        for m in range(1, min(lines, sizes[1]) + 1):
            for b in range(1, min(lines, sizes[2]) + 1):
                if sum(x for x in (f, m, b) if x > 1) == lines:
                    out.append((f, m, b))
    return out


class _Regret:
    """What a chart loses on the sample: per hand, the fitted EV of its best frontier setting
    less that of the setting the chart picks (highest total; ties to the stronger front, then
    middle, then back, as the kernel breaks them).  Charts are per row (starts, points):
    the first fine class of each line and its points.

    The members of each hand are kept in the tie rule's order, so that the pick is the first
    member with the hand's highest total."""

    def __init__(self, offsets, rows, values, wheel):
        r = rows.astype(np.int64)
        hand = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
        order = np.lexsort((-r[:, 2], -r[:, 1], -r[:, 0], hand))  # strengths < 2 ** 13
        low = _ace_low(r[order], wheel)
        self.classes = [CLASS_OF[0, low[:, 0]], CLASS_OF[1, low[:, 1]], CLASS_OF[1, low[:, 2]]]
        self.starts = offsets[:-1]
        self.hand = hand
        self.values = values[order]
        self.best = np.maximum.reduceat(values, self.starts)
        self.position = np.arange(len(values))

    def picks(self, chart):
        """Index (in the tie rule's order) of the member the chart picks in each hand."""
        total = 0
        for k, (starts, points) in enumerate(chart):
            n = len(CLASS_KEYS[0 if k == 0 else 1])
            line = np.searchsorted(np.asarray(starts), np.arange(n), side="right") - 1
            total = total + np.asarray(points, np.int32)[line][self.classes[k]]
        top = total == np.maximum.reduceat(total, self.starts)[self.hand]
        return np.minimum.reduceat(np.where(top, self.position, len(self.position)), self.starts)

    def __call__(self, chart):
        return float((self.best - self.values[self.picks(chart)]).mean())


def _initial(y, w, share, cuts):
    """Starting chart of a share: each row's segments (from ``cuts[k][n]``) valued at the
    weighted mean of its classes, on one point scale (the largest line at MAX_POINTS), rounded."""
    values = []
    for k, n in enumerate(share):
        v = np.array([np.average(y[k][a:b], weights=w[k][a:b] + 1e-12) for a, b in cuts[k][n]])
        v = np.maximum.accumulate(v)
        values.append(v - v[0])
    top = max(float(v.max()) for v in values)
    scale = MAX_POINTS / top if top > 0 else 1.0
    return [([a for a, _ in cuts[k][n]], [int(p) for p in np.rint(values[k] * scale)])
            for k, n in enumerate(share)]


def _moves(chart):
    """Charts one step from ``chart``: a boundary between two lines moved, or a line's points
    changed, keeping each row's points non-decreasing from 0 and at most MAX_POINTS."""
    for k, (starts, points) in enumerate(chart):
        n = len(CLASS_KEYS[0 if k == 0 else 1])
        for i in range(1, len(starts)):
            for d in (-8, -5, -3, -2, -1, 1, 2, 3, 5, 8):
                moved = list(starts)
                moved[i] += d
                upper = moved[i + 1] if i + 1 < len(moved) else n
                if moved[i - 1] < moved[i] < upper:
                    yield [c if j != k else (moved, points) for j, c in enumerate(chart)]
        for i in range(1, len(points)):
            for d in (-5, -3, -2, -1, 1, 2, 3, 5):
                changed = list(points)
                changed[i] += d
                upper = changed[i + 1] if i + 1 < len(changed) else MAX_POINTS
                if changed[i - 1] <= changed[i] <= upper:
                    yield [c if j != k else (starts, changed) for j, c in enumerate(chart)]


def _improve(chart, regret, progress=None):
    """Local search: take any move that lowers the regret until none does; (chart, regret)."""
    current = regret(chart)
    improved, rounds = True, 0
    while improved:
        improved = False
        for moved in _moves(chart):
            value = regret(moved)
            if value < current - 1e-12:
                chart, current, improved = moved, value, True
        rounds += 1
        if progress is not None:
            progress(rounds, rounds + 1 if improved else rounds)
    return chart, current


_DERIVED = {}  # derive's results in this process


def derive(rules, players=4, lines=LINES, hands=SAMPLE_HANDS, seed=0, progress=None):
    """The house way of a ruleset and table size, from its fitted strategy.

    Parameters
    ----------
    rules : Ruleset or str
        A ruleset (with a high middle) or its id; its fitted strategy is fitted now if none.
    lines : int
        Chart lines in all (at least 2; the rows that score share them).
    hands, seed : int
        Sampled hands the chart is fitted on, and their seed; the house way that serves as
        a policy (``houseway``) is the one derived with the defaults.
    progress : callable, optional
        ``progress(done, total)`` as the chart is fitted (regression's hands, search's rounds).

    With the defaults it is read from the package or the user's cache if derived from the
    same fitted strategy by this method; else derived now (seconds) and cached.
    """
    rules = rules if isinstance(rules, Ruleset) else load_ruleset(rules)
    require_house_way(rules)
    if lines < 2:
        raise ValueError(f"a house way needs at least 2 chart lines, got {lines}")
    fitted = fitted_strategy(rules, players)
    digest = _digest(fitted)
    key = (rules, players, lines, hands, seed, digest)
    if key in _DERIVED:
        return _DERIVED[key]
    default = (lines, hands, seed) == (LINES, SAMPLE_HANDS, 0)
    name = f"{rules.id}-{players}p.json"
    cached = f"houseway-{digest[:16]}-{players}p.json"
    for path in (SHIPPED_DIR / name, on_demand_dir() / cached) if default else ():
        way = _read_cached(path, rules, players, digest)
        if way is not None:
            _DERIVED[key] = way
            return way
    way = _derive(rules, players, fitted, lines, hands, seed, progress)
    if default:
        save(way, on_demand_dir() / cached, digest)
    _DERIVED[key] = way
    return way


def save(way, path, digest, missing_ok=True):
    """Write a house way (:meth:`HouseWay.to_dict`) with the sha256 of the fitted strategy it
    was derived from; a folder that cannot be written is skipped if ``missing_ok`` (the chart
    is derived again next time)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_json(path, {**way.to_dict(), "strategy_sha256": digest, "method": METHOD,
                          **provenance()})
    except OSError:
        if not missing_ok:
            raise
    return path


def ship_chart(way):
    """Store a house way derived with the defaults in the package (``houseways/``), where
    :func:`derive` finds it while the fitted strategy is the same; returns the path."""
    if way.hands != SAMPLE_HANDS:
        raise ValueError("only the house way derived with the defaults ships")
    rules = load_ruleset(way.rules)
    digest = _digest(fitted_strategy(rules, way.players))
    return save(way, SHIPPED_DIR / f"{way.rules}-{way.players}p.json", digest, missing_ok=False)


def _digest(path):  # of a fitted strategy file
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _read_cached(path, rules, players, digest):
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if (data.get("strategy_sha256") != digest or data.get("method") != METHOD
            or data.get("players") != players):
        return None
    return from_dict(data, rules)


def _derive(rules_obj, players, fitted, lines, hands, seed, progress):
    compiled = rules_obj.compile()
    wheel = compiled.wheel_second
    stream = Stream(seed, "houseway")
    sample = deal_sorted_hands(hands, stream)
    offsets, rows, values, policy = _fitted_values(rules_obj, players, fitted, sample)
    # b. fine classes: one column per (row, class); monotone values per row
    sizes = [len(CLASS_KEYS[0]), len(CLASS_KEYS[1]), len(CLASS_KEYS[1])]
    starts = np.cumsum([0] + sizes[:-1])
    fine = [starts[k] + np.arange(sizes[k]) for k in range(3)]
    xtx, xty, counts, _ = _design(offsets, rows, values, wheel, fine,
                                  shifted(progress, 0, 2 * hands))
    beta = _solve(xtx, xty)
    y, w, cuts = [], [], []
    for k in range(3):
        wk = counts[fine[k]].astype(float)
        seen = wk > 0
        yk = isotonic(np.where(seen, beta[fine[k]], 0.0), np.where(seen, wk, 1e-12))
        y.append(yk)
        w.append(wk)
        cuts.append(segmentations(yk, wk, lines))
    # c. the best share of the lines among the rows, from its starting chart
    regret = _Regret(offsets, rows, values, wheel)
    start = min((_initial(y, w, share, cuts) for share in _shares(lines, sizes)), key=regret)
    # d. local search
    chart, loss = _improve(start, regret, _search_progress(progress, hands))
    lines_out = []
    for k, (first, points) in enumerate(chart):
        keys = CLASS_KEYS[0 if k == 0 else 1]
        bounds = list(first[1:]) + [len(keys)]
        lines_out += [Line(ROWS[k], keys[a], keys[b - 1], int(p))
                      for a, b, p in zip(first, bounds, points)]
    table = points_table(lines_out, wheel)
    # e. surrender threshold and agreement with the fitted decisions
    totals = np.array([_best_total(table, rows[offsets[h]:offsets[h + 1]])
                       for h in range(len(offsets) - 1)])
    table[_kp.SURRENDER_BELOW] = -np.inf
    if compiled.surrender_allowed:
        fitted_surrenders = _play(policy, rules_obj, players, sample, stream)[3]
        table[_kp.SURRENDER_BELOW] = _threshold(totals, fitted_surrenders)
    agreement = _agreement(table, policy, rules_obj, players, sample, stream)
    return HouseWay(rules_obj.id, players, tuple(lines_out), float(table[_kp.SURRENDER_BELOW]),
                    len(compiled.naturals) > 0, agreement, table, hands, loss)


def _search_progress(progress, hands):
    """The search's rounds as derive's second half (each round expects one more until none
    improves)."""
    if progress is None:
        return None
    return lambda done, total: progress(hands + hands * done // max(total, 1), 2 * hands)


def _best_total(table, rows):
    rows = rows.astype(np.int64)
    return float((table[0, rows[:, 0]] + table[1, rows[:, 1]] + table[2, rows[:, 2]]).max())


def _play(policy, rules, players, hands, stream):
    """What a policy does with each hand (its choices from ``stream``'s child 1):
    (rows, natural, key, surrender)."""
    compiled = rules.compile()
    return _kp.play_hands(hands, policy.arrays, compiled.arrays, rules.opposing_hands(players),
                          stream.child(1).states(CHUNKS))


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
    from sapsam.play.policy import Policy

    house = Policy("houseway", _kp.HOUSEWAY, np.zeros(_kv.TABLE_SHAPE), table, "")
    mine = _play(house, rules, players, hands, stream)
    theirs = _play(policy, rules, players, hands, stream)
    same = np.all(mine[0] == theirs[0], axis=1) & (mine[1] == theirs[1]) & (mine[3] == theirs[3])
    return float(same.mean())
