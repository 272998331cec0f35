"""`questions.pdf`: the trivia question banks as poker-size cards, the question on the front
and its answer on the back."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from toolkit.render.artifacts import Artifact, BuildOptions, Files, register


def question_deck(bank: Any) -> Any:
    """A question bank as a deck of trivia cards (poker size, question on the front, answer
    on the back): what questions.pdf prints and the live preview shows."""
    return SimpleNamespace(
        id=bank.id,
        kind="questions",
        name=bank.name,
        size="poker",
        layout=None,
        back=None,
        cards=bank.questions,
    )


def question_decks(game: Any) -> list[Any]:
    """The game's banks as decks, the same deck objects for the loaded game each time: the
    gate's print-fit check and the build then share each face's resolution."""
    banks = game.valid(game.questions)
    kept = game.print_memo.get(("question decks",))
    if kept is None or [d.cards for d in kept] != [b.questions for b in banks]:
        kept = [question_deck(bank) for bank in banks]
        game.print_memo[("question decks",)] = kept
    return list(kept)


def files(game: Any, lang: str, opts: BuildOptions) -> Files:
    from toolkit.render.artifacts.cards import cards_pdf

    decks = question_decks(game)
    return [("questions.pdf", cards_pdf(game, decks, lang, opts, trivia=True))] if decks else []


QUESTIONS = register(
    Artifact(
        "questions",
        "`questions.pdf`: the trivia questions as cards, the answer on each back.",
        files,
        order=20,
    )
)
