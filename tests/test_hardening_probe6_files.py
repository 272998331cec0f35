"""Findings of the sixth hostile-input probe of the file system (issue #33's re-probe): what a
game folder could still make Playset read, run or hold, each with its test."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

# --- F1: the caches' walk of the game folder ------------------------------------------------


def test_a_file_that_reads_past_its_size_is_not_read_on():
    # /proc files say size 0 and give bytes: /proc/self/pagemap linked into a game made
    # validate's findings cache read 6.6 GB in 30 s (and on); the build cache's walk the same
    from toolkit.content.validate_cache import StatCache, _Budget
    from toolkit.render.build_inputs import _tag

    assert StatCache().facts("/proc/self/status", _Budget()).tag.startswith("V")
    assert _tag("/proc/self/status")[0].startswith("V")


def test_a_regular_file_is_still_read_whole(tmp_path):
    from toolkit.content.validate_cache import StatCache, _Budget
    from toolkit.render.build_inputs import _tag

    path = tmp_path / "x.yaml"
    path.write_bytes(b"output: 1\n" * 300_000)  # 3 MB: more than one read
    facts = StatCache().facts(str(path), _Budget())
    assert facts.tag.startswith("F") and facts.mentions_output
    assert _tag(str(path)) == (facts.tag, True)


def _linked_out(tmp_path: Path) -> tuple[Path, Path]:
    """A game folder with a link to a folder of the user's and one to a file in it."""
    game, private = tmp_path / "game", tmp_path / "private"
    game.mkdir()
    private.mkdir()
    (game / "game.yaml").write_text("id: x\n")
    (private / "secret.txt").write_text("one")
    (game / "home").symlink_to(private)
    (game / "notes.txt").symlink_to(private / "secret.txt")
    (game / "fonts").mkdir()
    (game / "fonts" / "face.ttf").symlink_to(private / "secret.txt")
    return game, private


def test_the_caches_neither_follow_nor_read_a_link_out_of_the_game(tmp_path, monkeypatch):
    from toolkit.content import validate_cache
    from toolkit.render.build_inputs import game_files

    game, private = _linked_out(tmp_path)
    opened: list[str] = []
    real_open = os.open

    def spy(path, *args, **kwargs):
        opened.append(os.path.realpath(path) if isinstance(path, str | Path) else str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    stats = validate_cache.StatCache()
    before = validate_cache.inputs_digest(game, (), stats)
    units = validate_cache.units_digest(game, stats)
    files = game_files(game)
    monkeypatch.setattr(os, "open", real_open)
    assert before is not None and units is not None
    assert not [p for p in opened if p.startswith(str(private.resolve()))]
    assert "home/secret.txt" not in files
    assert "outside" in files["notes.txt"][1] and "outside" in files["home"][1]
    # what the user's file holds is no input: the keys stay as they were
    (private / "secret.txt").write_text("two")
    (private / "more.txt").write_text("three")
    assert validate_cache.inputs_digest(game, (), validate_cache.StatCache()) == before
    assert validate_cache.units_digest(game, validate_cache.StatCache()) == units
    assert game_files(game) == files
    # where the link leads is one
    (game / "notes.txt").unlink()
    (game / "notes.txt").symlink_to(private / "more.txt")
    assert validate_cache.inputs_digest(game, (), validate_cache.StatCache()) != before


def test_a_link_that_stays_inside_the_game_is_still_read(tmp_path):
    from toolkit.content import validate_cache

    game = tmp_path / "game"
    (game / "decks").mkdir(parents=True)
    (game / "decks" / "a.yaml").write_text("one")
    (game / "alias.yaml").symlink_to(game / "decks" / "a.yaml")
    before = validate_cache.inputs_digest(game, (), validate_cache.StatCache())
    (game / "decks" / "a.yaml").write_text("two")
    assert validate_cache.inputs_digest(game, (), validate_cache.StatCache()) != before


# --- F3: a picture that is PostScript --------------------------------------------------------

EPS = (
    b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 100 100\n"
    b"newpath 0 0 moveto 100 100 lineto stroke\nshowpage\n"
)


@pytest.fixture
def ghostscript(tmp_path, monkeypatch) -> Path:
    """A stand-in `gs` first on PATH that notes each call in the file returned (Pillow runs
    the Ghostscript it finds to decode an EPS file)."""
    from PIL import EpsImagePlugin

    folder, calls = tmp_path / "bin", tmp_path / "gs-calls"
    folder.mkdir()
    script = folder / "gs"
    script.write_text(
        f'#!/bin/sh\necho "$*" >> {calls}\n'
        'case "$1" in --version) echo 10.02.1; exit 0;; esac\nexit 1\n'
    )
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(EpsImagePlugin, "gs_binary", None)  # looked up again, on this PATH
    return calls


def _with_eps(tmp_path: Path, run_cli, where: str) -> Path:
    assert run_cli("new", "eps", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "eps"
    if where == "card art":
        (game / "art.png").write_bytes(EPS)
        deck = game / "decks" / "cards.yaml"
        deck.write_text(
            deck.read_text().replace("    copies: 3\n", "    copies: 3\n    image: art.png\n", 1)
        )
    elif where == "cover":
        (game / "cover.png").write_bytes(EPS)
        with (game / "game.yaml").open("a") as manifest:
            manifest.write("style:\n  cover: cover.png\n")
    else:
        import base64

        if where == "icon file":
            (game / "icons" / "pic.png").write_bytes(EPS)
            href = "pic.png"
        else:
            href = "data:image/png;base64," + base64.b64encode(EPS).decode()
        (game / "icons" / "token.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
            f' width="10" height="10"><image xlink:href="{href}" width="10" height="10"/></svg>\n'
        )
    return game


@pytest.mark.parametrize("where", ["card art", "cover", "icon file", "icon data"])
def test_a_picture_that_is_postscript_runs_no_ghostscript(
    tmp_path, run_cli, monkeypatch, ghostscript, where
):
    # Pillow knows a picture by its bytes: an EPS named art.png made validate run the gs on
    # PATH over the game's PostScript program (and end in a CalledProcessError traceback)
    game = _with_eps(tmp_path, run_cli, where)
    monkeypatch.chdir(game)
    result = run_cli("validate")
    assert not ghostscript.exists(), f"gs ran: {ghostscript.read_text()}"
    assert result.exit_code == 1
    assert "not a PNG, JPEG, GIF or WebP picture" in result.output


def test_the_pictures_a_game_prints_still_open(tmp_path):
    from PIL import Image

    from toolkit.render import pictures

    for name, kind in [("a.png", "PNG"), ("b.jpg", "JPEG"), ("c.gif", "GIF"), ("d.webp", "WEBP")]:
        Image.new("RGB", (30, 20), "red").save(tmp_path / name, kind)
        assert pictures.problem(tmp_path / name, tmp_path) == ((30, 20), None)
    (tmp_path / "e.png").write_bytes(EPS)
    not_one = (None, "not a PNG, JPEG, GIF or WebP picture")
    assert pictures.problem(tmp_path / "e.png", tmp_path) == not_one


# --- F5: a font whose character map names billions of code points ---------------------------


def _sfnt(subtable: bytes) -> bytes:
    """A font file holding one table, a cmap of one (3, 1) subtable."""
    import struct

    cmap = struct.pack(">HHHHL", 0, 1, 3, 1, 12) + subtable
    head = struct.pack(">4sHHHH", b"\x00\x01\x00\x00", 1, 16, 0, 0)
    return head + struct.pack(">4sLLL", b"cmap", 0, 28, len(cmap)) + cmap


def _format_12(*groups: tuple[int, int]) -> bytes:
    import struct

    body = b"".join(struct.pack(">LLL", start, end, 1) for start, end in groups)
    return struct.pack(">HHLLL", 12, 0, 16 + len(body), 0, len(groups)) + body


def _format_4(*segments: tuple[int, int]) -> bytes:
    import struct

    n = len(segments)
    ends = struct.pack(f">{n}H", *(end for _, end in segments))
    starts = struct.pack(f">{n}H", *(start for start, _ in segments))
    rest = ends + b"\0\0" + starts + bytes(4 * n)
    return struct.pack(">7H", 4, 14 + len(rest), 0, 2 * n, 0, 0, 0) + rest


@pytest.mark.parametrize(
    ("subtable", "refused"),
    [
        (_format_12((0x1F000, 0xFFFFFFF0)), True),
        (_format_12(*[(0, 0xFFFF)] * 20), True),
        (_format_4(*[(0, 0xFFFF)] * 40), True),
        (_format_12((0x20, 0x7E), (0x1F600, 0x1F64F)), False),
        (_format_12((0, 0x10FFFF)), False),  # a last-resort font maps every code point
        (_format_4((0x20, 0x7E), (0xFFFF, 0xFFFF)), False),
    ],
    ids=["one-group", "many-groups", "format-4", "small", "all-unicode", "small-format-4"],
)
def test_a_character_map_of_more_than_unicode_is_refused_unread(subtable, refused):
    # reportlab makes a dict entry per code point a cmap subtable maps: one 12-byte group
    # of 4 billion took a 158 kB font in fonts/ to 4 GB in 24 s, then a MemoryError
    from toolkit.render.game_fonts import cmap_problem

    problem = cmap_problem(_sfnt(subtable))
    assert (problem is not None) == refused
    if refused:
        assert "maps more than 1,114,112 code points" in problem


def test_a_font_file_with_such_a_map_gives_a_finding_in_no_time(tmp_path):
    import struct

    from fontTools.ttLib import TTFont
    from fontTools.ttLib.tables._c_m_a_p import CmapSubtable

    from toolkit.home import repo_root
    from toolkit.render.game_fonts import read_face

    font = TTFont(repo_root() / "templates" / "fonts" / "NotoSans-Regular.ttf")
    extra = CmapSubtable.newSubtable(12)
    extra.platformID, extra.platEncID, extra.language = 3, 10, 0  # reportlab reads this one
    extra.cmap = {0x1F000: font.getGlyphOrder()[1]}
    font["cmap"].tables.append(extra)
    (tmp_path / "fonts").mkdir()
    path = tmp_path / "fonts" / "bomb.ttf"
    font.save(path)
    data = bytearray(path.read_bytes())
    at = data.find(struct.pack(">LLL", 0x1F000, 0x1F000, 1))
    data[at + 4 : at + 8] = struct.pack(">L", 0xFFFFFFF0)
    path.write_bytes(bytes(data))
    said = read_face(path, tmp_path.resolve())  # from the table's bytes: reportlab never sees it
    assert isinstance(said, str) and "maps more than 1,114,112 code points (all" in said


# --- F2: validate --changed and the repository's own commands --------------------------------


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_changed_runs_no_command_the_repository_config_names(tmp_path):
    # `git diff --cached` runs core.fsmonitor, a shell command .git/config names: a game
    # folder unpacked with its .git/ made `playset validate --changed` run it
    import subprocess

    from toolkit.content.changed import staged_files

    marker = tmp_path / "ran"
    repo = tmp_path / "game"
    repo.mkdir()
    (repo / "game.yaml").write_text("id: x\n")

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)

    git("init", "-q")
    git("add", "-A")
    git("-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "x")
    (repo / "game.yaml").write_text("id: y\n")
    git("add", "game.yaml")
    git("config", "core.fsmonitor", f"touch {marker}; false")
    assert staged_files(repo) == [repo / "game.yaml"]
    assert not marker.exists()


# --- F4: the preview's watcher ---------------------------------------------------------------


def test_the_watcher_watches_no_folder_a_link_leads_to(tmp_path):
    # watchfiles' recursive watch follows links: a link to /usr in a game had its 15,000
    # folders watched, and one to / ended the watcher thread in a PermissionError
    import threading
    import time

    from toolkit.preview.watcher import Watcher, watched_folders

    game, private = _linked_out(tmp_path)
    (private / "deep" / "er").mkdir(parents=True)
    (game / "decks").mkdir()
    (game / "output" / "x").mkdir(parents=True)
    folders = watched_folders([game])
    assert sorted(folders) == sorted([game, game / "decks", game / "fonts"])

    heard: list[set[Path]] = []
    told = threading.Event()

    def on_change(paths: set[Path]) -> None:
        heard.append(paths)
        told.set()

    watcher = Watcher([game], on_change)
    watcher.start()
    try:
        assert watcher.ready.wait(5)
        (private / "deep" / "x.yaml").write_text("a: 1\n")  # through the link: not ours
        (game / "decks" / "a.yaml").write_text("a: 1\n")
        assert told.wait(5)
        assert set().union(*heard) == {game / "decks" / "a.yaml"}
        told.clear()
        (game / "boards").mkdir()  # a folder made while it runs is watched
        time.sleep(0.3)
        (game / "boards" / "b.yaml").write_text("b: 1\n")
        deadline = time.monotonic() + 5
        while game / "boards" / "b.yaml" not in set().union(*heard):
            assert told.wait(max(0.0, deadline - time.monotonic()))
            told.clear()
    finally:
        watcher.stop()


# --- F6: schemas export beside a game ---------------------------------------------------------


def test_schemas_export_reads_no_more_of_a_file_than_the_schema_it_compares(tmp_path, monkeypatch):
    # a sparse 3 GB schema file in a game's schemas/ took `schemas export` 37 s and 6.3 GB:
    # the file was read whole to compare it
    from toolkit import fileio
    from toolkit.content import schemas

    schemas.export(tmp_path)
    target = tmp_path / "generic" / "game.schema.json"
    kept = target.read_bytes()
    os.truncate(target, 3 * 1024**3)
    read: list[int] = []
    real = fileio.read_bounded

    def spy(path, limit, **kwargs):
        read.append(limit)
        return real(path, limit, **kwargs)

    monkeypatch.setattr(schemas, "read_bounded", spy, raising=False)
    monkeypatch.setattr(Path, "read_text", lambda *a, **k: pytest.fail("read whole"))
    schemas.export(tmp_path)
    assert target.read_bytes() == kept
    assert max(read, default=0) < 1024**2
    assert schemas.drift(tmp_path) == []


# --- F7: a game.yaml planted above the current folder -----------------------------------------


def test_a_game_yaml_another_user_left_in_a_shared_folder_above_is_passed_over(
    tmp_path, monkeypatch
):
    # `playset simulate` in /tmp/mine found a /tmp/game.yaml another user had put there and
    # imported the engine.py beside it
    from toolkit.content.folders import game_folder_around

    shared = tmp_path / "tmp"
    (shared / "mine" / "work").mkdir(parents=True)
    (shared / "game.yaml").write_text("id: planted\nengine: engine.py\n")
    shared.chmod(0o1777)
    here = shared / "mine" / "work"
    assert game_folder_around(here) == shared.resolve()  # our own file: found
    owner = os.stat(shared / "game.yaml").st_uid
    monkeypatch.setattr(os, "geteuid", lambda: owner + 1)
    assert game_folder_around(here) is None
    assert game_folder_around(shared) == shared.resolve()  # named, or run in it: found
    shared.chmod(0o755)  # a folder only its owner writes: their game, found as before
    assert game_folder_around(here) == shared.resolve()


def test_a_plugin_check_reads_a_layout_no_further_than_the_loader(tmp_path, monkeypatch):
    # a game check read a layout with read_text(): a sparse 3 GB layouts/x.yaml whole
    from types import SimpleNamespace

    from toolkit.games.tokaido.checks.cards import _layout_text

    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "small.yaml").write_text("front: []\n")
    (tmp_path / "layouts" / "huge.yaml").write_text("front: []\n")
    os.truncate(tmp_path / "layouts" / "huge.yaml", 3 * 1024**3)  # sparse
    monkeypatch.setattr(Path, "read_text", lambda *a, **k: pytest.fail("read whole"))
    game = SimpleNamespace(root=tmp_path)
    assert _layout_text(game, "huge") is None
    assert _layout_text(game, "small") == "front: []\n"
