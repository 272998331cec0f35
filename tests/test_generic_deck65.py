"""The generic deck and card (toolkit.content.models.generic_deck) are made only for a game
without a plugin: a game with one never validates such a deck, and making the two classes
cost each of its runs ~0.5 ms. `toolkit.content.models` still names the card (on first use)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import FIXTURES, REPO, build_case

_LOADED = (
    "import sys; from pathlib import Path; from toolkit.content.game import load_game;"
    "from toolkit.content.models.base import StrictModel;"
    "game = load_game(Path(sys.argv[1]));"
    "made, left = set(), [StrictModel]\n"
    "while left:\n"
    "    made.add(left[-1].__name__); left += left.pop().__subclasses__()\n"
    "print(sorted(type(f.model).__name__ for f in game.decks), len(game.diagnostics),"
    " bool(made & {'GenericCard', 'GenericDeck'}))"
)


def _loaded(game: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", _LOADED, str(game)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_game_with_a_plugin_makes_no_generic_deck_class(tmp_path: Path) -> None:
    shown = _loaded(REPO / "content" / "whisky-game")
    assert shown.startswith("['WhiskyGameBottlesDeck', "), shown
    assert shown.endswith(" 0 False"), shown


def test_a_game_without_one_validates_its_decks_as_generic_decks(tmp_path: Path) -> None:
    game = build_case(FIXTURES / "base", tmp_path / "game")
    assert _loaded(game).endswith(" True")
    assert "GenericDeck" in _loaded(game)


def test_the_generic_card_is_still_named_by_the_models_package() -> None:
    from toolkit.content import models
    from toolkit.content.models import generic_deck

    assert models.GenericCard is generic_deck.GenericCard
    assert generic_deck.GenericDeck.model_fields["cards"].annotation == list[models.GenericCard]
