"""What the card reference's budgets count of a rendered rulebook (its blocks, its tables'
cells, its long words' squares: card_reference_bounds._text_counts) is what the render's
bounds (rulebook_source._bounded) found searching the same text: a text searched there in
this run is not counted again (the English rulebook after a card edit), and its counts are
kept for the next run as before."""

from __future__ import annotations

import json

import pytest

from toolkit.checks import card_reference_bounds as bounds
from toolkit.content import unit_cache
from toolkit.content.game import load_game
from toolkit.content.unit_cache import Units
from toolkit.render import rulebook_source
from toolkit.render.rulebook_source import read_rulebook, render_markdown
from toolkit.scaffold.new import new_game

TEXTS = [
    "",
    "# Rules\n\nOne paragraph.\n",
    "# Rules\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\nAfter.\n",
    "Title\n=====\n\n- one\n- two\n\n1. first\n2) second\n\n## Part\n\ntext\n",
    "> | a | b | c |\n> |---|---|---|\n> | 1 | 2 | 3 |\n\n| x |\n|---|\n| y |\n",
    "a\n|b\n-|-\nc\n",  # a table the look leaves to the parse
    "x" * 45 + " and " + "y" * 31 + "\n\n" + "z" * 200 + "\n",
    "| " + "w" * 40 + " | b |\n|---|---|\n| c | d |\n",
]


@pytest.mark.parametrize("text", TEXTS)
def test_the_bounds_count_what_the_budgets_count(text) -> None:
    plain = (
        rulebook_source.block_count(text),
        rulebook_source.table_cells(text),
        bounds._long_words(text)[0],
    )
    assert rulebook_source._bounded(text) == plain


def _kept(units: Units) -> Units:
    return Units(json.loads(json.dumps(units.used)))  # as the next run reads them


def test_a_text_the_render_searched_is_not_counted_again(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "g"
    new_game(folder, "g", ["en"])
    book = folder / "rulebook" / "en.md"
    book.write_text(
        book.read_text("utf-8") + "\n| a | b |\n|---|---|\n| 1 | 2 |\n\n" + "w" * 40 + "\n",
        "utf-8",
    )
    game = load_game(folder)
    text = render_markdown(game, "en", read_rulebook(game.rulebook["en"], game.root))
    plain = bounds._text_counts(load_game(folder), text)  # no units: counted
    assert plain[1] == 4 and plain[2] == 40 * 40
    counted: list[str] = []
    for name in ("block_count", "table_cells"):
        real = getattr(rulebook_source, name)
        monkeypatch.setattr(
            rulebook_source, name, lambda text, real=real: counted.append(text) or real(text)
        )
    first = Units()
    for units in (first, _kept(first)):  # searched, then read back: never counted apart
        game = load_game(folder)
        with unit_cache.activated(units):
            text = render_markdown(game, "en", read_rulebook(game.rulebook["en"], game.root))
            assert bounds._text_counts(game, text) == plain
        assert counted == []
    assert bounds._text_counts(load_game(folder), text) == plain
    assert counted == [text, text], "without units nor a render: counted"
