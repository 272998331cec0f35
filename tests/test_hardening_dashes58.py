"""An SVG icon's dashes weigh (probe 50 P50-1, P50-2): PDFium draws each dash of a
`stroke-dasharray` on its own, ~0.2 µs a dash, so one path of 20,000 segments dashed every
0.1 unit (a 168 kB icon) took `export png` 75 s for three cards, and on 75 squares of a score
track 25 s, with validate clean. Now an icon's weight counts its dashes (its strokes' lengths
over their dash periods), an icon of too many dashes is refused at the file (P008), and a face
or board of too many dashed icons is said as its weight is (P018, P016)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

from tests.conftest import diagnostics_json
from toolkit.render.svg_icons import DASHES_PER_ELEMENT, MAX_DASHES


def _svg(body: str) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">\n{body}\n</svg>\n'


def _load(tmp_path: Path, body: str):
    from toolkit.render.svg_icons import load_svg

    path = tmp_path / "i.svg"
    path.write_text(_svg(body), encoding="utf-8")
    return load_svg(path, "icons/i.svg")


def _zigzag(dashes: int, period: float = 1.0) -> str:
    """A path of lines 100 units long across the box, dashed every `period` (`dashes` dashes
    together, about)."""
    lines = max(1, round(dashes * period / 100))
    points = " ".join(f"{(i % 2) * 100} {i * 100 / lines:.3f}" for i in range(1, lines + 1))
    return (
        f'<path d="M0 0 L{points}" fill="none" stroke="currentColor" stroke-width="0.01"'
        f' stroke-dasharray="{period / 2:g}"/>'
    )


def test_a_dashed_circle_icon_draws_with_a_small_weight(tmp_path: Path):
    circle = '<circle cx="50" cy="50" r="40" fill="none" stroke="#000" stroke-dasharray="4 2"/>'
    icon, problem = _load(tmp_path, circle)
    assert problem is None and icon is not None
    assert 41 < icon.dashes < 43  # 2π·40 / 6
    assert icon.weight < 20
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(100, 100), pageCompression=0)
    canvas.translate(10, 10)
    icon.place(canvas, 80.0)
    canvas.showPage()
    canvas.save()
    assert b"[4 2] 0 d" in buffer.getvalue()  # drawn dashed, as before
    import pypdfium2

    page = pypdfium2.PdfDocument(buffer.getvalue())[0]
    pixels = page.render(scale=2).to_pil().convert("L")
    assert pixels.getextrema()[0] < 128  # its dashes are on the page


def test_an_icons_dashes_count_each_stroke_each_use_and_odd_arrays_twice(tmp_path: Path):
    line = '<line id="l" x1="0" y1="50" x2="100" y2="50" stroke="#000" stroke-dasharray="1"/>'
    icon, problem = _load(tmp_path, line)  # "1" is "1 1": a period of 2
    assert problem is None and icon is not None and icon.dashes == pytest.approx(50)
    uses = '<use href="#l"/><use href="#l" transform="scale(0.5)"/>'
    icon, problem = _load(tmp_path, f"<defs>{line}</defs>{uses}")
    assert problem is None and icon is not None and icon.dashes == pytest.approx(100)
    unstroked = '<path d="M0 0 h100 v100" stroke-dasharray="0.01"/>'  # filled, not stroked
    icon, problem = _load(tmp_path, unstroked)
    assert problem is None and icon is not None and icon.dashes == 0
    closed = '<path d="M0 0 h100 v100 z" fill="none" stroke="#000" stroke-dasharray="1 1"/>'
    icon, problem = _load(tmp_path, closed)  # 100 + 100 + the way back, 141
    assert problem is None and icon is not None and icon.dashes == pytest.approx(170.7, abs=0.1)
    icon, problem = _load(tmp_path, _zigzag(4_000))
    assert problem is None and icon is not None
    assert icon.weight >= 4_000 // DASHES_PER_ELEMENT


@pytest.mark.parametrize("array", ["0 0", "-1 2", "nan"])
def test_an_icon_whose_dash_period_is_no_positive_number_is_refused_as_before(tmp_path, array):
    line = f'<line x1="0" y1="50" x2="100" y2="50" stroke="#000" stroke-dasharray="{array}"/>'
    icon, problem = _load(tmp_path, line)  # reportlab cannot write it: no division by zero
    assert icon is None and problem is not None and "cannot be printed" in problem.message


def _new_game(tmp_path: Path, run_cli, icon: str) -> Path:
    result = run_cli("new", "g", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    root = tmp_path / "g"
    (root / "icons").mkdir(exist_ok=True)
    (root / "icons" / "token.svg").write_text(icon, encoding="utf-8")
    return root


def _findings(run_cli, root: Path, code: str) -> list[dict]:
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    return [d for d in diagnostics_json(result.output) if d["code"] == code]


def test_validate_refuses_an_icon_of_too_many_dashes_at_its_dash_array(tmp_path, run_cli):
    # P50-1: the icon on a card validated clean, and `export png` drew 20 million dashes
    body = '<path d="M0 0 h100" fill="none" stroke="#000" stroke-width="0.01"/>\n' + _zigzag(
        MAX_DASHES + 1_000, 0.1
    )
    root = _new_game(tmp_path, run_cli, _svg(body))
    found = _findings(run_cli, root, "P008")
    assert len(found) == 1, found
    (finding,) = found
    assert finding["file"].endswith("icons/token.svg") and finding["line"] == 3, finding
    assert 'stroke-dasharray "0.05"' in finding["message"], finding["message"]
    assert f"more than the {MAX_DASHES:,} an icon may draw" in finding["message"]
    out = tmp_path / "out"
    result = run_cli("export", "png", str(root), "--lang", "en", "--out", str(out))
    assert result.exit_code == 1  # the icon is no icon: nothing drawn
    assert not list(out.rglob("*.png"))


def test_validate_says_a_face_of_dashed_icons_past_the_weight_bound(tmp_path, run_cli):
    from toolkit.render.icons import MAX_FACE_ICON_WEIGHT

    root = _new_game(tmp_path, run_cli, _svg(_zigzag(MAX_DASHES - 400)))
    uses = MAX_FACE_ICON_WEIGHT * DASHES_PER_ELEMENT // MAX_DASHES + 1
    icons = "".join(
        f"  - {{kind: icon, box: {{x: {1 + k}, y: 2, w: 20, h: 20}}, icon: token}}\n"
        for k in range(uses)
    )
    (root / "layouts" / "dashed.yaml").write_text(f"id: dashed\nelements:\n{icons}", "utf-8")
    deck = root / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("size: poker\n", "size: poker\nlayout: dashed\n", 1), "utf-8")
    found = [d for d in _findings(run_cli, root, "P018") if d["severity"] == "error"]
    assert found and "'token' weighs 1,9" in found[0]["message"], found


def _track(tmp_path: Path, run_cli, squares: int, dashes: int = MAX_DASHES - 400) -> Path:
    """A new game with a score track whose first `squares` squares draw a dashed icon of
    about `dashes` dashes (by default just under what one icon may draw)."""
    root = _new_game(tmp_path, run_cli, _svg(_zigzag(dashes)))
    icons = ", ".join(f"{n}: token" for n in range(squares))
    (root / "boards").mkdir(exist_ok=True)
    (root / "boards" / "score.yaml").write_text(
        f"kind: score_track\nid: score\nname: {{en: Score}}\ncount: 60\nicons: {{{icons}}}\n",
        encoding="utf-8",
    )
    manifest = root / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    assert "files:\n" in text
    manifest.write_text(
        text.replace("files:\n", "files:\n  boards:\n    - boards/score.yaml\n", 1), "utf-8"
    )
    return root


def test_validate_says_a_score_track_of_dashed_icons_past_the_weight_bound(
    tmp_path, run_cli, monkeypatch
):
    # P50-2: 75 squares drawing a dashed icon took `export png` 25 s, validate clean
    from toolkit.content.game import load_game
    from toolkit.render import icons as icon_module
    from toolkit.render.boards import render_board
    from toolkit.render.boards.look import MAX_DRAWING_ICON_WEIGHT

    root = _track(tmp_path, run_cli, 40)  # 40 squares of ~1,900: past 64,000
    found = [d for d in _findings(run_cli, root, "P016") if d["severity"] == "error"]
    assert len(found) == 1, found
    assert f"more than the {MAX_DRAWING_ICON_WEIGHT:,}" in found[0]["message"]
    assert "its dashes" in found[0]["message"]
    game = load_game(root)
    (board,) = game.valid(game.boards)
    drawn: list[str] = []
    real = icon_module.draw_icon
    monkeypatch.setattr(
        icon_module, "draw_icon", lambda c, name, *a: drawn.append(name) or real(c, name, *a)
    )
    render_board(game, board, "en", "a4")
    assert 0 < len(drawn) < 40  # those that fit
    few = _track(tmp_path / "few", run_cli, 20)
    assert [d for d in _findings(run_cli, few, "P016") if d["severity"] == "error"] == []


def test_a_refused_icon_on_a_board_is_said_once_at_its_file(tmp_path, run_cli):
    # P50-2's icon itself: refused (P008), and each of the 75 squares naming it said P015
    # "no icon 'x'" again, as no card or layout naming a refused icon does
    root = _track(tmp_path, run_cli, 30, MAX_DASHES * 10)
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    found = diagnostics_json(result.output)
    assert [d["code"] for d in found] == ["P008"], found
    assert found[0]["file"].endswith("icons/token.svg")
    from toolkit.render.icons import icon_set

    (root / "icons" / "token.svg").unlink()  # no such icon at all: said at each square
    icon_set.cache_clear()  # one process per run outside tests
    assert len(_findings(run_cli, root, "P015")) == 30
