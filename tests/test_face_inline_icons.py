"""A card face draws a bounded number of inline icons (`:die:`): the PDF places an icon by
reference, but a picture of the face draws each use whole (probe 46: 200 uses of a
1,990-circle icon took `export png` 3 s for one face)."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from tests.conftest import FIXTURES, diagnostics_json
from toolkit.content.game import load_game
from toolkit.content.models.deck import size_mm
from toolkit.render import layout as layouts
from toolkit.render.cardface import draw_face
from toolkit.render.elements import text as text_kind
from toolkit.render.icons import MAX_FACE_INLINE_ICONS, inline_allowed, inline_icons, one_face
from toolkit.render.printjob import PrintJob


def test_a_face_may_draw_its_bound_of_inline_icons_and_no_more(tmp_path: Path):
    c = Canvas(str(tmp_path / "x.pdf"))
    assert inline_allowed(c, 500) == 500  # outside a face nothing is counted
    with one_face(c):
        assert inline_allowed(c, MAX_FACE_INLINE_ICONS - 4) == MAX_FACE_INLINE_ICONS - 4
        assert inline_allowed(c, 10) == 4
        assert inline_allowed(c, 1) == 0
    assert inline_allowed(c, 3) == 3
    with one_face(c):  # each face its own
        assert inline_allowed(c, MAX_FACE_INLINE_ICONS + 1) == MAX_FACE_INLINE_ICONS


def test_a_face_of_many_inline_icons_draws_the_first_ones(tmp_path: Path, monkeypatch):
    game = load_game(FIXTURES / "base")
    deck = next(d.model for d in game.decks if d.model is not None)
    standard, _ = layouts.load_layout("standard")
    assert standard is not None
    job = PrintJob(game, deck, standard, None, "en", size_mm(deck.size))
    card = deck.cards[0]
    many = " ".join([":coin:"] * 150)
    card = card.model_copy(update={"text": {**card.text, "en": many}})
    drawn: list[str] = []
    monkeypatch.setattr(text_kind, "draw_icon", lambda c, name, *a: drawn.append(name))
    c = Canvas(str(tmp_path / "x.pdf"))
    draw_face(c, job, standard, card, (0.0, 0.0))
    assert len(drawn) == MAX_FACE_INLINE_ICONS
    drawn.clear()
    draw_face(c, job, standard, card, (0.0, 0.0))  # the next face draws its own again
    assert len(drawn) == MAX_FACE_INLINE_ICONS


def test_inline_icons_counts_the_names_the_game_has():
    names = frozenset({"coin", "die"})
    assert inline_icons(":coin: :die: :lamp: coin", names) == 2
    assert inline_icons("no colon", names) == 0


def test_validate_says_a_face_past_the_bound_at_its_card(tmp_path: Path, run_cli):
    assert run_cli("new", "g", "--into", str(tmp_path)).exit_code == 0
    deck = tmp_path / "g" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    assert "en: Move" in text
    icons = " ".join([":coin:"] * (MAX_FACE_INLINE_ICONS + 1))
    deck.write_text(text.replace("en: Move", f'en: "{icons}" # Move', 1), encoding="utf-8")
    result = run_cli("validate", str(tmp_path / "g"), "--format", "json", "--no-cache")
    assert result.exit_code == 1, result.output
    found = [d for d in diagnostics_json(result.output) if d["code"] == "P018"]
    assert len(found) == 1, result.output
    assert f"prints {MAX_FACE_INLINE_ICONS + 1} inline icons" in found[0]["message"]
    fewer = " ".join([":coin:"] * MAX_FACE_INLINE_ICONS)
    deck.write_text(text.replace("en: Move", f'en: "{fewer}" # Move', 1), encoding="utf-8")
    result = run_cli("validate", str(tmp_path / "g"), "--format", "json", "--no-cache")
    assert "P018" not in {d["code"] for d in diagnostics_json(result.output)}, result.output
