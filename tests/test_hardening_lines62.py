"""A board's styled lines and their dashes in its page price (issue #33, probe 62-8).

The board page price counted a page's pixels, its icons and its glyphs, not its lines: 2,000
links 20 points wide dashed `[0.5, 0.5]` (butt caps, which S005 leaves alone) on a graph
board of an 88 kB game took `export png` 22.6 s of CPU, the same links solid 4.9 s, and the
preview's three board pages 13.4 s; validate was clean. A board's PDF now tallies the lines
its drawings stroke (`line_tally`), priced with its pixels (`raster_weight.load_price`)."""

from __future__ import annotations

import math
from pathlib import Path

from tests.test_hardening_pages60 import _files, _first, _preview, _rasterised
from toolkit.scaffold.new import new_game


def _game(folder: Path, dash: str, links: int = 60, spaces: int = 24, width: float = 20) -> Path:
    """A new game (English) with a graph board of `spaces` spaces on a circle and `links`
    links across it, of the kind `fat`: `width` points wide, dashed `dash`, butt caps."""
    new_game(folder, "demo", ["en"])
    (folder / "boards").mkdir(exist_ok=True)
    lines = ["kind: graph", "id: map", "name: {en: Map}", "spaces:"]
    for i in range(spaces):
        t = 2 * math.pi * i / spaces
        lat, lon = 56 + 3 * math.sin(t), -4 + 5 * math.cos(t)
        lines.append(f"  - {{id: s{i}, name: S{i}, kind: town, lat: {lat:.4f}, lon: {lon:.4f}}}")
    lines.append("links:")
    pairs = [(i, (i + off) % spaces) for off in range(spaces // 2, 1, -1) for i in range(spaces)]
    seen: set[tuple[int, int]] = set()
    for a, b in pairs:
        if len(seen) < links and (min(a, b), max(a, b)) not in seen:
            seen.add((min(a, b), max(a, b)))
            lines.append(f"  - {{a: s{a}, b: s{b}, kind: fat}}")
    lines += ["style:", "  links:", f"    fat: {{width: {width}, dash: {dash}, cap: butt}}"]
    (folder / "boards" / "map.yaml").write_text("\n".join(lines) + "\n", "utf-8")
    manifest = folder / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("files:\n", "files:\n  boards:\n    - boards/map.yaml\n"))
    return folder


VALID = 2.0
"""A line width `[0.5, 0.5]` passes validate at (S005: dashes half a width apart)."""


def _cost(root: Path, dpi: float = 30) -> int:
    from toolkit.content.game import load_game
    from toolkit.render.exports import pages

    (board,) = pages.board_pdfs(load_game(root), "en")
    return pages.pages_cost(pages.page_sizes(board.pdf), board.icons, dpi)


def test_a_boards_lines_and_their_dashes_are_in_its_page_price(tmp_path):
    from toolkit.content.game import load_game
    from toolkit.render.exports import pages

    dashed = _game(tmp_path / "dashed", "[0.5, 0.5]")
    solid = _game(tmp_path / "solid", "[]")
    coarse = _game(tmp_path / "coarse", "[20, 20]")
    (board,) = pages.board_pdfs(load_game(solid), "en")
    sizes = pages.page_sizes(board.pdf)
    pixels = pages.pages_cost(sizes, pages.FaceLoad(), 30)
    lines = _cost(solid) - pixels
    assert lines > 0  # the lines' length
    assert _cost(coarse) > _cost(solid)  # and their dashes
    dashes = _cost(dashed) - _cost(solid)
    assert dashes > 10 * (_cost(coarse) - _cost(solid))  # each a shape the width across
    assert dashes > 5 * lines


def test_export_png_refuses_a_board_of_many_dashes_before_drawing_any_page(
    tmp_path, run_cli, monkeypatch
):
    from toolkit.render.exports import pages

    solid = _game(tmp_path / "solid", "[]", links=200, width=VALID)
    dashed = _game(tmp_path / "dashed", "[0.5, 0.5]", links=200, width=VALID)
    assert _cost(dashed) > 1.5 * _cost(solid)
    monkeypatch.setattr(pages, "MAX_EXPORT_PAGE_COST", (_cost(solid) + _cost(dashed)) // 2)
    drawn = _rasterised(monkeypatch)
    out = tmp_path / "out"
    args = ["--out", str(out), "--dpi", "30", "--page-dpi", "30", "--lang", "en"]
    result = run_cli("export", "png", str(solid), *args)
    assert result.exit_code == 0, result.output
    drawn.clear()
    before = _files(out)
    result = run_cli("export", "png", str(dashed), *args)
    assert result.exit_code == 1, result.output
    said = " ".join(result.output.split())
    assert "1 board page(s)" in said and "and the lines stroked" in said, said
    assert "fewer dashes" in said, said
    assert drawn == []  # refused before any page was rasterised
    assert _files(out) == before


def test_the_preview_charges_a_boards_dashes_to_its_page_budget(tmp_path, monkeypatch):
    from toolkit.preview import document_budget
    from toolkit.preview.cache import page_key

    spent = {}
    for dash in ("[]", "[0.5, 0.5]"):
        game = _game(tmp_path / dash, dash, links=200, width=VALID)
        preview = _preview(game, monkeypatch)
        assert preview.page(page_key(_first(preview, "board"), 0)) is not None
        spent[dash] = document_budget.page_budget(preview.shown).spent
    assert spent["[0.5, 0.5]"] > 1.5 * spent["[]"] > 0
    half = (spent["[]"] + spent["[0.5, 0.5]"]) // 2
    monkeypatch.setattr(document_budget, "MAX_PREVIEW_PAGE_COST", half)
    preview = _preview(tmp_path / "[0.5, 0.5]", monkeypatch)
    board = _first(preview, "board")
    assert preview.page(page_key(board, 0)) is None  # its dashes pass the budget
    said = preview.cache.errors[board.key]
    assert said.startswith("the board's page 1 is not drawn"), said


def test_lines_are_tallied_as_drawn_on_the_page():
    from toolkit.render.line_tally import drawn_at, lines_tallied, tally_line

    with lines_tallied() as whole:
        tally_line(100, 2, [3, 1], "butt")
    with lines_tallied() as half, drawn_at(0.5):
        tally_line(100, 2, [3, 1], "round")
    tally_line(100, 2, [3, 1], "butt")  # no tally open: nothing counted
    assert (whole.length, whole.area, whole.dashes, whole.dash_outline) == (100, 200, 25, 100)
    # the drawing scaled on its page: the same dashes, each half as long and wide; caps
    assert (half.length, half.area, half.dashes, half.dash_outline) == (50, 50, 25, 100)


def test_validate_refuses_butt_dashes_closer_than_half_the_lines_width(tmp_path, run_cli):
    from tests.conftest import diagnostics_json
    from tests.test_hardening_board_dashes58 import _game as _board_game

    root = _board_game(tmp_path, run_cli, "[0.5, 0.5], width: 20, cap: butt")
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    found = [d for d in diagnostics_json(result.output) if d["code"] == "S005"]
    assert len(found) == 1, found
    assert found[0]["severity"] == "error" and found[0]["line"] == 6, found[0]
    said = found[0]["message"]
    assert "with `cap: butt` its dashes are 1 points apart, closer than half the" in said
    assert "draws each dash on its own" in said and "caps" not in said, said
    out = tmp_path / "out"
    result = run_cli("export", "png", str(root), "--lang", "en", "--out", str(out))
    assert result.exit_code == 1 and not list(out.rglob("*.png"))
