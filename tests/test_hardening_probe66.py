"""Probe 66: what a game folder holds must not stop the preview."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from toolkit.scaffold.new import new_game

NOT_UTF8 = os.fsdecode(b"notes\xff.yaml")  # a name in bytes that are not UTF-8


def _saved_and_seen(heard: list[set[Path]], told: threading.Event, path: Path, text: str) -> bool:
    """Save `path` until the watcher reports it (a save made while the watch restarts, as
    it does when a folder is made or a file it cannot name comes in, is not seen)."""
    for _ in range(50):
        path.write_text(text)
        told.wait(0.2)
        told.clear()
        if path in set().union(*heard):
            return True
    return False


def test_a_file_not_named_in_utf8_leaves_the_preview_watching(tmp_path, monkeypatch):
    # probe 66-1: watchfiles reports a file's path as UTF-8 text: a file named in other bytes
    # ended the watcher thread in an error, and the preview showed the game as it was for ever
    from toolkit.preview.watcher import Watcher

    raised: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: raised.append(args.exc_value))
    game = tmp_path / "game"
    new_game(game, "demo", ["en"])
    (game / "icons" / NOT_UTF8).write_text("a: 1\n")  # there before the watch
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
        (game / "decks" / NOT_UTF8).write_text("a: 1\n")  # one made while it watches
        decks, manifest = game / "decks" / "more.yaml", game / "game.yaml"
        assert _saved_and_seen(heard, told, decks, "a: 1\n"), (raised, heard)
        assert _saved_and_seen(heard, told, manifest, manifest.read_text()), (raised, heard)
        token = game / "icons" / "token.svg"
        assert _saved_and_seen(heard, told, token, "<svg/>"), (raised, heard)
    finally:
        watcher.stop()
    assert not raised
    assert len(warned) == 1 and "not named in UTF-8" in warned[0], warned


def test_the_state_names_an_icon_not_named_in_utf8(tmp_path):
    # probe 66-1: P008 named the icon as read (a surrogate for the byte \xff), and writing
    # the state as UTF-8 failed: every request for it answered 500
    from starlette.testclient import TestClient

    from toolkit.preview.app import make_app
    from toolkit.preview.hosts import AllowedHosts
    from toolkit.preview.live import Preview

    game = tmp_path / "game"
    new_game(game, "demo", ["en"])
    token = next((game / "icons").glob("*.svg"))
    (game / "icons" / os.fsdecode(b"a\xffb.svg")).write_bytes(token.read_bytes())
    preview = Preview(game)
    preview.load()
    allowed = AllowedHosts.for_server("127.0.0.1", None)
    with TestClient(make_app(preview, allowed), base_url="http://127.0.0.1:8765") as client:
        answer = client.get("/api/state")
    assert answer.status_code == 200
    assert b"icons/a\\udcffb.svg" in answer.content  # the name's JSON escape
    assert "icons/a\udcffb.svg" in json.dumps(answer.json(), ensure_ascii=False)


def test_content_in_a_folder_named_output_is_watched_below_the_game_folder(tmp_path):
    # probe 66-5: every folder named `output` was left out at any depth; a deck kept in
    # decks/output/ validated and built, and the preview never drew its edits
    from watchfiles import Change

    from toolkit.preview.watcher import ContentFilter, watched_folders

    game = tmp_path / "game"
    new_game(game, "demo", ["en"])
    (game / "decks" / "output").mkdir()
    (game / "output" / "demo").mkdir(parents=True)
    watched = watched_folders([game])
    assert game / "decks" / "output" in watched and game / "output" not in watched
    assert not any(folder.is_relative_to(game / "output") for folder in watched)
    allowed = ContentFilter([game])
    assert allowed(Change.modified, str(game / "decks" / "output" / "cards.yaml"))
    assert not allowed(Change.modified, str(game / "output" / "demo" / "cards.yaml"))
    assert not allowed(Change.added, str(game / "output"))
    assert allowed(Change.modified, str(game / "outputs.yaml"))


def _yaml_files(root: Path, folders: tuple[str, ...], count: int) -> None:
    """`count` small YAML files in each of `folders` made under `root`."""
    for folder in folders:
        (root / folder).mkdir()
        for n in range(count):
            (root / folder / f"{n}.yaml").write_text("a: 1\n")


def test_polled_folders_are_looked_at_no_further_than_a_bound(tmp_path, monkeypatch):
    # a polled folder of 100,000 files stat()ed at every look kept a core busy while the
    # preview waited (probe 68-2): a look stats MAX_POLLED files, and lists MAX_LISTED names
    from toolkit.preview import watcher

    monkeypatch.setattr(watcher, "MAX_POLLED", 50)
    _yaml_files(tmp_path, ("a", "b"), 40)
    looking = watcher.Polled([tmp_path / "a", tmp_path / "b"])
    assert len(looking.files) == 80 and not looking.cut
    stamped = []
    real = watcher._stamp
    monkeypatch.setattr(watcher, "_stamp", lambda path: stamped.append(path) or real(path))
    assert looking.look() == ([], set())
    assert len(stamped) == 50
    monkeypatch.setattr(watcher, "MAX_LISTED", 60)
    assert watcher.Polled([tmp_path / "a", tmp_path / "b"]).cut


def test_a_save_past_the_first_files_of_a_polled_folder_is_seen(tmp_path, monkeypatch):
    # probe 69-1: the same first 2,000 entries were looked at every time; a save past them
    # was never seen. Every file is now looked at within ceil(files / MAX_POLLED) looks
    import time

    from toolkit.preview import watcher

    monkeypatch.setattr(watcher, "MAX_POLLED", 50)
    for n in range(120):
        (tmp_path / f"{n}.yaml").write_text("a: 1\n")
    looking = watcher.Polled([tmp_path])
    time.sleep(0.01)
    saved = {tmp_path / f"{n}.yaml" for n in (0, 59, 119)}
    for path in saved:
        path.write_text("a: 2\n")
    seen: set = set()
    for _ in range(3):
        seen |= looking.look()[1]
    assert seen == saved
    (tmp_path / "new.yaml").write_text("a: 1\n")
    (tmp_path / "0.yaml").unlink()
    (tmp_path / "sub").mkdir()
    made, changed = looking.look()
    assert made == [tmp_path / "sub"]
    assert {tmp_path / "new.yaml", tmp_path / "0.yaml"} <= changed


def test_a_folder_not_named_in_utf8_made_while_watching_polls_its_parent_alone(
    tmp_path, monkeypatch
):
    # probe 68-2: a folder so named made while the preview ran ended the watch, and every
    # folder of the game was polled from then on
    from toolkit.preview.watcher import Watcher

    game = tmp_path / "game"
    new_game(game, "demo", ["en"])
    watcher = Watcher([game], lambda paths: None, warn=lambda text: None)
    (game / "decks" / os.fsdecode(b"n\xff")).mkdir()
    folders, polled = watcher._folders()
    assert polled == [game / "decks"] and game / "icons" in folders


def test_content_in_a_folder_named_like_a_tools_is_watched_below_the_game_folder(tmp_path):
    # probe 68-5: tool folder names (node_modules, .venv, __pycache__, …) were left out at
    # any depth: a deck in decks/node_modules/ validated and built, and was never redrawn
    from watchfiles import Change

    from toolkit.preview.watcher import ContentFilter, watched_folders

    game = tmp_path / "game"
    new_game(game, "demo", ["en"])
    for folder in ("decks/node_modules", "node_modules/x", ".git"):
        (game / folder).mkdir(parents=True)
    watched = watched_folders([game])
    assert game / "decks" / "node_modules" in watched
    assert game / "node_modules" not in watched and game / ".git" not in watched
    allowed = ContentFilter([game])
    assert allowed(Change.modified, str(game / "decks" / "node_modules" / "cards.yaml"))
    assert not allowed(Change.modified, str(game / "node_modules" / "x" / "a.yaml"))
    assert not allowed(Change.modified, str(game / ".git" / "a.yaml"))


def test_a_polled_file_saved_with_its_time_put_back_is_seen(tmp_path):
    # probe 68-6: a polled folder compared modification times, which a save may put back
    import time

    from toolkit.preview import watcher

    deck = tmp_path / "cards.yaml"
    deck.write_text("a: 1\n")
    looking = watcher.Polled([tmp_path])
    stamp = deck.stat()
    time.sleep(0.01)
    deck.write_text("a: 2\n")
    os.utime(deck, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert looking.look() == ([], {deck})


def test_a_game_file_named_as_an_editor_copy_is_watched_unless_it_is_one(tmp_path):
    # probe 68-5 (the rest): watchfiles' default name patterns hid `flycheck_*` and `.#*`
    # files at any depth, though game.yaml may name a deck so; an editor's copy (the file it
    # copies is beside it) is still left out
    from watchfiles import Change

    from toolkit.preview.watcher import ContentFilter

    game = tmp_path / "game"
    new_game(game, "demo", ["en"])
    allowed = ContentFilter([game])
    decks = game / "decks"
    for name in ("flycheck_extra.yaml", ".#notes.yaml"):
        (decks / name).write_text("id: x\n")
        assert allowed(Change.modified, str(decks / name))
        (decks / name.removeprefix("flycheck_").removeprefix(".#")).write_text("id: x\n")
        assert not allowed(Change.modified, str(decks / name))  # now an editor's copy
    assert not allowed(Change.modified, str(decks / "cards.yaml~"))
    assert not allowed(Change.modified, str(decks / ".cards.yaml.swp"))


def test_a_cut_listing_of_polled_folders_says_where_saves_go_unseen(tmp_path, monkeypatch):
    # probe70-6: past MAX_LISTED names, saves (not only additions) went unseen, and so did
    # every polled folder listed after the cut one: the warning said only "what is added"
    from toolkit.preview import watcher

    monkeypatch.setattr(watcher, "MAX_LISTED", 30)
    _yaml_files(tmp_path, ("a", "b"), 20)
    said: list[str] = []
    looking = watcher.Watcher([tmp_path], lambda paths: None, warn=said.append)._polled(
        [tmp_path / "a", tmp_path / "b"]
    )
    assert looking.cut and looking.cut_at == tmp_path / "b"
    assert len(said) == 1 and "saved or added" in said[0] and str(tmp_path / "b") in said[0]
