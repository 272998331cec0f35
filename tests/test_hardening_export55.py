"""Probe 41 H4: 100 cards of 300 × 420 mm that differ only in their id (a 2.5 kB deck) were
just under the export's pixel bound at --dpi 275 and cost 16 s of CPU, the one face they all
show drawn and encoded 100 times. Pages of a deck that draw the same are now imaged once."""

from __future__ import annotations

import shutil
from pathlib import Path

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
