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
import mmap
import os
import re
import secrets
import shutil
import stat
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    """Let Pillow open only `FORMATS`, for every caller in this process (reportlab and
    svglib open pictures through Pillow with no list of formats). Idempotent."""
    from PIL import Image

    Image.init()  # every plugin registered now, so none is added back by a later open
    Image.ID[:] = [name for name in Image.ID if name in FORMATS]


MAX_GAME_PIXELS = 200_000_000
"""Pixels of all the different pictures a game's layouts print, together: each is decoded
and embedded once per PDF, about a second per 40 million pixels in every language (many
pictures each just under `MAX_PIXELS` cost that many seconds per language). 250 card
illustrations at 300 dpi hold 200 million."""


MAX_JPEG_SCANS = 100
"""Scans of one JPEG file. libjpeg decodes every scan of a progressive JPEG over the whole
picture, and lets a scan repeat (a warning it does not stop on): a 1.4 MB file repeating a
59-byte scan 20,000 times over 36 million pixels kept `validate` busy 55 s of CPU, and the
time grows with the file. A progressive JPEG has about 10 scans (libjpeg, mozjpeg, jpegtran),
a baseline one 1 to 4; 100 refinement scans over `MAX_PIXELS` decode in about 3 s."""

_JPEG_MARKER = re.compile(rb"\xff([^\x00\xff])")
"""A marker as libjpeg reads one: 0xFF then its code (0xFF 0x00 is a stuffed data byte, and
0xFF 0xFF a fill byte before the marker's own 0xFF: this matches that last one), so the scan
of a file is linear."""
_STANDALONE = frozenset((0x01, 0xD8, *range(0xD0, 0xD8)))
"""Markers without a length (TEM, SOI, RSTn): what follows is the next marker or data."""


def jpeg_scans(data: bytes | mmap.mmap) -> int:
    """How many scans (SOS markers) libjpeg decodes in a JPEG file's `data`, counted up to
    its EOI, each marker segment skipped by its length (an EXIF thumbnail's own scans are
    not counted); counting stops just past `MAX_JPEG_SCANS`."""
    scans, position = 0, 0
    while scans <= MAX_JPEG_SCANS:
        found = _JPEG_MARKER.search(data, position)
        if found is None:
            break
        code, position = found.group(1)[0], found.end()
        if code == 0xD9:  # EOI: libjpeg reads no further
            break
        if code in _STANDALONE:
            continue
        if code == 0xDA:
            scans += 1
        position += max(2, int.from_bytes(data[position : position + 2], "big"))
    return scans


def _jpeg_problem(data: bytes | mmap.mmap) -> str | None:
    """Why a JPEG file costs too much to decode (too many scans), or None."""
    if jpeg_scans(data) > MAX_JPEG_SCANS:
        return (
            f"it is a JPEG of more than {MAX_JPEG_SCANS} scans: each scan is decoded over the"
            " whole picture, so that many cost minutes (a progressive JPEG has about 10);"
            " save it again"
        )
    return None


@contextmanager
def opened(source: Path | IO[bytes]) -> Iterator[PilImage]:
    """The picture in `source`, opened as one of `FORMATS` only, without Pillow's
    `DecompressionBombWarning` (the toolkit bounds pixels itself, below Pillow's limit).
    Raises ValueError for a JPEG of more than `MAX_JPEG_SCANS` scans (decoding it would take
    minutes; see `jpeg_scans`)."""
    from PIL import Image

    confine()
    why = _gif_source_problem(source)
    if why is not None:
        raise ValueError(why)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        with Image.open(source, formats=FORMATS) as image:
            if image.format in ("JPEG", "MPO") and (fp := image.fp) is not None:
                why = _jpeg_file_problem(fp)
                if why is not None:
                    raise ValueError(why)
            yield image


MAX_GIF_BLOCKS = 10_000
"""Data blocks of the extensions (comments, application data) before a GIF's first picture:
Pillow reads each in Python when it opens the file, so a 16 MB comment of 8 million one-byte
blocks cost 3.6 to 5.6 s of CPU per open (a picture is opened up to three times in
validate). A comment or an XMP packet takes a few hundred."""


def _gif_source_problem(source: Path | IO[bytes]) -> str | None:
    """`_gif_problem` of the file at `source` (a path or an open file, left where it was)."""
    if isinstance(source, Path):
        try:
            with open(source, "rb") as handle:
                return _gif_problem(handle)
        except OSError:
            return None  # Pillow's to say
    where = source.tell()
    try:
        return _gif_problem(source)
    finally:
        source.seek(where)


def _gif_problem(handle: IO[bytes]) -> str | None:
    """Why a GIF costs too much to open (more than `MAX_GIF_BLOCKS` extension data blocks
    before its first picture), or None (also for a file that is no GIF, or a damaged one:
    Pillow says that). Walks the blocks Pillow's `open` reads, one read per block."""
    handle.seek(0)
    head = handle.read(13)
    if len(head) < 13 or head[:6] not in (b"GIF87a", b"GIF89a"):
        return None
    if head[10] & 0x80:  # a global colour table
        handle.seek(3 * (2 << (head[10] & 7)), 1)
    blocks = 0
    while handle.read(1) == b"\x21":  # an extension (0x2C, a picture, ends the walk)
        handle.read(1)  # its label
        while (size := handle.read(1)) not in (b"", b"\x00"):
            blocks += 1
            if blocks > MAX_GIF_BLOCKS:
                return (
                    f"it is a GIF whose comments or extensions hold more than"
                    f" {MAX_GIF_BLOCKS:,} data blocks: opening it costs seconds; save it"
                    " again without them"
                )
            handle.seek(size[0], 1)
    return None


_SCANNED: dict[tuple[int, int, int, int], str | None] = {}
"""`_jpeg_problem` of the JPEG files already counted, by (device, inode, size, mtime): a
picture is opened up to three times in validate (its size, its check, its contrast), and a
file of the 256 MB bound was read whole each time."""


def _jpeg_file_problem(fp: Any) -> str | None:
    """`_jpeg_problem` of the file open in `fp`: mapped, not read into memory, and counted
    once per file (its identity and modification time)."""
    try:
        info = os.fstat(fp.fileno())
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        info = None  # not a file (a BytesIO): read it
    if info is None or not stat.S_ISREG(info.st_mode) or info.st_size == 0:
        where = fp.tell()
        fp.seek(0)
        try:
            return _jpeg_problem(fp.read())
        finally:
            fp.seek(where)
    key = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
    if key not in _SCANNED:
        with mmap.mmap(fp.fileno(), 0, access=mmap.ACCESS_READ) as data:
            why = _jpeg_problem(data)
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
        return None, "not a PNG, JPEG, GIF or WebP picture"
    except (OSError, SyntaxError, Image.DecompressionBombError) as exc:
        return None, f"damaged, or not a picture ({exc})"
    return size, None


MAX_FILE_BYTES = 256 * 1024 * 1024
"""Bytes of one picture file a game prints: `MAX_PIXELS` of 8-bit RGBA is 160 MB unpacked,
and a picture file holds them packed."""
_COPIES: dict[tuple[str, int, int, int, int], PictureCopy] = {}
_FOLDER: list[Path] = []


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
    OSError, or ValueError for a file over `MAX_FILE_BYTES`).

    The copy is read once, only from inside the game folder `root` (the file opened is
    checked): reportlab opens a picture by name, again when the page is drawn, and a picture
    switched to a link between a check and that open printed a picture of the user's. One
    copy per picture and version, named by its digest, so reportlab embeds it once per PDF."""
    from toolkit.fileio import read_bounded

    if _in_output(path, root):
        raise ValueError(
            "it lies in the game's output/ folder, where Playset writes what it builds and"
            " which validate's cache, the preview and the editor do not watch: keep the"
            " game's pictures in a folder of their own (art/)"
        )
    info = os.stat(path)
    key = (str(path), info.st_dev, info.st_ino, info.st_mtime_ns, info.st_size)
    kept = _COPIES.get(key)
    if kept is not None and kept.path.is_file():
        return kept
    if info.st_size > MAX_FILE_BYTES:  # not read at all
        raise ValueError(_too_large(info.st_size))
    data = read_bounded(path, MAX_FILE_BYTES, inside=root)
    if len(data) > MAX_FILE_BYTES:  # it grew after the stat
        raise ValueError(_too_large(len(data)))
    digest = hashlib.sha256(data).hexdigest()[:32]
    copy = _folder() / f"{digest}{path.suffix.lower()}"
    if not copy.is_file():
        staged = copy.with_name(f".{copy.name}.{secrets.token_hex(4)}")  # threads: the preview
        with open(staged, "wb") as handle:
            handle.write(data)
        os.replace(staged, copy)
    named = PictureCopy(os.fspath(copy))
    named.digest = digest
    named.path = copy
    _COPIES[key] = named
    return named


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
        atexit.register(shutil.rmtree, folder, True)
    return _FOLDER[0]


def discard() -> None:
    """Remove this process's picture copies now: a process that ends by `os._exit` (the
    language server, or any command, stopped by a signal) skips `atexit`, and left a copy
    of the game's art in the temporary folder for good."""
    if _FOLDER:
        shutil.rmtree(_FOLDER[0], ignore_errors=True)
        _FOLDER.clear()
        _COPIES.clear()
