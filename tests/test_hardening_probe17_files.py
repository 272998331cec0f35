"""Issue #33, the probe 17a findings M1, M2, M3 and L1 (each test red before its fix): the
files a game's `layouts/` and `icons/` hold are bounded in number (one finding on the folder
past it, the rest unread); its folders are counted and only those it reads are watched; an
export's or `convert`'s set of files is put in place through a journal the next run ends; a
`calibrate --out` that fails takes back the folder it made."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import diagnostics_json
from toolkit.content import assets
from toolkit.scaffold.new import new_game


@pytest.fixture(scope="module")
def scaffold(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("p17") / "g"
    new_game(folder, "g", ["en"])
    return folder


def _copy(scaffold: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(scaffold, tmp_path / "g", symlinks=True))


# --- M1: every file of layouts/ and icons/ was read and checked, used or not (5,000 tiny
# layouts: validate 42 s) -------------------------------------------------------------------


def test_layouts_past_the_limit_are_one_finding_and_not_read(
    tmp_path, run_cli, scaffold, monkeypatch
):
    game = _copy(scaffold, tmp_path)
    for n in range(6):
        (game / "layouts" / f"x{n}.yaml").write_text(f"id: x{n}\nelements: []\n")
    monkeypatch.setattr(assets, "MAX_FILES", 4)
    from toolkit.render import layout

    read: list[str] = []
    real = layout._read_layout_document

    def spy(name, game_root, stamp):
        read.append(name)
        return real(name, game_root, stamp)

    monkeypatch.setattr(layout, "_layout_document", layout._LatestVersion(spy))
    result = run_cli("validate", str(game), "--format", "json", "--no-cache")
    found = diagnostics_json(result.output)
    full = [d for d in found if "holds more than 4 layout files" in d["message"]]
    assert len(full) == 1, found
    assert full[0]["code"] == "P003" and full[0]["file"].endswith("layouts")
    assert "x4" not in read and "x5" not in read  # past the first 4 by name: unread
    assert {"x0", "x1", "standard"} <= set(read)  # standard: the deck prints with it


def test_icons_past_the_limit_are_one_finding_and_not_read(
    tmp_path, run_cli, scaffold, monkeypatch
):
    game = _copy(scaffold, tmp_path)
    for name in "abcdef":
        shutil.copyfile(game / "icons" / "token.svg", game / "icons" / f"x{name}.svg")
    monkeypatch.setattr(assets, "MAX_FILES", 3)
    from toolkit.render import icons

    read: list[str] = []
    real = icons.load_svg

    def spy(path, *args, **kwargs):
        read.append(Path(path).stem)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(icons, "load_svg", spy)
    icons.icon_set.cache_clear()
    result = run_cli("validate", str(game), "--format", "json", "--no-cache")
    icons.icon_set.cache_clear()
    found = diagnostics_json(result.output)
    full = [d for d in found if "holds more than 3 icon files" in d["message"]]
    assert len(full) == 1, found
    assert full[0]["code"] == "P008" and full[0]["file"].endswith("icons")
    assert read == ["token", "xa", "xb"]  # the first 3 by name; xc.. past the limit


# --- M2: the preview watched every folder of a game (100,000 empty folders: 100,109 of the
# user's inotify watches), and validate's findings-cache key walk counted files only --------


def _junk(game: Path, count: int) -> None:
    for n in range(count):
        (game / "junk" / str(n // 10) / str(n)).mkdir(parents=True)


def test_the_preview_watches_the_games_folders_first_and_no_more_than_the_limit(
    tmp_path, scaffold, monkeypatch
):
    import threading

    from toolkit.preview import watcher

    game = _copy(scaffold, tmp_path).resolve()
    _junk(game, 60)
    (game / "zart").mkdir()
    (game / "zart" / "a.png").write_bytes(b"")  # a folder holding what the game may read
    monkeypatch.setattr(watcher, "MAX_WATCHED", 12)
    folders = watcher.watched_folders([game])
    assert len(folders) == 12
    own = {game, *(game / name for name in ("decks", "layouts", "icons", "rulebook", "zart"))}
    assert own <= set(folders)
    warned: list[str] = []
    watched: list[int] = []
    real = watcher.watch

    def count(*paths, **kwargs):
        watched.append(len(paths))
        return real(*paths, **kwargs)

    monkeypatch.setattr(watcher, "watch", count)
    told = threading.Event()
    running = watcher.Watcher([game], lambda paths: told.set(), warn=warned.append)
    running.start()
    try:
        assert running.ready.wait(5)
        (game / "decks" / "more.yaml").write_text("a: 1\n")
        assert told.wait(5)
    finally:
        running.stop()
    assert watched == [12]
    assert len(warned) == 1 and "holds more than 12 folders" in warned[0]


def test_the_findings_cache_counts_folders_as_files(tmp_path, scaffold, monkeypatch):
    from toolkit.content import validate_cache

    game = _copy(scaffold, tmp_path)
    stats = validate_cache.StatCache()
    assert validate_cache.inputs_digest(game, (), stats) is not None
    part = validate_cache.code_part(stats)
    assert part is not None
    files = sum(1 for p in game.rglob("*") if p.is_file())
    monkeypatch.setattr(validate_cache, "MAX_FILES", part.files + files + 200)
    assert validate_cache.inputs_digest(game, (), stats) is not None
    _junk(game, 300)  # no file: each folder counts as one
    assert validate_cache.inputs_digest(game, (), stats) is None


# --- M3: `export png`/`tts` and `convert` renamed their staged files one by one with no
# journal: kill -9 between two renames left a mixed set and `.tmp` files --------------------

KILL_AFTER = (
    "import os, signal, sys\n"
    "n = int(sys.argv[1]); real = os.replace; count = [0]\n"
    "def replace(*a, **k):\n"
    "    r = real(*a, **k); count[0] += 1\n"
    "    if count[0] == n: os.kill(os.getpid(), signal.SIGKILL)\n"
    "    return r\n"
    "os.replace = replace\n"
    "from toolkit.cli import main\n"
    "sys.argv = ['playset'] + sys.argv[2:]\n"
    "main()\n"
)


def _killed_after(replaces: int, game: Path, *args: str) -> None:
    """`playset ARGS` in `game`, killed (SIGKILL) after its `replaces`-th os.replace."""
    import signal
    import subprocess
    import sys

    from tests.conftest import REPO

    env = {**__import__("os").environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-c", KILL_AFTER, str(replaces), *args]
    done = subprocess.run(command, cwd=game, env=env, capture_output=True, timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stderr.decode()


def _temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob(".*.tmp"))


def test_an_export_killed_between_its_renames_is_finished_by_the_next_one(
    tmp_path, run_cli, scaffold, monkeypatch
):
    from toolkit import journal

    game = _copy(scaffold, tmp_path)
    monkeypatch.chdir(game)
    assert run_cli("export", "tts", "--lang", "en").exit_code == 0
    tts = game / "output" / "g" / "en" / "tts"
    before = {p.name: p.read_bytes() for p in tts.iterdir()}
    assert sorted(before) == ["cards-1.png", "cards-back.png", "g-en.json"]
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("en: Forward\n", "en: Forward march\n"))
    _killed_after(2, game, "export", "tts", "--lang", "en")  # the journal, then one file
    assert b"Forward march" not in (tts / "g-en.json").read_bytes()  # the old save stays
    assert journal.finish_output(tts)  # what the next export does first
    assert b"Forward march" in (tts / "g-en.json").read_bytes()
    assert (tts / "cards-1.png").read_bytes() != before["cards-1.png"]  # the new sheet
    assert _temporaries(tts) == [] and not (tts / journal.OUTPUT_JOURNAL).exists()

    _killed_after(3, game, "export", "png", "--lang", "en")  # across the deck's folder
    png = game / "output" / "g" / "en" / "png"
    assert run_cli("export", "png", "--lang", "en").exit_code == 0
    assert _temporaries(png) == [] and not (png / journal.OUTPUT_JOURNAL).exists()


def test_a_convert_killed_between_its_renames_is_finished_by_the_next_one(
    tmp_path, run_cli, scaffold, monkeypatch
):
    from toolkit import journal

    game = _copy(scaffold, tmp_path)
    monkeypatch.chdir(game)
    assert run_cli("convert", "decks/cards.yaml", "--to", "csv").exit_code == 0
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text().replace("kind: actions", "kind: events")
    deck.write_text(text.replace("en: Forward\n", "en: Forward ho\n"))
    _killed_after(1, game, "convert", "decks/cards.yaml", "--to", "csv", "--force")
    result = run_cli("validate", str(game), "--format", "json")
    assert [d["code"] for d in diagnostics_json(result.output)] == ["R011"]
    journal.recover(game)  # what the next convert (or `i18n recover`) does first
    assert "Forward ho" in (game / "decks" / "cards.csv").read_text()
    assert "kind: events" in (game / "decks" / "cards.deck.yaml").read_text()
    assert _temporaries(game) == [] and not (game / journal.JOURNAL).exists()
    _killed_after(2, game, "convert", "decks/cards.yaml", "--to", "csv", "--force")
    assert run_cli("convert", "decks/cards.yaml", "--to", "csv", "--force").exit_code == 0
    assert _temporaries(game) == [] and not (game / journal.JOURNAL).exists()


# --- L1: `calibrate --out <full disk>/cal` left the empty folder it made ------------------


def test_calibrate_takes_back_the_folder_it_made_when_the_write_fails(
    tmp_path, run_cli, monkeypatch
):
    import errno
    import os

    from toolkit import fileio

    def full(path, data, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(fileio, "atomic_write_bytes", full)
    monkeypatch.chdir(tmp_path)
    result = run_cli("calibrate", "--out", str(tmp_path / "cal" / "sub"))
    assert result.exit_code == 1
    assert "No space left on device" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == []
