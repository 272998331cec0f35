"""`playset validate`'s findings kept between runs, as ruff keeps its own: a warm run of an
unchanged game reads no YAML, imports no checker and runs no check.

What a game's findings depend on (the dependency rule). Each run hashes, without parsing:

- every file under the game folder, whatever its kind (YAML, Markdown, spreadsheets,
  fonts, images, an `engine.py`): names, link targets and bytes, with the folder's listing
  (an unlisted or missing file is a finding). Skipped: version-control and tool folders
  (`SKIP`), and a top-level `output/` folder when no file of the game names `output` (a
  build made inside the game folder writes there; nothing reads it back; a `.gitignore`
  naming it does not count);
- every file of the toolkit package (the checks, the schemas, which are pydantic models,
  bundled data) and of the shared templates (`<repo>/templates`: layouts, fonts, icons);
- the interpreter and the installed packages: each site-packages folder's modification
  time changes when a package is installed, upgraded or removed;
- where and how the command runs: the current folder (paths in findings are relative to
  it), the GAME argument as given, the repository root (`$PLAYSET_HOME`) and the
  `--select`/`--ignore` options;
- whether each schema an editor modeline names exists (R009 warns when one does not);
- the source of every module the checks loaded from outside the standard library and the
  installed packages (an editable plugin): recorded in the entry, hashed again on lookup.

A change to any of them is a new key, so the game is checked afresh; the cache never changes
a finding, only skips work. The findings' granularity is the whole game: one card edit
re-checks the game, since the cross-file checks (references, translations, the rulebook that
prints data from every deck) read every file.

Within that run, what the checks work out per unit is read back from the game's last run
(`units`, toolkit.content.unit_cache): each text fit (toolkit.render.textfit), each card face
resolved through its layout (toolkit.render.face_units) and each text's glossary uses
(toolkit.checks.translation.glossary), named by a digest of every argument it is computed
from. What they all depend on besides (the code part above: interpreter, packages,
repository root, toolkit and templates; and the game's `fonts/` folder, whose faces a fit
names by a short digest) is the units entry's head, with the modules the checks loaded from
outside those trees, as for findings: a change to any of them drops every unit. So after one
card edit only that card's faces are resolved and its texts fitted and searched for glossary
terms. The lookup's walk also gives the game folder's `Frame` (its files hashed one by one):
results worked out from one content file and the game's other files (a deck's card units as
one, a bank's print fit, a file's clean texts, a rulebook render's reads of one deck) are
named by that file in it, and check families that read no content file (board styles, the
boards' legibility) are kept whole; the rest of the checks run over the whole game as
without the cache.

Entries live in the user cache folder (`toolkit.usercache`: a private folder, signed
entries): findings one per game, current folder and options, units one per game folder,
each replaced as the game changes (units: those the last run used); and, in a store of
their own (`FILES_STORE`, pruned to its size, oldest written first), the parse of each YAML
file by its bytes (toolkit.content.parse_units): an unchanged file's is read, not written
again. A corrupt, foreign or
tampered entry, or a unit value of another shape than its kind stores, is ignored (worked
out afresh) and said only with `--verbose`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import marshal
import os
import re
import stat
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from toolkit.content.folders import TOOL_FOLDERS, modeline_schema_exists, real_paths, repo_root
from toolkit.diagnostics.diagnostic import Diagnostic, Severity, Span
from toolkit.fileio import MAX_DEPTH, file_version
from toolkit.usercache import SignedStore, cache_root

if TYPE_CHECKING:
    from toolkit.content.unit_cache import Units

FORMAT = "playset-findings-2"  # 2: a finding keeps its sheet and its span's own file
STORE = "validate"
FILES_STORE = "validate-files"
"""The store of the units kept one per entry (toolkit.content.unit_cache.FileUnits)."""
FILES_KEEP_BYTES = 64 * 1024 * 1024
"""Its entries are pruned to this size: one is added at each edit of a file (a deck's parse,
~0.1 to 0.5 MB)."""
MAX_ENTRY_BYTES = 64 * 1024 * 1024
MAX_FILES = 20_000
MAX_BYTES = 512 * 1024 * 1024
"""A game folder larger than this is not cached (hashing it would cost what it saves)."""
SKIP = TOOL_FOLDERS  # never walked: see toolkit.content.folders
OUTPUT = "output"
IGNORE_LISTS = frozenset({".gitignore", ".gitattributes", ".hgignore", ".dockerignore"})
"""Version-control lists the toolkit never reads: naming `output/` there (as `playset new`'s
.gitignore does) reads nothing from it."""
MODELINE_MARK = b"yaml-language-server"
# Looser than toolkit.checks.references.MODELINE (any position, any line): every schema
# the check may look for is among these.
MODELINE_TARGET = re.compile(r"yaml-language-server:[ \t]*\$schema=(\S+)")

Note = Callable[[str], None]


class TooBig(Exception):
    """The folder holds more than MAX_FILES files and folders or MAX_BYTES bytes."""


@dataclass
class _Budget:
    """The files and bytes a look at a game folder has gone through (TooBig past them)."""

    files: int = 0
    bytes: int = 0

    def spend(self, size: int) -> None:
        """One more file of `size` bytes, or a folder (0): a folder costs as a file, as the
        walk lists it (100,000 empty folders took every cached run 3 s, never TooBig)."""
        self.files += 1
        self.bytes += size
        if self.files > MAX_FILES or self.bytes > MAX_BYTES:
            raise TooBig


@dataclass(frozen=True)
class FileFacts:
    """What a file is (`tag`: its bytes' digest, or its kind) and what the game may name
    in it: the word `output`, the schemas of editor modelines."""

    tag: str
    mentions_output: bool = False
    modelines: tuple[str, ...] = ()


def _read(fd: int, size: int) -> bytes | None:
    """The file's bytes, reading no further than its size says (and one byte past it): None
    for a file that gives more than its size, a `/proc` file (size 0) or one growing while
    read: `/proc/self/pagemap`, linked into a game, gave 6.6 GB in 30 s and read on."""
    chunks = []
    left = size + 1
    while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
        chunks.append(chunk)
        left -= len(chunk)
    return None if left <= 0 else b"".join(chunks)


def volatile() -> FileFacts:
    """The facts of a file whose bytes cannot be pinned (it gives more than its size): a tag
    no other run gives, so no key that holds it is ever found again, nor kept."""
    import secrets

    return FileFacts("V" + secrets.token_hex(16))


def leads_outside(path: str, inside: str | None) -> bool:
    """Whether the link at `path` leads outside the folder `inside` (a real path; None: no
    bound, for the toolkit's own trees)."""
    if inside is None:
        return False
    real = os.path.realpath(path)
    return not (real == inside or real.startswith(inside.rstrip(os.sep) + os.sep))


def kind_of(path: str) -> str:
    """What a path is, from a stat alone (never read): its file type, or the error."""
    try:
        return f"K{stat.S_IFMT(os.stat(path).st_mode):o}"
    except OSError as exc:
        return f"E{exc.errno}"


WHOLE_BYTES = 8 * 1024 * 1024
"""A larger file is hashed as it is read, a megabyte at a time: read whole, a 300 MB file
beside the game held 650 MB (probe 66). A content file is at most 4 MB."""


def _streamed_facts(fd: int, size: int) -> FileFacts | None:
    """`_facts` of a large file read in pieces; None for one that gives more than its size
    or names an editor's schema (its modelines are looked for in a whole text only: such a
    file, past any content file's size, is never remembered)."""
    digest = hashlib.sha256()
    mentions_output = False
    keep = max(len(MODELINE_MARK), len(OUTPUT)) - 1
    tail = b""
    left = size + 1
    while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
        digest.update(chunk)
        left -= len(chunk)
        seen = tail + chunk
        if MODELINE_MARK in seen:
            return None
        mentions_output = mentions_output or OUTPUT.encode() in seen
        tail = seen[-keep:]
    if left <= 0:
        return None
    return FileFacts("F" + digest.hexdigest(), mentions_output)


def _facts(data: bytes) -> FileFacts:
    modelines: tuple[str, ...] = ()
    if MODELINE_MARK in data:
        text = data.decode("utf-8", "replace")
        modelines = tuple(m.group(1) for m in MODELINE_TARGET.finditer(text))
    tag = "F" + hashlib.sha256(data).hexdigest()
    return FileFacts(tag, OUTPUT.encode() in data, modelines)


class StatCache:
    """File facts by path, trusted while the file's device, inode, size, modification and
    change times are the same (as git's index): an unchanged tree is stat()ed, not read.
    A file changed in the last seconds is not remembered (its times may not move on a
    second write within the file system's clock tick)."""

    RACY_NS = 3_000_000_000

    def __init__(self, known: dict[str, list[object]] | None = None) -> None:
        self.known = known or {}
        self.seen: dict[str, list[object]] = {}
        self.changed = False
        self._made: dict[str, tuple[list[object], FileFacts]] = {}
        """The facts made of a trusted stamp, by path (a run walks the code trees twice and
        the game three times: each walk after the first makes none again)."""

    def learnt_since(self, before: dict[str, list[object]]) -> dict[str, list[object]]:
        """The stamps taken since `before` (a copy of `seen` then): what a forked child
        learnt, for its parent to keep (`learn`)."""
        return {path: v for path, v in self.seen.items() if before.get(path) is not v}

    def learn(self, stamps: dict[str, list[object]], changed: bool) -> None:
        """Take the stamps another process of this run learnt (`learnt_since`)."""
        self.seen.update(stamps)
        self.changed |= changed

    def facts(
        self,
        path: str,
        budget: _Budget,
        *,
        absolute: bool = False,
        stamps: list[list[object]] | None = None,
    ) -> FileFacts:
        """The facts of `path` (`absolute`: made absolute and normal already); never blocks
        on a FIFO or a device. `stamps`: the stamp of a regular file is added to it."""
        if not absolute:
            path = os.path.abspath(path)
        try:
            info = os.stat(path)
        except OSError as exc:
            return FileFacts(f"E{exc.errno}")
        if not stat.S_ISREG(info.st_mode):
            return FileFacts(f"K{stat.S_IFMT(info.st_mode):o}")
        budget.spend(info.st_size)
        stamp = list(file_version(info))
        known = self.seen.get(path) or self.known.get(path)
        if known is not None and known[:5] == stamp:
            self.seen[path] = known
            if stamps is not None:
                stamps.append([path, *stamp])
            made = self._made.get(path)
            if made is not None and made[0] is known:
                return made[1]
            try:
                facts = FileFacts(str(known[5]), bool(known[6]), tuple(map(str, known[7])))  # type: ignore[call-overload]
            except (IndexError, TypeError):
                pass
            else:
                self._made[path] = (known, facts)
                return facts
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
        except OSError as exc:
            return FileFacts(f"E{exc.errno}")
        try:
            info = os.fstat(fd)  # what is read: the stamp of this very file
            if not stat.S_ISREG(info.st_mode):
                return FileFacts(f"K{stat.S_IFMT(info.st_mode):o}")
            if info.st_size > WHOLE_BYTES:
                facts = _streamed_facts(fd, info.st_size) or volatile()
            else:
                data = _read(fd, info.st_size)
                if data is None:
                    return volatile()
                facts = _facts(data)
        except OSError as exc:
            return FileFacts(f"E{exc.errno}")
        finally:
            os.close(fd)
        stamp = list(file_version(info))
        if stamps is not None:
            stamps.append([path, *stamp])
        if time.time_ns() - max(info.st_mtime_ns, info.st_ctime_ns) > self.RACY_NS:
            self.seen[path] = [*stamp, facts.tag, facts.mentions_output, list(facts.modelines)]
            self.changed = True
        return facts


def _cache_folders() -> set[tuple[int, int]]:
    """The user's cache folder (device, inode), if it exists: PLAYSET_CACHE or
    XDG_CACHE_HOME set to a folder inside a game made every run's digest differ (the run
    writes its cache there), so validate never hit its cache."""
    try:
        info = os.stat(cache_root())
    except OSError:
        return set()
    return {(info.st_dev, info.st_ino)}


class _Walk:
    """The digest of folders, every entry in name order, links followed once; with `inside`
    (the game folder's real path), a link that leads outside it is hashed as its target's
    path and kind only, never followed nor read: the checks refuse such a file unread, and a
    link to `~` or `/` would read the user's files (up to the budget) on every run."""

    def __init__(self, stats: StatCache, inside: str | None = None) -> None:
        self.stats = stats
        self.inside = inside
        self.budget = _Budget()
        self.seen: set[tuple[int, int]] = set()
        self.caches = _cache_folders()
        self.mentions_output = False
        self.modelines: list[tuple[str, str]] = []
        self.tags: dict[str, int] | None = None
        """With a `_Tee` digest: each file's tag, by its path made absolute, as the index of
        its part (what `Frame` leaves out)."""
        self.stamps: list[list[object]] | None = None
        """With a list: each folder's and file's path (absolute) and stamp, in walk order
        (what `code_part` keeps to tell the trees unchanged without walking them)."""
        self.plain = True
        """Whether every entry walked was a listable folder, a link read or a regular file
        hashed (else the stamps do not tell all the walk saw)."""

    def folder(
        self,
        root: str,
        digest: hashlib._Hash,
        watch: bool = False,
        omit: str | None = None,
        depth: int = 0,
    ) -> None:
        if depth >= MAX_DEPTH:  # no key, no cache: the same findings, worked out afresh
            raise TooBig
        try:
            info = os.stat(root)
            with os.scandir(root) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as exc:
            digest.update(f"unlistable {exc.errno}\0".encode())
            self.plain = False
            return
        if self.stamps is not None:
            self.stamps.append([os.path.abspath(root), *file_version(info)])
        if (info.st_dev, info.st_ino) in self.seen:
            digest.update(b"cycle\0")
            return
        if (info.st_dev, info.st_ino) in self.caches:  # written by the run it would key
            digest.update(b"cache\0")
            return
        self.seen.add((info.st_dev, info.st_ino))
        self.budget.spend(0)
        base = os.path.abspath(root)  # each file's absolute path: its name joined to this
        for entry in entries:
            if entry.name in SKIP or entry.name == omit:
                continue
            digest.update(entry.name.encode("utf-8", "surrogateescape") + b"\0")
            linked = entry.is_symlink()
            if linked:
                try:
                    link = os.readlink(entry.path).encode("utf-8", "surrogateescape")
                except OSError:
                    link = b"?"
                    self.plain = False
                digest.update(b"L" + link + b"\0")
                self.mentions_output |= watch and OUTPUT.encode() in link
                if leads_outside(entry.path, self.inside):
                    digest.update(f"outside {kind_of(entry.path)}\0".encode())
                    continue
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                digest.update(b"D\0")
                self.folder(entry.path, digest, watch, depth=depth + 1)
                digest.update(b"/D\0")
                continue
            path = os.path.join(base, entry.name)
            facts = self.stats.facts(path, self.budget, absolute=True, stamps=self.stamps)
            self.plain &= facts.tag[:1] == "F"
            digest.update(facts.tag.encode() + b"\0")
            if self.tags is not None and isinstance(digest, _Tee):
                self.tags[path] = len(digest.parts) - 1
            if watch:
                self.mentions_output |= facts.mentions_output and entry.name not in IGNORE_LISTS
                real = os.path.realpath(entry.path) if linked else entry.path
                self.modelines += [(real, m) for m in facts.modelines]

    def game(self, root: str, digest: hashlib._Hash) -> None:
        """The game folder, its top-level `output/` counted only if some file names it."""
        self.inside = os.path.realpath(root)
        self.folder(root, digest, watch=True, omit=OUTPUT)
        if self.mentions_output:
            output = os.path.join(root, OUTPUT)
            digest.update(b"output\0")
            if os.path.islink(output):
                try:
                    digest.update(b"L" + os.fsencode(os.readlink(output)) + b"\0")
                except OSError:
                    digest.update(b"L?\0")
            if leads_outside(output, self.inside):
                digest.update(f"outside {kind_of(output)}\0".encode())
            elif os.path.isdir(output):
                self.folder(output, digest)
            elif os.path.lexists(output):
                digest.update(self.stats.facts(output, self.budget).tag.encode() + b"\0")
        real = real_paths()
        for path, target in sorted(set(self.modelines)):
            if "://" in target:
                continue
            there = modeline_schema_exists(path, target, self.inside or path, real)
            digest.update(f"modeline {path}\0{target}\0{there}\0".encode("utf-8", "replace"))


def _site_stamps() -> list[str]:
    """Each installed-packages folder on the path with its modification time."""
    stamps = []
    for entry in sys.path:
        if os.path.basename(entry) in ("site-packages", "dist-packages"):
            try:
                stamps.append(f"{entry}\0{os.stat(entry).st_mtime_ns}")
            except OSError:
                stamps.append(f"{entry}\0-")
    return stamps


def shared_trees() -> list[tuple[str, str]]:
    """The folders every game's findings depend on: the toolkit package (checks, schemas,
    bundled data) and the shared templates (layouts, fonts, icons)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return [("toolkit", package), ("templates", str(repo_root() / "templates"))]


def _code_part(walk: _Walk) -> str:
    """The hash of what every game's results depend on: the interpreter, the installed
    packages, the repository root, the toolkit's files and the shared templates."""
    digest = hashlib.sha256()
    head = [FORMAT, sys.version, sys.executable, str(repo_root()), *_site_stamps()]
    digest.update("\0".join(head).encode("utf-8", "surrogateescape"))
    for label, tree in shared_trees():
        digest.update(f"\0tree {label}\0".encode())
        walk.folder(tree, digest)
    return digest.hexdigest()


@dataclass(frozen=True)
class CodePart:
    """The code part as one walk found it, with what that walk had counted and seen: a game
    walked after it is counted and hashed as in one walk of both."""

    digest: str
    files: int
    bytes: int
    seen: frozenset[tuple[int, int]]


CODE_RECORD = "\0code-part"
"""The key, among the file stamps (`STATS`: no path is this), of the code part's record: its
digest as the last full walk found it, what that walk counted and saw, and the stamp of
every folder and file it walked."""


def code_part(stats: StatCache) -> CodePart | None:
    """The code part hashed now; None when the trees are too large to cache. It is the one
    its record gives (`CODE_RECORD`) while every folder and file the record's walk went
    through has its stamp still (each `stat`ed: a file changed has a new stamp; a folder
    whose entries changed, a name added, removed or renamed, a link replaced, has a new
    modification time): the walk's listing, sorting and hashing of ~80 folders and ~700
    files is then not done again, twice a run after a card edit. A record is kept only of
    a walk that met nothing but folders, links and regular files, none changed in the last
    seconds (`StatCache.RACY_NS`: a second change within the file system's clock tick would
    not move its time)."""
    key = _code_key()
    kept = _kept_code(stats, key)
    if kept is not None:
        return kept
    walk = _Walk(stats)
    walk.stamps = []
    try:
        digest = _code_part(walk)
    except TooBig:
        return None
    part = CodePart(digest, walk.budget.files, walk.budget.bytes, frozenset(walk.seen))
    now = time.time_ns()
    settled = all(now - max(s[4], s[5]) > stats.RACY_NS for s in walk.stamps)  # type: ignore[call-overload]
    if walk.plain and settled:
        seen = sorted([device, inode] for device, inode in part.seen)
        record: list[object] = [key, digest, part.files, part.bytes, seen, walk.stamps]
        if stats.seen.get(CODE_RECORD) != record:
            stats.seen[CODE_RECORD] = record
            stats.changed = True
    return part


def _code_key() -> str:
    """What the code part's record holds for, besides the stamps: the head the code part
    hashes (interpreter, packages, repository root), the trees and the cache folder."""
    head = [FORMAT, "code-record-1", sys.version, sys.executable, str(repo_root())]
    head += [*_site_stamps(), *(f"{label}\0{tree}" for label, tree in shared_trees())]
    head += [f"cache {device} {inode}" for device, inode in sorted(_cache_folders())]
    head += [f"bounds {MAX_FILES} {MAX_BYTES} {MAX_DEPTH}"]
    return hashlib.sha256("\0".join(head).encode("utf-8", "surrogateescape")).hexdigest()


def _kept_code(stats: StatCache, key: str) -> CodePart | None:
    """The code part as its record gives it, if every stamp in it is the stamp now."""
    record = stats.seen.get(CODE_RECORD) or stats.known.get(CODE_RECORD)
    if not isinstance(record, list) or len(record) != 6 or record[0] != key:
        return None
    digest, files, size, seen, stamps = cast("list[Any]", record)[1:]
    try:
        if not (type(digest) is str and type(files) is int and type(size) is int):
            return None
        folders = frozenset((int(device), int(inode)) for device, inode in seen)
        for path, *stamp in stamps:
            if type(path) is not str or list(file_version(os.stat(path))) != stamp:
                return None  # (a number would be taken for a file descriptor)
    except (OSError, TypeError, ValueError):
        return None
    stats.seen[CODE_RECORD] = record
    return CodePart(digest, files, size, folders)


class _Tee:
    """A digest that also keeps each part it is given, in order (for `Frame`)."""

    def __init__(self, digest: hashlib._Hash) -> None:
        self.digest = digest
        self.parts: list[bytes] = []

    def update(self, data: bytes) -> None:
        self.digest.update(data)
        self.parts.append(data)


@dataclass(frozen=True)
class Frame:
    """A game folder as one walk of it hashed it, a file at a time: what a check that reads
    no content file (deck, question bank) depends on in the game, besides the units' head
    (toolkit.content.unit_cache.Units.frame)."""

    where: str
    parts: tuple[bytes, ...]
    tags: dict[str, int]

    def __post_init__(self) -> None:
        starts = [0]
        for part in self.parts:
            starts.append(starts[-1] + len(part))
        object.__setattr__(self, "_joined", b"".join(self.parts))
        object.__setattr__(self, "_starts", starts)
        object.__setattr__(self, "_digests", {})

    def digest(self, without: set[str] | frozenset[str]) -> str:
        """The digest of the folder with the bytes of the files at `without` (paths made
        absolute) left out: their names and kinds are still in it. Kept for a `frozenset`
        (the game's content files, asked for by each file's names: `digest_but`)."""
        known: dict[frozenset[str], str] = self._digests  # type: ignore[attr-defined]
        if type(without) is frozenset and without in known:
            return known[without]
        joined: bytes = self._joined  # type: ignore[attr-defined]
        starts: list[int] = self._starts  # type: ignore[attr-defined]
        digest = hashlib.sha256(self.where.encode("utf-8", "surrogateescape") + b"\0")
        at = 0
        for i in sorted({self.tags[p] for p in without if p in self.tags}):
            digest.update(joined[at : starts[i]])
            digest.update(b"-\0")  # a tag is hex: never this
            at = starts[i + 1]
        digest.update(joined[at:])
        hexdigest = digest.hexdigest()
        if type(without) is frozenset:
            known[without] = hexdigest
        return hexdigest

    def digest_but(self, without: frozenset[str], here: str) -> str:
        """What `digest(without - {here})` tells apart, in constant work once `digest(
        without)` is known: that digest, with the place and the part of `here` (left in)
        added. A game of 6,000 one-card decks asked ~8 names a file, each hashing the
        folder again and going over every other file: 116 s of `validate` (probe 42)."""
        rest = self.digest(without)
        i = self.tags.get(here)
        if i is None or here not in without:
            return rest  # `here` left in already, or not in the folder
        but = f"{rest}\0but {i}\0".encode() + self.parts[i]
        return hashlib.sha256(but).hexdigest()


@dataclass(frozen=True)
class Framed:
    """The code part and a game folder's frame, taken together (`FindingsCache.framed`)."""

    where: str
    code: CodePart
    frame: Frame


def _frame_where(folder: Path) -> str:
    return "\0".join([FORMAT, "frame", os.getcwd(), str(folder), os.path.abspath(folder)])


def game_frame(folder: Path, stats: StatCache, code: CodePart | None = None) -> Frame | None:
    """The game folder hashed a file at a time (None when too large to cache)."""
    tee = _Tee(hashlib.sha256())
    try:
        walk, part = _walk_after(stats, code)
        walk.tags = {}
        tee.update(f"\0code {part}\0game\0".encode())
        walk.game(str(folder), tee)  # type: ignore[arg-type]
    except TooBig:
        return None
    return Frame(_frame_where(folder), tuple(tee.parts), walk.tags)


def _walk_after(stats: StatCache, code: CodePart | None) -> tuple[_Walk, str]:
    """A walk that has hashed the code part (`code` as taken earlier, else now)."""
    walk = _Walk(stats)
    if code is None:
        return walk, _code_part(walk)
    walk.budget.files, walk.budget.bytes = code.files, code.bytes
    walk.seen |= code.seen
    return walk, code.digest


def inputs_digest(
    folder: Path,
    options: Sequence[str],
    stats: StatCache,
    code: CodePart | None = None,
    frames: list[Frame] | None = None,
) -> str | None:
    """The hash of everything the findings of the game in `folder` depend on (the
    module's dependency rule); None when the game is too large to cache. `code`: the code
    part as taken a moment ago, with no check run since (hashed again otherwise). With
    `frames`, the walk's `Frame` is added to it."""
    digest = hashlib.sha256(_inputs_head(folder, options))
    tee = _Tee(digest)
    try:
        walk, part = _walk_after(stats, code)
        walk.tags = {} if frames is not None else None
        tee.update(f"\0code {part}\0game\0".encode())
        walk.game(str(folder), tee)  # type: ignore[arg-type]
    except TooBig:
        return None
    if frames is not None and walk.tags is not None:
        frames.append(Frame(_frame_where(folder), tuple(tee.parts), walk.tags))
    return digest.hexdigest()


def _inputs_head(folder: Path, options: Sequence[str]) -> bytes:
    head = [FORMAT, os.getcwd(), str(folder), os.path.abspath(folder), "options", *options]
    return "\0".join(head).encode("utf-8", "surrogateescape")


def framed_inputs_digest(folder: Path, options: Sequence[str], code: CodePart, frame: Frame) -> str:
    """`inputs_digest(folder, options, stats, code)` from a walk of the game taken with a
    code part that counted and saw what `code` did (`Frame`: the game walk's parts, after
    the code part's): the same bytes hashed, the game folder not walked again."""
    digest = hashlib.sha256(_inputs_head(folder, options))
    digest.update(f"\0code {code.digest}\0game\0".encode())
    for part in frame.parts[1:]:
        digest.update(part)
    return digest.hexdigest()


def units_digest(folder: Path, stats: StatCache, code: CodePart | None = None) -> str | None:
    """The hash of what every unit result of the game in `folder` depends on besides its
    own arguments (toolkit.content.unit_cache): the code part, and the game's `fonts/`
    folder (a face is named by a short digest of its file); None when too large."""
    digest = hashlib.sha256(f"{FORMAT}\0units\0".encode())
    try:
        walk, part = _walk_after(stats, code)
        digest.update(f"code {part}\0fonts\0".encode())
        walk.inside = os.path.realpath(folder)  # a font linked outside is refused unread
        fonts = os.path.join(os.path.abspath(folder), "fonts")
        if leads_outside(fonts, walk.inside):
            digest.update(f"outside {kind_of(fonts)}\0".encode())
        else:
            walk.folder(fonts, digest)
    except TooBig:
        return None
    return digest.hexdigest()


_REAL: dict[str, str] = {}
"""The real path of each module file named so far in this process (a module file is not
moved under a running process; resolving ~1,500 of them took ~40 ms per game)."""
_REAL_FOLDERS: dict[str, str] = {}
"""The real path of each folder of a module file (a few hundred folders hold them)."""


_LAZY = getattr(importlib.util, "_LazyModule", None)
"""The type of a module toolkit.deferred_imports put off (its code has not run)."""


def _real_module_path(name: str) -> str:
    """`os.path.realpath(name)` with its folder resolved once for all the modules it holds:
    a file that is no link is its real folder's entry of the same name. An absolute path
    with no empty part (nearly every module's) is split and joined as `os.path.split` and
    `os.path.join` do, written out (~460 modules a run; their calls were ~1 ms of it)."""
    try:
        link = stat.S_ISLNK(os.lstat(name).st_mode)
    except (OSError, ValueError):  # as os.path.islink
        link = False
    if link:
        return os.path.realpath(name)
    if name[:1] == "/" and "//" not in name and name[-1:] != "/":
        folder, _, base = name.rpartition("/")
        real = _real_folder(folder or "/")
        return f"{real}{base}" if real.endswith("/") else f"{real}/{base}"
    folder, base = os.path.split(name)
    return os.path.join(_real_folder(folder), base)


def _real_folder(folder: str) -> str:
    """`os.path.realpath(folder)`, from its parent's, resolved once: a folder that is no
    link is its real parent's entry of the same name (one `lstat`; `realpath` took one for
    each part of the path, for every folder of a module: ~300 of them after a card edit).
    A path that is not absolute and normal (`..`, `.`, `//`) is resolved whole."""
    real = _REAL_FOLDERS.get(folder)
    if real is not None:
        return real
    parent, base = os.path.split(folder)
    if (
        not base
        or parent == folder
        or not os.path.isabs(folder)
        or os.path.normpath(folder) != folder
        or folder.count(os.sep) > MAX_DEPTH
        or os.path.islink(folder)
    ):
        real = os.path.realpath(folder)
    else:
        real = os.path.join(_real_folder(parent), base)
    _REAL_FOLDERS[folder] = real
    return real


def _outside_modules() -> list[str]:
    """Source files of loaded modules that no hashed tree, standard library or installed
    package holds (an editable plugin, say)."""
    import site
    import sysconfig

    roots = {sysconfig.get_path(name) for name in ("stdlib", "platstdlib", "purelib", "platlib")}
    roots |= set(site.getsitepackages()) | {site.getusersitepackages()}
    roots.add(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    real_roots = tuple(_real_folder(r) + os.sep for r in roots if r)
    found = set()
    for module in list(sys.modules.values()):
        if type(module) is _LAZY:  # deferred, never run (reading its `__file__` runs it)
            continue
        name = getattr(module, "__file__", None)
        if not isinstance(name, str):
            continue
        real = _REAL.get(name)
        if real is None:
            real = _REAL[name] = _real_module_path(name)
        if not real.startswith(real_roots):
            found.add(real)
    return sorted(found)


def _files_digest(files: Sequence[str]) -> str:
    digest = hashlib.sha256()
    for name in files:
        tag = StatCache().facts(name, _Budget()).tag
        digest.update(f"{name}\0{tag}\0".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def _to_record(d: Diagnostic) -> list[object]:
    s = d.span
    return [
        d.file,
        d.code,
        d.message,
        d.severity.value,
        s.line,
        s.col,
        s.end_line,
        s.end_col,
        s.sheet,  # a cell of a sheet is said `cards!E3`, not `3:5`
        s.file,
    ]


def _from_record(r: list[object]) -> Diagnostic:
    file, code, message, severity, line, col, end_line, end_col, sheet, own = r
    if not all(isinstance(v, str) for v in (file, code, message, severity)):
        raise ValueError("not a finding")
    if not all(isinstance(v, int) for v in (line, col)):
        raise ValueError("not a finding")
    if not all(v is None or isinstance(v, int) for v in (end_line, end_col)):
        raise ValueError("not a finding")
    if not all(v is None or isinstance(v, str) for v in (sheet, own)):
        raise ValueError("not a finding")
    span = Span(line, col, end_line, end_col, sheet, own)  # type: ignore[arg-type]
    return Diagnostic(file, code, message, Severity(severity), span)  # type: ignore[arg-type]


finding_record = _to_record
finding_from_record = _from_record

STATS = "stats-2"
"""The file stamps' entry (2: `marshal` data, not JSON: ~650 stamps, each read back at every
run and written again after any edit, took JSON ~1.3 ms to read and ~1.7 ms to write, marshal
~0.3 and ~0.1)."""
MAX_STATS = 100_000
UNITS_FORMAT = "playset-units-3"
"""2: the entry written by `marshal`, not JSON (a bundled game's ~0.6 MB entry, read and
written again at each card edit: ~3 ms to decode and ~6 ms to encode as JSON, ~2.5 ms and
~2 ms with marshal; its format is the interpreter's, in the units' head). Every value in it
is JSON's own data (toolkit.content.unit_cache.Units.put): what a JSON entry gave back.
3: each unit's value is marshalled apart (`units` maps a name to those bytes), decoded
when a check asks for it and written back as the bytes read (toolkit.content.unit_cache.
Units): a card edit of a bundled game decoded and encoded its ~0.9 MB entry whole, ~6 ms,
for the ~400 units it reads back unchanged and the ~25 it works out."""
UNITS_MARSHAL_VERSION = 2
"""No references: an object met twice is written twice, so no two units read back share an
object (as from JSON)."""
MAX_UNITS = 500_000


def load_stats(store: SignedStore, note: Note) -> StatCache:
    """The file stamps a store kept (none when they are missing or unreadable)."""
    payload = store.read(STATS)
    try:
        known = marshal.loads(payload) if payload else {}
    except (EOFError, ValueError, TypeError):
        known = None
    if not isinstance(known, dict):
        note("cache: the file stamps are unreadable; every file is read")
        known = {}
    return StatCache(known)


def save_stats(store: SignedStore, stats: StatCache) -> None:
    """Keep the file stamps learnt in this run, if any (for the next run to read less)."""
    if not stats.changed:
        return
    kept = {**stats.known, **stats.seen}
    if len(kept) > MAX_STATS:
        kept = stats.seen
    try:
        payload = marshal.dumps(kept, UNITS_MARSHAL_VERSION)
    except ValueError:  # a stamp nested too deep (never made so): none kept
        return
    store.write(STATS, payload)


def module_record() -> dict[str, object]:
    """The modules loaded from outside the hashed trees, with the digest of their source."""
    modules = _outside_modules()
    return {"modules": modules, "modules_digest": _files_digest(modules)}


def modules_unchanged(entry: dict[str, object]) -> bool:
    """Whether the modules an entry recorded are as they were."""
    modules = entry["modules"]
    if not isinstance(modules, list) or not all(isinstance(m, str) for m in modules):
        raise ValueError("not a module list")
    return _files_digest(modules) == entry["modules_digest"]


class FindingsCache:
    """Findings of whole games by the digest of their inputs."""

    STATS = STATS

    def __init__(self, store: SignedStore, note: Note) -> None:
        self.store = store
        self.note = note
        self._pending: dict[str, str | None] = {}
        self._modules: dict[str, object] | None = None
        self._code: tuple[str, CodePart | None] | None = None  # (folder, its lookup's)
        self._idle: tuple[CodePart | None] | None = None
        self._frame: tuple[str, Frame] | None = None  # (folder, its lookup's)
        self._held: dict[str, Frame | None] = {}  # a missed game's frame (`lookup_all`)
        self._held_code: tuple[CodePart | None] | None = None  # `lookup_all`'s code part
        self._after: tuple[str, CodePart, Frame | None] | None = None
        """(folder, code part, frame): the game as `units` walked it after its checks, with
        the code part that walk started from (what `save` hashes again, unless walked)."""
        """The code part as the last save or answered lookup hashed it, no check run since
        (what the next lookup starts from: it is still the code part then)."""
        self.stats = load_stats(store, note)
        self._files: SignedStore | None = None
        self._files_opened = False

    def close(self) -> None:
        """Keep the file stamps learnt in this run (for the next one to read less)."""
        save_stats(self.store, self.stats)

    @classmethod
    def open(cls, note: Note) -> FindingsCache | None:
        """The user's findings cache, or None (said through `note`) when its folder is not
        private to the user or cannot be written."""
        store = SignedStore.open(STORE, MAX_ENTRY_BYTES)
        if store is None:
            note("cache: off (the cache folder is not private to you or cannot be written)")
            return None
        return cls(store, note)

    @staticmethod
    def _slot(folder: Path, options: Sequence[str]) -> str:
        """The entry's name: one per game folder, current folder and options."""
        where = "\0".join([FORMAT, os.getcwd(), str(folder), *options])
        return hashlib.sha256(where.encode("utf-8", "surrogateescape")).hexdigest()[:40]

    def lookup(
        self, folder: Path, options: Sequence[str], *, chained: bool = False
    ) -> list[Diagnostic] | None:
        """The findings stored for this game as it is now, or None. The code part hashed
        here is also the head of the game's units, taken right after (no check runs
        between them); a save hashes it afresh. `chained`: called right after this cache's
        last save or answered lookup, nothing run between them (`validate`'s loop over
        its games): the code part those hashed is the code part still, so it is not hashed
        again."""
        idle, self._idle = self._idle, None
        self._after = None
        code = idle[0] if idle is not None and chained else code_part(self.stats)
        self._code = (os.path.abspath(folder), code)
        frames: list[Frame] = []
        inputs = inputs_digest(folder, options, self.stats, code, frames)
        self._frame = (os.path.abspath(folder), frames[0]) if frames else None
        slot = self._slot(folder, options)
        self._pending[slot] = inputs
        if inputs is None:
            self.note(f"cache: {folder} is too large to cache")
            return None
        payload = self.store.read(slot)
        if payload is None:
            self.note(f"cache: no usable entry for {folder}")
            return None
        try:
            entry = json.loads(payload)
            if entry["format"] != FORMAT or entry["inputs"] != inputs:
                self.note(f"cache: {folder} changed since its entry")
                return None
            if not modules_unchanged(entry):
                self.note(f"cache: a module the checks loaded changed ({folder})")
                return None
            found = [_from_record(r) for r in entry["findings"]]
        except (ValueError, KeyError, TypeError):
            self.note(f"cache: the entry for {folder} is unreadable; ignored")
            return None
        self.note(f"cache: {folder} unchanged; findings from the cache")
        self._idle = (code,)
        return found

    def lookup_all(
        self, folders: Sequence[Path], options: Sequence[str]
    ) -> list[list[Diagnostic] | None]:
        """`lookup` of each game, one right after another: nothing runs between them, so
        each starts from the code part the one before hashed, a miss's too. The frame a
        missed game's lookup took is kept for its check (`resume`)."""
        found = []
        for folder in folders:
            hit = self.lookup(folder, options, chained=True)
            if hit is None:
                self._idle = (self._code[1] if self._code is not None else None,)
                frame = self._frame
                where = os.path.abspath(folder)
                self._held[where] = frame[1] if frame is not None and frame[0] == where else None
            found.append(hit)
        self._held_code = self._idle
        self._code = self._frame = self._idle = None
        return found

    def resume(self, folder: Path, *, first: bool = False) -> None:
        """Before `units` of a game `lookup_all` missed: the frame its lookup took (checked
        again after the checks, as ever). The code part is hashed afresh (checks of other
        games may have run since: what the units are read under is the code as it is),
        unless `first`: the first game a process forked right after `lookup_all` checks,
        no check run in it since, so the code part that `lookup_all` hashed is the code
        part still (as for the next game of `lookup`'s `chained` loop); hashing it again
        was ~5-20 ms of each worker's first game."""
        where = os.path.abspath(folder)
        frame = self._held.get(where)
        held, self._held_code = self._held_code, None
        self._code = (where, held[0]) if first and held is not None else None
        self._frame = (where, frame) if frame is not None else None

    def save(self, folder: Path, options: Sequence[str], found: Sequence[Diagnostic]) -> None:
        """Keep the findings worked out for this game (after a `lookup` of it)."""
        slot = self._slot(folder, options)
        inputs = self._pending.pop(slot, None)
        if inputs is None:
            return  # too large
        after, self._after = self._after, None
        code = code_part(self.stats)
        self._idle = (code,)
        now: str | None
        if _walked_alike(after, folder, code):  # the game as walked after the checks
            assert after is not None and after[2] is not None and code is not None
            now = framed_inputs_digest(folder, options, code, after[2])
        else:
            now = inputs_digest(folder, options, self.stats, code)
        if now != inputs:
            return  # edited while it was being checked
        modules, self._modules = self._modules or module_record(), None  # the units' if just taken
        entry = {
            "format": FORMAT,
            "inputs": inputs,
            **modules,
            "findings": [_to_record(d) for d in found],
        }
        payload = json.dumps(entry, separators=(",", ":")).encode()
        if not self.store.write(slot, payload):
            self.note(f"cache: could not write the entry for {folder}")

    def framed(self, folder: Path) -> Framed | None:
        """The code part and the game folder's `Frame` hashed now, as a `lookup` takes them
        (None when too large to cache), for `units` of the game as loaded after this call:
        a check that does not look its findings up first (the preview's after each save)
        names its units by the frame too, so a save of one file reads back what the other
        content files' units kept (a bank's print fit, a file's clean texts). Taken before
        the load, as a lookup is: a file saved in between is newer in the game than in the
        frame, and the frame taken again after the checks tells so (their framed units are
        then dropped)."""
        code = code_part(self.stats)
        frame = game_frame(folder, self.stats, code) if code is not None else None
        if code is None or frame is None:
            return None
        return Framed(os.path.abspath(folder), code, frame)

    @contextmanager
    def units(self, folder: Path, framed: Framed | None = None) -> Iterator[None]:
        """While the block checks the game in `folder`, its unit results (toolkit.content.
        unit_cache) are read from and kept in its entry (one per game folder, whatever the
        current folder and options: no unit names a path or an option). `framed`: the code
        part and frame taken before the game was loaded (`framed`), else those of its
        lookup."""
        from toolkit.content.unit_cache import FileUnits, Units, activated

        # the code part of this game's lookup, if it was the last thing done (else afresh)
        kept, self._code = self._code, None
        self._after = None
        framed_before, self._frame = self._frame, None
        where = os.path.abspath(folder)
        if framed is not None and framed.where == where:
            kept, framed_before = (where, framed.code), (where, framed.frame)
        code = kept[1] if kept is not None and kept[0] == where else None
        frame = (
            framed_before[1] if framed_before is not None and framed_before[0] == where else None
        )
        if code is None:  # hashed once here, for the head and the frame's check after
            code = code_part(self.stats)
            if code is None:
                yield  # too large
                return
        head = units_digest(folder, self.stats, code)
        if head is None:
            yield
            return
        where = "\0".join([UNITS_FORMAT, os.path.abspath(folder)])
        slot = "units-" + hashlib.sha256(where.encode("utf-8", "surrogateescape")).hexdigest()[:40]
        units = Units(self._known_units(slot, head, folder))
        units.frame = frame
        files = self._files_store()
        units.files = FileUnits(files, head) if files is not None else None
        with activated(units):
            yield
        if units.framed and frame is not None:
            # a unit named by the frame holds what the checks read: kept only if the game
            # is still as the frame says (not edited while it was being checked)
            now = game_frame(folder, self.stats, code)
            self._after = (os.path.abspath(folder), code, now)  # for `save`, next
            if now is None or now.parts[1:] != frame.parts[1:]:
                for name in units.framed:
                    units.used.pop(name, None)
        if not units.changed() or len(units.used) > MAX_UNITS:
            return
        # kept under the head taken before the checks: code or fonts changed while they ran
        # are read under a head this one is not, so the next run drops these units
        self._modules = module_record()
        entry = {"format": UNITS_FORMAT, "head": head, **self._modules, "units": _packed(units)}
        payload = marshal.dumps(entry, UNITS_MARSHAL_VERSION)
        if not self.store.write(slot, payload):
            self.note(f"cache: could not write the units of {folder}")

    def _files_store(self) -> SignedStore | None:
        """The store of the units kept one per entry (a file's parse), opened once."""
        if not self._files_opened:
            self._files_opened = True
            self._files = SignedStore.open(FILES_STORE, MAX_ENTRY_BYTES, FILES_KEEP_BYTES)
        return self._files

    def _known_units(self, slot: str, head: str, folder: Path) -> dict[str, object]:
        payload = self.store.read(slot)
        if payload is None:
            return {}
        try:
            entry = _units_entry(payload)
            if entry["format"] != UNITS_FORMAT or entry["head"] != head:
                self.note(f"cache: the code or fonts changed since the units of {folder}")
                return {}
            if not modules_unchanged(entry):
                self.note(f"cache: a module the checks loaded changed (units of {folder})")
                return {}
            known = entry["units"]
            if type(known) is not dict or not all(type(v) is bytes for v in known.values()):
                raise ValueError("not units")
        except (ValueError, KeyError, TypeError):
            self.note(f"cache: the units of {folder} are unreadable; ignored")
            return {}
        self.note(f"cache: {len(known)} unit result(s) kept for {folder}")
        return known


def _walked_alike(
    after: tuple[str, CodePart, Frame | None] | None, folder: Path, code: CodePart | None
) -> bool:
    """Whether the walk of the game `units` took after the checks (`after`) is the walk
    `inputs_digest` would take now after the code part `code`: of this folder, begun from a
    code part that counted the same files and bytes and saw the same folders (the game's
    walk depends on nothing else of it; its digest is hashed in afresh)."""
    if after is None or code is None or after[2] is None:
        return False
    where, before, _ = after
    return where == os.path.abspath(folder) and (before.files, before.bytes, before.seen) == (
        code.files,
        code.bytes,
        code.seen,
    )


def _packed(units: Units) -> dict[str, bytes]:
    """The units a run used, each value as its own `marshal` bytes (`UNITS_FORMAT` 3): one
    read back is the bytes it was read from; one nested too deep for marshal is not kept."""
    packed = {}
    for name, value in units.used.items():
        if type(value) is not bytes:
            try:
                value = marshal.dumps(value, UNITS_MARSHAL_VERSION)
            except ValueError:
                continue
        packed[name] = value
    return packed


def _units_entry(payload: bytes) -> dict[str, object]:
    """A units entry's payload read back (ValueError for one that is not a mapping)."""
    try:
        entry = marshal.loads(payload)
    except EOFError as exc:
        raise ValueError("a cut entry") from exc
    if type(entry) is not dict:
        raise ValueError("not a units entry")
    return entry


def cached_findings(folder: Path) -> list[Diagnostic] | None:
    """The findings `playset validate` (no options, run from here) kept for the game in
    `folder` as it is now, or None: what lets the validity gate skip the checks."""
    cache = FindingsCache.open(lambda text: None)
    return cache.lookup(folder, ("select", "ignore")) if cache else None
