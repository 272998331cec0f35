"""Play many games: seeds derived from (seed, i) alone, batches to a process pool, results
merged in game order, so any worker count gives identical results and any game replays.

A distributed executor (Dask's `Client` has the same `submit`/`map` interface) can replace
the local pool: `run()` takes any `concurrent.futures.Executor`-like object.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import random
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from toolkit.sim.bots import GENERIC_BOTS, Bot
from toolkit.sim.engine import CompiledGame, GameSetup, State

if TYPE_CHECKING:
    from toolkit.content.game import Game


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
    except Exception as exc:  # the engine's or a bot's mistake: this game stops, not the run
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


@dataclass
class SimConfig:
    """What to simulate; picklable, so each worker rebuilds the compiled game itself."""

    game_dir: Path
    setup: GameSetup
    bots: tuple[str, ...] = ("random",)
    seed: int = 0
    games: int = 100
    batch: int = 0  # games per task; 0 picks a size that gives a few seconds of work
    extra: dict[str, object] = field(default_factory=dict)
    rules: tuple[tuple[str, object], ...] = ()  # (dotted path in `rules`, value) overrides


Prepared = tuple[CompiledGame, list[Bot]]
"""A compiled game and one bot per seat: what playing a config's games needs."""

_WORKER: dict[str, Prepared] = {}  # one entry: the last config's


def compile_game(game_dir: Path, rules: tuple[tuple[str, object], ...] = ()) -> CompiledGame:
    """Load and compile a game folder (raises ValueError if it has no engine or is invalid,
    EngineError if its engine cannot be loaded), with some rules values replaced (see
    toolkit.sim.variants)."""
    from toolkit.content.game import load_game

    return compile_loaded(load_game(game_dir), rules)


def compile_loaded(game: Game, rules: tuple[tuple[str, object], ...] = ()) -> CompiledGame:
    """`compile_game` for a game already loaded (the CLI's gated game): no file read again."""
    from toolkit.sim.engines import compile_checked, engine_of, no_engine_message

    if rules:
        from toolkit.sim.variants import with_rules

        game = with_rules(game, rules)
    errors = [d for d in game.diagnostics if d.severity == "error"]
    if errors:
        raise ValueError(f"{game.root}: content has {len(errors)} error(s); run playset validate")
    engine = engine_of(game) if game.manifest is not None else None
    if engine is None:
        raise ValueError(no_engine_message(game.id))
    return compile_checked(engine, game)


def make_bots(game_dir: Path, names: Sequence[str], players: int) -> list[Bot]:
    from toolkit.content.game import load_game

    return seat_bots(load_game(game_dir), names, players)


def seat_bots(game: Game, names: Sequence[str], players: int) -> list[Bot]:
    """One bot per seat, the names cycled, from the generic bots and the game engine's own."""
    from toolkit.sim.engines import engine_of

    engine = engine_of(game)
    table: dict[str, Callable[[int], Bot]] = {**GENERIC_BOTS, **(engine.bots if engine else {})}
    return [table[names[seat % len(names)]](seat) for seat in range(players)]


def _key(config: SimConfig, shipped: bytes | None = None) -> str:
    """What a process's kept game is known by: the config, and the shipped game's digest
    (a long-lived worker, as Dask's, then never plays an edited game's stale copy)."""
    digest = hashlib.blake2b(shipped, digest_size=16).hexdigest() if shipped else ""
    return f"{config.game_dir}|{config.bots}|{config.setup}|{config.rules}|{digest}"


def prepare_loaded(config: SimConfig, game: Game) -> tuple[Prepared, bytes | None]:
    """Compile `config`'s game from the loaded `game` once and keep it for this process's
    batches; also return it pickled for the workers of a pool or a cluster (None if the
    engine's objects do not pickle: each worker then loads and compiles the game itself)."""
    bots = seat_bots(game, config.bots, config.setup.players)
    prepared = (compile_loaded(game, config.rules), bots)
    try:
        shipped: bytes | None = pickle.dumps(prepared, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        shipped = None
    _WORKER.clear()
    _WORKER[_key(config, shipped)] = prepared
    return prepared, shipped


def _prepared(config: SimConfig, shipped: bytes | None = None) -> Prepared:
    """This process's compiled game and bots for `config`: kept from an earlier batch,
    unpickled from what the main process shipped, else loaded and compiled here."""
    key = _key(config, shipped)
    if key not in _WORKER:
        _WORKER.clear()
        kept = _unpickled(shipped)
        if kept is None:
            compiled = compile_game(config.game_dir, config.rules)
            kept = (compiled, make_bots(config.game_dir, config.bots, config.setup.players))
        _WORKER[key] = kept
    return _WORKER[key]


def _unpickled(shipped: bytes | None) -> Prepared | None:
    """The shipped game, or None when this process cannot rebuild it (a game folder's own
    engine module, imported by name in the main process only, on a spawned or remote
    worker): the worker then loads the folder itself."""
    if shipped is None:
        return None
    try:
        found: Prepared = pickle.loads(shipped)
    except Exception:  # ModuleNotFoundError, AttributeError…: whatever unpickling raises
        return None
    return found


def _run_batch(
    config: SimConfig, indices: Sequence[int], shipped: bytes | None = None
) -> list[GameRecord]:
    compiled, bots = _prepared(config, shipped)
    return [play_one(compiled, config.setup, bots, i, config.seed) for i in indices]


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C or SIGTERM: `records` are the games 0..k-1 that finished
    (a prefix, so the partial report is the first k games of the full one)."""

    def __init__(self, records: list[GameRecord], signum: int) -> None:
        super().__init__(f"stopped by signal {signum} after {len(records)} game(s)")
        self.records = records
        self.signum = signum


class _Signalled(KeyboardInterrupt):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_STOP: list[int] = []  # signals received: a stop stays requested even if a library
# swallowed the KeyboardInterrupt (the run checks it between games)


def _raise_signal(signum: int, frame: object) -> None:
    """The first Ctrl-C or SIGTERM raises (the run stops and reports); a second one ends
    the process at once (workers die with it: PR_SET_PDEATHSIG)."""
    if _STOP:
        os._exit(128 + signum)
    _STOP.append(signum)
    raise _Signalled(signum)


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """SIGTERM raises like Ctrl-C (its default would kill this process and leave the
    workers orphaned), and either is remembered for `run`; the previous handlers come back
    afterwards. The CLI holds this from start to end so no signal is lost while loading."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    outermost = previous[signal.SIGTERM] is not _raise_signal
    if outermost:
        _STOP.clear()
    signal.signal(signal.SIGTERM, _raise_signal)
    if previous[signal.SIGINT] in (signal.default_int_handler, _raise_signal):
        signal.signal(signal.SIGINT, _raise_signal)
    try:
        yield
    finally:
        if not _STOP:  # once stopping, the handlers stay: a second signal ends it now
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def check_stop() -> None:
    """Raise if a stop signal arrived (for loops that play or fold games one by one)."""
    if _STOP:
        raise _Signalled(_STOP[0])


_check_stop = check_stop


def _worker_init() -> None:
    """Workers leave Ctrl-C to the main process (which stops them) and die with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: killed if the parent dies
    except (OSError, AttributeError):
        pass


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel what is queued and end the workers now (not after their batches)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(1.0)
        if process.is_alive():
            process.kill()
            process.join(1.0)
    pool.shutdown(wait=True)  # the pool's own thread, so nothing is left for exit time


def _batches(n: int, size: int) -> list[list[int]]:
    return [list(range(start, min(n, start + size))) for start in range(0, n, size)]


def run(
    config: SimConfig,
    workers: int = 1,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[GameRecord]:
    """Play `config.games` games; identical results for any worker count or executor.

    Ctrl-C or SIGTERM stops the workers at once and raises `Interrupted` with the games
    finished so far; a second signal ends the process."""
    size = config.batch or max(50, min(2000, config.games // max(1, workers * 8) or 1))
    batches = _batches(config.games, size)
    results: list[GameRecord] = []
    own = executor is None and workers > 1
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init) if own else executor
    try:
        with stop_on_signals():
            _check_stop()
            if pool is None:
                compiled, bots = _prepared(config)
                for batch in batches:
                    for index in batch:  # game by game: a stop keeps every finished one
                        results.append(play_one(compiled, config.setup, bots, index, config.seed))
                        _check_stop()
                    if progress:
                        progress(len(batch))
                return results
            futures = [pool.submit(_run_batch, config, batch) for batch in batches]
            for future in futures:  # in submission (= game) order
                records = future.result()
                _check_stop()
                results.extend(records)
                if progress:
                    progress(len(records))
    except KeyboardInterrupt as exc:
        signum = getattr(exc, "signum", signal.SIGINT)
        if own:
            assert isinstance(pool, ProcessPoolExecutor)
            _stop_pool(pool)
        elif pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        raise Interrupted(results, signum) from None
    if own:
        assert isinstance(pool, ProcessPoolExecutor)
        pool.shutdown()
    return results
