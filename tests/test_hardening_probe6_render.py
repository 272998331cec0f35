"""Findings of the sixth hostile-input probe (issue #33's re-probe) on rendering: rulebooks
of styled spans, and pictures drawn many times or many of them; each with its test."""

from __future__ import annotations

import pytest

from tests.conftest import REPO, copy_game

SPANS = "**a** [b](https://x) *c* "  # five pieces of inline markup, three styled spans


@pytest.fixture(scope="module")
def game():
    from toolkit.content.game import load_game

    return load_game(REPO / "content" / "drinking-heroes")


def test_a_rulebook_of_thousands_of_styled_spans_is_refused_where_it_passes_the_bound(game):
    # P1: 20 paragraphs of ~2,000 styled spans (988 kB, within every other bound) took over
    # 100 s and ~1 GB to build: reportlab breaks lines span by span, again at every page
    from toolkit.render.rulebook_source import MAX_INLINE_MARKUP, RulebookError, render_markdown

    assert MAX_INLINE_MARKUP == 5_000
    source = "# Title\n\nShort.\n\n{{ '" + SPANS + "' * 1001 }}\n"
    with pytest.raises(RulebookError, match="more than 5,000 pieces of inline markup") as caught:
        render_markdown(game, "en", source)
    # the 5,001st piece: the first of the 1,001st repeat, on line 5
    assert (caught.value.line, caught.value.col) == (5, 1000 * len(SPANS) + 1)
    spread = "# Title\n\n{% for i in range(10) %}{{ '" + SPANS + "' * 101 }}x\n\n{% endfor %}"
    with pytest.raises(RulebookError, match="inline markup"):
        render_markdown(game, "en", spread)  # the total is bounded, not only a paragraph's
    # at the bound: rendered as before
    assert render_markdown(game, "en", source.replace("1001", "1000")).count("**a**") == 1000


def test_inline_icons_and_hard_breaks_have_their_own_lower_bounds(game):
    # an icon costs a paragraph's layout (499 in one paragraph: 8 s); hard line breaks make
    # one paragraph of many pages (3,000 in 9 kB: 3.4 s, growing with their square)
    from toolkit.render.rulebook_source import RulebookError, render_markdown

    with pytest.raises(RulebookError, match="more than 200 inline icons") as caught:
        render_markdown(game, "en", "# T\n\n{{ ':die: ' * 201 }}x\n")
    assert (caught.value.line, caught.value.col) == (3, 200 * 6 + 1)
    assert render_markdown(game, "en", "# T\n\n{{ ':die: ' * 200 }}x\n")
    for hard in ("\\\\\n", "  \n"):  # a backslash or two spaces before the line break
        source = "# T\n\n{{ 'a" + hard + "' * 201 }}a\n"
        with pytest.raises(RulebookError, match="more than 200 hard line breaks") as caught:
            render_markdown(game, "en", source)
        assert caught.value.line == 3 + 200
        # the same breaks in paragraphs of 100: fine
        split = "# T\n\n{% for i in range(3) %}{{ 'a" + hard + "' * 100 }}a\n\n{% endfor %}"
        assert render_markdown(game, "en", split)


def test_validate_says_where_and_build_refuses_the_span_bomb(tmp_path, run_cli):
    folder = copy_game(REPO / "content" / "drinking-heroes", tmp_path / "g")
    rulebook = folder / "rulebook" / "en.md"
    paragraph = SPANS * 1960  # 49,000 characters: within the paragraph bound
    rulebook.write_text("# Title\n\n" + "\n\n".join([paragraph] * 20) + "\n")
    result = run_cli("validate", str(folder), "--no-cache")
    assert result.exit_code == 1
    assert "rulebook/en.md:3:25001: R010" in result.output.replace("\\", "/")
    out = tmp_path / "out"
    result = run_cli("build", str(folder), "--lang", "en", "--no-cache", "--out", str(out))
    assert result.exit_code == 1
    assert "R010" in result.output and "Traceback" not in result.output
    assert not any(p.is_file() for p in out.rglob("*"))


@pytest.mark.parametrize("lang", ["fr", "es", "en"])
@pytest.mark.parametrize("game_id", ["drinking-heroes", "muckle-stoater", "tokaido", "whisky-game"])
def test_the_bundled_rulebooks_are_well_within_the_markup_bounds(game_id, lang):
    from toolkit.content.game import load_game
    from toolkit.render import rulebook_source as rs

    game = load_game(REPO / "content" / game_id)
    text = rs.render_markdown(game, lang, rs.read_rulebook(game.rulebook[lang]))
    marks = list(rs._INLINE_MARK.finditer(text))
    assert len(marks) < rs.MAX_INLINE_MARKUP / 10
    assert sum(m.group("icon") is not None for m in marks) < rs.MAX_INLINE_ICONS / 10
