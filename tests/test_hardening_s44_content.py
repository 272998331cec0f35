"""Session 44, content surface (issue #33): the twelfth probe's open content findings
(/work/notes/probe12c.md M2, M3 and its Lows), each test red before its fix."""

from __future__ import annotations

import pytest

from tests.conftest import REPO

URL = "https://example.org/?q=" + "x" * 277  # 300 characters


@pytest.fixture(scope="module")
def heroes():
    from toolkit.content.game import load_game

    return load_game(REPO / "content" / "drinking-heroes")


# --- M2: R010's long-word bound measures the words as they print -------------------------


@pytest.mark.parametrize(
    "body",
    [
        # a GFM table needs no spaces around `|`: each cell's word is 300 characters
        f"|A|B|C|D|\n|---|---|---|---|\n|{URL}|{URL}|{URL}|{URL}|\n",
        # the link target is an attribute: only "the map" is laid out
        f"See [the map]({URL + 'y' * 800}) here.\n",
        f"See ![the map]({URL + 'y' * 800}) here.\n",
    ],
)
def test_table_pipes_and_link_targets_are_not_part_of_a_printed_word(heroes, body):
    # R010 counted `|a|b|…` rows and a link's target as one word of over 1,000 characters
    # and refused valid content (validate and build)
    from toolkit.render.rulebook_source import render_markdown

    assert render_markdown(heroes, "en", "# T\n\n" + body)


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ("Plain " + "w" * 1001 + " end.\n", (3, 7)),
        ("|A|B|\n|-|-|\n|x|" + "w" * 1001 + "|\n", (5, 4)),  # in a cell
        ("See [" + "w" * 1001 + "](https://x.org) here.\n", (3, 6)),  # a link's text prints
        ("A **" + "w" * 600 + "**" + "v" * 401 + " b\n", (3, 5)),  # one word across markup
        ("```\n" + "w" * 1001 + "\n```\n", (4, 1)),  # a code block prints its lines
        ("A `" + "w" * 1001 + "` b\n", (3, 4)),
    ],
)
def test_a_printed_word_over_the_bound_is_still_refused_where_it_is(heroes, body, where):
    from toolkit.render.rulebook_source import RulebookError, render_markdown

    with pytest.raises(RulebookError, match="a word of 1,001 characters") as caught:
        render_markdown(heroes, "en", "# T\n\n" + body)
    assert (caught.value.line, caught.value.col) == where
