"""Q007-Q009: the bank holds enough questions for the game. A game declares in game.yaml
(`questions:` difficulties, minimum, recommended) how many it needs per difficulty; a pile
that runs short repeats cards within an evening, and one under the minimum cannot be played
as the rules say."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from toolkit.checks.questions.common import Item
from toolkit.checks.questions.rules import (
    Q_TOO_FEW,
    Q_UNDER_RECOMMENDED,
    Q_UNKNOWN_DIFFICULTY,
)
from toolkit.content.game import Game
from toolkit.content.suggest import Budget, Pool
from toolkit.diagnostics import Diagnostic


def check(game: Game, questions: Sequence[Item]) -> Iterator[Diagnostic]:
    needs = game.manifest.questions if game.manifest is not None else None
    if needs is None:
        return
    declared = list(needs.difficulties)
    pool = Pool(declared, Budget())  # the run's searches, in the bank's order
    for item in questions:
        difficulty = item.question.difficulty
        if difficulty not in declared:
            close = pool.close(difficulty)
            tip = f"; did you mean {close!r}?" if close is not None else ""
            yield Q_UNKNOWN_DIFFICULTY.at(
                item.rel,
                item.span("difficulty"),
                f"{item.id}: difficulty {difficulty!r} is not declared in game.yaml "
                f"(questions.difficulties: {', '.join(declared)}){tip}",
            )
    if "questions" in game.broken_lists or any(f.model is None for f in game.questions):
        return  # a bank that failed validation is counted once it is fixed
    manifest = game.manifest_file
    assert manifest is not None and manifest.doc is not None
    counts = Counter(item.question.difficulty for item in questions)
    hint = "" if game.questions else "; no question file is listed under files.questions"
    for index, difficulty in enumerate(declared):
        have = counts[difficulty]
        span = manifest.doc.span(("questions", "difficulties", index))
        if have < needs.minimum:
            yield Q_TOO_FEW.at(
                manifest.rel,
                span,
                f"{difficulty}: {have} question(s); the game needs at least {needs.minimum} "
                f"per difficulty (questions.minimum){hint}",
            )
        elif needs.recommended is not None and have < needs.recommended:
            yield Q_UNDER_RECOMMENDED.at(
                manifest.rel,
                span,
                f"{difficulty}: {have} question(s); {needs.recommended} are recommended per "
                "difficulty (questions.recommended)",
            )
