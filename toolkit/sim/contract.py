"""The random-play test every engine passes (after OpenSpiel's random_sim_test).

Plays random games and checks the contract: legal actions never empty before the end, every
legal action applies, a clone is independent of its original, the length stays within the
declared maximum, and the engine's own invariants hold (`state.invariant_errors()`: cards
conserved, scores consistent with events).
"""

from __future__ import annotations

import random

from toolkit.sim.engine import CompiledGame, GameSetup, State
from toolkit.sim.runner import game_seed


def _invariants(state: State) -> list[str]:
    check = getattr(state, "invariant_errors", None)
    return list(check()) if check else []


def _fingerprint(state: State) -> tuple[object, ...]:
    return (
        state.current_player(),
        tuple(state.legal_actions()) if not state.is_terminal() else (),
        state.turns,
        tuple(state.events),
    )


def random_play_check(
    compiled: CompiledGame,
    setup: GameSetup,
    games: int,
    seed: int = 0,
    probe_every: int = 7,
) -> list[str]:
    """Play `games` random games; return contract violations (empty when all is well)."""
    problems: list[str] = []
    for index in range(games):
        rng = random.Random(index)
        state = compiled.new_state(setup, game_seed(seed, index))
        moves = 0
        while not state.is_terminal():
            actions = state.legal_actions()
            where = f"game {index} move {moves}"
            if not actions:
                problems.append(f"{where}: no legal action before the end")
                break
            if moves % probe_every == 0:
                before = _fingerprint(state)
                for action in actions:  # every legal action applies to a clone
                    probe = state.clone()
                    try:
                        probe.apply(action)
                    except Exception as exc:  # noqa: BLE001 - report, don't crash the test
                        problems.append(f"{where}: action {action} raised {exc!r}")
                    problems.extend(f"{where}: after {action}: {e}" for e in _invariants(probe))
                if _fingerprint(state) != before:
                    problems.append(f"{where}: playing on a clone changed the original")
            state.apply(actions[rng.randrange(len(actions))])
            moves += 1
            if moves > compiled.max_turns:
                problems.append(f"game {index}: longer than max_turns={compiled.max_turns}")
                break
        problems.extend(f"game {index} end: {e}" for e in _invariants(state))
        if state.is_terminal():
            result = state.returns()
            if len(result) != setup.players and not compiled.seats_are_teams(setup):
                problems.append(f"game {index}: returns has {len(result)} entries")
        if len(problems) > 20:
            break
    return problems
