"""Replay one game from (seed, index) alone and tell it move by move.

The runner seeds game i from (seed, i) only, so the game a report names can be played again
exactly, with the same bots, rules values and options: each move's seat, its choice (the
engine's `action_label`) and what followed (the engine's event counters that moved, the
points that changed), then the final scores.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from toolkit.sim.engine import State
from toolkit.sim.runner import GameRecord, play_one
from toolkit.sim.session import Simulation


@dataclass(frozen=True, slots=True)
class Move:
    number: int  # 1-based move of the game
    round: int
    seat: int
    role: str
    choice: str
    choices: int  # legal actions it was chosen from
    outcome: tuple[str, ...]  # events that followed, points that changed


@dataclass(frozen=True)
class Replay:
    index: int
    moves: tuple[Move, ...]
    record: GameRecord


def _delta(
    names: Sequence[str], before: list[int], after: list[int], scores: tuple[list[float], ...]
) -> tuple[str, ...]:
    said = [
        f"{name} +{b - a}" if b - a != 1 else name
        for name, a, b in zip(names, before, after, strict=False)
        if b != a
    ]
    old, new = scores
    pairs = enumerate(zip(old, new, strict=True))
    said += [f"seat {s} {o:g}→{n:g} pts" for s, (o, n) in pairs if o != n]
    return tuple(said)


def replay(sim: Simulation, index: int) -> Replay:
    """Play game `index` of `sim` again, recording every move and its outcome."""
    config = sim.config
    (compiled, bots), _ = sim.prepared()  # the game loaded once, by the CLI
    names = tuple(compiled.event_names)
    moves: list[Move] = []
    pending: list[Move] = []  # the move being played; its outcome shows at the next one
    before: list[tuple[list[int], list[float]]] = []
    playing: list[State] = []  # play_one plays one state object from start to end

    def close(state: State) -> None:
        if pending:
            move = pending.pop()
            events, scores = before.pop()
            after = (scores, list(state.score_values()))
            outcome = _delta(names, events, list(state.events), after)
            moves.append(dataclasses.replace(move, outcome=outcome))

    def on_move(state: State, seat: int, action: int, choices: int) -> None:
        close(state)
        if not playing:
            playing.append(state)
        roles = state.roles()
        role = roles[seat] if seat < len(roles) else ""
        label = state.action_label(action)
        pending.append(Move(len(moves) + 1, state.rounds, seat, role, label, choices, ()))
        before.append((list(state.events), list(state.score_values())))

    record = play_one(compiled, config.setup, bots, index, config.seed, on_move)
    if playing:
        close(playing[0])
    return Replay(index, tuple(moves), record)
