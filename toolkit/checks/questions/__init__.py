"""Q rules: a trivia bank that is fair and big enough, for any game with question cards.

One module per concern (counts, letter spread, duplicates, answers that give themselves
away); each declares its rules beside its check. Print fit of question cards is a P rule
(toolkit.checks.printfit), measured as `build` draws them."""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.checks import CheckFamily, register
from toolkit.checks.questions import answers, counts, duplicates, spread
from toolkit.checks.questions.common import items, languages
from toolkit.content.game import Game
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    if game.manifest is None:
        return
    questions = items(game)
    langs = languages(game)
    yield from counts.check(game, questions)
    yield from spread.check(questions)
    yield from duplicates.check(questions, langs)
    yield from answers.check(questions, langs)


register(CheckFamily("questions", "Question banks: counts, answers, duplicates, spread.", check))
