"""Resolving a card face runs no import statement once the first face is resolved: an import
of a module already loaded still costs the import system's checks (~2 µs each), and a face is
resolved twice in a build (the gate's print-fit check, then the drawing), for every card and
language."""

from __future__ import annotations

import builtins
import sys
from typing import Any

from tests.conftest import FIXTURES
from toolkit.content.game import load_game
from toolkit.content.models.deck import size_mm
from toolkit.render import layout as layouts
from toolkit.render.printjob import PrintJob


def test_a_face_resolved_after_the_first_imports_nothing(monkeypatch) -> None:
    game = load_game(FIXTURES / "base")
    deck = next(d.model for d in game.decks if d.model is not None)
    standard, _ = layouts.load_layout("standard")
    assert standard is not None and len(deck.cards) > 1
    jobs = [PrintJob(game, deck, standard, None, lang, size_mm(deck.size)) for lang in ("fr", "en")]
    jobs[0].resolved(standard, deck.cards[0])  # the first face imports what it needs
    imported: list[tuple[str, str]] = []
    real = builtins.__import__

    def counting(name: str, *args: Any, **kwargs: Any) -> Any:
        caller = sys._getframe(1).f_code
        if "toolkit" in caller.co_filename:
            imported.append((caller.co_name, name))
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", counting)
    faces = [job.resolved(standard, card) for job in jobs for card in deck.cards]
    faces += [job.resolved(standard, card) for job in jobs for card in deck.cards]  # the memo
    monkeypatch.undo()
    assert all(faces)
    assert imported == []


def test_a_face_s_functions_are_still_read_from_their_modules(monkeypatch) -> None:
    """The modules are kept, not their functions: one replaced in its module (a spy, a
    plugin's wrapper) is the one a face calls."""
    game = load_game(FIXTURES / "base")
    deck = next(d.model for d in game.decks if d.model is not None)
    standard, _ = layouts.load_layout("standard")
    assert standard is not None
    job = PrintJob(game, deck, standard, None, "fr", size_mm(deck.size))
    job.resolved(standard, deck.cards[0])
    asked: list[str] = []
    real = layouts.resolve
    monkeypatch.setattr(layouts, "resolve", lambda *a: asked.append(a[1]["card"]["id"]) or real(*a))
    job.resolved(standard, deck.cards[1])
    assert asked == [deck.cards[1].id]
