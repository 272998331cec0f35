"""The fixed cost of every `playset validate`: the findings cache's walks and reads ask the
file system no question twice in one pass (each `stat`, `lstat` or `open` is a system call,
several microseconds on a virtual machine), and each short cut gives what the long way gave.
Each test here fails when its short cut is gone."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES, build_case, relink_modelines
from tests.test_validate_cache_units import _count, _run, cache  # noqa: F401 (a fixture)
from toolkit import fileio, home
from toolkit.content import folders, validate_cache
from toolkit.content.game import bundled_games
from toolkit.usercache import SignedStore


def _calls_from(
    monkeypatch: pytest.MonkeyPatch, owner: object, name: str, module: str
) -> list[str]:
    """Count the calls of `owner.name` made from the module `module` (their arguments)."""
    seen: list[str] = []
    real = getattr(owner, name)

    def counted(*args, **kwargs):
        if sys._getframe(1).f_globals.get("__name__") == module:
            seen.append(str(args[0]) if args else "")
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return seen


def _whisky_copy(tmp_path: Path) -> Path:
    """The Whisky Game copied out of the checkout (the bundled one in place is inside the
    toolkit's tree, hashed whole by the code part), its modelines naming the schemas."""
    game = tmp_path / "whisky-game"
    shutil.copytree(bundled_games()["whisky-game"], game)
    return relink_modelines(game)


def _walk(game: Path) -> str | None:
    return validate_cache.inputs_digest(game, ("select", "ignore"), validate_cache.StatCache())


def test_a_walk_resolves_each_modeline_target_once(tmp_path, monkeypatch):
    """The walk asks whether each schema a modeline names exists (R009 depends on it): the
    Whisky Game's 20 files name 5 schemas, and each answer resolved the target and both
    roots again (a `lstat` for each part of each path)."""
    game = _whisky_copy(tmp_path)
    named = [p for p in game.rglob("*.y*ml") if b"yaml-language-server" in p.read_bytes()]
    assert len(named) >= 15
    expected = _walk(game)
    resolved = _calls_from(monkeypatch, os.path, "realpath", folders.__name__)
    assert _walk(game) == expected
    assert resolved  # the walk did look at them
    assert len(resolved) == len(set(resolved))  # each path resolved once in the walk
    assert len(resolved) < 12


def test_the_modeline_answer_is_the_same_resolved_once(tmp_path, monkeypatch):
    """The digest of a walk whose resolutions are each made afresh is the same; a schema
    missing since is told apart."""
    game = _whisky_copy(tmp_path)
    expected = _walk(game)
    monkeypatch.setattr(validate_cache, "real_paths", lambda: os.path.realpath)
    assert _walk(game) == expected
    deck = game / "decks" / "characters.yaml"
    deck.write_text(deck.read_text("utf-8").replace(".schema.json", ".gone.json", 1), "utf-8")
    changed = _walk(game)
    monkeypatch.undo()
    assert _walk(game) == changed != expected


def test_a_modeline_through_a_link_is_resolved_as_before(tmp_path):
    """A target reached through a link, a missing one and one outside both roots: the
    resolver of one pass answers as `os.path.realpath` does."""
    game = tmp_path / "game"
    (game / "decks").mkdir(parents=True)
    (game / "schemas").mkdir()
    (game / "schemas" / "deck.json").write_text("{}")
    (game / "linked").symlink_to(game / "schemas")
    (tmp_path / "outside.json").write_text("{}")
    real = folders.real_paths()
    deck = str(game / "decks" / "a.yaml")
    for target in (
        "../linked/deck.json",
        "../schemas/deck.json",
        "../schemas/no.json",
        "../../outside.json",
        "../linked/../schemas/deck.json",
    ):
        once = folders.modeline_schema_exists(deck, target, game, real)
        again = folders.modeline_schema_exists(deck, target, game, real)
        assert once == again == folders.modeline_schema_exists(deck, target, game)
    assert folders.modeline_schema_exists(deck, "../linked/deck.json", game, real) is True
    assert folders.modeline_schema_exists(deck, "../schemas/no.json", game, real) is False
    assert folders.modeline_schema_exists(deck, "../../outside.json", game, real) is None


def test_the_checkout_is_looked_at_once(monkeypatch):
    """`repo_root` is asked ~90 times in a run (each layout, font and modeline): whether the
    package runs from a checkout was two `stat` calls each time."""
    monkeypatch.delenv("PLAYSET_HOME", raising=False)
    first = home.repo_root()
    stats = _count(monkeypatch, os, "stat")
    roots = {home.repo_root() for _ in range(20)}
    assert roots == {first}
    assert stats[0] == 0


def test_a_module_folder_is_resolved_from_its_parent(monkeypatch):
    """The real folder of each loaded module (what the cache records of modules outside the
    toolkit) is its real parent's entry unless it is a link: one `lstat` for each folder,
    not one for each part of each folder's path."""
    monkeypatch.setattr(validate_cache, "_REAL", {})
    monkeypatch.setattr(validate_cache, "_REAL_FOLDERS", {})
    resolved = _calls_from(monkeypatch, os.path, "realpath", validate_cache.__name__)
    record = validate_cache.module_record()
    files = [
        m.__file__
        for m in list(sys.modules.values())
        if isinstance(getattr(m, "__file__", None), str)
    ]
    assert len({os.path.dirname(f) for f in files}) > 20
    assert len(resolved) <= 3  # a link or a path that is not normal, if any
    monkeypatch.undo()
    for folder in {os.path.dirname(f) for f in files}:
        assert validate_cache._real_folder(folder) == os.path.realpath(folder)
    validate_cache._REAL.clear()
    validate_cache._REAL_FOLDERS.clear()
    assert validate_cache.module_record() == record


def test_a_folder_through_links_resolves_as_realpath_does(tmp_path, monkeypatch):
    monkeypatch.setattr(validate_cache, "_REAL_FOLDERS", {})
    (tmp_path / "real" / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "real")
    (tmp_path / "real" / "pkg" / "up").symlink_to("..")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    for folder in (
        tmp_path / "link" / "pkg" / "sub",
        tmp_path / "real" / "pkg" / "up" / "pkg",
        tmp_path / "link" / "pkg" / ".." / "pkg",
        tmp_path / "missing" / "deeper",
        tmp_path / "loop" / "x",
    ):
        assert validate_cache._real_folder(str(folder)) == os.path.realpath(folder)
    assert validate_cache._real_folder("relative/x") == os.path.realpath("relative/x")


def test_a_signed_entry_is_read_straight_from_its_descriptor(tmp_path, monkeypatch):
    """A signed entry is read with `os.read` from the one descriptor opened: a buffered file
    over a `dup` of it was five more system calls for each of the ~60 entries of a run."""
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    store = SignedStore.open("test", 1 << 20)
    assert store is not None
    payload = os.urandom(70_000)
    assert store.write("entry", payload)
    dups = _count(monkeypatch, os, "dup")
    assert store.read("entry") == payload
    assert store.read("missing") is None
    assert dups[0] == 0
    # a payload past the store's bound is refused, as before
    small = SignedStore(store.folder, store.secret, 1000)
    assert small.read("entry") is None


def test_a_file_read_inside_a_folder_resolves_the_folder_once(tmp_path, monkeypatch):
    """`read_bounded(…, inside=folder)` resolves the file and the folder before the open and
    checks what was opened against that folder: the folder was resolved twice."""
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "a.yaml").write_text("a: 1\n")
    (tmp_path / "outside.yaml").write_text("b: 2\n")
    (tmp_path / "game" / "out.yaml").symlink_to(tmp_path / "outside.yaml")
    resolved = _calls_from(monkeypatch, fileio, "real_path", fileio.__name__)
    inside = tmp_path / "game"
    assert fileio.read_bounded(inside / "a.yaml", 100, inside=inside) == b"a: 1\n"
    assert len(resolved) == 2
    with pytest.raises(OSError, match="outside the game folder"):
        fileio.read_bounded(inside / "out.yaml", 100, inside=inside)


def test_a_second_walk_makes_no_facts_again(monkeypatch):
    """A run walks the toolkit's trees twice (lookup, save) and the game three times: a
    file whose stamp the run trusts already gives the facts made the first time."""
    monkeypatch.setattr(validate_cache.StatCache, "RACY_NS", -(10**18))  # a file saved now too
    stats = validate_cache.StatCache()
    first = validate_cache.code_part(stats)
    again = validate_cache.code_part(stats)  # every stamp now trusted
    made = _count(monkeypatch, validate_cache, "FileFacts")
    assert validate_cache.code_part(stats) == again == first
    assert made[0] == 0


@pytest.mark.usefixtures("cache")
def test_a_miss_walks_the_game_twice_not_three_times(tmp_path, monkeypatch):
    """After a card edit the game folder is walked by the lookup and, once the checks are
    done, by the units (is it as the checks read it?): the save hashes that walk with the
    code part as it is then, not a third walk of its own. The entry is still written (the
    next run is a hit) and the findings are a run's without the cache."""
    game = build_case(FIXTURES / "broken" / "text-overflow", tmp_path / "game")
    expected = _run(str(game), "-f", "json", "--no-cache")
    assert _run(str(game), "-f", "json") == expected
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text("utf-8") + "\n# an edit\n", "utf-8")
    walks = _count(monkeypatch, validate_cache._Walk, "game")
    code, said = _run(str(game), "-f", "json", "-v")
    assert "changed since its entry" in said
    assert walks[0] == 2
    walks[0] = 0
    code, said = _run(str(game), "-f", "json", "-v")
    assert "unchanged; findings from the cache" in said
    assert walks[0] == 1
    kept = "".join(line for line in said.splitlines(True) if not line.startswith("cache: "))
    assert (code, kept) == _run(str(game), "-f", "json", "--no-cache")


@pytest.mark.usefixtures("cache")
def test_an_edit_during_the_checks_is_not_saved(tmp_path, monkeypatch):
    """A file edited while the checks run: the walk after them sees it, so the findings of
    the old text are not kept under the key of the old text... nor of the new one."""
    from toolkit import checks

    game = build_case(FIXTURES / "broken" / "text-overflow", tmp_path / "game")
    _run(str(game))
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text("utf-8") + "\n# before\n", "utf-8")
    real = checks.run_checks

    def edited_meanwhile(*args, **kwargs):
        found = real(*args, **kwargs)
        deck.write_text(deck.read_text("utf-8") + "\n# meanwhile\n", "utf-8")
        return found

    monkeypatch.setattr(checks, "run_checks", edited_meanwhile)
    _run(str(game))
    monkeypatch.setattr(checks, "run_checks", real)
    code, said = _run(str(game), "-v")
    assert "changed since its entry" in said


def _tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small toolkit-like tree as the code part's only tree: folders, files, a link to a
    folder and one to a file; every stamp trusted, however fresh."""
    tree = tmp_path / "tree"
    (tree / "pkg" / "sub").mkdir(parents=True)
    (tree / "pkg" / "a.py").write_text("a = 1\n")
    (tree / "pkg" / "sub" / "b.yaml").write_text("b: 2\n")
    (tree / "data").mkdir()
    (tree / "data" / "c.txt").write_text("c\n")
    (tree / "pkg" / "linked").symlink_to(tree / "data")
    (tree / "pkg" / "c.txt").symlink_to(tree / "data" / "c.txt")
    monkeypatch.setattr(validate_cache, "shared_trees", lambda: [("tree", str(tree))])
    monkeypatch.setattr(validate_cache.StatCache, "RACY_NS", -(10**18))
    return tree


def _walked() -> validate_cache.CodePart | None:
    """The code part of a full walk, no record consulted."""
    walk = validate_cache._Walk(validate_cache.StatCache())
    digest = validate_cache._code_part(walk)
    return validate_cache.CodePart(
        digest, walk.budget.files, walk.budget.bytes, frozenset(walk.seen)
    )


def test_the_code_part_is_read_from_its_record_while_nothing_moved(tmp_path, monkeypatch):
    """A run hashes the code part at its lookup and again at its save (a warm run at its
    lookup): while every folder and file has its stamp, the record of the last walk gives
    it, each of them `stat`ed, no folder listed again."""
    _tree(tmp_path, monkeypatch)
    stats = validate_cache.StatCache()
    first = validate_cache.code_part(stats)
    assert first == _walked()
    assert validate_cache.CODE_RECORD in stats.seen
    listed = _count(monkeypatch, os, "scandir")
    again = validate_cache.StatCache(dict(stats.seen))  # the next run, its stamps read back
    assert validate_cache.code_part(again) == first
    assert validate_cache.code_part(stats) == first
    assert listed[0] == 0


def _bump(path: Path, seconds: int = 5) -> None:
    """A later modification time (a change within one clock tick of the last may not move
    it: the record is never made of such a fresh stamp, see the racy test below)."""
    info = os.stat(path, follow_symlinks=False)
    later = info.st_mtime_ns + seconds * 10**9
    os.utime(path, ns=(later, later), follow_symlinks=False)


def _changes(tree: Path) -> list[Any]:
    def edit() -> None:
        (tree / "pkg" / "a.py").write_text("a = 2\n")  # same size
        _bump(tree / "pkg" / "a.py")

    def add() -> None:
        (tree / "pkg" / "sub" / "new.py").write_text("")
        _bump(tree / "pkg" / "sub")

    def remove() -> None:
        (tree / "data" / "c.txt").unlink()
        _bump(tree / "data")

    def relink() -> None:
        (tree / "pkg" / "linked").unlink()
        (tree / "pkg" / "linked").symlink_to(tree / "pkg" / "sub")
        _bump(tree / "pkg")

    def rename() -> None:
        (tree / "pkg" / "sub").rename(tree / "pkg" / "sub2")
        _bump(tree / "pkg")

    return [edit, add, remove, relink, rename]


def test_a_change_under_the_trees_is_seen_through_the_record(tmp_path, monkeypatch):
    """A file edited, added or removed, a link retargeted, a folder renamed: the record no
    longer holds, and the code part is the full walk's."""
    tree = _tree(tmp_path, monkeypatch)
    stats = validate_cache.StatCache()
    before = validate_cache.code_part(stats)
    for change in _changes(tree):
        change()
        now = validate_cache.code_part(validate_cache.StatCache(dict(stats.seen)))
        assert now == _walked(), change.__name__
        assert now is not None and before is not None and now.digest != before.digest
        before = now
        stats = validate_cache.StatCache()
        assert validate_cache.code_part(stats) == now


def test_a_tree_changed_in_the_last_seconds_is_not_recorded(tmp_path, monkeypatch):
    _tree(tmp_path, monkeypatch)
    monkeypatch.setattr(validate_cache.StatCache, "RACY_NS", 3_000_000_000)
    stats = validate_cache.StatCache()
    assert validate_cache.code_part(stats) == _walked()
    assert validate_cache.CODE_RECORD not in stats.seen


def test_a_record_for_other_trees_or_of_another_shape_is_not_used(tmp_path, monkeypatch):
    tree = _tree(tmp_path, monkeypatch)
    stats = validate_cache.StatCache()
    first = validate_cache.code_part(stats)
    record = stats.seen[validate_cache.CODE_RECORD]
    key, _, files, size, seen, stamps = record
    bogus = "f" * 64  # a record used would give this digest
    fd = os.open(tree / "pkg" / "a.py", os.O_RDONLY)  # a number is no path
    try:
        as_fd = [fd, *validate_cache.file_version(os.fstat(fd))]
        for wrong in (
            ["another key", bogus, files, size, seen, stamps],
            [key, bogus, files, size, seen],
            [key, 7, files, size, seen, stamps],
            [key, bogus, files, size, [[1]], stamps],
            [key, bogus, files, size, seen, [["/nowhere", 1, 2, 3, 4, 5]]],
            [key, bogus, files, size, seen, [as_fd, *stamps]],
            "not a list",
        ):
            kept = validate_cache.StatCache({validate_cache.CODE_RECORD: wrong})  # type: ignore[dict-item]
            assert validate_cache.code_part(kept) == first
    finally:
        os.close(fd)
    assert (
        validate_cache.code_part(
            validate_cache.StatCache(
                {validate_cache.CODE_RECORD: [key, bogus, files, size, seen, stamps]}
            )
        ).digest
        == bogus
    )  # type: ignore[union-attr]
    other = tmp_path / "other"
    shutil.copytree(tree, other, symlinks=True)
    monkeypatch.setattr(validate_cache, "shared_trees", lambda: [("tree", str(other))])
    assert validate_cache.code_part(validate_cache.StatCache(dict(stats.seen))) == _walked()
