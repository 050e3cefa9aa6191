"""One-dimensional fits of weighted values in a fixed order: the non-decreasing fit (pool
adjacent violators) and the best piecewise-constant fits with a given number of pieces
(dynamic programming).  The house way's chart is made of both."""

import numpy as np


def isotonic(y, w):
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


def segmentations(y, w, k):
    """The best ``n``-piece constant fits of ``y`` (weights ``w``) for every ``n`` up to ``k``:
    a dict n -> list of (start, stop) index ranges covering ``y`` in order (one dynamic
    programme for all of them)."""
    n = len(y)
    k = min(k, n)
    cw = np.concatenate([[0.0], np.cumsum(w)])
    cwy = np.concatenate([[0.0], np.cumsum(w * y)])
    cwyy = np.concatenate([[0.0], np.cumsum(w * y * y)])
    i = np.arange(n + 1)
    # cost[i, j]: weighted squared error of the piece y[i:j] (inf unless i < j)
    wt = cw[None, :] - cw[:, None]
    sy = cwy[None, :] - cwy[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        cost = (cwyy[None, :] - cwyy[:, None]) - np.where(wt > 0, sy * sy / wt, 0.0)
    cost = np.where(i[:, None] < i[None, :], np.maximum(cost, 0.0), np.inf)
    best = np.full((k + 1, n + 1), np.inf)
    cut = np.zeros((k + 1, n + 1), np.int64)
    best[0, 0] = 0.0
    for pieces in range(1, k + 1):
        total = best[pieces - 1][:, None] + cost
        cut[pieces] = np.argmin(total, axis=0)
        best[pieces] = total[cut[pieces], i]
    out = {}
    for pieces in range(1, k + 1):
        bounds, j = [], n
        for p in range(pieces, 0, -1):
            a = int(cut[p, j])
            bounds.append((a, j))
            j = a
        out[pieces] = bounds[::-1]
    return out


def segments(y, w, k):
    """The best ``k``-piece constant fit of ``y`` (weights ``w``): (start, stop) ranges."""
    return segmentations(y, w, k)[min(k, len(y))]
