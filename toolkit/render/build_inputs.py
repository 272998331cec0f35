"""The key of each file `build` keeps: exactly the inputs it depends on.

A built file's key hashes
- everything but the game's own files that any file of any game depends on: the toolkit
  (code, schemas, bundled data), the shared templates (fonts, built-in layouts), the
  interpreter and the installed packages, the current folder, the repository root and the
  build's options: the findings cache's key of a game with no files
  (`validate_cache.inputs_digest` of an empty folder);
- the game folder as given, the file's language, artifact and name, and what it reads
  (`toolkit.render.build_reads`: the live preview's dependency map);
- the bytes and names of the game's files it may read: every file of the game folder (as
  the findings cache walks it) except the content files (decks, question banks, boards,
  rulebook sources, layouts: `Snapshot.files`) it does not read. A file no input of the
  preview names (art, fonts, a sheet, a plugin) counts for every built file.

So one edited card changes the key of the files printing its deck (and of the rulebooks,
which print every deck), not of the others; anything unknown is read by everything.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Sequence
from pathlib import Path

from toolkit.content import validate_cache

FORMAT = "playset-build-part-1"


def shared_digest(
    empty: Path, options: Sequence[str], stats: validate_cache.StatCache
) -> str | None:
    """What every built file depends on besides its game's files; `empty` is a folder with
    nothing in it (the findings cache's key of a game that has no files)."""
    return validate_cache.inputs_digest(empty, (FORMAT, *options), stats)


def _tag(path: str) -> tuple[str, bool]:
    """The digest of a file's bytes (or its kind, or the error reading it), and whether it
    names the output folder; never blocks on a FIFO or a device."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as exc:
        return f"E{exc.errno}", False
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return f"K{stat.S_IFMT(info.st_mode):o}", False
        digest = hashlib.sha256()
        mentions = False
        left = info.st_size + 1  # no further than its size says: a /proc file reads on
        with os.fdopen(os.dup(fd), "rb") as handle:
            while left > 0 and (chunk := handle.read(min(left, 1 << 20))):
                digest.update(chunk)
                mentions |= validate_cache.OUTPUT.encode() in chunk
                left -= len(chunk)
        if left <= 0:  # more than its size: no key holding it is found again
            return validate_cache.volatile().tag, False
        return "F" + digest.hexdigest(), mentions
    except OSError as exc:
        return f"E{exc.errno}", False
    finally:
        os.close(fd)


def game_files(root: Path) -> dict[str, tuple[str, str]]:
    """Every file of the game folder by its path from the folder: (real path, tag). Skipped
    as the findings cache skips them: tool folders, and the top-level `output/` unless a file
    of the game names `output`. Linked folders are followed once, and only inside the game
    folder: a link leading outside is its target's path and kind, never followed nor read
    (as the findings cache hashes it)."""
    found: dict[str, tuple[str, str]] = {}
    seen: set[str] = set()
    mentioned = False
    inside = os.path.realpath(root)

    def walk(folder: str, rel: str, top: bool) -> None:
        nonlocal mentioned
        real = os.path.realpath(folder)
        if real in seen:
            found[rel + "/"] = (real, "cycle")
            return
        seen.add(real)
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as exc:
            found[rel + "/"] = (real, f"unlistable {exc.errno}")
            return
        for entry in entries:
            if entry.name in validate_cache.SKIP or (top and entry.name == validate_cache.OUTPUT):
                continue
            name = f"{rel}/{entry.name}" if rel else entry.name
            link = ""
            if entry.is_symlink():
                try:
                    link = os.readlink(entry.path)
                except OSError:
                    link = "?"
                mentioned |= validate_cache.OUTPUT in link
                if validate_cache.leads_outside(entry.path, inside):
                    real = os.path.realpath(entry.path)
                    found[name] = (real, f"L{link}\0outside {validate_cache.kind_of(entry.path)}")
                    continue
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                walk(entry.path, name, False)
                if link:
                    found[name + "/"] = (os.path.realpath(entry.path), "L" + link)
                continue
            tag, mentions = _tag(entry.path)
            mentioned |= mentions and entry.name not in validate_cache.IGNORE_LISTS
            found[name] = (os.path.realpath(entry.path), f"L{link}\0{tag}" if link else tag)

    walk(str(root), "", True)
    output = root / validate_cache.OUTPUT
    if mentioned and os.path.lexists(output):
        if validate_cache.leads_outside(str(output), inside):
            found[validate_cache.OUTPUT] = (os.path.realpath(output), "outside")
        elif output.is_dir():
            walk(str(output), validate_cache.OUTPUT, False)
        else:
            found[validate_cache.OUTPUT] = (os.path.realpath(output), _tag(str(output))[0])
    return found


class PartKeys:
    """Keys of the files of one loaded game: its files hashed once, then one key a file."""

    def __init__(self, shared: str, folder: Path, snap_files: dict[str, tuple[Path, ...]]):
        self.shared = shared
        self.folder = folder
        self.files = game_files(folder)
        self.inputs = {
            name: {os.path.realpath(p) for p in paths} for name, paths in snap_files.items()
        }
        self.owned = set().union(*self.inputs.values()) if self.inputs else set()

    def key(self, lang: str, artifact: str, name: str, reads: frozenset[str] | None) -> str:
        """The key of file `name` of `artifact` in `lang`, which reads `reads` (None: all)."""
        digest = hashlib.sha256()
        head = [FORMAT, self.shared, str(self.folder), os.path.abspath(self.folder)]
        head += [lang, artifact, name, "*" if reads is None else "\0".join(sorted(reads))]
        digest.update("\0".join(head).encode("utf-8", "surrogateescape") + b"\0\0")
        read: set[str] = set()
        for input_name in reads or ():
            read |= self.inputs.get(input_name, set())
        for rel, (real, tag) in self.files.items():
            if reads is not None and real in self.owned and real not in read:
                continue
            digest.update(f"{rel}\0{tag}\0".encode("utf-8", "surrogateescape"))
        return digest.hexdigest()
