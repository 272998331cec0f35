"""A picture's PDF image object is made once per run, not once per PDF (probe 60-3: five PNG
pictures of 40 M pixels cost a build 2.3 s a language, decoded and compressed again for each
language's cards), and the PDFs are the same bytes either way."""

from __future__ import annotations

from pathlib import Path

import pytest


def _pictured_game(tmp_path: Path, run_cli, picture=None) -> Path:
    """The scaffold in English and French, three cards each drawing `picture` (a PIL image;
    noise with alpha, a soft mask too, by default) over the whole card."""
    from PIL import Image

    result = run_cli("new", "g", "--into", str(tmp_path), "--lang", "en,fr")
    assert result.exit_code == 0, result.output
    root = tmp_path / "g"
    (root / "art").mkdir()
    if picture is None:
        picture = Image.effect_noise((300, 200), 60).convert("LA")
    picture.save(root / "art" / "p.png")
    element = "  - {kind: image, box: {x: 0, y: 0, w: 63, h: 88}, path: art/p.png}\n"
    layout = f"id: pictured\nelements:\n{element}"
    (root / "layouts" / "pictured.yaml").write_text(layout, "utf-8")
    deck = "id: cards\nkind: actions\nname: {en: Cards, fr: Cartes}\nsize: poker\n"
    deck += "layout: pictured\ncards:\n"
    deck += "".join(
        f"  - {{id: c{i}, name: {{en: C{i}, fr: C{i}}}, text: {{en: t, fr: t}}}}\n"
        for i in range(3)
    )
    (root / "decks" / "cards.yaml").write_text(deck, "utf-8")
    return root


def _cards_pdfs(root: Path, out: Path, run_cli) -> dict[str, bytes]:
    result = run_cli("build", str(root), "--out", str(out), "--no-cache")
    assert result.exit_code == 0, result.output
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("cards.pdf"))}


def test_a_picture_is_decoded_once_for_every_language_s_pdf(tmp_path, run_cli, monkeypatch):
    from reportlab.pdfbase import pdfdoc

    from toolkit.render import picture_objects

    root = _pictured_game(tmp_path, run_cli)
    made: list[int] = []
    original = pdfdoc.PDFImageXObject.loadImageFromSRC

    def counted(self, image):
        made.append(1)
        return original(self, image)

    monkeypatch.setattr(pdfdoc.PDFImageXObject, "loadImageFromSRC", counted)
    picture_objects.forget()
    once = _cards_pdfs(root, tmp_path / "once", run_cli)
    assert len(once) == 2
    assert len(made) == 1, made  # the picture (its mask made with it), not once a language

    made.clear()
    picture_objects.forget()
    monkeypatch.setattr(picture_objects, "MAX_HELD_BYTES", 0)  # as reportlab alone does
    again = _cards_pdfs(root, tmp_path / "again", run_cli)
    assert len(made) == 2
    assert again == once


@pytest.fixture(autouse=True)
def _forget():
    from toolkit.render import picture_objects

    yield
    picture_objects.forget()
