"""Built files kept between runs: a `build` of a game none of whose inputs changed, with the
same options, writes the files it kept instead of checking and drawing them again.

The key is the findings cache's (toolkit.content.validate_cache: every file of the game
folder, the toolkit and the templates, the installed packages, the current folder) with the
build's options (languages, paper, profile, per-card, artifacts, back offset, artifact
settings). An entry is kept only after a build that passed the validity gate and wrote every
file, so the same inputs would pass it again. The kept bytes are written the way a build
writes them (`toolkit.fileio.write_many`: one language's files together, no link followed
below the output folder), and each is checked against its SHA-256 before it is written. The
granularity is the whole game: one changed card draws the game again.

One entry per game, current folder and options, in the private, signed store `build` of
the user cache folder (toolkit.usercache); replaced as the game changes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from toolkit.content import validate_cache
from toolkit.usercache import SignedStore

FORMAT = "playset-build-1"
STORE = "build"
MAX_ENTRY_BYTES = 512 * 1024 * 1024
HEADER = 8  # bytes of the header's length, big-endian, before the header and the files


@dataclass
class Kept:
    """A game's built files: by language, each file's name and bytes, in writing order."""

    game_id: str
    languages: list[str]
    files: dict[str, list[tuple[str, bytes]]] = field(default_factory=dict)


class BuildCache:
    """Built files of whole games by the digest of their inputs and the build's options."""

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

    @staticmethod
    def _slot(folder: Path, options: Sequence[str]) -> str:
        return "build-" + validate_cache.FindingsCache._slot(folder, (FORMAT, *options))

    def lookup(self, folder: Path, options: Sequence[str]) -> Kept | None:
        """The files kept for this game as it is now and these options, or None."""
        slot = self._slot(folder, options)
        inputs = validate_cache.inputs_digest(folder, (FORMAT, *options), self.stats)
        self._pending[slot] = inputs
        payload = self.store.read(slot) if inputs is not None else None
        if payload is None:
            return None
        try:
            size = int.from_bytes(payload[:HEADER], "big")
            head = json.loads(payload[HEADER : HEADER + size])
            if head["format"] != FORMAT or head["inputs"] != inputs:
                return None
            if not validate_cache.modules_unchanged(head):
                return None
            kept = Kept(str(head["game_id"]), [str(lang) for lang in head["languages"]])
            at = HEADER + size
            for lang, name, digest, length in head["files"]:
                data = payload[at : at + length]
                at += length
                if hashlib.sha256(data).hexdigest() != digest:
                    return None
                kept.files.setdefault(str(lang), []).append((str(name), data))
        except (ValueError, KeyError, TypeError):
            self.note(f"cache: the built files kept for {folder} are unreadable; ignored")
            return None
        self.note(f"cache: {folder} unchanged; its files are written from the cache")
        return kept

    def save(self, folder: Path, options: Sequence[str], kept: Kept) -> None:
        """Keep a game's files (after a `lookup` of it and a build that wrote them all)."""
        slot = self._slot(folder, options)
        inputs = self._pending.pop(slot, None)
        again = validate_cache.inputs_digest(folder, (FORMAT, *options), self.stats)
        if inputs is None or again != inputs:
            return  # too large, or edited while it was being built
        files = [(lang, name, data) for lang, items in kept.files.items() for name, data in items]
        head = {
            "format": FORMAT,
            "inputs": inputs,
            **validate_cache.module_record(),
            "game_id": kept.game_id,
            "languages": kept.languages,
            "files": [[lang, n, hashlib.sha256(d).hexdigest(), len(d)] for lang, n, d in files],
        }
        header = json.dumps(head, separators=(",", ":")).encode()
        payload = len(header).to_bytes(HEADER, "big") + header + b"".join(d for *_, d in files)
        self.store.write(slot, payload)


def write_kept(kept: Kept, langs: Sequence[str], out: Path, report: Callable[[Path], None]) -> int:
    """Write the kept files of `langs` under out/<game>/<lang>/ as `build_game` writes them;
    how many were written."""
    from toolkit.fileio import output_folder, write_many

    count = 0
    for lang in langs:
        items = kept.files.get(lang, [])
        folder = output_folder(out, kept.game_id, lang)
        write_many([(folder / name, data) for name, data in items], inside=out)
        for name, _ in items:
            report(out / kept.game_id / lang / name)
            count += 1
    return count
