"""Game facts the toolkit acts on are declared by the game, not guessed from its names:
`cooperative:` in game.yaml says which option values make play co-operative."""

from __future__ import annotations

import pytest

from tests.conftest import copy_game
from toolkit.checks.gate import valid_game
from toolkit.content.game import bundled_games, load_game
from toolkit.sim.request import SimRequest
from toolkit.sim.session import prepare
from toolkit.sim.sweep import point_simulation


def _copy(tmp_path, game_id="drinking-heroes"):
    folder = tmp_path / game_id
    copy_game(bundled_games()[game_id], folder)
    return folder


def _declare(folder, old: str, new: str) -> None:
    manifest = folder / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert old in text
    manifest.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_drinking_heroes_declares_its_cooperative_mode():
    manifest = load_game(bundled_games()["drinking-heroes"]).manifest
    assert manifest.cooperative == {"mode": "cooperative"}
    assert manifest.is_cooperative({"mode": "cooperative"})
    assert not manifest.is_cooperative({"mode": "no_drinking"})
    assert not manifest.is_cooperative({})  # the default mode is competitive


@pytest.mark.parametrize("game_id", ["whisky-game", "muckle-stoater", "tokaido"])
def test_the_other_games_are_never_cooperative(game_id):
    assert load_game(bundled_games()[game_id]).manifest.is_cooperative({}) is False


def test_the_declaration_decides_not_the_option_name(tmp_path):
    """Renaming what makes play co-operative changes the simulation; the value's name
    `cooperative` alone no longer does."""
    folder = _copy(tmp_path)
    _declare(folder, "cooperative:\n  mode: cooperative\n", "cooperative:\n  mode: no_drinking\n")
    game = valid_game(folder)
    sim = prepare(game, folder, SimRequest(2, 3, ("random",), 1, ("mode=cooperative",)))
    assert sim.coop is False
    assert (
        prepare(game, folder, SimRequest(2, 3, ("random",), 1, ("mode=no_drinking",))).coop is True
    )
    point = point_simulation(sim, {"mode": "no_drinking"}, ())
    assert point.coop is True
    assert point_simulation(sim, {"mode": "competitive"}, ()).coop is False


def test_defaults_count_and_true_means_always(tmp_path):
    folder = _copy(tmp_path)
    choices = "choices: [competitive, cooperative, no_drinking]\n    default: "
    _declare(folder, choices + "competitive", choices + "cooperative")
    game = valid_game(folder)
    assert prepare(game, folder, SimRequest(2, 3, ("random",), 1)).coop is True
    assert game.manifest.model_copy(update={"cooperative": True}).is_cooperative({"mode": "x"})


@pytest.mark.parametrize(
    ("declared", "code", "message"),
    [
        ("cooperative:\n  mode: together\n", "S", "option 'mode' cannot be 'together'"),
        ("cooperative:\n  mode: 3\n", "S", "option 'mode' cannot be 3"),
        ("cooperative: {}\n", "S", "name the option values"),
        ("cooperative:\n  team_play: true\n", "R", "team_play"),
    ],
)
def test_a_wrong_declaration_is_a_positioned_diagnostic(tmp_path, run_cli, declared, code, message):
    folder = _copy(tmp_path)
    _declare(folder, "cooperative:\n  mode: cooperative\n", declared)
    line = folder.joinpath("game.yaml").read_text().splitlines().index(declared.split("\n")[0])
    result = run_cli("validate", str(folder), "--format", "json")
    assert result.exit_code == 1
    assert message in result.output and f'"code": "{code}' in result.output
    assert f'"line": {line + 1}' in result.output or f'"line": {line + 2}' in result.output
