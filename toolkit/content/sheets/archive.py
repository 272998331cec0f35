"""XLSX and ODS files are zip archives: look at their members before anything unpacks them,
so a zip bomb or a password-protected workbook is refused by its sizes and flags, in
milliseconds and without memory, before the spreadsheet reader opens it."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

MAX_MEMBERS = 10_000
MAX_UNPACKED = 32 * 1024 * 1024
"""Bytes all members unpack to: a 20,000-card sheet of 30 columns is about 25 MB of XML. The
reader and the scans take about 0.1 s a megabyte (64 MB, the limit before, was 6 s)."""
MAX_GAME_SCANNED = 8 * 1024 * 1024
"""Bytes of sheet XML (worksheets, shared strings, an ODS file's content) all of a game's
spreadsheets may have scanned together, in the order the game reads them: `MAX_UNPACKED` is
a file's, and three 349 kB workbooks of 1 MB members each took 9.5 s (probe 37 M2). The
scans take about 0.06 s a megabyte, so a game's sheets cost at most ~0.5 s: at 64 MB, 63
workbooks of 1 MB of empty styled cells (each under `RATIO_FLOOR`, 5 kB zipped: 330 kB in
all) took a cold `validate` 4 s, on top of every other surface's budget (budget59). The game
work budget (toolkit.content.game.MAX_WORK) takes 3,000 cards in three languages, a sheet of
~3 MB at 30 columns."""
MAX_RATIO = 100
"""How much one member, and the members together, may shrink when zipped; XML cells of a
real sheet stay well under this (5 to 20 times), a bomb of repeated bytes reaches a thousand
and more. So a sheet costs at most about 3 s for each 330 kB it takes on disk."""
RATIO_FLOOR = 1024 * 1024
"""Members smaller than this unpacked are not held to MAX_RATIO one by one (an empty sheet
zips well), nor is an archive that unpacks to less than this in all. Over it, the archive as
a whole is held to MAX_RATIO: 63 members of 1 MB of empty cells, each under the floor, took
29 kB zipped and 20 s to scan."""
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


@dataclass(frozen=True)
class Problem:
    """Why a file is refused: `protected` tells a password from any other damage."""

    message: str
    protected: bool = False
    too_large: bool = False


def _zip(source: Path | bytes) -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(source) if isinstance(source, bytes) else source)


def inspect(source: Path | bytes, suffix: str) -> Problem | None:
    """None when `source` (a file, or its bytes as read once) is a zip whose members are
    safe to unpack, else the problem."""
    if isinstance(source, bytes):
        head = source[:8]
    else:
        with source.open("rb") as handle:
            head = handle.read(8)
    if head == OLE_MAGIC:
        if suffix == ".xlsx":  # an encrypted OOXML package is an OLE file, not a zip
            return Problem(
                "the workbook is password-protected (or an old .xls saved as .xlsx):"
                " save it as .xlsx without a password",
                protected=True,
            )
        return Problem("this is an old binary office file, not " + suffix)
    if not head.startswith(b"PK"):
        return Problem(f"not a {suffix} file: it is not a zip archive as {suffix} files are")
    try:
        with _zip(source) as archive:
            members = archive.infolist()
            if len(members) > MAX_MEMBERS:
                return Problem(f"the archive holds {len(members):,} files", too_large=True)
            total = stored = 0
            for member in members:
                if member.flag_bits & 0x1:
                    return Problem(
                        "the file is password-protected: save it without a password",
                        protected=True,
                    )
                total += member.file_size
                stored += member.compress_size
                ratio = member.file_size / max(member.compress_size, 1)
                if member.file_size > RATIO_FLOOR and ratio > MAX_RATIO:
                    return Problem(
                        f"{member.filename} unpacks {ratio:,.0f} times larger than it is"
                        f" stored (over {MAX_RATIO}): refused as a zip bomb",
                        too_large=True,
                    )
            if total > MAX_UNPACKED:
                return Problem(
                    f"the file unpacks to {total:,} bytes; the limit is {MAX_UNPACKED:,}",
                    too_large=True,
                )
            ratio = total / max(stored, 1)
            if total > RATIO_FLOOR and ratio > MAX_RATIO:
                return Problem(
                    f"its {len(members):,} files unpack to {total:,} bytes, {ratio:,.0f} times"
                    f" what they are stored in (over {MAX_RATIO}): refused as a zip bomb",
                    too_large=True,
                )
            if suffix == ".ods":
                return _ods_problem(archive)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        return Problem(f"not a readable {suffix} file: {exc}")
    return None


def _ods_problem(archive: zipfile.ZipFile) -> Problem | None:
    names = set(archive.namelist())
    if "content.xml" not in names:
        return Problem("not an OpenDocument spreadsheet: it has no content.xml")
    if "META-INF/manifest.xml" in names:
        manifest = archive.read("META-INF/manifest.xml")
        if b"encryption-data" in manifest:
            return Problem(
                "the spreadsheet is password-protected: save it without a password",
                protected=True,
            )
    return None


def unpacked_size(source: Path | bytes, names: set[str]) -> int:
    """Bytes the members of `source` whose lowercased names are in `names` unpack to (each
    member so named: a reader may take any of them)."""
    with _zip(source) as archive:
        return sum(m.file_size for m in archive.infolist() if m.filename.lower() in names)


def read_member(source: Path | bytes, name: str) -> bytes | None:
    """One member's bytes (already checked by `inspect`), or None when there is none."""
    if isinstance(source, bytes):
        return _member_of(_opened(source), name)
    with _zip(source) as archive:
        return _member_of(archive, name)


def _member_of(archive: zipfile.ZipFile, name: str) -> bytes | None:
    try:
        return archive.read(name)
    except KeyError:
        return None


_OPENED: list[tuple[bytes, zipfile.ZipFile]] = []
"""The workbook whose members were read last (its bytes, by identity) and its directory:
each member was read through a directory read again, so a workbook of n members whose
every member is read cost n² (4,000 empty members, 371 kB: 24.9 s; probe 66-2)."""


def _opened(data: bytes) -> zipfile.ZipFile:
    if not (_OPENED and _OPENED[0][0] is data):
        _OPENED[:] = [(data, _zip(data))]
    return _OPENED[0][1]
