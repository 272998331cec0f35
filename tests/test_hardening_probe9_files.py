"""Findings of the ninth hostile probe of the file system (issue #33): what a game folder
(or the folder it is unpacked in) could still make Playset do, each with its test."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from toolkit.scaffold.new import new_game

NOT_UTF8 = os.fsdecode(b"jeux-\xe9t\xe9")  # "jeux-été" as Latin-1 bytes: no UTF-8 name


def _game(folder: Path, engine: bool = False) -> Path:
    new_game(folder, "demo", ["en"], engine=engine)
    return folder


# --- M1: a path that is not UTF-8 (the game's folder, or a file in it) ---------------------
# Linux file names are bytes; Python shows the bytes that are no UTF-8 as lone surrogates,
# which str.encode() refuses: every command that hashed or quoted such a path ended in a
# UnicodeEncodeError traceback.


@pytest.mark.parametrize("command", [["simulate", "-n", "10"], ["check", "-n", "10"]])
def test_an_engine_in_a_folder_not_named_in_utf8_plays(tmp_path, run_cli, command):
    game = _game(tmp_path / NOT_UTF8 / "game", engine=True)
    result = run_cli(*command, str(game))
    assert result.exit_code == 0, result.output


def test_build_with_its_cache_in_a_folder_not_named_in_utf8(tmp_path, run_cli, monkeypatch):
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    game = _game(tmp_path / NOT_UTF8 / "game")
    out = tmp_path / "out"
    for _ in range(2):  # drawn, then written from the cache
        result = run_cli("build", str(game), "--lang", "en", "--out", str(out))
        assert result.exit_code == 0, result.output
    assert (out / "demo" / "en" / "cards.pdf").is_file()


def test_the_preview_fingerprints_a_file_not_named_in_utf8(tmp_path):
    from toolkit.preview.store import stamp

    game = _game(tmp_path / "game")
    notes = game / "notes"
    notes.mkdir()
    (notes / NOT_UTF8).write_text("x")
    before = stamp(game)
    (notes / NOT_UTF8).write_text("changed")
    assert stamp(game) != before


def test_sarif_names_a_file_not_named_in_utf8(tmp_path, run_cli, monkeypatch):
    game = _game(tmp_path / "game")
    (game / "icons" / f"{NOT_UTF8}.svg").write_bytes((game / "icons" / "token.svg").read_bytes())
    monkeypatch.chdir(game)  # paths relative to the game: a SARIF uri relative to %SRCROOT%
    result = run_cli("validate", "-f", "sarif")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    uris = [
        loc["physicalLocation"]["artifactLocation"]["uri"]
        for run in report["runs"]
        for found in run["results"]
        for loc in found["locations"]
    ]
    assert "icons/jeux-%E9t%E9.svg" in uris


def test_the_preview_watcher_survives_a_folder_not_named_in_utf8(tmp_path, monkeypatch):
    # watchfiles takes folder names as UTF-8 text: a game folder (or a folder in it) named
    # in Latin-1 ended the watcher thread in a UnicodeEncodeError, and saves went unseen
    import threading

    from toolkit.preview.watcher import Watcher

    raised: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: raised.append(args.exc_value))
    game = _game(tmp_path / "game")
    (game / NOT_UTF8).mkdir()
    heard: list[set[Path]] = []
    told = threading.Event()
    warned: list[str] = []

    def on_change(paths: set[Path]) -> None:
        heard.append(paths)
        told.set()

    watcher = Watcher([game], on_change, warn=warned.append)
    watcher.start()
    try:
        assert watcher.ready.wait(5), raised
        (game / "decks" / "more.yaml").write_text("a: 1\n")
        assert told.wait(5), raised
        assert game / "decks" / "more.yaml" in set().union(*heard)
    finally:
        watcher.stop()
    assert not raised
    # the folder itself unwatched, the game folder holding its name polled (session 63)
    assert len(warned) == 2 and all("not named in UTF-8" in w for w in warned), warned
    assert any("looked at every" in w for w in warned)


def test_a_game_folder_not_named_in_utf8_is_served_unwatched(tmp_path, monkeypatch):
    import threading

    from toolkit.preview.watcher import Watcher

    raised: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: raised.append(args.exc_value))
    game = _game(tmp_path / NOT_UTF8 / "game")
    warned: list[str] = []
    watcher = Watcher([game], lambda paths: None, warn=warned.append)
    watcher.start()
    try:
        assert watcher.ready.wait(5), raised
    finally:
        watcher.stop()
    assert not raised
    assert warned and "saved files are not seen" in warned[0]


# --- H1: a rulebook switched to a link after the game was loaded ----------------------------
# The loader checks that game.yaml's rulebook lies inside the game folder; the readers then
# opened the path again, following whatever was there by then: a rulebook replaced by a link
# to a file of the user's between the two (a synced or shared folder, a `git pull`) printed
# that file in the rulebook PDF.


def _swap_rulebook(tmp_path: Path):
    from toolkit.content.game import load_game

    game_folder = _game(tmp_path / "game")
    secret = tmp_path / "secret.md"
    secret.write_text("# Private\n\nSECRET-WORDS of the user\n")
    game = load_game(game_folder)
    assert not [d for d in game.diagnostics if d.severity.name == "ERROR"]
    source = game.rulebook["en"]
    source.unlink()
    source.symlink_to(secret)
    return game


def test_a_rulebook_switched_to_a_link_after_loading_is_not_printed(tmp_path):
    from toolkit.render.rulebook import render_rulebook
    from toolkit.render.rulebook_source import RulebookError

    game = _swap_rulebook(tmp_path)
    with pytest.raises(RulebookError, match="outside the game folder"):
        render_rulebook(game, "en")


def test_a_rulebook_switched_to_a_link_after_loading_is_not_checked_or_translated(tmp_path):
    from toolkit.checks.rulebook import check
    from toolkit.i18n.units.rulebook import SegmentError, book

    game = _swap_rulebook(tmp_path)
    found = list(check(game, None))
    assert found and all("SECRET" not in d.message for d in found)
    assert "outside the game folder" in found[0].message
    with pytest.raises(SegmentError, match="outside the game folder"):
        book(game, "fr")


# --- H2: a game file switched to a link between the plan and the write of `i18n fix` -------
# The game's files were read from inside the game folder, but the write followed a link it
# met at the path (replacing the link's target): a game.yaml switched to a link to a file of
# the user's while `i18n fix --write` or `i18n import` ran had that file replaced.


def _french_game(tmp_path: Path) -> Path:
    folder = tmp_path / "game"
    new_game(folder, "demo", ["fr", "en"])
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text().replace("ce résumé.", "ce résumé !", 1))
    return folder


def test_i18n_fix_writes_through_no_link_planted_after_its_plan(tmp_path):
    from toolkit.content.game import load_game
    from toolkit.fileio import OutputError
    from toolkit.i18n import fix as fixer

    folder = _french_game(tmp_path)
    patches = fixer.plan_fixes(load_game(folder))
    assert [p.path.name for p in patches] == ["game.yaml"]
    victim = tmp_path / "notes.yaml"
    victim.write_text("precious\n")
    (folder / "game.yaml").unlink()
    (folder / "game.yaml").symlink_to(victim)
    with pytest.raises(OutputError, match="outside the game folder"):
        fixer.write(patches, folder)
    assert victim.read_text() == "precious\n"


def test_a_journaled_write_goes_through_no_link_out_of_the_game(tmp_path):
    from toolkit.fileio import OutputError
    from toolkit.journal import write_journaled

    folder = _game(tmp_path / "game")
    victim = tmp_path / "notes.md"
    victim.write_text("precious\n")
    (folder / "rulebook" / "fr.md").symlink_to(victim)
    files = [(folder / "rulebook" / "fr.md", b"new"), (folder / "game.yaml", b"id: x\n")]
    with pytest.raises(OutputError, match="outside the game folder"):
        write_journaled(folder, files)
    assert victim.read_text() == "precious\n"
    assert "id: demo" in (folder / "game.yaml").read_text()  # all or nothing


def test_i18n_fix_still_writes_a_game_file_linked_inside_the_game(tmp_path):
    from toolkit.content.game import load_game
    from toolkit.i18n import fix as fixer

    folder = _french_game(tmp_path)
    (folder / "base").mkdir()
    (folder / "game.yaml").rename(folder / "base" / "game.yaml")
    (folder / "game.yaml").symlink_to(Path("base") / "game.yaml")
    fixer.write(fixer.plan_fixes(load_game(folder)), folder)
    assert (folder / "game.yaml").is_symlink()
    assert "résumé\u202f!" in (folder / "base" / "game.yaml").read_text()


def test_add_language_writes_game_yaml_through_no_link_out_of_the_game(tmp_path, monkeypatch):
    from toolkit.cli import i18n as i18n_cli
    from toolkit.fileio import write_many

    folder = _game(tmp_path / "game")
    victim = tmp_path / "notes.yaml"
    victim.write_text("precious\n")
    seen = []

    def switched(files, **kw):  # game.yaml becomes a link after the game was read
        seen.append(kw)
        (folder / "game.yaml").unlink()
        (folder / "game.yaml").symlink_to(victim)
        return write_many(files, **kw)

    monkeypatch.setattr("toolkit.fileio.write_many", switched)
    monkeypatch.chdir(tmp_path)
    from typer.testing import CliRunner

    result = CliRunner().invoke(i18n_cli.app, ["add-language", "de", str(folder)])
    assert seen and result.exit_code == 1, result.output
    assert "outside the game folder" in result.output
    assert victim.read_text() == "precious\n"
    assert not (tmp_path / "output" / "i18n" / "demo" / "de.po").exists()


# --- H3: a picture switched to a link between its check and reportlab's read ---------------
# The image element and the cover check that the picture lies inside the game folder, then
# reportlab opened it again by name (the cover once more when the page is drawn): a picture
# switched to a link meanwhile printed a picture of the user's on the cards or the cover.


def _png(path: Path, size: tuple[int, int], colour: str) -> None:
    from PIL import Image

    Image.new("RGB", size, colour).save(path, "PNG")


def _pictured(tmp_path: Path) -> tuple[Path, Path]:
    folder = _game(tmp_path / "game")
    (folder / "images").mkdir()
    _png(folder / "images" / "art.png", (30, 30), "red")
    _png(folder / "images" / "cover.png", (30, 30), "red")
    deck = folder / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("size: poker", "size: poker\nlayout: example-card"))
    layout = folder / "layouts" / "example-card.yaml"
    image = '  - kind: image\n    box: {x: 5, y: 50, w: 20, h: 20}\n    path: "images/art.png"\n'
    layout.write_text(layout.read_text() + image)
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text() + "style:\n  cover: images/cover.png\n")
    secret = tmp_path / "secret.png"
    _png(secret, (37, 41), "green")  # its size names it in a PDF: /Width 37 … /Height 41
    return folder, secret


def _switch_after_check(monkeypatch, picture: Path, secret: Path) -> None:
    """`picture` becomes a link to `secret` right after a picture's size was checked."""
    from toolkit.render import pictures

    checked = pictures.pixels

    def pixels(path):
        size = checked(path)
        if not picture.is_symlink():
            picture.unlink()
            picture.symlink_to(secret)
        return size

    monkeypatch.setattr(pictures, "pixels", pixels)


def test_card_art_switched_to_a_link_after_its_check_is_not_printed(tmp_path, monkeypatch):
    from toolkit.content.game import load_game
    from toolkit.render.artifacts.cards import cards_pdf
    from toolkit.render.build import BuildOptions

    folder, secret = _pictured(tmp_path)
    game = load_game(folder)
    _switch_after_check(monkeypatch, folder / "images" / "art.png", secret)
    pdf = cards_pdf(game, game.valid(game.decks), "en", BuildOptions(["en"]))
    assert (folder / "images" / "art.png").is_symlink()  # switched while it was drawn
    assert b"/Width 37" not in pdf
    assert b"/Width 30" in pdf  # the game's own picture, read once


def test_a_cover_switched_to_a_link_after_its_check_is_not_printed(tmp_path, monkeypatch):
    from toolkit.content.game import load_game
    from toolkit.render.rulebook import render_rulebook

    folder, secret = _pictured(tmp_path)
    game = load_game(folder)
    _switch_after_check(monkeypatch, folder / "images" / "cover.png", secret)
    pdf = render_rulebook(game, "en")
    assert (folder / "images" / "cover.png").is_symlink()
    assert b"/Width 37" not in pdf
    assert b"/Width 30" in pdf


# --- M2: Ctrl-C while `playset new` writes leaves half a game ------------------------------


def test_new_interrupted_half_way_leaves_no_half_made_game(tmp_path, monkeypatch):
    from toolkit.scaffold import new

    written = []
    real = new.atomic_write_text

    def interrupted(path, text, **kw):
        if len(written) == 5:
            raise KeyboardInterrupt
        real(path, text, **kw)
        written.append(path)

    monkeypatch.setattr(new, "atomic_write_text", interrupted)
    folder = tmp_path / "game"
    with pytest.raises(KeyboardInterrupt):
        new.new_game(folder, "demo", ["en"])
    assert written and not folder.exists()  # a second `playset new` meets no half game


# --- L: `simulate --json -` wrote a file named "-" -----------------------------------------


def test_a_report_to_dash_is_a_usage_error_not_a_file_named_dash(tmp_path, run_cli, monkeypatch):
    game = _game(tmp_path / "game", engine=True)
    monkeypatch.chdir(tmp_path)
    result = run_cli("simulate", "-n", "10", str(game), "--json", "-")
    assert result.exit_code == 2
    assert "- names no output here" in result.output
    assert not (tmp_path / "-").exists()


# --- L: the build cache was never pruned -----------------------------------------------------


def test_the_build_cache_keeps_the_files_used_last_within_its_bound(tmp_path, run_cli, monkeypatch):
    import time

    from toolkit.render import build_cache

    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    store = tmp_path / "cache" / "playset" / build_cache.STORE
    sizes = []
    for name in ("one", "two"):  # each folder keeps its own PDFs
        game = _game(tmp_path / name)
        result = run_cli("build", str(game), "--lang", "en", "--out", str(tmp_path / "out"))
        assert result.exit_code == 0, result.output
        kept = [p for p in store.iterdir() if p.name.startswith(("build-", "part-"))]
        sizes.append(sum(p.stat().st_size for p in kept))
        time.sleep(0.02)  # the second game's files are the newer
    assert sizes[1] > sizes[0]
    monkeypatch.setattr(build_cache, "MAX_STORE_BYTES", sizes[1] - sizes[0])
    assert (
        "kept in the cache"
        in run_cli(
            "build", str(tmp_path / "two"), "--lang", "en", "--out", str(tmp_path / "o"), "-v"
        ).output
    )
    kept = [p for p in store.iterdir() if p.name.startswith(("build-", "part-"))]
    assert sum(p.stat().st_size for p in kept) <= sizes[1] - sizes[0]


# --- L: a build killed between two renames left its temporary files for ever ----------------


def test_a_build_removes_the_stale_temporary_files_a_killed_build_left(tmp_path, run_cli):
    game = _game(tmp_path / "game")
    folder = tmp_path / "out" / "demo" / "en"
    folder.mkdir(parents=True)
    stale, fresh = folder / ".cards.pdf.0a1b2c3d.tmp", folder / ".rulebook.pdf.4e5f6a7b.tmp"
    linked = folder / ".board.pdf.8c9d0e1f.tmp"
    for path in (stale, fresh):
        path.write_bytes(b"half")
    linked.symlink_to(tmp_path / "elsewhere")
    hour_ago = os.stat(stale).st_mtime - 3600
    os.utime(stale, (hour_ago, hour_ago))
    os.utime(linked, (hour_ago, hour_ago), follow_symlinks=False)
    result = run_cli("build", str(game), "--lang", "en", "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert not stale.exists()
    assert fresh.exists() and linked.is_symlink()  # a run in progress's; not ours to touch
