"""probe 53's Low findings L1, L3 and L4, each test red before its fix."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from pypdf import PdfReader

from toolkit.content.game import load_game
from toolkit.render.code_lines import broken_lines
from toolkit.render.markdown_flow import Note, make_sheet, markdown_flowables
from toolkit.render.rulebook import render_rulebook
from toolkit.scaffold.new import new_game


def _starter(tmp_path: Path, langs: tuple[str, ...] = ("en",)) -> Path:
    folder = tmp_path / "g"
    new_game(folder, "g", list(langs))
    return folder


def _pdf_words(data: bytes) -> list[str]:
    pdf = PdfReader(io.BytesIO(data))
    return "\n".join(page.extract_text() for page in pdf.pages).split()


def test_a_code_line_wider_than_the_page_is_broken_not_cut(tmp_path):
    # probe 53-L3: a code or <pre> line longer than the page ran past its box and was cut at
    # the page's edge (pdftotext found 42 of these 240 words on the page)
    words = " ".join(f"w{i:03d}" for i in range(120))
    letters = "".join(chr(97 + i % 26) for i in range(300))  # one word wider than the page
    text = f"# T\n\n```\n{words}\n{letters}\n```\n\n> <pre>\n> {words}\n> </pre>\n"
    sheet = make_sheet("en")
    notes = markdown_flowables(text, sheet).flowables
    assert len(notes) == 2
    for note, inside in zip(notes, (430.0, 410.0), strict=True):  # a quote's box in a box
        note.wrap(450.0, 700.0)
        (block,) = [f for f in _flowables(note) if not isinstance(f, Note)]
        assert block.width <= inside, block.width  # was 2,981 points
    game = _starter(tmp_path)
    rulebook = game / "rulebook" / "en.md"
    rulebook.write_text(rulebook.read_text(encoding="utf-8") + text[4:], encoding="utf-8")
    printed = _pdf_words(render_rulebook(load_game(game), "en"))
    for i in range(120):
        assert printed.count(f"w{i:03d}") == 2, i
    assert "".join(w for w in printed if re.fullmatch(r"[a-z]{2,}", w)).count(letters) == 1


def _flowables(note) -> list:
    """What a Note's box holds, a quote's Note and what that holds too."""
    found = []
    for f in note.table._cellvalues[0][0]:
        found.append(f)
        if isinstance(f, Note):
            found += _flowables(f)
    return found


def test_broken_lines_fit_and_keep_every_character():
    from toolkit.render.fonts import register

    register()
    text = "short\n" + "ab cd " * 200 + "\n" + "x" * 500 + "\n\nend"
    lines = broken_lines(text, 100.0, "Helvetica", 9)
    assert "".join(lines) == text.replace("\n", "")
    assert lines[0] == "short" and lines[-2:] == ["", "end"]
    from reportlab.pdfbase.pdfmetrics import stringWidth

    assert all(stringWidth(line, "Helvetica", 9) <= 100.0 for line in lines)
    assert broken_lines("abc", 0.1, "Helvetica", 9) == ["a", "b", "c"]  # one at least


def _validate(run_cli, game: Path) -> list[dict]:
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    return json.loads(result.stdout)


def test_an_icon_in_a_card_name_prints_as_the_icon_in_the_rulebook(tmp_path):
    # probe 53-L4: a card name "Forward :token:" printed `:token:` as written in the card
    # reference (and a deck's name in the component list), where its card face draws the icon
    from toolkit.render.markdown_flow import ICON_TAG
    from toolkit.render.rulebook import card_reference, components

    game = _starter(tmp_path)
    deck = game / "decks" / "cards.yaml"
    deck.write_text(
        deck.read_text(encoding="utf-8").replace("en: Forward", 'en: "Forward :token:"'),
        encoding="utf-8",
    )
    loaded = load_game(game)
    sheet = make_sheet("en")
    from toolkit.render.icons import icon_set

    sheet.icons = icon_set(loaded.root)
    tables = [f for f in card_reference(loaded, "en", sheet) if hasattr(f, "rows")]
    name = tables[0].rows[1][0].markup
    assert ":token:" not in name and ICON_TAG in name, name
    loaded.decks[0].model.name["en"] = "Action :token: cards"  # type: ignore[union-attr]
    listed = [f for f in components(loaded, "en", sheet) if hasattr(f, "rows")]
    assert ICON_TAG in listed[0].rows[1][0].markup


def test_an_icon_in_a_deck_name_that_heads_the_card_reference_is_p007(run_cli, tmp_path):
    # probe 53-L4: the deck's name heads its part of the card reference, in the contents and
    # the PDF outline too, where an icon prints as written: validate said nothing
    game = _starter(tmp_path)
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("en: Action cards", 'en: "Action :token: cards"'))
    line = text[: text.index("en: Action cards")].count("\n") + 1
    found = [d for d in _validate(run_cli, game) if d["code"] == "P007"]
    assert [(Path(d["file"]).name, d["line"], d["col"]) for d in found] == [
        ("cards.yaml", line, 7)
    ], found
    assert "prints this deck's name as a heading (en), where ':token:'" in found[0]["message"]


HEAVY = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">'
    + "".join(f'<circle cx="{i % 40 + 5}" cy="{i // 40 + 5}" r="1"/>' for i in range(1000))
    + "</svg>\n"
)


def test_the_icons_of_card_names_count_in_the_card_reference_weight(run_cli, tmp_path):
    # probe 53-L4: names now draw their icons, so they count against the reference's icon
    # weight (else past it they print blank: probe 53-4)
    game = _starter(tmp_path)
    (game / "icons" / "heavy.svg").write_text(HEAVY, encoding="utf-8")
    cards = "".join(
        f"  - id: c{k}\n    name:\n      en: 'Card {k} :heavy:'\n    text:\n      en: Text {k}.\n"
        for k in range(20)
    )
    deck = game / "decks" / "cards.yaml"
    head = deck.read_text(encoding="utf-8").split("cards:\n")[0]
    deck.write_text(head + "cards:\n" + cards, encoding="utf-8")
    found = [d for d in _validate(run_cli, game) if d["code"] == "R010"]
    assert len(found) == 1 and "inline icons (en) weigh more than" in found[0]["message"], found
    assert Path(found[0]["file"]).name == "cards.yaml"


def _tall_game(tmp_path: Path, words: int) -> tuple[Path, int, int]:
    """The starter with a card text of `words` words its face does not print (the layout's
    text boxes off): the text's line and column in the deck file."""
    game = _starter(tmp_path)
    layout = game / "layouts" / "standard.yaml"
    text = layout.read_text(encoding="utf-8")
    for shown in ("card.text and art", "card.text and numbered and not art"):
        text = text.replace(f"when: {shown}\n", 'when: "false"\n')
    text = text.replace("when: card.text and not numbered and not art\n", 'when: "false"\n')
    layout.write_text(text, encoding="utf-8")
    deck = game / "decks" / "cards.yaml"
    written = deck.read_text(encoding="utf-8")
    line = written[: written.index("en: Draw a card.")].count("\n") + 1
    deck.write_text(written.replace("Draw a card.", " ".join(["word"] * words)))
    return game, line, 11


def test_a_card_reference_row_taller_than_a_page_is_r010_at_its_text(run_cli, tmp_path):
    # probe 53-L1: validate was clean, and `build` refused the rulebook: "a table row is
    # taller than a page (page 5)", with no place to fix it
    game, line, col = _tall_game(tmp_path, 799)
    found = [d for d in _validate(run_cli, game) if d["code"] == "R010"]
    assert [(Path(d["file"]).name, d["line"], d["col"]) for d in found] == [
        ("cards.yaml", line, col)
    ], found
    assert "would print this card's row" in found[0]["message"]
    assert "more than a page of A4 or letter holds" in found[0]["message"]
    result = run_cli("build", str(game), "--no-cache", "--only", "rulebook")
    assert result.exit_code == 1 and "R010" in result.output


def test_validate_says_a_tall_row_on_the_papers_build_refuses_it_on(tmp_path):
    # measured as build lays the row out: at the edge, a row letter's shorter page cannot
    # hold and A4's can is said for letter only
    from toolkit.checks.card_reference_rows import tall_rows
    from toolkit.render.card_reference import deck_reference
    from toolkit.render.icons import icon_set
    from toolkit.render.rulebook import RulebookTooLarge
    from toolkit.render.rulebook_style import rulebook_faces

    seen = []
    for words in (740, 750, 760):
        game = load_game(_tall_game(tmp_path / str(words), words)[0])
        table = deck_reference(game, game.decks[0].model, "en")
        assert table is not None
        faces, icons = rulebook_faces(game), icon_set(game.root)
        said = [p for *_, papers in tall_rows(table, "en", faces, icons) for p in papers]
        refused = []
        for paper in ("a4", "letter"):
            try:
                render_rulebook(game, "en", paper)
            except RulebookTooLarge:
                refused.append(paper)
        assert said == refused, words
        seen.append(said)
    assert seen == [[], ["letter"], ["a4", "letter"]]


def test_the_card_reference_cells_validate_measures_are_the_ones_build_lays_out(tmp_path):
    from toolkit.render.card_reference import deck_reference, plain_cells
    from toolkit.render.rulebook import reference_rows

    game = load_game(_starter(tmp_path, ("en", "fr")))
    sheet = make_sheet("fr")
    for lang in ("en", "fr"):
        table = deck_reference(game, game.decks[0].model, lang)
        assert table is not None
        laid = [
            [(c.plain, c.head or c.bold) for c in row] for row in reference_rows(table, lang, sheet)
        ]
        assert plain_cells(table, lang) == laid


def test_a_deck_name_too_long_to_head_the_card_reference_is_r010(run_cli, tmp_path):
    # probe 53-L1, the heading's side: a deck's name of 3,989 characters heads its part of
    # the card reference; validate was clean and `build` said "a heading is taller than a
    # page (page 6)". The rulebook's own headings are bounded (MAX_HEADING) at validate
    from toolkit.render.rulebook_source import MAX_HEADING

    game = _starter(tmp_path)
    layout = game / "layouts" / "standard.yaml"  # the face's footer prints no deck name
    layout.write_text(
        layout.read_text(encoding="utf-8").replace(" · {{ deck.name }}", ""), encoding="utf-8"
    )
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    line = text[: text.index("en: Action cards")].count("\n") + 1
    for words, said in ((MAX_HEADING // 7, False), (570, True)):
        deck.write_text(text.replace("en: Action cards", "en: " + " ".join(["Action"] * words)))
        found = [d for d in _validate(run_cli, game) if d["code"] == "R010"]
        assert [(d["line"], d["col"]) for d in found] == ([(line, 7)] if said else []), found
    assert f"a heading may have at most {MAX_HEADING}" in found[0]["message"]


def test_a_style_svglib_cannot_read_is_said_at_its_element(run_cli, tmp_path):
    # probe 54 (held, wording Low): `style="fill:red:blue"` made svglib fail on the whole
    # icon, said as "svglib cannot draw it: too many values to unpack (expected 2)" at 1:1
    for style, shown in (("fill:red:blue", "fill:red:blue"), ("fill: red; stroke", "stroke")):
        game = _starter(tmp_path / shown.replace(":", "-"))
        (game / "icons" / "token.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">\n'
            f'  <circle cx="50" cy="50" r="42" style="{style}"/>\n</svg>\n',
            encoding="utf-8",
        )
        found = [d for d in _validate(run_cli, game) if d["code"] == "P008"]
        assert [(d["line"], d["col"]) for d in found] == [(2, 3)], found
        assert f"its style holds {shown!r}, which svglib cannot read" in found[0]["message"]


def test_an_icon_in_the_title_is_p007_and_the_summary_draws_its_icons(run_cli, tmp_path):
    # probe 53-L4's neighbours: the game's title and summary printed `:token:` as written on
    # the rulebook's cover (and the title in every footer and the PDF's title), validate clean
    from toolkit.render.markdown_flow import ICON_TAG
    from toolkit.render.rulebook import cover

    game = _starter(tmp_path)
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    line = text[: text.index("  en: G\n")].count("\n") + 1
    manifest.write_text(
        text.replace("  en: G\n", '  en: "G :token:"\n', 1).replace(
            "en: 'A card game to finish: change this summary.'", "en: 'A game :token: to end.'"
        ),
        encoding="utf-8",
    )
    found = [d for d in _validate(run_cli, game) if d["code"] == "P007"]
    assert [(Path(d["file"]).name, d["line"], d["col"]) for d in found] == [
        ("game.yaml", line, 7)
    ], found
    assert "prints the game's title (en) as words" in found[0]["message"]
    loaded = load_game(game)
    sheet = make_sheet("en")
    from toolkit.render.icons import icon_set

    sheet.icons = icon_set(loaded.root)
    texts = [getattr(f, "text", "") for f in cover(loaded, "en", "G", sheet, (595.0, 842.0))]
    assert any(ICON_TAG in t for t in texts), texts
