"""The Whisky Game's check of effect kinds (G, checks/cards.py) reads the kinds the engine
implements from `effect_kinds`, not from the engine's constants module: a `validate` after a
card edit imports no engine module (its codes and compiled data types: Character, Special,
Content), and the engine numbers the same kinds in the same order."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import relink_modelines, validate_importing
from tests.test_validate_cache_units import cache  # noqa: F401 (a fixture)
from toolkit.content.game import bundled_games
from toolkit.games.whisky_game import constants, effect_kinds


def _modules(game: Path) -> tuple[list[str], list[str]]:
    return validate_importing(game, "toolkit.games.whisky_game")


@pytest.mark.usefixtures("cache")
def test_a_card_edit_imports_no_engine_module(tmp_path):
    game = tmp_path / "whisky-game"
    shutil.copytree(bundled_games()["whisky-game"], game)
    relink_modelines(game)
    said, cold = _modules(game)
    assert "toolkit.games.whisky_game.checks.cards" in cold
    deck = game / "decks" / "characters.yaml"
    text = deck.read_text("utf-8")
    deck.write_text(text.replace("bottle scores +{amount} points", "bottle scores +{amount}"))
    edited_said, edited = _modules(game)
    assert "toolkit.games.whisky_game.constants" not in cold + edited, edited
    assert said[0] == edited_said[0] == "0", (said, edited_said)


def test_the_engine_numbers_the_kinds_the_check_reads():
    assert constants.CHAR_CODE == {
        "add_points": constants.C_ADD,
        "multiply_points": constants.C_MULT,
        "rescue_roll": constants.C_RESCUE,
        "new_question_roll": constants.C_NEWQ,
        "extra_moves": constants.C_EXTRA,
        "move_bonus": constants.C_BONUS,
        "jump_after_visit": constants.C_JUMP,
        "spill_bottle": constants.C_SPILL,
        "wild_tokens": constants.C_WILD,
    }
    assert set(constants.CHAR_CODE) == effect_kinds.IMPLEMENTED_CHARACTERS
    assert constants.SPECIAL_KINDS is effect_kinds.SPECIAL_KINDS
    assert constants.SPECIAL_KINDS.index("take_region_bottle") == constants.S_TAKEREGION == 20
    assert set(constants.SPECIAL_KINDS) == effect_kinds.IMPLEMENTED_SPECIALS
