"""The icons one board drawing draws are bounded by their weight together (probe 47 K7): a
space kind's `icon` is drawn on every space of the kind, and a rasteriser (`export png`, the
preview) draws every use of an icon whole, though the PDF holds it once: a map of 2,000
spaces drawing a 1,990-circle icon took `export png` 20 s and 2.8 GB, the preview 53 s,
validate clean. Now validate says P016 at the style key naming the icon, and a drawing stops
drawing icons at the bound."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

from tests.conftest import REPO
from toolkit.render.boards.look import MAX_DRAWING_ICON_WEIGHT, MAX_GAME_ICON_WEIGHT

CIRCLES = 1_990


def _icon(circles: int) -> str:
    shapes = "".join(
        f'<circle cx="{k % 100}" cy="{k // 100}" r="1" fill="currentColor"/>'
        for k in range(circles)
    )
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{shapes}</svg>'


def _game(tmp_path: Path, run_cli, spaces: int, circles: int = CIRCLES) -> Path:
    """A new game with one graph board of `spaces` spaces of the kind `town`, styled with
    the icon `token` (an SVG of `circles` circles)."""
    result = run_cli("new", "g", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    root = tmp_path / "g"
    (root / "icons").mkdir(exist_ok=True)
    (root / "icons" / "token.svg").write_text(_icon(circles), encoding="utf-8")
    lines = [
        "kind: graph",
        "id: map",
        "name: {en: Map}",
        "style:",
        "  spaces:",
        "    town: {icon: token}",
        "spaces:",
    ]
    lines += [
        f"  - {{id: s{i}, name: P{i}, kind: town, lat: {50 + (i // 8) * 0.5},"
        f" lon: {(i % 8) * 0.7}}}"
        for i in range(spaces)
    ]
    lines += ["links:"] + [f"  - {{a: s{i}, b: s{i + 1}}}" for i in range(spaces - 1)]
    (root / "boards").mkdir(exist_ok=True)
    (root / "boards" / "map.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    manifest = root / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert "files:\n" in text
    manifest.write_text(
        text.replace("files:\n", "files:\n  boards:\n    - boards/map.yaml\n", 1), encoding="utf-8"
    )
    return root


def _board_fit(run_cli, root: Path) -> list[dict]:
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    return [d for d in json.loads(result.stdout) if d["code"] == "P016"]


def test_validate_says_a_board_whose_icons_pass_the_bound_at_its_style_key(tmp_path, run_cli):
    root = _game(tmp_path, run_cli, 40)  # 41 draws (the legend's too) of ~1,992 elements
    found = [d for d in _board_fit(run_cli, root) if d["severity"] == "error"]
    assert len(found) == 1, found
    (finding,) = found
    assert finding["file"].endswith("boards/map.yaml")
    assert (finding["line"], finding["col"]) == (6, 18)  # `token` of `town: {icon: token}`
    assert f"more than the {MAX_DRAWING_ICON_WEIGHT:,}" in finding["message"]
    assert "'token'" in finding["message"] and "at 41 places" in finding["message"]
    result = run_cli("build", str(root), "--lang", "en", "--out", str(tmp_path / "out"))
    assert result.exit_code != 0  # an error: the build refuses the game
    few = _game(tmp_path / "few", run_cli, 20)  # 21 draws: ~42,000
    assert [d for d in _board_fit(run_cli, few) if d["severity"] == "error"] == []


def _draws(monkeypatch) -> list[str]:
    from toolkit.render import icons

    drawn: list[str] = []
    real = icons.draw_icon

    def counting(c, name, *args):
        drawn.append(name)
        return real(c, name, *args)

    monkeypatch.setattr(icons, "draw_icon", counting)
    return drawn


def test_a_board_drawing_draws_icons_up_to_the_bound_and_no_further(tmp_path, run_cli, monkeypatch):
    from toolkit.content.game import load_game
    from toolkit.render.boards import build_drawings, render_board
    from toolkit.render.icons import icon_set, icon_weight

    root = _game(tmp_path, run_cli, 40)
    game = load_game(root)
    (board,) = game.valid(game.boards)
    weight = icon_weight("token", icon_set(root))
    assert CIRCLES < weight < CIRCLES + 10  # its circles, its group and drawing
    fits = MAX_DRAWING_ICON_WEIGHT // weight
    drawn = _draws(monkeypatch)
    (drawing,) = build_drawings(game, board, "en")
    canvas = Canvas(io.BytesIO())
    drawing.draw(canvas)
    assert len(drawn) == fits < 41  # the rest of the spaces show their initial
    drawing.draw(canvas)  # each drawing its own bound
    assert len(drawn) == 2 * fits
    drawn.clear()
    render_board(game, board, "en", "a4", "a1")  # as build, export png and the preview draw it
    assert len(drawn) == fits


def test_an_icon_weighs_its_shapes_and_its_pictures_pixels(tmp_path):
    from PIL import Image

    from toolkit.render.icons import BUILTIN, BUILTIN_WEIGHT, icon_set, icon_weight
    from toolkit.render.svg_icons import PIXELS_PER_ELEMENT

    icons = tmp_path / "icons"
    icons.mkdir()
    Image.new("RGB", (800, 800), "red").save(icons / "p.png")
    (icons / "pic.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        ' viewBox="0 0 100 100"><image xlink:href="p.png" width="100" height="100"/></svg>',
        encoding="utf-8",
    )
    (icons / "dots.svg").write_text(_icon(50), encoding="utf-8")
    found = icon_set(tmp_path)
    assert not found.problems, found.problems
    assert 50 < icon_weight("dots", found) < 60
    pixels = 800 * 800 // PIXELS_PER_ELEMENT
    assert pixels < icon_weight("pic", found) < pixels + 10
    assert icon_weight("die", BUILTIN) == BUILTIN_WEIGHT
    assert icon_weight("no_such_icon", found) == 0


@pytest.mark.parametrize("game", sorted(p.name for p in (REPO / "content").iterdir()))
def test_the_bundled_boards_weigh_well_under_the_bound(game):
    from toolkit.content.game import load_game
    from toolkit.content.models.board import board_kinds
    from toolkit.render.boards import board_look
    from toolkit.render.boards.look import MAX_DRAWING_ICON_PAINT

    root = REPO / "content" / game
    if not (root / "game.yaml").is_file():
        pytest.skip("not a game")
    loaded = load_game(root)
    game_total = 0
    for board in loaded.valid(loaded.boards):
        entry = board_kinds()[board.kind]
        if entry.icon_uses is None:
            continue
        look = board_look(loaded, board, "en")
        uses = list(entry.icon_uses(board, look))
        total = sum(look.icon_weight(use[1]) * use[2] for use in uses)
        assert total <= MAX_DRAWING_ICON_WEIGHT // 10, (board.id, total)
        game_total += total
        paint = sum(look.icon_paint(use[1]) * use[2] * use[3] ** 2 for use in uses if use[3:])
        assert paint <= MAX_DRAWING_ICON_PAINT // 10, (board.id, paint)
    assert game_total <= MAX_GAME_ICON_WEIGHT // 10, game_total  # all its boards together


def test_a_score_track_weighs_the_icons_of_its_squares(tmp_path, run_cli, monkeypatch):
    from toolkit.content.game import load_game
    from toolkit.render.boards import render_board

    root = _game(tmp_path, run_cli, 2)
    icons = ", ".join(f"{n}: token" for n in range(40))
    (root / "boards" / "map.yaml").write_text(
        f"kind: score_track\nid: score\nname: {{en: Score}}\ncount: 41\nicons: {{{icons}}}\n",
        encoding="utf-8",
    )
    found = [d for d in _board_fit(run_cli, root) if d["severity"] == "error"]
    assert len(found) == 1, found
    assert found[0]["line"] == 5 and "at 1 place here" in found[0]["message"]
    game = load_game(root)
    (board,) = game.valid(game.boards)
    drawn = _draws(monkeypatch)
    render_board(game, board, "en", "a4")
    assert 0 < len(drawn) < 40


def _painting(tmp_path: Path, run_cli, radius: int) -> Path:
    """A board of 20 spaces of `radius` mm drawing an icon of 100 squares, each filling the
    icon's box (it paints its box 100 times over)."""
    root = _game(tmp_path, run_cli, 20)
    square = '<rect x="0" y="0" width="100" height="100" fill-opacity="0.5"/>'
    (root / "icons" / "token.svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{square * 100}</svg>',
        encoding="utf-8",
    )
    board = root / "boards" / "map.yaml"
    text = board.read_text(encoding="utf-8")
    board.write_text(text.replace("{icon: token}", f"{{icon: token, size: {radius}}}"), "utf-8")
    return root


def test_validate_says_a_board_whose_icons_paint_past_the_bound(tmp_path, run_cli, monkeypatch):
    # probe 48 N5: 31 spaces of radius 50 mm, an icon of 1,990 translucent circles each
    # filling its box (under the weight bound): export png 108 s for one board
    from toolkit.content.game import load_game
    from toolkit.render.boards import build_drawings
    from toolkit.render.boards.look import MAX_DRAWING_ICON_PAINT

    root = _painting(tmp_path, run_cli, 40)  # 21 draws of (50 mm)² × 100
    found = [d for d in _board_fit(run_cli, root) if d["severity"] == "error"]
    assert len(found) == 1, found
    assert (found[0]["line"], found[0]["col"]) == (6, 18), found[0]
    assert (
        f"more than the {MAX_DRAWING_ICON_PAINT:,} one board drawing paints"
        in (found[0]["message"])
    )
    game = load_game(root)
    (board,) = game.valid(game.boards)
    drawn = _draws(monkeypatch)
    (drawing,) = build_drawings(game, board, "en")
    drawing.draw(Canvas(io.BytesIO()))
    assert 0 < len(drawn) < 21  # those that fit, the rest show their initial
    small = _painting(tmp_path / "small", run_cli, 4)
    assert [d for d in _board_fit(run_cli, small) if d["severity"] == "error"] == []


def test_validate_says_a_score_track_whose_square_icons_paint_past_the_bound(tmp_path, run_cli):
    # probe 49: a 12-square track, each square drawing an icon that paints its box 1,500
    # times over (under the weight bound), validated clean and drew in 8.5 s; its squares'
    # icons now have their squares' sizes, and validate weighs their paint as a map's
    from toolkit.render.boards.look import MAX_DRAWING_ICON_PAINT

    root = _game(tmp_path, run_cli, 2)
    square = '<rect x="0" y="0" width="100" height="100" fill-opacity="0.5"/>'
    (root / "icons" / "token.svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{square * 1500}</svg>',
        encoding="utf-8",
    )
    icons = ", ".join(f"{n}: token" for n in range(12))
    board = root / "boards" / "map.yaml"
    board.write_text(
        f"kind: score_track\nid: score\nname: {{en: Score}}\ncount: 12\nicons: {{{icons}}}\n",
        encoding="utf-8",
    )
    found = [d for d in _board_fit(run_cli, root) if d["severity"] == "error"]
    assert len(found) == 1, found
    assert found[0]["line"] == 5, found[0]
    assert (
        f"more than the {MAX_DRAWING_ICON_PAINT:,} one board drawing paints"
        in (found[0]["message"])
    )
    board.write_text(
        "kind: score_track\nid: score\nname: {en: Score}\ncount: 12\nicons: {0: token}\n",
        encoding="utf-8",
    )
    assert [d for d in _board_fit(run_cli, root) if d["severity"] == "error"] == []
