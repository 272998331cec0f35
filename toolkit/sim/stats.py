"""Small statistics the reports need: Wilson intervals, quantiles, z-tests, Holm correction."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Rate:
    """A proportion with its 95% Wilson score interval."""

    k: float
    n: int
    p: float
    lo: float
    hi: float

    def as_dict(self) -> dict[str, float]:
        return {"k": self.k, "n": self.n, "rate": self.p, "lo": self.lo, "hi": self.hi}


def wilson(k: float, n: int, z: float = Z95) -> Rate:
    """Wilson score interval; well-behaved near 0 and 1 and for small n."""
    if n <= 0:
        return Rate(k, n, 0.0, 0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / denom
    return Rate(k, n, p, max(0.0, centre - half), min(1.0, centre + half))


def quantile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated quantile of a sorted or unsorted sample (q in [0, 1])."""
    if not values:
        return math.nan
    data = sorted(values)
    pos = (len(data) - 1) * q
    low = math.floor(pos)
    high = min(low + 1, len(data) - 1)
    return data[low] + (data[high] - data[low]) * (pos - low)


def summary(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {
            "mean": math.nan,
            "median": math.nan,
            "p5": math.nan,
            "p95": math.nan,
            "max": math.nan,
        }
    return {
        "mean": sum(values) / len(values),
        "median": quantile(values, 0.5),
        "p5": quantile(values, 0.05),
        "p95": quantile(values, 0.95),
        "max": max(values),
    }


def proportion_p_value(k: float, n: int, p0: float) -> float:
    """Two-sided p-value of k successes in n against rate p0 (normal approximation)."""
    if n == 0 or p0 <= 0 or p0 >= 1:
        return 1.0
    z = (k - n * p0) / math.sqrt(n * p0 * (1 - p0))
    return math.erfc(abs(z) / math.sqrt(2))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values (same order as given)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted
