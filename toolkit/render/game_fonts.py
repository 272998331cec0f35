"""A game's own fonts: TrueType files in its `fonts/` folder, named by family and style.

Layouts (`font:` on a text or badge), boards (`style.font`) and the rulebook (`style:` in
game.yaml) name a family as the font file calls itself (its name table's family, as a font
menu shows it) and a style (regular, bold, italic, bolditalic, read from the file's own bits).
Each file is read with fontTools (what it is, its family and style), then registered with
reportlab, which embeds the subset of glyphs a PDF uses. A file that is no font, a font with
PostScript (CFF) outlines, or a file outside the game folder gives no face and a problem that
`validate` reports (P009); a family or style nobody ships is reported where it is named.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from toolkit.content.game import display_path
from toolkit.fileio import read_bounded, real_path
from toolkit.render.fonts import FILES, register_face

FOLDER = "fonts"
SUFFIXES = (".ttf", ".otf")
MAX_BYTES = 64 * 1024 * 1024  # a CJK font with every ideograph is ~20 MB
DEFAULT = "Noto Sans"  # the toolkit's own family (templates/fonts)
STYLES = tuple(FILES)  # regular, bold, italic, bolditalic


@dataclass(frozen=True)
class FontProblem:
    """Why a font file gives no face."""

    file: str
    message: str


@dataclass(frozen=True, eq=False)  # one object per game folder's files (cached): hashed by id
class FontSet:
    """The faces a game can print with: its own files' by (family, style), then Noto Sans.

    `main` is the family the game prints with where nothing names one (game.yaml
    `style.font`; None: the toolkit's Noto Sans)."""

    faces: Mapping[tuple[str, str], str] = field(default_factory=dict)
    families: Mapping[str, str] = field(default_factory=dict)  # casefolded -> as written
    files: Mapping[str, str] = field(default_factory=dict)  # face key -> display path
    problems: tuple[FontProblem, ...] = ()
    main: str | None = None

    def face(self, family: str | None, style: str = "regular") -> str:
        """The face that prints `style` of `family` (None: the game's main family). A family
        or style the game lacks prints in Noto Sans; `validate` reports it (`missing`)."""
        family = family or self.main
        if family is None or _is_default(family):
            return style
        return self.faces.get((family.casefold(), style), style)

    def missing(self, family: str | None, style: str = "regular") -> str | None:
        """Why `family` in `style` cannot print (None when it can)."""
        family = family or self.main
        if family is None or _is_default(family):
            return None
        folded = family.casefold()
        if folded not in self.families:
            have = ", ".join(sorted(self.families.values())) or "none"
            unread = f"; {len(self.problems)} file(s) cannot be read" if self.problems else ""
            return (
                f"no font family {family!r} in the game's {FOLDER}/ folder (it has: {have}"
                f"{unread}); the toolkit's own is {DEFAULT!r}"
            )
        if (folded, style) not in self.faces:
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
    """The fonts of the game in `game_root` (read once while its files stay as they are)."""
    if game_root is None:
        return FontSet(main=main)
    folder = game_root / FOLDER
    if not folder.is_dir():
        return FontSet(main=main)
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in SUFFIXES)
    stamp = []
    for path in files:
        try:
            info = path.stat()
        except OSError:
            continue
        stamp.append((path.name, info.st_size, info.st_mtime_ns))
    return _read_set(real_path(game_root), tuple(stamp), main)


@cache
def _read_set(root: Path, stamp: tuple[tuple[str, int, int], ...], main: str | None) -> FontSet:
    faces: dict[tuple[str, str], str] = {}
    families: dict[str, str] = {}
    shown: dict[str, str] = {}
    problems: list[FontProblem] = []
    for name, _size, _mtime in stamp:
        path = root / FOLDER / name
        display = display_path(path)
        read = read_face(path, root)
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


def read_face(path: Path, root: Path) -> tuple[str, str, str] | str:
    """(family, style, registered key) of one font file, or why it gives no face."""
    real = real_path(path)
    if not real.is_relative_to(root):
        return "the font file leaves the game folder (a link to elsewhere); copy it in"
    try:
        data = read_bounded(real, MAX_BYTES)
    except OSError as exc:
        return f"cannot read the font file: {exc.strerror or exc}"
    if len(data) > MAX_BYTES:
        return f"the font file is larger than the limit of {MAX_BYTES:,} bytes"
    described = _describe(data)
    if isinstance(described, str):
        return described
    family, style = described
    digest = hashlib.sha256(data).hexdigest()[:12]
    key = f"{family}-{style}@{digest}"
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    try:
        font = TTFont(key, str(real))
        # reportlab shares one font among files of the same PostScript name (a designer's
        # own full Noto Sans would print as the toolkit's subset, a changed file as the old
        # one): the file's digest in its PDF name keeps every file its own glyphs
        font.face.name += f"-{digest[:8]}".encode()  # bytes, as reportlab keeps it
        register_face(key, font)
    except (TTFError, ValueError, KeyError, IndexError, OSError) as exc:
        return f"reportlab cannot embed this font: {exc}"
    return family, style, key


def _describe(data: bytes) -> tuple[str, str] | str:
    """(family, style) from a font's own tables, or why it cannot print."""
    import io
    import struct

    from fontTools.ttLib import TTFont, TTLibError  # type: ignore[import-untyped]

    try:
        font = TTFont(io.BytesIO(data), lazy=True)
        tags = set(font.keys())
        if "CFF " in tags or "CFF2" in tags:
            return (
                "an OpenType font with PostScript (CFF) outlines, which reportlab cannot "
                "embed: use the family's TrueType (.ttf) files, or convert this one to "
                "TrueType outlines (e.g. FontForge, or fontTools' otf2ttf)"
            )
        if "glyf" not in tags or "cmap" not in tags:
            return "not a TrueType font (no glyf or cmap table)"
        family = font["name"].getDebugName(1)
        if not family:
            return "the font names no family (name table, ID 1)"
        bold, italic = _bits(font)
    except (TTLibError, struct.error, KeyError, ValueError, AssertionError, EOFError) as exc:
        return f"not a font file fontTools can read ({type(exc).__name__}: {exc})"
    return family, ("bold" if bold else "") + ("italic" if italic else "") or "regular"


def _bits(font: object) -> tuple[bool, bool]:
    """(bold, italic) as the font declares them: OS/2 fsSelection, else head macStyle."""
    tables = font  # a fontTools TTFont
    if "OS/2" in tables:  # type: ignore[operator]
        selection = tables["OS/2"].fsSelection  # type: ignore[index]
        return bool(selection & 0x20), bool(selection & 0x01)
    mac = tables["head"].macStyle  # type: ignore[index]
    return bool(mac & 0x01), bool(mac & 0x02)
