"""Hardening: output files are written where they point, never through planted links, never
replacing what is not a regular file, never outside their folder, with the umask's mode."""

from __future__ import annotations

import os
import shutil
import stat
import threading
from pathlib import Path

import pytest

from tests.conftest import REPO
from toolkit.fileio import OutputError, atomic_write_bytes, output_folder, write_many


@pytest.fixture
def heroes(tmp_path: Path) -> Path:
    root = tmp_path / "dh"
    shutil.copytree(REPO / "content" / "drinking-heroes", root)
    return root


def _plant_fix(root: Path) -> None:
    """A French line in game.yaml with a plain space before '!': `i18n fix` has work."""
    path = root / "game.yaml"
    text = path.read_text(encoding="utf-8")
    assert "gorgées." in text
    path.write_text(text.replace("gorgées.", "gorgées !", 1), encoding="utf-8")


# --- 1. a planted `.<file>.verify` symlink ---------------------------------------------


def test_i18n_fix_diff_never_writes_through_a_planted_link(heroes, tmp_path, run_cli, monkeypatch):
    _plant_fix(heroes)
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    link = heroes / ".game.yaml.verify"
    link.symlink_to(victim)
    monkeypatch.chdir(heroes)
    result = run_cli("i18n", "fix", ".")
    assert result.exit_code == 0 and "gorgées" in result.stdout
    assert victim.read_text() == "precious\n"
    assert link.is_symlink()


def test_i18n_import_dry_run_never_writes_through_a_planted_link(heroes, tmp_path, run_cli):
    from toolkit.content.game import load_game
    from toolkit.i18n.po import export_po

    po = export_po(load_game(heroes), "en")
    entry = next(e for e in po if e.msgctxt.startswith("game.yaml:"))
    entry.msgstr = entry.msgstr + " (new)"
    po_path = tmp_path / "en.po"
    po_path.write_text(str(po) + "\n", encoding="utf-8")
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    (heroes / ".game.yaml.verify").symlink_to(victim)
    before = (heroes / "game.yaml").read_bytes()
    result = run_cli("i18n", "import", str(po_path), "--game", str(heroes), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert "1 would apply" in result.stderr
    assert victim.read_text() == "precious\n"
    assert (heroes / "game.yaml").read_bytes() == before
    assert (heroes / ".game.yaml.verify").is_symlink()


# --- 2. targets that are not regular files -----------------------------------------------


def _device(tmp_path: Path, name: str) -> Path:
    """A link to a real device: even a broken write replaces the link, never the device."""
    link = tmp_path / f"{name}.json"
    link.symlink_to(f"/dev/{name}")
    return link


def test_a_device_is_written_into_not_replaced(tmp_path):
    link = _device(tmp_path, "null")
    atomic_write_bytes(link, b"{}\n")
    assert link.is_symlink() and stat.S_ISCHR(os.stat(link).st_mode)


def test_a_full_device_is_a_clear_error(tmp_path):
    link = _device(tmp_path, "full")
    with pytest.raises(OSError) as info:
        atomic_write_bytes(link, b"x" * 100_000)
    assert link.is_symlink() and stat.S_ISCHR(os.stat(link).st_mode)
    assert "No space" in str(info.value)


def test_a_fifo_is_written_into_and_one_without_reader_is_refused(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match="no reader"):
        atomic_write_bytes(fifo, b"data")
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    for _ in range(200):  # the reader opens its end; then the write finds it
        try:
            atomic_write_bytes(fifo, b"data")
            break
        except OutputError:
            threading.Event().wait(0.01)
    reader.join(5)
    assert got == [b"data"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_symlink_keeps_pointing_at_its_target_which_gets_the_new_content(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    atomic_write_bytes(link, b"new")
    assert link.is_symlink() and target.read_text() == "new"


def test_a_dangling_symlink_and_a_folder_are_refused(tmp_path):
    link = tmp_path / "dangling"
    link.symlink_to(tmp_path / "nowhere")
    with pytest.raises(OutputError, match="missing file"):
        atomic_write_bytes(link, b"x")
    assert not (tmp_path / "nowhere").exists()
    with pytest.raises(OutputError, match="folder"):
        atomic_write_bytes(tmp_path, b"x")


def test_parent_folders_are_never_created(tmp_path):
    with pytest.raises(OutputError, match="does not exist"):
        atomic_write_bytes(tmp_path / "no" / "such" / "x.pdf", b"x")
    assert not (tmp_path / "no").exists()
    with pytest.raises(OutputError, match="does not exist"):
        output_folder(tmp_path / "no" / "out", "game", "fr")
    assert not (tmp_path / "no").exists()


def test_an_output_subfolder_linking_outside_out_is_refused(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (out / "game").symlink_to(elsewhere)
    with pytest.raises(OutputError, match="inside"):
        output_folder(out, "game", "fr")
    assert not (elsewhere / "fr").exists()


@pytest.mark.parametrize("mask", [0o022, 0o002, 0o077])
def test_new_files_follow_the_umask_and_replaced_files_keep_their_mode(tmp_path, mask):
    old = os.umask(mask)
    try:
        atomic_write_bytes(tmp_path / "new.pdf", b"x")
        kept = tmp_path / "kept.yaml"
        kept.write_bytes(b"a")
        kept.chmod(0o640)
        atomic_write_bytes(kept, b"b")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.pdf").stat().st_mode) == 0o666 & ~mask
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640


def test_files_written_together_are_all_old_or_all_new(tmp_path):
    a, b = tmp_path / "cards.pdf", tmp_path / "board.pdf"
    a.write_bytes(b"old a")
    b.write_bytes(b"old b")
    with pytest.raises(OutputError):
        write_many([(a, b"new a"), (b, b"new b"), (tmp_path, b"a folder")])
    assert a.read_bytes() == b"old a" and b.read_bytes() == b"old b"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.pdf", "cards.pdf"]


def test_simulate_refuses_a_bad_json_target_before_playing(run_cli, tmp_path):
    result = run_cli("simulate", "drinking-heroes", "-n", "5", "--json", str(tmp_path))
    assert result.exit_code == 2
    assert f"cannot write {tmp_path}: it is a folder" in result.stderr
    missing = tmp_path / "nonexistent" / "dir" / "x.pdf"
    result = run_cli("simulate", "drinking-heroes", "-n", "5", "--pdf", str(missing))
    assert result.exit_code == 2 and "does not exist" in result.stderr
    assert not (tmp_path / "nonexistent").exists()


def test_simulate_into_dev_null_and_a_full_disk(run_cli, tmp_path):
    null, full = _device(tmp_path, "null"), _device(tmp_path, "full")
    result = run_cli("simulate", "drinking-heroes", "-n", "5", "--json", str(null))
    assert result.exit_code == 0, result.stderr
    assert null.is_symlink() and stat.S_ISCHR(os.stat(null).st_mode)
    result = run_cli("simulate", "drinking-heroes", "-n", "5", "--json", str(full))
    assert result.exit_code == 1
    assert f"cannot write {full}" in result.stderr and "No space" in result.stderr


def test_i18n_export_to_a_folder_is_a_clear_error(run_cli, tmp_path):
    result = run_cli("i18n", "export", "drinking-heroes", "--lang", "en", "--out", str(tmp_path))
    assert result.exit_code == 1
    assert "it is a folder" in result.stderr


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc")
def test_a_folder_that_takes_no_files_is_refused_before_the_simulation(run_cli):
    result = run_cli("simulate", "drinking-heroes", "-n", "5", "--json", "/proc/report.json")
    assert result.exit_code == 2
    assert "cannot write /proc/report.json: no file can be created in /proc" in result.stderr
    assert "completed" not in result.stdout  # refused before playing


def test_reads_never_wait_on_a_fifo_or_run_on_without_end(tmp_path):
    from toolkit.content.source import load_document
    from toolkit.fileio import read_bounded

    fifo = tmp_path / "deck.yaml"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.yaml"
    zero.symlink_to("/dev/zero")
    for path in (fifo, zero):
        with pytest.raises(OSError, match="not a regular file"):
            read_bounded(path, 1000)
        doc, diags = load_document(path, path.name)
        assert doc is None and diags[0].code == "Y010"
