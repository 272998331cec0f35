"""The press profile: every page of every PDF has TrimBox and BleedBox (3 mm bleed), and a
file holds one trim size (a cards file per card size)."""

from __future__ import annotations

import shutil
from types import SimpleNamespace

from pypdf import PdfReader

from tests.conftest import FIXTURES
from tests.pdf_geometry import MM
from toolkit.render.artifacts.cards import card_files


def _boxes(path):
    """(trim size, bleed margins) of every page, in mm rounded to 0.01."""
    out = []
    for page in PdfReader(path).pages:
        assert "/TrimBox" in page and "/BleedBox" in page, path
        trim = [float(v) for v in page.trimbox]
        bleed = [float(v) for v in page.bleedbox]
        media = [float(v) for v in page.mediabox]
        assert bleed == media
        size = (round((trim[2] - trim[0]) / MM, 2), round((trim[3] - trim[1]) / MM, 2))
        margins = {round(abs(a - b) / MM, 2) for a, b in zip(trim, bleed, strict=True)}
        out.append((size, margins))
    return out


def test_every_press_pdf_has_boxes_on_every_page_and_one_trim_size(run_cli, tmp_path):
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    out = tmp_path / "out"
    result = run_cli("build", str(game), "--profile", "press", "--lang", "en", "--out", str(out))
    assert result.exit_code == 0, result.output
    files = sorted((out / "fixture-game" / "en").glob("*.pdf"))
    assert [f.name for f in files] == ["board.pdf", "cards.pdf", "questions.pdf"]
    for path in files:
        boxes = _boxes(path)
        assert len({size for size, _ in boxes}) == 1, path
        assert all(margins == {3.0} for _, margins in boxes), path
    assert _boxes(out / "fixture-game" / "en" / "board.pdf")[0][0] in ((420, 594), (594, 420))


def test_tokaido_press_cards_are_split_per_size_and_the_rulebook_has_bleed(run_cli, tmp_path):
    out = tmp_path / "out"
    result = run_cli("build", "tokaido", "--profile", "press", "--lang", "fr", "--out", str(out))
    assert result.exit_code == 0, result.output
    folder = out / "tokaido" / "fr"
    names = sorted(p.name for p in folder.glob("*.pdf"))
    assert names == ["board.pdf", "cards-44x63.pdf", "cards-70x120.pdf", "rulebook.pdf"]
    assert {s for s, _ in _boxes(folder / "cards-44x63.pdf")} == {(44, 63)}
    assert {s for s, _ in _boxes(folder / "cards-70x120.pdf")} == {(70, 120)}
    assert {s for s, _ in _boxes(folder / "rulebook.pdf")} == {(210, 297)}
    assert all(m == {3.0} for _, m in _boxes(folder / "rulebook.pdf"))


def test_home_sheets_keep_one_cards_file():
    mini, tarot = SimpleNamespace(size="mini"), SimpleNamespace(size="tarot")
    assert card_files([mini, tarot], per_card=False) == [("cards.pdf", [mini, tarot])]
    assert card_files([mini, mini], per_card=True) == [("cards.pdf", [mini, mini])]
    assert card_files([tarot, mini, tarot], per_card=True) == [
        ("cards-70x120.pdf", [tarot, tarot]),
        ("cards-44x63.pdf", [mini]),
    ]
    assert card_files([], per_card=True) == []


def test_a_press_board_of_several_drawings_keeps_one_orientation(run_cli, tmp_path):
    out = tmp_path / "out"
    result = run_cli(
        "build", "muckle-stoater", "--profile", "press", "--lang", "en", "--out", str(out)
    )
    assert result.exit_code == 0, result.output
    boxes = _boxes(out / "muckle-stoater" / "en" / "board.pdf")
    assert len(boxes) > 1 and len({size for size, _ in boxes}) == 1
