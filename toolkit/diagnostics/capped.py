"""Each rule said a bounded number of times per file, as a compiler stops listing after its
first errors: P006 warns once per number that no face prints, and a card sheet of 1,000
parameters a row gave one line per cell (994,000 lines, 3.2 GB of JSON); one placeholder
text shared by the rows of a sheet gave 2 M R006 (probe 21). The first `PER_FILE` findings
of a rule in a file are listed, then one finding says how many more there are; what is
suppressed (`playset: ignore[...]`) or not selected is left out before they are counted."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from toolkit.diagnostics.diagnostic import Diagnostic

PER_FILE = 50
ALWAYS_LISTED: set[str] = set()
"""Starts of messages listed past the cap: a check's one notice that it stopped (print fit
past its budget) is no repeat, and without it a reader of the 50 listed never learns that
the rest was not measured (probe 22). A check adds its own (`always_listed`)."""


def always_listed(start: str) -> str:
    """Have findings whose message starts with `start` listed past the cap; returns it."""
    ALWAYS_LISTED.add(start)
    return start


def capped(found: list[Diagnostic]) -> list[Diagnostic]:
    """`found` (sorted) with the first `PER_FILE` findings of each rule in each file; the
    next one stands for the rest, saying how many they are."""
    if len(found) <= PER_FILE + 1:
        return found
    counts = Counter((d.file, d.code) for d in found)
    if all(n <= PER_FILE + 1 for n in counts.values()):
        return found
    seen: Counter[tuple[str, str]] = Counter()
    kept = []
    for d in found:
        key = (d.file, d.code)
        if counts[key] <= PER_FILE + 1 or d.message.startswith(tuple(ALWAYS_LISTED)):
            kept.append(d)
            continue
        seen[key] += 1
        if seen[key] <= PER_FILE:
            kept.append(d)
        elif seen[key] == PER_FILE + 1:
            more = counts[key] - PER_FILE
            message = (
                f"{d.message}; and {more - 1:,} more {d.code} findings in this file after this"
                f" one, not listed ({d.code} is listed {PER_FILE} times a file at most)"
            )
            kept.append(replace(d, message=message))
    return kept
