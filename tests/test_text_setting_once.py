"""A text element's setting (sizes, face, language, icons) is the same for every card of a
print job: it is made once per job and element, not once per card and text measured."""

from __future__ import annotations

from typing import Any

from tests.conftest import FIXTURES
from toolkit.content.game import load_game
from toolkit.content.models.deck import size_mm
from toolkit.render import layout as layouts
from toolkit.render.elements import text as text_kind
from toolkit.render.printjob import PrintJob


def test_a_text_element_s_setting_is_made_once_per_job(monkeypatch):
    game = load_game(FIXTURES / "base")
    deck = next(d.model for d in game.decks if d.model is not None)
    standard, _ = layouts.load_layout("standard")
    assert standard is not None
    element = next(e for e in standard.elements if isinstance(e, text_kind.TextElement))
    made: list[Any] = []
    real = text_kind.Setting
    monkeypatch.setattr(text_kind, "Setting", lambda *a: made.append(a) or real(*a))
    jobs = [PrintJob(game, deck, standard, None, lang, size_mm(deck.size)) for lang in ("fr", "es")]
    first = [element.setting(jobs[0]) for _ in range(3)]
    assert len(made) == 1 and all(s is first[0] for s in first)
    other = element.setting(jobs[1])  # another job (its language): its own
    assert len(made) == 2 and other is not first[0]
    assert first[0] == real(*made[0]) and first[0].lang == "fr"
