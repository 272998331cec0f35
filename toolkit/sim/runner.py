"""Play many games: seeds derived from (seed, i) alone, batches to a process pool, results
merged in game order, so any worker count gives identical results and any game replays.

A distributed executor (Dask's `Client` has the same `submit`/`map` interface) can replace
the local pool: `run()` takes any `concurrent.futures.Executor`-like object.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from toolkit.sim.bots import GENERIC_BOTS, Bot
from toolkit.sim.engine import CompiledGame, GameSetup, State


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index`: a hash of (seed, index), independent of batching."""
    digest = hashlib.blake2b(f"{seed}/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


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


def play_one(
    compiled: CompiledGame,
    setup: GameSetup,
    bots: Sequence[Bot],
    index: int,
    seed: int,
    on_move: Callable[[State, int, int, int], None] | None = None,
) -> GameRecord:
    """Play game `index` to the end (or the declared maximum length); `on_move(state, seat,
    action, choices)` is told each move before it is applied (replay logs)."""
    gseed = game_seed(seed, index)
    state = compiled.new_state(setup, gseed)
    bot_rng = random.Random(gseed ^ 0x5EED5EED)
    decisions = branching = moves = 0
    limit = compiled.max_turns
    while not state.is_terminal() and moves < limit:
        seat = state.current_player()
        actions = state.legal_actions()
        if len(actions) > 1:
            decisions += 1
            branching += len(actions)
            action = bots[seat % len(bots)].choose(state, bot_rng)
        else:
            action = actions[0]
        if on_move is not None:
            on_move(state, seat, action, len(actions))
        state.apply(action)
        moves += 1
    finished = state.is_terminal()
    scores = tuple(state.score_values())
    return GameRecord(
        index=index,
        seed=gseed,
        returns=tuple(state.returns()) if finished else tuple(0.0 for _ in scores),
        scores=scores,
        turns=state.turns,
        rounds=state.rounds,
        timed_out=state.timed_out or not finished,
        roles=tuple(state.roles()),
        moves=moves,
        decisions=decisions,
        branching=branching,
        events=tuple(state.events),
        card_plays=tuple(tuple(row) for row in state.card_plays),
        figures=tuple(sorted(state.figures().items())),
    )


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


_WORKER: dict[str, object] = {}


def compile_game(game_dir: Path, rules: tuple[tuple[str, object], ...] = ()) -> CompiledGame:
    """Load and compile a game folder (raises ValueError if it has no engine or is invalid),
    with some rules values replaced (see toolkit.sim.variants)."""
    from toolkit.content.game import load_game

    game = load_game(game_dir)
    if rules:
        from toolkit.sim.variants import with_rules

        game = with_rules(game, rules)
    if game.manifest is None or game.plugin.engine is None:
        raise ValueError(f"{game_dir}: no simulation engine for this game")
    errors = [d for d in game.diagnostics if d.severity == "error"]
    if errors:
        raise ValueError(f"{game_dir}: content has {len(errors)} error(s); run playset validate")
    return game.plugin.engine(game)


def make_bots(game_dir: Path, names: Sequence[str], players: int) -> list[Bot]:
    from toolkit.content.game import load_game

    plugin = load_game(game_dir).plugin
    table: dict[str, Callable[[int], Bot]] = {**GENERIC_BOTS, **plugin.bots}
    return [table[names[seat % len(names)]](seat) for seat in range(players)]


def _run_batch(config: SimConfig, indices: Sequence[int]) -> list[GameRecord]:
    key = f"{config.game_dir}|{config.bots}|{config.setup}|{config.rules}"
    if _WORKER.get("key") != key:
        _WORKER["key"] = key
        _WORKER["compiled"] = compile_game(config.game_dir, config.rules)
        _WORKER["bots"] = make_bots(config.game_dir, config.bots, config.setup.players)
    compiled = _WORKER["compiled"]
    bots = _WORKER["bots"]
    return [play_one(compiled, config.setup, bots, i, config.seed) for i in indices]  # type: ignore[arg-type]


def _batches(n: int, size: int) -> list[list[int]]:
    return [list(range(start, min(n, start + size))) for start in range(0, n, size)]


def run(
    config: SimConfig,
    workers: int = 1,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[GameRecord]:
    """Play `config.games` games; identical results for any worker count or executor."""
    size = config.batch or max(50, min(2000, config.games // max(1, workers * 8) or 1))
    batches = _batches(config.games, size)
    results: list[GameRecord] = []
    if executor is None and workers <= 1:
        for batch in batches:
            results.extend(_run_batch(config, batch))
            if progress:
                progress(len(batch))
        return results
    own = executor is None
    pool = executor or ProcessPoolExecutor(max_workers=workers)
    try:
        futures = [pool.submit(_run_batch, config, batch) for batch in batches]
        for future in futures:  # in submission (= game) order
            records = future.result()
            results.extend(records)
            if progress:
                progress(len(records))
    finally:
        if own:
            pool.shutdown()
    return results
