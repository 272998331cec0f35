"""What the card reference's budgets count of a deck's rows (its cells' pieces of markup, its
long words' squares and its longest word: card_reference_bounds.Counts) is kept with the
rows (`reference-rows`): after a card edit the other decks' are read back, not counted again
in each language, and the findings are those of counting every cell."""

from __future__ import annotations

import json
import shutil
from contextlib import nullcontext
from pathlib import Path

import pytest

from toolkit.checks import card_reference_bounds as bounds
from toolkit.content import unit_cache
from toolkit.content.game import load_game
from toolkit.content.unit_cache import Units
from toolkit.render import rulebook_source
from toolkit.render.rulebook_source import RulebookError, read_rulebook, render_markdown

GAME = Path(__file__).resolve().parent.parent / "content" / "whisky-game"
CARD = "en: Your Glenlivet bottle scores +{amount} points."


def _kept(units: Units) -> Units:
    return Units(json.loads(json.dumps(units.used)))  # as the next run reads them


def _findings(folder: Path, units: Units | None) -> dict[str, object]:
    """Each language's card reference findings (or the render's error, when its text passes
    a bound itself)."""
    game = load_game(folder)
    found: dict[str, object] = {}
    with unit_cache.activated(units) if units is not None else nullcontext():
        for lang, path in game.rulebook.items():
            try:
                text = render_markdown(game, lang, read_rulebook(path, game.root))
            except RulebookError as exc:
                found[lang] = str(exc)
                continue
            found[lang] = list(bounds.findings(game, lang, text))
    return found


@pytest.mark.parametrize(
    "budgets",
    [{}, {"MAX_INLINE_MARKUP": 100}, {"MAX_LONG_WORDS": 1_500}],
    ids=["none", "markup", "long-words"],
)
def test_kept_counts_find_what_counting_every_cell_finds(tmp_path, monkeypatch, budgets):
    folder = tmp_path / "whisky-game"
    shutil.copytree(GAME, folder)
    for name, value in budgets.items():
        monkeypatch.setattr(rulebook_source, name, value)
    # the rendered text's own long words left to the card reference's budget, which counts
    # them with its cells (the edited card's text prints in the rulebook too)
    squares = bounds._long_words
    monkeypatch.setattr(rulebook_source, "_refuse_long_words_together", lambda t: squares(t)[0])
    first = Units()
    plain = _findings(folder, None)
    assert _findings(folder, first) == plain
    assert _findings(folder, _kept(first)) == plain
    deck = folder / "decks" / "characters.yaml"
    text = deck.read_text("utf-8").replace(CARD, CARD + " Twice & more & " + "w" * 40 + ".")
    french = "fr: Votre bouteille de Glenlivet rapporte +{amount} points."
    assert french in text
    deck.write_text(text.replace(french, french + " Et & " + "m" * 40 + "."), "utf-8")
    found = _findings(folder, _kept(first))
    assert found == _findings(folder, None)
    if budgets:  # a finding at the edited card, in a language whose text passes the bounds
        assert any(type(f) is list and f for f in found.values()), found


def test_the_other_decks_cells_are_not_counted_again(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "whisky-game"
    shutil.copytree(GAME, folder)
    first = Units()
    _findings(folder, first)
    deck = folder / "decks" / "characters.yaml"
    deck.write_text(deck.read_text("utf-8").replace(CARD, CARD + " Twice."), "utf-8")
    counted: list[str] = []
    real = bounds._long_words

    def spied(of: str) -> tuple[int, int]:
        counted.append(of)
        return real(of)

    monkeypatch.setattr(bounds, "_long_words", spied)
    game = load_game(folder)
    _findings(folder, _kept(first))
    with unit_cache.activated(Units()):
        characters = [f for f in game.decks if f.model.id == "characters"][0]
        rows = {lang: bounds._deck_rows(game, characters, lang) for lang in game.rulebook}
    cells = {"\n".join(c for row in found for c in row) for found in rows.values()}
    assert counted and set(counted) <= cells, "only the edited deck's cells, each language"
