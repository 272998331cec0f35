"""Probe 14 (issue #33, H3): sparse pictures and fonts. A PNG or TrueType signature, a few
bytes, then a hole (`truncate -s 250M`) costs nothing on disk, but every picture was read
whole, hashed and copied into the process's pictures folder before anything looked at it
(28 such pictures, 116 KB on disk: 71 s of CPU and 7 GB written to /tmp), and every font
file was read whole before it was parsed (200 of them, 804 KB on disk: 172 s). A file is
now opened once and looked at first (its size, whether it is sparse, its first bytes), a
picture's blocks are counted before it is copied, and the bytes of all the copies, the
number of font files and their bytes together are bounded."""

from __future__ import annotations

import io
import os
import struct
import time
from pathlib import Path

import pytest
from PIL import Image

from tests.font_maker import make_font
from toolkit import fileio
from toolkit.render import game_fonts, pictures


def _sparse(path: Path, head: bytes, size: int) -> Path:
    path.write_bytes(head)
    os.truncate(path, size)
    info = path.stat()
    if info.st_blocks * 512 * fileio.SPARSE_SHARE >= size:
        pytest.skip("this file system stores no sparse file")
    return path


def _copies() -> list[str]:
    folder = pictures._folder()
    return sorted(name for name in os.listdir(folder) if not name.startswith("."))


def test_a_sparse_picture_is_refused_unread_and_uncopied(tmp_path):
    before = _copies()
    path = _sparse(tmp_path / "p.png", b"\x89PNG\r\n\x1a\n0001", 64 * 1024 * 1024)
    started = time.process_time()
    size, why = pictures.problem(path, tmp_path)
    assert time.process_time() - started < 0.2  # it was 0.5 s and a 64 MB copy
    assert size is None and why is not None
    assert "it is a sparse file (67,108,864 bytes, of which" in why and "save it again" in why
    assert _copies() == before
    with pytest.raises(ValueError, match="sparse file"):
        pictures.private_copy(path, tmp_path)


def test_a_file_that_is_no_picture_is_not_copied(tmp_path):
    before = _copies()
    path = tmp_path / "notes.png"
    path.write_bytes(b"plain text, no picture\n" * 1000)
    assert pictures.problem(path, tmp_path) == (None, "not a PNG, JPEG, GIF or WebP picture")
    assert _copies() == before


def test_a_picture_its_blocks_refuse_is_not_copied(tmp_path, monkeypatch):
    before = _copies()
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8)).save(buffer, "PNG")
    png = buffer.getvalue()
    empty = struct.pack(">I", 0) + b"prVt" + struct.pack(">I", 0)
    path = tmp_path / "many.png"
    path.write_bytes(png[:33] + empty * (pictures.MAX_BLOCKS + 1) + png[33:])
    counted = []
    data_problem = pictures._data_problem
    monkeypatch.setattr(pictures, "_data_problem", lambda d: counted.append(1) or data_problem(d))
    for _ in range(3):  # validate asks per card and per check: the file is read once
        size, why = pictures.problem(path, tmp_path)
        assert size is None and why is not None and "metadata chunks" in why
    assert _copies() == before
    assert len(counted) == 1


def test_a_large_real_picture_is_no_sparse_file(tmp_path):
    # a real picture over the size where sparseness is asked: stored whole, accepted
    path = tmp_path / "noise.png"
    Image.frombytes("RGB", (1300, 1300), os.urandom(1300 * 1300 * 3)).save(path, compress_level=0)
    assert path.stat().st_size > fileio.SPARSE_MIN_BYTES
    assert pictures.problem(path, tmp_path) == ((1300, 1300), None)


def test_the_pictures_copied_in_a_run_are_bounded_in_bytes(tmp_path, monkeypatch):
    pictures.discard()  # a fresh copies folder: the bound counts what this process holds
    paths = []
    for n in range(4):
        path = tmp_path / f"p{n}.png"
        Image.frombytes("RGB", (24, 24), os.urandom(24 * 24 * 3)).save(path)
        paths.append(path)
    limit = paths[0].stat().st_size + paths[1].stat().st_size + 10
    monkeypatch.setattr(pictures, "MAX_COPIES_BYTES", limit)
    reads = []
    read_open = fileio.read_open
    monkeypatch.setattr(fileio, "read_open", lambda fd, n: reads.append(fd) or read_open(fd, n))
    said = [pictures.problem(path, tmp_path)[1] for path in paths]
    assert len(reads) == 2  # the two past the bound are not read
    assert said[:2] == [None, None]
    assert said[2] is not None and f"more than {limit:,} bytes together" in said[2]
    assert said[3] == said[2]
    assert pictures.problem(paths[0], tmp_path)[1] is None  # a copy it holds stays good
    pictures.discard()
    assert pictures.problem(paths[3], tmp_path)[1] is None  # a new process starts again


def test_sparse_means_holes_not_only_few_blocks(tmp_path):
    # a file system that compresses, or reports no blocks (some FUSE ones), has no hole
    path = tmp_path / "real.bin"
    path.write_bytes(os.urandom(fileio.SPARSE_MIN_BYTES + 10))
    fd = os.open(path, os.O_RDONLY)
    try:
        info = os.fstat(fd)
        assert not fileio.sparse(fd, info)
        values = list(info)
        no_blocks = os.stat_result((*values[:10],), {"st_blocks": 0})
        assert no_blocks.st_blocks == 0 and no_blocks.st_size == info.st_size
        assert not fileio.sparse(fd, no_blocks)
        assert os.lseek(fd, 0, os.SEEK_CUR) == 0
    finally:
        os.close(fd)
    small = _sparse(tmp_path / "small.bin", b"x", fileio.SPARSE_MIN_BYTES - 1)
    fd = os.open(small, os.O_RDONLY)
    try:
        assert not fileio.sparse(fd, os.fstat(fd))  # too small to be asked
    finally:
        os.close(fd)


def test_a_sparse_font_is_refused_unread(tmp_path):
    (tmp_path / "fonts").mkdir()
    path = _sparse(tmp_path / "fonts" / "f.ttf", b"\x00\x01\x00\x000001", 32 * 1024 * 1024)
    started = time.process_time()
    said = game_fonts.read_face(path, tmp_path.resolve())
    assert time.process_time() - started < 0.2
    assert isinstance(said, str)
    assert "the font file is a sparse file (33,554,432 bytes, of which" in said


def test_the_font_files_read_are_bounded_in_number_and_bytes(tmp_path, monkeypatch):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    for n, style in enumerate(("regular", "bold", "italic")):
        make_font(fonts / f"f{n}.ttf", f"Family{n}", style, "abc")
    size = (fonts / "f0.ttf").stat().st_size
    monkeypatch.setattr(game_fonts, "MAX_FILES", 2)
    found = game_fonts.font_set(tmp_path)
    assert [p.file.rsplit("/", 1)[-1] for p in found.problems] == ["f2.ttf"]
    assert "holds more than 2 font files" in found.problems[0].message
    assert {family for family, _ in found.faces} == {"family0", "family1"}
    monkeypatch.setattr(game_fonts, "MAX_FILES", 100)
    monkeypatch.setattr(game_fonts, "MAX_TOTAL_BYTES", size + 10)
    os.utime(fonts / "f0.ttf")  # another stamp: the set is read again
    found = game_fonts.font_set(tmp_path)
    said = {p.file.rsplit("/", 1)[-1]: p.message for p in found.problems}
    assert set(said) == {"f1.ttf", "f2.ttf"}
    assert "font files are more than" in said["f1.ttf"] and "not read" in said["f1.ttf"]


def test_a_finding_at_a_font_or_a_sparse_file_reads_no_comment_there(tmp_path, monkeypatch):
    # each P009 at a sparse font read 4 MB of zeros for an ignore comment (200: 11 s)
    from toolkit.diagnostics import suppress

    font = _sparse(tmp_path / "f.ttf", b"\x00\x01\x00\x00" + b"x" * 8192, 16 * 1024 * 1024)
    text = _sparse(tmp_path / "g.yaml", b"id: x  # playset: ignore[Y001]\n", 16 * 1024 * 1024)
    plain = tmp_path / "h.yaml"
    plain.write_text("id: x  # playset: ignore[Y001]\n", encoding="utf-8")
    root = tmp_path.resolve()
    assert suppress._notes(str(plain), (root,)) == {1: "id: x  # playset: ignore[Y001]"}

    def read_whole(*args):
        raise AssertionError("read whole")

    monkeypatch.setattr(fileio, "read_open", read_whole)
    assert suppress._notes(str(font), (root,)) == {}
    assert suppress._notes(str(text), (root,)) == {}


def test_a_file_pillow_cannot_open_or_of_too_many_pixels_is_not_copied(tmp_path):
    # a PNG signature and 1 MB of anything else: refused before, but copied first
    before = _copies()
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(1024 * 1024))
    size, why = pictures.problem(junk, tmp_path)
    assert size is None and why == pictures.NOT_A_PICTURE  # Pillow knows no such PNG
    buffer = io.BytesIO()
    Image.new("1", (8000, 8000)).save(buffer, "PNG")  # 64 M pixels in a few kB
    huge = tmp_path / "huge.png"
    huge.write_bytes(buffer.getvalue())
    size, why = pictures.problem(huge, tmp_path)
    assert size is None and why is not None and "8000×8000 px is more than the" in why
    assert _copies() == before
