"""Probe 42 N3 and M4: exports of many small decks. `export tts`/`png` checked each file
against every file written before it (`path in written` on a list: 2 M comparisons at 2,000
files, ~72 M at 12,000), and `export tts`'s pixel bound counted each face twice while a
one-card deck encodes a 2 × 2 sheet and a back image of its own (1,000 one-card decks: 774 M
counted, 967 M encoded)."""

from __future__ import annotations

import shutil
from pathlib import Path, PurePath
from typing import Any

import pytest

from tests.conftest import FIXTURES

DECKS = 30


def _game(tmp_path: Path, decks: int = DECKS) -> Path:
    """The fixture game with `decks` more decks of one poker card each."""
    game = tmp_path / "many"
    shutil.copytree(FIXTURES / "base", game)
    manifest = game / "game.yaml"
    listed = "".join(f"    - decks/d{d}.yaml\n" for d in range(decks))
    first = "    - decks/cards.yaml\n"
    manifest.write_text(manifest.read_text().replace(first, first + listed))
    for d in range(decks):
        (game / "decks" / f"d{d}.yaml").write_text(
            f"id: d{d}\nkind: actions\nname: {{fr: D{d}, es: D{d}, en: D{d}}}\nsize: poker\n"
            f"cards:\n  - {{id: k{d}, name: {{fr: A{d}, es: A{d}, en: A{d}}}}}\n"
        )
    return game


@pytest.mark.parametrize("kind", ["png", "tts"])
def test_each_file_is_checked_against_those_written_without_comparing_them_all(
    run_cli, tmp_path, monkeypatch, kind
):
    import importlib

    module = importlib.import_module(f"toolkit.render.exports.{kind}")
    compared, checked = [0], [0]
    equal, once = PurePath.__eq__, module.once

    def counting_eq(self: PurePath, other: Any) -> Any:
        compared[0] += 1
        return equal(self, other)

    def counted(written: Any, path: Path) -> None:
        checked[0] += 1
        with monkeypatch.context() as patch:  # the comparisons the check itself makes
            patch.setattr(PurePath, "__eq__", counting_eq)
            once(written, path)

    monkeypatch.setattr(module, "once", counted)
    game, out = _game(tmp_path), tmp_path / "out"
    result = run_cli("export", kind, str(game), "--lang", "en", "--dpi", "30", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert checked[0] > 2 * DECKS  # every file is checked…
    assert compared[0] < checked[0]  # …at a cost of its own (in a list: ~files² / 2)


def test_tts_s_pixel_bound_counts_what_the_export_draws_and_encodes(run_cli, tmp_path, monkeypatch):
    from toolkit.render import raster
    from toolkit.render.exports import faces, tts

    counted: list[int] = []
    drawn, encoded = [0], [0]
    images_each, images_selected, png_bytes = (
        faces.images_each,
        raster.images_selected,
        tts.png_bytes,
    )

    def spied(count: Any, dpi: float, langs: list[str], per_pixel: int = 1) -> None:
        counted.append(count(dpi) * per_pixel * len(langs))  # (per_pixel: the count until M4)

    def each(*args: Any, **kwargs: Any) -> Any:  # the faces rasterised
        for image in images_each(*args, **kwargs):
            drawn[0] += image.size[0] * image.size[1]
            yield image

    def selected(*args: Any, **kwargs: Any) -> list[Any]:  # the hidden card of unique backs
        images = images_selected(*args, **kwargs)
        drawn[0] += sum(image.size[0] * image.size[1] for image in images)
        return images

    def encode(image: Any) -> bytes:  # each sheet and back image
        encoded[0] += image.size[0] * image.size[1]
        return png_bytes(image)

    monkeypatch.setattr(tts, "check_export_pixels", spied)
    monkeypatch.setattr(faces, "images_each", each)
    monkeypatch.setattr(raster, "images_selected", selected)
    monkeypatch.setattr(tts, "png_bytes", encode)
    game, out = _game(tmp_path, 8), tmp_path / "out"
    result = run_cli("export", "tts", str(game), "--lang", "en", "--dpi", "40", "--out", str(out))
    assert result.exit_code == 0, result.output
    # one-card decks: a 2 × 2 sheet and a back image each, not their two faces twice
    assert counted == [drawn[0] + encoded[0]]


@pytest.mark.parametrize("kind", ["png", "tts"])
def test_a_language_s_decks_are_drawn_in_one_pdf(run_cli, tmp_path, monkeypatch, kind):
    from toolkit.render.exports import faces

    made: list[int] = []
    cards_pdf = faces.cards_pdf

    def counted(game: Any, decks: list[Any], *args: Any, **kwargs: Any) -> bytes:
        made.append(len(decks))
        return cards_pdf(game, decks, *args, **kwargs)

    monkeypatch.setattr(faces, "cards_pdf", counted)
    game, out = _game(tmp_path), tmp_path / "out"
    args = ["export", kind, str(game), "--lang", "en,fr", "--dpi", "30", "--out", str(out)]
    result = run_cli(*args)
    assert result.exit_code == 0, result.output
    # a PDF a language, not one a deck (its document and font subsets ~5 ms each)
    assert made == [DECKS + 2, DECKS + 2]  # the fixture's deck, the decks, its question bank
