"""Card removal: a field's row strengths as they are when a given hand is out of the pack.

A ``table`` policy values a setting against the field's per-row strength distributions
(:func:`sapsam.kernels.value.ev_tables`), the same for every hand.  But the opponents are dealt
from the cards the hand leaves: holding three aces, an opponent's pair of aces in front is
rare; holding seven spades, a spade flush behind is too.  A best response knows this, and
it is most of what it gains over such a policy (measured in ``docs/cli.md``, "Fitted
strategies and exploitability").

The model.  Each row's strengths are cut into :data:`N_BINS` bins of about equal field mass.
Given a hand with features ``x`` (:func:`hand_features`: how many of each rank it holds and
its three longest suits, and what is not linear in them, less the field's means ``xmean``), bin ``b`` of row ``k`` holds
``mass[k, b] * (1 + gamma[k, b] @ x)`` of the field (cut at zero, then renormalised); within
a bin the strengths keep the field's shares.  ``gamma`` is fitted by least squares on pairs of
(a hand, the rows an opponent at its table played) (:mod:`sapsam.strategy.fit`): a linear
likelihood ratio per bin.

What a setting's value needs of one row at one strength (win, tie and loss chances, and the
row's own units, :data:`sapsam.kernels.value.GAIN`) is then the field's entry corrected by
sums over bins, each prepared once per hand (:func:`prepare`) and read in O(1) per lookup
(:func:`row_entry`): a hand's correction costs a few microseconds, not a new table.

The rows of one opponent are set together, not drawn apart: the chance that a setting wins
all three (a sweep) or loses all three is not the product of the rows' chances.  A model may
carry the field's copula (:func:`field_copula`): the joint distribution of an opponent's three
rows, each by its place in its row's field (mid-rank, 0 to 1), on a grid of
:data:`N_GRID` steps, read at the setting's (corrected) chances by trilinear interpolation
(:func:`sweep_chances`).  For rows drawn apart it is the product, exactly.
"""

from collections import namedtuple

import numpy as np

from sapsam.kernels import settle as S
from sapsam.kernels.compiler import njit
from sapsam.kernels.evaluate import CATEGORY_OF, N_STRENGTHS

WIN, TIE = 0, 1  # sapsam.kernels.value's table columns (which imports this module)
N_BINS = 64  # bins of each row's strengths, of about equal field mass
N_GRID = 16  # steps of the copula's grid (sweep_chances)
# The features (:func:`hand_features`): rank counts (13) and the three longest suits' lengths,
# the model of 2026-11-28 (BASE_FEATURES); then, per rank, whether it is held exactly twice, three
# and four times (39), and the three suit lengths squared and cubed (6).  A model reads its own
# first ``xmean.shape[0]`` of them, so a fit with the first 16 keeps its decisions.  On
# criss-cross's self-play, the held-out log-likelihood an opposing row's bin gains over the field
# rose from 0.05, 0.12, 0.18 nats (front, middle, back) with 16 features to 0.19, 0.26, 0.39 with
# all of them: 26 known cards move the field much more than linearly in each count.
BASE_FEATURES = 16
N_FEATURES = BASE_FEATURES + 39 + 6
# the per-bin constants (Removal.bins_sum's last axis): field mass, mass times the row's payment,
# mass times its royalty (``always`` mode), win chance at the bin's first strength, and the
# payments owed above its last strength
B_MASS, B_PAY, B_ROYALTY, B_WIN_FIRST, B_ABOVE_LAST = range(5)
# per strength (Removal.rows' last axis): the row's payment when it wins, the royalty it earns
# (``always`` mode), and what the field's stronger rows of that row are paid
R_PAY, R_EARNED, R_ABOVE = range(3)
# a policy's card-removal model as the kernels take it: ``gamma`` float64 (3, F, N_BINS) with F at
# least the model's features (feature-major, the transpose of a fit's (3, N_BINS, F): a hand's
# correction adds whole runs of bins, which the CPU does several at a time, where a sum over
# each bin's features waits on every addition before the next), ``xmean`` float64 (the
# model's features: BASE_FEATURES or N_FEATURES; empty: no model), ``bin_of`` int64
# (3, N_STRENGTHS + 1),
# ``bins_sum`` float64 (3, N_BINS, 5), ``rows`` float64 (3, N_STRENGTHS + 1, 3) (its slot
# N_STRENGTHS, column R_EARNED, holds the field's mean royalty of the row), ``copula`` float64
# (2, N_GRID + 1, N_GRID + 1, N_GRID + 1) (field_copula; (2, 0, 0, 0) or zeros: none)
Removal = namedtuple("Removal", ["gamma", "xmean", "bin_of", "bins_sum", "rows", "copula"])


def no_removal():
    """The model of a policy without one (every kernel takes the same types)."""
    return Removal(np.zeros((3, 0, 0)), np.zeros(0), np.zeros((3, 0), np.int64),
                   np.zeros((3, 0, 5)), np.zeros((3, 0, 3)), no_copula())


def no_copula():
    """The copula of a model without one."""
    return np.zeros((2, 0, 0, 0))


def stack_removals(models):
    """Models (:class:`Removal`, some empty) stacked along a first axis, as a simulation takes
    them: (a Removal of (M, ...) arrays, zeros where a model has none or fewer features than
    N_FEATURES; int64 (M,) each model's features, 0 for none).  A model is its slice
    ``xmean[m, :features[m]]`` (with ``gamma[m]``, whose further features are zeros)."""
    features = np.array([m.xmean.shape[0] for m in models], np.int64)
    full = Removal(np.zeros((3, N_FEATURES, N_BINS)), np.zeros(N_FEATURES),
                   np.zeros((3, N_STRENGTHS + 1), np.int64), np.zeros((3, N_BINS, 5)),
                   np.zeros((3, N_STRENGTHS + 1, 3)), np.zeros((2,) + (N_GRID + 1,) * 3))

    def padded(model, field):
        array, room = np.asarray(getattr(model, field)), getattr(full, field)
        if not model.xmean.shape[0] or not array.size:
            return room
        if field == "xmean":
            out = np.zeros_like(room)
            out[:array.shape[0]] = array
            return out
        if field == "gamma":
            out = np.zeros_like(room)
            out[:, :array.shape[1]] = array
            return out
        return array

    stacked = Removal(*(np.stack([padded(m, f) for m in models]) for f in Removal._fields))
    return stacked, features


@njit(cache=True)
def hand_features(hand, other, out):
    """The features of the cards a player holds, a hand and its ``other`` (criss-cross's second
    hand; none elsewhere), into ``out`` (N_FEATURES,): how many cards of each rank (deuce
    first), then the three longest suits' lengths, longest first; then whether each rank is
    held exactly twice (13), three times (13) and four times (13); then those three suit
    lengths squared and cubed."""
    out[:] = 0.0
    suits = np.zeros(4, np.int64)
    for c in hand:
        out[c >> 2] += 1.0
        suits[c & 3] += 1
    for c in other:
        out[c >> 2] += 1.0
        suits[c & 3] += 1
    for i in range(1, 4):  # ascending (an insertion sort: np.sort compiles for a second)
        length, j = suits[i], i - 1
        while j >= 0 and suits[j] > length:
            suits[j + 1] = suits[j]
            j -= 1
        suits[j + 1] = length
    for i in range(3):
        length = float(suits[3 - i])
        out[13 + i] = length
        out[BASE_FEATURES + 39 + i] = length * length
        out[BASE_FEATURES + 42 + i] = length * length * length
    for r in range(13):
        held = int(out[r])
        if held >= 2:
            out[BASE_FEATURES + 13 * (held - 2) + r] = 1.0


def removal_edges(row_mass, bins=N_BINS):
    """Where each row's bins start: cuts at equal steps of the field's cumulative mass, each
    strength in the bin its mid-point of cumulative mass falls in (int64 (3, bins), the first
    strength of each bin, non-decreasing; a bin that starts where the next does is empty)."""
    edges = np.zeros((3, bins), np.int64)
    for k in range(3):
        mid = np.cumsum(row_mass[k]) - row_mass[k] / 2
        bin_of = np.minimum((mid * bins).astype(np.int64), bins - 1)
        edges[k] = np.searchsorted(bin_of, np.arange(bins), side="left")
    edges[:, 0] = 0
    return edges


def bins_of_edges(edges):
    """Each strength's bin per row, from :func:`removal_edges` (int64 (3, N_STRENGTHS + 1); the
    slot N_STRENGTHS, no strength, in the last bin)."""
    strengths = np.arange(N_STRENGTHS + 1)
    return np.stack([np.searchsorted(edges[k], strengths, side="right") - 1 for k in range(3)])


@njit(cache=True)
def many_features(hands, paired, out):
    """:func:`hand_features` of many hands (n, 13) into ``out`` (n, N_FEATURES); with ``paired``,
    hand ``i``'s other is hand ``i ^ 1`` (criss-cross's two hands of a player)."""
    for i in range(hands.shape[0]):
        hand_features(hands[i], hands[i ^ 1] if paired else hands[i, :0], out[i])


def field_copula(rows, row_mass, grid=N_GRID):
    """The copula of a field's settings: ``rows`` int (n, 3), the strength triples its players
    set, each row placed in the field ``row_mass`` (3, N_STRENGTHS) by its mid-rank ``u`` (the
    mass below it and half its own).  float64 (2, grid + 1, grid + 1, grid + 1): at
    ``[0, i, j, l]`` the share of settings whose three rows have ``u`` below ``i / grid``,
    ``j / grid``, ``l / grid``; at ``[1, i, j, l]`` the share with ``1 - u`` below them.  A
    setting whose rows win with chances (a, b, c) sweeps an opponent with chance ``[0]`` at
    (a, b, c), and is swept, its rows losing with chances (a, b, c), with ``[1]`` at them (a
    row's strength ``s`` beats exactly the rows whose ``u`` is below the chance that ``s``
    wins)."""
    rows = np.asarray(rows, np.int64)
    below = np.cumsum(row_mass, axis=1) - row_mass
    u = np.stack([below[k, rows[:, k]] + row_mass[k, rows[:, k]] / 2 for k in range(3)], axis=1)
    out = np.zeros((2, grid + 1, grid + 1, grid + 1))
    for side, place in enumerate((u, 1.0 - u)):
        step = np.minimum((place * grid).astype(np.int64), grid - 1)  # below i/grid: step < i
        counts = np.zeros((grid,) * 3)
        np.add.at(counts, (step[:, 0], step[:, 1], step[:, 2]), 1.0)
        out[side, 1:, 1:, 1:] = counts.cumsum(0).cumsum(1).cumsum(2) / max(len(rows), 1)
    return out


@njit(cache=True, inline="always")
def _read_copula(copula, side, a, b, c):
    """Trilinear interpolation of ``copula[side]`` at (a, b, c) in [0, 1]^3."""
    grid = copula.shape[1] - 1
    x = min(max(a, 0.0), 1.0) * grid  # corrected chances can stray past 0 or 1 by rounding
    y = min(max(b, 0.0), 1.0) * grid
    z = min(max(c, 0.0), 1.0) * grid
    i, j, k = min(int(x), grid - 1), min(int(y), grid - 1), min(int(z), grid - 1)
    x, y, z = x - i, y - j, z - k
    g = copula[side]
    near = ((g[i, j, k] * (1.0 - z) + g[i, j, k + 1] * z) * (1.0 - y)
            + (g[i, j + 1, k] * (1.0 - z) + g[i, j + 1, k + 1] * z) * y)
    far = ((g[i + 1, j, k] * (1.0 - z) + g[i + 1, j, k + 1] * z) * (1.0 - y)
           + (g[i + 1, j + 1, k] * (1.0 - z) + g[i + 1, j + 1, k + 1] * z) * y)
    return near * (1.0 - x) + far * x


@njit(cache=True, inline="always")
def has_copula(removal):
    """Whether a model carries a field copula (a stacked model without one has zeros)."""
    c = removal.copula
    return c.shape[1] > 0 and c[0, c.shape[1] - 1, c.shape[2] - 1, c.shape[3] - 1] > 0.0


@njit(cache=True, inline="always")
def sweep_chances(removal, f0, m0, b0, f2, m2, b2):
    """The chances that a setting sweeps an opponent and is swept by one, its rows winning
    with chances ``f0, m0, b0`` and losing with ``f2, m2, b2``: from the model's copula, or the
    products where it has none."""
    if has_copula(removal):
        return (_read_copula(removal.copula, 0, f0, m0, b0),
                _read_copula(removal.copula, 1, f2, m2, b2))
    return f0 * m0 * b0, f2 * m2 * b2


@njit(cache=True)
def removal_model(row_mass, gamma, xmean, bin_of, params, royalty, copula):
    """The kernels' :class:`Removal` of a field (``row_mass`` (3, N_STRENGTHS)) with its fitted
    ``gamma`` (3, N_BINS, F), as a fit stores it, and feature means ``xmean`` under a compiled
    ruleset: the per-bin and per-strength constants :func:`row_entry` reads, paid as
    :func:`sapsam.kernels.value.ev_tables` pays, and ``gamma`` feature-major; ``copula`` from
    :func:`field_copula`, or :func:`no_copula`."""
    bins = gamma.shape[1]
    bins_sum = np.zeros((3, bins, 5))
    rows = np.zeros((3, N_STRENGTHS + 1, 3))
    for k in range(3):
        mean_royalty = 0.0
        for s in range(N_STRENGTHS):
            rows[k, s, R_PAY], rows[k, s, R_EARNED] = S.row_pay(params, royalty[k, CATEGORY_OF[s]])
            mean_royalty += row_mass[k, s] * rows[k, s, R_EARNED]
        rows[k, N_STRENGTHS, R_EARNED] = mean_royalty
        above = 0.0
        for s in range(N_STRENGTHS - 1, -1, -1):
            rows[k, s, R_ABOVE] = above
            above += row_mass[k, s] * rows[k, s, R_PAY]
        below = 0.0
        for b in range(bins):
            bins_sum[k, b, B_WIN_FIRST] = -1.0  # set at the bin's first strength
        for s in range(N_STRENGTHS):
            b = bin_of[k, s]
            if bins_sum[k, b, B_WIN_FIRST] < 0.0:
                bins_sum[k, b, B_WIN_FIRST] = below
            bins_sum[k, b, B_MASS] += row_mass[k, s]
            bins_sum[k, b, B_PAY] += row_mass[k, s] * rows[k, s, R_PAY]
            bins_sum[k, b, B_ROYALTY] += row_mass[k, s] * rows[k, s, R_EARNED]
            bins_sum[k, b, B_ABOVE_LAST] = rows[k, s, R_ABOVE]
            below += row_mass[k, s]
        for b in range(bins):
            if bins_sum[k, b, B_WIN_FIRST] < 0.0:
                bins_sum[k, b, B_WIN_FIRST] = below
    # feature-major, copied by loops: a transpose and ascontiguousarray compile for seconds
    major = np.empty((3, gamma.shape[2], bins))
    for k in range(3):
        for b in range(bins):
            for f in range(gamma.shape[2]):
                major[k, f, b] = gamma[k, b, f]
    return Removal(major, xmean, bin_of, bins_sum, rows, copula)


@njit(cache=True)
def removal_scratch():
    """Per-thread scratch of :func:`prepare`: features, and per row the bins' relative change,
    their prefix and suffix sums, and the row's totals."""
    return (np.zeros(N_FEATURES), np.zeros((3, N_BINS)), np.zeros((3, N_BINS + 1)),
            np.zeros((3, N_BINS + 1)), np.zeros((3, 2)))


@njit(cache=True)
def prepare(hand, other, removal, scratch):
    """A hand's correction, into ``scratch`` (:func:`removal_scratch`): for row k and bin b the
    relative change ``g`` of its mass, ``win[k, b]`` the mass gained below bin b, ``pay[k, b]``
    the payments gained above it, and per row the normaliser and the mean royalty's change.

    ``other`` is the player's other hand in criss-cross, whose model is fitted on both hands'
    cards (its features' mean counts 26 cards); a criss-cross hand decided without it gets no
    correction rather than a wrong one."""
    x, g, win, pay, total = scratch
    hand_features(hand, other, x)
    gamma, xmean, sums = removal.gamma, removal.xmean, removal.bins_sum
    bins = gamma.shape[2]
    features = xmean.shape[0]  # the model's own (gamma may have room for more)
    held = 0.0
    for f in range(13):
        held += xmean[f]
    known = other.shape[0] > 0 or held < 13.5
    for f in range(features):
        x[f] = x[f] - xmean[f] if known else 0.0
    for k in range(3):
        mass = 0.0
        royalty = 0.0
        win[k, 0] = 0.0
        gk = g[k]  # one row's views: LLVM vectorises the bins' loop over them (a fifth quicker)
        gk[:] = 0.0
        for f in range(features):  # each bin's sum in feature order, all bins at once
            xf = x[f]
            gkf = gamma[k, f]
            for b in range(bins):
                gk[b] += gkf[b] * xf
        for b in range(bins):
            v = max(g[k, b], -1.0)  # a bin's mass cannot go below zero
            g[k, b] = v
            win[k, b + 1] = win[k, b] + sums[k, b, B_MASS] * v
            mass += sums[k, b, B_MASS] * v
            royalty += sums[k, b, B_ROYALTY] * v
        pay[k, bins] = 0.0
        for b in range(bins - 1, -1, -1):
            pay[k, b] = pay[k, b + 1] + sums[k, b + 1, B_PAY] * g[k, b + 1] if b + 1 < bins else 0.0
        total[k, 0] = 1.0 / (1.0 + mass)
        total[k, 1] = royalty


@njit(cache=True, inline="always")
def row_entry(k, s, tables, removal, scratch):
    """Row ``k`` at strength ``s`` for the prepared hand: (win, tie, loss, gain), the columns of
    :func:`sapsam.kernels.value.ev_tables` for the field with the hand's cards out."""
    _, g, win, pay, total = scratch
    b = removal.bin_of[k, s]
    gb = g[k, b]
    scale = total[k, 0]
    w0 = tables[k, s, WIN]
    sums = removal.bins_sum
    rows = removal.rows
    w = (w0 + win[k, b] + (w0 - sums[k, b, B_WIN_FIRST]) * gb) * scale
    t = tables[k, s, TIE] * (1.0 + gb) * scale
    above0 = rows[k, s, R_ABOVE]
    above = (above0 + pay[k, b] + (above0 - sums[k, b, B_ABOVE_LAST]) * gb) * scale
    mean_royalty = (rows[k, N_STRENGTHS, R_EARNED] + total[k, 1]) * scale
    gain = w * rows[k, s, R_PAY] - above + rows[k, s, R_EARNED] - mean_royalty
    return w, t, max(0.0, 1.0 - w - t), gain


