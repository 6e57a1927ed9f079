"""Interval estimates shared by every table and report: one definition of each."""

import math

import numpy as np

Z95 = 1.959963984540054  # two-sided 95% standard normal quantile


def wilson_interval(made, n, z: float = Z95):
    """The Wilson score interval (low, high) for `made` successes in `n` trials.

    Scalars give a pair of floats; arrays give a pair of arrays. With no trials the interval
    is (0, 1); it always contains the observed proportion, and its ends are exactly 0 when
    nothing was made and exactly 1 when everything was.
    """
    scalar = np.ndim(made) == 0 and np.ndim(n) == 0
    made_a = np.asarray(made, dtype=float)
    n_a = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = made_a / n_a
        denom = 1.0 + z * z / n_a
        centre = (p + z * z / (2 * n_a)) / denom
        half = z * np.sqrt(p * (1 - p) / n_a + z * z / (4 * n_a * n_a)) / denom
        low = np.clip(np.minimum(p, centre - half), 0.0, 1.0)
        high = np.clip(np.maximum(p, centre + half), 0.0, 1.0)
    low = np.where(made_a == 0, 0.0, low)
    high = np.where(made_a == n_a, 1.0, high)
    low = np.where(n_a <= 0, 0.0, low)
    high = np.where(n_a <= 0, 1.0, high)
    if scalar:
        return float(low), float(high)
    return low, high


def mean_and_stderr(values) -> tuple[float, float]:
    """The sample mean and its standard error (nan for fewer than two values)."""
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return math.nan, math.nan
    if values.size < 2:
        return float(values.mean()), math.nan
    return float(values.mean()), float(values.std(ddof=1) / math.sqrt(values.size))
