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


@dataclass(frozen=True, slots=True)
class Summary:
    """A per-game quantity over many games: mean and median with their 95% intervals.

    The mean's interval is the normal one (mean ± z·sd/√n); the median's is distribution-free
    (order statistics around n/2), so a skewed length distribution gets an honest band."""

    n: int
    mean: float
    median: float
    p5: float
    p95: float
    max: float
    mean_lo: float
    mean_hi: float
    median_lo: float
    median_hi: float

    def as_dict(self) -> dict[str, float]:
        """The JSON shape reports have always had (mean, median, p5, p95, max), plus n and
        the two intervals."""
        return {
            "mean": self.mean,
            "median": self.median,
            "p5": self.p5,
            "p95": self.p95,
            "max": self.max,
            "n": self.n,
            "mean_lo": self.mean_lo,
            "mean_hi": self.mean_hi,
            "median_lo": self.median_lo,
            "median_hi": self.median_hi,
        }


MAX_DISTINCT = 4096


class Distribution:
    """Streaming counts of a per-game value: memory grows with distinct values, not games.

    Whole-number figures (turns, sips, captures) stay exact: the quantiles are the same as on
    the full sorted list. Past MAX_DISTINCT distinct values (continuous figures) the values are
    rounded to fewer significant digits (three or more): quantiles stay within about 0.5% and
    memory stays bounded. Sums are kept in game order: results do not depend on batching."""

    __slots__ = ("counts", "n", "total", "squares", "top", "digits")

    def __init__(self) -> None:
        self.counts: dict[float, int] = {}
        self.n = 0
        self.total = 0.0
        self.squares = 0.0
        self.top = -math.inf
        self.digits = 0  # 0 = exact; else significant digits kept

    def add(self, value: float) -> None:
        self.n += 1
        self.total += value
        self.squares += value * value
        if value > self.top:
            self.top = value
        key = _round(value, self.digits) if self.digits else value
        counts = self.counts
        counts[key] = counts.get(key, 0) + 1
        if len(counts) > MAX_DISTINCT:
            self._coarsen()

    def _coarsen(self) -> None:
        self.digits = 6 if not self.digits else self.digits - 1
        while len(self.counts) > MAX_DISTINCT // 2 and self.digits >= 1:
            merged: dict[float, int] = {}
            for key, count in self.counts.items():
                rounded = _round(key, self.digits)
                merged[rounded] = merged.get(rounded, 0) + count
            self.counts = merged
            if len(merged) > MAX_DISTINCT // 2:
                self.digits -= 1

    def at_rank(self, rank: int) -> float:
        """The value at 0-based position `rank` of the sorted sample."""
        seen = 0
        for value in sorted(self.counts):
            seen += self.counts[value]
            if rank < seen:
                return value
        return self.top

    def quantile(self, q: float) -> float:
        """Linear-interpolated quantile, as `quantile()` gives on the full list."""
        if not self.n:
            return math.nan
        pos = (self.n - 1) * q
        low = math.floor(pos)
        a, b = self.at_rank(low), self.at_rank(min(low + 1, self.n - 1))
        return a + (b - a) * (pos - low)

    def summary(self, z: float = Z95) -> Summary:
        n = self.n
        if not n:
            nan = math.nan
            return Summary(0, nan, nan, nan, nan, nan, nan, nan, nan, nan)
        mean = self.total / n
        var = max(0.0, (self.squares - n * mean * mean) / (n - 1)) if n > 1 else 0.0
        half = z * math.sqrt(var / n)
        spread = z * math.sqrt(n) / 2
        lo_rank = max(0, math.floor(n / 2 - spread) - 1)
        hi_rank = min(n - 1, math.ceil(n / 2 + spread) - 1)
        return Summary(
            n=n,
            mean=mean,
            median=self.quantile(0.5),
            p5=self.quantile(0.05),
            p95=self.quantile(0.95),
            max=self.top,
            mean_lo=mean - half,
            mean_hi=mean + half,
            median_lo=self.at_rank(lo_rank),
            median_hi=self.at_rank(hi_rank),
        )

    def histogram(self, bins: int = 20) -> list[dict[str, float]]:
        """Counts in about `bins` equal whole-number bins (for lengths in turns)."""
        if not self.n:
            return []
        low, high = math.floor(min(self.counts)), math.floor(self.top)
        width = max(1, -(-(high - low + 1) // bins))
        counts: dict[int, int] = {}
        for value, count in self.counts.items():
            b = (math.floor(value) - low) // width
            counts[b] = counts.get(b, 0) + count
        return [
            {"from": low + b * width, "to": low + (b + 1) * width - 1, "games": counts.get(b, 0)}
            for b in range((high - low) // width + 1)
        ]


def _round(value: float, digits: int) -> float:
    if value == 0 or not math.isfinite(value):
        return value
    return round(value, digits - 1 - math.floor(math.log10(abs(value))))
