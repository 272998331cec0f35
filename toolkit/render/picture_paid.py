"""The bytes of a PNG, WebP or GIF file that hold its pixels (toolkit.render.pictures
`paid_bytes`): what pays for decoding a picture is its pixel data, not a chunk, comment or
trailing bytes that pad the file. A WebP's unknown chunk, a GIF's trailing bytes and a pixel
chunk after a PNG's end paid for five flat pictures of 40 M pixels in an 819 kB game, whose
`build` took 5.6 s and 4.6 s of system time (probe 54-4)."""

from __future__ import annotations

import mmap
import struct

Data = bytes | mmap.mmap


def png_paid(data: Data) -> int:
    """A PNG's pixel chunks (IDAT, fdAT) up to its end (IEND: a decoder reads no further)."""
    size, position, paid = len(data), 8, 0
    while position + 8 <= size:
        (length,) = struct.unpack_from(">I", data, position)
        kind = data[position + 4 : position + 8]
        if kind == b"IEND":
            break
        if kind in (b"IDAT", b"fdAT"):
            paid += min(length, size - position - 8)
        position += 12 + length
    return paid


_WEBP_IMAGE = frozenset((b"VP8 ", b"VP8L", b"ALPH", b"ANMF"))
"""A WebP's chunks that hold pixels (its image, its alpha, its animation's frames)."""


def webp_paid(data: Data) -> int:
    """A WebP's image chunks (`_WEBP_IMAGE`), its other chunks left out."""
    size, position, paid = len(data), 12, 0
    while position + 8 <= size:
        kind = bytes(data[position : position + 4])
        (length,) = struct.unpack_from("<I", data, position + 4)
        if kind in _WEBP_IMAGE:
            paid += min(length, size - position - 8)
        position += 8 + length + (length & 1)
    return paid


def gif_paid(data: Data) -> int:
    """A GIF's pictures' data blocks up to its end (`;`), its extensions (comments,
    application data) and stray or trailing bytes left out."""
    size = len(data)
    if size < 13:
        return 0
    position = 13 + (3 * (2 << (data[10] & 7)) if data[10] & 0x80 else 0)  # colour table
    paid = 0
    while position < size:
        kind = data[position]
        position += 1
        if kind == 0x3B:  # the end
            break
        if kind == 0x21:  # an extension: its label, then its blocks
            position += 1
        elif kind == 0x2C:  # a picture: its descriptor, colour table and code size
            if position + 9 > size:
                break
            flags = data[position + 8]
            position += 9 + (3 * (2 << (flags & 7)) if flags & 0x80 else 0) + 1
        else:
            continue  # a stray byte
        while position < size and (length := data[position]):
            paid += min(length, size - position - 1) if kind == 0x2C else 0
            position += 1 + length
        position += 1  # the 0 that ends its blocks
    return paid
