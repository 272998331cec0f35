"""Q rules: a trivia bank that is fair and big enough, for any game with question cards.

One module per concern (counts, letter spread, duplicates, answers that give themselves
away), imported only for a game with a question bank or question needs (`questions:` in
game.yaml): the gate of a game of cards alone never loads them. Their rules are declared in
`rules`, with the family. Print fit of question cards is a P rule (toolkit.checks.printfit),
measured as `build` draws them.

The family reads the manifest and the question banks only, so its findings are kept as one
unit between `validate` runs (toolkit.content.unit_cache, kind `questions`), named by what
it reads: each of those files' display path and text, which failed validation, and the
manifest's lists that did. After an edit elsewhere (a card) they are read back."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolkit.checks import CheckFamily, register
from toolkit.checks.questions.rules import (
    Q_DUPLICATE,
    Q_GIVEAWAY,
    Q_LONG_RIGHT,
    Q_NEAR,
    Q_SAME_ANSWERS,
    Q_SPREAD,
    Q_TOO_FEW,
    Q_UNDER_RECOMMENDED,
    Q_UNKNOWN_DIFFICULTY,
)
from toolkit.content.game import Game
from toolkit.content.source import Document, KeptDocument
from toolkit.content.unit_cache import NotKept, active, cached
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic, Severity, Span

__all__ = [
    "Q_DUPLICATE",
    "Q_GIVEAWAY",
    "Q_LONG_RIGHT",
    "Q_NEAR",
    "Q_SAME_ANSWERS",
    "Q_SPREAD",
    "Q_TOO_FEW",
    "Q_UNDER_RECOMMENDED",
    "Q_UNKNOWN_DIFFICULTY",
    "check",
]


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    if game.manifest is None:
        return
    args = _read_by(game) if active() is not None else None
    if args is None:
        yield from _findings(game)
        return
    yield from cached("questions", args, lambda: list(_findings(game)), _store, _read)


def _findings(game: Game) -> Iterator[Diagnostic]:
    assert game.manifest is not None  # `check` returned before, for a game without one
    if not game.questions and game.manifest.questions is None:
        return  # no question to look at, no count to reach: no rule here can say anything
    # imported here: a game without question banks never loads them
    from toolkit.checks.questions import answers, counts, duplicates, spread
    from toolkit.checks.questions.common import items, languages

    questions = items(game)
    langs = languages(game)
    yield from counts.check(game, questions)
    yield from spread.check(questions)
    yield from duplicates.check(questions, langs)
    yield from answers.check(questions, langs)


def _read_by(game: Game) -> list[Any] | None:
    """What the family's findings are a pure function of, written out (the code is the
    units' head): None when a file is not a YAML document read from its text (a bank
    from a spreadsheet), whose findings are worked out each time."""
    if game.manifest_file is None:
        return None
    files = []
    for loaded in (game.manifest_file, *game.questions):
        if loaded.doc is not None and type(loaded.doc) not in _FROM_TEXT:
            return None
        text = loaded.doc.text if loaded.doc is not None else None
        files.append([loaded.rel, text, loaded.model is None])
    return [files, sorted(game.broken_lists)]


_FROM_TEXT = (Document, KeptDocument)
"""A YAML document parsed from its text, or read back from a kept parse of it."""


def _store(found: list[Diagnostic]) -> list[Any]:
    kept = []
    for d in found:
        s = d.span
        if s.sheet is not None or s.file is not None:
            raise NotKept
        kept.append(
            [d.file, d.code, d.message, d.severity.value, s.line, s.col, s.end_line, s.end_col]
        )
    return kept


def _read(kept: Any) -> list[Diagnostic]:
    found = []
    for file, code, message, severity, line, col, end_line, end_col in kept:
        if not all(type(v) is str for v in (file, code, message, severity)):
            raise ValueError("not a finding")
        if not all(type(v) is int for v in (line, col)):
            raise ValueError("not a finding")
        if not all(v is None or type(v) is int for v in (end_line, end_col)):
            raise ValueError("not a finding")
        span = Span(line, col, end_line, end_col)
        found.append(Diagnostic(file, code, message, Severity(severity), span))
    return found


register(CheckFamily("questions", "Question banks: counts, answers, duplicates, spread.", check))
