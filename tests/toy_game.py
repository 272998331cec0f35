"""A tiny dice race used to test the simulation core without a real game's engine.

Each turn a player rolls a die (chance from the state's RNG) and then either banks the roll
(moves forward by it) or stops (moves 1). The first to reach the goal wins; the cap makes
endless games impossible.
"""

from __future__ import annotations

import random

from toolkit.sim.engine import TERMINAL, CompiledGame, GameSetup, State

BANK, STEP = 0, 1


class ToyState(State):
    __slots__ = ("rng", "turns", "rounds", "events", "card_plays", "pos", "seat", "roll", "goal")

    def __init__(self, players: int, goal: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.turns = 0
        self.rounds = 0
        self.events = [0, 0]
        self.card_plays = [[0, 0] for _ in range(players)]
        self.pos = [0] * players
        self.seat = 0
        self.goal = goal
        self.roll = self.rng.randint(1, 6)

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.seat

    def legal_actions(self) -> list[int]:
        return [BANK, STEP]

    def apply(self, action: int) -> None:
        self.pos[self.seat] += self.roll if action == BANK else 1
        self.events[action] += 1
        self.card_plays[self.seat][action] += 1
        self.turns += 1
        self.seat = (self.seat + 1) % len(self.pos)
        if self.seat == 0:
            self.rounds += 1
        self.roll = self.rng.randint(1, 6)

    def is_terminal(self) -> bool:
        return max(self.pos) >= self.goal

    def returns(self) -> list[float]:
        return [1.0 if p >= self.goal else 0.0 for p in self.pos]

    def score_values(self) -> list[float]:
        return [float(p) for p in self.pos]

    def clone(self) -> ToyState:
        other = ToyState.__new__(ToyState)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.turns, other.rounds, other.seat = self.turns, self.rounds, self.seat
        other.events = self.events[:]
        other.card_plays = [row[:] for row in self.card_plays]
        other.pos = self.pos[:]
        other.roll, other.goal = self.roll, self.goal
        return other

    def roles(self) -> list[str]:
        return [f"seat-{i}" for i in range(len(self.pos))]

    def score_estimate(self, seat: int) -> float:
        """The greedy bot's hook: my lead over the best other player."""
        others = [p for i, p in enumerate(self.pos) if i != seat]
        return self.pos[seat] - max(others, default=0)


class ToyGame(CompiledGame):
    game_id = "toy"
    event_names = ("banked", "stepped")
    card_names = ("bank", "step")
    max_turns = 400
    min_players = 2
    max_players = 4

    def __init__(self, goal: int = 30) -> None:
        self.goal = goal

    def new_state(self, setup: GameSetup, seed: int) -> ToyState:
        return ToyState(setup.players, self.goal, seed)
