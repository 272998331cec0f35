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
