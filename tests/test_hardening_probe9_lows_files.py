"""The Lows of the ninth probe of the file system (issue #33, /work/notes/probe9f.md): files
read again by name after their check (a PO file, a game file being edited, a picture), a
picture too large for the build that validate let through, and a cache entry's temporary
file a Ctrl-C left."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolkit.content.game import load_game
from toolkit.i18n.po import export_po

DECK = "decks/cards.yaml"


def _po(game: Path, lang: str, msgstr: str, tmp_path: Path) -> Path:
    po = export_po(load_game(game), lang)
    for entry in po:
        if entry.msgctxt.endswith("[sprint].text"):
            entry.msgstr = msgstr
    path = tmp_path / f"{lang}.po"
    path.write_text(str(po) + "\n", encoding="utf-8")
    return path


# --- 1: `i18n import` reads the PO file once, bounded, and parses that text -------------


def test_i18n_import_parses_the_po_text_it_read_not_the_file_again(
    game, run_cli, tmp_path, monkeypatch
):
    from toolkit.i18n import po_bounds

    po = _po(game, "en", "Run {steps} spaces.", tmp_path)
    swapped = po.read_text(encoding="utf-8").replace("Run {steps}", "Walk {steps}")
    bounded = po_bounds.read_bounded
    reads = []

    def read_then_swap(path, limit, **kwargs):
        data = bounded(path, limit, **kwargs)
        reads.append(path)
        po.write_text(swapped, encoding="utf-8")  # the file changes after the bounded read
        return data

    monkeypatch.setattr(po_bounds, "read_bounded", read_then_swap)
    result = run_cli("i18n", "import", str(po), "--game", str(game))
    assert result.exit_code == 0, result.stderr
    assert reads == [po]
    text = (game / DECK).read_text(encoding="utf-8")
    assert "en: Run {steps} spaces." in text and "Walk" not in text


def test_a_latin1_po_file_is_decoded_in_its_charset(game, run_cli, tmp_path):
    po = _po(game, "en", "Run {steps} spaces, café.", tmp_path)
    text = po.read_text(encoding="utf-8").replace("charset=UTF-8", "charset=ISO-8859-1")
    po.write_bytes(text.encode("latin-1", errors="replace"))
    result = run_cli("i18n", "import", str(po), "--game", str(game))
    # (a text with U+202F no longer matches its source in Latin-1: that one is refused)
    assert "applied decks/cards.yaml:cards[sprint].text" in result.stderr
    assert "en: Run {steps} spaces, café." in (game / DECK).read_text(encoding="utf-8")


def test_a_po_text_naming_a_file_is_not_read_as_that_file(game, run_cli, tmp_path):
    """polib reads a text that names a file as that file: the text passed is the PO file's
    own, so one naming a file (here one whose name ends in a newline) is refused."""
    po = _po(game, "en", "Run {steps} spaces.", tmp_path)
    po = po.rename(tmp_path / "en.po\n")
    named = tmp_path / "named.po"
    named.write_text(str(po))  # its whole text is the path of a PO file
    result = run_cli("i18n", "import", str(named), "--game", str(game))
    assert result.exit_code == 2
    assert "Run" not in (game / DECK).read_text(encoding="utf-8")


# --- 2: a game file edited is read again bounded, and only from inside the game ----------


def _fixable(game: Path) -> Path:
    """The deck with a typography fix to make (`Vite !` wants U+202F before the `!`)."""
    path = game / DECK
    text = path.read_text(encoding="utf-8").replace("Avancez de {steps} cases.", "Vite !")
    path.write_text(text, encoding="utf-8")
    return path


def _switch_to_outside(path: Path, tmp_path: Path) -> Path:
    """`path` becomes a link to a copy outside the game, holding a secret line."""
    outside = tmp_path / "outside.yaml"
    outside.write_text(path.read_text(encoding="utf-8") + "# SECRET\n", encoding="utf-8")
    path.unlink()
    path.symlink_to(outside)
    return outside


def test_fix_diff_does_not_read_a_file_switched_to_a_link_out_of_the_game(game, tmp_path):
    from toolkit.i18n.fix import plan_fixes

    path = _fixable(game)
    (patch,) = plan_fixes(load_game(game))
    _switch_to_outside(path, tmp_path)
    with pytest.raises(OSError, match="outside the game"):
        patch.diff()


def test_an_edit_does_not_read_a_file_switched_to_a_link_out_of_the_game(game, tmp_path):
    from toolkit.i18n.fix import plan_fixes

    path = _fixable(game)
    loaded = load_game(game)
    _switch_to_outside(path, tmp_path)  # after it was loaded, before it is edited
    with pytest.raises(OSError, match="outside the game"):
        plan_fixes(loaded)


def test_an_edit_does_not_read_a_file_grown_past_the_content_limit(game, monkeypatch):
    from toolkit.content import source
    from toolkit.i18n import yaml_edit
    from toolkit.i18n.fix import plan_fixes

    path = _fixable(game)
    (patch,) = plan_fixes(load_game(game))
    limit = path.stat().st_size
    monkeypatch.setattr(source, "MAX_FILE_BYTES", limit)
    monkeypatch.setattr(yaml_edit, "MAX_FILE_BYTES", limit, raising=False)
    with path.open("a", encoding="utf-8") as handle:
        handle.write("# grown\n" * 10)
    with pytest.raises(ValueError, match="larger than the limit"):
        patch.diff()


def test_i18n_fix_says_so_when_a_file_changed_to_a_link_out_of_the_game(
    game, run_cli, tmp_path, monkeypatch
):
    from toolkit.i18n import fix

    path = _fixable(game)
    planned = fix.plan_fixes

    def plan_then_switch(loaded):
        patches = planned(loaded)
        _switch_to_outside(path, tmp_path)
        return patches

    monkeypatch.setattr(fix, "plan_fixes", plan_then_switch)
    result = run_cli("i18n", "fix", str(game))
    assert result.exit_code == 1
    assert "SECRET" not in result.stdout and "outside the game" in result.stderr


# --- 3: P004 and the contrast estimate open a picture once, from inside the game --------


def test_validate_opens_no_picture_by_name_in_the_game_folder(tmp_path, run_cli, monkeypatch):
    """P004 (`pictures.problem`) and the contrast estimate (`_average`) read the picture
    through the private copy the build prints (read once, the opened file checked inside the
    game): a picture switched to a link after the containment check is not opened."""
    from tests.test_hardening_probe9_files import _pictured
    from toolkit.render import pictures
    from toolkit.render.elements import image

    folder, _ = _pictured(tmp_path)
    image._average.cache_clear()
    sources: list[Path] = []
    real = pictures.opened

    def opened(source):
        sources.append(Path(source))
        return real(source)

    monkeypatch.setattr(pictures, "opened", opened)
    result = run_cli("validate", str(folder))
    assert result.exit_code == 0, result.output
    assert sources  # the pictures were checked
    game = folder.resolve()
    assert [s for s in sources if s.resolve().is_relative_to(game)] == []


# --- 4: a picture file too large to print is a finding in validate ------------------------


def test_validate_refuses_a_picture_file_too_large_to_print(tmp_path, run_cli, monkeypatch):
    from tests.test_hardening_probe9_files import _pictured
    from toolkit.render import pictures

    folder, _ = _pictured(tmp_path)
    art = folder / "images" / "art.png"
    monkeypatch.setattr(pictures, "MAX_FILE_BYTES", art.stat().st_size - 1)
    result = run_cli("validate", str(folder), "--format", "json")
    assert result.exit_code == 1, result.output
    found = [(d["code"], d["file"], d["line"], d["message"]) for d in json.loads(result.stdout)]
    too_large = f"the file is {art.stat().st_size:,} bytes, more than the"
    assert [(code, Path(file).name, line) for code, file, line, message in found] == [
        ("P004", "cards.yaml", 9),  # each card's line
        ("P004", "cards.yaml", 17),
        ("P004", "cards.yaml", 25),
        ("P004", "game.yaml", 23),  # the cover's
    ]
    assert all(too_large in message for *_, message in found)


# --- 5: a cache entry's temporary file is not left by Ctrl-C --------------------------------


@pytest.fixture
def store(tmp_path, monkeypatch):
    from toolkit.usercache import SignedStore

    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    opened = SignedStore.open("probe", 1000)
    assert opened is not None
    return opened


def test_ctrl_c_while_a_cache_entry_is_written_leaves_no_temporary_file(store, monkeypatch):
    import os

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        store.write("entry", b"payload")
    assert sorted(p.name for p in store.folder.iterdir()) == ["hmac.key"]


def test_a_store_removes_the_stale_temporary_files_a_killed_write_left(store):
    import os

    from toolkit.usercache import SignedStore

    old, new = store.folder / ".entry.abcd1234", store.folder / ".entry.efgh5678"
    old.write_bytes(b"half")
    new.write_bytes(b"half")  # a write in progress in another command
    os.utime(old, (1_000_000_000, 1_000_000_000))
    linked = store.folder / ".entry.link"
    linked.symlink_to(old)
    os.utime(linked, (1_000_000_000, 1_000_000_000), follow_symlinks=False)
    assert store.write("entry", b"payload")
    SignedStore.open("probe", 1000)
    names = sorted(p.name for p in store.folder.iterdir())
    assert names == [".entry.efgh5678", ".entry.link", "entry", "hmac.key"]


def test_a_store_that_only_reads_does_not_list_its_folder(store, monkeypatch):
    """The stale temporary files are looked for at a run's first write, not when a store
    opens: listing a store of thousands of entries cost every run that only reads ~4 ms."""
    import os

    from toolkit.usercache import SignedStore

    assert store.write("entry", b"payload")
    stale = store.folder / ".entry.abcd1234"
    stale.write_bytes(b"half")
    os.utime(stale, (1_000_000_000, 1_000_000_000))
    listed: list[object] = []
    real_scandir = os.scandir

    def scandir(path):
        listed.append(path)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    reader = SignedStore.open("probe", 1000)
    assert reader is not None
    assert reader.read("entry") == b"payload"
    assert listed == []
    assert stale.exists()
    assert reader.write("other", b"payload")  # its first write: the stale file goes
    assert not stale.exists()
    assert reader.write("third", b"payload")
    assert len(listed) == 1
