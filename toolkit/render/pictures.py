"""What a game's artwork (a layout's `image`, the rulebook cover) may cost to print.

reportlab decodes a PNG whole, and copies it again to embed it: a 20 kB PNG of 13000×13000
one-bit pixels took 1.9 GB and half a minute per build, and Pillow refuses a picture only past
179 million pixels (printing its `DecompressionBombWarning` below that). So a picture is read
only if it has at most `MAX_PIXELS` pixels, and checked whole (`verify`, which decodes
nothing) so that a damaged file is a finding in validate, not an error half-way through a
build. Icons embed pictures under their own, smaller limit (toolkit.render.svg_guard).
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import io
import os
import secrets
import shutil
import stat
import struct
import tempfile
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:  # mmap (a C extension) is imported where a picture file is read
    import mmap

    from PIL.Image import Image as PilImage

MAX_PIXELS = 40_000_000
"""Pixels of one picture: an A2 board printed at 300 dpi is 35 million; the bundled games
have none."""
FORMATS = ("PNG", "JPEG", "GIF", "WEBP")
"""The picture formats Pillow may open for the toolkit, each decoded in the process. Pillow
recognises a file by its bytes, not its name, and decodes an EPS file by running the
Ghostscript found on PATH: an EPS named `art.png` in a game made `validate` and `build` run
`gs` on the game's PostScript program."""


def confine() -> None:
    """Let Pillow open only `FORMATS`, and inflate at most `MAX_PNG_TEXT` bytes of a PNG's
    text, for every caller in this process (reportlab and svglib open pictures through
    Pillow with no list of formats, and svglib once per `<use>`). Idempotent."""
    from PIL import Image, PngImagePlugin

    Image.init()  # every plugin registered now, so none is added back by a later open
    Image.ID[:] = [name for name in Image.ID if name in FORMATS]
    PngImagePlugin.MAX_TEXT_CHUNK = MAX_PNG_TEXT  # what an open of a PNG may inflate
    PngImagePlugin.MAX_TEXT_MEMORY = MAX_PNG_TEXT


MAX_GAME_PIXELS = 200_000_000
"""Pixels of all the different pictures a game's layouts print, together: each is decoded
and embedded once per PDF, about a second per 40 million pixels in every language (many
pictures each just under `MAX_PIXELS` cost that many seconds per language). 250 card
illustrations at 300 dpi hold 200 million."""


MAX_FACE_PIXELS = 80_000_000
"""Pixels of the pictures one card face draws, each image element's picture counted once
per element: a rasteriser (`export png`, the preview) resamples the whole picture for each
use on a page, about 2 ns a pixel (16 card-sized uses of one 36 M-pixel picture took
`export png` 1.3 s a face, probe 50 P50-8). Two pictures of `MAX_PIXELS` fit, about 0.2 s
a face; a 300-dpi poker card is 0.8 M pixels, and the bundled games draw none. validate
says P004 at a face past it, and a face draws the pictures that fit (`face_allows`)."""
_FACE_LEFT = "_playset_picture_pixels_left"
"""The canvas attribute counting the pixels the face being drawn may still draw."""


@contextmanager
def one_face(c: Any) -> Iterator[None]:
    """Draw one card face on the canvas `c`: its pictures may hold `MAX_FACE_PIXELS`
    together; what is drawn outside a face is not counted."""
    setattr(c, _FACE_LEFT, MAX_FACE_PIXELS)
    try:
        yield
    finally:
        delattr(c, _FACE_LEFT)


def face_allows(c: Any, count: int) -> bool:
    """Whether the face being drawn on `c` may still draw a picture of `count` pixels
    (always, outside a face), counted as drawn; once one does not fit, no further one does,
    as validate counts them (P004)."""
    left = getattr(c, _FACE_LEFT, None)
    if left is None:
        return True
    if count > left:
        setattr(c, _FACE_LEFT, -1)
        return False
    setattr(c, _FACE_LEFT, left - count)
    return True


PAID_PIXELS_PER_BYTE = 256
"""Pixels a picture's stored byte pays for, as far as decoding is concerned: each picture is
decoded whole (to RGB, three bytes a pixel) in every PDF, however small its file. Artwork
stays far below: photographs and illustrations hold 2 to 60 pixels a byte (JPEG, PNG; the
most, 64, a white JPEG), a flat-colour RGB or RGBA PNG (a disc on white) 110 to 300, a
palette or grey one up to 620, and one-bit line art (a disc) 230 to 1,700 from 500×500 to
6300×6300. A nearly blank one-bit PNG holds 2,300 (500×500) to 8,100 (6300×6300): 5 of
40 M pixels in 24 kB took 12 s and 500 MB to build."""
MAX_UNPAID_PIXELS = 16_000_000
"""Pixels of all the different pictures a game's layouts print that their files do not pay
for (beyond `PAID_PIXELS_PER_BYTE` a byte), together: reportlab holds a picture three to
four times over while it embeds it (decoded, as RGB bytes, compressed), 500 MB for 40 M
pixels, and that in every language's PDF; 16 M pixels take about 200 MB. A card
illustration (750×1050) or an A4 page at 300 dpi (8.7 M) of flat colour is paid for by its
file, as is any photograph or painting."""


def unpaid_pixels(pixels: int, stored: int) -> int:
    """The pixels of a picture of `stored` bytes that its bytes do not pay for."""
    return max(0, pixels - PAID_PIXELS_PER_BYTE * stored)


MAX_JPEG_SCANS = 100
"""Scans of one JPEG file. libjpeg decodes every scan of a progressive JPEG over the whole
picture, and lets a scan repeat (a warning it does not stop on): a 1.4 MB file repeating a
59-byte scan 20,000 times over 36 million pixels kept `validate` busy 55 s of CPU, and the
time grows with the file. A progressive JPEG has about 10 scans (libjpeg, mozjpeg, jpegtran),
a baseline one 1 to 4; 100 refinement scans over `MAX_PIXELS` decode in about 3 s."""

_MARKER_TABLE = bytes(
    2 if code == 0xFF else 0 if code == 0x00 or 0xD0 <= code <= 0xD7 else 1 for code in range(256)
)
"""A JPEG's bytes as `_next_marker` sees them: 0xFF is 2, a marker's code 1, and 0 the bytes
after 0xFF that make no marker (0x00: a stuffed data byte; 0xD0 to 0xD7: the restart markers
inside a scan's data, which libjpeg reads as data). So `\x02\x01` is a marker, found in C
(translate, find): a regular expression tried at each 0xFF took 7 s over a 128 MB file of
stuffed bytes or restart markers, one attempt per byte pair."""


def _next_marker(data: bytes | mmap.mmap, position: int) -> int:
    """Where the next marker of `data` from `position` starts (its 0xFF; of 0xFF fill bytes
    before a marker, the last one), or -1. The window translated grows from 4 kB (markers
    are usually close: each call costs about the distance to the next)."""
    size, window = len(data), 4096
    while position < size - 1:
        end = min(size, position + window)
        found = data[position:end].translate(_MARKER_TABLE).find(b"\x02\x01")
        if found >= 0:
            return position + found
        if end >= size:
            break
        position, window = end - 1, min(window * 2, 1 << 22)
    return -1


_STANDALONE = frozenset((0x01, 0xD8, *range(0xD0, 0xD8)))
"""Markers without a length (TEM, SOI, RSTn): what follows is the next marker or data."""

MAX_BLOCKS = 10_000
"""Metadata blocks Pillow reads one at a time in Python when it opens a picture, before its
pixels: a GIF's extension data blocks (and the stray bytes it skips one by one), a PNG's
chunks other than its pixel data, a JPEG's markers (and the stray bytes before its first
scan). Files of millions of empty blocks (16 MB) cost 21 to 68 s of CPU in validate (a
picture is opened per card and per check). A comment, an XMP packet or an ICC profile takes a
few hundred; a JPEG's metadata segments hold up to 64 KB each, so even a 256 MB file
(`MAX_FILE_BYTES`) of them is 4,096 markers."""
MAX_PNG_CHUNKS = 65_536
"""All the chunks of a PNG, its pixel data (IDAT, fdAT) too: Pillow reads each in Python to
verify or decode it. libpng writes pixel data in 8 KB chunks (Pillow in 64 KB), so a PNG of
the 256 MB file bound holds at most about 32,768."""


def _jpeg_walk(data: bytes | mmap.mmap) -> tuple[int, bool, int, int]:
    """The scans (SOS markers) libjpeg decodes in a JPEG file's `data`, counted up to its
    EOI, each marker segment skipped by its length (an EXIF thumbnail's own scans are not
    counted), and whether the file holds more than `MAX_BLOCKS` markers, or markers and
    stray bytes before its first scan (Pillow's `open` reads those one by one in Python):
    the walk stops there, or just past `MAX_JPEG_SCANS`. Then the pixels its frame header
    (SOF) says, and where its first scan starts (-1 if none)."""
    scans, steps, position, frame, first = 0, 0, 0, 0, -1
    while scans <= MAX_JPEG_SCANS:
        found = _next_marker(data, position)
        if found < 0:
            break
        if scans == 0:  # before the first scan, every byte between markers is one step
            steps += found - position
        steps += 1
        if steps > MAX_BLOCKS:
            return scans, True, frame, first
        code, position = data[found + 1], found + 2
        if code == 0xD9:  # EOI: libjpeg reads no further
            break
        if code in _STANDALONE:
            continue
        if code in _FRAMES and not frame and position + 7 <= len(data):
            frame = int.from_bytes(data[position + 3 : position + 5], "big") * int.from_bytes(
                data[position + 5 : position + 7], "big"
            )
        if code == 0xDA:
            scans += 1
            first = found if first < 0 else first
        position += max(2, int.from_bytes(data[position : position + 2], "big"))
    return scans, False, frame, first


def paid_file_bytes(path: Path) -> int:
    """`paid_bytes` of the picture file at `path` (0 when it cannot be read)."""
    import mmap

    try:
        with open(path, "rb") as file:
            if not os.fstat(file.fileno()).st_size:
                return 0
            with mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
                return paid_bytes(data)
    except (OSError, ValueError):
        return 0


_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
"""Start-of-frame markers (baseline, progressive, lossless…), which give the picture's size."""

MAX_SCANNED_PIXELS = 500_000_000
"""Pixels times scans of one JPEG: libjpeg runs each scan over the whole picture (~0.4 ns a
pixel a scan), and the picture is decoded again by each check that reads it and by each face
a rasteriser draws. Five pictures of 40 M pixels and 100 scans each (823 kB) took validate
7.2 s and `export png` 11.7 s, 1.7 s a decode (probe 52-9). A progressive JPEG of `MAX_PIXELS`
may have 12 scans (about 10 is usual), one of 5 M pixels `MAX_JPEG_SCANS`."""


def jpeg_scans(data: bytes | mmap.mmap) -> int:
    """How many scans (SOS markers) libjpeg decodes in a JPEG file's `data` (see
    `_jpeg_walk`); counting stops just past `MAX_JPEG_SCANS`."""
    return _jpeg_walk(data)[0]


def _jpeg_problem(data: bytes | mmap.mmap) -> str | None:
    """Why a JPEG file costs too much to open or decode (too many markers or scans, or
    scans over too many pixels), or None."""
    scans, too_many_markers, frame, _ = _jpeg_walk(data)
    if too_many_markers:
        return (
            f"it is a JPEG of more than {MAX_BLOCKS:,} markers (comments, metadata) or stray"
            " bytes: each is read one by one when it is opened, so that many cost seconds;"
            " save it again"
        )
    if scans > MAX_JPEG_SCANS:
        return (
            f"it is a JPEG of more than {MAX_JPEG_SCANS} scans: each scan is decoded over the"
            " whole picture, so that many cost minutes (a progressive JPEG has about 10);"
            " save it again"
        )
    if scans * frame > MAX_SCANNED_PIXELS:
        return (
            f"it is a progressive JPEG of {scans} scans over {frame:,} pixels: each scan is"
            f" decoded over the whole picture, more than {MAX_SCANNED_PIXELS:,} pixels in all"
            " each time it is read; save it again as a baseline JPEG, or smaller"
        )
    return None


def paid_bytes(data: bytes | mmap.mmap) -> int:
    """The bytes of a picture file that hold its pixels, which pay for decoding them
    (`PAID_PIXELS_PER_BYTE`): a PNG's, WebP's or GIF's pixel data (toolkit.render.
    picture_paid), a JPEG's scans (from its first to its end), any other file whole. A
    private PNG chunk or a JPEG comment of zeros paid for five flat pictures of 40 M pixels
    in a 795 kB game, whose `build` took 8.8 s (probe 52-10)."""
    from toolkit.render import picture_paid

    head = bytes(data[:12])
    if head[:8] == b"\x89PNG\r\n\x1a\n":
        return picture_paid.png_paid(data)
    if head[:2] == b"\xff\xd8":
        first = _jpeg_walk(data)[3]
        return len(data) - first if first >= 0 else 0
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return picture_paid.webp_paid(data)
    if head[:4] == b"GIF8":
        return picture_paid.gif_paid(data)
    return len(data)


def _gif_problem(data: bytes | mmap.mmap) -> str | None:
    """Why a GIF costs too much to open (more than `MAX_BLOCKS` extension data blocks, or
    stray bytes, before its first picture), or None (also for a damaged one: Pillow says
    that). Walks what Pillow's `open` reads one step at a time: a byte that is not `!`
    (an extension), `,` (the picture) or `;` (the end) is skipped, one step each."""
    size = len(data)
    if size < 13:
        return None
    position = 13 + (3 * (2 << (data[10] & 7)) if data[10] & 0x80 else 0)  # colour table
    steps = 0
    while position < size and steps <= MAX_BLOCKS:
        kind = data[position]
        position += 1
        if kind in (0x2C, 0x3B):  # the first picture, or the end: Pillow's open stops
            break
        steps += 1
        if kind != 0x21:  # a stray byte
            continue
        position += 1  # the extension's label
        while position < size and (length := data[position]) and steps <= MAX_BLOCKS:
            steps += 1
            position += 1 + length
        position += 1  # the 0 that ends its blocks
    if steps > MAX_BLOCKS:
        return (
            f"it is a GIF whose comments or extensions hold more than {MAX_BLOCKS:,} data"
            " blocks (or stray bytes): opening it costs seconds; save it again without them"
        )
    return None


MAX_PNG_TEXT = 256 * 1024
"""Bytes of text and colour profile a PNG's chunks hold once inflated (tEXt, zTXt, iTXt,
iCCP), together. Pillow inflates them into the picture's `info` each time it *opens* the
file, before any pixel, up to 1 MB a chunk and 64 MB a file by default: 63 zTXt chunks of
a 63 kB PNG took 0.5 s and 63 MB at each open, so validate 6 GB for an icon drawing it 490
times and half a second per card face for a card picture. The toolkit reads none of it; an
sRGB profile is 3 kB, the largest common one (ICC v4 sRGB) 60 kB, and the XMP a photo
editor writes a few to some tens of kB. Pillow's own limits are set to it (`confine`), so a
PNG opened by reportlab or svglib costs at most that much too."""


def _inflated(packed: bytes | mmap.mmap, most: int) -> int:
    """How many bytes the zlib stream `packed` inflates to, counted up to `most + 1`; a
    damaged stream counts what it inflates to before the damage (Pillow inflates as far,
    then keeps nothing)."""
    import zlib

    inflater, total = zlib.decompressobj(), 0
    for start in range(0, len(packed), 1 << 16):
        try:
            total += len(inflater.decompress(packed[start : start + (1 << 16)], most + 1 - total))
        except zlib.error:
            return total
        if total > most or inflater.unconsumed_tail or inflater.eof:
            break
    return total


_TEXT_CHUNKS = frozenset((b"tEXt", b"zTXt", b"iTXt", b"iCCP"))
"""The chunks whose text or profile Pillow keeps, or inflates, when it opens a PNG."""


def _chunk_text(kind: bytes, body: bytes | mmap.mmap, most: int) -> int:
    """The bytes Pillow keeps (or inflates) when it opens a text or profile chunk of `kind`
    holding `body`, counted up to `most + 1`; 0 for any other chunk."""
    if kind == b"tEXt":
        return len(body)
    if kind not in _TEXT_CHUNKS:
        return 0
    key = bytes(body[:80]).find(b"\0")
    if key < 0:
        return 0  # Pillow keeps nothing of it
    if kind == b"iTXt":  # key, flag, method, language, key again, text
        if key + 3 > len(body) or body[key + 1] == 0:
            return len(body)  # not compressed
        if body[key + 2] != 0:
            return 0  # a method Pillow does not inflate
        rest = bytes(body[key + 3 : key + 3 + 2048])
        first = rest.find(b"\0")
        second = rest.find(b"\0", first + 1) if first >= 0 else -1
        if second < 0:
            return 0
        return _inflated(body[key + 3 + second + 1 :], most)
    return _inflated(body[key + 2 :], most)  # zTXt, iCCP: key, method, stream


def _png_problem(data: bytes | mmap.mmap) -> str | None:
    """Why a PNG costs too much to open (more than `MAX_BLOCKS` chunks other than pixel
    data, or text and profile chunks inflating past `MAX_PNG_TEXT`) or to verify and decode
    (more than `MAX_PNG_CHUNKS` chunks), or None (also for a damaged one: Pillow says
    that). Walks the chunks by their lengths up to IEND."""
    size, position, chunks, metadata, text = len(data), 8, 0, 0, 0
    while position + 8 <= size:
        (length,) = struct.unpack_from(">I", data, position)
        kind = data[position + 4 : position + 8]
        chunks += 1
        if kind not in (b"IDAT", b"fdAT"):
            metadata += 1
        if metadata > MAX_BLOCKS or chunks > MAX_PNG_CHUNKS:
            return (
                f"it is a PNG of more than {MAX_BLOCKS:,} metadata chunks or"
                f" {MAX_PNG_CHUNKS:,} chunks in all: each is read one by one when it is"
                " opened, so that many cost seconds; save it again"
            )
        if kind == b"IEND":
            break
        if kind in _TEXT_CHUNKS:  # sliced only then: a pixel chunk is never copied here
            body = data[position + 8 : position + 8 + length]
            text += _chunk_text(kind, body, MAX_PNG_TEXT - text)
        if text > MAX_PNG_TEXT:
            return (
                f"it is a PNG whose text and colour profile chunks (metadata) hold more than"
                f" {MAX_PNG_TEXT:,} bytes once inflated: they are inflated each time it is"
                " opened; save it again without its metadata"
            )
        position += 12 + length
    return None


def _data_problem(data: bytes | mmap.mmap) -> str | None:
    """Why the picture file `data` costs too much to open or decode, or None: the blocks
    Pillow reads one at a time in Python are counted first, by the format its bytes say."""
    head = bytes(data[:8])
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return _gif_problem(data)
    if head == b"\x89PNG\r\n\x1a\n":
        return _png_problem(data)
    if head[:3] == b"\xff\xd8\xff":  # JPEG, and MPO (pictures in a row of JPEGs)
        return _jpeg_problem(data)
    return None


@contextmanager
def opened(source: Path | IO[bytes]) -> Iterator[PilImage]:
    """The picture in `source`, opened as one of `FORMATS` only, without Pillow's
    `DecompressionBombWarning` (the toolkit bounds pixels itself, below Pillow's limit).
    Raises ValueError for a picture of too many metadata blocks (Pillow would read them
    for seconds) or a JPEG of more than `MAX_JPEG_SCANS` scans (decoding it would take
    minutes; see `jpeg_scans`)."""
    from PIL import Image

    confine()
    why = _source_problem(source)
    if why is not None:
        raise ValueError(why)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        with Image.open(source, formats=FORMATS) as image:
            yield image


_SCANNED: dict[tuple[int, int, int, int], str | None] = {}
"""`_data_problem` of the files already counted, by (device, inode, size, mtime): a
picture is opened up to three times in validate (its size, its check, its contrast), and a
file of the 256 MB bound was read whole each time."""


def _source_problem(source: Path | IO[bytes]) -> str | None:
    """`_data_problem` of the file at `source` (a path or an open file, left where it
    was)."""
    if isinstance(source, Path):
        try:
            with open(source, "rb") as handle:
                return _file_problem(handle)
        except OSError:
            return None  # Pillow's to say
    return _file_problem(source)


def _file_problem(fp: Any) -> str | None:
    """`_data_problem` of the file open in `fp` (left where it was): mapped, not read into
    memory, and counted once per file (its identity and modification time)."""
    try:
        info = os.fstat(fp.fileno())
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        info = None  # not a file (a BytesIO): read it
    if info is None or not stat.S_ISREG(info.st_mode) or info.st_size == 0:
        where = fp.tell()
        fp.seek(0)
        try:
            return _data_problem(fp.read())
        finally:
            fp.seek(where)
    key = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
    if key not in _SCANNED:
        import mmap

        with mmap.mmap(fp.fileno(), 0, access=mmap.ACCESS_READ) as data:
            why = _data_problem(data)
        if len(_SCANNED) >= 4096:
            _SCANNED.clear()
        _SCANNED[key] = why
    return _SCANNED[key]


def _too_many(width: int, height: int) -> str:
    return (
        f"{width}×{height} px is more than the {MAX_PIXELS:,} pixels a picture may have"
        " (it is decoded whole to print); scale it down"
    )


def pixels(path: Path) -> tuple[int, int]:
    """The picture's size in pixels, read from its header (raises ValueError for one of
    more than `MAX_PIXELS`, OSError for a file that is no picture Pillow reads)."""
    from PIL import Image

    try:
        with opened(path) as image:
            width, height = image.size
    except Image.DecompressionBombError as exc:
        raise ValueError(
            f"it has more than the {MAX_PIXELS:,} pixels a picture may have (it is decoded"
            " whole to print); scale it down"
        ) from exc
    if width * height > MAX_PIXELS:
        raise ValueError(_too_many(width, height))
    return width, height


def problem(path: Path, root: Path) -> tuple[tuple[int, int] | None, str | None]:
    """The picture's size and why it cannot be printed (None: it can): not a picture,
    damaged or cut short, too many pixels, or a file larger than `MAX_FILE_BYTES`. It is
    read once, from inside the game folder `root`, into the private copy the build prints
    (`private_copy`), and checked there: a file switched after the caller's check is not
    opened by name."""
    from PIL import Image, UnidentifiedImageError

    try:
        copy = private_copy(path, root).path
        size = pixels(copy)
        with opened(copy) as image:
            image.verify()  # reads every chunk, decodes nothing
    except ValueError as exc:
        return None, str(exc)
    except UnidentifiedImageError:
        return None, NOT_A_PICTURE
    except (OSError, SyntaxError, Image.DecompressionBombError) as exc:
        return None, f"damaged, or not a picture ({exc})"
    return size, None


MAX_FILE_BYTES = 256 * 1024 * 1024
"""Bytes of one picture file a game prints: `MAX_PIXELS` of 8-bit RGBA is 160 MB unpacked,
and a picture file holds them packed."""
_COPIES: dict[tuple[str, int, int, int, int], PictureCopy] = {}
_FOLDER: list[Path] = []
KEPT_VERSIONS = 2
"""Versions of one picture whose copies are kept: the newest, and the one before it (a page
being drawn, or the preview's other thread, may still open that one). The preview and the
editor check a picture again at each save, and an image editor writes one in many calls:
a copy of every version, torn ones too, stayed until they stopped (55 copies, 165 MB, for
one picture saved five times)."""
_VERSIONS: dict[str, list[tuple[str, int, int, int, int]]] = {}  # a path → its keys
_USERS: dict[Path, int] = {}  # a copy → how many keys name it (one copy per digest)
_LOCK = threading.Lock()  # the preview checks pictures in threads


class PictureCopy(str):
    """A private copy's path, for reportlab to open; reportlab names a picture given by name
    in the PDF by that name (`'%s' % name`), so `str()` of it is the picture's digest: the
    PDF stays the same from run to run, and the same picture is embedded once."""

    digest: str
    path: Path  # the copy, as a Path (Path(copy) would take `str()` of it)

    def __str__(self) -> str:
        return f"picture:{self.digest}"


def private_copy(path: Path, root: Path) -> PictureCopy:
    """The picture at `path` as a private copy that reportlab may open by name (raises
    OSError, or ValueError for a file that cannot be a picture to print: see `_refusal`).

    The copy is read once, only from inside the game folder `root` (the file opened is
    checked): reportlab opens a picture by name, again when the page is drawn, and a picture
    switched to a link between a check and that open printed a picture of the user's. One
    copy per picture and version, named by its digest, so reportlab embeds it once per PDF.
    The file is opened once and looked at before it is read or copied: its size, whether it
    is sparse, its first bytes, the copies' bytes so far; then its bytes read are counted
    (`_data_problem`) before they are written out."""
    from toolkit.fileio import open_regular, read_open

    if _in_output(path, root):
        raise ValueError(
            "it lies in the game's output/ folder, where Playset writes what it builds and"
            " which validate's cache, the preview and the editor do not watch: keep the"
            " game's pictures in a folder of their own (art/)"
        )
    with open_regular(path, inside=root) as (fd, info):
        key = (str(path), info.st_dev, info.st_ino, info.st_mtime_ns, info.st_size)
        kept = _COPIES.get(key)
        if kept is not None and kept.path.is_file():
            return kept
        why = _REFUSED.get(key) or _refusal(fd, info)
        if why is None:
            if _held(info.st_size) > MAX_COPIES_BYTES:  # not read (the bound may change)
                raise ValueError(_too_many_bytes())
            data = read_open(fd, MAX_FILE_BYTES)
            # it grew after the stat; or its blocks, counted in the bytes read (never in a
            # map of the game's file, which another process may cut short under it)
            why = _too_large(len(data)) if len(data) > MAX_FILE_BYTES else _data_problem(data)
            why = why or _header_problem(data)
        if why is not None:
            if len(_REFUSED) >= 4096:
                _REFUSED.clear()
            _REFUSED[key] = why  # this version is not read again (a check per card)
            raise ValueError(why)
    digest = hashlib.sha256(data).hexdigest()[:32]
    copy = _folder() / f"{digest}{path.suffix.lower()}"
    if not copy.is_file():
        if _held(len(data)) > MAX_COPIES_BYTES:
            raise ValueError(_too_many_bytes())
        staged = copy.with_name(f".{copy.name}.{secrets.token_hex(4)}")  # threads: the preview
        with open(staged, "wb") as handle:
            handle.write(data)
        os.replace(staged, copy)
        _HELD[0] += len(data)
    _counted(copy)
    named = PictureCopy(os.fspath(copy))
    named.digest = digest
    named.path = copy
    _keep(key, named)
    return named


def _keep(key: tuple[str, int, int, int, int], named: PictureCopy) -> None:
    """Record the copy of a picture's version; the copy of the path's version before the
    last `KEPT_VERSIONS` is removed when no other key names it."""
    with _LOCK:
        _USERS[named.path] = _USERS.get(named.path, 0) + 1
        _release(key)  # a copy made again (it was gone): counted once, and not removed
        _COPIES[key] = named
        versions = _VERSIONS.setdefault(key[0], [])
        versions.append(key)
        while len(versions) > KEPT_VERSIONS:
            _release(versions.pop(0))


def _release(key: tuple[str, int, int, int, int]) -> None:
    named = _COPIES.pop(key, None)
    if named is None:
        return
    with contextlib.suppress(ValueError):
        _VERSIONS.get(key[0], []).remove(key)
    users = _USERS.pop(named.path, 1) - 1
    if users > 0:
        _USERS[named.path] = users
    else:
        with contextlib.suppress(OSError):
            named.path.unlink()


MAX_COPIES_BYTES = 2 * 1024 * 1024 * 1024
"""Bytes of all the private copies a process holds (`private_copy`), as `MAX_GAME_PIXELS`
bounds the pixels a game prints: each picture is read, hashed and written to the temporary
folder (RAM where /tmp is a tmpfs) before it is printed. 250 card illustrations of the
pixel bound take some hundreds of MB as PNG files."""
_REFUSED: dict[tuple[str, int, int, int, int], str] = {}
"""Why each picture file version `private_copy` refused was refused, by its key in
`_COPIES`: validate asks about a picture once per card and per check."""
_HELD = [0]
"""Bytes this process wrote into its copies' folder (copies removed since are still in)."""


def _held(more: int) -> int:
    """The bytes the copies' folder would hold with `more` added: the running count, or,
    once that says it is past `MAX_COPIES_BYTES`, what the folder holds now (a copy of an
    older version may have been removed)."""
    if _HELD[0] + more <= MAX_COPIES_BYTES:
        return _HELD[0] + more
    held = 0
    with contextlib.suppress(OSError), os.scandir(_folder()) as entries:
        for entry in entries:
            with contextlib.suppress(OSError):
                held += entry.stat(follow_symlinks=False).st_size
    _HELD[0] = held
    return held + more


def _too_many_bytes() -> str:
    return (
        f"with it, the pictures read in this run are more than {MAX_COPIES_BYTES:,} bytes"
        " together (each is copied before it is printed); save them smaller, or use fewer"
    )


def _refusal(fd: int, info: os.stat_result) -> str | None:
    """Why the picture file open as `fd` is not read at all: larger than `MAX_FILE_BYTES`,
    sparse (see fileio.sparse), or no PNG, JPEG, GIF or WebP by its first bytes; or None.
    Each reads at most its first 16 bytes."""
    from toolkit.fileio import sparse, sparse_refusal

    if info.st_size > MAX_FILE_BYTES:
        return _too_large(info.st_size)
    if sparse(fd, info):
        return "it is " + sparse_refusal(info, "picture saved by a program")
    if not _is_picture(os.pread(fd, 16, 0)):
        return NOT_A_PICTURE
    return None


NOT_A_PICTURE = "not a PNG, JPEG, GIF or WebP picture"


def _is_picture(head: bytes) -> bool:
    """Whether a file's first bytes are those Pillow knows one of `FORMATS` by."""
    return head.startswith((b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a")) or (
        head.startswith(b"RIFF") and head[8:12] == b"WEBP"
    )


def _header_problem(data: bytes) -> str | None:
    """Why the picture file's bytes `data` are no picture to print, as Pillow reads their
    header (`problem` says the same of the copy), or None: a file Pillow cannot open is not
    copied (before, 28 files of 250 MB named `.png` were, 7 GB). Its blocks are counted
    already (`_data_problem`), so opening it costs what a header does."""
    from PIL import Image, UnidentifiedImageError

    confine()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=FORMATS) as image:
                width, height = image.size
    except UnidentifiedImageError:
        return NOT_A_PICTURE
    except Image.DecompressionBombError:
        return (
            f"it has more than the {MAX_PIXELS:,} pixels a picture may have (it is decoded"
            " whole to print); scale it down"
        )
    except (OSError, SyntaxError, ValueError) as exc:
        return f"damaged, or not a picture ({exc})"
    return _too_many(width, height) if width * height > MAX_PIXELS else None


def _counted(copy: Path) -> None:
    """Record that the copy's bytes passed `_data_problem` (they were counted before they
    were written), so that opening the copy does not count them again."""
    with contextlib.suppress(OSError):
        info = os.stat(copy)
        if len(_SCANNED) >= 4096:
            _SCANNED.clear()
        _SCANNED[(info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)] = None


def _in_output(path: Path, root: Path) -> bool:
    """Whether `path` resolves into the game folder's top-level `output/` (however its
    name was spelt: a YAML escape, a template, a link)."""
    try:
        output = os.stat(os.path.join(root, "output"))
    except OSError:
        return False
    folder = Path(os.path.realpath(path)).parent
    top = os.path.realpath(root)
    # by identity, not by name: a file system that ignores case reads `Output/` as it
    while folder.is_relative_to(top):
        with contextlib.suppress(OSError):
            info = os.stat(folder)
            if (info.st_dev, info.st_ino) == (output.st_dev, output.st_ino):
                return True
        if folder == folder.parent:
            break
        folder = folder.parent
    return False


def _too_large(size: int) -> str:
    return (
        f"the file is {size:,} bytes, more than the {MAX_FILE_BYTES:,} a picture file may"
        " have; save it smaller (compressed)"
    )


def _folder() -> Path:
    """This process's private folder of picture copies, removed at exit."""
    if not _FOLDER or not _FOLDER[0].is_dir():
        folder = Path(tempfile.mkdtemp(prefix="playset-pictures-"))  # mode 0700
        _FOLDER[:] = [folder]
        _HELD[0] = 0
        atexit.register(shutil.rmtree, folder, True)
    return _FOLDER[0]


def own_folder() -> Path | None:
    """This process's private folder of picture copies, if it has made one (a forked child
    that makes its own removes it: `toolkit.forks`)."""
    return _FOLDER[0] if _FOLDER else None


def discard() -> None:
    """Remove this process's picture copies now: a process that ends by `os._exit` (the
    language server, or any command, stopped by a signal) skips `atexit`, and left a copy
    of the game's art in the temporary folder for good."""
    if _FOLDER:
        shutil.rmtree(_FOLDER[0], ignore_errors=True)
        _FOLDER.clear()
        with _LOCK:
            _COPIES.clear()
            _VERSIONS.clear()
            _USERS.clear()
        _REFUSED.clear()
        _HELD[0] = 0
        for hook in _ON_DISCARD:
            hook()


_ON_DISCARD: list[Callable[[], None]] = []
"""What forgets objects made from the copies (`picture_objects` registers its `forget`)."""


def on_discard(hook: Callable[[], None]) -> None:
    """Have `discard` call `hook` once the copies are gone."""
    _ON_DISCARD.append(hook)
