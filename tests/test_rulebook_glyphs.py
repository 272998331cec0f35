"""P002 on a rulebook searches what it prints, each run in the face it prints in: the `#` of
a heading, a placeholder's braces, U+202F's own glyph and a title the cover replaces never
print (no finding); bold and italic spans, headings, the cover's title and summary and the
card reference's names print in their own faces (a finding where the face lacks a letter).
The fonts are Noto Sans cut down by tests.font_maker, made in the test's folder."""

from __future__ import annotations

from pathlib import Path

from tests.font_maker import LATIN, make_font
from tests.starter_games import rulebook_game
from toolkit.checks import run_checks
from toolkit.content.game import load_game

STYLES = ("regular", "bold", "italic", "bolditalic")
LATIN1 = LATIN + "".join(chr(c) for c in range(0xA0, 0x100)) + "–—’‘“”…•×→›‹−"


def with_font(game: Path, chars: dict[str, str]) -> Path:
    """`game` printing in the family 'Cut', each style with the characters given."""
    for style in STYLES:
        make_font(game / "fonts" / f"Cut-{style}.ttf", "Cut", style, chars[style])
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text() + "style:\n  font: Cut\n", encoding="utf-8")
    return game


def glyph_findings(game: Path) -> list[tuple[str, int, str]]:
    found = [d for d in run_checks(load_game(game)) if d.code == "P002"]
    return [(d.file.removeprefix(f"{game}/"), d.span.line, d.message) for d in found]


def test_a_heading_marker_and_a_narrow_space_print_no_glyph_of_their_own(run_cli, tmp_path):
    """A Latin-1 font without `#` or U+202F prints this rulebook whole: headings print
    without their marker, and U+202F (before `!` in French, T010) as a narrowed U+00A0."""
    text = "# {{ game.title }}\n\n## Mise en place\n\nAttention\u202f! Voilà.\n"
    game = rulebook_game(run_cli, tmp_path, text)
    without = LATIN1.replace("#", "")
    with_font(game, dict.fromkeys(STYLES, without))
    assert [f for f in glyph_findings(game) if f[0].startswith("rulebook/")] == []


def test_a_placeholder_prints_its_value_not_its_braces(run_cli, tmp_path):
    """`Avancez de {steps} cases.` prints `Avancez de 2 cases.`: a font without `{` and
    `}` prints it (a brace written `{{` still prints one and is still searched)."""
    game = rulebook_game(run_cli, tmp_path, "# {{ game.title }}\n\nTexte.\n")
    without = LATIN1.replace("{", "").replace("}", "") + "\u202f"
    with_font(game, dict.fromkeys(STYLES, without))
    assert glyph_findings(game) == []
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("Avancez de {steps}", "Avancez de {{steps}}"))
    assert [(f[0], f[1]) for f in glyph_findings(game)] == [("decks/cards.yaml", 16)]


def test_the_title_heading_game_yaml_replaces_is_not_searched(run_cli, tmp_path):
    """The first level-1 heading is the book's title, which game.yaml's title replaces on
    the cover: it prints nowhere, so its letters are no finding (P002 nor P017); a later
    level-1 heading prints, and is searched."""
    game = rulebook_game(run_cli, tmp_path, "# Rules \u05e9\u05dc\u05d5\u05dd\n\nText.\n")
    said = [d for d in run_checks(load_game(game)) if d.file.endswith(".md")]
    assert [d.code for d in said if d.code in ("P002", "P017")] == []
    book = game / "rulebook" / "en.md"
    book.write_text(book.read_text() + "\n# Later \u05e9\u05dc\u05d5\u05dd\n")
    said = [d for d in run_checks(load_game(game)) if d.file.endswith("en.md")]
    assert sorted((d.code, d.span.line) for d in said if d.code in ("P002", "P017")) == [
        ("P002", 5),
        ("P017", 5),
    ]


def test_bold_italic_and_heading_runs_are_searched_in_their_faces(run_cli, tmp_path):
    """A family whose bold and italic lack `Q`: the regular face prints every `Q` of the
    plain text, but `**Quick**`, `*Quiet*` and `## Quarry` print boxes: each is found, and
    once a line (the heading face is the bold one here)."""
    text = "# {{ game.title }}\n\nPlain Q.\n\nA **Quick** rule.\n\nAn *Quiet* one.\n\n## Quarry\n"
    game = rulebook_game(run_cli, tmp_path, text)
    no_q = LATIN1.replace("Q", "") + "\u202f"
    with_font(game, {"regular": LATIN1 + "\u202f", **dict.fromkeys(STYLES[1:], no_q)})
    said = [f for f in glyph_findings(game) if f[0] == "rulebook/en.md"]
    assert [line for _, line, _ in said] == [5]  # the first line a face lacks it on
    assert "Cut bold" in said[0][2] and "Cut italic" in said[0][2]
    for book in (game / "rulebook").glob("*.md"):
        book.write_text(text.replace("Quick", "Slow").replace("Quiet", "Calm"))
    said = [f for f in glyph_findings(game) if f[0] == "rulebook/en.md"]
    assert [line for _, line, _ in said] == [9]  # `## Quarry`, in the heading face


def test_the_cover_and_the_card_reference_print_game_texts_in_their_faces(run_cli, tmp_path):
    """The cover's title (heading face, and the footer's italic), its summary (italic) and
    a deck's name (bold in the component list, the heading face in the card reference) are
    found at their own lines when those faces lack a letter the regular face has."""
    game = rulebook_game(run_cli, tmp_path, "# {{ game.title }}\n\nText.\n")
    no_q = LATIN1.replace("Q", "") + "\u202f"
    with_font(game, {"regular": LATIN1 + "\u202f", **dict.fromkeys(STYLES[1:], no_q)})
    manifest = game / "game.yaml"
    written = manifest.read_text()
    written = written.replace("  en: Probe\n", "  en: Quest\n", 1)
    written = written.replace("  en: 'A card game to finish: change this summary.'", "  en: Quiet.")
    manifest.write_text(written)
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("en: Action cards", "en: Quick cards"))
    said = [f for f in glyph_findings(game) if not f[0].startswith("rulebook/")]
    places = [(file, line) for file, line, message in said if "the rulebook's" in message]
    # the deck's name once: the component list prints it in bold, the card reference's
    # heading in the heading face, here the same face (probe 18: it was said twice)
    assert places == [("decks/cards.yaml", 7), ("game.yaml", 6), ("game.yaml", 10)], said
    assert sum("component list" in m for _, line, m in said if line == 7) == 1
    assert [f[1] for f in glyph_findings(game) if f[0].startswith("rulebook/")] == []


def test_the_rulebooks_own_words_and_marks_are_searched_in_the_games_font(run_cli, tmp_path):
    """What the renderer prints of its own: the players range `2–4` and the component
    list's `63 × 88 mm` (once per language, at game.yaml's `style.font`), a list's bullet
    (at the list) and an arrow's stand-in `–›` (at the arrow), none of them written."""
    text = "# {{ game.title }}\n\n## Setup\n\nGo A \u2192 B.\n\n- one\n- two\n"
    game = rulebook_game(run_cli, tmp_path, text)
    lacking = LATIN1.replace("\u00d7", "").replace("\u2013", "").replace("\u2022", "")
    with_font(game, dict.fromkeys(STYLES, lacking + "\u202f"))
    said = glyph_findings(game)
    own = [message for file, line, message in said if (file, line) == ("game.yaml", 31)]
    assert len(own) == 3  # one a language
    assert all("U+2013" in m and "U+00D7" in m and "'2\u20134'" in m for m in own)
    book = [(line, message) for file, line, message in said if file == "rulebook/en.md"]
    assert [line for line, _ in book] == [5, 7]
    assert "U+2013" in book[0][1] and "U+2022" in book[1][1]  # the arrow's dash, the bullet
