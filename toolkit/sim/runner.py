"""Play one game: its seed derived from (seed, index) alone, so any batching, worker count
or executor gives identical results and any game replays. `GameRecord` is what a finished
game leaves for the metrics (plain values: it crosses process boundaries).

Many games are played by toolkit.sim.play, the one simulation path.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from toolkit.sim.bots import Bot
from toolkit.sim.engine import CompiledGame, GameSetup, State


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index`: a hash of (seed, index), independent of batching."""
    digest = hashlib.blake2b(f"{seed}/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


@dataclass(frozen=True, slots=True)
class GameFailure:
    """Why one game stopped before its end: an engine mistake (E003–E005) at a line of the
    engine's own code, as plain values (it crosses process boundaries)."""

    code: str
    message: str
    file: str
    line: int
    move: int


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything metrics need from one finished game, as plain values."""

    index: int
    seed: int
    returns: tuple[float, ...]
    scores: tuple[float, ...]
    turns: int
    rounds: int
    timed_out: bool
    roles: tuple[str, ...]
    moves: int  # actions applied
    decisions: int  # moves with more than one legal action
    branching: int  # sum of legal-action counts at decisions
    events: tuple[int, ...]
    card_plays: tuple[tuple[int, ...], ...]
    figures: tuple[tuple[str, float | tuple[float, ...]], ...] = ()
    failure: GameFailure | None = None  # set when the game stopped on an engine mistake
    first: int = 0  # the seat that took the first turn (State.first_player)


def play_one(
    compiled: CompiledGame,
    setup: GameSetup,
    bots: Sequence[Bot],
    index: int,
    seed: int,
    on_move: Callable[[State, int, int, int], None] | None = None,
) -> GameRecord:
    """Play game `index` to the end; `on_move(state, seat, action, choices)` is told each
    move before it is applied (replay logs). An engine mistake (a move that is not legal,
    an exception, no end within the declared `max_turns`) stops this game only: its record
    then carries the failure, positioned in the engine's code."""
    gseed = game_seed(seed, index)
    moves = 0
    state: State | None = None
    try:
        state = compiled.new_state(setup, gseed)
        bot_rng = random.Random(gseed ^ 0x5EED5EED)
        decisions = branching = 0
        limit = compiled.max_turns
        while not state.is_terminal() and moves < limit:
            seat = state.current_player()
            actions = state.legal_actions()
            if len(actions) > 1:
                decisions += 1
                branching += len(actions)
                bot = bots[seat % len(bots)]
                action = bot.choose(state, bot_rng)
                if action not in actions:
                    what = (
                        f"bot {getattr(bot, 'name', type(bot).__name__)} (seat {seat}) chose "
                        f"{action!r}, not one of the legal actions {_few(actions)}"
                    )
                    return _failed(compiled, index, seed, gseed, moves, "E003", what, bot.choose)
            elif actions:
                action = actions[0]
            else:
                what = "no legal action, though the game is not over"
                at: object = type(state).legal_actions
                return _failed(compiled, index, seed, gseed, moves, "E005", what, at)
            if on_move is not None:
                on_move(state, seat, action, len(actions))
            state.apply(action)
            moves += 1
        if not state.is_terminal():
            what = f"the game did not end within max_turns={limit} moves"
            at = type(state).is_terminal
            return _failed(compiled, index, seed, gseed, moves, "E005", what, at)
        scores = tuple(state.score_values())
        return GameRecord(
            index=index,
            seed=gseed,
            returns=tuple(state.returns()),
            scores=scores,
            turns=state.turns,
            rounds=state.rounds,
            timed_out=state.timed_out,
            roles=tuple(state.roles()),
            moves=moves,
            decisions=decisions,
            branching=branching,
            events=tuple(state.events),
            card_plays=tuple(tuple(row) for row in state.card_plays),
            figures=tuple(sorted(state.figures().items())),
            first=state.first_player(),
        )
    except (Exception, SystemExit) as exc:  # the engine's or a bot's mistake (sys.exit()
        # included: the run would end silently with the engine's code): this game stops
        where = type(state).apply if state is not None else type(compiled).new_state
        what = f"raised {type(exc).__name__}: {exc}" if str(exc) else f"raised {type(exc).__name__}"
        return _failed(compiled, index, seed, gseed, moves, "E004", what, where, exc)


def _few(actions: Sequence[int]) -> str:
    shown = ", ".join(map(str, actions[:8]))
    return f"[{shown}{', …' if len(actions) > 8 else ''}]"


def _failed(
    compiled: CompiledGame,
    index: int,
    seed: int,
    gseed: int,
    move: int,
    code: str,
    what: str,
    fallback: object,
    exc: BaseException | None = None,
) -> GameRecord:
    from toolkit.sim.engines import failure_at

    file, line = failure_at(compiled, fallback, exc)
    message = (
        f"game {index} (--seed {seed}, game seed {gseed}), move {move}: {what}; "
        f"replay it: playset replay --seed {seed} -g {index}"
    )
    failure = GameFailure(code, message, file, line, move)
    return GameRecord(index, gseed, (), (), 0, 0, False, (), move, 0, 0, (), (), (), failure)
