"""Findings of the eighth hostile probe of the file system (issue #33): what a game folder
could still make Playset run, read, write or delete outside it, each with its test."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from toolkit.scaffold.new import new_game


def _game(tmp_path: Path, name: str = "game", engine: bool = False) -> Path:
    folder = tmp_path / name
    new_game(folder, "demo", ["en"], engine=engine)
    return folder


# --- H1: export png prunes nothing through a link planted in the output tree ---------------


def _draws_nothing(game: Path) -> None:
    """No deck, board or rulebook: an export writes no image for the language."""
    manifest = game / "game.yaml"
    text = manifest.read_text()
    manifest.write_text(re.sub(r"files:.*", "files:\n  decks: []\n", text, flags=re.S))


@pytest.mark.parametrize("planted", ["demo/en/png", "demo"])
def test_export_png_prunes_nothing_behind_a_link_in_the_output(tmp_path, run_cli, planted):
    game = _game(tmp_path)
    _draws_nothing(game)
    victim = tmp_path / "photos"
    kept = victim / ("en/png" if planted == "demo" else "") / "holiday.png"
    kept.parent.mkdir(parents=True)
    kept.write_bytes(b"precious")
    out = tmp_path / "out"
    (out / planted).parent.mkdir(parents=True)
    (out / planted).symlink_to(victim)
    result = run_cli("export", "png", str(game), "--lang", "en", "--out", str(out))
    assert kept.read_bytes() == b"precious"
    assert result.exit_code == 1
    assert "symbolic link inside the output folder" in result.output


def test_export_png_still_prunes_its_own_stale_images(tmp_path, run_cli):
    game = _game(tmp_path)
    out = tmp_path / "out"
    stale = out / "demo" / "en" / "png" / "cards" / "gone-front.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"old")
    result = run_cli("export", "png", str(game), "--lang", "en", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert not stale.exists()
    assert (stale.parent / "advance-front.png").is_file()


# --- H3: every module of a package engine resolves inside the game folder ------------------


def _package_engine(tmp_path: Path) -> Path:
    game = _game(tmp_path, engine=True)
    (game / "rules").mkdir()
    (game / "engine.py").rename(game / "rules" / "__init__.py")
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("engine: engine.py", "engine: rules"))
    return game


@pytest.mark.parametrize("how", ["module", "package", "init"])
def test_no_module_of_a_package_engine_runs_from_outside_the_game(tmp_path, run_cli, how):
    game = _package_engine(tmp_path)
    marker = tmp_path / "RAN"
    code = f"open({str(marker)!r}, 'w').write('x')\n"
    outside = tmp_path / "outside"
    outside.mkdir()
    init = game / "rules" / "__init__.py"
    if how == "init":
        (outside / "init.py").write_text(init.read_text() + code)
        init.unlink()
        init.symlink_to(outside / "init.py")
    else:
        init.write_text(init.read_text() + "from . import helper\n")
        if how == "module":
            (outside / "helper.py").write_text(code)
            (game / "rules" / "helper.py").symlink_to(outside / "helper.py")
        else:
            (outside / "pkg").mkdir()
            (outside / "pkg" / "__init__.py").write_text(code)
            (game / "rules" / "helper").symlink_to(outside / "pkg")
    result = run_cli("simulate", str(game), "--games", "2")
    assert not marker.exists()
    assert result.exit_code == 1
    assert "leaves the game folder" in result.output


def test_a_package_engine_still_imports_its_own_modules(tmp_path, run_cli):
    game = _package_engine(tmp_path)
    init = game / "rules" / "__init__.py"
    init.write_text(init.read_text() + "from . import helper\nfrom .parts import deep\n")
    (game / "rules" / "helper.py").write_text("WHO = 1\n")
    (game / "rules" / "parts").mkdir()
    (game / "rules" / "parts" / "__init__.py").write_text("")
    (game / "rules" / "parts" / "deep.py").write_text("WHAT = 2\n")
    result = run_cli("simulate", str(game), "--games", "2")
    assert result.exit_code == 0, result.output


# --- H4: no device or FIFO below an output folder is written into --------------------------


def test_build_writes_into_no_device_planted_in_the_output(tmp_path, run_cli):
    from toolkit.fileio import OutputError, atomic_write_bytes

    out = tmp_path / "out"
    (out / "demo").mkdir(parents=True)
    fifo = out / "demo" / "cards.pdf"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader: the write would go in
    try:
        with pytest.raises(OutputError, match="not a regular file"):
            atomic_write_bytes(fifo, b"%PDF", inside=out)
        assert os.read(reader, 10) == b""
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_fifo_the_user_names_is_still_written_into(tmp_path):
    from toolkit.fileio import atomic_write_bytes

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        atomic_write_bytes(fifo, b"data")
        assert os.read(reader, 10) == b"data"
    finally:
        os.close(reader)


# --- H2: the `playset: ignore[...]` reader reads no file outside the game ------------------


def test_suppression_comments_are_not_read_through_a_link_out_of_the_game(tmp_path, run_cli):
    game = _game(tmp_path)
    outside = tmp_path / "outside.yaml"
    outside.write_text("id: x  # playset: ignore[R002]\n")
    (game / "layouts" / "evil.yaml").symlink_to(outside)
    opened: list[str] = []

    import sys

    def hook(event: str, args: tuple) -> None:
        named = args[0] if event == "open" and args else None
        if isinstance(named, (str, os.PathLike)) and os.path.realpath(named) == str(outside):
            opened.append(os.fspath(named))

    sys.addaudithook(hook)  # audit hooks cannot be removed: it only records, into a list
    result = run_cli("validate", str(game))
    assert "evil.yaml" in result.output and "R002" in result.output  # not silenced
    assert opened == []
    opened.append("done")  # later tests' opens of other paths never match `outside`


# --- G9 of probe 7: two game folders of one id built together -------------------------------


def test_two_games_of_one_id_built_together_do_not_replace_each_others_pdfs(tmp_path, run_cli):
    first, second = _game(tmp_path, "a"), _game(tmp_path, "b")
    rulebook = second / "rulebook" / "en.md"
    rulebook.write_text(rulebook.read_text() + "\nThe second game.\n")
    out = tmp_path / "out"
    result = run_cli("build", str(first), str(second), "--lang", "en", "--out", str(out))
    assert result.exit_code == 1
    assert "has the same id" in result.output
    alone = tmp_path / "alone"
    assert run_cli("build", str(first), "--lang", "en", "--out", str(alone)).exit_code == 0
    built = (out / "demo" / "en" / "rulebook.pdf").read_bytes()
    assert built == (alone / "demo" / "en" / "rulebook.pdf").read_bytes()


# --- L4: a file the loader refuses as leading outside is not even opened -------------------


def test_a_read_inside_the_game_opens_no_file_a_link_leads_to_outside(tmp_path):
    import sys

    from toolkit.fileio import read_bounded

    outside = tmp_path / "outside.yaml"
    outside.write_text("x: 1\n")
    game = tmp_path / "game"
    game.mkdir()
    (game / "keys.deck.yaml").symlink_to(outside)
    opened: list[str] = []

    def hook(event: str, args: tuple) -> None:
        named = args[0] if event == "open" and args else None
        if isinstance(named, (str, os.PathLike)) and os.path.realpath(named) == str(outside):
            opened.append(os.fspath(named))

    sys.addaudithook(hook)
    with pytest.raises(OSError, match="leads outside the game folder"):
        read_bounded(game / "keys.deck.yaml", 100, inside=game)
    assert opened == []
    assert read_bounded(outside, 100) == b"x: 1\n"  # the hook sees opens
    assert opened == [str(outside)]
