"""A game's own fonts: TrueType files in its `fonts/` folder, named by family and style.

Layouts (`font:` on a text or badge), boards (`style.font`) and the rulebook (`style:` in
game.yaml) name a family as the font file calls itself (its name table's family, as a font
menu shows it) and a style (regular, bold, italic, bolditalic, read from the file's own bits).
Each file is read and registered with reportlab, which embeds the subset of glyphs a PDF
uses; a file it refuses is examined with fontTools to say why. A file that is no font, a
font with PostScript (CFF) outlines, or a file outside the game folder gives no face and a
problem that `validate` reports (P009); a family or style nobody ships is reported where it
is named (P010).
"""

from __future__ import annotations

import collections
import hashlib
import heapq
import io
import itertools
import math
import operator
import os
import struct
import threading
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from toolkit.content.assets import steady_memo
from toolkit.content.game import display_path
from toolkit.fileio import (
    MISSING,
    FileVersion,
    file_version,
    open_regular,
    read_open,
    real_path,
    sparse,
    sparse_refusal,
)
from toolkit.render.fonts import FILES, register_face

FOLDER = "fonts"
SUFFIXES = (".ttf", ".otf")
MAX_BYTES = 64 * 1024 * 1024  # a CJK font with every ideograph is ~20 MB
DEFAULT = "Noto Sans"  # the toolkit's own family (templates/fonts)
STYLES = tuple(FILES)  # regular, bold, italic, bolditalic
NEAREST = {  # a style, then the family's styles that stand in for it, nearest first
    "regular": ("regular", "bold", "italic", "bolditalic"),
    "bold": ("bold", "regular", "bolditalic", "italic"),
    "italic": ("italic", "regular", "bolditalic", "bold"),
    "bolditalic": ("bolditalic", "bold", "italic", "regular"),
}


@dataclass(frozen=True)
class FontProblem:
    """Why a font file gives no face."""

    file: str
    message: str


@dataclass(frozen=True, eq=False)  # one object per game folder's files (cached): hashed by id
class FontSet:
    """The faces a game can print with: its own files' by (family, style), then Noto Sans (a
    game's own file of that family name wins, as a game's layouts and icons do).

    `main` is the family the game prints with where nothing names one (game.yaml
    `style.font`; None: the toolkit's Noto Sans)."""

    faces: Mapping[tuple[str, str], str] = field(default_factory=dict)
    families: Mapping[str, str] = field(default_factory=dict)  # casefolded -> as written
    files: Mapping[str, str] = field(default_factory=dict)  # face key -> display path
    problems: tuple[FontProblem, ...] = ()
    main: str | None = None

    def face(self, family: str | None, style: str = "regular") -> str:
        """The face that prints `style` of `family` (None: the game's main family). A style
        the family lacks prints in its nearest one (most CJK fonts have no italic: the
        rulebook's italics print upright); a family the game lacks prints in Noto Sans, and
        `validate` reports it (`missing`)."""
        family = family or self.main
        if family is None:
            return style
        folded = family.casefold()
        for nearest in NEAREST[style]:
            found = self.faces.get((folded, nearest))
            if found is not None:
                return found
        return style  # Noto Sans's own

    def missing(self, family: str | None, style: str | None = "regular") -> str | None:
        """Why `family` in `style` cannot print (None when it can; style None: any style)."""
        family = family or self.main
        if family is None:
            return None
        folded = family.casefold()
        if folded not in self.families and _is_default(family):
            return None  # the toolkit's own, unless the game brings a font of that name
        if folded not in self.families:
            have = ", ".join(sorted(self.families.values())) or "none"
            unread = f"; {len(self.problems)} file(s) cannot be read" if self.problems else ""
            return (
                f"no font family {family!r} in the game's {FOLDER}/ folder (it has: {have}"
                f"{unread}); the toolkit's own is {DEFAULT!r}"
            )
        if style is not None and (folded, style) not in self.faces:
            have = ", ".join(s for s in STYLES if (folded, s) in self.faces)
            return f"font family {self.families[folded]!r} has no {style} style (it has: {have})"
        return None

    def describe(self, face: str) -> str:
        """How a finding names a face: family and style, and its file for a game's own."""
        if face in FILES:
            return f"{DEFAULT} {face}"
        family, style = face.rsplit("@", 1)[0].rsplit("-", 1)
        return f"{family} {style} ({self.files.get(face, FOLDER)})"


NO_FONTS = FontSet()


def _is_default(family: str) -> bool:
    return family.casefold() in (DEFAULT.casefold(), DEFAULT.replace(" ", "").casefold())


def font_set(game_root: Path | None, main: str | None = None) -> FontSet:
    """The fonts of the game in `game_root` (read once while its files stay as they are;
    looked at once in a run of the checks, `assets.steady`: each face of each card asks,
    ~4,500 times a check of 1,000 one-card decks, each listing the folder and resolving
    its path)."""
    if game_root is None:
        return _read_set(None, (), main)
    memo = steady_memo()
    if memo is None:
        return _font_set(game_root, main)
    key = ("fonts", game_root, main)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _font_set(game_root, main)
    return found


def _font_set(game_root: Path, main: str | None) -> FontSet:
    folder = game_root / FOLDER
    if folder.is_dir() and not real_path(folder).is_relative_to(real_path(game_root)):
        return _outside_set(display_path(folder), main)
    stamp: list[tuple[str, FileVersion]] = []
    for path in (folder / name for name in _font_names(folder)):
        try:
            info = path.stat()
        except OSError:  # a dangling link: read_face says so
            stamp.append((path.name, MISSING))
            continue
        # with its inode and ctime: a same-size replacement keeping the mtime is read anew
        stamp.append((path.name, file_version(info)))
    return _read_set(real_path(game_root), tuple(stamp), main)


def _font_names(folder: Path) -> list[str]:
    """The names of the folder's font files in order, the first `MAX_FILES` and one more
    (which says the rest are not read): a folder of 300,000 files was listed and sorted
    whole at every check."""
    try:
        with os.scandir(folder) as entries:
            names = (e.name for e in entries if os.path.splitext(e.name)[1].lower() in SUFFIXES)
            return heapq.nsmallest(MAX_FILES + 1, names)
    except OSError:  # no folder (or not one): no fonts of the game's own
        return []


@cache
def _outside_set(display: str, main: str | None) -> FontSet:
    """The fonts of a game whose fonts/ folder links outside it: none read, nor listed (its
    files' names were findings, as a folder of the user's)."""
    why = (
        f"the {FOLDER}/ folder links outside the game folder, so it is not read; copy the fonts in"
    )
    return FontSet(problems=(FontProblem(display, why),), main=main)


@cache
def _read_set(
    root: Path | None, stamp: tuple[tuple[str, FileVersion], ...], main: str | None
) -> FontSet:
    """One FontSet per game folder's font files as they are (the checks' caches key on it)."""
    faces: dict[tuple[str, str], str] = {}
    families: dict[str, str] = {}
    shown: dict[str, str] = {}
    problems: list[FontProblem] = []
    room, codes = MAX_TOTAL_BYTES, MAX_GAME_CODES
    for index, (name, _version) in enumerate(stamp):
        assert root is not None  # a stamp lists files of a game folder
        path = root / FOLDER / name
        display = display_path(path)
        if index >= MAX_FILES:
            problems.append(FontProblem(display, _too_many_files()))
            continue
        read, size, mapped = _read_face(path, root, room, codes)
        room, codes = room - size, codes - mapped
        if isinstance(read, str):
            problems.append(FontProblem(display, read))
            continue
        family, style, key = read
        slot = (family.casefold(), style)
        if slot in faces:
            first = shown[faces[slot]]
            problems.append(FontProblem(display, f"{family} {style} is also {first}; one is used"))
            continue
        faces[slot] = key
        families.setdefault(family.casefold(), family)
        shown[key] = display
    return FontSet(faces, families, shown, tuple(problems), main)


MAX_FILES = 100
"""Font files of a game's `fonts/` folder that are read (in the order of their names): a
family prints in four styles, and each file costs a parse and its subsets (0.23 s for
DejaVu Sans); 200 files in fonts/ were each read whole."""
MAX_TOTAL_BYTES = 512 * 1024 * 1024
"""Bytes of all a game's font files read together (each is at most `MAX_BYTES`): a few CJK
families in four styles are some hundreds of MB."""
MAX_GAME_CODES = 0x110000  # as MAX_CODES, for one font
"""Code points the character maps of all a game's font files read map together: all of
Unicode once. reportlab keeps a dict entry and a width per code point of every face read,
for the life of the process (~140 bytes each): 30 fonts of 684 bytes, each mapping all of
Unicode onto one glyph, took 3.9 GB (probe 44 F1). A CJK family maps ~65,000 in each of
its four styles."""


def _too_many_files() -> str:
    return (
        f"the {FOLDER}/ folder holds more than {MAX_FILES} font files; this one (and those"
        " after it by name) is not read: keep the families the game prints with"
    )


def read_face(path: Path, root: Path) -> tuple[str, str, str] | str:
    """(family, style, registered key) of one font file, or why it gives no face.

    reportlab reads it (the glyphs and the character map it prints with are the ones P002
    checks), its own tables give the family and style; a file it refuses is looked at with
    fontTools, to say what it is instead (PostScript outlines, a web font, no font)."""
    return _read_face(path, root, MAX_TOTAL_BYTES, MAX_GAME_CODES)[0]


def _read_face(
    path: Path, root: Path, room: int, codes: int
) -> tuple[tuple[str, str, str] | str, int, int]:
    """`read_face`, reading no more than `room` bytes (what is left of `MAX_TOTAL_BYTES`)
    and registering no face whose character map maps more than `codes` code points (what
    is left of `MAX_GAME_CODES`); and the bytes read and code points mapped. The file is
    opened once and looked at before it is read: its size, and whether it is sparse."""
    real = real_path(path)
    if not real.is_relative_to(root):
        return "the font file leaves the game folder (a link to elsewhere); copy it in", 0, 0
    try:
        with open_regular(real, inside=root) as (fd, info):
            why = _refusal(fd, info, room)
            if why is not None:
                return why, 0, 0
            data = read_open(fd, MAX_BYTES)
    except OSError as exc:
        return f"cannot read the font file: {exc.strerror or exc}", 0, 0
    mapped = cmap_codes(data)
    if codes < mapped <= MAX_CODES:  # past MAX_CODES, `_face` says it is no real font
        return (
            (
                f"with it, the game's fonts map more than {MAX_GAME_CODES:,} code points together"
                f" (this one {mapped:,}); it is not read: keep the families the game prints with"
                f" in {FOLDER}/"
            ),
            len(data),
            0,
        )
    face = _kept_face(data, mapped)
    return face, len(data), mapped if not isinstance(face, str) else 0


MAX_PROCESS_CODES = 4 * MAX_GAME_CODES
"""Code points the font files one process reads may map together, each file's bytes
counted once. reportlab keeps every face registered for the life of the process, and the
preview and the language server read each new version of a font saved: 25 saves of one
684-byte font mapping all of Unicode took the preview to 3.3 GB (probe 45 F2). A CJK family
in four styles maps ~260,000: saved 17 times, the preview asks to be started again."""

_KEPT: dict[str, int] = {}  # code points of each font file's bytes read, by its digest
_KEPT_LOCK = threading.Lock()


def _kept_face(data: bytes, mapped: int) -> tuple[str, str, str] | str:
    """`_face`, unless the fonts this process has read map too many code points together
    with this one (a file read before costs nothing more)."""
    digest = hashlib.sha256(data).hexdigest()  # `_face` names the registered face by it too
    with _KEPT_LOCK:
        full = digest not in _KEPT and sum(_KEPT.values()) + mapped > MAX_PROCESS_CODES
    if full and mapped <= MAX_CODES:  # past MAX_CODES, `_face` says it is no real font
        return (
            f"the fonts this process has read map more than {MAX_PROCESS_CODES:,} code"
            " points together (each version of a font saved is kept): not read; start"
            " the preview or the editor again"
        )
    face = _face(data, digest)
    if not isinstance(face, str):  # registered: kept for the life of the process
        with _KEPT_LOCK:
            _KEPT.setdefault(digest, mapped)
    return face


def _refusal(fd: int, info: os.stat_result, room: int) -> str | None:
    """Why the font file open as `fd` is not read at all (too large, sparse, or past what
    is left of the game's font bytes), or None."""
    if info.st_size > MAX_BYTES:
        return f"the font file is larger than the limit of {MAX_BYTES:,} bytes"
    if sparse(fd, info):
        return "the font file is " + sparse_refusal(info, "font saved by a program")
    if info.st_size > room:
        return (
            f"with it, the game's font files are more than {MAX_TOTAL_BYTES:,} bytes"
            f" together; it is not read: keep the families the game prints with in {FOLDER}/"
        )
    return None


def _face(data: bytes, sha256: str) -> tuple[str, str, str] | str:
    """(family, style, registered key) of the font file's bytes `data` (whose SHA-256 is
    `sha256`, in hex), or why they give no face."""
    if len(data) > MAX_BYTES:
        return f"the font file is larger than the limit of {MAX_BYTES:,} bytes"
    too_many = repeated_table(data) or cmap_problem(data) or subset_problem(data)
    if too_many is not None:
        return too_many
    digest = sha256[:12]
    from toolkit.render.subset_tags import TaggedTTFont

    try:
        font = TaggedTTFont(digest, io.BytesIO(data))  # the bytes checked, not a reopen
        _unhinted(font.face)  # before any subset is made, `validate`'s too
        family, style = _family_and_style(font.face)
        named = _components(data)
        _subsets(font.face, data, named)  # refuses a costly font before making any subset
        _outlines(font.face, data, named)
    except _CostlyFont as exc:
        return str(exc)
    except MemoryError:  # reportlab's own structures for it: no "cannot embed" with no reason
        return "reading the font needs more memory than the machine gives; not read"
    except Exception as exc:  # reportlab meets a damaged file with any error (its own bugs)
        return diagnose(data, exc)
    key = f"{family}-{style}@{digest}"
    font.fontName = key
    # reportlab shares one font among files of the same PostScript name (a designer's own
    # full Noto Sans would print as the toolkit's subset, a changed file as the old one):
    # the file's digest in its PDF name keeps every file its own glyphs
    font.face.name += f"-{digest[:8]}".encode()  # bytes, as reportlab keeps it
    register_face(key, font)
    return family, style, key


MAX_CODES = 0x110000
"""Code points one character map (cmap subtable) may map: all of Unicode. reportlab makes a
dict entry per code point a subtable maps, and a 12-byte format-12 group can name four
billion (a 158 kB font in fonts/ took 4 GB in 24 s, then MemoryError)."""


def repeated_table(data: bytes) -> str | None:
    """Why the font is not read if its table directory lists a table twice (None: it
    does not, or it cannot be read: reportlab then says what it finds). The checks here
    read a table's first listing and reportlab its last: a second `loca` made a 3 MB font
    take 16 s, a second `fpgm` passed the bound on tables copied into subsets (probe 45 F4)."""
    try:
        tags = [tag for tag, _, _ in _directory(data)]
    except struct.error:
        return None
    seen: set[bytes] = set()
    for tag in tags:
        if tag in seen:
            shown = tag.decode("latin-1").strip()
            return (
                f"its table directory lists the {shown!r} table twice: a damaged or hostile"
                " font, not read"
            )
        seen.add(tag)
    return None


def _directory(data: bytes) -> list[tuple[bytes, int, int]]:
    """The table directory: each table's tag, offset and length, in the file's order (a
    collection's first font's; raises struct.error past the data)."""
    start = struct.unpack_from(">L", data, 12)[0] if data[:4] == b"ttcf" else 0
    count = struct.unpack_from(">H", data, start + 4)[0]
    listed = (struct.unpack_from(">4sLLL", data, start + 12 + 16 * i) for i in range(count))
    return [(tag, offset, length) for tag, _, offset, length in listed]


def _tables(data: bytes) -> dict[bytes, tuple[int, int]]:
    """The offset and length of each table, by tag (raises struct.error past the data)."""
    tables: dict[bytes, tuple[int, int]] = {}
    for tag, offset, length in _directory(data):
        tables.setdefault(tag, (offset, length))
    return tables


HINTING = ("cvt ", "fpgm", "prep")
"""The TrueType hinting tables: the instructions (fpgm, prep) and values (cvt) that fit a
glyph's outline to the pixel grid. reportlab copies them whole into every subset it embeds."""
MAX_HINTING = 64 * 1024
"""Bytes of a game font's hinting tables kept in the subsets its PDFs embed: a real font's
are 0 to ~4 kB (of 80 TrueType fonts, the most a Liberation Mono's 4,274; DejaVu Sans 2,065;
the toolkit's Noto Sans 4,157). Past it they are left out (`_unhinted`)."""


def _unhinted(face: Any) -> None:
    """Leave the game font `face`'s hinting tables out of every subset reportlab makes of it
    (its `makeSubset` copies those its table directory lists, skipping those it lacks) when
    they hold more than `MAX_HINTING` bytes together.

    A subset's bytes are then its glyphs' and a few kB: a 600 kB fpgm was copied into each
    of the ten subsets a PDF printing 2,560 CJK characters makes, in each language's PDFs
    (a 20-language game of 899 kB wrote 255 MB of PDFs in 5.7 s; probe62-7). Ordinary
    hinting is kept: PDFium (export png, the preview, Chrome's viewer) runs it, so a real
    font's pages render as before (without it, 161 of 161 card images of a game printing in
    DejaVu Sans differed at the text's edges), and FreeType's "tricky" CJK fonts place their
    glyphs' parts by it. Left out, the glyphs print unhinted: the same outlines."""
    if sum(face.table[tag]["length"] for tag in HINTING if tag in face.table) > MAX_HINTING:
        for tag in HINTING:
            face.table.pop(tag, None)


MAX_COPIED = 64 * 1024
"""Bytes of the tables reportlab copies whole into every subset of a game font it embeds
besides the hinting ones (`MAX_HINTING`): name and OS/2. A real font's are a few kB (the
largest name of 80 TrueType fonts: AR PL UKai's 22,293 bytes; DejaVu Sans's 15,933; an OS/2
is 78 to 100 bytes). A 20 MB fpgm was copied into each of the 4,300 subsets `validate`
checks (past 90 s), and into each subset a PDF embeds: each 256 distinct characters it
prints in a font make one, in each language's PDFs (probe62-7: ten a PDF, 40 PDFs)."""
COPIED = (b"name", b"OS/2")


def subset_problem(data: bytes) -> str | None:
    """Why every subset of the font would copy far more than its own glyphs, read from the
    table bytes alone: tables copied whole into each subset past `MAX_COPIED`, or glyph
    locations (loca) that go back or past the glyf table, so that many glyphs name the same
    bytes (a 170 kB font made 35 MB subsets). None for every real font (and for one too
    damaged to tell: reportlab then says what it finds)."""
    try:
        tables = _tables(data)
        copied = {tag: tables[tag][1] for tag in COPIED if tag in tables}
        if sum(copied.values()) > MAX_COPIED:
            sizes = ", ".join(f"{tag.decode().strip()} {size:,}" for tag, size in copied.items())
            return (
                f"the tables every embedded subset copies whole hold more than {MAX_COPIED:,}"
                f" bytes ({sizes}): a damaged or hostile font, not read"
            )
        offsets = _glyph_offsets(data, tables)
    except struct.error:
        return None
    if offsets is None:
        return None
    if any(b < a for a, b in itertools.pairwise(offsets)) or offsets[-1] > tables[b"glyf"][1]:
        return (
            "its glyph locations (loca) go back or past the glyf table, so that glyphs share"
            " their outlines' bytes: a damaged or hostile font, not read"
        )
    return None


def _glyph_offsets(data: bytes, tables: dict[bytes, tuple[int, int]]) -> tuple[int, ...] | None:
    """Where each glyph's outline starts in the glyf table, and where the last ends (the
    loca table, numGlyphs + 1 offsets as reportlab reads them); None without those tables
    (raises struct.error past the data)."""
    if not {b"head", b"maxp", b"loca", b"glyf"} <= tables.keys():
        return None
    long_format = struct.unpack_from(">h", data, tables[b"head"][0] + 50)[0] == 1
    glyphs = struct.unpack_from(">H", data, tables[b"maxp"][0] + 4)[0]
    at = tables[b"loca"][0]
    if long_format:
        return tuple(struct.unpack_from(f">{glyphs + 1}L", data, at))
    return tuple(2 * o for o in struct.unpack_from(f">{glyphs + 1}H", data, at))


MAX_COMPONENTS = 500_000
"""Component references of a font's composite glyphs (an accented letter names two or three;
a CJK font tens of thousands in all)."""
MAX_SUBSET_GLYPHS = 1_000_000
"""Glyphs the subsets `validate` makes of a font may hold, each composite's components
counted: reportlab copies a subset's composite glyphs with every glyph they name, and their
components, at some 8 µs a glyph. A 2 MB font of 65,535 glyphs where one composite in each
256 named all the others made 256 subsets of every glyph (past 90 s)."""


class _CostlyFont(Exception):
    """The font's subsets would cost far more than its glyphs (the message says why)."""


def _components(data: bytes) -> dict[int, list[int]]:
    """The glyphs each composite glyph names, by glyph index (empty for a damaged file:
    reportlab then says what it finds); raises _CostlyFont past `MAX_COMPONENTS`."""
    try:
        tables = _tables(data)
        offsets = _glyph_offsets(data, tables)
    except struct.error:
        return {}
    if offsets is None:
        return {}
    glyf = tables[b"glyf"][0]
    named: dict[int, list[int]] = {}
    total = 0
    try:
        for glyph, (start, end) in enumerate(itertools.pairwise(offsets)):
            if end - start < 10 or struct.unpack_from(">h", data, glyf + start)[0] >= 0:
                continue
            at, flags, parts = glyf + start + 10, 0x20, []
            while flags & 0x20 and at < glyf + end:  # MORE_COMPONENTS
                flags, part = struct.unpack_from(">HH", data, at)
                parts.append(part)
                at += 4 + (4 if flags & 0x01 else 2)  # ARG_1_AND_2_ARE_WORDS
                at += 2 if flags & 0x08 else 4 if flags & 0x40 else 8 if flags & 0x80 else 0
            named[glyph] = parts
            total += len(parts)
            if total > MAX_COMPONENTS:
                raise _CostlyFont(
                    f"its composite glyphs name more than {MAX_COMPONENTS:,} components:"
                    " a damaged or hostile font, not read"
                )
    except struct.error:
        return {}
    return named


MAX_GLYPH_POINTS = 4_000
"""Outline points of one glyph a character maps to, its composite's components expanded
(each drawn where it is named). Every glyph is filled from its outline at each size a page
draws it, at a cost that grows with its points: the heaviest glyph of 80 real fonts (Latin,
CJK, Korean brush and handwriting, DejaVu's snowman) has 1,590 points (FreeSerif's mahjong
tile), a Latin letter tens; a 96 kB font of 64,000-point composite glyphs took `export png`
of a three-card game 24.7 s (probe60-7)."""
_POINTS_CAP = 10**9  # a count past it is told as "more than": nested composites multiply
_LENGTH_CAP = 1e12  # (the same for lengths)
_INT16, _UINT16 = struct.Struct(">h"), struct.Struct(">H")


def _outlines(face: Any, data: bytes, named: dict[int, list[int]]) -> None:
    """Raise _CostlyFont if a glyph a character maps to has more than `MAX_GLYPH_POINTS`
    outline points, its components expanded. Read from the glyf table's glyph headers alone
    (a simple glyph's last contour end; a composite's components, `named`): no outline is
    decoded, so a CJK font of 30,000 glyphs costs some milliseconds. A damaged table counts
    nothing (reportlab then says what it finds)."""
    try:
        tables = _tables(data)
        offsets = _glyph_offsets(data, tables)
    except struct.error:
        return
    if offsets is None:
        return
    glyf, size = tables[b"glyf"][0], len(data)
    points: dict[int, int] = {}

    def own(glyph: int) -> int:
        """A simple glyph's points (0 for an empty or damaged one: it is not drawn)."""
        if glyph + 1 >= len(offsets):
            return 0
        at, end = glyf + offsets[glyph], glyf + offsets[glyph + 1]
        if end - at < 12 or end > size:
            return 0
        contours = _INT16.unpack_from(data, at)[0]
        if contours <= 0 or 10 + 2 * contours > end - at:
            return 0
        return int(_UINT16.unpack_from(data, at + 8 + 2 * contours)[0]) + 1

    def expanded(top: int) -> int:
        """A composite glyph's points with its components' (a cycle back counts nothing)."""
        total = 0
        for part in named[top]:  # most name simple glyphs, or composites already counted
            got = points.get(part)
            if got is None:
                if part in named:
                    return nested(top)
                got = points[part] = own(part)
            total += got
        points[top] = min(total, _POINTS_CAP + 1)
        return points[top]

    def nested(top: int) -> int:
        """`expanded` for a composite naming composites not counted yet (depth first)."""
        open_: set[int] = set()
        stack = [(top, False)]
        while stack:
            glyph, done = stack.pop()
            if done:
                open_.discard(glyph)
                total = sum(points.get(p, 0) for p in named[glyph] if p not in open_)
                points[glyph] = min(total, _POINTS_CAP + 1)
            elif glyph not in points and glyph not in open_:
                if glyph not in named:
                    points[glyph] = own(glyph)
                    continue
                open_.add(glyph)
                stack.append((glyph, True))
                stack.extend((p, False) for p in named[glyph] if p not in points)
        return points[top]

    over = {
        g
        for g in set(face.charToGlyph.values())
        if (points[g] if g in points else expanded(g) if g in named else own(g)) > MAX_GLYPH_POINTS
    }
    if over:
        character = min(c for c, g in face.charToGlyph.items() if g in over)
        glyph = face.charToGlyph[character]
        heavy = points[glyph] if glyph in named else own(glyph)
        much = f"more than {_POINTS_CAP:,}" if heavy > _POINTS_CAP else f"{heavy:,}"
        raise _CostlyFont(
            f"its glyph for {chr(character)!r} (U+{character:04X}) has {much} outline points"
            f" (its components counted each time they are drawn); the limit is"
            f" {MAX_GLYPH_POINTS:,} a glyph, as every glyph is filled from its outline at"
            " each size a page prints it (a real font's heaviest glyph has some hundreds)."
            " Simplify that glyph's outline (e.g. FontForge's Element > Simplify) or use"
            " another font"
        )


MAX_GLYPH_REACH = 4
"""How far, in em, the outline of a glyph a game prints may reach beyond the em square (0 to
1 em across and up) on any side. Each glyph is rendered as a bitmap of its outline's box at
each size a page prints it, the box taken from the outline's points (a glyph header's box
may say less): of 82 real fonts (Noto Sans, DejaVu, FreeSerif, Liberation, CJK, Korean brush)
no mapped glyph reaches more than 1.53 em beyond it, none is larger than 2.4 em; a 17.6 kB
font of 4-point squares 32 em a side took `export png` of a 450-letter game in three
languages 14.3 s (1.2 s with a real font), and validate said nothing. A glyph larger than an
em is also held to `MAX_GLYPH_POINTS` points per square em of its box: each row of its box
crosses its edges (4,000-point zig-zags 9 em a side took that game's export 209 s, 444-point
ones 8 s; the heaviest real glyph, FreeSerif's mahjong tile, weighs 1,590 points in an em,
the next 916 points per square em)."""


Box = tuple[int, int, int, int]  # x min, y min, x max, y max, in font units
MAX_COMPONENT_DEPTH = 64
"""Composites nested in composites, as deep as a glyph a game prints may go (real fonts: 1 to
3); deeper is refused, as its box would take that many steps to tell."""


def _deltas_format(short: int, same: int) -> tuple[bytes, bytes, bytes]:
    """For one axis of a simple glyph: a table turning each point's flags into its delta's
    struct format (B: a byte, h: a word), the flags whose delta is absent (0: same as the
    point before), and a table marking the byte deltas that are negative."""
    table = bytes(ord("B") if f & short else ord("h") for f in range(256))
    absent = bytes(f for f in range(256) if not f & short and f & same)
    negative = bytes(1 if f & short and not f & same else 0 for f in range(256))
    return table, absent, negative


_X_DELTAS, _Y_DELTAS = _deltas_format(0x02, 0x10), _deltas_format(0x04, 0x20)
_SIGNS = (1, -1)


class _Reach:
    """The outline boxes of one game font's glyphs, decoded from the glyf table as they are
    asked for (fontTools decodes 50-150 us a glyph, 5-15 s for every glyph of a CJK font; a
    game prints some hundreds). Each box is taken from the points, as FreeType sizes the
    bitmap it renders (the glyph header's box may lie); a composite's is its components'
    boxes placed, scaled and turned (their corners: never less than the points reach)."""

    def __init__(self, key: str) -> None:
        from reportlab.pdfbase import pdfmetrics

        font: Any = pdfmetrics.getFont(key)  # a game face: a TTFont
        self.glyphs: Mapping[int, int] = font.face.charToGlyph
        self.data: bytes = font.face._ttf_data
        tables = _tables(self.data)
        self.em = max(16, _UINT16.unpack_from(self.data, tables[b"head"][0] + 18)[0])
        self.offsets = _glyph_offsets(self.data, tables) or (0,)
        self.glyf = tables[b"glyf"][0] if b"glyf" in tables else 0
        self.boxes: dict[int, Box | None] = {}
        self.heights: dict[int, int] = {}  # how deep a composite's components nest
        self.points: dict[int, int] = {}  # outline points, components counted each time drawn
        self.lengths: dict[int, float] = {}  # outline lengths (`_simple_box`), font units
        self.ink: dict[int, float] = {}  # each character's glyph box, in square em
        self.lock = threading.Lock()

    def box(self, glyph: int, depth: int = 0) -> Box | None:
        """The box of the glyph's outline points, its components placed (None: no outline,
        or a damaged one, which the renderer does not draw either)."""
        if depth + self.heights.get(glyph, 0) > MAX_COMPONENT_DEPTH:
            raise _CostlyFont(f"nests composite glyphs more than {MAX_COMPONENT_DEPTH} deep")
        if glyph in self.boxes:
            return self.boxes[glyph]
        self.boxes[glyph] = None  # a composite naming itself: nothing more through it
        if glyph + 1 >= len(self.offsets):
            return None
        at, end = self.glyf + self.offsets[glyph], self.glyf + self.offsets[glyph + 1]
        if end - at < 12 or end > len(self.data):
            return None
        try:
            if _INT16.unpack_from(self.data, at)[0] >= 0:
                found, self.points[glyph], self.lengths[glyph] = _simple_box(self.data, at, end)
            else:
                found = self._composite_box(glyph, at, end, depth)
        except (struct.error, IndexError, UnicodeDecodeError):
            found, self.points[glyph], self.lengths[glyph] = None, 0, 0.0
        except _CostlyFont:  # too deep from here: not kept as drawing nothing
            del self.boxes[glyph]
            self.heights.pop(glyph, None)
            self.points.pop(glyph, None)
            self.lengths.pop(glyph, None)
            raise
        self.boxes[glyph] = found
        return found

    def _composite_box(self, glyph: int, at: int, end: int, depth: int) -> Box | None:
        data, boxes, at, more = self.data, [], at + 10, True
        while more and at < end:
            flags, part = struct.unpack_from(">HH", data, at)
            words, xy = flags & 0x01, flags & 0x02  # ARG_1_AND_2_ARE_WORDS, ARGS_ARE_XY_VALUES
            dx, dy = struct.unpack_from(">hh" if words else ">bb", data, at + 4)
            at += 8 if words else 6
            matrix = (1.0, 0.0, 0.0, 1.0)
            if flags & 0x08:  # WE_HAVE_A_SCALE
                scale = _INT16.unpack_from(data, at)[0] / 16384
                matrix, at = (scale, 0.0, 0.0, scale), at + 2
            elif flags & 0x40:  # WE_HAVE_AN_X_AND_Y_SCALE
                sx, sy = struct.unpack_from(">hh", data, at)
                matrix, at = (sx / 16384, 0.0, 0.0, sy / 16384), at + 4
            elif flags & 0x80:  # WE_HAVE_A_TWO_BY_TWO
                a, b, c, d = struct.unpack_from(">hhhh", data, at)
                matrix, at = (a / 16384, b / 16384, c / 16384, d / 16384), at + 8
            more = bool(flags & 0x20)  # MORE_COMPONENTS
            child = self.box(part, depth + 1)
            self.heights[glyph] = max(self.heights.get(glyph, 0), 1 + self.heights.get(part, 0))
            drawn = self.points.get(glyph, 0) + self.points.get(part, 0)
            self.points[glyph] = min(drawn, _POINTS_CAP + 1)
            a, b, c, d = matrix  # how much longer it makes a line, at most (in L1)
            stretch = max(abs(a) + abs(b), abs(c) + abs(d))
            length = self.lengths.get(glyph, 0.0) + self.lengths.get(part, 0.0) * stretch
            self.lengths[glyph] = min(length, _LENGTH_CAP)
            if child is None:
                continue
            if xy:
                boxes.append(_placed(child, matrix, dx, dy, bool(flags & 0x800)))
                continue
            # placed by matching one of its points to one of the parts before: its points
            # lie within those parts' box, widened by its own size
            turned = _placed(child, matrix, 0, 0, False)
            if not boxes:
                boxes.append(turned)
                continue
            before, wide, high = _union(boxes), turned[2] - turned[0], turned[3] - turned[1]
            boxes.append((before[0] - wide, before[1] - high, before[2] + wide, before[3] + high))
        return _union(boxes) if boxes else None


def _simple_box(data: bytes, at: int, end: int) -> tuple[Box | None, int, float]:
    """The box of a simple glyph's points, how many they are and how long its outline is
    (the sum of its points' steps across and up: no shorter than a rasteriser's walk along
    it, the control points of its curves counted; raises struct.error or IndexError past its
    data)."""
    contours = _INT16.unpack_from(data, at)[0]
    if contours == 0:
        return None, 0, 0.0
    points = _UINT16.unpack_from(data, at + 8 + 2 * contours)[0] + 1
    i = at + 10 + 2 * contours
    i += 2 + _UINT16.unpack_from(data, i)[0]  # past the instructions
    flags = bytearray()
    while len(flags) < points:
        flag = data[i]
        if flag & 0x08:  # REPEAT_FLAG: the next byte says how many more times
            flags += bytes((flag,)) * (data[i + 1] + 1)
            i += 2
        else:
            flags.append(flag)
            i += 1
    del flags[points:]
    (x_min, x_max), across, i = _axis(data, i, flags, _X_DELTAS)
    (y_min, y_max), up, i = _axis(data, i, flags, _Y_DELTAS)
    if i > end:
        raise struct.error("past the glyph")
    return (x_min, y_min, x_max, y_max), points, float(across + up)


def _axis(
    data: bytes, at: int, flags: bytearray, kind: tuple[bytes, bytes, bytes]
) -> tuple[tuple[int, int], int, int]:
    """The least and greatest coordinate of one axis of a simple glyph's points, whose deltas
    start at `at`, the sum of their steps, and where they end (the sums run in C: no loop a
    point)."""
    table, absent, negative = kind
    shape = ">" + flags.translate(table, absent).decode("ascii")
    values = struct.unpack_from(shape, data, at)
    signs = map(_SIGNS.__getitem__, flags.translate(negative, absent))
    coordinates = list(itertools.accumulate(map(operator.mul, values, signs)))
    if flags[0] in absent:  # the first point sits at 0
        coordinates.append(0)
    steps = sum(map(abs, values))
    return (min(coordinates), max(coordinates)), steps, at + struct.calcsize(shape)


def _placed(box: Box, matrix: tuple[float, ...], dx: int, dy: int, scaled: bool) -> Box:
    """A component's box turned and scaled by `matrix`, then moved by (dx, dy) (first turned
    too, if `scaled`: SCALED_COMPONENT_OFFSET). Its corners are taken read as either
    convention of the matrix: never less than the component's points reach."""
    a, b, c, d = matrix
    corners = [(x, y) for x in (box[0], box[2]) for y in (box[1], box[3])]
    moves = [(dx, dy), (a * dx + c * dy, b * dx + d * dy)] if scaled else [(dx, dy)]
    xs, ys = [], []
    for x, y in corners:
        for tx, ty in ((a * x + c * y, b * x + d * y), (a * x + b * y, c * x + d * y)):
            for mx, my in moves:
                xs.append(tx + mx)
                ys.append(ty + my)
    return math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs)), math.ceil(max(ys))


def _union(boxes: list[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


_REACHES: dict[str, _Reach] = {}
_REACHES_LOCK = threading.Lock()


MAX_GLYPH_OUTLINE = 100
"""Em of outline one glyph a game prints may have (the steps of its points across and up,
its components' each time drawn): a rasteriser walks each edge across every row and cell it
crosses, at each size a page prints it. Real fonts' longest: 14 em (Latin), 28 em (CJK)."""
MAX_PRINTED_OUTLINE = 50_000
"""Em of outline the glyphs of every character a game may print have together, in one of
its fonts: 450 distinct zig-zag glyphs of 741 em each (3,990 points, under the other
bounds), 333,000 em, took `export png` of a 40 kB game 26.9 s at five large sizes (1.4 s in
a light font: ~77 µs an em; probe 61-4), so ~4 s at this bound. A full Latin font's 500
glyphs have ~3,000 em; 3,000 CJK glyphs ~35,000 em, 5,000 ~60,000."""


def reach_problem(key: str, characters: Collection[str]) -> str | None:
    """Why the game's font registered as `key` cannot print `characters`: the lowest of them
    whose glyph's outline reaches more than `MAX_GLYPH_REACH` em beyond the em square, or is
    too heavy or too long, or takes their outlines together past `MAX_PRINTED_OUTLINE` (None:
    none does). Only their glyphs are decoded, each once a process."""
    reach = _reach_of(key)
    if reach is None:  # read by reportlab, yet no glyf: not judged here
        return None
    with reach.lock:
        total = 0.0
        for code in sorted({ord(ch) for ch in characters}):
            glyph = reach.glyphs.get(code)
            try:
                box = reach.box(glyph) if glyph is not None else None
            except _CostlyFont as exc:
                return (
                    f"its glyph for {chr(code)!r} (U+{code:04X}) {exc}: a damaged or hostile font"
                )
            if box is None:
                continue
            x_min, y_min, x_max, y_max = box
            far = max(-x_min, -y_min, x_max - reach.em, y_max - reach.em)  # font units
            if far > MAX_GLYPH_REACH * reach.em:
                return _too_far(chr(code), box, reach.em, far)
            area = max(reach.em, x_max - x_min) * max(reach.em, y_max - y_min)  # an em a side
            points = reach.points.get(glyph, 0)  # type: ignore[arg-type]  # glyph: not None
            if points * area > MAX_GLYPH_POINTS * reach.em**2:
                return _too_heavy(chr(code), box, reach.em, points)
            length = reach.lengths.get(glyph, 0.0) / reach.em  # type: ignore[arg-type]
            total += length
            if length > MAX_GLYPH_OUTLINE or total > MAX_PRINTED_OUTLINE:
                return _too_long(chr(code), length, total)
    return None


def _reach_of(key: str) -> _Reach | None:
    """The game font registered as `key`'s glyph boxes (made once a process), or None for a
    font they cannot be read from (whose glyphs are not judged either)."""
    with _REACHES_LOCK:
        reach = _REACHES.get(key)
        if reach is None:
            try:
                reach = _REACHES[key] = _Reach(key)
            except (struct.error, KeyError):
                return None
    return reach


def outline_sums(key: str, characters: Collection[str]) -> tuple[int, float]:
    """The outline points and em of outline of the glyphs of `characters` in the game font
    registered as `key`, summed (each glyph decoded once a process, as `reach_problem`);
    (0, 0) for a font it cannot read. What a rasteriser walks for each (glyph, size) a
    document prints (`glyph_weight.Glyphs.load`)."""
    reach = _reach_of(key)
    if reach is None:
        return 0, 0.0
    points, length = 0, 0.0
    with reach.lock:
        for code in {ord(ch) for ch in characters}:
            glyph = reach.glyphs.get(code)
            if glyph is None or _box(reach, glyph) is None:
                continue
            points += reach.points.get(glyph, 0)
            length += reach.lengths.get(glyph, 0.0)
    return points, length / reach.em


INK_ALLOWED = 1.0
"""Square em of a glyph's box a letter may paint without a price of its own: a real font's
letters are about 0.6 by 1 em (their ink is priced with their text's box)."""


def excess_ink(key: str, text: str) -> float:
    """Square em the glyphs of `text`'s letters (each letter as often as written) paint past
    `INK_ALLOWED` each, in the game font registered as `key`: a glyph may reach 4 em past its
    square (a box 9 em a side) and still advance a quarter em, so a text fits by its advances
    while each letter paints 80 em² (probe 63-1)."""
    reach = _reach_of(key)
    if reach is None:
        return 0.0
    total = 0.0
    em2 = float(reach.em * reach.em)
    with reach.lock:
        for code, count in collections.Counter(ord(ch) for ch in text).items():
            area = reach.ink.get(code)
            if area is None:
                glyph = reach.glyphs.get(code)
                box = None if glyph is None else _box(reach, glyph)
                area = 0.0 if box is None else (box[2] - box[0]) * (box[3] - box[1]) / em2
                reach.ink[code] = area
            if area > INK_ALLOWED:
                total += (area - INK_ALLOWED) * count
    return total


def _box(reach: _Reach, glyph: int) -> Box | None:
    """The glyph's box, or None for none or one `reach_problem` refuses (P009: the gate)."""
    try:
        return reach.box(glyph)
    except _CostlyFont:
        return None


def _too_long(character: str, length: float, total: float) -> str:
    if length > MAX_GLYPH_OUTLINE:
        what = f"has {length:,.0f} em of outline; the limit is {MAX_GLYPH_OUTLINE} em a glyph"
    else:
        what = (
            f"takes the outlines of the glyphs the game may print past {MAX_PRINTED_OUTLINE:,}"
            f" em together ({total:,.0f} em with it)"
        )
    return (
        f"its glyph for {character!r} (U+{ord(character):04X}) {what}, as a rasteriser walks"
        " every edge of a glyph at each size a page prints it (a real font's longest glyph"
        " has under 30 em, a CJK font's 3,000 glyphs some 35,000). Simplify its outlines"
        " (e.g. FontForge's Element > Simplify) or use another font"
    )


def _too_heavy(character: str, box: tuple[int, int, int, int], em: int, points: int) -> str:
    x_min, y_min, x_max, y_max = box
    wide, high = (x_max - x_min) / em, (y_max - y_min) / em
    return (
        f"its glyph for {character!r} (U+{ord(character):04X}) has {points:,} outline points"
        f" over {wide:,.1f} x {high:,.1f} em; the limit is {MAX_GLYPH_POINTS:,} points per square"
        " em of a glyph's box (an em a side at least), as every glyph is filled from its"
        " outline at each size a page prints it, over its box (a real font's heaviest glyph"
        " weighs some hundreds, 1,590 at most). Simplify that glyph's outline (e.g."
        " FontForge's Element > Simplify), make it smaller, or use another font"
    )


def _too_far(character: str, box: tuple[int, int, int, int], em: int, far: int) -> str:
    x_min, y_min, x_max, y_max = box
    tenths = -(-far * 10 // em)  # rounded up: just past the limit is not said as at it
    return (
        f"its glyph for {character!r} (U+{ord(character):04X}) reaches"
        f" {tenths // 10:,}.{tenths % 10} em beyond"
        f" the em square (its outline spans x {x_min:,} to {x_max:,}, y {y_min:,} to"
        f" {y_max:,} on a {em:,}-unit em); the limit is {MAX_GLYPH_REACH} em, as every glyph"
        " is rendered as a bitmap of its outline's box at each size a page prints it (a real"
        " font's largest glyph is about 1.5 em wide). Redraw that glyph within the em square"
        " (e.g. FontForge's Element > Transform) or use another font"
    )


def _closures(named: dict[int, list[int]], cap: int) -> dict[int, int]:
    """For each composite glyph, how many glyphs it brings into a subset at most (itself and
    its components', counted again where shared, capped at `cap`)."""
    size: dict[int, int] = {}
    open_: set[int] = set()  # a cycle back to one of them counts once (reportlab stops there)
    for top in named:
        stack = [(top, False)]
        while stack:
            glyph, done = stack.pop()
            if done:
                open_.discard(glyph)
                parts = [p for p in named[glyph] if p not in open_]
                size[glyph] = min(cap, 1 + sum(size.get(p, 1) for p in parts))
                continue
            if glyph in size or glyph in open_:
                continue
            open_.add(glyph)
            stack.append((glyph, True))
            stack.extend((p, False) for p in named[glyph] if p in named and p not in size)
    return size


def cmap_problem(data: bytes) -> str | None:
    """Why the font's character map cannot be read in bounded time and memory (a subtable
    mapping more than `MAX_CODES` code points), read from the table bytes alone; None for
    every real font (and for one too damaged to tell: reportlab then says what it finds)."""
    if cmap_codes(data) > MAX_CODES:
        return (
            f"its character map (cmap) maps more than {MAX_CODES:,} code points (all"
            " of Unicode): a damaged or hostile font, not read"
        )
    return None


def cmap_codes(data: bytes) -> int:
    """How many code points the character map subtable reportlab reads maps (it makes an
    entry for each), counted no further than just past `MAX_CODES`; 0 for a font with no
    cmap or none reportlab takes (it refuses those itself). The subtable is the one
    reportlab picks, by its own rules: a header whose count is 0 has its version and count
    swapped, and the last record of a platform and encoding it takes wins. Read as the spec
    writes it, a swapped header counted 0 and let 30 fonts mapping all of Unicode through
    (3.9 GB, probe 45 F3). A subtable that cannot be read to the end counts past
    MAX_CODES: reportlab tolerates much, and what it would read of it cannot be told."""
    try:
        cmap = None
        for tag, offset, _ in _directory(data):
            if tag == b"cmap":
                cmap = offset  # the last, as reportlab's table dict keeps it
        if cmap is None:
            return 0
        version, count = struct.unpack_from(">HH", data, cmap)
        if count == 0 and version != 0:
            count = version  # as reportlab reads a swapped header
        chosen = _reportlab_subtable(data, cmap, count)
    except struct.error:
        return 0  # no font reportlab reads either: `diagnose` says what it is
    if chosen is None:
        return 0
    try:
        return _codes(data, cmap + chosen)
    except struct.error:
        return MAX_CODES + 1


def _reportlab_subtable(data: bytes, cmap: int, count: int) -> int | None:
    """The offset (from the cmap table) of the subtable reportlab's TTFontFile reads: of
    the `count` records, the last it takes (Windows; Mac Roman unless a Unicode one came
    first; Mac Japanese; Unicode but variation sequences), or None."""
    chosen, unicode = None, False
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHL", data, cmap + 4 + 8 * i)
        if platform == 3 or (platform == 1 and encoding == 1) or (platform == 0 and encoding != 5):
            chosen, unicode = offset, True
        elif platform == 1 and encoding == 0 and not unicode:
            chosen = offset
    return chosen


def _codes(data: bytes, at: int) -> int:
    """How many code points the cmap subtable at `at` maps (as reportlab loops over them),
    counted no further than just past `MAX_CODES`."""
    fmt = struct.unpack_from(">H", data, at)[0]
    if fmt == 2:
        keys = struct.unpack_from(">256H", data, at + 6)
        heads = max(keys) // 8 + 1
        return sum(
            struct.unpack_from(">H", data, at + 6 + 512 + 8 * i + 2)[0] for i in range(heads)
        )
    if fmt == 4:
        segments = struct.unpack_from(">H", data, at + 6)[0] // 2
        ends = struct.unpack_from(f">{segments}H", data, at + 14)
        starts = struct.unpack_from(f">{segments}H", data, at + 16 + 2 * segments)
        return sum(max(0, end - begin + 1) for begin, end in zip(starts, ends, strict=True))
    if fmt == 6:
        return int(struct.unpack_from(">H", data, at + 8)[0])
    if fmt == 10:
        return int(struct.unpack_from(">L", data, at + 16)[0])
    if fmt in (12, 13):
        groups = struct.unpack_from(">L", data, at + 12)[0]
        if groups > MAX_CODES:
            return groups
        total = 0
        for i in range(groups):
            begin, end = struct.unpack_from(">LL", data, at + 16 + 12 * i)
            total += max(0, end - begin + 1)
            if total > MAX_CODES:
                break
        return total
    return 0  # 0 maps at most 256; reportlab reads no other format


SUBSET = 256  # characters of one embedded subset, as reportlab makes them


def _subsets(face: Any, data: bytes, named: dict[int, list[int]]) -> None:
    """Make subsets holding every glyph the font's characters map to, as `build` embeds
    them, so that a font whose character map names glyphs its outlines lack (reportlab's
    IndexError, or a TTFError reading past its glyphs) is found by `validate`, not by a
    traceback in `build` (40 µs a glyph: 0.23 s for DejaVu Sans's 5,918 characters). One
    character per glyph: a character fails only through its glyph, and a font may map all
    of Unicode onto a few glyphs (1.1 M code points took 14 s, one subset each 256).
    `named` is the font's composite glyphs' components (`_components`)."""
    first: dict[int, int] = {}  # each glyph once: a subset's cost is its glyphs'
    for character in sorted(face.charToGlyph):
        first.setdefault(face.charToGlyph[character], character)
    characters = sorted(first.values())
    glyphs = len(face.hmetrics)
    closure = _closures(named, glyphs)
    cost = 0
    for start in range(0, len(characters), SUBSET):
        chunk = characters[start : start + SUBSET]
        cost += min(glyphs, sum(closure.get(face.charToGlyph[c], 1) for c in chunk))
    if cost > MAX_SUBSET_GLYPHS:
        raise _CostlyFont(
            f"its subsets would copy more than {MAX_SUBSET_GLYPHS:,} glyphs, its composite"
            " glyphs' components counted (each names many others): a damaged or hostile"
            " font, not read"
        )
    for start in range(0, len(characters), SUBSET):
        face.makeSubset(characters[start : start + SUBSET])


def _family_and_style(face: Any) -> tuple[str, str]:
    """The family as a font menu shows it (name ID 1) and the style its bits declare: OS/2
    fsSelection (bold 0x20, italic 0x01), else head macStyle (bold 0x01, italic 0x02)."""
    family = getattr(face.familyName, "ustr", None) or bytes(face.familyName).decode("latin-1")
    try:
        selection = struct.unpack(">H", face.get_table("OS/2")[62:64])[0]
        bold, italic = bool(selection & 0x20), bool(selection & 0x01)
    except (KeyError, struct.error):
        mac = struct.unpack(">H", face.get_table("head")[44:46])[0]
        bold, italic = bool(mac & 0x01), bool(mac & 0x02)
    return str(family), ("bold" if bold else "") + ("italic" if italic else "") or "regular"


WEB_FONTS = {b"wOFF": "woff", b"wOF2": "woff2"}
"""A web font's signature and flavour. fontTools decompresses a WOFF2 file's whole stream when
it opens it (a 1.6 kB file of 2 GiB of zeros took 4.3 GB), and without the Brotli module
raises ImportError (four check families failed: probe 50 P50-5); reportlab embeds neither."""


def diagnose(data: bytes, error: Exception) -> str:
    """Why reportlab cannot embed a file, in the designer's words (fontTools tells what the
    file is)."""
    import io

    from fontTools.ttLib import TTFont, TTLibError  # type: ignore[import-untyped]

    flavor = WEB_FONTS.get(data[:4])
    if flavor is not None:  # told by its signature: never decompressed to be told
        return f"a web font ({flavor}): use the family's .ttf files"
    try:
        font = TTFont(io.BytesIO(data), lazy=True)
        tags = set(font.reader.keys())
    except (TTLibError, struct.error, KeyError, ValueError, AssertionError, EOFError) as exc:
        return f"not a font file fontTools can read ({type(exc).__name__}: {exc})"
    if "CFF " in tags or "CFF2" in tags:
        return (
            "an OpenType font with PostScript (CFF) outlines, which reportlab cannot "
            "embed: use the family's TrueType (.ttf) files, or convert this one to "
            "TrueType outlines (e.g. FontForge, or fontTools' otf2ttf)"
        )
    if font.reader.flavor in ("woff", "woff2"):
        return f"a web font ({font.reader.flavor}): use the family's .ttf files"
    if "glyf" not in tags:
        return "not a TrueType font (no glyf table)"
    return f"reportlab cannot embed this font: {error}"
