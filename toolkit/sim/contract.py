"""The random-play test every engine passes (after OpenSpiel's random_sim_test).

Plays random games and checks the contract: legal actions never empty before the end, every
legal action applies, a clone is independent of its original, the length stays within the
declared maximum, and the engine's own invariants hold (`state.invariant_errors()`: cards
conserved, scores consistent with events). `playset check --contract` runs it, with the seed
checks (same seed → same game, different seeds → different games), on any game's engine.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

from toolkit.sim import deadline
from toolkit.sim.deadline import Bound, CallTimeout, GameTimeout, game_deadline, interrupted_call
from toolkit.sim.engine import CompiledGame, GameSetup, State
from toolkit.sim.engines import describe, shortened
from toolkit.sim.runner import WrongResult, end_values, game_seed, not_an_action
from toolkit.sim.signals import is_stop


@dataclass(frozen=True)
class Problem:
    """One contract violation: which part of the contract (the State or CompiledGame method
    it concerns, so `check --contract` can point at that method's line) and what happened."""

    method: str
    message: str
    code: str = "E006"  # E004: a result simulate's report cannot count (its finding too)
    place: BaseException | None = field(default=None, compare=False)  # at its line if set


MAX_PROBLEMS = 20  # a run stops after the game that takes it past this many problems
MAX_GAME_PROBLEMS = 1000  # and a game stops at once past this many (20 are reported)
MAX_INVARIANTS = 20
"""Entries of one `invariant_errors()` call kept (the contract reports 20 problems at most:
an engine listing a million made a game of checks take minutes and gigabytes)."""


def _invariants(state: State) -> list[str]:
    """The engine's own invariant messages: at most MAX_INVARIANTS, each as text cut to
    engines.MAX_MESSAGE characters (a 10 MB message was printed whole, five times over)."""
    check = getattr(state, "invariant_errors", None)
    if not check:
        return []
    return [_text(e) for e in itertools.islice(check(), MAX_INVARIANTS)]


def _text(entry: object) -> str:
    try:
        text = entry if isinstance(entry, str) else str(entry)
    except Exception:  # noqa: BLE001 - the engine's own __str__ failed
        return shortened(f"({type(entry).__name__} that cannot be shown)")
    return shortened(text)


def _fingerprint(state: State) -> tuple[object, ...]:
    return (
        state.current_player(),
        tuple(state.legal_actions()) if not state.is_terminal() else (),
        state.turns,
        tuple(state.events),
    )


def _seen(state: State) -> tuple[object, ...]:
    """What a clone must reproduce when it plays the same moves: the fingerprint and the
    scores (chance drawn from a copied RNG shows in them a move or two later; an engine whose
    scores exist only at the end is compared on the rest)."""
    try:
        scores: object = tuple(state.score_values())
    except Exception:  # noqa: BLE001 - mid-game scores are optional
        scores = None
    return (*_fingerprint(state), scores)


TWIN_MOVES = 3  # moves a clone made at a probe follows the original


def random_play_check(
    compiled: CompiledGame,
    setup: GameSetup,
    games: int,
    seed: int = 0,
    probe_every: int = 7,
) -> list[str]:
    """Play `games` random games; return contract violations (empty when all is well)."""
    return [p.message for p in contract_problems(compiled, setup, games, seed, probe_every)]


def contract_problems(
    compiled: CompiledGame,
    setup: GameSetup,
    games: int,
    seed: int = 0,
    probe_every: int = 7,
    seeds: bool = False,
) -> list[Problem]:
    """The random-play contract: random games checked move by move (legal actions never
    empty before the end, every legal action applies on a clone, a clone is independent of
    its original and plays like it, invariants hold after every move, the game ends within
    `max_turns`, results and scores for every seat); with `seeds`, also that the same seed
    gives the same game and different seeds different games."""
    problems: list[Problem] = []
    teams: bool | None = None
    for index in range(games):
        try:
            with game_deadline(step=deadline.call_seconds()) as bound:
                if teams is None:  # the engine's hook, within the first game's bound
                    teams = bool(compiled.seats_are_teams(setup))
                problems += _play(compiled, setup, index, seed, probe_every, bool(teams), bound)
        except GameTimeout as exc:  # a hook that loops for ever: every later game would too
            return [*problems, _too_long(f"game {index}", exc, bound)]
        if len(problems) > MAX_PROBLEMS:
            return problems
    if seeds:
        try:
            with game_deadline(step=deadline.call_seconds()) as bound:
                problems += seed_problems(compiled, setup, min(games, 5), seed, bound)
        except GameTimeout as exc:
            problems.append(_too_long("replaying a game from its seed", exc, bound))
    return problems


def _shown(exc: BaseException) -> str:
    """repr(exc), cut to MAX_MESSAGE characters (an engine's 20 MB message was kept whole);
    its description when its repr itself raises."""
    try:
        text = repr(exc)
    except Exception:  # noqa: BLE001 - the engine's own __repr__ failed
        return describe(exc)
    return shortened(text)


def _too_long(what: str, exc: GameTimeout, bound: Bound) -> Problem:
    if isinstance(exc, CallTimeout):  # one call never returned: at the line it was running
        call = interrupted_call(exc, (__file__, end_values.__code__.co_filename))
        message = f"{what}: {call} did not return within {bound.step:g} s (a loop without end?)"
        return Problem("is_terminal", message, place=exc)
    seconds = deadline.GAME_SECONDS
    message = f"{what}: still not over after {seconds:g} s (a loop without end?)"
    return Problem("is_terminal", message)


def _play(
    compiled: CompiledGame,
    setup: GameSetup,
    index: int,
    seed: int,
    probe_every: int,
    teams: bool,
    bound: Bound,
) -> list[Problem]:
    problems: list[Problem] = []
    rng = random.Random(index)
    state = compiled.new_state(setup, game_seed(seed, index))
    bound.steps += 1  # the step bound's count: the setup, each move, each probe
    moves = twin_moves = 0
    twin: State | None = None
    while not state.is_terminal():
        actions = state.legal_actions()
        where = f"game {index} move {moves}"
        if not actions:
            problems.append(Problem("legal_actions", f"{where}: no legal action before the end"))
            break
        action = actions[rng.randrange(len(actions))]
        if moves % probe_every == 0:
            wrong = not_an_action(actions, action)
            if wrong is not None:  # `[True]` played action 1 unseen
                problems.append(Problem("legal_actions", f"{where}: {wrong}"))
            before = _fingerprint(state)
            for other in actions:  # every legal action applies to a clone
                bound.steps += 1
                probe = state.clone()
                try:
                    probe.apply(other)
                except (Exception, SystemExit, KeyboardInterrupt) as exc:  # noqa: BLE001 - report
                    if is_stop(exc):  # Ctrl-C; an engine's own KeyboardInterrupt is its mistake
                        raise
                    what = _shown(exc)
                    problems.append(Problem("apply", f"{where}: action {other} raised {what}"))
                problems += [
                    Problem("invariant_errors", f"{where}: after {other}: {e}")
                    for e in _invariants(probe)
                ]
                if len(problems) > MAX_GAME_PROBLEMS:
                    return problems
            if _fingerprint(state) != before:
                problems.append(
                    Problem("clone", f"{where}: playing on a clone changed the original")
                )
            if twin is None:
                twin, twin_moves = state.clone(), 0
        state.apply(action)
        moves += 1
        bound.steps += 1
        if twin is not None:  # the clone plays the same moves: it must see the same game
            try:
                twin.apply(action)
                same = _seen(twin) == _seen(state)
            except (Exception, SystemExit, KeyboardInterrupt) as exc:  # noqa: BLE001 - a clone
                if is_stop(exc):  # that cannot play; Ctrl-C goes on up
                    raise
                same = False
            twin_moves += 1
            if not same:
                problems.append(
                    Problem("clone", f"{where}: a clone played the same move differently")
                )
            if not same or twin_moves >= TWIN_MOVES or state.is_terminal():
                twin = None
        if not state.is_terminal():  # the end is checked below, once
            problems += [
                Problem("invariant_errors", f"{where}: after the move: {e}")
                for e in _invariants(state)
            ]
        if moves > compiled.max_turns:
            message = f"game {index}: longer than max_turns={compiled.max_turns}"
            problems.append(Problem("is_terminal", message))
            break
        if len(problems) > MAX_GAME_PROBLEMS:
            return problems
    problems += [Problem("invariant_errors", f"game {index} end: {e}") for e in _invariants(state)]
    if state.is_terminal():
        result = state.returns()
        if len(result) != setup.players and not teams:
            problems.append(Problem("returns", f"game {index}: returns has {len(result)} entries"))
        scores = state.score_values()
        if len(scores) != setup.players and not teams:
            message = f"game {index}: score_values has {len(scores)} entries"
            problems.append(Problem("score_values", message))
        if teams or len(result) == len(scores) == setup.players:
            # the result as simulate's report reads it: the same E004 if it cannot
            try:
                end_values(compiled, setup, state)
            except WrongResult as exc:
                problems.append(Problem(exc.method, f"game {index} end: {exc}", "E004"))
    return problems


def _trajectory(
    compiled: CompiledGame, setup: GameSetup, gseed: int, bound: Bound | None = None
) -> list[object]:
    """A game played with fixed random choices, as what can be seen after each move."""
    bound = bound or Bound(float("inf"), None)
    rng = random.Random(0)
    state = compiled.new_state(setup, gseed)
    bound.steps += 1
    seen: list[object] = [_fingerprint(state)]
    for _ in range(compiled.max_turns):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        bound.steps += 1
        seen.append(_fingerprint(state))
    if state.is_terminal():
        seen.append((tuple(state.returns()), tuple(state.score_values())))
    return seen


def seed_problems(
    compiled: CompiledGame, setup: GameSetup, games: int, seed: int, bound: Bound | None = None
) -> list[Problem]:
    """The same seed gives the same game (chance only from the state's own seeded RNG); a
    different seed gives a different game in at least one of `games` pairs (the seed is
    used at all)."""
    problems = []
    seen = []
    for index in range(max(2, games)):
        gseed = game_seed(seed, index)
        first = _trajectory(compiled, setup, gseed, bound)
        if _trajectory(compiled, setup, gseed, bound) != first:
            message = (
                f"game {index}: the same seed gave a different game (chance not from state.rng?)"
            )
            problems.append(Problem("new_state", message))
        seen.append(first)
    if all(other == seen[0] for other in seen[1:]):
        message = (
            f"{len(seen)} different seeds gave the same game, move for move: "
            "new_state(setup, seed) must seed the state's RNG from `seed`"
        )
        problems.append(Problem("new_state", message))
    return problems
