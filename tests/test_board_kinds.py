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
