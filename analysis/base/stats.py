"""Statistics every measurement shares: Student's t (a mean's, Welch's for a difference of two) and
Wilson 95% intervals."""

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


def difference_interval(sum_a, squares_a, n_a, sum_b, squares_b, n_b):
    """Mean of sample a less mean of sample b, from each one's sum, sum of squares and size,
    and the half width of Welch's 95% interval of it: ``(difference, half width)`` floats, NaN
    with fewer than two values in either.

    Student's t with Welch-Satterthwaite's degrees of freedom (rounded down, the wider), not the
    normal's 1.96: a few values on one side (two or three Fantasyland hands beside thousands of
    normal ones) leave that side's variance barely known, and the normal interval of such a
    difference held it about 80% of the time where it says 95."""
    if n_a < 2 or n_b < 2:
        return float("nan"), float("nan")
    mean_a, mean_b = sum_a / n_a, sum_b / n_b
    se_a = max(squares_a - n_a * mean_a ** 2, 0.0) / (n_a - 1) / n_a  # squared standard errors
    se_b = max(squares_b - n_b * mean_b ** 2, 0.0) / (n_b - 1) / n_b
    se = se_a + se_b
    if se == 0.0:
        return float(mean_a - mean_b), 0.0
    df = se * se / (se_a * se_a / (n_a - 1) + se_b * se_b / (n_b - 1))
    return float(mean_a - mean_b), float(t95(max(int(df), 1)) * np.sqrt(se))


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
