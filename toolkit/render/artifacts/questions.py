"""`questions.pdf`: the question banks as decks of cards, the question on the front and its
answer on the back, at the size and on the layouts each bank names (poker, `question-front`,
`question-back` unless it says otherwise)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from toolkit.render.artifacts import Artifact, BuildOptions, Parts, drawn, register


@dataclass(frozen=True, eq=False)
class QuestionDeck:
    """A question bank as the deck questions.pdf prints and the live preview shows: a deck
    like any other (id, name, size, layout, back, cards) whose backs differ card by card."""

    id: str
    name: Any  # LocalizedText
    size: Any  # CardSize
    layout: str
    back: str
    cards: list[Any]  # the bank's questions
    kind: ClassVar[str] = "questions"
    back_per_card: ClassVar[bool] = True  # each back shows its own question's answer


def question_deck(bank: Any) -> QuestionDeck:
    """The deck a question bank prints as."""
    return QuestionDeck(bank.id, bank.name, bank.size, bank.layout, bank.back, bank.questions)


def question_decks(game: Any) -> list[Any]:
    """The game's banks as decks, the same deck objects for the loaded game each time: the
    gate's print-fit check and the build then share each face's resolution."""
    banks = game.valid(game.questions)
    kept = game.print_memo.get(("question decks",))
    if kept is None or [d.cards for d in kept] != [b.questions for b in banks]:
        kept = [question_deck(bank) for bank in banks]
        game.print_memo[("question decks",)] = kept
    return list(kept)


def parts(game: Any, lang: str, opts: BuildOptions) -> Parts:
    from toolkit.render.artifacts.cards import deck_parts

    decks = question_decks(game)
    return deck_parts(game, [("questions.pdf", decks)], lang, opts) if decks else []


QUESTIONS = register(
    Artifact(
        "questions",
        "`questions.pdf`: the question banks as cards, the answer on each back.",
        drawn(parts),
        order=20,
        parts=parts,
    )
)
