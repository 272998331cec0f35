"""The preview's drawings kept on disk between starts, so a second start serves its
images at once instead of drawing every card again.

An entry is named by a digest of everything that draws it: the target's key, the
fingerprint of each of its inputs (`deps.snapshot`: the card, its deck, layout, manifest,
glossary, icons), the toolkit's own files and the shared templates (fonts, built-in
layouts), the drawing libraries' versions, and the game's files other than its content
(art, fonts): size and modification time of each. An edited card has a new name, so it is
drawn again; no request names an entry. Entries live in the signed store `preview` of the
user cache folder (`toolkit.usercache`: private folder, HMAC per entry); anything that does
not check out is drawn afresh. PLAYSET_NO_CACHE=1 turns it off, as for `validate`.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from toolkit.content.validate_cache import shared_trees
from toolkit.fileio import walk
from toolkit.render.deps import Target
from toolkit.usercache import SignedStore, no_cache_env, prune_least_used

STORE = "preview"
MAX_ENTRY_BYTES = 64 * 1024 * 1024  # a long rulebook's pages
MAX_STORE_BYTES = 256 * 1024 * 1024  # pruned down to this when a preview stops
CONTENT_SUFFIXES = {".yaml", ".yml", ".md"}  # fingerprinted by content in the snapshot
LIBRARIES = ("pypdfium2", "reportlab", "pillow", "jinja2")
SKIPPED_DIRS = {"__pycache__", "output"}  # bytecode; what `build` and `export` write


def _stats(root: Path, skip: set[str] | None = None) -> list[str]:
    """`path size mtime` of each file under `root` (hidden folders and caches skipped)."""
    out = []
    for folder, dirs, names in walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS)
        for name in sorted(names):
            path = Path(folder, name)
            if skip and path.suffix.lower() in skip:
                continue
            try:
                info = path.stat()
            except OSError:
                continue
            out.append(f"{path.relative_to(root)} {info.st_size} {info.st_mtime_ns}")
    return out


def _versions() -> list[str]:
    """The drawing libraries' versions (their output is what is stored)."""
    out = []
    for name in LIBRARIES:
        try:
            out.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            out.append(f"{name} ?")
    return out


def stamp(game_root: Path) -> bytes:
    """What every drawing of the game depends on besides its own inputs: the toolkit's
    code, fonts and built-in layouts, the libraries, the game's files other than content."""
    parts = [line for _, tree in shared_trees() for line in _stats(Path(tree))]
    parts += [*_versions(), "--", *_stats(game_root, CONTENT_SUFFIXES)]
    text = "\n".join(parts).encode("utf-8", "surrogateescape")  # names may be no UTF-8
    return hashlib.blake2b(text, digest_size=32).digest()


class ImageStore:
    """PNG pages by target and inputs, as signed entries of the user's `preview` store."""

    def __init__(self, store: SignedStore, base: bytes) -> None:
        self.store = store
        self.folder = store.folder
        self.base = base

    def name(self, target: Target, fingerprints: dict[str, str]) -> str:
        inputs = "\n".join(f"{i}={fingerprints.get(i, '')}" for i in target.inputs)
        raw = self.base + f"\0{target.key}\0{inputs}".encode()
        return hashlib.blake2b(raw, digest_size=24).hexdigest() + ".pages"

    @staticmethod
    def part(name: str, suffix: str) -> str:
        """The entry named after `name` holding one part of a document (its page sizes, its
        PDF, one page): a document's pages are drawn and kept one by one."""
        return f"{name.removesuffix('.pages')}-{suffix}.pages"

    def get(self, name: str) -> list[bytes] | None:
        """The pages stored under `name`, or None (missing, not ours, tampered with). A
        hit is marked used now, so `prune` keeps it."""
        payload = self.store.read(name)
        if payload is None:
            return None
        with contextlib.suppress(OSError):
            os.utime(self.folder / name)
        return _unbundle(payload)

    def prune(self, limit: int = MAX_STORE_BYTES) -> None:
        """Delete the entries used longest ago until the store holds at most `limit` bytes:
        every edit of the toolkit or of a game's art leaves a whole set of old drawings."""
        prune_least_used(self.folder.glob("*.pages"), limit)

    def put(self, name: str, pages: list[bytes]) -> None:
        self.store.write(name, _bundle(pages))  # best effort: no entry, same images


def _bundle(pages: list[bytes]) -> bytes:
    """The pages as one payload: their count and sizes (4 bytes each, big-endian), then them."""
    head = b"".join(n.to_bytes(4, "big") for n in (len(pages), *(len(p) for p in pages)))
    return head + b"".join(pages)


def _unbundle(payload: bytes) -> list[bytes] | None:
    if len(payload) < 4:
        return None
    count = int.from_bytes(payload[:4], "big")
    if 4 + 4 * count > len(payload):
        return None
    sizes = [int.from_bytes(payload[4 + 4 * i : 8 + 4 * i], "big") for i in range(count)]
    at = 4 + 4 * count
    if at + sum(sizes) != len(payload):
        return None
    pages = []
    for size in sizes:
        pages.append(payload[at : at + size])
        at += size
    return pages


def cache_off() -> bool:
    """PLAYSET_NO_CACHE is on: neither drawings nor findings are read or kept (a value that
    says neither is refused by `playset preview` before it starts; here, off is safe)."""
    try:
        return no_cache_env()
    except ValueError:
        return True


def open_store(game_root: Path) -> ImageStore | None:
    """The user's image store for `game_root`, or None when PLAYSET_NO_CACHE is set or the
    cache folder or its key cannot be trusted (the preview then draws everything)."""
    if cache_off():
        return None
    store = SignedStore.open(STORE, MAX_ENTRY_BYTES)
    return ImageStore(store, stamp(game_root)) if store is not None else None
