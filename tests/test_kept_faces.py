"""The shipped faces' parse is kept between runs (toolkit.render.kept_faces): a face rebuilt
from the cache is the parsed one, attribute for attribute, and prints the same bytes; an
entry that does not check out, or a changed file, means a parse."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfgen import canvas

from toolkit.render import kept_faces
from toolkit.render.fonts import FILES, font_dir


@pytest.fixture
def store(tmp_path, monkeypatch):
    """A private cache of its own, and a count of the TrueType files reportlab parses.

    reportlab's registry is put back afterwards: it maps a second font of the same face name
    to the first one registered, so the shipped faces registered here under test names would
    otherwise stand in for the build's own in every later test of the process."""
    for registry in ("_fonts", "_dynFaceNames"):
        monkeypatch.setattr(pdfmetrics, registry, dict(getattr(pdfmetrics, registry)))
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    kept_faces._store.cache_clear()
    parsed: list[str] = []
    real = ttfonts.TTFontFile.__init__

    def counting(self, file, *args, **kwargs):
        parsed.append(str(file))
        real(self, file, *args, **kwargs)

    monkeypatch.setattr(ttfonts.TTFontFile, "__init__", counting)
    yield parsed
    kept_faces._store.cache_clear()


def _same(a, b) -> None:
    assert type(a) is type(b)
    if isinstance(a, dict):
        assert list(a) == list(b)
        for key in a:
            _same(a[key], b[key])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _same(x, y)
    else:
        assert a == b
        if isinstance(a, ttfonts.TTFNameBytes):
            assert a.ustr == b.ustr


def _pdf(font) -> bytes:
    pdfmetrics.registerFont(font)
    page = canvas.Canvas(None, invariant=1)
    page.setFont(font.fontName, 11)
    page.drawString(20, 700, "Avancez de 3 cases\u202f; ¿cebada, agua o levadura? œ ß")
    page.showPage()
    return page.getpdfdata()


@pytest.mark.parametrize("style", ["regular", "italic"])
def test_a_kept_face_is_the_parsed_face(store, style):
    path = font_dir() / FILES[style]
    first = kept_faces.tagged_font(f"kept-test-{style}", path)  # parsed, then kept
    second = kept_faces.tagged_font(f"kept-test-{style}", path)  # from the cache
    assert store == [str(path)]  # one parse: the second came from the cache
    assert set(vars(first)) == set(vars(second))
    for key in ("fontName", "_asciiReadable", "_shapable"):
        assert vars(first)[key] == vars(second)[key]
    assert type(second.encoding) is type(first.encoding)
    parsed, kept = vars(first.face), vars(second.face)
    assert list(parsed) == list(kept) or set(parsed) == set(kept)
    for key in parsed:
        if key == "_pdfScale":
            for units in (0, 1, 37, 1000, -250, 2048):
                assert parsed[key](units) == kept[key](units)
        else:
            _same(parsed[key], kept[key])
    assert _pdf(second) == _pdf(first)
    assert second.stringWidth("Avancez de 3 cases", 9) == first.stringWidth("Avancez de 3 cases", 9)


def test_an_entry_that_does_not_check_out_is_parsed_again(store):
    path = font_dir() / FILES["regular"]
    kept_faces.tagged_font("kept-test-tampered", path)
    (entry,) = (kept_faces._store().folder).glob("face-*")
    data = bytearray(entry.read_bytes())
    data[-5] ^= 0xFF
    entry.write_bytes(bytes(data))
    os.chmod(entry, 0o600)
    font = kept_faces.tagged_font("kept-test-tampered", path)
    assert store == [str(path), str(path)]  # refused, parsed again (and kept afresh)
    assert (
        font.face.charWidths == kept_faces.tagged_font("kept-test-tampered", path).face.charWidths
    )
    assert len(store) == 2


def test_a_changed_file_is_parsed_again(store, tmp_path):
    copy = tmp_path / "Face.ttf"
    shutil.copyfile(font_dir() / FILES["regular"], copy)
    kept_faces.tagged_font("kept-test-changed", copy)
    shutil.copyfile(font_dir() / FILES["bold"], copy)
    os.utime(copy, ns=(1, 1))
    bold = kept_faces.tagged_font("kept-test-changed", copy)
    assert store == [str(copy), str(copy)]
    assert bold.face.name == ttfonts.TTFontFace(str(font_dir() / FILES["bold"])).name


def test_without_a_usable_cache_every_face_is_parsed(store, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("PLAYSET_CACHE", str(blocker))  # no folder can be made there
    kept_faces._store.cache_clear()
    path: Path = font_dir() / FILES["regular"]
    kept_faces.tagged_font("kept-test-none", path)
    kept_faces.tagged_font("kept-test-none", path)
    assert store == [str(path), str(path)]
