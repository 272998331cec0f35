"""Play one game: its seed derived from (seed, index) alone, so any batching, worker count
or executor gives identical results and any game replays. `GameRecord` is what a finished
game leaves for the metrics (plain values: it crosses process boundaries).

Many games are played by toolkit.sim.play, the one simulation path.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import math
import numbers
import random
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from toolkit.sim import deadline
from toolkit.sim.bots import Bot
from toolkit.sim.deadline import (
    Bound,
    CallTimeout,
    GameTimeout,
    check_deadline,
    engine_guards,
    game_deadline,
    interrupted_call,
)
from toolkit.sim.engine import CompiledGame, GameSetup, State
from toolkit.sim.exits import refuse_exit
from toolkit.sim.signals import is_stop
from toolkit.sim.wrong_results import WrongResult, shown

SIM_GC_THRESHOLDS = (200_000, 50, 100)
"""The cyclic collector's thresholds while a game is played. A game allocates mostly
short-lived tuples and lists (freed by reference counting), and its first game builds the
engine's lookup tables (one bundled engine's is some 100,000 tuples, none garbage): with
the default 700 the next young collection walks all of them, and the older ones again. The
CLI sets these for its whole process; play_one sets them for each game, so a library caller,
a benchmark and a Dask worker play with the same collector as `playset simulate`."""


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
    then carries the failure, positioned in the engine's code. A game still running after
    `deadline.GAME_SECONDS`, or one of its steps (its setup, a move, its end values) after
    `deadline.CALL_SECONDS` (a call that never returns), stops the whole run: an
    EngineError (E005) at the line it was running, as every later game would hang too.
    The game runs with the collector's SIM_GC_THRESHOLDS (the caller's are put back)."""
    collector = gc.get_threshold()
    # a caller's own higher thresholds, or 0 (the collector off), are kept
    raise_them = 0 < collector[0] < SIM_GC_THRESHOLDS[0]
    if raise_them:
        gc.set_threshold(*SIM_GC_THRESHOLDS)
    try:
        return _play_bounded(compiled, setup, bots, index, seed, on_move)
    finally:
        if raise_them:
            gc.set_threshold(*collector)


def _play_bounded(
    compiled: CompiledGame,
    setup: GameSetup,
    bots: Sequence[Bot],
    index: int,
    seed: int,
    on_move: Callable[[State, int, int, int], None] | None,
) -> GameRecord:
    """play_one within the game's bounds and guards."""
    try:
        # the engine's print()s go to stderr: stdout holds the report (`check -f sarif`)
        with (
            refuse_exit(),
            game_deadline(step=deadline.call_seconds()) as bound,
            contextlib.redirect_stdout(sys.stderr),
            engine_guards() as restored,  # an engine's os.close(2) left the run silent
        ):
            record = _play(compiled, setup, bots, index, seed, on_move, bound)
        if restored and record.failure is None:
            what = (
                f"closed {' and '.join(restored)} (engine code must leave the standard streams"
                " open: print() goes to stderr; the run opened them again)"
            )
            gseed = game_seed(seed, index)
            return _failed(compiled, index, seed, gseed, record.moves, "E004", what, None)
        return record
    except GameTimeout as exc:
        from toolkit.diagnostics import Span
        from toolkit.sim.engines import E_ENDLESS, EngineError, failure_at

        file, line = failure_at(compiled, type(compiled).new_state, exc)
        replay = f"replay it: playset replay --seed {seed} -g {index}"
        if isinstance(exc, CallTimeout):
            call = interrupted_call(exc, (__file__,))
            step = f"move {bound.steps - 1}" if bound.steps else "its setup"
            message = (
                f"game {index} (--seed {seed}, game seed {game_seed(seed, index)}), {step}: "
                f"{call} did not return within {bound.step:g} s: it was running this line"
                f" (a loop without end?); {replay}"
            )
        else:
            message = (
                f"game {index} (--seed {seed}) still not over after {deadline.GAME_SECONDS:g}"
                f" s: it was running this line (a loop without end?); {replay}"
            )
        raise EngineError(E_ENDLESS.at(file, Span(line, 1), message)) from None


def _play(
    compiled: CompiledGame,
    setup: GameSetup,
    bots: Sequence[Bot],
    index: int,
    seed: int,
    on_move: Callable[[State, int, int, int], None] | None,
    bound: Bound,
) -> GameRecord:
    gseed = game_seed(seed, index)
    moves = 0
    state: State | None = None
    try:
        state = compiled.new_state(setup, gseed)
        bound.steps += 1  # the step bound's count: the setup, each move (see deadline.Bound)
        bot_rng = random.Random(gseed ^ 0x5EED5EED)
        decisions = branching = 0
        limit = compiled.max_turns
        seats = len(bots)
        # in the main thread the timer signal (and the watch thread) bound the game: the
        # check between moves is for games played in another thread
        threaded = threading.current_thread() is not threading.main_thread()
        while not state.is_terminal() and moves < limit:
            if threaded:
                check_deadline(bound)
            seat = state.current_player()
            actions = state.legal_actions()
            if len(actions) > 1:
                decisions += 1
                branching += len(actions)
                bot = bots[seat % seats]
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
            if type(action) is not int and not _is_action(action):  # one test a move
                raise WrongResult("legal_actions", str(not_an_action(actions, action)))
            if on_move is not None:
                on_move(state, seat, action, len(actions))
            state.apply(action)
            moves += 1
            bound.steps += 1
        if not state.is_terminal():
            what = f"the game did not end within max_turns={limit} moves"
            at = type(state).is_terminal
            return _failed(compiled, index, seed, gseed, moves, "E005", what, at)
        return GameRecord(
            index=index,
            seed=gseed,
            moves=moves,
            decisions=decisions,
            branching=branching,
            **end_values(compiled, setup, state),
        )
    except WrongResult as exc:  # a result the report cannot count: at the method's line
        at = getattr(type(state), exc.method, type(state))
        return _failed(compiled, index, seed, gseed, moves, "E004", str(exc), at)
    except BaseException as exc:  # the engine's or a bot's mistake (sys.exit() and any
        # BaseException included: the run would end with the engine's code): this game
        # stops; a stop signal and the time bound go on up
        if isinstance(exc, GameTimeout) or is_stop(exc):  # not an engine's own Ctrl-C
            raise
        from toolkit.sim.engines import describe

        where = type(state).apply if state is not None else type(compiled).new_state
        what = f"raised {describe(exc)}"
        return _failed(compiled, index, seed, gseed, moves, "E004", what, where, exc)


def end_values(compiled: CompiledGame, setup: GameSetup, state: State) -> dict[str, Any]:
    """What a finished game leaves for the report (GameRecord's fields but the game's
    index, seed and move counts), each checked: WrongResult names the method and what the
    report cannot count (`check --contract` reports the same, as simulate's E004)."""
    scores = _numbers(state.score_values(), "score_values")
    returns = _numbers(state.returns(), "returns")
    if not compiled.seats_are_teams(setup):  # a team game counts per team
        _per_seat(returns, "returns", setup.players)
        _per_seat(scores, "score_values", setup.players)
    bad = next((v for v in returns if not 0 <= v <= 1), None)
    if bad is not None:
        what = f"returns() holds {bad!r}: a seat's result is 1/k for k winners, else 0"
        raise WrongResult("returns", what)
    return {
        "returns": returns,
        "scores": scores,
        "turns": _count(state.turns, "turns"),
        "rounds": _count(state.rounds, "rounds"),
        "timed_out": _flag(state.timed_out, "timed_out"),
        "roles": _roles(state.roles()),
        "events": _counts(state.events, "events"),
        "card_plays": tuple(_counts(row, "card_plays") for row in _rows(state.card_plays)),
        "figures": _figures(state.figures()),
        "first": _count(state.first_player(), "first_player", "first_player"),
    }


def _flag(value: object, name: str) -> bool:
    """A yes/no the engine keeps: a bool (`"no"` was truthy: every game a timeout)."""
    if not isinstance(value, bool):
        raise WrongResult(name, f"state.{name} is {shown(value)}, not True or False")
    return value


def _is_number(value: object) -> bool:
    """A finite int or float the report can add up (no bool, NaN, infinity or an int past
    the float range: they made nonsense rates, a traceback, or JSON others cannot read)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int too large for a float
        return False


def _numbers(values: Any, method: str) -> tuple[float, ...]:
    """`values` as a tuple, each a number (kept as given: ints stay ints in the report)."""
    try:
        out: tuple[Any, ...] = tuple(values)
    except TypeError:
        raise WrongResult(method, f"{method}() returned {shown(values)}, not a list") from None
    for value in out:
        if not _is_number(value):
            raise WrongResult(method, f"{method}() holds {shown(value)}, not a number")
    return out


def _per_seat(values: tuple[float, ...], method: str, players: int) -> None:
    if len(values) != players:
        what = f"{method}() has {len(values)} entries for {players} players (one per seat)"
        raise WrongResult(method, what)


MAX_COUNT = 2**53
"""The largest counter the report adds up exactly (a float's whole numbers): 10**5000 turns
or events was an OverflowError traceback from the report's running totals."""


def _count(value: object, name: str, method: str = "apply") -> int:
    """A whole number the engine keeps (turns, rounds, a counter), as an int."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise WrongResult(method, f"state.{name} is {shown(value)}, not a whole number")
    if abs(value) > MAX_COUNT:
        raise WrongResult(method, f"state.{name} is {shown(value)}: too large to count")
    return value


def _counts(values: Any, name: str) -> tuple[int, ...]:
    try:
        out: tuple[Any, ...] = tuple(values)
    except TypeError:
        raise WrongResult("apply", f"state.{name} is {shown(values)}, not a list") from None
    return tuple(_count(v, name) for v in out)


def _rows(values: Any) -> tuple[object, ...]:
    try:
        return tuple(values)
    except TypeError:
        what = f"state.card_plays is {shown(values)}, not a list of lists"
        raise WrongResult("apply", what) from None


def _roles(values: Any) -> tuple[str, ...]:
    try:
        out: tuple[Any, ...] = tuple(values)
    except TypeError:
        raise WrongResult("roles", f"roles() returned {shown(values)}, not a list") from None
    for value in out:
        if not isinstance(value, str):
            raise WrongResult("roles", f"roles() holds {shown(value)}, not a str")
    return out


MAX_FIGURES = 1000
"""Figures one game may report (each is a row of the report, kept for every game)."""
MAX_FIGURE_VALUES = 1000
"""Values in one tuple figure (a million-value figure over 200 games took 2.7 GB)."""


def _figures(found: object) -> tuple[tuple[str, float | tuple[float, ...]], ...]:
    """figures() as sorted (name, number or tuple of numbers) pairs."""
    from toolkit.sim.engines import name_problem  # the same rule as event and card names

    items = getattr(found, "items", None)
    if not callable(items):
        raise WrongResult("figures", f"figures() returned {shown(found)}, not a dict")
    pairs: list[tuple[str, Any]] = []
    for name, value in items():
        if len(pairs) >= MAX_FIGURES:
            what = f"figures() holds more than {MAX_FIGURES} figures"
            raise WrongResult("figures", what)
        if not isinstance(name, str):
            raise WrongResult("figures", f"figures() names a figure {shown(name)}, not a str")
        problem = name_problem(name)
        if problem:
            raise WrongResult("figures", f"figures() names a figure {shown(name)}: {problem}")
        many = isinstance(value, tuple | list)
        if many and len(value) > MAX_FIGURE_VALUES:
            what = f"figures()[{name!r}] holds {len(value):,} values (at most {MAX_FIGURE_VALUES})"
            raise WrongResult("figures", what)
        if not (_is_number(value) or (many and all(_is_number(v) for v in value))):
            what = f"figures()[{name!r}] is {shown(value)}, not a number or a tuple of numbers"
            raise WrongResult("figures", what)
        pairs.append((name, value))
    return tuple(sorted(pairs))


def _is_action(value: object) -> bool:
    """An action as the contract has them: an int (an IntEnum too), never a bool (`True`
    equals 1, so `[True]` played action 1 unseen)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def not_an_action(actions: Sequence[object], played: object) -> str | None:
    """What is wrong with `actions` (the first one that is no action), or with `played`
    (the move about to be applied); None when both are fine."""
    bad = next((a for a in actions if not _is_action(a)), played)
    if _is_action(bad):
        return None
    return f"legal_actions() holds {shown(bad)}, not an action (an int; see docs/engines.md)"


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
