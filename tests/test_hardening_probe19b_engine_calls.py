"""Probe 19b M4: a call into the engine that never returns (compile_game, apply) hung
simulate, check and check --contract for the whole game bound (600 s: "for ever" to a CI
job's patience). Every step of a game and every call outside one is bounded on its own now
(deadline.CALL_SECONDS): an E finding naming the call, the game and its seed, at the line
the engine was running."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.starter_games import edit_engine
from toolkit.scaffold.new import new_game

APPLY = "    def apply(self, action: int) -> None:\n"
COMPILE = "def compile_game(content: GameContent) -> Game:\n"
LOOP = "        while True:\n            pass\n"


@pytest.fixture
def short_calls(monkeypatch):
    """A step bound of 0.5 s; a game's own bound stays 600 s (what stopped these before)."""
    import toolkit.sim.deadline as deadline

    monkeypatch.setattr(deadline, "CALL_SECONDS", 0.5)
    assert deadline.GAME_SECONDS >= 600


def _looping(tmp_path: Path, where: str, loop: str) -> tuple[Path, int]:
    new_game(tmp_path / "demo", "demo", ["en"], engine=True)
    game = tmp_path / "demo"
    edit_engine(game, where, where + loop)
    line = (game / "engine.py").read_text().splitlines().index(loop.splitlines()[-1]) + 1
    return game, line


def _at_loop(output: str, line: int) -> bool:
    return any(f"engine.py:{n}:1: E00" in output for n in (line - 1, line))  # while or pass


def test_a_move_that_never_returns_is_a_finding_naming_the_call_and_the_game(
    tmp_path, run_cli, short_calls
):
    game, line = _looping(tmp_path, APPLY, LOOP)
    for args in (("simulate", "-n", "3"), ("simulate", "-n", "4", "--workers", "2")):
        result = run_cli(args[0], str(game), *args[1:])
        assert result.exit_code == 1, (args, result.output)
        assert _at_loop(result.output, line), (args, result.output)
        assert "E005" in result.output
        assert "game 0 (--seed 0, game seed" in result.output, result.output
        assert "did not return within 0.5 s" in result.output, result.output
        assert ".choose (in PlayState.apply)" in result.output, result.output
    result = run_cli("check", str(game), "-n", "10")
    assert result.exit_code == 1 and _at_loop(result.output, line), result.output
    assert ".choose (in PlayState.apply) did not return within 0.5 s" in result.output


def test_the_contract_checker_stops_a_move_that_never_returns_at_its_line(
    tmp_path, run_cli, short_calls
):
    game, line = _looping(tmp_path, APPLY, LOOP)
    result = run_cli("check", str(game), "--contract", "-n", "10", "-p", "2")
    assert result.exit_code == 1 and _at_loop(result.output, line), result.output
    assert "game 0: PlayState.apply did not return within 0.5 s" in result.output


def test_a_compile_game_that_never_returns_is_a_finding_at_its_line(tmp_path, run_cli, short_calls):
    game, line = _looping(tmp_path, COMPILE, LOOP.replace("        ", "    "))
    for args in (("simulate", "-n", "3"), ("check", "-n", "10"), ("check", "--contract")):
        result = run_cli(args[0], str(game), *args[1:])
        assert result.exit_code == 1, (args, result.output)
        assert _at_loop(result.output, line), (args, result.output)
        assert "compile_game: still running after 0.5 s" in result.output, result.output


def test_a_move_that_never_returns_in_a_thread_worker_is_stopped_by_the_step_bound(
    tmp_path, short_calls
):
    # a Dask worker plays in a thread, where no timer signal reaches: the watch thread
    # looks at the game's step count and raises in the thread
    import threading

    from toolkit.sim.engine import GameSetup
    from toolkit.sim.engines import EngineError
    from toolkit.sim.prepared import SimConfig, prepare
    from toolkit.sim.runner import play_one

    game, line = _looping(tmp_path, APPLY, LOOP)
    config = SimConfig(game, GameSetup(2), games=1)
    (compiled, bots), _ = prepare(config)
    outcome: list[object] = []

    def work() -> None:
        try:
            outcome.append(play_one(compiled, config.setup, bots, 0, 0))
        except BaseException as exc:  # noqa: BLE001 - what the worker hands back
            outcome.append(exc)

    worker = threading.Thread(target=work, daemon=True)  # a loop left running is no harm
    worker.start()
    worker.join(5)
    assert not worker.is_alive(), "the looping move was not stopped in its thread"
    (found,) = outcome
    assert isinstance(found, EngineError) and found.diagnostic.code == "E005"
    assert found.diagnostic.line in (line - 1, line)
    assert "move 0: PlayState.apply did not return within 0.5 s" in found.diagnostic.message
