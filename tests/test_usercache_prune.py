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
    left = sorted(p.name for p in folder.iterdir() if p.name != usercache.LEDGER)
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
    kept = sum(
        p.stat().st_size
        for p in folder.iterdir()
        if p.name not in (usercache.KEY_FILE, usercache.LEDGER)
    )
    assert 0 < kept <= 20_000 + 20_000 // usercache.PRUNE_SHARE  # pruned each quarter written


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
    left = sorted(p.name for p in folder.iterdir() if p.name != usercache.LEDGER)
    assert left == sorted([usercache.KEY_FILE, "newest", *names[-4:]])
    assert asked == []


def _listings(monkeypatch) -> list[object]:
    """The folders `usercache` lists from now on (each `os.scandir`), in order."""
    listed: list[object] = []
    real = usercache.os.scandir

    def counted(path, *args):
        listed.append(path)
        return real(path, *args)

    monkeypatch.setattr(usercache.os, "scandir", counted)
    return listed


def test_a_store_is_listed_only_when_a_share_of_its_bound_was_written(tmp_path, monkeypatch):
    """Each run of a card edit writes a few entries to the validate files' store: pruned (every
    entry listed and stat()ed) at each run's first write, a store of thousands of entries cost
    every edit several ms. Its ledger counts what runs wrote since the last pruning; the store
    is listed again only past a quarter of its bound, by this run or earlier ones."""
    folder, key = _private_folder(tmp_path)
    entry = 1024 - usercache.MAC_BYTES  # one KiB with its MAC
    listed = _listings(monkeypatch)
    stale = folder / ".entry.killed"  # what a killed write left: swept when pruned
    stale.write_bytes(b"half")
    os.utime(stale, (1_000_000_000, 1_000_000_000))
    for run in range(12):  # a store per run, as each command opens its own
        store = usercache.SignedStore(folder, key, 1 << 20, keep_bytes=16 * 1024)
        assert store.write(f"run-{run}", bytes(entry))
    # the first run found no ledger (pruned: the listing and the stale-file sweep), then
    # a quarter of 16 KiB is 4 KiB: listed again at the fifth KiB written since
    assert len(listed) == 2 * 3, listed
    assert not stale.exists()
    assert (folder / usercache.LEDGER).stat().st_size == 12 - 1 - 2 * 5
    (folder / usercache.LEDGER).unlink()  # gone: pruned at the next write, to be sure
    usercache.SignedStore(folder, key, 1 << 20, keep_bytes=16 * 1024).write("x", bytes(entry))
    assert len(listed) == 2 * 4


def test_a_ledger_that_cannot_be_written_prunes_the_store(tmp_path, monkeypatch):
    """probe70: a ledger made read-only counted nothing, and the store was never pruned again
    (3,000 writes of a store kept to 1 MiB held 143 MiB). An append that fails is as no
    ledger: the store is pruned (and the ledger made anew)."""
    folder, key = _private_folder(tmp_path)
    entry = 1024 - usercache.MAC_BYTES
    store = usercache.SignedStore(folder, key, 1 << 20, keep_bytes=4 * 1024)
    store.write("first", bytes(entry))  # pruned (no ledger yet): an empty ledger made
    real = usercache.os.open

    def refused(path, flags, *args):
        if os.path.basename(path) == usercache.LEDGER and flags & os.O_APPEND:
            raise PermissionError(path)
        return real(path, flags, *args)

    monkeypatch.setattr(usercache.os, "open", refused)
    for n in range(40):
        assert store.write(f"e{n}", bytes(entry))
    kept = sum(
        p.stat().st_size
        for p in folder.iterdir()
        if p.name not in (usercache.KEY_FILE, usercache.LEDGER)
    )
    assert kept <= 4 * 1024, kept


def test_a_ledger_that_is_no_file_prunes_as_before_not_at_every_write(tmp_path, monkeypatch):
    """probe70-2: a folder named as the ledger made every write list the store (a cold
    validate cost the entries written times the entries kept). With no ledger that counts,
    a store is pruned at its first write of the run and each quarter of its bound the run
    writes, as before the ledger."""
    folder, key = _private_folder(tmp_path)
    (folder / usercache.LEDGER).mkdir()
    (folder / usercache.LEDGER / "x").write_text("x")
    entry = 1024 - usercache.MAC_BYTES
    listed = _listings(monkeypatch)
    store = usercache.SignedStore(folder, key, 1 << 20, keep_bytes=64 * 1024)
    for n in range(40):
        assert store.write(f"e{n}", bytes(entry))
    # pruned (listed, and swept) at the first write, then past each 16 KiB written: twice
    assert len(listed) == 2 * 3, len(listed)


def test_a_ledger_hard_linked_to_a_file_is_not_appended_through(tmp_path):
    """probe70-5: the ledger is appended in place; a hard link named so (to a file of the
    user's) had bytes appended to that file. A ledger with another link is none: the store
    is pruned and the ledger made anew, its own file."""
    folder, key = _private_folder(tmp_path)
    usercache.SignedStore(folder, key, 1 << 20, keep_bytes=64 * 1024).write("a", b"x")
    (folder / usercache.LEDGER).unlink()
    victim = tmp_path / "notes.txt"
    victim.write_bytes(b"mine")
    os.link(victim, folder / usercache.LEDGER)
    for n in range(3):
        usercache.SignedStore(folder, key, 1 << 20, keep_bytes=64 * 1024).write(f"e{n}", b"x")
    assert victim.read_bytes() == b"mine"
    assert (folder / usercache.LEDGER).stat().st_nlink == 1
