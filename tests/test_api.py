"""The public engine API (toolkit.api): the bundled engines import only from it, it hands out
the engine contract itself (not copies), the generic greedy bot plays any engine with a
`score_estimate` hook, and the content view is read-only plain data."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import toolkit.api as api
from tests.toy_game import ToyGame, ToyState
from toolkit.content.game import bundled_games, load_game
from toolkit.sim import bots, engine
from toolkit.sim.content_view import content_view

GAMES = Path(__file__).resolve().parent.parent / "toolkit" / "games"


def internal_imports(path: Path) -> list[str]:
    """Imports of the simulation's internals (anything under toolkit.sim) in one file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        found += [f"{path.name}:{node.lineno} {n}" for n in names if n.startswith("toolkit.sim")]
    return found


def test_bundled_engines_import_engine_things_only_from_the_api():
    files = sorted(GAMES.rglob("*.py"))
    assert len(files) > 20
    assert [hit for path in files for hit in internal_imports(path)] == []


def test_the_scan_sees_an_internal_import(tmp_path):
    planted = tmp_path / "state.py"
    planted.write_text("from toolkit.sim.engine import State\nimport toolkit.sim.bots\n")
    assert internal_imports(planted) == [
        "state.py:1 toolkit.sim.engine",
        "state.py:2 toolkit.sim.bots",
    ]


def test_the_api_re_exports_the_contract_itself():
    assert api.State is engine.State and api.CompiledGame is engine.CompiledGame
    assert api.GameSetup is engine.GameSetup
    assert (api.TERMINAL, api.CHANCE) == (engine.TERMINAL, engine.CHANCE)
    assert api.RandomBot is bots.RandomBot and api.MctsBot is bots.MctsBot
    assert set(api.__all__) <= set(dir(api))


def toy_state(roll: int) -> ToyState:
    state = ToyGame().new_state(api.GameSetup(2), 1)
    state.roll = roll
    return state


def test_greedy_takes_the_move_with_the_best_estimate():
    # banking a 5 beats stepping 1, whatever the rng
    assert {api.GreedyBot().choose(toy_state(5), random.Random(s)) for s in range(20)} == {0}


def test_greedy_breaks_ties_with_its_rng():
    # a roll of 1: banking and stepping both move 1 — both get chosen over many draws
    picks = {api.GreedyBot().choose(toy_state(1), random.Random(s)) for s in range(40)}
    assert picks == {0, 1}


class NoHook(ToyState):
    __slots__ = ()
    score_estimate = None  # type: ignore[assignment]

    def clone(self) -> ToyState:
        other = super().clone()
        other.__class__ = NoHook
        return other


def test_greedy_without_the_hook_says_what_to_add():
    state = toy_state(3)
    state.__class__ = NoHook
    with pytest.raises(bots.MissingHook, match=r"NoHook.score_estimate\(seat\)"):
        api.GreedyBot().choose(state, random.Random(0))
    assert bots.greedy_hook_missing(toy_state(3)) is None


def test_the_content_view_is_plain_and_read_only():
    game = load_game(bundled_games()["muckle-stoater"])
    view = content_view(game)
    assert view.game_id == "muckle-stoater"
    assert view.players == range(
        game.checked_manifest.players.min, 1 + game.checked_manifest.players.max
    )
    assert view.rule("hand_size") == game.checked_manifest.rules.hand_size  # type: ignore[attr-defined]
    pack = view.deck("pack")
    assert [c.id for c in pack.cards] == [c.id for c in game.valid(game.decks)[0].cards]
    assert pack.total == sum(c.copies for c in pack.cards)
    with pytest.raises(TypeError):
        view.rules["hand_size"] = 9  # type: ignore[index]
    with pytest.raises(api.ContentError, match="no rules value 'nope'"):
        view.rule("nope")
    assert view.rule("nope", 3) == 3
    assert isinstance(pack.cards[0].fields["effects"], tuple)
