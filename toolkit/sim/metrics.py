"""Turn game records into the balance report: rates with Wilson intervals, fairness flags.

Every rate carries its 95% interval. Seats and roles are tested against the fair share
(1 / seats) and the p-values Holm-corrected together, so a flag means "significantly unfair
after accounting for how many things we looked at".
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from toolkit.sim.runner import GameRecord
from toolkit.sim.stats import holm, proportion_p_value, summary, wilson

ALPHA = 0.05


@dataclass
class Report:
    """The report as plain data (JSON-ready)."""

    game: str
    setup: dict[str, Any]
    data: dict[str, Any] = field(default_factory=dict)


def _fair_share(records: Sequence[GameRecord], seats: int, coop: bool) -> float | None:
    """What a seat would win if seats were equal: the share of winners per game.

    1/seats in a free-for-all; 1/2 for each seat when two teams of seats share a win; none in
    co-operative play, where everybody wins or loses together."""
    if coop or seats <= 0:
        return None
    decided = [sum(r.returns) for r in records if not r.timed_out and sum(r.returns) > 0]
    if not decided:
        return 1.0 / seats
    return sum(decided) / len(decided) / seats


def build_report(
    game: str,
    setup: dict[str, Any],
    records: Sequence[GameRecord],
    event_names: Sequence[str],
    card_names: Sequence[str],
    coop: bool = False,
    in_play: Sequence[bool] | None = None,
) -> Report:
    n = len(records)
    seats = len(records[0].returns) if records else 0
    finished = [r for r in records if not r.timed_out]
    report = Report(game, setup)
    d = report.data
    d["games"] = n
    d["seats"] = seats
    d["completion"] = wilson(len(finished), n).as_dict()
    d["timeouts"] = wilson(n - len(finished), n).as_dict()
    draws = sum(1 for r in finished if sum(1 for x in r.returns if x > 0) != 1 and not coop)
    d["shared_or_no_winner"] = wilson(draws, len(finished)).as_dict()
    d["turns"] = summary([r.turns for r in records])
    d["rounds"] = summary([r.rounds for r in records])
    d["length_histogram"] = _histogram([r.turns for r in records])
    moves = sum(r.moves for r in records)
    decisions = sum(r.decisions for r in records)
    d["decision_share"] = wilson(decisions, moves).as_dict()
    d["branching_factor"] = (sum(r.branching for r in records) / decisions) if decisions else 0.0
    fair = _fair_share(finished, seats, coop)
    d["fair_share"] = fair
    seat_rows = []
    for seat in range(seats):
        wins = sum(r.returns[seat] for r in finished)
        seat_rows.append({"seat": seat, **wilson(wins, len(finished)).as_dict()})
    role_totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    for r in finished:
        for seat, role in enumerate(r.roles):
            if seat < len(r.returns):
                role_totals[role][0] += r.returns[seat]
                role_totals[role][1] += 1
    role_rows = [
        {"role": role, **wilson(k, int(m)).as_dict()}
        for role, (k, m) in sorted(role_totals.items())
    ]
    if coop and finished:
        d["team_win"] = wilson(
            sum(1 for r in finished if r.returns and r.returns[0] > 0), len(finished)
        ).as_dict()
    _flag(seat_rows + role_rows, fair)
    d["seats_win"] = seat_rows
    d["roles_win"] = role_rows
    means = (
        [sum(r.returns[s] for r in finished) / len(finished) for s in range(seats)]
        if finished
        else []
    )
    d["balance"] = 1.0 - (max(means) - min(means)) if means else None
    d["first_player_advantage"] = (seat_rows[0]["rate"] - fair) if seat_rows and fair else None
    d["events_per_game"] = {
        name: summary([r.events[i] for r in records]) for i, name in enumerate(event_names)
    }
    d["cards"] = _cards(finished, card_names, in_play)
    d["figures"] = _figures(records)
    return report


def _flag(rows: list[dict[str, Any]], fair: float | None) -> None:
    if fair is None:
        for row in rows:
            row["p_adjusted"] = None
            row["unfair"] = False
        return
    raw = [proportion_p_value(row["k"], int(row["n"]), fair) for row in rows]
    for row, adjusted in zip(rows, holm(raw), strict=True):
        row["p_adjusted"] = adjusted
        row["unfair"] = adjusted < ALPHA


def _histogram(values: list[int], bins: int = 20) -> list[dict[str, float]]:
    if not values:
        return []
    low, high = min(values), max(values)
    width = max(1, -(-(high - low + 1) // bins))
    counts: dict[int, int] = defaultdict(int)
    for v in values:
        counts[(v - low) // width] += 1
    return [
        {"from": low + b * width, "to": low + (b + 1) * width - 1, "games": counts.get(b, 0)}
        for b in range((high - low) // width + 1)
    ]


def _cards(
    records: Sequence[GameRecord], names: Sequence[str], in_play: Sequence[bool] | None = None
) -> list[dict[str, Any]]:
    rows = []
    for c, name in enumerate(names):
        if in_play is not None and not in_play[c]:
            continue
        plays = 0
        games_played = 0
        wins_when_played = 0.0
        for r in records:
            played_by = [s for s, row in enumerate(r.card_plays) if c < len(row) and row[c]]
            plays += sum(row[c] for row in r.card_plays if c < len(row))
            for s in played_by:
                games_played += 1
                wins_when_played += r.returns[s] if s < len(r.returns) else 0.0
        rows.append(
            {
                "card": name,
                "plays": plays,
                "plays_per_game": plays / len(records) if records else 0.0,
                "dead": plays == 0,
                "win_when_played": wilson(wins_when_played, games_played).as_dict(),
            }
        )
    return rows


def _figures(records: Sequence[GameRecord]) -> dict[str, dict[str, float]]:
    values: dict[str, list[float]] = defaultdict(list)
    for r in records:
        for name, value in r.figures:
            if isinstance(value, tuple | list):
                values[name].extend(value)
            else:
                values[name].append(value)
    return {name: summary(v) for name, v in sorted(values.items())}
