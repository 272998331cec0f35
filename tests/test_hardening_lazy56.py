"""Probe 43 P1: the preview drew every card face at start, in the background, and its
budget counted letters only: a deck of 6,000 one-word cards in 3 languages (18,003 faces)
took ~67 s of CPU. Faces are now drawn when the page asks for them (each with a few of its
neighbours), a save draws again only the changed faces the page asked for last and leaves
the other drawn ones stale until asked for, and the budget counts each face drawn. The
tests count drawings, never time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.test_hardening_prevfit55 import _face_work, fitted  # noqa: F401 (fixture)
from tests.test_hardening_tips53 import _rules_game
from toolkit.preview import face_budget, live
from toolkit.render import textfit

CARDS = [f"c{i:02d}" for i in range(20)]


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The keys of every target drawn from now on."""
    drawn: list[str] = []
    real = live.draw_targets

    def counted(game: Any, targets: list[Any]) -> Any:
        drawn.extend(t.key for t in targets)
        return real(game, targets)

    monkeypatch.setattr(live, "draw_targets", counted)
    return drawn


def _idle(preview: live.Preview) -> None:
    """Run what the worker would run with no page asking for anything."""
    preview._last_request -= live.PAGE_QUIET + 1  # no request for a while
    preview._loaded_at -= getattr(live, "NO_PAGE", 0) + 1
    while preview._background and preview._may_draw(preview._background[0]):
        preview._draw_next()


def _front(card: str, lang: str = "fr") -> str:
    return f"card/cards/{card}/{lang}/front"


def _preview(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[live.Preview, Path]:
    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    game = _rules_game(tmp_path / "g", CARDS, "{{ card.id }}")
    preview = live.Preview(game)
    preview.load(check=False)
    return preview, game


def test_no_face_is_drawn_until_the_page_asks_and_then_with_its_neighbours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """After start and the check, no face drawn (was: all 60 fronts, each language in
    turn); a face asked for is drawn with the undrawn faces nearest it (was: with the first
    faces of its deck, wherever the page is)."""
    monkeypatch.setattr(live, "NEIGHBOURS", 4, raising=False)
    drawn = _counted(monkeypatch)
    preview, _ = _preview(tmp_path, monkeypatch)
    _idle(preview)
    assert preview.checked
    assert [key for key in drawn if key.startswith(("card/", "back/"))] == []
    assert preview.state()["pending"] == 0  # undrawn images are no work waiting (s57: boards too)
    del drawn[:]
    assert preview.page(_front("c10")) is not None
    assert drawn == [_front(c) for c in ("c10", "c11", "c09", "c12")]
    del drawn[:]
    assert preview.page(_front("c12")) is not None  # drawn already: served, not drawn
    assert preview.page(_front("c19")) is not None  # the deck's end: the faces before it
    assert drawn == [_front(c) for c in ("c19", "c18", "c17", "c16")]


def test_a_save_draws_the_faces_asked_for_last_and_leaves_the_others_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The page asked for the 20 French fronts; a save of their layout draws at once the 5
    asked for last, and nothing else: the other 15 are stale (the page is told: their
    version goes up) and each is drawn once when asked for; the Spanish and English
    fronts, never asked for, are not drawn (was: 15 drawn at once, 5 of each language,
    and the other 45 queued for the background)."""
    monkeypatch.setattr(live, "SAVE_FACES", 5)
    monkeypatch.setattr(live, "NEIGHBOURS", 1, raising=False)
    preview, game = _preview(tmp_path, monkeypatch)
    _idle(preview)
    for card in CARDS:
        assert preview.page(_front(card)) is not None
    drawn = _counted(monkeypatch)
    layout = game / "layouts" / "plain.yaml"
    layout.write_text(layout.read_text("utf-8").replace("{{ card.id }}", "{{ card.id }}!"), "utf-8")
    changed = preview.apply({layout})
    assert sorted(drawn) == sorted(_front(c) for c in CARDS[15:]), drawn
    assert sorted(changed) == sorted(drawn)
    assert preview.stale == {_front(c) for c in CARDS[:15]}
    assert preview.last_update["queued"] == 15
    _idle(preview)
    assert len(drawn) == 5  # nothing drawn in the background
    state = preview.state()
    fronts = {c["id"]: c["front"]["fr"]["version"] for c in state["sections"][0]["cards"]}
    assert fronts == {c: 2 for c in CARDS}  # the stale ones too: the page asks for them
    del drawn[:]
    for card in CARDS:
        assert preview.page(_front(card)) is not None
        assert preview.page(_front(card)) is not None
    assert sorted(drawn) == sorted(_front(c) for c in CARDS[:15])  # each once
    assert not preview.stale
    assert all(preview.cache.page(_front(c)).version == 2 for c in CARDS)  # type: ignore[union-attr]


def test_the_budget_counts_each_face_drawn_and_a_later_revision_draws_the_refused(  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fitted: list[tuple[str, int]],  # noqa: F811
):
    """Faces of a few letters each and a budget of 10 faces' own cost: 10 of the 20
    French fronts asked for are drawn, the others say why (was: all 20, the letters far
    under the budget). After a save (a new revision), a refused face asked for again is
    drawn."""
    monkeypatch.setattr(live, "NEIGHBOURS", 1, raising=False)
    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    game = _rules_game(tmp_path / "g", CARDS, "{{ card.id }}")
    work = _face_work(game, fitted)  # its texts' letters
    letters = getattr(face_budget, "FACE_LETTERS", 1_000)  # (the test ran red before it)
    assert work < letters / 10
    monkeypatch.setattr(face_budget, "SHARE", 1)
    monkeypatch.setattr(textfit, "FIT_BUDGET", 10 * (letters + work) - 1)
    preview = live.Preview(game)
    preview.load(check=False)
    _idle(preview)
    for card in CARDS:
        preview.page(_front(card))
    drawn = [c for c in CARDS if preview.cache.page(_front(c)) is not None]
    assert drawn == CARDS[:10], drawn
    reason = preview.cache.errors[_front("c15")]
    assert "is not rendered: the fitting budget of the preview" in reason
    assert f"counts {letters:,} besides its texts" in reason
    glossary = game / "glossary.yaml"
    glossary.write_text(glossary.read_text("utf-8") + "\n# saved\n", "utf-8")
    preview.apply({glossary})
    assert _front("c15") not in preview.cache.errors  # not drawn yet: a placeholder
    assert preview.page(_front("c15")) is not None


def test_a_pattern_kept_by_another_thread_meanwhile_does_not_break_the_anagram_search(
    monkeypatch: pytest.MonkeyPatch,
):
    """Another thread keeps a compiled pattern while `_anagram_kept` looks through the kept
    ones (here: when it sorts a candidate): the look goes on (was: RuntimeError, which
    ended the preview's document thread, and the rulebook was never drawn)."""
    import builtins

    from toolkit import dataclass_code

    kept = {("re", "ba", 0): (), ("re", "xy", 0): ()}
    monkeypatch.setattr(dataclass_code, "_REGEX", kept)
    real = builtins.sorted

    def sorting(value: Any) -> Any:
        kept[("re", f"new{len(kept)}", 0)] = ()  # as another thread would, between two steps
        return real(value)

    monkeypatch.setattr(dataclass_code, "sorted", sorting, raising=False)
    assert dataclass_code._anagram_kept("ab", 0)
    assert not dataclass_code._anagram_kept("zz", 0)


def test_the_newest_image_request_is_served_first() -> None:
    """A drawing under way, then requests for five images: they are drawn newest first, so
    the faces a page stopped at are not served after every face it scrolled past (was: in
    the order asked)."""
    import threading

    from toolkit.preview.drawers import Drawers

    drawers = Drawers(workers=1)
    busy, release = threading.Event(), threading.Event()
    order: list[int] = []
    first = drawers.submit(lambda: (busy.set(), release.wait(10)))
    assert busy.wait(10)
    asked = [drawers.submit(order.append, n) for n in range(5)]
    release.set()
    first.result(10)
    for future in asked:
        future.result(10)
    drawers.shutdown()
    assert order == [4, 3, 2, 1, 0]
