"""The metric registry: `METRICS`, one entry per metric (or per family of metrics: a value
per seat, role, event, game figure, card), each in a module of its own in this package,
beside how it is read from the report. The terminal table, the JSON, the PDF, the B
diagnostics, sweeps and tuning all call `iter_metrics()`, so a new metric is one module (or
one module of a package outside the toolkit, in the `playset.metrics` entry point group).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from toolkit.registry import PluginError, Registry, say

if TYPE_CHECKING:
    from toolkit.sim.metrics.report import Figure, SimReport, WinRow
    from toolkit.sim.stats import Rate, Summary

Kind = Literal["rate", "number", "count"]


@dataclass(frozen=True, slots=True)
class MetricValue:
    """One metric's value with its 95% interval (None where no interval is defined)."""

    key: str
    label: str
    group: str  # headline, seat, role, event, figure, card
    kind: Kind  # rate: a proportion (shown as %); number: a mean/median; count: plain
    value: float | None
    lo: float | None = None
    hi: float | None = None
    flag: bool = False  # a finding (timeouts over the limit, unfair seat, dead card)
    note: str = ""
    n: int | None = None  # games (or seat-games) behind the value
    summary: Summary | None = None  # the distribution, for per-game quantities

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "group": self.group,
            "kind": self.kind,
            "value": self.value,
            "lo": self.lo,
            "hi": self.hi,
            "flag": self.flag,
            "n": self.n,
        }


@dataclass(frozen=True, slots=True)
class Metric:
    """A registry entry: how to read one metric (or one family) from a report. `order`
    places it in every listing (the built-ins' place; an outside metric comes after them)."""

    key: str
    label: str
    group: str
    values: Callable[[SimReport], Iterable[MetricValue]]
    order: float = 1000.0
    kind: str = ""  # a headline's Kind (rate, number, count); "" for a family


METRICS: Registry[Metric] = Registry(
    "metric",
    package="toolkit.sim.metrics",
    group="playset.metrics",
    key=lambda metric: metric.key,
    rank=lambda metric: metric.order,
    accepts=lambda obj: isinstance(obj, Metric),
)
"""Every metric: the modules of this package, in their `order`, then a package outside the
toolkit's, through the `playset.metrics` entry point group (a `Metric`, or a module that
registers)."""


def iter_metrics(
    report: SimReport, groups: Sequence[str] | None = None, failed: list[str] | None = None
) -> Iterator[MetricValue]:
    """Every metric value of the report, in registry order (optionally only some groups).

    An installed plugin's metric that fails (raises anything but Ctrl-C, or gives something
    that is not a MetricValue) is left out: why goes to `failed` when given (`check` makes it
    an E008 finding), else it is a warning on stderr, once per process."""
    for entry in METRICS.values():
        if groups is None or entry.group in groups:
            if METRICS.is_builtin(entry.key):
                yield from entry.values(report)
            else:
                yield from _plugin_values(entry, report, failed)


_WARNED: set[str] = set()


def _plugin_values(entry: Metric, report: SimReport, failed: list[str] | None) -> list[MetricValue]:
    try:
        values = METRICS.call(entry.key, lambda: list(entry.values(report)))
        wrong = next((v for v in values if not isinstance(v, MetricValue)), None)
        if wrong is not None:
            raise PluginError(
                f"{METRICS.plugin_name(entry.key)} gave a {type(wrong).__name__}, not a "
                "MetricValue (fix or uninstall the plugin)"
            )
    except PluginError as exc:
        why = f"{exc}; its values are left out"
        if failed is not None:
            failed.append(why)
        elif why not in _WARNED:
            _WARNED.add(why)
            say(f"warning: {why}")
        return []
    return values


def metric_keys(report: SimReport) -> list[str]:
    return [m.key for m in iter_metrics(report)]


def headline(key: str, label: str, kind: Kind, order: float) -> Callable[..., Any]:
    """Register fn(report) -> (value, lo, hi[, flag]) or None as a headline metric."""

    def register(fn: Callable[[SimReport], tuple[Any, ...] | None]) -> Callable[..., Any]:
        def values(report: SimReport) -> Iterator[MetricValue]:
            got = fn(report)
            if got is not None:
                value, lo, hi, *flag = got
                finding = bool(flag and flag[0])
                yield MetricValue(
                    key, label, "headline", kind, value, lo, hi, finding, n=report.games
                )

        METRICS.register(Metric(key, label, "headline", values, order, kind))
        return fn

    return register


def family(key: str, label: str, group: str, order: float) -> Callable[..., Any]:
    """Register fn(report) -> its MetricValues as the family `key` of `group`."""

    def register(fn: Callable[[SimReport], Iterable[MetricValue]]) -> Callable[..., Any]:
        METRICS.register(Metric(key, label, group, fn, order))
        return fn

    return register


def rate(r: Rate) -> tuple[float, float, float]:
    return r.p, r.lo, r.hi


def win_value(row: WinRow, key: str, group: str) -> MetricValue:
    """A seat's or role's win rate, flagged when unfair after Holm's correction."""
    note = "" if row.p_adjusted is None else f"Holm p={row.p_adjusted:.3g}"
    return MetricValue(
        key, row.label, group, "rate", *rate(row.rate), row.unfair, note, n=row.rate.n
    )


def figure_value(f: Figure, group: str) -> MetricValue:
    """A per-game quantity's mean with its interval, and its distribution."""
    s = f.summary
    key = f"{group}.{f.name}"
    return MetricValue(key, f.name, group, "number", s.mean, s.mean_lo, s.mean_hi, n=s.n, summary=s)
