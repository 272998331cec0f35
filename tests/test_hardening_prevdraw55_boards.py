"""Probe 42 M5: the preview drew each graph board once per language, placing its names
again each time (10 boards of 400 spaces in 3 languages: 18.7 s, most of it placing). The
names' places are now worked out once for the same inputs (spaces, names' widths, roads,
title and legend boxes), so languages whose title and legend take the same room share
them. The tests count placements, never time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.test_hardening_tips53 import FIXTURES, build_case
from toolkit.render.boards import graph


def _board_game(root: Path, names: str) -> Path:
    """The base fixture, its map named `names` (a YAML mapping of languages)."""
    game = build_case(FIXTURES / "base", root)
    board = game / "boards" / "map.yaml"
    text = board.read_text("utf-8")
    head, _, rest = text.partition("name:\n")
    rest = rest.split("\n", 3)[3]  # the three languages' names
    board.write_text(f"{head}name: {names}\n{rest}", "utf-8")
    return game


def _placements(game: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Places weighed for a name while the preview draws the map in each language."""
    from toolkit.preview.draw import draw_targets
    from toolkit.preview.live import Preview

    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    monkeypatch.setattr(graph, "_placed", {}, raising=False)  # none kept by other tests
    weighed: list[int] = []
    real = graph._label_rect

    def counted(*args: Any) -> Any:
        weighed[-1] += 1
        return real(*args)

    monkeypatch.setattr(graph, "_label_rect", counted)
    preview = Preview(game)
    preview.load(check=False)
    boards = [t for t in preview.snap.targets.values() if t.kind == "board"]
    assert [t.lang for t in boards] == ["fr", "es", "en"]
    found: dict[str, int] = {}
    for target in boards:
        weighed.append(0)
        [pages] = draw_targets(preview.shown, [target])
        assert isinstance(pages, list) and len(pages) == 1
        found[target.lang] = weighed[-1]
    return found


def test_languages_with_the_same_title_share_the_names_places(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """One name in every language: the names are placed for the first language only (was:
    again in each)."""
    found = _placements(_board_game(tmp_path / "g", "{fr: Map, es: Map, en: Map}"), monkeypatch)
    assert found["fr"] > 0
    assert found["es"] == found["en"] == 0, found


def test_a_title_of_another_size_places_the_names_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The title takes other room in each language: each places its names (the title may
    push one)."""
    names = "{fr: Plan du jeu entier, es: Mapa, en: Map of the whole wide world}"
    found = _placements(_board_game(tmp_path / "g", names), monkeypatch)
    assert all(count > 0 for count in found.values()), found


def test_the_names_kept_are_where_placing_them_again_puts_them(monkeypatch: pytest.MonkeyPatch):
    """The bundled-like fixture map in each language: the kept places are those placed
    afresh, and the names put east unweighed are counted alike."""
    from toolkit.content.game import load_game
    from toolkit.render.boards import board_look

    monkeypatch.setattr(graph, "_placed", {}, raising=False)
    game = load_game(FIXTURES / "base")
    [board] = list(game.valid(game.boards))
    for lang in ("fr", "es", "en", "fr"):
        look = board_look(game, board, lang)
        kept = graph.plan_graph(board, look)
        fresh = graph.plan_graph(board, look)
        monkeypatch.setattr(graph, "_placed", {})
        afresh = graph.plan_graph(board, look)
        labels = {k: s.label for k, s in afresh.spots.items()}
        assert {k: s.label for k, s in kept.spots.items()} == labels
        assert {k: s.label for k, s in fresh.spots.items()} == labels
        assert kept.unweighed == fresh.unweighed == afresh.unweighed


def test_counting_roads_only_until_a_place_loses_changes_no_place(
    monkeypatch: pytest.MonkeyPatch,
):
    """The roads a name's place crosses are counted until that place loses to the best one
    so far: every name goes where the whole count puts it."""
    from toolkit.content.game import load_game
    from toolkit.render.boards import board_look

    game = load_game(FIXTURES / "base")
    [board] = list(game.valid(game.boards))
    whole = graph._hits

    def every(rect: Any, segs: Any, cost: float, best: float | None) -> int:
        return whole(rect, segs, cost, None)

    piled = board.model_copy(  # names crowded among roads: many places cross some
        update={"spaces": [s.model_copy(update={"lat": 50.0, "lon": 1.0}) for s in board.spaces]}
    )
    for model in (board, piled):
        look = board_look(game, model, "en")
        monkeypatch.setattr(graph, "_placed", {})
        counted = {k: s.label for k, s in graph.plan_graph(model, look).spots.items()}
        monkeypatch.setattr(graph, "_hits", every)
        monkeypatch.setattr(graph, "_placed", {})
        assert {k: s.label for k, s in graph.plan_graph(model, look).spots.items()} == counted
        monkeypatch.setattr(graph, "_hits", whole)
