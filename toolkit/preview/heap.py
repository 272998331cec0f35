"""Give the process's freed heap back to the system, where the C library can.

A long-lived process that drops a large structure and builds another (the preview's reload
of a game after a save) frees the old one's memory to the C allocator, which keeps most of
it: glibc returns only the top of its main heap on its own, and the drawing threads have
heaps of their own. The preview of a 990 kB game of YAML aliases stood at ~1.1 GB resident
after two saves with ~780 MB in use (probe70-7). `give_back` asks glibc to release every
free page (`malloc_trim`); elsewhere (another C library, no ctypes) it does nothing."""

from __future__ import annotations

import sys
from collections.abc import Callable

_TRIM: list[Callable[[int], int] | None] = []


def _trim() -> Callable[[int], int] | None:
    """glibc's `malloc_trim`, or None, looked up once."""
    if not _TRIM:
        found = None
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                found = ctypes.CDLL("libc.so.6").malloc_trim
                found.argtypes = [ctypes.c_size_t]
                found.restype = ctypes.c_int
            except (OSError, AttributeError):  # musl and others: no such call
                found = None
        _TRIM.append(found)
    return _TRIM[0]


def give_back() -> bool:
    """Release the C heap's free pages to the system; whether the call was made."""
    trim = _trim()
    if trim is None:
        return False
    trim(0)
    return True
