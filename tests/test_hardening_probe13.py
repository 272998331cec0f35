"""Issue #33, the thirteenth probe's findings (each test red before its fix): a folder
another user may change is no place for a new game nor for engine code Playset runs, and a
game's picture is never read from its output/ folder (validate's cache does not watch it)."""

from __future__ import annotations

import os

import pytest

from tests.conftest import diagnostics_json
from toolkit.scaffold.new import ScaffoldError, new_game

OTHER_UID = 4242


def _chown_if_root(path, uid: int) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root can give a file to another user")
    os.chown(path, uid, uid)


# --- H1: `new` took an empty folder another user made in /tmp; that user then swapped the
# engine, and `simulate` ran their code in the user's account ------------------------------


def test_new_refuses_an_empty_folder_others_may_write(tmp_path):
    shared = tmp_path / "lantern-keepers"
    shared.mkdir()
    shared.chmod(0o777)
    with pytest.raises(ScaffoldError, match="others may write"):
        new_game(shared, "lantern", ["en"], engine=True)
    assert not any(shared.iterdir())


def test_new_refuses_an_empty_folder_of_another_user(tmp_path):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    _chown_if_root(theirs, OTHER_UID)
    with pytest.raises(ScaffoldError, match="another user"):
        new_game(theirs, "lantern", ["en"], engine=True)


def test_an_engine_others_may_change_is_not_run(tmp_path, run_cli):
    game = tmp_path / "game"
    new_game(game, "demo", ["en"], engine=True)
    marker = tmp_path / "ran"
    engine = game / "engine.py"
    text = engine.read_text(encoding="utf-8")
    first = "from __future__ import annotations\n"
    assert first in text
    mark = f"{first}import pathlib\npathlib.Path({str(marker)!r}).write_text('x')\n"
    engine.write_text(text.replace(first, mark, 1))
    game.chmod(0o777)  # anyone may replace engine.py
    try:
        result = run_cli("simulate", str(game), "-n", "2", "-p", "2")
    finally:
        game.chmod(0o755)
    assert result.exit_code == 1, result.output
    assert "is not run" in result.output and "others may write" in result.output
    assert not marker.exists()
    again = run_cli("simulate", str(game), "-n", "2", "-p", "2")
    assert again.exit_code == 0, again.output
    assert marker.exists()


def test_an_engine_file_of_another_user_is_not_run(tmp_path, run_cli):
    game = tmp_path / "game"
    new_game(game, "demo", ["en"], engine=True)
    _chown_if_root(game / "engine.py", OTHER_UID)
    result = run_cli("simulate", str(game), "-n", "2", "-p", "2")
    assert result.exit_code == 1 and "belongs to another user" in result.output, result.output


# --- M2: a picture read from output/ under a name that does not spell it: validate's cache
# (which leaves output/ out unless a file names it) kept findings no longer true ------------


def test_a_picture_in_the_output_folder_is_refused_however_it_is_spelt(tmp_path, run_cli):
    from PIL import Image

    game = tmp_path / "game"
    new_game(game, "demo", ["en"])
    (game / "layouts" / "pic.yaml").write_text(
        "id: pic\nelements:\n  - kind: image\n    box: {x: 3, y: 3, w: -3, h: -3}\n"
        '    path: "\\u006Futput/pics/{{ card.id }}.png"\n',
        encoding="utf-8",
    )
    deck = game / "decks" / "cards.yaml"
    deck.write_text(
        deck.read_text(encoding="utf-8").replace("size: poker", "size: poker\nlayout: pic", 1)
    )
    (game / "output" / "pics").mkdir(parents=True)
    for card in ("advance", "treasure", "rest"):
        Image.new("RGB", (200, 300), "red").save(game / "output" / "pics" / f"{card}.png")
    result = run_cli("validate", str(game), "--format", "json")
    found = [d for d in diagnostics_json(result.output) if d["code"] == "P004"]
    assert found and all("output/ folder" in d["message"] for d in found), result.output
    assert result.exit_code == 1


# --- L1: a rewritten game file (`i18n fix --write`) took the writer's group; a team sharing
# the game by its group lost the file -------------------------------------------------------


def test_a_rewritten_file_keeps_its_group(tmp_path):
    from toolkit.fileio import atomic_write_text

    deck = tmp_path / "cards.yaml"
    deck.write_text("id: cards\n", encoding="utf-8")
    deck.chmod(0o640)
    if os.geteuid() != 0:
        pytest.skip("only root can give a file to any group")
    os.chown(deck, -1, OTHER_UID)
    atomic_write_text(deck, "id: cards2\n", inside=tmp_path)
    info = deck.stat()
    assert (info.st_gid, info.st_mode & 0o777) == (OTHER_UID, 0o640)
    assert deck.read_text(encoding="utf-8") == "id: cards2\n"
