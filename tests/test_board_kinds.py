"""Board kinds are a registry and a board's look is data: a kind registered from outside the
toolkit validates, builds and shows in the reference; a designer's new space and link kinds
print in the build language, in colours of their own."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Literal

import pytest
from pydantic import Field
from pypdf import PdfReader
from reportlab.lib.units import mm

from tests.conftest import FIXTURES, copy_game
from tests.outside import reference_text
from toolkit.checks import run_checks
from toolkit.content.game import load_game
from toolkit.content.models.base import LocalizedText, Slug, StrictModel
from toolkit.content.models.board import (
    BoardKind,
    GraphBoard,
    register_board_kind,
    unregister_board_kind,
)
from toolkit.render.boards import board_look, render_board
from toolkit.render.boards.look import PALETTE
from toolkit.render.tiling import Drawing


class HexBoard(StrictModel):
    """Rings of hexagons around a centre (a test's own board kind)."""

    kind: Literal["hexes"]
    id: Slug
    name: LocalizedText
    rings: int = Field(ge=1, le=6)


def draw_hexes(board: HexBoard, look) -> list[Drawing]:
    def paint(c) -> None:
        c.setFont("Helvetica", 14)
        c.drawString(20 * mm, 20 * mm, f"{look.text(board.name)}: {board.rings} rings")

    return [Drawing(200 * mm, 150 * mm, look.text(board.name), paint)]


@pytest.fixture
def hexes():
    entry = register_board_kind(
        BoardKind("hexes", HexBoard, draw_hexes, lambda b: f"{b.rings} rings")
    )
    yield entry
    unregister_board_kind("hexes")


def _game_with_board(tmp_path: Path, board_yaml: str, glossary: str = "") -> Path:
    game = tmp_path / "game"
    copy_game(FIXTURES / "base", game)
    (game / "boards" / "map.yaml").write_text(board_yaml, encoding="utf-8")
    if glossary:
        path = game / "glossary.yaml"
        path.write_text(path.read_text(encoding="utf-8") + glossary, encoding="utf-8")
    return game


def _text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


HEX_BOARD = """kind: hexes
id: hexes
name: {fr: Hexagones, es: Hexágonos, en: Hexagons}
rings: 3
"""


def test_a_board_kind_registered_from_outside_validates_builds_and_is_documented(
    hexes, tmp_path, run_cli
):
    game = _game_with_board(tmp_path, HEX_BOARD)
    loaded = load_game(game)
    assert not [d for d in run_checks(loaded) if d.severity.name == "ERROR"]
    (board,) = loaded.valid(loaded.boards)
    assert isinstance(board, HexBoard)
    assert "Hexágonos: 3 rings" in _text(render_board(loaded, board, "es", board_page="a3"))
    out = tmp_path / "out"
    result = run_cli("build", str(game), "--out", str(out), "--lang", "en")
    assert result.exit_code == 0, result.output
    assert "Hexagons: 3 rings" in _text((out / "fixture-game" / "en" / "board.pdf").read_bytes())
    assert "| `hexes` | [HexBoard](#board-hexboard) |" in reference_text()


def test_an_unregistered_board_kind_is_a_schema_error(tmp_path):
    game = _game_with_board(tmp_path, HEX_BOARD)
    loaded = load_game(game)
    assert any(d.code.startswith("S") and "map.yaml" in d.file for d in loaded.diagnostics)


DESIGNER_BOARD = """kind: graph
id: isles
name: {fr: Les îles, es: Las islas, en: The isles}
spaces:
  - {id: north, name: Northport, kind: harbour, x: 0, y: 0, tags: [start]}
  - {id: beacon, name: Old Beacon, kind: lighthouse, x: 120, y: 20}
  - {id: reef, name: Skerry, kind: reef, x: 150, y: 60}
  - {id: market, name: Market, kind: market, x: 80, y: 60}
links:
  - {a: north, b: market}
  - {a: north, b: beacon, kind: sea_lane}
  - {a: beacon, b: reef, kind: sea_lane}
"""

DESIGNER_TERMS = """  - id: lighthouse
    text: {fr: phare, es: faro, en: lighthouse}
  - id: sea-lane
    text: {fr: voie maritime, es: ruta marítima, en: sea lane}
"""


def test_a_designers_new_kinds_speak_the_build_language(tmp_path):
    """It used to print a grey disc with the English initial, and call sea lanes 'Road'."""
    game = load_game(_game_with_board(tmp_path, DESIGNER_BOARD, DESIGNER_TERMS))
    (board,) = game.valid(game.boards)
    look = board_look(game, board, "es")
    lighthouse = look.space("lighthouse")
    assert (lighthouse.label, lighthouse.initial) == ("Faro", "F")
    colours = {look.space(k).colour for k in ("harbour", "lighthouse", "reef", "market")}
    assert len(colours) == 4 and colours <= set(PALETTE)
    assert look.space("reef").label == "Reef"  # no term: the id in words
    assert look.line_word("sea_lane") == "Ruta marítima"
    assert look.line("sea_lane").dash  # a line of its own, not the plain link's
    page = _text(render_board(game, board, "es", board_page="a3"))
    for word in ("Las islas", "Faro", "Ruta marítima", "Salida", "Old Beacon"):
        assert word in page
    assert "Road" not in page and "Carretera" not in page


STYLED_BOARD = (
    DESIGNER_BOARD
    + """style:
  spaces:
    lighthouse: {colour: "#123456", label: {fr: Feu, es: Luz, en: Light}, icon: none}
    reef: {label: lighthouse}
  links:
    sea_lane: {colour: "#0000ff", dash: [1, 1], label: {fr: Bac, es: Barca, en: Boat}}
  unnamed_prefix: "Old "
"""
)


def test_a_boards_style_wins_over_the_glossary_and_the_defaults(tmp_path):
    game = load_game(_game_with_board(tmp_path, STYLED_BOARD, DESIGNER_TERMS))
    errors = [d for d in run_checks(game) if d.severity.name == "ERROR"]
    assert not errors, errors
    (board,) = game.valid(game.boards)
    look = board_look(game, board, "es")
    assert look.space("lighthouse").colour == "#123456"
    assert look.space("lighthouse").label == "Luz"
    assert look.space("reef").label == "Faro"  # a label may name a glossary term
    assert look.line("sea_lane").colour == "#0000ff" and look.line_word("sea_lane") == "Barca"
    page = _text(render_board(game, board, "es", board_page="a3"))
    assert "Barca" in page and "Luz" in page
    assert "Old Beacon" not in page  # unnamed_prefix hides generated names


def test_a_style_naming_a_missing_glossary_term_is_a_reference_error(tmp_path):
    board = STYLED_BOARD.replace("reef: {label: lighthouse}", "reef: {label: lighthous}")
    game = load_game(_game_with_board(tmp_path, board, DESIGNER_TERMS))
    found = [d for d in run_checks(game) if "lighthous" in d.message]
    assert found and found[0].code.startswith("R") and found[0].file.endswith("map.yaml")
    line = board.splitlines().index("    reef: {label: lighthous}") + 1
    assert found[0].span.line == line


def test_every_bundled_kind_and_style_field_is_in_the_reference():
    text = reference_text()
    for kind in ("graph", "track", "road"):
        assert f"| `{kind}` | [" in text
    for name in ("BoardStyle", "SpaceStyle", "LineStyle"):
        assert f"(#board-{name.lower()})" in text
    for field in GraphBoard.model_fields["style"].annotation.model_fields:
        assert f"| `{field}` |" in text


def test_a_style_naming_a_missing_icon_is_p015_at_its_line(tmp_path):
    board = STYLED_BOARD.replace("icon: none}", "icon: lampp}")
    game = load_game(_game_with_board(tmp_path, board, DESIGNER_TERMS))
    found = [d for d in run_checks(game) if d.code == "P015"]
    assert len(found) == 1 and "'lampp'" in found[0].message
    line = next(i for i, text in enumerate(board.splitlines(), 1) if "lampp" in text)
    assert found[0].file.endswith("map.yaml") and found[0].span.line == line
    fine = load_game(_game_with_board(tmp_path / "b", board.replace("lampp", "star")))
    assert not [d for d in run_checks(fine) if d.code == "P015"]


@pytest.mark.parametrize("game_id", ["whisky-game", "muckle-stoater", "tokaido"])
def test_a_board_without_a_style_draws_in_generic_looks(game_id: str):
    from toolkit.content.models.board import BoardStyle

    game = load_game(Path(__file__).parent.parent / "content" / game_id)
    (board,) = game.valid(game.boards)
    plain = board.model_copy(update={"style": BoardStyle()})
    styled_pdf = render_board(game, board, "es", board_page="a3")
    plain_pdf = render_board(game, plain, "es", board_page="a3")
    assert plain_pdf != styled_pdf  # the style is what makes the bundled look
    look = board_look(game, plain, "es")
    kinds = look.kinds
    assert len({look.space(k).colour for k in kinds}) == len(kinds)  # one colour per kind
    assert plain.name["es"] in _text(plain_pdf)


def test_a_style_renames_a_drawers_phrases_in_any_language():
    from toolkit.content.models.board import BoardStyle

    game = load_game(Path(__file__).parent.parent / "content" / "tokaido")
    (road,) = game.valid(game.boards)
    labels = {"leg": {"en": "Day {n}", "es": "Jornada {n}"}}
    style = road.style.model_copy(update={"labels": labels})
    page = _text(
        render_board(game, road.model_copy(update={"style": style}), "es", board_page="a2")
    )
    assert "Jornada 2" in page and "Tramo 2" not in page
    assert "Tramo 2" in _text(render_board(game, road, "es", board_page="a2"))
    assert BoardStyle().labels == {}


CONTENT = Path(__file__).parent.parent / "content"


def _with_labels(game_id: str, labels: dict) -> tuple:
    game = load_game(CONTENT / game_id)
    (board,) = game.valid(game.boards)
    style = board.style.model_copy(update={"labels": {**board.style.labels, **labels}})
    return game, board.model_copy(update={"style": style})


def test_a_format_spec_in_a_phrase_prints_as_written_and_runs_nothing():
    """Probe 17b H1, M11: the phrases were filled with `str.format`, so `{n:>2000000{n}}`
    built a 2 MB label (88 s, 650 MB) and `{0}` or a spec for a text ended in a traceback."""
    game, road = _with_labels("tokaido", {"leg": {"en": "Leg {n:*>30{n}}", "es": "Tramo {0}"}})
    page = _text(render_board(game, road, "en", board_page="a2"))
    assert "Leg {n:*>30" in page and "*****" not in page  # the spec prints as written
    assert "Tramo {0}" in _text(render_board(game, road, "es", board_page="a2"))
    game, track = _with_labels(
        "muckle-stoater",
        {"count": {"en": "{n:*>3{n}} players"}, "title": {"en": "{board!r}: {x} {players}"}},
    )
    page = _text(render_board(game, track, "en", board_page="a2"))
    # braces are read left to right, as `str.format` reads them: the `{n}` inside is filled
    assert "{board!r}: {x} {n:*>33} players" in page and "***" not in page


def test_the_drawers_own_phrases_write_only_the_names_their_kind_fills():
    """One table of each phrase's names: the drawer fills them, validate allows them."""
    from toolkit.boards import road, track
    from toolkit.content.templating import placeholders, stray_braces
    from toolkit.render.boards import road as road_drawer
    from toolkit.render.boards import track as track_drawer

    for names, table in ((road.PHRASES, road_drawer.TEXT), (track.PHRASES, track_drawer.TEXT)):
        for words in table.values():
            assert set(words) == set(names)
            for key, phrase in words.items():
                assert stray_braces(phrase, names[key]) == []
                assert set(placeholders(phrase)) == set(names[key])


def _r006(run_cli, root: Path) -> list[tuple[int, int, str]]:
    from tests.conftest import diagnostics_json

    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    found = diagnostics_json(result.output)
    return [(d["line"], d["col"], d["message"]) for d in found if d["code"] == "R006"]


def _style_labels(root: Path, board: str, lines: str) -> None:
    path = root / "boards" / board
    text = path.read_text(encoding="utf-8")
    if "\n  labels:\n" in text:
        text = text.replace("\n  labels:\n", "\n  labels:\n" + lines, 1)
    else:
        text = text.replace("\nstyle:\n", "\nstyle:\n  labels:\n" + lines, 1)
    path.write_text(text, encoding="utf-8")


def test_a_road_phrase_may_write_its_number_and_nothing_else(run_cli, tmp_path):
    """Probe 17b M1: R006 refused the documented `{n}` of `leg` as "no parameter of this
    card"; H1: a field in a field (`{n:>2000000{n}}`) was no placeholder to it at all."""
    root = copy_game(CONTENT / "tokaido", tmp_path / "tokaido")
    _style_labels(root, "road.yaml", '    leg: {en: "Leg {n}", fr: "Étape {n}", es: "Etapa {n}"}\n')
    assert _r006(run_cli, root) == []
    root = copy_game(CONTENT / "tokaido", tmp_path / "bad")
    phrase = '    leg: {en: "Leg {n:>2000000{n}}", fr: "Étape {n!r}", es: "Etapa {m}"}\n'
    _style_labels(root, "road.yaml", phrase)
    found = _r006(run_cli, root)
    lines = (root / "boards" / "road.yaml").read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, start=1) if text.startswith("    leg:"))
    cols = [lines[line - 1].index(f'"{word} ') + 1 for word in ("Leg", "Étape", "Etapa")]
    assert [(at, col) for at, col, _ in found] == [(line, col) for col in cols]
    assert "'{n:>2000000{n}}'" in found[0][2] and "it fills {n}" in found[0][2]
    assert "'{n!r}'" in found[1][2] and "'{m}'" in found[2][2]


def test_a_track_phrase_is_checked_against_its_own_names(run_cli, tmp_path):
    """Probe 17b M11: a spec in `count` passed validate and `build` ended in a traceback."""
    root = copy_game(CONTENT / "muckle-stoater", tmp_path / "ms")
    _style_labels(
        root,
        "mashies.yaml",
        '    count: {en: "{n:*>3{n}} players", fr: "{n} joueurs", es: "{n} jugadores"}\n'
        '    title: {en: "{board}, {players}", fr: "{board}, {list}", es: "{board}, {players}"}\n',
    )
    messages = [message for _, _, message in _r006(run_cli, root)]
    assert len(messages) == 2
    assert "'count' (en) writes '{n:*>3{n}}'" in messages[0]
    assert "'title' (fr) writes '{list}'" in messages[1]
    assert "{board}, {m}, {segment}, {players}" in messages[1]
    result = run_cli("build", str(root), "--no-cache", "--lang", "en", "--only", "board")
    assert result.exit_code == 1 and "Traceback" not in result.output


def test_what_a_board_prints_is_searched_in_its_font(run_cli, tmp_path):
    """Probe 17b M4: nothing checked a board's glyphs: a stop named Quebec in a font without
    Q printed a box, the assembly page's '%' vanished, and validate was clean."""
    from tests.conftest import diagnostics_json
    from tests.font_maker import LATIN, make_font

    root = copy_game(CONTENT / "tokaido", tmp_path / "tokaido")
    latin1 = "".join(chr(c) for c in range(0xA0, 0x100))
    chars = (LATIN + latin1 + "“”").replace("Q", "").replace("%", "")
    for style in ("regular", "bold"):
        make_font(root / "fonts" / f"Tiny-{style}.ttf", "Tiny", style, chars)
    road = root / "boards" / "road.yaml"
    text = road.read_text(encoding="utf-8").replace("    name: Kyoto", "    name: Quebec")
    road.write_text(text.replace("\nstyle:\n", "\nstyle:\n  font: Tiny\n", 1), encoding="utf-8")
    lines = road.read_text(encoding="utf-8").splitlines()
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    found = [d for d in diagnostics_json(result.output) if d["code"] == "P002"]
    at = {(d["line"], d["col"]): d["message"] for d in found if d["file"].endswith("road.yaml")}
    quebec = next(i for i, line in enumerate(lines, start=1) if "name: Quebec" in line)
    font = next(i for i, line in enumerate(lines, start=1) if line == "  font: Tiny")
    assert "'Quebec'" in at[(quebec, 11)] and "U+0051 'Q'" in at[(quebec, 11)]
    assert "U+0025 '%'" in at[(font, 9)] and "Tiny regular" in at[(font, 9)]
    assert len(found) == 2  # each character once, though three languages print it


def test_a_place_name_too_long_for_its_stop_is_said_and_kept_in_its_box(
    run_cli, tmp_path, monkeypatch
):
    """Probe 17b M5: validate did not fit place names; a 79-letter word ran across the next
    stop and off the board."""
    from reportlab.pdfgen.canvas import Canvas

    from tests.conftest import diagnostics_json

    root = copy_game(CONTENT / "tokaido", tmp_path / "tokaido")
    road = root / "boards" / "road.yaml"
    long = "W" * 79
    road.write_text(
        road.read_text(encoding="utf-8").replace("    name: Edo\n", f"    name: {long}\n"),
        encoding="utf-8",
    )
    line = road.read_text(encoding="utf-8").splitlines().index(f"    name: {long}") + 1
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    found = [d for d in diagnostics_json(result.output) if d["code"] == "P016"]
    assert [(d["line"], d["col"], d["severity"]) for d in found] == [(line, 11, "error")]
    assert "does not fit its stop even at 5 pt" in found[0]["message"]

    clips: list[object] = []
    original = Canvas.clipPath
    monkeypatch.setattr(
        Canvas, "clipPath", lambda c, *a, **k: (clips.append(a), original(c, *a, **k))[1]
    )
    game = load_game(root)
    (board,) = game.valid(game.boards)
    render_board(game, board, "en", board_page="a1")
    assert len(clips) == 1  # the name alone is drawn inside its box


def test_a_board_its_drawer_refuses_is_not_searched_for_letters(tmp_path):
    """The glyph search draws the board: a score track too long for its page (the drawer
    raises, P016 says why) is left to P016, not a traceback."""
    from tests.font_maker import LATIN, make_font
    from tests.test_score_track import SCORE, score_game

    game = score_game(tmp_path, SCORE.replace("count: 41", "count: 300") + "style: {font: Tiny}\n")
    make_font(game / "fonts" / "Tiny-regular.ttf", "Tiny", "regular", LATIN)
    found = {d.code for d in run_checks(load_game(game))}
    assert found == {"P016"}  # and no E008: the check family failing on the drawer's error
