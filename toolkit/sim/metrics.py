"""The typed simulation report and the one list of metrics every output iterates.

`SimReport` is frozen data: rates carry their 95% Wilson interval, per-game quantities a
`Summary` with intervals for mean and median. `METRICS` is the registry: one entry per metric
(or per family of metrics: a value per seat, role, event, game figure, card), declared here
beside how it is read from the report. The terminal table, the JSON, the PDF, the B
diagnostics, sweeps and tuning all call `iter_metrics()`, so a new metric is one entry.

Seats and roles are tested against the fair share (1 / seats) and the p-values Holm-corrected
together, so a flag means "significantly unfair after accounting for how many things we looked
at".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from toolkit.registry import Registry
from toolkit.sim.aggregate import Aggregate
from toolkit.sim.runner import GameRecord
from toolkit.sim.stats import Rate, Summary, holm, proportion_p_value, wilson

ALPHA = 0.05
TIMEOUT_LIMIT = 0.01  # more than 1% of games at the turn cap is a finding
SCHEMA_VERSION = 2  # 1: the untyped dict report; 2: adds "schema", n and intervals, "metrics"


@dataclass(frozen=True, slots=True)
class WinRow:
    """Win rate of one seat or one role, tested against the fair share."""

    label: str
    rate: Rate
    p_adjusted: float | None
    unfair: bool
    seat: int | None = None
    role: str | None = None


@dataclass(frozen=True, slots=True)
class CardRow:
    card: str
    plays: int
    plays_per_game: float
    dead: bool
    win_when_played: Rate


@dataclass(frozen=True, slots=True)
class Figure:
    """A per-game quantity by name: an event count or a game's own figure."""

    name: str
    summary: Summary


@dataclass(frozen=True, slots=True)
class Notable:
    """A game worth replaying (`playset replay GAME --seed S --game INDEX`)."""

    kind: str  # longest, shortest, widest_margin, timeout
    game: int
    value: float  # turns, or the margin in points
    scores: tuple[float, ...] = ()  # each seat's points at the end, as the replay shows them


@dataclass(frozen=True)
class SimReport:
    """Everything a simulation found, as frozen typed data (JSON via `to_json()`)."""

    game: str
    setup: Mapping[str, Any]
    games: int
    seats: int
    coop: bool
    completion: Rate
    timeouts: Rate
    shared_or_no_winner: Rate
    team_win: Rate | None
    turns: Summary
    rounds: Summary
    length_histogram: tuple[Mapping[str, float], ...]
    decision_share: Rate
    branching_factor: float
    fair_share: float | None
    seats_win: tuple[WinRow, ...]
    roles_win: tuple[WinRow, ...]
    balance: float | None
    first_player_advantage: Rate | None  # the first mover's rate minus the fair share
    events: tuple[Figure, ...]
    figures: tuple[Figure, ...]
    cards: tuple[CardRow, ...]
    notable: tuple[Notable, ...] = ()
    schema: int = SCHEMA_VERSION

    @property
    def setup_text(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.setup.items())

    def metric(self, key: str) -> MetricValue | None:
        return next((m for m in iter_metrics(self) if m.key == key), None)

    def to_json(self) -> dict[str, Any]:
        """The JSON document: the keys reports have always had, plus `schema` and `metrics`."""
        return {
            "schema": self.schema,
            "game": self.game,
            "setup": dict(self.setup),
            "games": self.games,
            "seats": self.seats,
            "completion": self.completion.as_dict(),
            "timeouts": self.timeouts.as_dict(),
            "shared_or_no_winner": self.shared_or_no_winner.as_dict(),
            "turns": self.turns.as_dict(),
            "rounds": self.rounds.as_dict(),
            "length_histogram": [dict(b) for b in self.length_histogram],
            "decision_share": self.decision_share.as_dict(),
            "branching_factor": self.branching_factor,
            "fair_share": self.fair_share,
            **({"team_win": self.team_win.as_dict()} if self.team_win else {}),
            "seats_win": [_row_json(r) for r in self.seats_win],
            "roles_win": [_row_json(r) for r in self.roles_win],
            "balance": self.balance,
            "first_player_advantage": (
                self.first_player_advantage.p if self.first_player_advantage else None
            ),
            "events_per_game": {f.name: f.summary.as_dict() for f in self.events},
            "cards": [
                {
                    "card": c.card,
                    "plays": c.plays,
                    "plays_per_game": c.plays_per_game,
                    "dead": c.dead,
                    "win_when_played": c.win_when_played.as_dict(),
                }
                for c in self.cards
            ],
            "figures": {f.name: f.summary.as_dict() for f in self.figures},
            "notable_games": [
                {"kind": n.kind, "game": n.game, "value": n.value, "scores": list(n.scores)}
                for n in self.notable
            ],
            "metrics": [m.as_dict() for m in iter_metrics(self)],
        }


def _row_json(row: WinRow) -> dict[str, Any]:
    head: dict[str, Any] = {"seat": row.seat} if row.seat is not None else {"role": row.role}
    return {**head, **row.rate.as_dict(), "p_adjusted": row.p_adjusted, "unfair": row.unfair}


# --- the metric registry ----------------------------------------------------------------

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
    """A registry entry: how to read one metric (or one family) from a report."""

    key: str
    label: str
    group: str
    values: Callable[[SimReport], Iterable[MetricValue]]


METRICS: Registry[Metric] = Registry(
    "metric",
    group="playset.metrics",
    key=lambda metric: metric.key,
    accepts=lambda obj: isinstance(obj, Metric),
)
"""The metrics below register here, in this order; a package outside the toolkit adds one
through the `playset.metrics` entry point group (a `Metric`, or a module that registers)."""


def iter_metrics(report: SimReport, groups: Sequence[str] | None = None) -> Iterator[MetricValue]:
    """Every metric value of the report, in registry order (optionally only some groups)."""
    for entry in METRICS.values():
        if groups is None or entry.group in groups:
            yield from entry.values(report)


def metric_keys(report: SimReport) -> list[str]:
    return [m.key for m in iter_metrics(report)]


def _scalar(key: str, label: str, kind: Kind = "number") -> Callable[..., Any]:
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

        METRICS.register(Metric(key, label, "headline", values))
        return fn

    return register


def _family(key: str, label: str, group: str) -> Callable[..., Any]:
    def register(fn: Callable[[SimReport], Iterable[MetricValue]]) -> Callable[..., Any]:
        METRICS.register(Metric(key, label, group, fn))
        return fn

    return register


def _rate(r: Rate) -> tuple[float, float, float]:
    return r.p, r.lo, r.hi


@_scalar("completion", "completed", "rate")
def _completion(r: SimReport) -> tuple[Any, ...]:
    return _rate(r.completion)


@_scalar("timeouts", "timeouts (turn cap)", "rate")
def _timeouts(r: SimReport) -> tuple[Any, ...]:
    return (*_rate(r.timeouts), r.timeouts.p > TIMEOUT_LIMIT)


@_scalar("shared_or_no_winner", "shared win / no winner", "rate")
def _shared(r: SimReport) -> tuple[Any, ...] | None:
    return None if r.coop else _rate(r.shared_or_no_winner)


@_scalar("team_win", "co-operative win", "rate")
def _team(r: SimReport) -> tuple[Any, ...] | None:
    return _rate(r.team_win) if r.team_win else None


@_scalar("turns_mean", "turns, mean")
def _turns_mean(r: SimReport) -> tuple[Any, ...]:
    return r.turns.mean, r.turns.mean_lo, r.turns.mean_hi


@_scalar("turns_median", "turns, median")
def _turns_median(r: SimReport) -> tuple[Any, ...]:
    return r.turns.median, r.turns.median_lo, r.turns.median_hi


@_scalar("turns_p95", "turns, 95th percentile")
def _turns_p95(r: SimReport) -> tuple[Any, ...]:
    return r.turns.p95, None, None


@_scalar("rounds_mean", "rounds, mean")
def _rounds_mean(r: SimReport) -> tuple[Any, ...]:
    return r.rounds.mean, r.rounds.mean_lo, r.rounds.mean_hi


@_scalar("rounds_median", "rounds, median")
def _rounds_median(r: SimReport) -> tuple[Any, ...]:
    return r.rounds.median, r.rounds.median_lo, r.rounds.median_hi


@_scalar("balance", "balance (1 - largest gap)")
def _balance(r: SimReport) -> tuple[Any, ...] | None:
    return None if r.balance is None else (r.balance, None, None)


@_scalar("first_player_advantage", "first-player advantage")
def _first(r: SimReport) -> tuple[Any, ...] | None:
    return _rate(r.first_player_advantage) if r.first_player_advantage else None


@_scalar("decision_share", "decision share", "rate")
def _decisions(r: SimReport) -> tuple[Any, ...]:
    return _rate(r.decision_share)


@_scalar("branching_factor", "branching factor")
def _branching(r: SimReport) -> tuple[Any, ...]:
    return r.branching_factor, None, None


def _win_value(row: WinRow, key: str, group: str) -> MetricValue:
    note = "" if row.p_adjusted is None else f"Holm p={row.p_adjusted:.3g}"
    return MetricValue(
        key, row.label, group, "rate", *_rate(row.rate), row.unfair, note, n=row.rate.n
    )


@_family("seat", "win rate per seat", "seat")
def _seats(r: SimReport) -> Iterator[MetricValue]:
    for row in r.seats_win:
        yield _win_value(row, f"seat.{row.seat}", "seat")


@_family("role", "win rate per role", "role")
def _roles(r: SimReport) -> Iterator[MetricValue]:
    for row in r.roles_win:
        yield _win_value(row, f"role.{row.role}", "role")


def _figure_value(f: Figure, group: str) -> MetricValue:
    s = f.summary
    key = f"{group}.{f.name}"
    return MetricValue(key, f.name, group, "number", s.mean, s.mean_lo, s.mean_hi, n=s.n, summary=s)


@_family("event", "events per game (mean)", "event")
def _events(r: SimReport) -> Iterator[MetricValue]:
    for f in r.events:
        yield _figure_value(f, "event")


@_family("figure", "the game's own figures (mean)", "figure")
def _figures(r: SimReport) -> Iterator[MetricValue]:
    for f in r.figures:
        yield _figure_value(f, "figure")


@_family("card", "plays per game per card", "card")
def _cards(r: SimReport) -> Iterator[MetricValue]:
    for c in r.cards:
        yield MetricValue(
            f"card.{c.card}", c.card, "card", "count", c.plays_per_game, flag=c.dead, n=r.games
        )


# --- building the report -----------------------------------------------------------------


def _fair_share(agg: Aggregate) -> float | None:
    """What a seat would win if seats were equal: the share of winners per game.

    1/seats in a free-for-all; 1/2 for each seat when two teams of seats share a win; none in
    co-operative play, where everybody wins or loses together."""
    if agg.coop or agg.seats <= 0:
        return None
    if not agg.decided:
        return 1.0 / agg.seats
    return agg.decided_total / agg.decided / agg.seats


def _flagged(
    rows: list[tuple[str, int | None, str | None, Rate]], fair: float | None
) -> list[WinRow]:
    if fair is None:
        return [WinRow(label, rate, None, False, seat, role) for label, seat, role, rate in rows]
    raw = [proportion_p_value(rate.k, rate.n, fair) for *_, rate in rows]
    return [
        WinRow(label, rate, p, p < ALPHA, seat, role)
        for (label, seat, role, rate), p in zip(rows, holm(raw), strict=True)
    ]


def _notable(agg: Aggregate) -> tuple[Notable, ...]:
    seen = [("timeout", t) for t in agg.timeout_games]
    seen += [
        (kind, t)
        for kind, t in (
            ("longest", agg.longest),
            ("shortest", agg.shortest),
            ("widest_margin", agg.widest),
        )
        if t is not None
    ]
    return tuple(Notable(kind, index, value, scores) for kind, (value, index, scores) in seen)


def report_from(agg: Aggregate, game: str, setup: Mapping[str, Any]) -> SimReport:
    n, done = agg.games, agg.finished
    fair = _fair_share(agg)
    seat_rates = [wilson(agg.seat_wins[s], done) for s in range(agg.seats)]
    rows: list[tuple[str, int | None, str | None, Rate]] = [
        (f"seat {s}", s, None, rate) for s, rate in enumerate(seat_rates)
    ]
    rows += [(role, None, role, wilson(k, int(m))) for role, (k, m) in sorted(agg.roles.items())]
    flagged = _flagged(rows, fair)
    means = [w / done for w in agg.seat_wins] if done else []
    first = None
    if seat_rates and fair:
        s0 = wilson(agg.first_wins, done)  # seat 0's unless the engine seats players at random
        first = Rate(s0.k, s0.n, s0.p - fair, s0.lo - fair, s0.hi - fair)
    return SimReport(
        game=game,
        setup=dict(setup),
        games=n,
        seats=agg.seats,
        coop=agg.coop,
        completion=wilson(done, n),
        timeouts=wilson(n - done, n),
        shared_or_no_winner=wilson(agg.shared, done),
        team_win=wilson(agg.team_wins, done) if agg.coop and done else None,
        turns=agg.turns.summary(),
        rounds=agg.rounds.summary(),
        length_histogram=tuple(agg.turns.histogram()),
        decision_share=wilson(agg.decisions, agg.moves),
        branching_factor=agg.branching / agg.decisions if agg.decisions else 0.0,
        fair_share=fair,
        seats_win=tuple(flagged[: agg.seats]),
        roles_win=tuple(flagged[agg.seats :]),
        balance=1.0 - (max(means) - min(means)) if means else None,
        first_player_advantage=first,
        events=tuple(
            Figure(name, d.summary()) for name, d in zip(agg.event_names, agg.events, strict=True)
        ),
        figures=tuple(Figure(name, agg.figures[name].summary()) for name in sorted(agg.figures)),
        cards=tuple(
            CardRow(
                name,
                agg.card_plays[c],
                agg.card_plays[c] / done if done else 0.0,
                agg.card_plays[c] == 0,
                wilson(agg.card_wins[c], agg.card_games[c]),
            )
            for c, name in enumerate(agg.card_names)
            if agg.in_play is None or agg.in_play[c]  # a card the setup leaves out is not dead
        ),
        notable=_notable(agg),
    )


def build_report(
    game: str,
    setup: Mapping[str, Any],
    records: Iterable[GameRecord],
    event_names: Sequence[str],
    card_names: Sequence[str],
    coop: bool = False,
    in_play: Sequence[bool] | None = None,
) -> SimReport:
    """The report of already-played games (any iterable: a generator keeps memory flat)."""
    aggregate = Aggregate(event_names, card_names, coop, in_play)
    return report_from(aggregate.add_all(records), game, setup)


__all__ = [
    "METRICS",
    "CardRow",
    "Figure",
    "Metric",
    "MetricValue",
    "Notable",
    "SimReport",
    "WinRow",
    "build_report",
    "iter_metrics",
]
