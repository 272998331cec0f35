"""`playset check --contract`: the random-play contract on any game's engine — the four
bundled engines and the scaffold's pass; a designer's engine that ignores its seed, or whose
clone is not a copy, gets findings at the method's line in engine.py."""

from __future__ import annotations

import re

import pytest

from tests.test_folder_engines import edited, game_with, line_of, no_traceback


@pytest.mark.parametrize(
    "args",
    [
        ("whisky-game", "-p", "3"),  # the slowest to play: one player count keeps it short
        ("drinking-heroes",),
        ("muckle-stoater", "-p", "4"),
        ("tokaido",),
    ],
)
@pytest.mark.slow
def test_the_bundled_engines_keep_the_contract(run_cli, args):
    result = run_cli("check", "--contract", "-n", "10", *args)
    assert result.exit_code == 0, result.output
    assert "E00" not in result.stdout


def test_the_scaffold_engine_keeps_the_contract(run_cli, tmp_path):
    result = run_cli("check", "--contract", str(game_with(tmp_path)))
    assert result.exit_code == 0, result.output


def test_an_engine_that_ignores_its_seed(run_cli, tmp_path):
    text = edited(
        "return PlayState(self, setup.players, seed)", "return PlayState(self, setup.players, 7)"
    )
    folder = game_with(tmp_path, text)
    result = run_cli("check", "--contract", "-n", "60", str(folder))
    no_traceback(result)
    assert result.exit_code == 1
    line = line_of(text, "    def new_state(")
    found = re.findall(
        rf"engine\.py:{line}:1: E006 \[error\] (\d) players \(new_state\)", result.stdout
    )
    assert found == ["2", "3", "4"], result.stdout
    assert "different seeds gave the same game" in result.stdout


def test_a_clone_that_shares_the_hands(run_cli, tmp_path):
    text = edited("other.hands = [row[:] for row in self.hands]", "other.hands = self.hands")
    folder = game_with(tmp_path, text)
    result = run_cli("check", "--contract", "-n", "60", str(folder))
    no_traceback(result)
    assert result.exit_code == 1
    line = line_of(text, "    def clone(self)")
    assert f"engine.py:{line}:1: E006 [error] 2 players (clone): game 0 move 0: playing on a " in (
        result.stdout
    ), result.stdout
