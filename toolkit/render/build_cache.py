"""Built files kept between runs, file by file: a `build` draws again only the files whose
inputs changed, and writes the others as it kept them.

Each built file (a language's cards.pdf, questions.pdf, a board, a rulebook) is kept under
the key of exactly what it reads (`toolkit.render.build_inputs`: the toolkit, templates,
installed packages and options, and the game's files it may read, by the live preview's
dependency map), so one edited card draws again the files printing its deck (and the
rulebooks, which print every deck), not the others. A game none of whose files changed,
built with the same options, is written from the cache without being loaded at all: its
index names every file it wrote, under the findings cache's key of the whole game
(toolkit.content.validate_cache). Otherwise the game goes through the validity gate first;
only then are kept files written, beside those drawn again.

An entry is kept only after a build that passed the validity gate and wrote every file,
and only if no input changed while it ran. The kept bytes are written the way a build
writes them (`toolkit.fileio.write_many`: one language's files together, no link followed
below the output folder), and each is checked against its SHA-256 before it is written; an
entry made while a module from outside the hashed trees (an editable plugin) was loaded is
used only while that module's source is the same.

Entries live in the private, signed store `build` of the user cache folder
(toolkit.usercache): per game, current folder and options, one index and one entry per
built file, each replaced as the game changes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.content import validate_cache
from toolkit.usercache import SignedStore

if TYPE_CHECKING:
    from toolkit.fileio import HeldFolder
    from toolkit.render.artifacts import Shows

FORMAT = "playset-build-2"
STORE = "build"
EMPTY = "no-game"  # an empty folder in the store: the key of a game with no files
MAX_ENTRY_BYTES = 512 * 1024 * 1024
MAX_STORE_BYTES = 1024 * 1024 * 1024
"""Bytes of built files the store keeps: each game folder, option set and language keeps its
own PDFs (a game built from many folders, or with many --printer or --profile values, kept
every set for ever); past this the ones used longest ago go when a build ends."""
HEADER = 8  # bytes of the header's length, big-endian, before the header and the file


@dataclass
class Kept:
    """A game's built files: by language, each file's name and bytes, in writing order."""

    game_id: str
    languages: list[str]
    files: dict[str, list[tuple[str, bytes]]] = field(default_factory=dict)


@dataclass
class Reuse:
    """The files of one loaded game (past the gate) that the cache holds: asked file by
    file as the build goes, told each file made, saved together at the end."""

    cache: BuildCache
    folder: Path
    options: tuple[str, ...]
    game: Any
    keys: Any  # build_inputs.PartKeys
    made: dict[tuple[str, str], tuple[str, bool]] = field(default_factory=dict)
    """(lang, name) → (key, whether it was drawn) of each file written."""
    _keys: dict[tuple[str, str], str] = field(default_factory=dict)

    def kept(self, lang: str, artifact: str, name: str, shows: Shows | None) -> bytes | None:
        """The bytes kept for this file (printing `shows`) as its inputs are now, or None
        (draw it)."""
        from toolkit.render.build_reads import reads

        key = self.keys.key(lang, artifact, name, reads(self.game, shows, lang))
        self._keys[(lang, name)] = key
        return self.cache._read_part(self.folder, self.options, lang, name, key)

    def made_file(self, lang: str, artifact: str, name: str, drawn: bool) -> None:
        """A file the build made (drawn, or from `kept`)."""
        key = self._keys.get((lang, name)) or self.keys.key(lang, artifact, name, None)
        self.made[(lang, name)] = (key, drawn)


class BuildCache:
    """Built files by the digest of their inputs and the build's options."""

    def __init__(self, store: SignedStore, note: validate_cache.Note) -> None:
        self.store = store
        self.note = note
        self.stats = validate_cache.load_stats(store, note)
        self._pending: dict[str, str | None] = {}

    @classmethod
    def open(cls, note: validate_cache.Note) -> BuildCache | None:
        store = SignedStore.open(STORE, MAX_ENTRY_BYTES)
        return cls(store, note) if store is not None else None

    def close(self) -> None:
        validate_cache.save_stats(self.store, self.stats)
        self.prune()

    def prune(self, limit: int | None = None) -> None:
        """Delete the kept files used longest ago until the store holds at most `limit`
        bytes of them (MAX_STORE_BYTES; a hit marks its entries used: `_used`)."""
        from toolkit.usercache import prune_least_used

        limit = MAX_STORE_BYTES if limit is None else limit
        names = ("build-", "part-")
        prune_least_used(
            (p for p in self.store.folder.iterdir() if p.name.startswith(names)), limit
        )

    def _used(self, name: str) -> None:
        import contextlib
        import os

        with contextlib.suppress(OSError):
            os.utime(self.store.folder / name)

    @staticmethod
    def _slot(folder: Path, options: Sequence[str]) -> str:
        return "build-" + validate_cache.FindingsCache._slot(folder, (FORMAT, *options))

    @classmethod
    def _part_slot(cls, folder: Path, options: Sequence[str], lang: str, name: str) -> str:
        where = "\0".join([cls._slot(folder, options), lang, name])
        return "part-" + hashlib.sha256(where.encode("utf-8", "surrogateescape")).hexdigest()[:40]

    def lookup(self, folder: Path, options: Sequence[str]) -> Kept | None:
        """Every file kept for this game when none of its inputs changed, or None."""
        slot = self._slot(folder, options)
        inputs = validate_cache.inputs_digest(folder, (FORMAT, *options), self.stats)
        self._pending[slot] = inputs
        payload = self.store.read(slot) if inputs is not None else None
        if payload is None:
            return None
        self._used(slot)
        try:
            head = json.loads(payload)
            if head["format"] != FORMAT or head["inputs"] != inputs:
                return None
            if not validate_cache.modules_unchanged(head):
                return None
            kept = Kept(str(head["game_id"]), [str(lang) for lang in head["languages"]])
            for lang, name, key in head["files"]:
                data = self._read_part(folder, options, str(lang), str(name), str(key))
                if data is None:
                    return None
                kept.files.setdefault(str(lang), []).append((str(name), data))
        except (ValueError, KeyError, TypeError):
            self.note(f"cache: the built files kept for {folder} are unreadable; ignored")
            return None
        self.note(f"cache: {folder} unchanged; its files are written from the cache")
        return kept

    def reuse(self, folder: Path, options: Sequence[str], game: Any) -> Reuse | None:
        """The files kept for the loaded `game` (after a `lookup` of it that found none
        and the validity gate), file by file; None when the game is too large to cache."""
        from toolkit.render.build_inputs import PartKeys, shared_digest
        from toolkit.render.build_reads import snapshot_of

        if self._pending.get(self._slot(folder, options)) is None:
            return None
        empty = self.store.folder / EMPTY
        try:
            empty.mkdir(mode=0o700, exist_ok=True)
        except OSError:
            return None
        shared = shared_digest(empty, options, self.stats)
        if shared is None:
            return None
        keys = PartKeys(shared, folder, snapshot_of(game).files)
        return Reuse(self, folder, tuple(options), game, keys)

    def _read_part(
        self, folder: Path, options: Sequence[str], lang: str, name: str, key: str
    ) -> bytes | None:
        part = self._part_slot(folder, options, lang, name)
        payload = self.store.read(part)
        if payload is None:
            return None
        self._used(part)
        try:
            size = int.from_bytes(payload[:HEADER], "big")
            head = json.loads(payload[HEADER : HEADER + size])
            if head["format"] != FORMAT or head["key"] != key:
                return None
            data = payload[HEADER + size :]
            if len(data) != head["length"] or hashlib.sha256(data).hexdigest() != head["sha256"]:
                return None
            if not validate_cache.modules_unchanged(head):
                return None
        except (ValueError, KeyError, TypeError):
            self.note(f"cache: the kept {lang}/{name} of {folder} is unreadable; ignored")
            return None
        return data

    def save(self, folder: Path, options: Sequence[str], kept: Kept, reuse: Reuse | None) -> None:
        """Keep a game's files (after a `lookup` of it, and `reuse` if it was drawn, and a
        build that wrote them all)."""
        slot = self._slot(folder, options)
        inputs = self._pending.pop(slot, None)
        again = validate_cache.inputs_digest(folder, (FORMAT, *options), self.stats)
        if reuse is None or inputs is None or again != inputs:
            return  # too large, or edited while it was being built
        modules = validate_cache.module_record()
        listed = []
        for lang, items in kept.files.items():
            for name, data in items:
                key, drawn = reuse.made[(lang, name)]
                listed.append([lang, name, key])
                if drawn:
                    self._write_part(folder, options, lang, name, key, data, modules)
        head = {
            "format": FORMAT,
            "inputs": inputs,
            **modules,
            "game_id": kept.game_id,
            "languages": kept.languages,
            "files": listed,
        }
        self.store.write(slot, json.dumps(head, separators=(",", ":")).encode())

    def _write_part(
        self,
        folder: Path,
        options: Sequence[str],
        lang: str,
        name: str,
        key: str,
        data: bytes,
        modules: dict[str, object],
    ) -> None:
        head = {
            "format": FORMAT,
            "key": key,
            **modules,
            "sha256": hashlib.sha256(data).hexdigest(),
            "length": len(data),
        }
        header = json.dumps(head, separators=(",", ":")).encode()
        payload = len(header).to_bytes(HEADER, "big") + header + data
        self.store.write(self._part_slot(folder, options, lang, name), payload)


def write_kept(
    kept: Kept, langs: Sequence[str], out: Path | HeldFolder, report: Callable[[Path], None]
) -> int:
    """Write the kept files of `langs` under out/<game>/<lang>/ as `build_game` writes them;
    how many were written."""
    from toolkit.journal import write_language

    count = 0
    for lang in langs:
        items = kept.files.get(lang, [])
        write_language(out, kept.game_id, lang, items)  # as one change (toolkit.journal)
        for name, _ in items:
            report(out / kept.game_id / lang / name)
            count += 1
    return count
