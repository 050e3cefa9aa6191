"""Statistics every measurement shares: Student's t and Wilson 95% intervals."""

import numpy as np

Z95 = 1.959963984540054
# Student's t 97.5% quantile for 1 to 9 degrees of freedom (beyond, t95's expansion)
_T95 = (12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157)


def t95(df):
    """Student's t 97.5% quantile with ``df`` degrees of freedom: the half width of a 95%
    interval of a mean in standard errors (a table to 9, then the Cornish-Fisher expansion
    about the normal's, Abramowitz and Stegun 26.7.5: within 1e-5 from 10 on)."""
    if df < 1:
        raise ValueError(f"a t quantile needs at least 1 degree of freedom, got {df}")
    if df < 10:
        return _T95[df - 1]
    z = Z95
    return (z + (z ** 3 + z) / 4 / df + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96 / df ** 2
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384 / df ** 3
            + (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160 / df ** 4)


def mean_interval(values):
    """Mean, SD and 95% interval of a sample's mean: ``(mean, sd, low, high)`` floats.

    The SD has ``n - 1`` in the denominator and the interval is Student's t: a few blocks'
    means are a small sample, whose interval the normal's 1.96 makes too narrow (2 blocks of
    Open-Face hands: 12 of 20 seeds' intervals held the mean); one value gives NaN for the SD
    and interval.
    """
    values = np.asarray(values, np.float64)
    mean = float(values.mean())
    if len(values) < 2:
        return mean, float("nan"), float("nan"), float("nan")
    sd = float(values.std(ddof=1))
    half = t95(len(values) - 1) * sd / float(np.sqrt(len(values)))
    return mean, sd, mean - half, mean + half


def wilson_interval(count, n, z=Z95):
    """Wilson score interval of a binomial proportion ``count / n``: (low, high), arrays for
    arrays and floats for numbers."""
    count, n = np.asarray(count, np.float64), np.asarray(n, np.float64)
    p = count / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low, high = np.where(count == 0, 0.0, np.maximum(centre - half, 0.0)), np.minimum(centre + half, 1.0)
    return (float(low), float(high)) if low.ndim == 0 else (low, high)
