"""A picture much larger than its box at an export's dpi is resampled once per run for the
PDFs that are only rasterised (probe 61-2: PDFium decoded each 40 M-pixel picture whole in
every language's document, five of them on 20 languages' cards 11 s of `export png`); the
printed PDFs keep the whole picture, and the images stay what the whole picture draws."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from tests.test_picture_objects import _cards_pdfs, _pictured_game

SIDE = 1200  # the picture's pixels each way: 63 mm at --dpi 60 is 149 pixels, 744 at 300


def _game(tmp_path: Path, run_cli) -> Path:
    """Two languages, three cards each drawing one picture of SIDE × SIDE pixels (with
    alpha) over the whole card."""
    from PIL import Image

    ramp = Image.linear_gradient("L").resize((SIDE, SIDE))
    return _pictured_game(tmp_path, run_cli, Image.merge("LA", (ramp, ramp.rotate(90))))


def _image_sizes(pdf: bytes) -> list[tuple[int, int]]:
    """The pixel size of each picture each page of `pdf` draws."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    document = pdfium.PdfDocument(pdf)
    try:
        sizes = []
        for page in document:
            for drawn in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,)):
                sizes.append(tuple(drawn.get_px_size()))
        return sizes
    finally:
        document.close()


@pytest.fixture
def export_pdfs(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The card PDFs the exports draw from, as they are made."""
    from toolkit.render.exports import faces

    made: list[bytes] = []
    real = faces.cards_pdf

    def kept(*args: Any, **kwargs: Any) -> bytes:
        made.append(real(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(faces, "cards_pdf", kept)
    return made


@pytest.fixture
def resamples(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The size of each resampled copy made from here on."""
    from toolkit.render import picture_scaled

    made: list[tuple[int, int]] = []
    real = picture_scaled.resampled

    def counted(path: Path, size: tuple[int, int]) -> Any:
        made.append(size)
        return real(path, size)

    monkeypatch.setattr(picture_scaled, "resampled", counted)
    return made


@pytest.mark.parametrize("export", ["png", "tts"])
def test_an_export_draws_a_large_picture_resampled_once_for_every_language(
    tmp_path, run_cli, export_pdfs, resamples, export
):
    """At --dpi 60 the card covers 149 × 208 pixels: the picture is drawn from one copy of
    twice that (298 pixels wide), made once for both languages' PDFs (was: the whole 1,200
    in each); `build`'s PDFs still hold the whole picture."""
    root = _game(tmp_path, run_cli)
    out = tmp_path / "out"
    result = run_cli("export", export, str(root), "--out", str(out), "--dpi", "60")
    assert result.exit_code == 0, result.output
    assert len(export_pdfs) == 2  # one a language
    for pdf in export_pdfs:
        sizes = _image_sizes(pdf)
        assert sizes, "the picture is drawn"
        assert all(size == (298, 298) for size in sizes), sizes
    assert resamples == [(298, 298)]  # once for the run

    printed = _cards_pdfs(root, tmp_path / "built", run_cli)
    assert len(printed) == 2
    for pdf in printed.values():
        assert {tuple(size) for size in _image_sizes(pdf)} == {(SIDE, SIDE)}


def test_a_picture_not_much_larger_than_its_box_is_drawn_whole(
    tmp_path, run_cli, export_pdfs, resamples
):
    """At --dpi 300 the card covers 744 pixels: a picture of 1,200 is less than four times
    that, so it is drawn whole, as before (the same PDFs, the same images)."""
    root = _game(tmp_path, run_cli)
    result = run_cli("export", "png", str(root), "--out", str(tmp_path / "out"), "--lang", "en")
    assert result.exit_code == 0, result.output
    assert {size for pdf in export_pdfs for size in _image_sizes(pdf)} == {(SIDE, SIDE)}
    assert resamples == []


def test_the_resampled_picture_draws_what_the_whole_one_does(tmp_path, run_cli, monkeypatch):
    """The image of a face drawn from the resampled copy and from the whole picture differ
    by a fraction of a level (of 255) on average."""
    from PIL import Image, ImageChops, ImageStat

    from toolkit.render import picture_scaled

    root = _game(tmp_path, run_cli)
    args = ["export", "png", str(root), "--lang", "en", "--dpi", "60"]
    assert run_cli(*args, "--out", str(tmp_path / "scaled")).exit_code == 0
    monkeypatch.setattr(picture_scaled, "OVERSAMPLE", 1000)  # the whole picture
    assert run_cli(*args, "--out", str(tmp_path / "whole")).exit_code == 0
    front = Path("g", "en", "png", "cards", "c0-front.png")
    scaled = Image.open(tmp_path / "scaled" / front).convert("RGB")
    whole = Image.open(tmp_path / "whole" / front).convert("RGB")
    assert scaled.size == whole.size == (149, 208)
    difference = ImageChops.difference(scaled, whole)
    assert max(ImageStat.Stat(difference).mean) < 0.5, ImageStat.Stat(difference).mean
    assert max(high for _, high in difference.getextrema()) <= 8


def test_the_preview_draws_a_large_picture_resampled(tmp_path, run_cli, monkeypatch, resamples):
    """The preview's faces are rasterised at its card dpi: drawn from the resampled copy,
    made once for every face and revision."""
    from toolkit.preview import draw
    from toolkit.preview.face_budget import CARD_DPI
    from toolkit.preview.live import Preview

    root = _game(tmp_path, run_cli)
    layout = root / "layouts" / "pictured.yaml"  # a 20 mm box: 118 pixels at 150 dpi
    layout.write_text(layout.read_text("utf-8").replace("w: 63, h: 88", "w: 20, h: 20"))
    preview = Preview(root)
    preview.load(check=False)
    faces = [t for t in preview.snap.targets.values() if t.kind == "face" and t.side == "front"]
    assert len(faces) == 6  # three cards, two languages
    pdfs: list[bytes] = []
    real = draw._png
    monkeypatch.setattr(draw, "_png", lambda pdf, *a: pdfs.append(pdf) or real(pdf, *a))
    results = draw.draw_targets(preview.shown, faces)
    assert all(isinstance(result, list) for result in results), results
    side = math.ceil(20 / 25.4 * CARD_DPI * 2)  # twice the pixels its box covers
    assert {size for pdf in pdfs for size in _image_sizes(pdf)} == {(side, side)}
    assert resamples == [(side, side)]


@pytest.mark.parametrize("first", ["large", "small"])
def test_a_picture_drawn_at_several_sizes_is_decoded_once_or_twice(
    tmp_path, run_cli, export_pdfs, resamples, monkeypatch, first
):
    """Each size a picture's boxes take is a copy of its own; the picture is decoded for
    the first, whose copy the smaller ones are resampled from, and at most once more, for
    its half, should a larger size come later (was: decoded whole for each size, a face of
    two 40 M-pixel pictures at sizes of their own ~0.9 s)."""
    from toolkit.render import picture_scaled

    root = _game(tmp_path, run_cli)
    large = "  - {kind: image, box: {x: 0, y: 0, w: 63, h: 88}, path: art/p.png}\n"
    small = "  - {kind: image, box: {x: 5, y: 5, w: 30, h: 30}, path: art/p.png}\n"
    middle = "  - {kind: image, box: {x: 5, y: 5, w: 40, h: 40}, path: art/p.png}\n"
    order = [large, small, middle] if first == "large" else [small, middle, large]
    (root / "layouts" / "pictured.yaml").write_text("id: pictured\nelements:\n" + "".join(order))
    decoded: list[object] = []
    real = picture_scaled.decoded
    monkeypatch.setattr(
        picture_scaled, "decoded", lambda *args: decoded.append(args[1]) or real(*args)
    )
    result = run_cli("export", "png", str(root), "--out", str(tmp_path / "out"), "--dpi", "60")
    assert result.exit_code == 0, result.output
    assert sorted(resamples) == [(142, 142), (189, 189), (298, 298)]  # 30, 40, 63 mm
    # the first size, then (smallest first) the half for the larger ones
    assert decoded == ([(298, 298)] if first == "large" else [(142, 142), None])
    assert {size for pdf in export_pdfs for size in _image_sizes(pdf)} == set(resamples)


def _iconed(tmp_path: Path, run_cli) -> Path:
    """The game of `_game`, its cards drawing an SVG icon over the whole card instead: the
    icon embeds the picture, from icons/."""
    root = _game(tmp_path, run_cli)
    (root / "art" / "p.png").rename(root / "icons" / "p.png")
    (root / "icons" / "photo.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        ' width="10" height="10" viewBox="0 0 10 10">'
        '<image x="0" y="0" width="10" height="10" xlink:href="p.png"/></svg>\n'
    )
    element = "  - {kind: icon, box: {x: 0, y: 0, w: 63, h: 63}, icon: photo}\n"
    (root / "layouts" / "pictured.yaml").write_text(f"id: pictured\nelements:\n{element}")
    return root


def test_an_icon_s_picture_is_made_once_a_run(tmp_path, run_cli, monkeypatch):
    """An SVG icon's picture: its image object made once for both languages' PDFs (was:
    once a PDF; a 16 M-pixel picture on 5 cards, 5.1 s of a 20-language build), the whole
    picture still."""

    root = _iconed(tmp_path, run_cli)
    made = _objects_made(monkeypatch)
    printed = _cards_pdfs(root, tmp_path / "built", run_cli)
    assert len(printed) == 2
    assert made == [(SIDE, SIDE)]  # once, not once a language
    for pdf in printed.values():
        assert set(_image_sizes(pdf)) == {(SIDE, SIDE)}


def test_an_export_draws_an_icon_s_picture_from_a_copy(tmp_path, run_cli, export_pdfs, monkeypatch):
    """In an export's PDFs an icon's picture is a copy of twice the pixels of the pages'
    longer side (the icon's form is written once for all the sizes it is drawn at), made
    once for both languages (was: the whole picture, decoded by PDFium in each)."""

    root = _iconed(tmp_path, run_cli)
    made = _objects_made(monkeypatch)
    result = run_cli("export", "png", str(root), "--out", str(tmp_path / "out"), "--dpi", "60")
    assert result.exit_code == 0, result.output
    assert made == [(444, 444)]  # the page with its bleed: 94 mm at 60 dpi, 222 pixels
    assert len(export_pdfs) == 2
    assert {size for pdf in export_pdfs for size in _image_sizes(pdf)} == {(444, 444)}


def _covered(tmp_path: Path, run_cli) -> Path:
    """The game of `_game`, its rulebooks' cover that picture too."""
    root = _game(tmp_path, run_cli)
    manifest = root / "game.yaml"
    manifest.write_text(manifest.read_text("utf-8") + "style:\n  cover: art/p.png\n", "utf-8")
    return root


def test_a_cover_picture_is_made_once_for_every_language_s_rulebook(tmp_path, run_cli, monkeypatch):
    """Platypus's Image made the cover's image object again in each language's rulebook and
    each pass of it (a 40 M-pixel cover: 18 s of `build` in 20 languages); it is made once
    a run, the whole picture still (the page draws the same)."""

    root = _covered(tmp_path, run_cli)
    made = _objects_made(monkeypatch)
    out = tmp_path / "out"
    result = run_cli("build", str(root), "--out", str(out), "--no-cache", "--only", "rulebook")
    assert result.exit_code == 0, result.output
    books = sorted(out.rglob("rulebook.pdf"))
    assert len(books) == 2
    assert len(made) == 1, made  # the cover (its mask made with it), not once a language
    for book in books:
        assert (SIDE, SIDE) in _image_sizes(book.read_bytes())


def test_an_export_draws_a_large_cover_resampled(tmp_path, run_cli, monkeypatch, resamples):
    """`export png` rasterises each language's rulebook at --page-dpi: its cover is drawn
    from the copy resampled once (was: the whole picture, decoded in every language's)."""
    from toolkit.render.exports import png

    root = _covered(tmp_path, run_cli)
    books: list[bytes] = []
    real = png.rulebook_pdf
    monkeypatch.setattr(png, "rulebook_pdf", lambda *a: books.append(real(*a)) or books[-1])
    args = ["--page-dpi", "40", "--dpi", "300"]  # the cards' pictures drawn whole
    result = run_cli("export", "png", str(root), "--out", str(tmp_path / "out"), *args)
    assert result.exit_code == 0, result.output
    assert len(books) == 2
    sizes = [_image_sizes(book) for book in books]
    assert sizes[0] == sizes[1] and len(sizes[0]) == 1, sizes
    (side, _), *_ = sizes[0]
    assert side < SIDE / 2, sizes
    assert resamples == [(side, side)]


@pytest.fixture(autouse=True)
def _forget():
    from toolkit.render import picture_objects

    picture_objects.forget()
    yield
    picture_objects.forget()


def _objects_made(monkeypatch) -> list[tuple[int, int]]:
    """The size of each image object reportlab makes from now on (a picture decoded and
    compressed), as the test goes."""
    from reportlab.pdfbase import pdfdoc

    made: list[tuple[int, int]] = []
    original = pdfdoc.PDFImageXObject.loadImageFromSRC

    def counted(self, image):
        made.append(image.getSize())
        return original(self, image)

    monkeypatch.setattr(pdfdoc.PDFImageXObject, "loadImageFromSRC", counted)
    return made
