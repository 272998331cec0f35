"""Probe 42 H2: the preview's faces shared `validate`'s fitting budget, but a face fitted
there is also drawn (rasterised, PNG-encoded): the whole budget let ~15 s of drawing
through at start, and again synchronously at each save of a layout, which changes every
face. The preview now fits a fifth of the check's letters, and a save draws at once only
the first faces of each deck and language (as a page request does), the rest in the
background. The tests count faces, never time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.test_hardening_prevfit55 import CARDS, LONG, _face_work, _fronts, fitted  # noqa: F401 (fixture)
from tests.test_hardening_tips53 import _rules_game
from toolkit.preview import face_budget
from toolkit.render import textfit


def test_the_preview_fits_a_share_of_the_check_s_letters(  # noqa: F811 (the fixture)
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fitted: list[tuple[str, int]],  # noqa: F811
):
    """A check's budget for 25 faces: the preview draws its share (`SHARE`: 30 %, 7 or 8) and
    refuses the rest, saying why (was: 25 drawn)."""
    from toolkit.preview.draw import draw_targets

    game = _rules_game(tmp_path / "g", CARDS, LONG)
    work = _face_work(game, fitted)
    assert work > 0
    monkeypatch.setattr(textfit, "FIT_BUDGET", 25 * work)
    monkeypatch.setattr(face_budget, "FACE_LETTERS", 0)  # a face's own cost: lazy56's tests
    shown, faces = _fronts(game)
    results = draw_targets(shown, faces)
    drawn = [r for r in results if isinstance(r, list)]
    refused = [r for r in results if not isinstance(r, list)]
    share = int(25 * face_budget.SHARE)  # (a face begun under the budget is drawn)
    assert share <= len(drawn) <= share + 1 < 25, len(drawn)
    assert all("is not rendered: the fitting budget" in str(r) for r in refused), refused[0]


def test_a_layout_save_draws_the_first_faces_now_and_leaves_the_rest_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A save of the fronts' layout changes all 60 fronts (20 cards, 3 languages), all
    shown: with 5 faces of a deck and language drawn at once, the save draws 15 and leaves
    45 stale, each drawn once when the page asks for it (was: all 60 drawn before the save
    returned; then, until lazy56, the 45 drawn by the worker whether shown or not)."""
    from toolkit.preview import live

    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    monkeypatch.setattr(live, "SAVE_FACES", 5, raising=False)
    game = _rules_game(tmp_path / "g", CARDS, "{{ card.id }}")
    preview = live.Preview(game)
    preview.load(check=False)
    faces = {
        t.key
        for t in preview.snap.targets.values()
        if t.kind == "face" and t.side == "front" and t.deck == "cards"
    }
    assert len(faces) == 60
    for key in sorted(faces):  # every face shown once, as a page scrolled through would
        assert preview.page(key) is not None
    drawn: list[str] = []
    real = live.draw_targets

    def counted(game: Any, targets: list[Any]) -> Any:
        drawn.extend(t.key for t in targets)
        return real(game, targets)

    monkeypatch.setattr(live, "draw_targets", counted)
    layout = game / "layouts" / "plain.yaml"
    layout.write_text(layout.read_text("utf-8").replace("{{ card.id }}", "{{ card.id }}!"), "utf-8")
    changed = preview.apply({layout})
    assert len(drawn) == 15, len(drawn)
    assert len(changed) == 15
    assert preview.last_update["queued"] == 45
    assert len(preview.stale) == 45
    assert not preview._background or preview._background[0] == [live.CHECK]
    for key in sorted(faces):
        assert preview.page(key) is not None
    assert sorted(drawn) == sorted(faces)  # each face drawn once, the stale ones when asked
    assert not preview.stale
    assert all(preview.cache.page(key).version == 2 for key in faces)  # type: ignore[union-attr]
