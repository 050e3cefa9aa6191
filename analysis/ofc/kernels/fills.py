"""A partial Open-Face board's rows on random fills of its empty places, as the heuristic
(:func:`sapsam.ofc.kernels.policies.heuristic_choice`) judges a decision's placements: each
placement's empty places take the same fills' cards in turn, row by row, the front's first.

A row's strength on a fill depends only on the dealt cards the placement puts there and on
where the row's empty places start among the fill's cards: the front's at the first, the
middle's after the front's empty places (set by how many dealt cards the front takes), the
back's after both (set by the cards the back takes, since every placement keeps as many).  So
each such version of a row is evaluated once a decision, for every placement that shares it:
on a later street of Pineapple 26 versions at most, where the 27 placements have 81 rows (the
heuristic's hands about 1.3x as fast, the same placements bit for bit: CHANGELOG.md)."""

import numpy as np

from sapsam.kernels.compiler import njit
from sapsam.kernels.evaluate import eval3, eval5
from sapsam.ofc.kernels.board import ROW_SIZE, ROW_START


@njit(cache=True)
def fill_scratch(nd, fills):
    """Scratch for one decision's :func:`filled_rows` (``nd`` cards dealt, ``fills`` fills):
    every version of a row a placement can leave, on each fill (:func:`_version`), which of
    them are computed yet, and a row."""
    n = 3 * (1 << nd) * (nd + 1)
    return np.empty((n, max(fills, 1)), np.int16), np.zeros(n, np.bool_), np.empty(5, np.uint8)


@njit(cache=True, inline="always")
def filled_rows(board, counts, dealt, nd, code, drawn, scratch):
    """The front, middle and back of the board that placement ``code`` of ``dealt`` leaves,
    each as its row of ``scratch[0]``: the row's strength on each fill of ``drawn`` (a full
    row's the same on every fill), computed on first use (``scratch``: :func:`fill_scratch`'s,
    one a decision, on the same fills)."""
    s0 = s1 = s2 = 0  # the dealt cards each row takes, a bit a card
    n0 = n1 = 0
    for i in range(nd):
        r = (code >> (2 * i)) & 3
        if r == 0:
            s0 |= 1 << i
            n0 += 1
        elif r == 1:
            s1 |= 1 << i
            n1 += 1
        elif r == 2:
            s2 |= 1 << i
    middle_start = ROW_SIZE[0] - counts[0] - n0
    back_start = middle_start + ROW_SIZE[1] - counts[1] - n1
    return (_version(board, counts, dealt, nd, 0, s0, 0, drawn, 0, scratch),
            _version(board, counts, dealt, nd, 1, s1, n0, drawn, middle_start, scratch),
            _version(board, counts, dealt, nd, 2, s2, 0, drawn, back_start, scratch))


@njit(cache=True, inline="always")
def _version(board, counts, dealt, nd, r, subset, front_takes, drawn, start, scratch):
    """The index in ``scratch``'s versions of row ``r`` holding the dealt cards of ``subset``
    (the middle's: after a front that takes ``front_takes`` of them), its empty places taking
    each fill's cards from ``start`` on; computed here on first use."""
    versions, done, row = scratch
    v = (r * (1 << nd) + subset) * (nd + 1) + front_takes
    if not done[v]:
        # int64s, not the literal row and zeros of filled_rows' calls (inlined here): each
        # literal was a compile of its own, six in all
        _row_versions(board, counts, dealt, nd, np.int64(r), np.int64(subset), drawn, np.int64(start),
                      row, versions, v)
        done[v] = True
    return v


@njit(cache=True)
def _row_versions(board, counts, dealt, nd, r, subset, drawn, start, row, versions, v):
    """Row ``r``'s strength on each fill of ``drawn`` (into ``versions[v]``): its cards on
    ``board``, then the dealt cards of ``subset`` in their order (as
    :func:`sapsam.ofc.kernels.policies.place` puts them), then the fill's cards from ``start``
    on in its empty places."""
    size = ROW_SIZE[r]
    n = 0
    for i in range(counts[r]):
        row[n] = board[ROW_START[r] + i]
        n += 1
    for i in range(nd):
        if (subset >> i) & 1:
            row[n] = dealt[i]
            n += 1
    if n == size:  # full: the same on every fill
        versions[v, :] = _strength(row, size)
        return
    for k in range(versions.shape[1]):
        for i in range(n, size):
            row[i] = drawn[k, start + i - n]
        versions[v, k] = _strength(row, size)


@njit(cache=True, inline="always")
def _strength(row, size):
    """The strength of a front (``size`` 3) or a middle or back of ``row``'s cards."""
    if size == 3:
        return eval3(row[0], row[1], row[2])
    return eval5(row[0], row[1], row[2], row[3], row[4])
