"""The Lows of the ninth probe still open in issue #33 (round ten): each with its test."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

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

    from toolkit.preview.connections import GuardedH11Protocol, PreviewServer, server_config

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
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    instance = PreviewServer(server_config(app))
    thread = threading.Thread(target=instance.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not instance.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield sock.getsockname()[1]
    instance.should_exit = True
    thread.join(10)
    sock.close()


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


# --- 6: engines that raise KeyboardInterrupt or close the standard streams ------------------


def _engine_game(folder: Path, first_lines: str) -> Path:
    new_game(folder, "ge", ["en"], engine=True)
    engine = folder / "engine.py"
    head = "    def apply(self, action: int) -> None:\n"
    text = engine.read_text()
    assert head in text
    engine.write_text(text.replace(head, head + first_lines, 1))
    return folder


def _playset(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "toolkit", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)


def test_an_engine_raising_keyboardinterrupt_is_its_mistake_not_ctrl_c(tmp_path):
    # a process of its own: Ctrl-C is told apart only where the CLI's handler is in place
    # (under pytest another one is, and a KeyboardInterrupt is then taken for Ctrl-C)
    game = _engine_game(tmp_path / "ge", "        raise KeyboardInterrupt\n")
    done = _playset("simulate", str(game), "-n", "10")
    said = done.stdout + done.stderr  # findings on stdout, the summary on stderr
    assert done.returncode == 1, said
    assert "E004" in said and "raised KeyboardInterrupt" in said
    assert "Traceback" not in said and "interrupted" not in said


@pytest.mark.parametrize("how", [["-n", "10", "--workers", "2"], ["--contract"]])
def test_an_engine_raising_keyboardinterrupt_in_workers_or_the_contract_is_its_mistake(
    tmp_path, how
):
    game = _engine_game(tmp_path / "ge", "        raise KeyboardInterrupt\n")
    done = _playset("check", str(game), *how)
    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    assert "raised KeyboardInterrupt" in said and "Traceback" not in said


CLOSE_STREAMS = {
    "sys.stdout": "        import sys\n        sys.stdout.close()\n",
    "sys.stderr": "        import sys\n        sys.stderr.close()\n",
    "descriptors": (
        "        import os\n        for fd in (1, 2):\n            try:\n"
        "                os.close(fd)\n            except OSError:\n                pass\n"
    ),
}


@pytest.mark.parametrize("how", sorted(CLOSE_STREAMS))
def test_an_engine_closing_the_standard_streams_is_a_finding(tmp_path, how):
    game = _engine_game(tmp_path / "ge", CLOSE_STREAMS[how])
    done = _playset("check", str(game), "-n", "10")
    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    assert "E004" in said and "closed " in said, said
    assert "Traceback" not in said and "lost sys.stderr" not in said


# --- 7: a card layout's error carried no place in the layout file ---------------------------


def _layout_game(folder: Path, old: str, new: str) -> tuple[Path, int, int]:
    """A game whose deck prints with its own example-card layout, with `old` in that
    layout replaced by `new`; the (line, column) of the value `new` starts."""
    game = _game(folder)
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text().replace("size: poker\n", "size: poker\nlayout: example-card\n")
    deck.write_text(text)
    layout = game / "layouts" / "example-card.yaml"
    text = layout.read_text()
    assert old in text
    text = text.replace(old, new, 1)
    layout.write_text(text)
    before = text[: text.index(new)]
    return game, before.count("\n") + 1, len(before) - before.rfind("\n")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("\"{{ card.text or '' }}\"", '"{{ card.text | nosuchfilter }}"'),  # at compile time
        ("\"{{ card.text or '' }}\"", '"{{ 1 // 0 }}"'),  # at render time
        ("icon: token\n", "icon: token\n    when: card.nosuch.deeper\n"),  # a `when`
    ],
)
def test_a_layout_error_is_reported_at_its_line_in_the_layout(tmp_path, run_cli, old, new):
    game, line, col = _layout_game(tmp_path / "game", old, new)
    if new.startswith("icon"):  # the `when` value, on the line after
        line, col = line + 1, len("    when: ") + 1
    result = run_cli("validate", str(game))
    assert result.exit_code == 1, result.output
    found = [x for x in result.output.splitlines() if "P003" in x]
    assert found and all(f"layouts/example-card.yaml:{line}:{col}: P003" in x for x in found)
    assert "fails on advance (en, " in found[0] and "decks/cards.yaml:9)" in found[0], found


# --- 8: two cards of a deck that players cannot tell apart by name --------------------------


def _findings_of(run_cli, game: Path, code: str) -> list[dict]:
    result = run_cli("validate", str(game), "--format", "json")
    return [f for f in json.loads(result.stdout or "[]") if f["code"] == code]


def test_two_cards_named_alike_in_one_language_only_are_a_warning(tmp_path, run_cli):
    game = _game(tmp_path / "game", ("en", "fr"))
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text()
    assert "en: Rest\n" in text
    deck.write_text(text.replace("en: Rest\n", "en: forward\n", 1))  # advance is "Forward"
    found = _findings_of(run_cli, game, "R013")
    assert len(found) == 1 and found[0]["severity"] == "warning", found
    line = deck.read_text().splitlines().index("      en: forward") + 1
    assert found[0]["line"] == line and "'rest'" in found[0]["message"]
    assert "cannot tell them apart" in found[0]["message"]


def test_one_card_written_twice_is_a_warning_and_cards_differing_by_a_value_are_not(
    tmp_path, run_cli
):
    game = _game(tmp_path / "game")
    deck = game / "decks" / "cards.yaml"
    twice = (
        "  - id: rest-again\n    name:\n      en: Rest\n    text:\n      en: Draw a card.\n"
        "    copies: 2\n"
    )
    other = "  - id: rest-more\n    name:\n      en: Rest\n    text:\n      en: Draw two cards.\n"
    deck.write_text(deck.read_text() + twice + other)
    found = _findings_of(run_cli, game, "R013")
    assert [
        ("rest-again" in f["message"], "again under another id" in f["message"]) for f in found
    ] == [(True, True)], found


# --- 9: sheet attributes written with character references ---------------------------------


def _ods_with(tmp_path: Path, row: str) -> Path:
    import io
    import zipfile

    from toolkit.content.sheets.write import write_ods

    with zipfile.ZipFile(io.BytesIO(write_ods("cards", ["id"], [{"id": "a"}]))) as base:
        members = {name: base.read(name) for name in base.namelist()}
    members["content.xml"] = members["content.xml"].replace(
        b"</table:table>", row.encode() + b"</table:table>"
    )
    path = tmp_path / "cards.ods"
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


@pytest.mark.parametrize("written", ["&#51;0000", "&#x33;0000", "3&#48;000"])
def test_an_ods_repeat_written_with_character_references_is_refused_before_calamine(
    tmp_path, written
):
    # calamine reads `table:number-rows-repeated="&#51;0000"` as 30,000 rows and builds
    # them; the scan knew only digits and saw no repeat
    import zipfile

    from toolkit.content.sheets import grid, prescan, workbook

    row = (
        f'<table:table-row table:number-rows-repeated="{written}"><table:table-cell'
        ' office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>'
    )
    path = _ods_with(tmp_path, row)
    with zipfile.ZipFile(path) as archive:  # the scan sees it: calamine is never asked
        seen = prescan.scan_ods(archive.read("content.xml")).too_large
    assert seen is not None and seen[:2] == (20_001, 1)
    read = workbook.read_workbook(path, "decks/cards.ods")
    assert isinstance(read, grid.Refused) and read.diagnostic.code == "Y013"
    assert (read.diagnostic.span.line, read.diagnostic.span.col) == (20_001, 1)


def test_an_ods_error_type_written_with_character_references_is_found():
    from toolkit.content.sheets import prescan

    xml = (
        b'<table:table table:name="cards"><table:table-row><table:table-cell'
        b' office:value-type="string" calcext:value-type="&#101;rror"><text:p>#N/A</text:p>'
        b"</table:table-cell></table:table-row></table:table>"
    )
    assert prescan.scan_ods(xml).errors == [(1, 1, "#N/A")]


def test_a_sheet_name_written_with_character_references_is_named_as_calamine_reads_it():
    from toolkit.content.sheets import workbook

    book = b'<workbook><sheets><sheet name="&#99;ards &amp; co" sheetId="1" r:id="rId1"/>'
    assert workbook._first_sheet_name(book) == "cards & co"
