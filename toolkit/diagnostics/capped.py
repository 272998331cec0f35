"""Rules said a bounded number of times per file, as a compiler stops listing after its
first errors: P006 warns once per number that no face prints, and a card sheet of 1,000
parameters a row gave one line per cell (994,000 lines, 3.2 GB of JSON). The first
`PER_FILE` of a file are listed, then one finding says how many more there are; what is
suppressed (`playset: ignore[...]`) or not selected is left out before they are counted."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from toolkit.diagnostics.diagnostic import Diagnostic

PER_FILE = 50
CAPPED = frozenset({"P001", "P006", "P007", "R013", "T004", "T008", "T014", "T015"})
"""Findings said once per value or text (a number no face prints, an icon name the game
lacks, a text that does not fit, is not translated, doubles a word or a space, a name two
cards share), which a large deck can give by the thousand: a 65 kB sheet of 20,000 rows
naming one short shared string gave 220,000 lines (20 MB) of T014, T004 and R013."""


def capped(found: list[Diagnostic]) -> list[Diagnostic]:
    """`found` (sorted) with the first `PER_FILE` findings of each capped rule in each file;
    the next one stands for the rest, saying how many they are."""
    counts = Counter((d.file, d.code) for d in found if d.code in CAPPED)
    if all(n <= PER_FILE + 1 for n in counts.values()):
        return found
    seen: Counter[tuple[str, str]] = Counter()
    kept = []
    for d in found:
        key = (d.file, d.code)
        if d.code not in CAPPED or counts[key] <= PER_FILE + 1:
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
