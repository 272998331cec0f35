"""`fileio.read_open` reads a file in the size it has (and on, if it grew), not into a
buffer of its bound: every YAML file a game loads is read under a 4 MB bound, every picture
under 256 MB."""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

import pytest

from toolkit import fileio


def _buffered(fd: int, limit: int) -> bytes:
    """What `read_open` gave before: a buffered read of `limit` + 1 bytes from the start."""
    with os.fdopen(os.dup(fd), "rb") as handle:
        handle.seek(0)
        return handle.read(limit + 1)


def test_a_small_file_is_read_without_a_buffer_of_its_bound(tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    path.write_bytes(b"id: x\n" * 10)
    fd = os.open(path, os.O_RDONLY)
    try:
        tracemalloc.start()
        data = fileio.read_open(fd, 64 * 1024 * 1024)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    finally:
        os.close(fd)
    assert data == b"id: x\n" * 10
    assert peak < 1024 * 1024


def test_the_bytes_read_are_those_of_a_buffered_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Any size against any bound, whatever the descriptor's offset; a file grown after
    its size was looked at is read on to the bound; a file that says it is empty (/proc)
    is read whole."""
    path = tmp_path / "f"
    for size in (0, 1, 5, 100, 65_535, 65_536, 65_537, 200_000):
        path.write_bytes(os.urandom(size))
        fd = os.open(path, os.O_RDONLY)
        try:
            for limit in (0, 1, 4, 99, 100, 101, 65_536, 70_000, 4 * 1024 * 1024):
                os.lseek(fd, min(size, 17), os.SEEK_SET)
                assert fileio.read_open(fd, limit) == _buffered(fd, limit), (size, limit)
        finally:
            os.close(fd)
    path.write_bytes(b"a" * 10)
    fd = os.open(path, os.O_RDONLY)
    try:
        real_fstat = os.fstat

        def smaller(descriptor: int) -> os.stat_result:  # the size before it grew
            info = list(real_fstat(descriptor))
            info[6] = 3  # st_size
            return os.stat_result(info)

        monkeypatch.setattr(os, "fstat", smaller)
        grown = fileio.read_open(fd, 100_000)
        cut = fileio.read_open(fd, 5)
        monkeypatch.undo()
        assert grown == b"a" * 10
        assert cut == b"a" * 6
    finally:
        os.close(fd)
    if Path("/proc/self/status").exists():
        fd = os.open("/proc/self/cmdline", os.O_RDONLY)
        try:
            assert fileio.read_open(fd, 1 << 20) == _buffered(fd, 1 << 20) != b""
        finally:
            os.close(fd)
