"""Fold finished games into running totals, one game at a time, in game order.

Nothing per game is kept: counters, sums and `Distribution`s of whole-number values, so a
1,000,000-game run needs the memory of a 10,000-game one. Folding in game order (the runner
delivers batches in order) keeps every float sum identical for any batch size or worker count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from toolkit.sim.runner import GameRecord
from toolkit.sim.stats import Distribution

MAX_LISTED = 5  # timed-out games named in the report
MAX_FAILURES = 10  # failed games whose finding is shown (all are counted)


class Aggregate:
    """Running totals of a simulation; `report()` turns them into the typed report."""

    def __init__(
        self,
        event_names: Sequence[str],
        card_names: Sequence[str],
        coop: bool,
        in_play: Sequence[bool] | None = None,
    ):
        self.event_names = tuple(event_names)
        self.card_names = tuple(card_names)
        self.in_play = tuple(in_play) if in_play is not None else None  # cards the setup uses
        self.coop = coop
        self.games = 0
        self.finished = 0
        self.seats = 0
        self.shared = 0  # finished games without exactly one winner (not co-op)
        self.team_wins = 0
        self.turns = Distribution()
        self.rounds = Distribution()
        self.moves = self.decisions = self.branching = 0
        self.decided_total = 0.0  # winners' shares summed over decided games
        self.decided = 0
        self.seat_wins: list[float] = []
        self.first_wins = 0.0  # the results of the seat that took the first turn, summed
        self.roles: dict[str, list[float]] = {}
        self.events = [Distribution() for _ in self.event_names]
        self.figures: dict[str, Distribution] = {}
        self.card_plays = [0] * len(self.card_names)
        self.card_games = [0] * len(self.card_names)
        self.card_wins = [0.0] * len(self.card_names)
        # Notable games by index, for `playset replay`: (value, index) kept, never a list.
        Seen = tuple[float, int, tuple[float, ...]]  # (value, index, scores)
        self.longest: Seen | None = None
        self.shortest: Seen | None = None
        self.widest: Seen | None = None
        self.timeout_games: list[Seen] = []  # the first few only
        self.failed = 0  # games stopped by an engine mistake (not folded into the totals)
        self.failures: list[Any] = []  # the first few GameFailures, in game order

    def add(self, r: GameRecord) -> None:
        if r.failure is not None:
            self.failed += 1
            if len(self.failures) < MAX_FAILURES:
                self.failures.append(r.failure)
            return
        self.games += 1
        self._notable(r)
        if not self.seats:
            self.seats = len(r.returns)
            self.seat_wins = [0.0] * self.seats
        self.turns.add(r.turns)
        self.rounds.add(r.rounds)
        self.moves += r.moves
        self.decisions += r.decisions
        self.branching += r.branching
        for dist, count in zip(self.events, r.events, strict=False):
            dist.add(count)
        for name, value in r.figures:
            figure = self.figures.get(name)
            if figure is None:
                figure = self.figures[name] = Distribution()
            if isinstance(value, tuple | list):
                for v in value:
                    figure.add(v)
            else:
                figure.add(value)
        if r.timed_out:
            return
        self.finished += 1
        returns = r.returns
        total = sum(returns)
        if total > 0:
            self.decided_total += total
            self.decided += 1
        if not self.coop and sum(1 for x in returns if x > 0) != 1:
            self.shared += 1
        if returns and returns[0] > 0:
            self.team_wins += 1
        for seat in range(min(self.seats, len(returns))):
            self.seat_wins[seat] += returns[seat]
        if 0 <= r.first < len(returns):
            self.first_wins += returns[r.first]
        for seat, role in enumerate(r.roles):
            if seat < len(returns):
                totals = self.roles.get(role)
                if totals is None:
                    totals = self.roles[role] = [0.0, 0]
                totals[0] += returns[seat]
                totals[1] += 1
        ncards = len(self.card_names)
        for seat, row in enumerate(r.card_plays):
            won = returns[seat] if seat < len(returns) else 0.0
            for c, count in enumerate(row[:ncards]):
                if count:
                    self.card_plays[c] += count
                    self.card_games[c] += 1
                    self.card_wins[c] += won

    def _notable(self, r: GameRecord) -> None:
        if self.longest is None or r.turns > self.longest[0]:
            self.longest = (r.turns, r.index, r.scores)
        if self.shortest is None or r.turns < self.shortest[0]:
            self.shortest = (r.turns, r.index, r.scores)
        if r.timed_out and len(self.timeout_games) < MAX_LISTED:
            self.timeout_games.append((r.turns, r.index, r.scores))
        if len(r.scores) > 1 and not r.timed_out:
            top, second = sorted(r.scores, reverse=True)[:2]
            if self.widest is None or top - second > self.widest[0]:
                self.widest = (top - second, r.index, r.scores)

    def add_all(self, records: Iterable[GameRecord]) -> Aggregate:
        for record in records:
            self.add(record)
        return self
