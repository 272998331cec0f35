"""Issue #33, the fifteenth probe's FILES findings (each test red before its fix): `build` and
the exports hold their output folder by one descriptor and refuse one another user may
move; root's game writes are refused in another user's folder; a 0711 folder above is no
refusal; an export folder that is, or holds, the game folder is refused; a failed build
leaves no empty folder."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import toolkit.fileio as fileio
from tests.conftest import FIXTURES

OTHER_UID = 4242


def _game(tmp_path: Path) -> Path:
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    return game


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def _exchange_at_first(monkeypatch, name: str, out: Path, other: Path) -> list[int]:
    """The attacker's move (`renameat2(RENAME_EXCHANGE)` in effect), done when fileio's
    `name` is first called: `out` becomes a link to the user's `other` folder."""
    real = getattr(fileio, name)
    calls = [0]

    def hooked(*args, **kwargs):
        calls[0] += 1
        if calls[0] == 1:
            out.rename(out.with_name(out.name + ".moved"))
            out.symlink_to(other)
        return real(*args, **kwargs)

    monkeypatch.setattr(fileio, name, hooked)
    return calls


# --- H1: the output folder exchanged for a link mid-run: build and export wrote into, and
# export's clean-up deleted from, another folder of the user's ------------------------------


def _victim(tmp_path: Path, sub: str) -> tuple[Path, dict[str, bytes]]:
    other = tmp_path / "print1"
    folder = other / "fixture-game" / "en" / sub
    (folder / "cards").mkdir(parents=True)
    (folder / "photo.png").write_bytes(b"MINE")
    (folder / "notes.json").write_bytes(b"{}")
    (folder / "cards" / "keep-me.png").write_bytes(b"OLD")
    return other, _files(other)


def test_export_png_follows_no_exchange_of_its_output_folder(tmp_path, run_cli, monkeypatch):
    game, out = _game(tmp_path), tmp_path / "out"
    out.mkdir()
    other, before = _victim(tmp_path, "png")
    calls = _exchange_at_first(monkeypatch, "_stage", out, other)
    result = run_cli("export", "png", str(game), "--lang", "en", "--dpi", "40", "--out", str(out))
    assert calls[0] > 1
    assert _files(other) == before, result.output  # nothing written, nothing deleted there
    assert result.exit_code == 0, result.output
    moved = tmp_path / "out.moved" / "fixture-game" / "en" / "png"
    assert (moved / "board.png").is_file() and (moved / "cards" / "sprint-front.png").is_file()


def test_export_tts_follows_no_exchange_of_its_output_folder(tmp_path, run_cli, monkeypatch):
    game, out = _game(tmp_path), tmp_path / "out"
    out.mkdir()
    other, before = _victim(tmp_path, "tts")
    _exchange_at_first(monkeypatch, "_stage", out, other)
    result = run_cli("export", "tts", str(game), "--lang", "en", "--dpi", "40", "--out", str(out))
    assert _files(other) == before, result.output
    assert result.exit_code == 0, result.output


def test_build_follows_no_exchange_of_its_output_folder(tmp_path, run_cli, monkeypatch):
    game, out = _game(tmp_path), tmp_path / "out"
    out.mkdir()
    other = tmp_path / "books"
    for lang in ("fr", "es", "en"):
        (other / "fixture-game" / lang).mkdir(parents=True)
        (other / "fixture-game" / lang / "cards.pdf").write_bytes(b"MY-OWN-EDITED-PDF")
    before = _files(other)
    _exchange_at_first(monkeypatch, "_plan", out, other)
    result = run_cli("build", str(game), "--no-cache", "--only", "cards", "--out", str(out))
    assert _files(other) == before, result.output
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out.moved" / "fixture-game" / "en" / "cards.pdf").is_file()


@pytest.mark.parametrize(
    "args",
    [
        ("build", "--no-cache", "--only", "cards", "--lang", "en"),
        ("export", "png", "--lang", "en", "--dpi", "40"),
        ("export", "tts", "--lang", "en", "--dpi", "40"),
    ],
)
def test_an_output_folder_others_may_move_is_refused(tmp_path, run_cli, args):
    game = _game(tmp_path)
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)  # no sticky bit: anyone may rename what is in it
    out = shared / "exp1"
    result = run_cli(*args[:2], str(game), *args[2:], "--out", str(out))
    assert result.exit_code == 1, result.output
    assert "not yours alone" in result.output and "others may write" in result.output
    assert "Traceback" not in result.output
    assert list(shared.iterdir()) == []


def test_the_default_output_of_a_game_in_a_folder_others_may_move_is_refused(
    tmp_path, run_cli, monkeypatch
):
    shared = tmp_path / "shared"
    shared.mkdir()
    game = shared / "game"
    shutil.copytree(FIXTURES / "base", game)
    shared.chmod(0o777)
    monkeypatch.chdir(game)
    result = run_cli("build", "--no-cache", "--only", "cards", "--lang", "en")
    assert result.exit_code == 1, result.output
    assert "not yours alone" in result.output
    assert not (game / "output").exists()


def test_convert_beside_a_deck_in_a_folder_others_may_move_is_refused(tmp_path, run_cli):
    shared = tmp_path / "shared"
    shared.mkdir()
    game = shared / "game"
    shutil.copytree(FIXTURES / "base", game)
    shared.chmod(0o777)
    deck = next((game / "decks").glob("*.yaml"))
    result = run_cli("convert", str(deck), "--to", "csv")
    assert result.exit_code == 1, result.output
    assert "not yours alone" in result.output
    assert not list((game / "decks").glob("*.csv"))


# --- H4: root's game writes in a folder of another user's (who may exchange the game for a
# link to a folder of root's mid-run) -------------------------------------------------------


def test_root_writes_no_game_in_a_folder_of_another_user(tmp_path, run_cli, monkeypatch):
    if os.geteuid() != 0:
        pytest.skip("only root can give a folder to another user")
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    game = theirs / "game"
    shutil.copytree(FIXTURES / "base", game)
    os.chown(theirs, OTHER_UID, OTHER_UID)  # mode 0755: theirs to rename what is in it
    manifest = (game / "game.yaml").read_bytes()
    monkeypatch.chdir(tmp_path)
    result = run_cli("i18n", "add-language", "de", str(game))
    assert result.exit_code == 1, result.output
    assert "belongs to another user (uid 4242)" in result.output
    assert (game / "game.yaml").read_bytes() == manifest


# --- M1: a folder above that one may pass but not list (0711) is no refusal -----------------


def test_a_folder_one_may_pass_but_not_list_is_no_refusal(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root may list any folder: run as the unprivileged user")
    passing = tmp_path / "x711"
    (passing / "mine").mkdir(parents=True)
    passing.chmod(0o711)
    try:
        assert fileio.others_may_move(passing / "mine" / "game") is None
    finally:
        passing.chmod(0o755)


def test_others_may_move_walks_the_folders_above_with_search_permission_only(tmp_path, monkeypatch):
    # as root a 0711 folder can be listed anyway: the flags of the walk above are checked
    seen: list[int] = []
    real = os.open

    def opening(path, flags, *args, **kwargs):
        seen.append(flags)
        return real(path, flags, *args, **kwargs)

    monkeypatch.setattr(fileio.os, "open", opening)
    assert fileio.others_may_move(tmp_path / "game") is None
    assert seen and all(flags & os.O_PATH for flags in seen)


# --- M2: `export png --out .` from the folder holding the game: `<out>/<id>` is the game, and
# the clean-up deleted the designer's own pictures -------------------------------------------


@pytest.mark.parametrize("command", [("export", "png"), ("build",)])
def test_an_output_whose_game_folder_is_the_game_itself_is_refused(
    tmp_path, run_cli, monkeypatch, command
):
    game = tmp_path / "fixture-game"  # named as its id: `--out .` lands on it
    shutil.copytree(FIXTURES / "base", game)
    art = game / "en" / "png"
    (art / "art").mkdir(parents=True)
    (art / "art" / "hero.png").write_bytes(b"HERO")
    (art / "map.png").write_bytes(b"MAP")
    before = _files(game)
    monkeypatch.chdir(tmp_path)
    result = run_cli(*command, str(game), "--lang", "en", "--out", ".")
    assert result.exit_code == 1, result.output
    assert "the game folder itself" in result.output
    assert _files(game) == before


# --- L1: a failed build (a full disk) left out/<game>/<lang>/ empty ---------------------------


def test_a_failed_build_leaves_no_empty_folder(tmp_path, run_cli, monkeypatch):
    game, out = _game(tmp_path), tmp_path / "out"

    def full(*args, **kwargs):
        raise fileio.OutputError(tmp_path / "x", "No space left on device")

    monkeypatch.setattr(fileio, "_stage", full)
    result = run_cli(
        "build", str(game), "--no-cache", "--only", "cards", "--lang", "en", "--out", str(out)
    )
    assert result.exit_code == 1, result.output
    assert "No space left on device" in result.output
    assert not out.exists()
