"""Q001: the right answer's letter spread evenly in each difficulty, so that no letter is a
safe guess. Each of A-D should be the right one for 20% to 30% of a difficulty's questions.

The rule looks only at a difficulty of at least SPREAD_FROM questions: below that one question
moves a letter's share by more than 5 points, and small banks (a test game, a first draft)
cannot always meet the band at all (1-3, 5-7, 9, 11 or 13 questions cannot; from 14 on
every count can)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from math import ceil, floor

from toolkit.checks.questions.common import LETTERS, Item
from toolkit.checks.questions.rules import Q_SPREAD
from toolkit.diagnostics import Diagnostic

LOW_SHARE, HIGH_SHARE = 0.20, 0.30
SPREAD_FROM = 20


def band(count: int) -> tuple[int, int]:
    """The fewest and most questions one letter may have among `count` questions."""
    return ceil(count * LOW_SHARE - 1e-9), floor(count * HIGH_SHARE + 1e-9)


def check(questions: Sequence[Item]) -> Iterator[Diagnostic]:
    by_difficulty: dict[str, list[Item]] = {}
    for item in questions:
        by_difficulty.setdefault(item.question.difficulty, []).append(item)
    for difficulty, group in by_difficulty.items():
        if len(group) < SPREAD_FROM:
            continue
        letters = Counter(item.question.right for item in group)
        low, high = band(len(group))
        off = [x for x in LETTERS if not low <= letters[x] <= high]
        if not off:
            continue
        counts = ", ".join(f"{x.upper()} {letters[x]}" for x in LETTERS)
        faults = ", ".join(
            f"{x.upper()} too {'rare' if letters[x] < low else 'common'}" for x in off
        )
        first = group[0]
        yield Q_SPREAD.at(
            first.rel,
            first.span("difficulty"),
            f"{difficulty}: right answers {counts} of {len(group)} ({faults}); each letter "
            f"should be right {low} to {high} times (20-30%)",
        )
