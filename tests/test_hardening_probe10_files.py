"""Findings of the tenth hostile probe of the file system (issue #33): what a game folder, the
folder it lies in or the files around it could still make Playset do, each with its test."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from toolkit.scaffold.new import new_game


def _game(folder: Path) -> Path:
    new_game(folder, "demo", ["en"])
    return folder


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


# --- M1: an export that fails half-way left half a set of images -----------------------------
# `export png` and `export tts` wrote each image as it was drawn: an error after the first
# ones (a full disk, a board or rulebook page over the pixel limit at --page-dpi 1200, Ctrl-C)
# left the new images of the first decks beside the old ones of the rest (and, for tts, the
# old save naming sheets of another grid), and on a first run a partial folder. A build keeps
# a language's PDFs all old or all new; an export now does the same.

EXPORTS = {
    "png": ("toolkit.render.exports.png", "rulebook_pngs", ["--dpi", "30", "--page-dpi", "30"]),
    "tts": ("toolkit.render.exports.tts", "board_pngs", ["--dpi", "30"]),
}


@pytest.mark.parametrize("name", sorted(EXPORTS))
def test_an_export_that_fails_half_way_leaves_the_old_images(tmp_path, run_cli, monkeypatch, name):
    import importlib

    from toolkit.render.artifacts import BuildError

    module, last_step, options = EXPORTS[name]
    game = _game(tmp_path / "game")
    out = tmp_path / "out"
    args = ["export", name, str(game), "--out", str(out), *options]
    assert run_cli(*args).exit_code == 0
    before = _files(out)
    assert any(rel.endswith(".png") for rel in before)
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("Forward", "Backward"))

    def fail(*args, **kwargs):
        raise BuildError("the last step failed")

    monkeypatch.setattr(importlib.import_module(module), last_step, fail)
    result = run_cli(*args)
    assert result.exit_code == 1
    assert _files(out) == before  # no new card image beside the old board and save

    shutil.rmtree(out)  # a first run that fails leaves no image at all
    assert run_cli(*args).exit_code == 1
    assert not [path for path in out.rglob("*") if path.is_file()]


def test_an_export_interrupted_leaves_no_staged_image(tmp_path, run_cli, monkeypatch):
    import toolkit.render.exports.png as png

    game = _game(tmp_path / "game")
    out = tmp_path / "out"

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(png, "rulebook_pngs", interrupt)
    result = run_cli("export", "png", str(game), "--out", str(out), "--dpi", "30")
    assert result.exit_code != 0  # typer's Abort
    assert not [path for path in out.rglob("*") if path.is_file()]


# --- M2: the LSP mirror met a folder where it had a file, or a file where it had a folder ----
# A folder of the game replaced by a file of the same name (or a file by a folder: a branch
# checked out, an archive unpacked over the game) made every later check of the game end in
# IsADirectoryError / FileExistsError while the mirror was brought up to date: the editor's
# findings froze until the language server was restarted.


def _mirror_state(game: Path):
    from toolkit.lsp.mirror import Mirror
    from toolkit.lsp.workspace import GameState

    return GameState(Mirror(game))


def test_the_lsp_mirror_follows_a_folder_replaced_by_a_file(tmp_path):
    game = _game(tmp_path / "demo")
    state = _mirror_state(game)
    try:
        state.check()
        shutil.rmtree(game / "icons")
        (game / "icons").write_text("not a folder any more\n")
        state.check()  # raised IsADirectoryError
        (game / "glossary.yaml").write_text("terms: [\n")  # and later edits are still seen
        found = state.check()
        assert any(d.code.startswith("Y") for d in found[str(game / "glossary.yaml")])
    finally:
        state.mirror.close()


def test_the_lsp_mirror_follows_a_file_replaced_by_a_folder(tmp_path):
    game = _game(tmp_path / "demo")
    state = _mirror_state(game)
    try:
        (game / "notes").write_text("a file first\n")
        state.check()
        (game / "notes").unlink()
        (game / "notes").mkdir()
        (game / "notes" / "todo.md").write_text("then a folder\n")
        state.check()  # raised FileExistsError
        assert (state.mirror.path / "notes" / "todo.md").read_text() == "then a folder\n"
        (game / "glossary.yaml").write_text("terms: [\n")
        found = state.check()
        assert any(d.code.startswith("Y") for d in found[str(game / "glossary.yaml")])
    finally:
        state.mirror.close()


def test_an_open_document_below_a_file_of_the_mirror_is_written_once_a_folder(tmp_path):
    game = _game(tmp_path / "demo")
    state = _mirror_state(game)
    try:
        (game / "notes").write_text("a file first\n")
        state.check()
        (game / "notes").unlink()
        (game / "notes").mkdir()
        state.mirror.set_buffer("notes/todo.md", "unsaved\n")
        state.check()
        assert (state.mirror.path / "notes" / "todo.md").read_text() == "unsaved\n"
    finally:
        state.mirror.close()


# --- M3: a game folder whose path is longer than the system names ------------------------
# Linux names no file by a path over PATH_MAX (4,096 bytes). Run inside such a game folder,
# every command ended in an OSError traceback (ENAMETOOLONG, looking for game.yaml); named
# by a short relative path, the game was refused with findings that said its own game.yaml
# and icons "lead outside the game folder".


def _deep(tmp_path: Path) -> tuple[Path, Path]:
    """A game in a folder whose absolute path is over 4,096 bytes; (its parent, the game),
    made and reached by relative steps (no path given to the system is that long)."""
    here = os.getcwd()
    parts = ["d" * 250] * 17
    os.chdir(tmp_path)
    try:
        for part in parts:
            os.mkdir(part)
            os.chdir(part)
        _game(Path("demo"))
    finally:
        os.chdir(here)
    parent = tmp_path.joinpath(*parts)
    return parent, parent / "demo"


def _chdir_deep(monkeypatch, folder: Path, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    for part in folder.relative_to(tmp_path).parts:
        os.chdir(part)


@pytest.mark.parametrize("command", [["validate"], ["build"], ["i18n", "status"]])
def test_a_command_in_a_game_folder_too_deep_to_name_says_so(
    tmp_path, run_cli, monkeypatch, command
):
    _, game = _deep(tmp_path)
    _chdir_deep(monkeypatch, game, tmp_path)
    result = run_cli(*command)  # an OSError traceback before
    assert result.exit_code == 2, result.output
    assert "longer than" in result.output and "shorter path" in result.output


def test_a_game_too_deep_to_name_is_not_said_to_lead_outside(tmp_path, run_cli, monkeypatch):
    parent, _ = _deep(tmp_path)
    _chdir_deep(monkeypatch, parent, tmp_path)
    result = run_cli("validate", "demo")
    assert result.exit_code == 2, result.output
    assert "leads outside" not in result.output
    assert "longer than" in result.output and "shorter path" in result.output


# --- H1 (needs a race): an import into a sheet deck read the sheet again through a link ----
# `i18n import` writes a translation into a sheet deck's cell by reading the sheet again
# (sheets.edit.edit_cells): that read had no `inside`, so a CSV/XLSX deck switched to a link
# after the game was loaded had the user's file read, edited and written into the game
# (the YAML edits were confined by the earlier Lows round; the sheet edit was not).


def test_an_import_reads_no_sheet_switched_to_a_link_out_of_the_game(
    tmp_path, run_cli, monkeypatch
):
    from toolkit.content.game import load_game
    from toolkit.i18n import po as po_module
    from toolkit.i18n.po import export_po, import_po

    game = tmp_path / "game"
    new_game(game, "demo", ["en", "fr"])
    assert run_cli("convert", str(game / "decks" / "cards.yaml"), "--to", "csv").exit_code == 0
    (game / "decks" / "cards.yaml").unlink()
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("decks/cards.yaml", "decks/cards.csv"))
    loaded = load_game(game)
    po = export_po(loaded, "fr")
    (entry,) = [e for e in po if e.msgid == "Forward"]
    entry.msgstr = "Vers l'avant"
    sheet = game / "decks" / "cards.csv"
    secret = tmp_path / "secret.csv"
    secret.write_text(sheet.read_text(encoding="utf-8-sig").replace("Treasure", "SECRET"))
    apply = po_module._apply

    def switch_then_apply(*args, **kwargs):  # after the units were read, before the edits
        sheet.unlink()
        sheet.symlink_to(secret)
        return apply(*args, **kwargs)

    monkeypatch.setattr(po_module, "_apply", switch_then_apply)
    result, texts = import_po(loaded, po, "fr")
    assert not any(b"SECRET" in (t if isinstance(t, bytes) else t.encode()) for t in texts.values())
    assert any(o.what == "refused" and "outside the game" in o.why for o in result.outcomes)


# --- Low: an export killed between staging and renaming left its temporary files for ever --


def test_an_export_removes_the_stale_temporary_files_a_killed_export_left(tmp_path, run_cli):
    game = _game(tmp_path / "game")
    out = tmp_path / "out"
    args = ["export", "png", str(game), "--out", str(out), "--dpi", "30", "--page-dpi", "30"]
    assert run_cli(*args).exit_code == 0
    cards = out / "demo" / "en" / "png" / "cards"
    stale = cards / ".advance-front.png.0a1b2c3d.tmp"
    stale.write_bytes(b"half an image")
    os.utime(stale, (1_000_000_000, 1_000_000_000))
    fresh = cards / ".treasure-front.png.0a1b2c3e.tmp"  # another export's, in progress
    fresh.write_bytes(b"being written")
    assert run_cli(*args).exit_code == 0
    assert not stale.exists() and fresh.exists()


# --- M4: a game folder inside an export's own folder had its pictures and JSON deleted -----
# An export removes the .png and .json files of its folder (`<out>/<game>/<lang>/png`, or
# `tts`) that the run did not write. A game kept in that very place (or a game folder below
# it) lost its card art, its schemas and any .json data of its own, without a word.


def test_an_export_deletes_nothing_of_a_game_folder_in_its_own_folder(tmp_path, run_cli):
    game = _game(tmp_path / "out" / "demo" / "en" / "png")
    art = game / "art.png"
    art.write_bytes(b"\x89PNG\r\n\x1a\n the designer's own picture")
    schemas = sorted(game.rglob("*.json"))
    assert schemas
    other = _game(tmp_path / "out" / "demo" / "en" / "tts" / "old-copy")
    kept = sorted(other.rglob("*.json"))
    out = str(tmp_path / "out")
    # `export png` would write its images over the game's own (its rulebook/page-01.png, a
    # deck's <card>-front.png): refused; `export tts` writes beside it
    result = run_cli("export", "png", str(game), "--out", out, "--dpi", "30")
    assert result.exit_code == 1, result.output
    assert "`export png` writes its files there" in result.output
    result = run_cli("export", "tts", str(game), "--out", out, "--dpi", "30")
    assert result.exit_code == 0, result.output
    assert art.read_bytes().startswith(b"\x89PNG")
    assert all(path.is_file() for path in schemas + kept)


# --- Low: a listed file whose name on disk differs only in case or Unicode form ------------


@pytest.mark.parametrize("on_disk", ["cafe\u0301.yaml", "CAFÉ.yaml"])
def test_a_file_named_in_another_unicode_form_or_case_is_pointed_at(tmp_path, run_cli, on_disk):
    game = _game(tmp_path / "demo")
    (game / "decks" / "cards.yaml").rename(game / "decks" / on_disk)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("decks/cards.yaml", "decks/caf\u00e9.yaml"))
    result = run_cli("validate", str(game))
    assert result.exit_code == 1
    assert f"{on_disk!r} is there" in result.output
