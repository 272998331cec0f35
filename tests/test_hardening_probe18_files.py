"""Issue #33, the probe 18 findings M6, L1 and L4 (each test red before its fix): the
1,000-file cap on `layouts/` and `icons/` bounds the listing too (listed once a run, the
first names heaped, not every path sorted); `export png`/`tts` say what they finished of a
killed run; `convert --out` outside a game removes the temporaries a killed run left."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from toolkit.content import assets
from toolkit.scaffold.new import new_game


@pytest.fixture(scope="module")
def scaffold(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("p18") / "g"
    new_game(folder, "g", ["en"])
    return folder


def _copy(scaffold: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(scaffold, tmp_path / "g", symlinks=True))


# --- M6: 300,000 empty layouts: every name listed and sorted as a path, 7 times a validate
# (20 s against 1.6 s at 1,001) -------------------------------------------------------------


def test_layouts_and_icons_are_listed_once_a_validate(tmp_path, run_cli, scaffold, monkeypatch):
    game = _copy(scaffold, tmp_path)
    for n in range(5):
        (game / "layouts" / f"x{n}.yaml").write_text(f"id: x{n}\nelements: []\n")
    listed: list[str] = []
    real_listdir, real_scandir, real_iterdir = os.listdir, os.scandir, Path.iterdir

    def note(path: object) -> None:
        name = Path(os.fsdecode(path)).name if isinstance(path, (str, bytes, Path)) else ""
        if name in ("layouts", "icons"):
            listed.append(name)

    def listdir(path: object = ".") -> list:
        note(path)
        return real_listdir(path)  # type: ignore[arg-type]

    def scandir(path: object = ".") -> object:
        note(path)
        return real_scandir(path)  # type: ignore[arg-type]

    def iterdir(self: Path):
        note(self)
        return real_iterdir(self)

    monkeypatch.setattr(os, "listdir", listdir)
    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(Path, "iterdir", iterdir)
    result = run_cli("validate", str(game), "--no-cache")
    assert result.exit_code == 0, result.output
    assert listed.count("layouts") == 1, listed  # was 14 (refused, in_game, too_full, ...)
    assert listed.count("icons") <= 1, listed


def test_the_first_files_by_name_are_kept_whatever_the_folder_order(tmp_path, monkeypatch):
    folder = tmp_path / "g" / "layouts"
    folder.mkdir(parents=True)
    names = [f"z{n:03d}.yaml" for n in range(40)] + [".yaml", "a.yml", "b.yaml.txt"]
    random.Random(18).shuffle(names)
    for name in names:
        (folder / name).write_text("id: x\n")
    (folder / "a000.yaml").mkdir()  # a folder of the name: no file, not counted
    monkeypatch.setattr(assets, "MAX_FILES", 5)
    kept, more = assets._files(assets.LAYOUTS, tmp_path / "g")
    assert [p.name for p in kept] == [f"z{n:03d}.yaml" for n in range(5)] and more
    monkeypatch.setattr(assets, "MAX_FILES", 40)
    kept, more = assets._files(assets.LAYOUTS, tmp_path / "g")
    assert len(kept) == 40 and not more


# --- L1: export png/tts (and build) finished a killed run's journal without a word ---------


def _killed_run(folder: Path, name: str) -> None:
    """What a run killed between its journal and its renames leaves in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f".{name}.0123abcd.tmp").write_bytes(b"new")
    (folder / ".playset-build-journal.json").write_text(f'[[".{name}.0123abcd.tmp", "{name}"]]')


@pytest.mark.parametrize(
    ("command", "sub", "name", "said"),
    [
        (["export", "png"], "png", "cards-x.png", "finished the interrupted export in"),
        (["export", "tts"], "tts", "cards-9.png", "finished the interrupted export in"),
        (["build", "--only", "cards"], "", "cards.pdf", "finished the interrupted build in"),
    ],
)
def test_a_killed_runs_files_put_in_place_are_said(
    tmp_path, run_cli, scaffold, command, sub, name, said
):
    game, out = _copy(scaffold, tmp_path), tmp_path / "out"
    folder = out / "g" / "en" / sub if sub else out / "g" / "en"
    _killed_run(folder, name)
    result = run_cli(*command, str(game), "--lang", "en", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert said in result.stderr and "1 file(s) put in place" in result.stderr, result.stderr
    assert not (folder / ".playset-build-journal.json").exists()


# --- L4: convert --out outside any game wrote the pair without a journal: killed after the
# first rename, the new sheet stayed beside the old NAME.deck.yaml with a .tmp nobody removed


def test_convert_outside_a_game_is_finished_by_the_next_one(
    tmp_path, run_cli, scaffold, monkeypatch
):
    from toolkit import fileio

    game, outside = _copy(scaffold, tmp_path), tmp_path / "outside"
    deck, sheet = game / "decks" / "cards.yaml", outside / "x.csv"
    outside.mkdir()
    first = run_cli("convert", str(deck), "--to", "csv", "--out", str(sheet))
    assert first.exit_code == 0, first.stderr
    deck.write_text(deck.read_text(encoding="utf-8").replace("title:", "title: N"), "utf-8")
    real = os.replace

    def killed(src, dst, **kwargs):
        if str(dst).endswith("x.deck.yaml"):
            raise KeyboardInterrupt  # kill -9 between the sheet's rename and the deck's
        return real(src, dst, **kwargs)

    monkeypatch.setattr(fileio.os, "replace", killed)
    result = run_cli("convert", str(deck), "--to", "csv", "--out", str(sheet), "--force")
    assert result.exit_code != 0
    monkeypatch.setattr(fileio.os, "replace", real)
    assert (outside / ".playset-build-journal.json").is_file()  # the pair's journal

    result = run_cli("convert", str(deck), "--to", "csv", "--out", str(sheet), "--force")
    assert result.exit_code == 0, result.stderr
    assert "finished the interrupted convert" in result.stderr
    assert sorted(p.name for p in outside.iterdir()) == ["x.csv", "x.deck.yaml"]


def test_convert_outside_a_game_removes_its_stale_temporaries(tmp_path, run_cli, scaffold):
    game, outside = _copy(scaffold, tmp_path), tmp_path / "outside"
    outside.mkdir()
    left = [outside / ".x.csv.0123abcd.tmp", outside / ".x.deck.yaml.89abcdef.tmp"]
    theirs = outside / ".notes.txt.0123abcd.tmp"  # no file of this convert's
    for path in [*left, theirs]:
        path.write_text("staged by a run killed before its journal")
        os.utime(path, (1, 1))
    deck = game / "decks" / "cards.yaml"
    result = run_cli("convert", str(deck), "--to", "csv", "--out", str(outside / "x.csv"))
    assert result.exit_code == 0, result.stderr
    assert not any(path.exists() for path in left) and theirs.exists()
