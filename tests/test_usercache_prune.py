"""Stores keyed by content (compiled templates, kept code, fonts, plural rules) are kept to a
size: an editor checking a rulebook as one types added an entry per edit, without end."""

from __future__ import annotations

import os

from jinja2.bccache import Bucket

from toolkit import usercache
from toolkit.render import jinja_cache


def _private_folder(tmp_path):
    folder = tmp_path / "store"
    folder.mkdir(mode=0o700)
    return folder, usercache.folder_key(folder)


def _fill(folder, key, count: int, size: int) -> list[str]:
    """`count` entries of `size` bytes, written one second apart (oldest first)."""
    unbounded = usercache.SignedStore(folder, key, 1 << 20)
    names = [f"entry-{n:02d}" for n in range(count)]
    for n, name in enumerate(names):
        assert unbounded.write(name, bytes(size))
        os.utime(folder / name, ns=(n * 10**9, n * 10**9))
    return names


def test_a_kept_store_drops_the_entries_written_first(tmp_path) -> None:
    folder, key = _private_folder(tmp_path)
    names = _fill(folder, key, 10, 1000)
    entry = 1000 + usercache.MAC_BYTES
    store = usercache.SignedStore(folder, key, 1 << 20, keep_bytes=3 * entry)
    assert store.write("newest", bytes(1000))
    left = sorted(p.name for p in folder.iterdir())
    assert left == sorted([usercache.KEY_FILE, "newest", *names[-2:]])
    assert store.read("newest") == bytes(1000)  # the key survives: entries still check out
    assert store.read(names[-1]) == bytes(1000)


def test_a_store_bounded_by_its_caller_is_never_pruned_here(tmp_path) -> None:
    # the build cache and the preview's pages prune their own files, to their own sizes
    folder, key = _private_folder(tmp_path)
    names = _fill(folder, key, 10, 1000)
    store = usercache.SignedStore(folder, key, 1 << 20)
    assert store.write("newest", bytes(1000))
    assert len([n for n in names if (folder / n).exists()]) == 10


def test_compiled_templates_are_kept_to_their_size(tmp_path, monkeypatch) -> None:
    folder, key = _private_folder(tmp_path)
    monkeypatch.setattr(jinja_cache, "KEEP_BYTES", 20_000)
    for run in range(30):  # one run per edit: a cache of its own each time
        cache = jinja_cache.SignedBytecodeCache(folder, key)
        bucket = Bucket(None, f"rulebook-{run}", "checksum")  # type: ignore[arg-type]
        bucket.code = compile(f"x = {'1' * 2000}", "<rulebook>", "exec")
        cache.dump_bytecode(bucket)
    kept = sum(p.stat().st_size for p in folder.iterdir() if p.name != usercache.KEY_FILE)
    assert 0 < kept <= 20_000


def test_a_store_is_pruned_from_its_listing_alone(tmp_path, monkeypatch) -> None:
    """The entries' times and sizes are those of the folder's listing (one `lstat` each, by
    the listing's entry), no path made of each: the same entries go, oldest first, the
    same modification time told apart by size, then by name."""
    folder, key = _private_folder(tmp_path)
    names = _fill(folder, key, 10, 1000)
    os.utime(folder / names[3], ns=(0, 0))  # as old as the first, the same size
    (folder / names[5]).write_bytes(bytes(1500 + usercache.MAC_BYTES))  # larger, then as old
    os.utime(folder / names[5], ns=(0, 0))
    asked: list[object] = []
    real = usercache.Path.lstat

    def counted(self, *args, **kwargs):
        asked.append(self)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(usercache.Path, "lstat", counted)
    entry = 1000 + usercache.MAC_BYTES
    store = usercache.SignedStore(folder, key, 1 << 20, keep_bytes=5 * entry)
    assert store.write("newest", bytes(1000))
    left = sorted(p.name for p in folder.iterdir())
    assert left == sorted([usercache.KEY_FILE, "newest", *names[-4:]])
    assert asked == []
