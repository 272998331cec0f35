"""The Lows of the ninth probe still open in issue #33 (round ten), items 1-5: build outputs,
config folder, rulebook import, preview events, editor mirror (items 6-9:
tests/test_hardening_lows10_content.py)."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest

from tests.conftest import preview_server_on_free_port
from toolkit.scaffold.new import new_game


def _game(folder: Path, langs: tuple[str, ...] = ("en",)) -> Path:
    new_game(folder, "demo", list(langs))
    return folder


# --- 1: a build killed between the renames of its PDFs left a mixed set ---------------------


class Killed(BaseException):
    """What kill -9 does to the process, as far as the files are concerned: nothing after it."""


def _retitle(game: Path, title: str) -> None:
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("en: Demo", f"en: {title}", 1))


def test_a_build_killed_between_its_renames_is_finished_by_the_next(tmp_path, run_cli, monkeypatch):
    game = _game(tmp_path / "game")
    out, clean = tmp_path / "out", tmp_path / "clean"
    assert run_cli("build", str(game), "--lang", "en", "--out", str(out)).exit_code == 0
    folder = out / "demo" / "en"
    old = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert sorted(old) == ["cards.pdf", "rulebook.pdf"]
    _retitle(game, "Renamed")  # every PDF changes
    assert run_cli("build", str(game), "--lang", "en", "--out", str(clean)).exit_code == 0
    new = {p.name: p.read_bytes() for p in (clean / "demo" / "en").iterdir()}
    assert all(new[name] != old[name] for name in old)

    real_replace, renames = os.replace, []

    def replace_then_die(*args, **kwargs):
        if str(args[1]).endswith(".pdf"):  # killed after the first PDF is in place
            if renames:
                raise Killed
            renames.append(args)
        return real_replace(*args, **kwargs)

    monkeypatch.setattr(os, "replace", replace_then_die)
    with pytest.raises(Killed):
        run_cli("build", str(game), "--lang", "en", "--out", str(out))
    monkeypatch.setattr(os, "replace", real_replace)
    now = {p.name: p.read_bytes() for p in folder.iterdir() if not p.name.startswith(".")}
    assert sorted(k for k in now if now[k] == new[k]) == ["cards.pdf"]  # the mixed set

    # the next build, of one artifact only, leaves the whole new set
    result = run_cli("build", str(game), "--lang", "en", "--out", str(out), "--only", "cards")
    assert result.exit_code == 0, result.output
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == new  # no temporary, no journal


def test_a_build_journal_that_names_other_files_moves_nothing_out_of_its_folder(tmp_path, run_cli):
    from toolkit.journal import OUTPUT_JOURNAL

    game = _game(tmp_path / "game")
    out = tmp_path / "out"
    folder = out / "demo" / "en"
    folder.mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")
    (folder / ".x.pdf.0a1b2c3d.tmp").symlink_to(victim)  # a link: never moved
    (folder / ".y.pdf.0a1b2c3e.tmp").write_bytes(b"staged")
    entries = [
        [".x.pdf.0a1b2c3d.tmp", "x.pdf"],
        ["../../../victim.txt", "stolen.txt"],
        [".y.pdf.0a1b2c3e.tmp", "../y.pdf"],
        [".y.pdf.0a1b2c3e.tmp", "y.pdf"],
    ]
    (folder / OUTPUT_JOURNAL).write_text(json.dumps(entries))
    assert run_cli("build", str(game), "--lang", "en", "--out", str(out)).exit_code == 0
    assert victim.read_text() == "mine" and not (folder / "stolen.txt").exists()
    assert not (folder / "x.pdf").exists() and not (out / "demo" / "y.pdf").exists()
    assert (folder / "y.pdf").read_bytes() == b"staged"
    assert not (folder / OUTPUT_JOURNAL).exists()


def test_a_build_journal_that_is_a_link_is_not_read(tmp_path, run_cli):
    from toolkit.journal import OUTPUT_JOURNAL

    game = _game(tmp_path / "game")
    out = tmp_path / "out"
    folder = out / "demo" / "en"
    folder.mkdir(parents=True)
    (folder / ".y.pdf.0a1b2c3e.tmp").write_bytes(b"staged")
    elsewhere = tmp_path / "journal.json"
    elsewhere.write_text(json.dumps([[".y.pdf.0a1b2c3e.tmp", "y.pdf"]]))
    (folder / OUTPUT_JOURNAL).symlink_to(elsewhere)
    assert run_cli("build", str(game), "--lang", "en", "--out", str(out)).exit_code == 1
    assert not (folder / "y.pdf").exists() and elsewhere.exists()


def test_a_build_journal_behind_a_link_in_the_output_folder_is_not_finished(tmp_path, run_cli):
    from toolkit.journal import OUTPUT_JOURNAL

    game = _game(tmp_path / "game")
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    (elsewhere / "en").mkdir(parents=True)
    (elsewhere / "en" / ".y.pdf.0a1b2c3e.tmp").write_bytes(b"staged")
    (elsewhere / "en" / OUTPUT_JOURNAL).write_text(json.dumps([[".y.pdf.0a1b2c3e.tmp", "y.pdf"]]))
    out.mkdir()
    (out / "demo").symlink_to(elsewhere)  # a link below the output folder: never followed
    assert run_cli("build", str(game), "--lang", "en", "--out", str(out)).exit_code == 1
    assert not (elsewhere / "en" / "y.pdf").exists()


# --- 2: a relative XDG_CONFIG_HOME read and wrote printers.yaml under the current folder ----


@pytest.fixture
def older_platformdirs(monkeypatch):
    """platformdirs as pyproject's `platformdirs>=4` still allows it: before 4.14 (or so) its
    Unix user_config_path took XDG_CONFIG_HOME as it was, relative too (4.14.9 ignores it);
    the toolkit must not depend on which one is installed."""
    import platformdirs

    def user_config_path(appname, appauthor=None):
        base = os.environ.get("XDG_CONFIG_HOME", "")
        return Path(base.strip() and base or os.path.expanduser("~/.config")) / appname

    monkeypatch.setattr(platformdirs, "user_config_path", user_config_path)


def test_a_relative_config_folder_is_ignored(tmp_path, monkeypatch, older_platformdirs):
    from toolkit.render.printers import printers_file

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", "rel/config")
    assert printers_file() == tmp_path / "home" / ".config" / "playset" / "printers.yaml"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "abs"))
    assert printers_file() == tmp_path / "abs" / "playset" / "printers.yaml"


def test_calibrate_save_writes_no_printers_file_under_the_current_folder(
    tmp_path, run_cli, monkeypatch, older_platformdirs
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", "rel")
    result = run_cli("calibrate", "--save", "office", "1,1")
    assert not (tmp_path / "rel").exists(), result.output
    assert (tmp_path / "home" / ".config" / "playset" / "printers.yaml").is_file(), result.output


# --- 3: a rulebook translation compared by an unbounded read_bytes at import ----------------


@pytest.mark.parametrize("change", ["not utf-8", "too large", "a link out"])
def test_a_rulebook_translation_changed_during_the_import_is_not_read_unbounded(
    tmp_path, monkeypatch, change
):
    from toolkit.content.game import load_game
    from toolkit.i18n.units import Change
    from toolkit.i18n.units import rulebook as units
    from toolkit.render.rulebook_source import MAX_RULEBOOK_BYTES

    game_dir = _game(tmp_path / "game", ("en", "fr"))
    game = load_game(game_dir)
    target = game.rulebook["fr"]
    secret = tmp_path / "secret.md"
    secret.write_text("secret\n")
    kind = units.RulebookUnits()
    made = kind.units(game, "fr")
    changes = [Change(u, u.source + " (fr)", 1) for u in made]
    real_book = units.book

    def book_then_change(game, lang):
        found = real_book(game, lang)
        if change == "not utf-8":
            target.write_bytes(target.read_bytes() + b"\xff\n")
        elif change == "too large":
            with target.open("ab") as handle:
                handle.truncate(MAX_RULEBOOK_BYTES + 10)
        else:
            target.unlink()
            target.symlink_to(secret)
        return found

    monkeypatch.setattr(units, "book", book_then_change)
    done = kind.apply(game, "fr", changes)
    assert not done.texts and not done.applied
    assert any("fr.md not written: it cannot be read now" in note for note in done.notes)


# --- 4: /events connections from a local program locked the browser out --------------------


@pytest.fixture
def stream_server(monkeypatch):
    """The preview's uvicorn settings serving an endless /events and a page, at most 3
    connections, on a free port in a thread."""
    pytest.importorskip("uvicorn")
    import asyncio

    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse, StreamingResponse
    from starlette.routing import Route

    from toolkit.preview.connections import GuardedH11Protocol

    monkeypatch.setattr(GuardedH11Protocol, "max_connections", 3)

    async def events(request):
        async def stream():
            while True:
                yield "data: x\n\n"
                await asyncio.sleep(0.1)

        return StreamingResponse(stream(), media_type="text/event-stream")

    async def page(request):
        return PlainTextResponse("page")

    app = Starlette(routes=[Route("/events", events), Route("/", page)])
    with preview_server_on_free_port(app) as port:
        yield port


def _events(port: int) -> socket.socket:
    conn = socket.create_connection(("127.0.0.1", port))
    conn.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    conn.settimeout(5)
    got = b""
    while b"data: x" not in got:
        chunk = conn.recv(4096)
        if not chunk:
            raise ConnectionError("closed")
        got += chunk
    return conn


def _ended(conn: socket.socket) -> bool:
    conn.settimeout(5)
    try:
        while chunk := conn.recv(4096):
            del chunk
        return True
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_event_streams_at_the_cap_give_way_to_the_newest(stream_server):
    held = [_events(stream_server) for _ in range(3)]
    try:
        page = _events(stream_server)  # the browser's: it gets its events
        held.append(page)
        assert _ended(held[0])  # the oldest stream gave way
        page.settimeout(5)
        assert b"data: x" in page.recv(4096)
    finally:
        for conn in held:
            conn.close()


# --- 5: an absolute link to a file of the same game was refused in the editor's mirror ------


def _findings(game: Path) -> list[str]:
    from toolkit.lsp.mirror import Mirror
    from toolkit.lsp.workspace import GameState

    state = GameState(Mirror(game))
    try:
        found = state.check()
    finally:
        state.mirror.close()
    return [f"{d.code} {d.message}" for items in found.values() for d in items]


def test_an_absolute_link_to_a_file_of_the_game_is_read_in_the_editor_as_in_validate(
    tmp_path, run_cli
):
    game = _game(tmp_path / "game")
    (game / "data").mkdir()
    deck = game / "decks" / "cards.yaml"
    deck.rename(game / "data" / "cards.yaml")
    deck.symlink_to(game / "data" / "cards.yaml")  # absolute
    assert run_cli("validate", str(game)).exit_code == 0
    assert _findings(game) == []


def test_an_absolute_link_out_of_the_game_is_still_refused_in_the_editor(tmp_path, run_cli):
    game = _game(tmp_path / "game")
    deck = game / "decks" / "cards.yaml"
    deck.rename(tmp_path / "cards.yaml")
    deck.symlink_to(tmp_path / "cards.yaml")
    assert run_cli("validate", str(game)).exit_code == 1
    assert _findings(game) != []
