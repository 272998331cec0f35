"""Probe 41 H4: 100 cards of 300 × 420 mm that differ only in their id (a 2.5 kB deck) were
just under the export's pixel bound at --dpi 275 and cost 16 s of CPU, the one face they all
show drawn and encoded 100 times. Pages of a deck that draw the same are now imaged once (and
a TTS sheet of the same faces as the one before it encoded once); and as cards that differ by
one letter are drawn each, the bound itself is lower: 1,000 M pixels, not 1,500 M."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES
from toolkit.render.exports import faces

CARDS = 12


def _game(tmp_path: Path, alike: bool) -> Path:
    """The fixture game with one deck of CARDS cards: named alike (their faces the same
    drawing, only their ids differ) or each its own name."""
    game = tmp_path / ("alike" if alike else "distinct")
    shutil.copytree(FIXTURES / "base", game)
    names = ["A" if alike else f"A{i}" for i in range(CARDS)]
    cards = [f"  - {{id: c{i}, name: {{fr: {n}, es: {n}, en: {n}}}}}" for i, n in enumerate(names)]
    head = "id: cards\nkind: actions\nname: {fr: A, es: A, en: A}\nsize: poker\ncards:\n"
    (game / "decks" / "cards.yaml").write_text(head + "\n".join(cards) + "\n")
    return game


def _export(run_cli, monkeypatch, game: Path, kind: str, out: Path) -> int:
    """Export `game` in English; the card pages rasterised."""
    drawn: list[int] = []
    images_each = faces.images_each

    def counted(pdf: bytes, pages: list[int], *args: object):
        drawn.extend(pages)
        return images_each(pdf, pages, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(faces, "images_each", counted)
    args = ["export", kind, str(game), "--lang", "en", "--dpi", "40", "--out", str(out)]
    result = run_cli(*args)
    assert result.exit_code == 0, result.output
    return len(drawn)


@pytest.mark.parametrize("kind", ["png", "tts"])
def test_faces_that_draw_the_same_are_rasterised_once(run_cli, tmp_path, monkeypatch, kind):
    alike, distinct = _game(tmp_path, True), _game(tmp_path, False)
    once = _export(run_cli, monkeypatch, alike, kind, tmp_path / "a")
    each = _export(run_cli, monkeypatch, distinct, kind, tmp_path / "d")
    # the distinct deck's 12 fronts against the alike deck's one (the question bank and the
    # deck's one back are the same in both)
    assert each - once == CARDS - 1


def test_alike_faces_are_the_same_images_and_distinct_ones_are_not(run_cli, tmp_path, monkeypatch):
    for alike in (True, False):
        out = tmp_path / f"out-{alike}"
        _export(run_cli, monkeypatch, _game(tmp_path, alike), "png", out)
        folder = next(out.glob("*/en/png/cards"))
        fronts = {(folder / f"c{i}-front.png").read_bytes() for i in range(CARDS)}
        backs = {(folder / f"c{i}-back.png").read_bytes() for i in range(CARDS)}
        assert len(fronts) == (1 if alike else CARDS) and len(backs) == 1


def test_the_probe_export_just_under_the_old_bound_is_refused_with_the_dpi_that_fits(tmp_path):
    """The bound is 1,000 M pixels (1,500 M let through 100 distinct cards of 300 × 420 mm
    at --dpi 275, 16 s of CPU; about 11 s at 1,000 M): the probe's export is refused, and
    the --dpi it names fits."""
    from toolkit.content.game import load_game
    from toolkit.render.artifacts import BuildError

    game = _game(tmp_path, False)
    deck = game / "decks" / "cards.yaml"
    cards = [f"  - {{id: c{i}, name: {{fr: A{i}, es: A{i}, en: A{i}}}}}" for i in range(100)]
    head = "id: cards\nkind: actions\nname: {fr: A, es: A, en: A}\n"
    deck.write_text(head + "size: {width_mm: 300, height_mm: 420}\ncards:\n" + "\n".join(cards))
    decks = [d for d in faces.printed_decks(load_game(game)) if d.id == "cards"]

    def drawn(dpi: float) -> int:
        return sum(faces.face_pixels(d, dpi) * faces.face_images(d) for d in decks)

    with pytest.raises(BuildError) as refused:
        faces.check_export_pixels(drawn, 275, ["en"])
    message = str(refused.value)
    assert "1,492 M pixels in 1 language(s), more than the 1,000 M" in message
    assert "lower --dpi (225 or less here)" in message
    faces.check_export_pixels(drawn, 225, ["en"])  # within: not refused


def test_sheets_of_alike_faces_are_encoded_once(run_cli, tmp_path, monkeypatch):
    """`export tts` of alike cards: the faces drawn once, and a sheet of the same faces as
    the one before it is that sheet again, not composed and encoded anew (100 alike cards
    of 300 × 420 mm in three languages at --dpi 91: 60 sheets, 7 s of CPU)."""
    from toolkit.render.exports import tts

    monkeypatch.setattr(tts, "MAX_SHEET_PX", 200)  # sheets of 2 × 2: 3 faces and the hidden
    composed: list[int] = []
    sheet_png = tts.sheet_png

    def counted(faces: Any, hidden: Any, grid: Any) -> tuple[bytes, tuple[int, int]]:
        composed.append(1)
        return sheet_png(faces, hidden, grid)

    monkeypatch.setattr(tts, "sheet_png", counted)
    made = {}
    for alike in (True, False):
        out = tmp_path / f"out-{alike}"
        _export(run_cli, monkeypatch, _game(tmp_path, alike), "tts", out)
        made[alike] = len(composed)
        composed.clear()
        sheets = [next(out.glob(f"*/en/tts/cards-{n}.png")).read_bytes() for n in range(1, 5)]
        assert len(set(sheets)) == (1 if alike else 4)
    assert made[False] - made[True] == CARDS // 3 - 1  # 4 sheets of the deck against 1


def test_pages_key_themselves_where_reportlab_keeps_them_otherwise() -> None:
    """The page key reads reportlab's own page objects: where they are not as expected, each
    page is its own (every page drawn, none merged), not an error."""
    from toolkit.render.pdf import PAPERS, pdf_canvas, record_pages

    keys: list[str] = []
    with pdf_canvas(PAPERS["a4"], "t") as (canvas, _buffer):
        record_pages(canvas, keys)
        canvas.showPage()  # a blank page, read as ever
        real = canvas._doc.Pages

        class Elsewhere:  # takes pages, keeps them where record_pages does not look
            def addPage(self, page: Any) -> None:
                real.addPage(page)

        canvas._doc.Pages = Elsewhere()
        canvas.showPage()
        canvas.showPage()
        canvas._doc.Pages = real
    assert keys[0] not in keys[1:] and keys[1] != keys[2]
