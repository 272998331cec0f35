"""`playset check --contract`: the random-play contract on a game's engine, as findings.

Each violation points at the engine method it concerns (`legal_actions`, `apply`, `clone`,
`is_terminal`, `invariant_errors`, `returns`, `score_values`, `new_state`) in the engine's own
file, so a designer's engine.py gets file:line findings like their content does.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any

from toolkit.diagnostics import Diagnostic, Span, rule
from toolkit.sim.contract import contract_problems
from toolkit.sim.engine import GameSetup
from toolkit.sim.engines import (
    E_RAISED,
    compile_checked,
    describe,
    engine_of,
    failure_at,
    no_engine_message,
)
from toolkit.sim.exits import refuse_exit
from toolkit.sim.signals import is_stop

E_BROKEN = rule(
    "E006",
    "contract-violation",
    "The random-play contract check (check --contract) found an engine fault: no legal "
    "action, a clone that is not a copy, an invariant broken, a seed not used, ...",
)
PER_TABLE = 5  # findings shown per player count (the first ones; the rest are alike)


def contract_findings(
    game: Any, games: int, seed: int = 0, only: int | None = None
) -> list[Diagnostic]:
    """Run the contract at every player count game.yaml allows (or `only` that one; default
    options), `games` random games each. Raises EngineError if the engine cannot load."""
    engine = engine_of(game)
    if engine is None:
        raise ValueError(no_engine_message(game.id))
    with refuse_exit():  # os._exit() in the engine's code: a finding, not the run's end
        compiled = compile_checked(engine, game)
        with contextlib.redirect_stdout(sys.stderr):  # the engine's print()s: not in the report
            return _findings(compiled, game, games, seed, only)


def _findings(
    compiled: Any, game: Any, games: int, seed: int, only: int | None
) -> list[Diagnostic]:
    players = game.checked_manifest.players
    found: list[Diagnostic] = []
    for count in range(players.min, players.max + 1):
        if only is not None and count != only:
            continue
        setup = GameSetup(count)
        try:
            problems = contract_problems(compiled, setup, games, seed, seeds=True)
            state_type: Any = type(compiled.new_state(setup, 0))
        except (Exception, SystemExit, KeyboardInterrupt) as exc:  # raised outside a probe:
            if is_stop(exc):  # the move played (an engine's own KeyboardInterrupt too)
                raise
            file, line = failure_at(compiled, None, exc)
            message = f"{count} players, random play: raised {describe(exc)}"
            found.append(E_RAISED.at(file, Span(line, 1), message))
            continue
        for problem in problems[:PER_TABLE]:
            owner = type(compiled) if problem.method == "new_state" else state_type
            at = getattr(owner, problem.method, owner)
            file, line = failure_at(compiled, at, problem.place)
            message = f"{count} players ({problem.method}): {problem.message}"
            broken = E_RAISED if problem.code == E_RAISED.code else E_BROKEN
            found.append(broken.at(file, Span(line, 1), message))
    return found
