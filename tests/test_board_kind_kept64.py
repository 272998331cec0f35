"""A board's model read back from the cache (toolkit.content.model_units) is told a board
kind's own by its kind's module alone: after a deck edit, `validate` imports no other board
kind's module (road, track, score track) for a game whose only board is a graph; a class no
built-in kind names is still asked of every kind."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import FIXTURES, build_case, validate_importing
from tests.test_validate_cache_units import cache  # noqa: F401 (a fixture)
from toolkit.content.models.board import BOARD_KINDS, GraphBoard, made_by_a_kind


def _board_modules(game: Path) -> tuple[list[str], list[str]]:
    return validate_importing(game, "toolkit.boards.")


@pytest.mark.usefixtures("cache")
def test_a_kept_graph_board_imports_no_other_board_kind(tmp_path):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    said, cold = _board_modules(game)
    assert "toolkit.boards.graph" in cold, cold  # the cold run validates the board
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text("utf-8").replace("Move {steps}", "Go {steps}"), "utf-8")
    edited_said, edited = _board_modules(game)
    assert edited == ["toolkit.boards.graph"], edited
    assert edited_said == said


def test_a_board_kinds_class_is_told_as_every_kind_tells_it():
    """The answer is the class's, as asked of every registered kind: a subclass of a kind's
    model is none; a kind's model is one whatever its `kind` value says."""

    class Other(GraphBoard):
        pass

    assert not made_by_a_kind(Other.model_construct(kind="graph"))
    assert made_by_a_kind(GraphBoard.model_construct(kind="graph"))
    assert made_by_a_kind(GraphBoard.model_construct(kind="no-such-kind"))
    assert not made_by_a_kind(object())
    assert BOARD_KINDS.registered()["graph"].model is GraphBoard
