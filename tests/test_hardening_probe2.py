"""Second probe of issue 33's surfaces: what the first round's fixes still let through."""

from __future__ import annotations

import pytest

from tests.conftest import REPO


def test_a_rulebook_word_too_long_to_lay_out_is_refused_at_its_line():
    # reportlab re-hyphenates the rest of a word on every line it breaks: a 200,000-character
    # word took 36 s to lay out, a 1,000,000-character one (within the output limit) minutes
    from toolkit.content.game import load_game
    from toolkit.render.rulebook_source import RulebookError, render_markdown

    game = load_game(REPO / "content" / "drinking-heroes")
    source = "# Title\n\nSome words.\n\nSee {{ 'x' * 5000 }} here.\n"
    with pytest.raises(RulebookError) as caught:
        render_markdown(game, "en", source)
    assert (caught.value.line, caught.value.col) == (5, 5)
    assert "5,000 characters" in str(caught.value)
    ordinary = "# Title\n\nSee https://example.com/" + "a" * 200 + " here.\n"
    assert "example.com" in render_markdown(game, "en", ordinary)
