"""Statistics every measurement shares: normal and Wilson 95% intervals."""

import numpy as np

Z95 = 1.959963984540054


def mean_interval(values):
    """Mean, SD and normal 95% interval of a sample: ``(mean, sd, low, high)`` floats.

    The SD has ``n - 1`` in the denominator; one value gives NaN for the SD and interval.
    """
    values = np.asarray(values, np.float64)
    mean = float(values.mean())
    if len(values) < 2:
        return mean, float("nan"), float("nan"), float("nan")
    sd = float(values.std(ddof=1))
    half = Z95 * sd / float(np.sqrt(len(values)))
    return mean, sd, mean - half, mean + half


def wilson_interval(count, n, z=Z95):
    """Wilson score interval of a binomial proportion ``count / n``: (low, high) arrays."""
    count, n = np.asarray(count, np.float64), np.asarray(n, np.float64)
    p = count / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return np.where(count == 0, 0.0, np.maximum(centre - half, 0.0)), np.minimum(centre + half, 1.0)
