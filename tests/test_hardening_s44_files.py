"""The twelfth probe's Lows on the files surface (issue #33, /work/notes/probe12f.md), fixed in
session 44 (/work/notes/files13.md); each test red before its fix."""

from __future__ import annotations

import errno
import os

import pytest

from toolkit.lsp.mirror import Mirror

# --- L1: a failed `i18n add-language` left the folders it made, empty ----------------------


@pytest.mark.parametrize("named", [False, True])
def test_a_failed_add_language_leaves_no_empty_folder(named, tmp_path, run_cli, monkeypatch):
    # on a full disk it said "cannot write …/de.po: No space left on device" and left
    # output/, output/i18n/ and output/i18n/<game>/ (or --out a/b/c's a/, a/b/, a/b/c/)
    from toolkit import fileio

    assert run_cli("new", "my-game", "--into", str(tmp_path), "--lang", "fr").exit_code == 0
    root, work = tmp_path / "my-game", tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    before = (root / "game.yaml").read_bytes()

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(args[0]))

    monkeypatch.setattr(fileio.os, "replace", full)
    out = ["--out", str(work / "a" / "b" / "c")] if named else []
    result = run_cli("i18n", "add-language", "de", str(root), *out)
    assert result.exit_code == 1
    assert "No space left on device" in result.stderr
    assert list(work.iterdir()) == []
    assert (root / "game.yaml").read_bytes() == before


# --- L2: a failed export removed its --out folder, not the parents it made -----------------


def test_a_failed_export_leaves_none_of_the_parents_of_out_it_made(tmp_path, run_cli, monkeypatch):
    # `export png --page-dpi 1200 --out eo/a/b/c` (a board over the pixel limit) left eo/a/b
    import toolkit.render.exports.png as png
    from tests.test_hardening_probe10_files import _game
    from toolkit.render.artifacts import BuildError

    game = _game(tmp_path / "game")
    (tmp_path / "eo").mkdir()
    out = tmp_path / "eo" / "a" / "b" / "c"

    def fail(*args, **kwargs):
        raise BuildError("the last step failed")

    monkeypatch.setattr(png, "rulebook_pngs", fail)
    result = run_cli("export", "png", str(game), "--out", str(out), "--dpi", "30")
    assert result.exit_code == 1
    assert list((tmp_path / "eo").iterdir()) == []


# --- L3: the editor's mirror raised when a file flipped to a link while it was synced -------


def test_a_file_switched_to_a_link_during_a_sync_is_mirrored_not_raised(tmp_path, monkeypatch):
    # `lstat` saw a link, the file was back before `readlink`: OSError EINVAL out of `sync`
    # (the server's check failed with a traceback in the editor's log and published nothing)
    from toolkit.lsp import mirror as module

    game = tmp_path / "game"
    (game / "decks").mkdir(parents=True)
    (game / "game.yaml").write_text("id: g\n")
    (game / "decks" / "tokens.yaml").write_text("real: 1\n")
    os.symlink("tokens.yaml", game / "decks" / "alias.yaml")
    real_readlink = os.readlink

    def flipped(path, *args, **kwargs):
        if str(path).endswith("alias.yaml") and os.path.islink(path):
            os.unlink(path)  # switched back to a file between the listing and the readlink
            (game / "decks" / "alias.yaml").write_text("now: file\n")
        return real_readlink(path, *args, **kwargs)

    monkeypatch.setattr(module.os, "readlink", flipped)
    mirror = Mirror(game)
    try:
        mirror.sync()  # raised OSError [Errno 22] Invalid argument
        mirrored = mirror.path / "decks" / "alias.yaml"
        assert not mirrored.is_symlink()
        assert mirrored.read_text() == "now: file\n"
        assert (mirror.path / "decks" / "tokens.yaml").read_text() == "real: 1\n"
    finally:
        mirror.close()


def test_a_file_gone_during_a_sync_is_left_for_the_next_one(tmp_path, monkeypatch):
    # a file removed between the listing and its link: no error, and the next sync, which
    # no longer lists it, has nothing of it in the mirror
    from toolkit.lsp import mirror as module

    game = tmp_path / "game"
    game.mkdir()
    (game / "game.yaml").write_text("id: g\n")
    (game / "gone.yaml").write_text("x: 1\n")
    real_link = os.link

    def vanished(src, dst, *args, **kwargs):
        if str(src).endswith("gone.yaml"):
            os.unlink(src)
        return real_link(src, dst, *args, **kwargs)

    monkeypatch.setattr(module.os, "link", vanished)
    mirror = Mirror(game)
    try:
        mirror.sync()
        assert (mirror.path / "game.yaml").read_text() == "id: g\n"
        monkeypatch.setattr(module.os, "link", real_link)
        mirror.sync()
        assert not os.path.lexists(mirror.path / "gone.yaml")
    finally:
        mirror.close()


# --- L4: a link on the cache's path skipped the check of the folders above the store --------


def test_a_cache_reached_through_a_link_into_a_folder_others_may_write_is_not_used(
    tmp_path, monkeypatch
):
    # PLAYSET_CACHE=ww777/mine was refused, PLAYSET_CACHE=clink with clink -> ww777/mine was
    # used (28 files, the code store and its key among them): only the link's lexical
    # parents were checked, never ww777
    from toolkit import usercache

    shared = tmp_path / "ww777"
    (shared / "mine").mkdir(parents=True)
    shared.chmod(0o777)
    os.symlink(shared / "mine", tmp_path / "clink")
    monkeypatch.setenv("PLAYSET_CACHE", str(shared / "mine"))
    assert usercache.cache_dir("jinja") is None  # named directly: refused already
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "clink"))
    assert usercache.cache_dir("jinja") is None
    shared.chmod(0o755)
    assert usercache.cache_dir("jinja") is not None  # the same path, a private folder


def test_a_link_whose_own_folder_others_may_write_is_not_trusted(tmp_path, monkeypatch):
    # a link that leads to another link: the folder holding the second one decides too
    from toolkit import usercache

    (tmp_path / "mine").mkdir()
    hop = tmp_path / "hop"
    hop.mkdir()
    os.symlink(tmp_path / "mine", hop / "next")
    os.symlink(hop / "next", tmp_path / "first")
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "first"))
    assert usercache.cache_dir("jinja") is not None
    hop.chmod(0o777)  # another user may replace `next` by a link to a store of theirs
    assert usercache.cache_dir("jinja") is None


# --- L5: `playset new` recorded a file only after writing it --------------------------------


def test_new_interrupted_right_after_a_file_is_written_leaves_nothing(tmp_path, monkeypatch):
    # Ctrl-C/SIGTERM between a file's rename and its entry in `written` left that file (the
    # next `new` said "already exists and is not an empty folder")
    from toolkit.scaffold import new as module

    real = module.atomic_write_text

    def interrupted(path, text, **kwargs):
        real(path, text, **kwargs)
        if path.name == "glossary.yaml":
            raise KeyboardInterrupt

    monkeypatch.setattr(module, "atomic_write_text", interrupted)
    folder = tmp_path / "tn"
    with pytest.raises(KeyboardInterrupt):
        module.new_game(folder, "tn", ["en"], engine=True)
    assert not folder.exists()
    monkeypatch.setattr(module, "atomic_write_text", real)
    assert module.new_game(folder, "tn", ["en"], engine=True)


# --- N1 (High): a planted game.yaml that is a link to the user's own passed as theirs --------


def _as_another_users(link, monkeypatch) -> None:
    """`link` made by another user: lchown when we may, else its lstat says so."""
    if os.geteuid() == 0:
        os.lchown(link, 4242, 4242)
        return
    from toolkit.content import folders

    real_lstat = os.lstat

    def lstat(path, *args, **kwargs):
        info = real_lstat(path, *args, **kwargs)
        if os.path.abspath(path) == os.path.abspath(link):
            fields = list(info)
            fields[4] = os.geteuid() + 4242  # st_uid
            return os.stat_result(fields)
        return info

    monkeypatch.setattr(folders.os, "lstat", lstat)


def test_a_game_yaml_planted_as_a_link_to_one_of_the_user_s_is_passed_over(tmp_path, monkeypatch):
    # in /tmp (1777), another user's link /tmp/game.yaml -> mine/mygame/game.yaml (the
    # user's own manifest, so the folder check's os.stat saw the user as its owner) made
    # /tmp the game of `playset simulate` run in /tmp/mine: the planter's /tmp/engine.py
    # ran as the user (shown from the CLI). The editor took /tmp as the game the same way.
    from toolkit.content.folders import game_folder_around
    from toolkit.lsp.workspace import game_root

    shared = tmp_path / "tmp"
    (shared / "mine" / "mygame").mkdir(parents=True)
    (shared / "mine" / "mygame" / "game.yaml").write_text("id: mygame\nengine: engine.py\n")
    (shared / "mine" / "todo.yaml").write_text("k: v\n")
    link = shared / "game.yaml"
    os.symlink("mine/mygame/game.yaml", link)
    shared.chmod(0o1777)
    here = shared / "mine"
    assert game_folder_around(here) == shared.resolve()  # the user's own link: theirs
    _as_another_users(link, monkeypatch)
    assert game_folder_around(here) is None
    assert game_root(here / "todo.yaml") is None
    assert game_folder_around(shared) == shared.resolve()  # run in it: found, as before


# --- N2 (Medium): the editor's mirror copied every file of the game into a /tmp in memory ----


def test_a_large_file_no_check_reads_is_not_copied_into_the_mirror(tmp_path, monkeypatch):
    # with the game on another file system than $TMPDIR (a /tmp in RAM, home on disk), no
    # hard link: every file was copied whole, 764 MB of art sources (.psd) of a game became
    # 764 MB of memory per editor session. Such a file is mirrored as a sparse file of its
    # size now; what the checks read (images, fonts, sheets, YAML, Markdown) is still copied
    from toolkit.lsp import mirror as module

    game = tmp_path / "game"
    (game / "art").mkdir(parents=True)
    (game / "game.yaml").write_text("id: g\n")
    art = os.urandom(3 * 1024 * 1024)
    (game / "art" / "sheet.psd").write_bytes(b"8BPS\0\1" + art)  # a Photoshop file's head
    (game / "art" / "front.webp.bak").write_bytes(b"RIFF" + art)  # a picture by its bytes
    (game / "art" / "front.png").write_bytes(art)
    (game / "art" / "notes.txt").write_bytes(b"small, copied\n")

    def other_file_system(*args, **kwargs):
        raise OSError(errno.EXDEV, os.strerror(errno.EXDEV))

    monkeypatch.setattr(module.os, "link", other_file_system)
    mirror = Mirror(game)
    try:
        mirror.sync()
        psd = mirror.path / "art" / "sheet.psd"
        assert psd.stat().st_size == len(art) + 6
        assert (mirror.path / "art" / "front.webp.bak").read_bytes() == b"RIFF" + art
        assert psd.stat().st_blocks * 512 < 64 * 1024  # sparse: no copy of its bytes
        assert (mirror.path / "art" / "front.png").read_bytes() == art
        assert (mirror.path / "art" / "notes.txt").read_bytes() == b"small, copied\n"
        assert (mirror.path / "game.yaml").read_text() == "id: g\n"
    finally:
        mirror.close()


# --- L (probe12f's L1 names it too): `schemas export` failing half-way -----------------------


def test_schemas_export_on_a_full_disk_leaves_no_half_set(tmp_path, monkeypatch):
    # "cannot write …/questions.schema.json: No space left on device" left board.schema.json
    # (a set part new, part old) and the folders made for it
    import toolkit.render.layout  # noqa: F401 - registers the layout schema
    from toolkit import fileio
    from toolkit.content.schemas import export

    real, staged = fileio._stage, []

    def full(plan, data):  # the disk full at the third schema written
        if len(staged) == 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), plan.name)
        staged.append(plan.name)
        return real(plan, data)

    monkeypatch.setattr(fileio, "_stage", full)
    (tmp_path / "out").mkdir()
    with pytest.raises(OSError):
        export(tmp_path / "out" / "schemas")
    assert list((tmp_path / "out").rglob("*")) == []


def test_a_failed_convert_leaves_no_folder_it_made(tmp_path, run_cli, monkeypatch):
    # `convert deck.yaml --to xlsx --out a/b/x.xlsx` on a full disk: "cannot write
    # a/b/x.deck.yaml: No space left on device", and a/b/ left, empty
    from tests.test_hardening_probe10_files import _game
    from toolkit import fileio

    game = _game(tmp_path / "game")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)

    def full(plan, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), plan.name)

    monkeypatch.setattr(fileio, "_stage", full)
    deck = game / "decks" / "cards.yaml"
    result = run_cli("convert", str(deck), "--to", "xlsx", "--out", "a/b/x.xlsx")
    assert result.exit_code == 1
    assert "No space left on device" in result.stderr
    assert list(work.iterdir()) == []
