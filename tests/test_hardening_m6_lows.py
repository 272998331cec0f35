"""Hardening lows: a plugin element kind's os.chdir does not move the build; `--out` is
compared with the game folder by identity, not by path; a game folder where `export png`
writes is refused."""

from __future__ import annotations

import os
import shutil
import subprocess
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


# --- `--out` and the game folder compared by what they are, not by path -------------------


@pytest.fixture
def second_path(tmp_path) -> Iterator[tuple[Path, Path]]:
    """A folder and another path to it (a bind mount), unmounted after the test; skipped
    where mounting is not allowed."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    if shutil.which("mount") is None:
        pytest.skip("no mount command")
    made = subprocess.run(["mount", "--bind", str(first), str(second)], capture_output=True)
    if made.returncode != 0:
        pytest.skip("bind mounts are not allowed here")
    try:
        yield first, second
    finally:
        subprocess.run(["umount", str(second)], check=True)


def test_an_output_file_through_a_bind_mount_is_still_the_game_s_own(
    second_path, run_cli, monkeypatch
):
    first, second = second_path
    assert run_cli("new", "x", "--into", str(first), "--lang", "en").exit_code == 0
    rulebook = first / "x" / "rulebook" / "en.md"
    before = rulebook.read_bytes()
    monkeypatch.chdir(first / "x")
    result = run_cli(
        "i18n",
        "export",
        "--template",
        "--out",
        str(second / "x" / rulebook.relative_to(first / "x")),
    )
    assert result.exit_code == 2, result.output
    assert "is the game's own file rulebook/en.md" in result.output
    assert rulebook.read_bytes() == before


def test_an_output_folder_through_a_bind_mount_is_still_the_game_folder(
    second_path, run_cli, monkeypatch
):
    first, second = second_path
    assert run_cli("new", "x", "--into", str(first), "--lang", "en").exit_code == 0
    before = _files(first / "x")
    monkeypatch.chdir(first / "x")
    result = run_cli("build", "--only", "cards", "--out", str(second))
    assert result.exit_code == 1, result.output
    assert "it is the game folder itself" in result.output
    assert "Traceback" not in result.output
    assert _files(first / "x") == before


# --- a game folder where `export png` writes ------------------------------------------------


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.mark.parametrize("below", ["", "kept"])
def test_a_game_folder_where_export_png_writes_is_refused(tmp_path, run_cli, monkeypatch, below):
    out = tmp_path / "out"
    assert run_cli("new", "x", "--into", str(tmp_path), "--lang", "en").exit_code == 0
    game = out / "x" / "en" / "png" / below
    game.parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / "x").rename(game)
    (game / "rulebook" / "page-01.png").write_bytes(b"MY ART")  # the designer's own picture
    (game / "cards").mkdir()
    (game / "cards" / "advance-front.png").write_bytes(b"MINE")
    before = _files(out)
    monkeypatch.chdir(game)
    result = run_cli("export", "png", "--out", str(out))
    assert result.exit_code == 1, result.output
    assert "`export png` writes its files there" in result.output
    assert "Traceback" not in result.output
    assert _files(out) == before
