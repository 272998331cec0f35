"""Probe 13 (issue #33, H2): pictures made of very many empty metadata blocks. Pillow reads a
GIF's extension blocks (and stray bytes), a PNG's chunks and a JPEG's markers one at a time
in Python when it opens a picture: 16 MB files of millions of empty blocks cost 21 to 68 s of
CPU in validate. They are counted first, from a memory map, and refused past a bound."""

from __future__ import annotations

import io
import struct
import time
import zlib

from PIL import Image

from toolkit.render import pictures


def _saved(kind: str, **options) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB" if kind != "GIF" else "P", (64, 64)).save(buffer, kind, **options)
    return buffer.getvalue()


def _refused(tmp_path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    started = time.process_time()
    size, why = pictures.problem(path, tmp_path)
    assert time.process_time() - started < 1.0
    assert size is None and why is not None
    return why


def _accepted(tmp_path, name: str, data: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    assert pictures.problem(path, tmp_path) == ((64, 64), None)


def test_a_gif_with_a_stray_byte_before_very_many_comment_blocks_is_refused(tmp_path):
    # one byte 0x00 before the comment stopped the count (it looked for `!` only), while
    # Pillow skips the byte and reads the 8 M blocks after it: 21 s of CPU, 782 MB
    gif = _saved("GIF")
    at = 13 + 3 * (2 << (gif[10] & 7)) if gif[10] & 0x80 else 13  # after the colour table
    comment = b"\x21\xfe" + b"\x01x" * 10_000 + b"\x00"
    why = _refused(tmp_path, "junk.gif", gif[:at] + b"\x00" + comment + gif[at:])
    assert "GIF whose comments or extensions hold more than 10,000 data blocks" in why
    # stray bytes alone are steps too (Pillow skips them one at a time)
    why = _refused(tmp_path, "stray.gif", gif[:at] + b"\x00" * 10_001 + gif[at:])
    assert "GIF" in why
    # and so are empty extensions, three bytes each
    why = _refused(tmp_path, "empty.gif", gif[:at] + b"\x21\xfe\x00" * 10_001 + gif[at:])
    assert "GIF" in why
    fine = b"\x00\x21\xfe" + b"\x01x" * 9_998 + b"\x00"  # 10,000 steps: the bound
    _accepted(tmp_path, "fine.gif", gif[:at] + fine + gif[at:])


def _chunk(kind: bytes, data: bytes = b"") -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def test_a_png_of_very_many_empty_chunks_is_refused(tmp_path):
    # 1.3 M empty ancillary chunks between IHDR and IDAT: Image.open alone 4.7 s, 68 s of
    # CPU in validate (the picture is opened about 14 times for 3 cards)
    png = _saved("PNG")
    at = 8 + 25  # the signature and IHDR
    why = _refused(tmp_path, "many.png", png[:at] + _chunk(b"prVt") * 10_001 + png[at:])
    assert "PNG of more than 10,000 metadata chunks" in why
    _accepted(tmp_path, "fine.png", png[:at] + _chunk(b"prVt") * 9_000 + png[at:])
    # pixel data split into more chunks than a real file of the 256 MB bound holds
    idat = png.index(b"IDAT") - 4
    (length,) = struct.unpack_from(">I", png, idat)
    pixels = png[idat + 8 : idat + 8 + length]
    split = b"".join(_chunk(b"IDAT", pixels[i : i + 1]) for i in range(len(pixels)))
    pad = _chunk(b"IDAT") * (pictures.MAX_PNG_CHUNKS - len(pixels))  # empty ones
    why = _refused(tmp_path, "split.png", png[:idat] + split + pad + png[idat + 12 + length :])
    assert "65,536 chunks in all" in why
    _accepted(tmp_path, "split-fine.png", png[:idat] + split + png[idat + 12 + length :])


def test_a_jpeg_of_very_many_empty_comments_is_refused(tmp_path):
    # 4 M empty COM markers after SOI: Image.open 5.4 s, the scan count 4.4 s, 61 s of CPU
    # in validate
    jpeg = _saved("JPEG")
    why = _refused(tmp_path, "many.jpg", jpeg[:2] + b"\xff\xfe\x00\x02" * 10_001 + jpeg[2:])
    assert "JPEG of more than 10,000 markers" in why
    # stray bytes before the first scan: Pillow skips them one at a time
    sos = jpeg.index(b"\xff\xda")
    why = _refused(tmp_path, "stray.jpg", jpeg[:sos] + b"\x00" * 10_001 + jpeg[sos:])
    assert "JPEG of more than 10,000 markers" in why
    _accepted(tmp_path, "fine.jpg", jpeg[:2] + b"\xff\xfe\x00\x02" * 9_000 + jpeg[2:])
    # restart markers in a scan's data are no steps: an ordinary file of many is read
    restarts = _saved("JPEG", restart_marker_blocks=1)
    assert sum(restarts.count(bytes((0xFF, code))) for code in range(0xD0, 0xD8)) > 10
    _accepted(tmp_path, "restarts.jpg", restarts)
