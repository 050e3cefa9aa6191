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
from numba import njit

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
    versions, done, row = scratch
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
    f, m, b = _version(0, s0, 0, nd), _version(1, s1, n0, nd), _version(2, s2, 0, nd)
    if not done[f]:
        _row_versions(board, counts, dealt, nd, 0, s0, drawn, 0, row, versions, f)
        done[f] = True
    if not done[m]:
        _row_versions(board, counts, dealt, nd, 1, s1, drawn, middle_start, row, versions, m)
        done[m] = True
    if not done[b]:
        back_start = middle_start + ROW_SIZE[1] - counts[1] - n1
        _row_versions(board, counts, dealt, nd, 2, s2, drawn, back_start, row, versions, b)
        done[b] = True
    return f, m, b


@njit(cache=True, inline="always")
def _version(r, subset, front_takes, nd):
    """The index in :func:`fill_scratch`'s versions of row ``r`` holding the dealt cards of
    ``subset`` (the middle's: after a front that takes ``front_takes`` of them)."""
    return (r * (1 << nd) + subset) * (nd + 1) + front_takes


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
    for k in range(versions.shape[1]):
        if k > 0 and n == size:
            versions[v, k] = versions[v, 0]
            continue
        for i in range(n, size):
            row[i] = drawn[k, start + i - n]
        if size == 3:
            versions[v, k] = eval3(row[0], row[1], row[2])
        else:
            versions[v, k] = eval5(row[0], row[1], row[2], row[3], row[4])
