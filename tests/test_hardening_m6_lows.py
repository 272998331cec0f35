"""Hardening lows: a plugin element kind's os.chdir does not move the build; `--out` is
compared with the game folder by identity, not by path; a game folder where `export png`
writes is refused."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest
from reportlab.lib.units import mm

from tests.conftest import FIXTURES, copy_game
from toolkit.content.game import load_game
from toolkit.content.models.base import LocalizedText, Slug, StrictModel
from toolkit.content.models.board import BoardKind, register_board_kind, unregister_board_kind
from toolkit.render.boards import render_board
from toolkit.render.elements import REGISTRY, Element, register_element
from toolkit.render.tiling import Drawing

ELSEWHERE: list[Path] = []  # where the wandering kind goes while it draws


class WanderElement(Element):
    """A kind that changes the working folder while it draws (a careless plugin)."""

    kind: Literal["wander"]

    def draw(self, c, item, x, y, job):
        os.chdir(ELSEWHERE[0])


LAYOUT = """\
id: wandering
elements:
  - kind: wander
    box: {x: 0, y: 0, w: 10, h: 10}
  - kind: text
    box: {x: 4, y: 4, w: -4, h: 20}
    text: "{{ card.name }}"
    size: {max: 12, min: 7}
"""


@pytest.fixture
def wander(tmp_path) -> Iterator[Path]:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    ELSEWHERE[:] = [elsewhere]
    register_element(WanderElement)
    try:
        yield elsewhere
    finally:
        REGISTRY.remove("wander")


def test_a_plugin_kind_that_changes_folder_while_drawing_does_not_move_the_build(
    wander, tmp_path, run_cli, monkeypatch
):
    assert run_cli("new", "w", "--into", str(tmp_path), "--lang", "en").exit_code == 0
    game = tmp_path / "w"
    (game / "layouts" / "wandering.yaml").write_text(LAYOUT, encoding="utf-8")
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("size: poker\n", "size: poker\nlayout: wandering\n"), "utf-8")
    monkeypatch.chdir(game)
    result = run_cli("build", "--only", "cards", "--out", "relout")
    assert result.exit_code == 0, result.output
    assert Path.cwd() == game
    assert (game / "relout" / "w" / "en" / "cards.pdf").is_file()
    assert list(wander.iterdir()) == []


class RingBoard(StrictModel):
    """A board kind of a test's own whose drawing callback changes folder."""

    kind: Literal["rings"]
    id: Slug
    name: LocalizedText


def draw_rings(board: RingBoard, look) -> list[Drawing]:
    os.chdir(ELSEWHERE[0])  # while the drawings are made

    def paint(c) -> None:
        os.chdir(ELSEWHERE[0])  # and while one is drawn
        c.drawString(20 * mm, 20 * mm, look.text(board.name))

    return [Drawing(200 * mm, 150 * mm, look.text(board.name), paint)]


def test_a_plugin_board_kind_that_changes_folder_while_drawing_leaves_it(tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    ELSEWHERE[:] = [elsewhere]
    register_board_kind(BoardKind("rings", RingBoard, draw_rings, lambda b: "rings"))
    try:
        game = tmp_path / "game"
        copy_game(FIXTURES / "base", game)
        board = "kind: rings\nid: rings\nname: {fr: Anneaux, es: Anillos, en: Rings}\n"
        (game / "boards" / "map.yaml").write_text(board, encoding="utf-8")
        monkeypatch.chdir(tmp_path)
        loaded = load_game(game)
        model = next(b.model for b in loaded.boards if b.model is not None)
        assert render_board(loaded, model, "en").startswith(b"%PDF")
        assert Path.cwd() == tmp_path
    finally:
        unregister_board_kind("rings")
