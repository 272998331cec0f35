"""The typed simulation report: `SimReport`, frozen data built from the aggregate of the
games played. Rates carry their 95% Wilson interval, per-game quantities a `Summary` with
intervals for mean and median.

Seats and roles are tested against the fair share (1 / seats) and the p-values Holm-corrected
together, so a flag means "significantly unfair after accounting for how many things we looked
at".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolkit.sim.aggregate import Aggregate
from toolkit.sim.metrics.base import MetricValue, iter_metrics
from toolkit.sim.runner import GameRecord
from toolkit.sim.stats import Rate, Summary, holm, proportion_p_value, wilson

ALPHA = 0.05
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
