"""Probe 41 H2: the preview's card faces had no fitting budget. `validate` stops fitting a
game's texts at `FIT_BUDGET` letters (P001), but the preview fitted and drew every face past
it (3,003 faces of long texts: ~21 s of CPU at start, and again for every face a layout save
redraws). Its faces of a revision now share the check's fitting budget, each face counted
once: past it a face is neither fitted nor drawn, and says why. The tests count fits and
faces, never time."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.test_hardening_tips53 import _rules_game
from toolkit.preview import face_budget
from toolkit.render import pdf, textfit

LONG = "{{ (card.id ~ ' ') * 40 }}"
CARDS = [f"c{i:02d}" for i in range(20)]  # ids alike in length: every face fits alike


@pytest.fixture
def fitted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, int]]]:
    """The texts fitted from here on, with the letters each counted (every fit is worked
    out by `textfit._fit`), the fits kept by earlier tests forgotten."""
    asked: list[tuple[str, int]] = []
    real = textfit._fit

    def counted(text: str, *args: Any) -> Any:
        found = real(text, *args)
        asked.append((text, found.work))
        return found

    textfit.fit.cache_clear()
    monkeypatch.setattr(textfit, "_fit", counted)
    yield asked
    textfit.fit.cache_clear()


def _fronts(game: Path) -> tuple[Any, list[Any]]:
    from toolkit.preview.live import Preview

    preview = Preview(game)
    preview.load(check=False)
    faces = [
        t
        for t in preview.snap.targets.values()
        if t.kind == "face" and t.side == "front" and t.deck == "cards"
    ]
    return preview.shown, faces


def _face_work(game: Path, fitted: list[tuple[str, int]]) -> int:
    """The letters fitting one front face of `game` counts."""
    from toolkit.preview.draw import draw_targets

    shown, faces = _fronts(game)
    fitted.clear()
    draw_targets(shown, faces[:1])
    textfit.fit.cache_clear()
    return sum({text: work for text, work in fitted}.values())


def test_the_preview_s_faces_share_the_check_s_fitting_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fitted: list[tuple[str, int]]
):
    """A budget for 5 faces' fits: 5 faces drawn (in one PDF), the rest refused with the
    reason, and their texts never fitted (was: all 60 fitted and drawn)."""
    from toolkit.preview.draw import draw_targets

    game = _rules_game(tmp_path / "g", CARDS, LONG)
    work = _face_work(game, fitted)
    assert work > 0
    monkeypatch.setattr(face_budget, "SHARE", 1)  # the preview's share: prevdraw55's tests
    monkeypatch.setattr(face_budget, "FACE_LETTERS", 0)  # a face's own cost: lazy56's tests
    monkeypatch.setattr(textfit, "FIT_BUDGET", 5 * work)
    fitted.clear()
    shown, faces = _fronts(game)
    assert len(faces) == 60
    pdfs: list[object] = []
    real = pdf.pdf_canvas
    monkeypatch.setattr(pdf, "pdf_canvas", lambda *a: pdfs.append(a) or real(*a))
    results = draw_targets(shown, faces)
    drawn = [r for r in results if isinstance(r, list)]
    refused = [r for r in results if not isinstance(r, list)]
    assert len(drawn) == 5, len(drawn)
    assert all("is not rendered: the fitting budget" in str(r) for r in refused), refused[0]
    texts = {text for text, _ in fitted}
    assert len(texts) <= 6, len(texts)  # the five drawn (and at most one more)
    assert len(pdfs) == 1, len(pdfs)  # a face refused does not make the others drawn alone


def test_a_face_is_counted_once_a_revision(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fitted: list[tuple[str, int]]
):
    """A face is drawn again in the same revision (a group whose PDF fails is drawn again
    face by face, a request after the worker): the faces fitted already are not counted
    again, so a budget for exactly the faces drawn draws them all again (counted twice,
    all but one would be refused); a face that cannot be resolved says why, and the others
    of its group are still drawn."""
    from toolkit.preview.draw import draw_target, draw_targets

    game = _rules_game(tmp_path / "g", CARDS, LONG + "{{ rules[card.id] if card.id == 'c19' }}")
    work = _face_work(game, fitted)
    monkeypatch.setattr(face_budget, "SHARE", 1)
    monkeypatch.setattr(face_budget, "FACE_LETTERS", 0)
    monkeypatch.setattr(textfit, "FIT_BUDGET", 19 * work + 1)
    shown, faces = _fronts(game)
    english = [t for t in faces if t.lang == "en"]
    assert [t.card for t in english][-1] == "c19"
    results = draw_targets(shown, english)
    assert all(isinstance(r, list) for r in results[:-1]), [str(r) for r in results]
    assert "c19" in str(results[-1]), str(results[-1])
    again = [draw_target(shown, t) for t in english[:-1]]
    assert all(isinstance(r, list) and r for r in again)


def test_a_save_of_one_card_checks_that_card_s_faces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Probe 41 M1: the preview checked every face again at each save (a new game each
    save, its layout budget spent again: ~2.4 s a save of 1,000 costly cards). Its checks
    now keep their units as `validate` does: a save that changes one card resolves that
    card's faces (to check and to draw them), not the deck's."""
    from toolkit.preview.live import Preview
    from toolkit.render import layout

    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    game = _rules_game(tmp_path / "g", CARDS, "{{ card.id }} {{ card.name }}")
    preview = Preview(game)
    preview.load(check=True)
    assert preview.checked
    resolved: list[str] = []
    real = layout.resolve

    def counted(*args: Any, **kwargs: Any) -> Any:
        resolved.append(str(args[1].get("card", "")))
        return real(*args, **kwargs)

    monkeypatch.setattr(layout, "resolve", counted)
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text("utf-8")
    edited = text.replace("{id: c05, name: {fr: N,", "{id: c05, name: {fr: M,")
    assert edited != text
    for _ in range(2):  # the first save's check keeps the units the second one reads
        resolved.clear()
        deck.write_text(edited, "utf-8")
        preview.apply({deck})
        edited = edited.replace("{id: c05, name: {fr: M,", "{id: c05, name: {fr: P,")
    assert 0 < len(resolved) <= 12, len(resolved)


def test_units_are_consulted_only_by_the_thread_that_activated_them():
    """The preview checks in its worker while other threads draw: a drawing thread neither
    reads nor adds to the units the check will write (nor clears them under it)."""
    import threading

    from toolkit.content.unit_cache import Units, activated, active

    seen: list[object] = []
    with activated(Units({})) as units:
        assert active() is units
        other = threading.Thread(target=lambda: seen.append(active()))
        other.start()
        other.join()
    assert seen == [None]
    assert active() is None
