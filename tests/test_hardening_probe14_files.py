"""Issue #33, the fourteenth probe's FILES findings (each test red before its fix): `new` makes
a game only in a folder that is the user's alone and writes it through one descriptor held
on the game folder; every file of an engine package is checked before it is imported."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import new_paused_at_its_third_file
from toolkit.scaffold.new import ScaffoldError, new_game

OTHER_UID = 4242


def _chown_if_root(path, uid: int) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root can give a file to another user")
    os.chown(path, uid, uid)


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


# --- H1 + H2: `new NAME` in (or `--into`) a folder another user may write: that user exchanged
# the new game folder for a link (new then wrote into, and rolled back in, another folder of
# the user's), or replaced the game afterwards (root's simulate ran their engine) ------------


def test_new_refuses_to_make_a_game_in_a_folder_others_may_write(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)  # no sticky bit: anyone may rename what is in it
    with pytest.raises(ScaffoldError, match=r"not yours alone .*others may write"):
        new_game(shared / "g1", "g1", ["en"], engine=True)
    assert list(shared.iterdir()) == []


def test_new_refuses_to_make_a_game_below_a_folder_others_may_write(tmp_path):
    # `--into shared/a/b`: the nearest folder that exists decides, and the folders above it
    shared = tmp_path / "shared"
    (shared / "mine").mkdir(parents=True)
    shared.chmod(0o777)  # others may rename `mine` away and put theirs in its place
    with pytest.raises(ScaffoldError, match="others may write"):
        new_game(shared / "mine" / "a" / "b" / "g1", "g1", ["en"])
    assert list((shared / "mine").iterdir()) == []


def test_new_refuses_a_folder_of_another_user_even_as_root(tmp_path):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    _chown_if_root(theirs, OTHER_UID)  # mode 0755: theirs to rename what is in it
    with pytest.raises(ScaffoldError, match=r"belongs to another user \(uid 4242\)"):
        new_game(theirs / "lk", "lk", ["en"], engine=True)
    assert list(theirs.iterdir()) == []


def test_new_in_a_sticky_folder_like_tmp_is_made(tmp_path):
    # in a sticky folder nobody but us renames the entry we make (as /tmp)
    sticky = tmp_path / "sticky"
    sticky.mkdir()
    sticky.chmod(0o1777)
    written = new_game(sticky / "g1", "g1", ["en"], engine=True)
    assert len(written) == len(_files(sticky / "g1"))


def test_new_into_a_folder_of_another_user_is_a_usage_error(tmp_path, run_cli):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    theirs.chmod(0o777)
    result = run_cli("new", "lk", "--into", str(theirs), "--engine")
    assert result.exit_code == 2, result.output
    assert "not yours alone" in result.stderr and "others may write" in result.stderr
    assert list(theirs.iterdir()) == []


def test_new_writes_nothing_through_its_folder_exchanged_for_a_link(tmp_path):
    # the attacker's move, done here between two files: `x` becomes a link to another game
    # of the user's; no file of that game may be written or (by the rollback) removed
    other = tmp_path / "precious"
    new_game(other, "precious", ["en"], engine=True)
    (other / "engine.py").write_text("# my work\n", encoding="utf-8")
    before = _files(other)
    process = new_paused_at_its_third_file(tmp_path, 1.5)
    (tmp_path / "x").rename(tmp_path / "x.moved")
    (tmp_path / "x").symlink_to(other)
    _, err = process.communicate(timeout=20)
    assert _files(other) == before, err
    assert process.returncode == 1 and b"Traceback" not in err, err
    assert b"was moved or replaced" in err and b"no game written" in err
    assert not any(p.is_file() for p in (tmp_path / "x.moved").rglob("*"))
    assert (tmp_path / "x").is_symlink()  # the rollback removed nothing through it


# --- M1: an engine package's sub-package __init__.py, sourceless .pyc and extension modules
# were imported with no check of who may change them (a 0666 eng/sub/__init__.py ran) ------


def _engine_package(tmp_path: Path) -> tuple[Path, Path]:
    """A game whose engine is the package `eng/` (`from . import sub` at its end), and the
    file the code under test writes when it runs."""
    game = tmp_path / "game"
    new_game(game, "demo", ["en"], engine=True)
    (game / "eng").mkdir()
    init = (game / "engine.py").read_text(encoding="utf-8") + "\nfrom . import sub  # noqa\n"
    (game / "eng" / "__init__.py").write_text(init, encoding="utf-8")
    (game / "engine.py").unlink()
    manifest = game / "game.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8").replace("engine: engine.py", "engine: eng")
    )
    return game, tmp_path / "ran"


def _marking(marker: Path) -> str:
    return f"import pathlib\npathlib.Path({str(marker)!r}).write_text('ran')\n"


def test_a_sub_package_init_others_may_write_is_not_run(tmp_path, run_cli):
    game, marker = _engine_package(tmp_path)
    (game / "eng" / "sub").mkdir()
    init = game / "eng" / "sub" / "__init__.py"
    init.write_text(_marking(marker), encoding="utf-8")
    init.chmod(0o666)
    result = run_cli("simulate", str(game), "-n", "2", "-p", "2")
    assert result.exit_code == 1, result.output
    assert "is not run" in result.output and "others may write" in result.output
    assert not marker.exists()
    init.chmod(0o644)
    assert run_cli("simulate", str(game), "-n", "2", "-p", "2").exit_code == 0
    assert marker.exists()


def test_a_sourceless_pyc_in_an_engine_package_is_not_imported(tmp_path, run_cli):
    import py_compile

    game, marker = _engine_package(tmp_path)
    source = tmp_path / "sub.py"
    source.write_text(_marking(marker), encoding="utf-8")
    py_compile.compile(str(source), cfile=str(game / "eng" / "sub.pyc"), doraise=True)
    result = run_cli("simulate", str(game), "-n", "2", "-p", "2")
    assert result.exit_code == 1, result.output
    assert "sub.pyc is not imported" in result.output and "source" in result.output
    assert not marker.exists()


def test_an_extension_module_in_an_engine_package_is_not_imported(tmp_path, run_cli):
    import importlib.machinery

    game, _ = _engine_package(tmp_path)
    name = "sub" + importlib.machinery.EXTENSION_SUFFIXES[0]
    (game / "eng" / name).write_bytes(b"\x7fELF not really")
    result = run_cli("simulate", str(game), "-n", "2", "-p", "2")
    assert result.exit_code == 1, result.output
    assert f"{name} is not imported" in result.output


def test_a_namespace_sub_package_of_an_engine_still_imports(tmp_path, run_cli):
    # a guard: a folder without __init__.py is still a package (its modules are checked)
    game, marker = _engine_package(tmp_path)
    init = game / "eng" / "__init__.py"
    init.write_text(
        init.read_text(encoding="utf-8").replace("from . import sub", "from .sub import mod"),
        encoding="utf-8",
    )
    (game / "eng" / "sub").mkdir()
    (game / "eng" / "sub" / "mod.py").write_text(_marking(marker), encoding="utf-8")
    assert run_cli("simulate", str(game), "-n", "2", "-p", "2").exit_code == 0
    assert marker.exists()


# --- M2: the preview (and the editor) kept a private copy of every version of a picture
# (each torn state an image editor's writes left too) until it stopped --------------------


def _png(path: Path, colour: str) -> None:
    from PIL import Image

    Image.new("RGB", (8, 8), colour).save(path)


def test_a_picture_saved_again_leaves_no_copy_of_its_old_versions(tmp_path):
    from toolkit.render import pictures

    art = tmp_path / "art.png"
    copies = []
    for number, colour in enumerate(("red", "green", "blue", "white", "black")):
        _png(art, colour)
        os.utime(art, ns=(number * 10**9, number * 10**9))  # each version its own mtime
        copies.append(pictures.private_copy(art, tmp_path).path)
    try:
        assert len(set(copies)) == 5
        # (the folder is the process's: other tests of this worker keep their copies there)
        kept = sorted(p for p in set(copies) if p.exists())
        # the newest and the one before it (a page being drawn may still open that one)
        assert kept == sorted(copies[-2:])
        assert pictures.private_copy(art, tmp_path).path == copies[-1]
        copies[-1].unlink()  # a copy removed behind our back is made again, and kept
        assert pictures.private_copy(art, tmp_path).path.is_file()
    finally:
        pictures.discard()


def test_a_copy_another_picture_still_names_is_kept(tmp_path):
    from toolkit.render import pictures

    art, same = tmp_path / "art.png", tmp_path / "same.png"
    _png(art, "red")
    _png(same, "red")  # the same bytes: one copy for both
    shared = pictures.private_copy(same, tmp_path).path
    try:
        assert pictures.private_copy(art, tmp_path).path == shared
        for number, colour in enumerate(("green", "blue"), start=1):
            _png(art, colour)
            os.utime(art, ns=(number * 10**9, number * 10**9))
            pictures.private_copy(art, tmp_path)
        assert shared.is_file()  # art.png's first version is gone; same.png still names it
        assert pictures.private_copy(same, tmp_path).path == shared
    finally:
        pictures.discard()


# --- L4: a cache folder refused (another user's) was still filled with empty store folders


@pytest.mark.parametrize("mode", [0o777, 0o755])
def test_a_refused_cache_folder_is_left_empty(tmp_path, monkeypatch, mode):
    from toolkit.usercache import cache_dir

    theirs = tmp_path / "sh" / "playset"
    theirs.mkdir(parents=True)
    theirs.chmod(mode)
    _chown_if_root(theirs, OTHER_UID)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "sh"))
    assert cache_dir("validate") is None
    assert list(theirs.iterdir()) == []


def test_a_cache_folder_below_a_folder_others_may_write_is_not_made(tmp_path, monkeypatch):
    from toolkit.usercache import cache_dir

    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("PLAYSET_CACHE", str(shared / "a"))
    assert cache_dir("validate") is None
    assert list(shared.iterdir()) == []


# --- L3: a command writing into a game (i18n fix --write, import, add-language) opened the
# game folder by path for each file: in a folder others may write, it could be exchanged
# for a link to another folder of the user's between the read and the writes --------------


def _game_to_fix(folder: Path) -> Path:
    new_game(folder, "demo", ["fr", "en"])
    deck = folder / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.strip().startswith("fr:"))
    deck.write_text(text.replace(line, line.split(":")[0] + ': "Vite !"', 1), encoding="utf-8")
    return deck


def test_a_game_in_a_folder_others_may_write_is_not_written_into(tmp_path, run_cli):
    shared = tmp_path / "shared"
    shared.mkdir()
    deck = _game_to_fix(shared / "game")
    before = deck.read_bytes()
    shared.chmod(0o777)
    result = run_cli("i18n", "fix", str(shared / "game"), "--write")
    assert result.exit_code == 1, result.output
    assert "not yours alone" in result.output and "others may write" in result.output
    assert deck.read_bytes() == before
    shared.chmod(0o755)
    result = run_cli("i18n", "fix", str(shared / "game"), "--write")
    assert result.exit_code == 0, result.output
    assert "Vite\u202f!" in deck.read_text(encoding="utf-8")


def test_add_language_refuses_a_game_in_a_folder_others_may_write(tmp_path, run_cli):
    shared = tmp_path / "shared"
    shared.mkdir()
    new_game(shared / "game", "demo", ["en"])
    manifest = (shared / "game" / "game.yaml").read_bytes()
    shared.chmod(0o777)
    out = tmp_path / "po"
    result = run_cli("i18n", "add-language", "de", str(shared / "game"), "--out", str(out))
    assert result.exit_code == 1, result.output
    assert "not yours alone" in result.output
    assert (shared / "game" / "game.yaml").read_bytes() == manifest
