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
    return [question_deck(bank) for bank in game.valid(game.questions)]


def files(game: Any, lang: str, opts: BuildOptions) -> Files:
    from toolkit.render.artifacts.cards import cards_pdf

    decks = question_decks(game)
    return [("questions.pdf", cards_pdf(game, decks, lang, opts, trivia=True))] if decks else []


QUESTIONS = register(
    Artifact(
        "questions",
        "`questions.pdf`: the trivia questions as cards, the answer on each back.",
        files,
    )
)
