"""A signed entry of the user cache is read into one bytes object: its payload is neither
copied out of the file's bytes nor joined to its name to be checked, and the read asks for
the file's size, not the store's largest (the code store's entry, ~0.6 MB, is read on every
command: each copy was ~140 page faults)."""

from __future__ import annotations

import os
import tracemalloc

from toolkit import usercache

SIZE = 1 << 20


def _store(tmp_path, max_bytes: int) -> usercache.SignedStore:
    folder = tmp_path / "store"
    folder.mkdir(mode=0o700)
    key = usercache.folder_key(folder)
    assert key is not None
    return usercache.SignedStore(folder, key, max_bytes)


def test_reading_an_entry_allocates_its_payload_once(tmp_path) -> None:
    store = _store(tmp_path, 16 * SIZE)
    payload = os.urandom(SIZE)
    assert store.write("entry", payload)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        read = store.read("entry")
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert read == payload
    assert peak < 1.2 * SIZE, peak  # main: the store's 16 MB buffer, then two copies


def test_a_changed_short_or_foreign_entry_is_still_refused(tmp_path) -> None:
    store = _store(tmp_path, 4 * SIZE)
    assert store.write("entry", b"payload")
    assert store.read("entry") == b"payload"
    path = store.folder / "entry"
    data = path.read_bytes()
    path.write_bytes(data[:-1] + b"X")  # payload changed
    assert store.read("entry") is None
    path.write_bytes(data[: usercache.MAC_BYTES - 1])  # shorter than a MAC
    assert store.read("entry") is None
    path.write_bytes(data + b"more")  # grown
    assert store.read("entry") is None
    path.write_bytes(data)
    assert store.read("entry") == b"payload"
    assert store.read("other-name") is None  # signed for another name
    os.rename(path, store.folder / "other-name")
    assert store.read("other-name") is None
    assert store.write("empty", b"") and store.read("empty") == b""
    assert store.write("big", bytes(4 * SIZE)) and store.read("big") == bytes(4 * SIZE)
    assert not store.write("bigger", bytes(4 * SIZE + 1))


def test_an_entry_written_again_is_not_renamed_over_the_old_one(tmp_path, monkeypatch) -> None:
    """ext4 allocates and starts writing out a file renamed over another at once
    (`auto_da_alloc`): 4-12 ms of a `validate` after a card edit for its two entries. The old
    entry is taken away first; the new one is read back whole, signed."""
    folder = tmp_path / "store"
    folder.mkdir(mode=0o700)
    store = usercache.SignedStore(folder, usercache.folder_key(folder), 1 << 20)
    assert store.write("entry", b"old" * 1000)
    real = os.replace
    over: list[bool] = []

    def replace(src, dst, *args, **kwargs):
        over.append(os.path.lexists(dst))
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    assert store.write("entry", b"new" * 1000)
    assert over == [False]
    assert store.read("entry") == b"new" * 1000
    assert sorted(p.name for p in folder.iterdir()) == sorted([usercache.KEY_FILE, "entry"])
