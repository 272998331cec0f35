"""The score-track board kind: a loop of numbered squares around the page, drawn from its
data, named in the component list in each language, and a count the page cannot hold is a
finding at `count`."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm

from tests.conftest import FIXTURES, copy_game
from toolkit.checks import run_checks
from toolkit.content.game import load_game
from toolkit.content.models.score_track import ScoreTrackBoard
from toolkit.render.boards.score_track import MIN_CELL_MM, drawing_size, plan_score

SCORE = """kind: score_track
id: score
name: {fr: Piste de score, es: Marcador, en: Score track}
count: 41
icons: {10: star, 40: coin}
"""


def score_game(tmp_path: Path, board: str = SCORE) -> Path:
    game = tmp_path / "game"
    copy_game(FIXTURES / "base", game)
    (game / "boards" / "map.yaml").write_text(board, encoding="utf-8")
    manifest = game / "game.yaml"
    rulebooks = "".join(f"    {lang}: rulebook/{lang}.md\n" for lang in ("fr", "es", "en"))
    manifest.write_text(manifest.read_text() + f"  rulebook:\n{rulebooks}", encoding="utf-8")
    (game / "rulebook").mkdir()
    for lang in ("fr", "es", "en"):
        (game / "rulebook" / f"{lang}.md").write_text("# Jeu\n\nTexte.\n", encoding="utf-8")
    return game


def text_of(pdf: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.read_bytes())).pages)


def board(**fields) -> ScoreTrackBoard:
    data = {"kind": "score_track", "id": "s", "name": {"en": "Score"}, "count": 41} | fields
    return ScoreTrackBoard.model_validate(data)


def test_the_squares_run_clockwise_around_the_page_from_the_top_left():
    track = board(start=0, count=41)
    plan = plan_score(track)
    assert plan is not None
    cells = plan.cells
    assert [c.number for c in cells] == list(range(41))
    width, height = drawing_size(track)
    assert (plan.width, plan.height) == (width, height) and width > height  # landscape
    first, last = cells[0], cells[-1]
    assert first.x == min(c.x for c in cells) and first.y + first.h == max(c.y + c.h for c in cells)
    assert cells[1].x > first.x  # along the top, to the right
    assert last.x == first.x and last.y + last.h == pytest.approx(first.y)  # back up the left
    for cell in cells:  # on the loop, never in the middle, every one big enough for a pawn
        assert min(cell.w, cell.h) >= MIN_CELL_MM * mm
        on_edge = (
            cell.x == first.x
            or cell.x + cell.w == pytest.approx(width - first.x)
            or cell.y == pytest.approx(first.x)
            or cell.y + cell.h == pytest.approx(height - first.x)
        )
        assert on_edge
    boxes = [(c.x, c.y, c.x + c.w, c.y + c.h) for c in cells]
    for i, a in enumerate(boxes):  # no two squares overlap
        for b in boxes[i + 1 :]:
            overlap_x = min(a[2], b[2]) - max(a[0], b[0])
            overlap_y = min(a[3], b[3]) - max(a[1], b[1])
            assert overlap_x < 1e-6 or overlap_y < 1e-6


def test_start_and_step_number_the_squares():
    plan = plan_score(board(start=-5, step=5, count=21))
    assert plan is not None
    assert [c.number for c in plan.cells] == list(range(-5, 96, 5))


def test_a_score_track_builds_with_its_numbers_icons_and_component_phrase(tmp_path, run_cli):
    game = score_game(tmp_path)
    assert [d for d in run_checks(load_game(game)) if d.severity.name == "ERROR"] == []
    out = tmp_path / "out"
    result = run_cli("build", str(game), "--out", str(out), "--only", "board,rulebook")
    assert result.exit_code == 0, result.output
    folder = out / "fixture-game"
    sheet = text_of(folder / "fr" / "board.pdf")
    assert "Piste de score" in sheet and "0–40" in sheet
    assert all(f"{n}" in sheet for n in (1, 17, 39, 40))
    pages = PdfReader(folder / "fr" / "board.pdf").pages  # one sheet: no assembly map
    assert len(pages) == 1 and "Assemblage" not in sheet
    phrases = {
        "fr": "une piste de score 0–40",
        "es": "un marcador de puntos 0–40",
        "en": "a score track 0–40",
    }
    for lang, phrase in phrases.items():
        rulebook = text_of(folder / lang / "rulebook.pdf")
        assert phrase in rulebook
        assert "41" not in rulebook  # not "41 stops"


def test_a_count_the_page_cannot_hold_is_found_at_count(tmp_path, run_cli):
    game = score_game(tmp_path, SCORE.replace("count: 41", "count: 300"))
    found = [d for d in run_checks(load_game(game)) if d.code == "P016"]
    assert [(Path(d.file).name, d.span.line, d.span.col) for d in found] == [("map.yaml", 4, 8)]
    assert "300 squares do not fit" in found[0].message and "at most" in found[0].message
    out = tmp_path / "out"
    assert run_cli("build", str(game), "--out", str(out)).exit_code == 1
    assert not any(out.rglob("*.pdf"))


def test_an_icon_off_the_track_or_unknown_is_found(tmp_path):
    game = score_game(tmp_path, SCORE.replace("40: coin", "41: coin"))
    found = [d for d in load_game(game).diagnostics if d.code.startswith("S")]
    assert len(found) == 1 and "41 is not a square of the track (0–40 by 1)" in found[0].message
    game = score_game(tmp_path / "b", SCORE.replace("40: coin", "40: crown"))
    found = [d for d in run_checks(load_game(game)) if d.code == "P015"]
    assert [(d.span.line, "icons.40" in d.message) for d in found] == [(5, True)]
