"""Fonts are content: Greek and Cyrillic print in the shipped font, a game's own `fonts/`
print where a layout or game.yaml names them, and a font that cannot print is a positioned
finding (P009, P010, P002), never a blank."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.font_maker import LATIN, make_font

GREEK = "Ο δράκος φυλάει τον θησαυρό"
RUSSIAN = "Дракон охраняет сокровище"
UKRAINIAN = "Їжак ґаздує: є ще їжа"


def write_game(root: Path, languages: list[str], names: dict, texts: dict, extra: str = "") -> Path:
    """A one-deck game in `languages` (its card's name and text given per language)."""
    game = root / "game"
    (game / "decks").mkdir(parents=True)
    langs = ", ".join(languages)
    title = ", ".join(f"{lang}: Game {lang}" for lang in languages)
    (game / "game.yaml").write_text(
        f"id: game\ntitle: {{{title}}}\nlanguages: [{langs}]\nsource_language: {languages[0]}\n"
        f"players: {{min: 2, max: 4}}\nrules: {{}}\nfiles:\n  decks: [decks/cards.yaml]\n{extra}",
        encoding="utf-8",
    )
    deck_name = ", ".join(f"{lang}: Deck {lang}" for lang in languages)
    name = "".join(
        f"      {lang}: {json.dumps(v, ensure_ascii=False)}\n" for lang, v in names.items()
    )
    text = "".join(
        f"      {lang}: {json.dumps(v, ensure_ascii=False)}\n" for lang, v in texts.items()
    )
    (game / "decks" / "cards.yaml").write_text(
        f"id: cards\nkind: actions\nname: {{{deck_name}}}\nsize: poker\ncards:\n"
        f"  - id: dragon\n    name:\n{name}    text:\n{text}",
        encoding="utf-8",
    )
    return game


def findings(run_cli, game: Path) -> list[dict]:
    result = run_cli("validate", str(game), "--format", "json")
    found = json.loads(result.stdout) if result.stdout.strip() else []
    for d in found:  # as a designer in the game folder reads them
        d["file"] = d["file"].removeprefix(f"{game}/")
    return found


def page_text(pdf: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(pdf).pages)


def base_fonts(pdf: Path) -> set[str]:
    found = set()
    for page in PdfReader(pdf).pages:
        for font in page["/Resources"]["/Font"].values():
            found.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    return found


def test_greek_and_cyrillic_cards_print_in_the_shipped_font(run_cli, tmp_path):
    names = {"el": "Δράκος", "ru": "Дракон", "uk": "Дракон"}
    texts = {"el": GREEK, "ru": RUSSIAN, "uk": UKRAINIAN}
    game = write_game(tmp_path, ["el", "ru", "uk"], names, texts)
    assert [d for d in findings(run_cli, game) if d["code"].startswith("P")] == []
    out = tmp_path / "out"
    result = run_cli("build", str(game), "--out", str(out), "--only", "cards")
    assert result.exit_code == 0, result.output
    for lang, text in texts.items():
        printed = page_text(out / "game" / lang / "cards.pdf")
        assert names[lang] in printed
        assert text.split()[-1] in printed  # the last word: wrapped lines keep it whole


def test_a_letter_no_shipped_font_has_is_still_found(run_cli, tmp_path):
    game = write_game(tmp_path, ["en"], {"en": "Dragon"}, {"en": "The dragon 龍 waits."})
    found = [d for d in findings(run_cli, game) if d["code"] == "P002"]
    assert [(d["file"], d["line"]) for d in found] == [("decks/cards.yaml", 10)]
    assert "U+9F8D" in found[0]["message"]


LAYOUT = """\
id: themed
elements:
  - kind: text
    box: {x: 3, y: 3, w: -3, h: 12}
    text: "{{ card.name }}"
    font: Test Serif
    style: bold
    size: {max: 12, min: 7}
  - kind: text
    box: {x: 3, y: 20, w: -3, h: 40}
    text: "{{ card.text }}"
    size: {max: 10, min: 6}
"""


def themed_game(tmp_path: Path, layout: str = LAYOUT, chars: str = LATIN) -> Path:
    game = write_game(tmp_path, ["en"], {"en": "Dragon"}, {"en": "The dragon waits."})
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("size: poker\n", "size: poker\nlayout: themed\n"))
    (game / "layouts").mkdir()
    (game / "layouts" / "themed.yaml").write_text(layout)
    for style in ("regular", "bold"):
        make_font(game / "fonts" / f"TestSerif-{style}.ttf", "Test Serif", style, chars)
    return game


def test_a_game_font_named_by_a_layout_prints_its_texts(run_cli, tmp_path):
    game = themed_game(tmp_path)
    assert findings(run_cli, game) == []
    out = tmp_path / "out"
    assert run_cli("build", str(game), "--out", str(out), "--only", "cards").exit_code == 0
    pdf = out / "game" / "en" / "cards.pdf"
    assert any(f.startswith("TestSerif-Bold-") for f in base_fonts(pdf))  # the title, subset
    assert "NotoSans-Regular" in base_fonts(pdf)  # the text: no font named, the toolkit's
    assert "Dragon" in page_text(pdf)


def test_the_game_font_in_game_yaml_prints_everything_not_named_otherwise(run_cli, tmp_path):
    game = themed_game(tmp_path)
    for style in ("italic", "bolditalic"):
        make_font(game / "fonts" / f"TestSerif-{style}.ttf", "Test Serif", style)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text() + "style:\n  font: Test Serif\n")
    assert findings(run_cli, game) == []
    out = tmp_path / "out"
    assert run_cli("build", str(game), "--out", str(out), "--only", "cards").exit_code == 0
    fonts = base_fonts(out / "game" / "en" / "cards.pdf")
    assert any(f.startswith("TestSerif-Regular-") for f in fonts), fonts
    assert not any(f.startswith("NotoSans") for f in fonts)


def test_a_font_file_that_is_no_font_is_found_at_the_file(run_cli, tmp_path):
    game = themed_game(tmp_path)
    (game / "fonts" / "Broken.ttf").write_text("not a font at all")
    found = findings(run_cli, game)
    assert [(d["code"], d["file"], d["line"]) for d in found] == [("P009", "fonts/Broken.ttf", 1)]
    assert "not a font file" in found[0]["message"]


def test_a_font_file_outside_the_game_folder_is_refused(run_cli, tmp_path):
    game = themed_game(tmp_path)
    outside = make_font(tmp_path / "elsewhere.ttf", "Elsewhere")
    (game / "fonts" / "Link.ttf").symlink_to(outside)
    found = findings(run_cli, game)
    assert [(d["code"], d["file"]) for d in found] == [("P009", "fonts/Link.ttf")]
    assert "leaves the game folder" in found[0]["message"]


def test_an_opentype_font_with_cff_outlines_is_a_clear_finding(run_cli, tmp_path):
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    pen = T2CharStringPen(500, None)
    pen.moveTo((0, 0))
    pen.lineTo((400, 0))
    pen.lineTo((400, 700))
    pen.closePath()
    builder = FontBuilder(1000, isTTF=False)
    builder.setupGlyphOrder([".notdef", "A"])
    builder.setupCharacterMap({ord("A"): "A"})
    builder.setupCFF(
        "PostScriptFace", {}, {".notdef": pen.getCharString(), "A": pen.getCharString()}, {}
    )
    builder.setupHorizontalMetrics({".notdef": (500, 0), "A": (500, 0)})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "PostScript Face", "styleName": "Regular"})
    builder.setupOS2()
    builder.setupPost()
    game = themed_game(tmp_path)
    builder.save(str(game / "fonts" / "PostScript.otf"))
    found = findings(run_cli, game)
    assert [(d["code"], d["file"]) for d in found] == [("P009", "fonts/PostScript.otf")]
    assert "CFF" in found[0]["message"] and ".ttf" in found[0]["message"]


def test_an_unknown_family_is_found_at_the_layout_that_names_it(run_cli, tmp_path):
    game = themed_game(tmp_path, LAYOUT.replace("font: Test Serif", "font: Test Serf"))
    found = findings(run_cli, game)
    assert [(d["code"], d["file"], d["line"], d["col"]) for d in found] == [
        ("P010", "layouts/themed.yaml", 6, 11)
    ]
    assert "'Test Serf'" in found[0]["message"] and "Test Serif" in found[0]["message"]
    assert run_cli("validate", str(game)).exit_code == 1
    out = tmp_path / "out"
    assert run_cli("build", str(game), "--out", str(out)).exit_code == 1
    assert not out.exists() or not any(out.rglob("*.pdf"))  # nothing printed with a blank


def test_a_style_the_family_lacks_is_found_at_the_layout(run_cli, tmp_path):
    game = themed_game(tmp_path, LAYOUT.replace("style: bold", "style: italic"))
    found = findings(run_cli, game)
    assert [(d["code"], d["line"]) for d in found] == [("P010", 6)]
    assert "no italic style" in found[0]["message"]


def test_a_letter_the_game_font_lacks_is_found_at_the_text_it_prints(run_cli, tmp_path):
    game = themed_game(tmp_path, chars="".join(ch for ch in LATIN if ch != "g"))
    found = findings(run_cli, game)
    assert [(d["code"], d["file"], d["line"]) for d in found] == [
        ("P002", "decks/cards.yaml", 9)
    ]  # the card's name, which the layout prints in Test Serif Bold
    assert "U+0067 'g'" in found[0]["message"] and "Test Serif bold" in found[0]["message"]


def test_game_yaml_style_names_fonts_the_game_has(run_cli, tmp_path):
    game = themed_game(tmp_path)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text() + "style:\n  font: Test Serif\n  heading_font: Nope\n")
    found = findings(run_cli, game)
    assert [(d["code"], d["file"], d["line"]) for d in found] == [("P010", "game.yaml", 11)]
    assert "no font family 'Nope'" in found[0]["message"] and "Test Serif" in found[0]["message"]


def test_a_style_the_game_font_lacks_prints_in_its_nearest(run_cli, tmp_path):
    """Test Serif has regular and bold only (as most CJK fonts): italics print upright in it,
    never in another family, and no finding asks for an italic the designer cannot get."""
    game = themed_game(tmp_path)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text() + "style:\n  font: Test Serif\n")
    assert findings(run_cli, game) == []
    out = tmp_path / "out"
    assert run_cli("build", str(game), "--out", str(out), "--only", "cards").exit_code == 0
    fonts = {f.rsplit("-", 1)[0] for f in base_fonts(out / "game" / "en" / "cards.pdf")}
    assert fonts == {"TestSerif-Regular", "TestSerif-Bold"}


@pytest.mark.parametrize("style", ["regular", "bold", "italic", "bolditalic"])
def test_a_font_is_read_as_the_style_it_declares(tmp_path, style):
    from toolkit.render.game_fonts import font_set

    make_font(tmp_path / "fonts" / "a.ttf", "Declared", style)
    fonts = font_set(tmp_path)
    assert fonts.problems == ()
    assert fonts.missing("declared", style) is None  # family names match case-insensitively
    assert fonts.face("Declared", style) != style  # the game's face, not the toolkit's


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


def test_a_board_prints_in_the_family_its_style_names(run_cli, tmp_path):
    from tests.test_score_track import SCORE, score_game

    game = score_game(tmp_path, SCORE + "style: {font: Test Serif}\n")
    for style in ("regular", "bold"):
        # the letters of the board's words in its three languages (the assembly page's too)
        latin1 = "".join(chr(c) for c in range(0xA0, 0x100))
        make_font(
            game / "fonts" / f"TestSerif-{style}.ttf", "Test Serif", style, LATIN + latin1 + "–“”"
        )
    assert [d for d in findings(run_cli, game) if d["code"].startswith("P")] == []
    out = tmp_path / "out"
    assert run_cli("build", str(game), "--out", str(out), "--only", "board").exit_code == 0
    fonts = base_fonts(out / "fixture-game" / "en" / "board.pdf")
    assert {f.rsplit("-", 1)[0] for f in fonts} == {"TestSerif-Regular", "TestSerif-Bold"}
    (game / "boards" / "map.yaml").write_text(SCORE + "style: {font: Test Sans}\n")
    found = [d for d in findings(run_cli, game) if d["code"] == "P010"]
    assert [(d["file"], d["line"]) for d in found] == [("boards/map.yaml", 6)]
    assert "no font family 'Test Sans'" in found[0]["message"]


def test_a_dangling_font_link_is_a_finding_not_a_silent_gap(run_cli, tmp_path):
    game = themed_game(tmp_path)
    (game / "fonts" / "Gone.ttf").symlink_to(game / "fonts" / "nowhere.ttf")
    found = findings(run_cli, game)
    assert [(d["code"], d["file"]) for d in found] == [("P009", "fonts/Gone.ttf")]
