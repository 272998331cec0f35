"""`rulebook_glyphs.may_lack` searches the characters a rendered rulebook draws as a set (in
C), not in order of first use: whether any face lacks one does not depend on their order,
and a set of a book's characters is made several times faster (~0.2 ms a language). And
the words the renderer prints of its own are not made when the toolkit's font prints every
face (`in_own_words`)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.checks import rulebook_glyphs
from toolkit.render.fonts import missing_glyphs
from toolkit.render.markdown_printed import STYLES, drawn
from toolkit.render.rulebook_style import Faces

FACES = [Faces(), Faces(regular="bold", italic="bolditalic", heading="regular")]


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet="ab \n\t\u00ad\u202f\u2192\u2190€→☃中ש😀", max_size=40), st.sampled_from(FACES)
)
def test_a_face_lacking_a_character_is_found_in_any_order(text, faces) -> None:
    ordered = "".join(dict.fromkeys(drawn(text) + rulebook_glyphs.marks()))
    lacking = any(missing_glyphs(ordered, getattr(faces, s)) for s in STYLES)
    assert rulebook_glyphs.may_lack(text, faces) == lacking


def test_the_characters_are_searched_as_a_set(monkeypatch) -> None:
    searched: list[str] = []

    def spied(text: str, style: str = "regular") -> list[str]:
        searched.append(text)
        return missing_glyphs(text, style)

    monkeypatch.setattr(rulebook_glyphs, "missing_glyphs", spied)
    text = "zyxwvutsrqponmlkjihgfedcba ZYXWVUTSRQPONMLKJIHGFEDCBA 9876543210 ☃"
    assert rulebook_glyphs.may_lack(text, Faces())
    chars = drawn(text) + rulebook_glyphs.marks()
    assert searched and all(s == "".join(set(chars)) for s in searched)


def test_the_own_words_are_not_made_for_the_toolkit_s_own_faces(monkeypatch) -> None:
    """The toolkit's own font prints every word the renderer prints of its own: with every
    face of the rulebook the toolkit's, those words are not made (in_own_words)."""
    from tests.conftest import REPO
    from toolkit.content.game import load_game
    from toolkit.render import rulebook_words

    made: list[str] = []
    real = rulebook_words.own_words

    def counted(game, lang, headings):
        made.append(lang)
        return real(game, lang, headings)

    monkeypatch.setattr(rulebook_words, "own_words", counted)
    game = load_game(REPO / "content" / "whisky-game")
    assert game.manifest_file.model.style is not None
    assert list(rulebook_glyphs.in_own_words(game, "en", Faces(), None, True)) == []
    assert made == []
    # a face not the toolkit's (as a game's font is): its words are made
    toolkit = {k: v for k, v in rulebook_glyphs.FILES.items() if k != "regular"}
    monkeypatch.setattr(rulebook_glyphs, "FILES", toolkit)
    assert list(rulebook_glyphs.in_own_words(game, "en", Faces(), None, True)) == []
    assert made == ["en"]
