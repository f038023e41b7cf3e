"""Interval estimates shared by the advice (Monte Carlo answers) and the benchmarks.

Wilson and normal 95% intervals for a proportion, and the mean of a sample with its normal 95%
interval. Pure functions of their inputs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def wilson_interval(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default); (0, 1) with no trials.
    Weighted draws pass their weighted successes and effective number of trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def normal_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Normal-approximation (Wald) interval for a proportion, clipped to [0, 1]."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    half = z * math.sqrt(p * (1 - p) / trials)
    return (max(0.0, p - half), min(1.0, p + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean of ``values`` with a normal 95% interval: (mean, low, high)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = math.fsum(values) / n
    if n == 1:
        return (mean, mean, mean)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


__all__ = ["Z95", "mean_interval", "normal_interval", "wilson_interval"]
