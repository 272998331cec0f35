"""Fourth probe of issue 33's surfaces, the file system: what a hostile game folder could
still make Playset read, write, or wait on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

# --- sheets: XML the prescan and the cell editor read in linear time ----------------------

_SCANS = r"""
from toolkit.content.sheets import edit, prescan, workbook

n = 300_000
prescan.scan_xlsx(b"<f/>" + b"<c>" * n)
prescan.scan_xlsx(b"<row " * n)
prescan.scan_ods(b"<table:table>" + b"<table:table-row>" * n + b"</table:table>")
prescan.scan_ods(b"<table:table><table:table-row>" + b"<table:table-cell>" * n)
prescan.scan_ods(b"<table:table " * n)
for pattern in (workbook._SHEET_TAG, workbook._RELATIONSHIP, workbook._TABLE_NAME):
    pattern.search(b"<sheet <Relationship <table:table " * n)
edit._edit_xlsx(b'<row r="1">' + b"<c " * n + b"</row>", {(1, 1): "x"})
try:
    edit._edit_ods(b"<table:table>" + b"<table:table-row>" * n, {(1, 1): "x"})
except edit.CellEditRefused:
    pass
print("done")
"""


def test_sheet_xml_of_many_unclosed_tags_is_scanned_in_linear_time():
    # `(.*?)</c>` (and `[^>]*` before a `>` that never comes) looked for the end from every
    # unclosed start tag to the end of the XML: 300,000 `<c>` in a 6 kB XLSX took hours in
    # validate (8,000 took 3.7 s); each scan below now takes well under a second. The
    # limit is no measure of speed: it tells a scan that ends from one that does not.
    done = subprocess.run(
        [sys.executable, "-c", _SCANS],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.stdout.strip() == "done", done.stderr


# --- sheet decks: the keys file beside the sheet ------------------------------------------


def _sheet_game(tmp_path: Path, run_cli) -> Path:
    """A `playset new` game whose deck is a CSV sheet with its keys file beside it."""
    assert run_cli("new", "sheety", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "sheety"
    deck = game / "decks" / "cards.yaml"
    assert run_cli("convert", str(deck), "--to", "csv").exit_code == 0
    deck.unlink()
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("decks/cards.yaml", "decks/cards.csv"))
    return game


def test_a_keys_file_linked_outside_the_game_is_neither_read_nor_written(
    tmp_path, run_cli, monkeypatch
):
    # the sheet was containment-checked, its keys file was not: an outside file's text was
    # printed on every card, and `i18n import` rewrote the outside file through the link
    import json

    game = _sheet_game(tmp_path, run_cli)
    keys = game / "decks" / "cards.deck.yaml"
    outside = tmp_path / "private.yaml"
    outside.write_text(keys.read_text().replace("Action cards", "SECRETWORD"))
    keys.unlink()
    keys.symlink_to(outside)
    before = outside.read_bytes()
    monkeypatch.chdir(game)
    result = run_cli("validate", "--format", "json")
    assert result.exit_code == 2  # a file that cannot be read (Y010)
    assert "SECRETWORD" not in result.stdout
    found = {(d["file"], d["code"]): d["message"] for d in json.loads(result.stdout)}
    assert "leads outside the game folder" in found["decks/cards.deck.yaml", "Y010"]
    po = tmp_path / "fr.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgctxt "decks/cards.csv:name"\nmsgid "SECRETWORD"\nmsgstr "WRITTEN"\n'
    )
    assert run_cli("i18n", "import", str(po), "--game", str(game)).exit_code == 1
    assert outside.read_bytes() == before


def test_convert_writes_through_no_link_beside_the_deck_and_waits_on_no_fifo(
    tmp_path, run_cli, monkeypatch
):
    import os

    assert run_cli("new", "conv", "--into", str(tmp_path)).exit_code == 0
    decks = tmp_path / "conv" / "decks"
    monkeypatch.chdir(decks)
    outside = tmp_path / "notes.txt"
    outside.write_text("mine\n")
    (decks / "cards.deck.yaml").symlink_to(outside)
    result = run_cli("convert", "cards.yaml", "--to", "csv", "--force")
    assert result.exit_code == 1 and "symbolic link" in result.output
    assert outside.read_text() == "mine\n"
    assert not (decks / "cards.csv").exists()  # nothing written: the whole change refused
    (decks / "cards.deck.yaml").unlink()
    os.mkfifo(decks / "cards.csv")  # compared with what would be written: never opened
    result = run_cli("convert", "cards.yaml", "--to", "csv")
    assert result.exit_code == 1 and "already exists" in result.output
    result = run_cli("convert", "cards.yaml", "--to", "csv", "--force")
    # beside the deck (a folder the game brought) a FIFO is refused, never written into
    assert result.exit_code == 1 and "it is a FIFO, not a regular file" in result.output
    assert not (decks / "cards.deck.yaml").exists()  # refused before any file was replaced


# --- FIFOs where a file is expected: never opened to wait for a writer ---------------------


class _Writer:
    """A thread that opens a FIFO for writing (which waits for a reader) and writes `text`:
    code that opens the FIFO to read gets the text; `close` frees the thread either way."""

    def __init__(self, fifo: Path, text: str) -> None:
        import threading

        self.fifo = fifo
        self.thread = threading.Thread(target=self._write, args=(text,), daemon=True)
        self.thread.start()

    def _write(self, text: str) -> None:
        # code that opens the FIFO only to look at it (O_NONBLOCK) and closes it at once
        # frees the open; the write then finds no reader: what the code did, not a failure
        try:
            with open(self.fifo, "w") as handle:
                handle.write(text)
        except BrokenPipeError:
            pass

    def close(self) -> None:
        import os

        fd = os.open(self.fifo, os.O_RDONLY | os.O_NONBLOCK)  # the reader it waits for
        self.thread.join(10)
        os.close(fd)


def test_a_finding_on_a_fifo_reads_no_suppression_comment_from_it(tmp_path):
    # a game.yaml that is a FIFO hung validate and build for ever: the finding's line was
    # read for a `# playset: ignore[...]` comment with a blocking open of the FIFO
    import os

    from toolkit.content.game import R_NO_MANIFEST
    from toolkit.diagnostics import Span
    from toolkit.diagnostics.suppress import unsuppressed

    fifo = tmp_path / "game.yaml"
    os.mkfifo(fifo)
    finding = R_NO_MANIFEST.at(str(fifo), Span(1, 1), "no game.yaml in this folder")
    writer = _Writer(fifo, "id: x  # playset: ignore[R]\n")
    try:
        assert unsuppressed([finding], inside=[tmp_path]) == [finding]
    finally:
        writer.close()


def test_the_preview_fingerprints_no_fifo_and_no_huge_file_by_reading_it(tmp_path):
    # an icon that is a FIFO hung the preview's start (its fingerprint read it); a 3 GB
    # sparse icon was read whole (a MemoryError under a 2.5 GB limit)
    import os

    from toolkit.render import deps

    fifo = tmp_path / "evil.svg"
    os.mkfifo(fifo)
    writer = _Writer(fifo, "<svg/>")
    try:
        assert deps._file(fifo) == "missing"
        assert deps.reads(fifo, "card") is True  # unreadable: assume it does
    finally:
        writer.close()
    big = tmp_path / "big.svg"
    with open(big, "wb") as handle:
        handle.truncate(deps.MAX_READ_BYTES + 1)  # sparse: nothing on disk
    assert deps._file(big).startswith("large:")
    os.truncate(big, deps.MAX_READ_BYTES + 2)
    assert deps._file(big) != deps._file(fifo)


# --- game.yaml and the import journal, linked where the game folder does not reach -------


def test_a_game_yaml_linked_outside_the_game_is_not_read(tmp_path, run_cli, monkeypatch):
    assert run_cli("new", "linked", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "linked"
    outside = tmp_path / "private.yaml"
    outside.write_text((game / "game.yaml").read_text() + "secretword_key: 1\n")
    (game / "game.yaml").unlink()
    (game / "game.yaml").symlink_to(outside)
    monkeypatch.chdir(game)
    result = run_cli("validate", "--format", "json")
    assert result.exit_code == 2
    assert "secretword" not in result.stdout
    assert "leads outside the game folder" in result.stdout


def _two_file_po(run_cli, game: Path, tmp_path: Path) -> Path:
    """A French PO file that changes a deck text and a rulebook heading of `game`."""
    import polib

    po_path = tmp_path / "fr.po"
    assert (
        run_cli("i18n", "export", str(game), "--lang", "fr", "--out", str(po_path)).exit_code == 0
    )
    po = polib.pofile(str(po_path))
    changed = set()
    for entry in po:
        where = entry.msgctxt.split(":", 1)[0]
        if where not in changed and where in ("decks/cards.yaml", "rulebook/en.md"):
            entry.msgstr = "NOUVEAU " + entry.msgstr
            changed.add(where)
    assert len(changed) == 2
    po.save(str(po_path))
    return po_path


def test_an_import_journal_linked_to_a_users_file_is_not_written_through(tmp_path, run_cli):
    # the journal (written when an import changes two files or more) followed a link the
    # game brought: the user's file was replaced by the list of staged files
    assert run_cli("new", "journal", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "journal"
    po_path = _two_file_po(run_cli, game, tmp_path)
    mine = tmp_path / "notes.txt"
    mine.write_text("mine\n")
    (game / ".playset-journal.json").symlink_to(mine)
    before = {p: p.read_bytes() for p in (game / "decks").iterdir()}
    result = run_cli("i18n", "import", str(po_path), "--game", str(game))
    assert result.exit_code == 1 and "symbolic link" in result.output
    assert mine.read_text() == "mine\n"
    assert {p: p.read_bytes() for p in (game / "decks").iterdir()} == before  # none applied


def test_an_import_beside_a_journal_folder_says_what_it_did(tmp_path, run_cli):
    # a folder named as the journal: a one-file import was applied, then said
    # "error: cannot write .playset-journal.json: Is a directory" and exited 1
    assert run_cli("new", "jfolder", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "jfolder"
    (game / ".playset-journal.json").mkdir()
    po_path = tmp_path / "fr.po"
    assert (
        run_cli("i18n", "export", str(game), "--lang", "fr", "--out", str(po_path)).exit_code == 0
    )
    po_path.write_text(po_path.read_text().replace('msgstr "Matériel"', 'msgstr "Le matériel"'))
    result = run_cli("i18n", "import", str(po_path), "--game", str(game))
    assert result.exit_code == 0, result.output
    assert "Le matériel" in (game / "rulebook" / "fr.md").read_text()
    assert (game / ".playset-journal.json").is_dir()


# --- raster pictures: their pixels bounded before anything decodes them --------------------


def _png_header(path: Path, width: int, height: int) -> None:
    """A PNG that claims `width`×`height` pixels (only its header is read before the limit)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0"))
    )


def test_card_art_and_a_cover_of_too_many_pixels_are_refused_undecoded(tmp_path, run_cli):
    # a 530 kB PNG of 13,000 × 13,000 took 1.7 GB and 23 s per build (reportlab decodes it
    # whole) and validate 0.7 GB, with PIL's DecompressionBombWarning printed raw
    import shutil

    from tests.conftest import FIXTURES

    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    _png_header(game / "art.png", 12_000, 12_000)  # 144 M pixels: PIL only warns
    deck = game / "decks" / "cards.yaml"
    deck.write_text(
        deck.read_text().replace("    copies: 2", "    copies: 2\n    image: art.png", 1)
    )
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text() + "style:\n  cover: art.png\n")
    result = run_cli("validate", str(game))
    assert result.exit_code == 1
    limit = "12000×12000 px is more than the 40,000,000 pixels a picture may have"
    assert result.stdout.count(limit) == 2, result.stdout  # the card's image and the cover
    assert "game.yaml" in result.stdout
    assert "DecompressionBomb" not in result.output
    from toolkit.content.game import load_game
    from toolkit.render.rulebook import cover_picture

    assert cover_picture(load_game(game), (595.0, 842.0)) is None


# --- the editor's mirror of a game folder on another file system --------------------------


def test_the_lsp_mirror_copies_no_fifo_and_no_huge_file_across_file_systems(tmp_path, monkeypatch):
    # hard links fail across file systems (a /tmp in memory, the game on disk): every file
    # was copied, a FIFO raised shutil's SpecialFileError (the check of every edit failed)
    # and a 1 GB sparse file became 1 GB in the /tmp in memory, in 9 s
    import errno
    import os

    from toolkit.lsp import mirror

    game = tmp_path / "game"
    game.mkdir()
    (game / "game.yaml").write_text("id: x\n")
    os.mkfifo(game / "pipe.yaml")
    with open(game / "big.bin", "wb") as handle:
        handle.truncate(65 * 1024 * 1024)  # over any file a check reads (a font: 64 MB)

    def cross_device(src: object, dst: object, **kwargs: object) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(mirror.os, "link", cross_device)
    copy = mirror.Mirror(game)
    try:
        copy.sync()
        assert (copy.path / "game.yaml").read_text() == "id: x\n"
        assert (copy.path / "pipe.yaml").is_fifo()
        big = (copy.path / "big.bin").stat()
        assert big.st_size == 65 * 1024 * 1024 and big.st_blocks * 512 < 1024 * 1024
    finally:
        copy.close()


def test_an_unlisted_translation_too_large_or_linked_out_is_left_unread(tmp_path, run_cli):
    # a rulebook/fr.md game.yaml does not list was read to align it: over the size limit a
    # SegmentError traceback, through a link the outside file was read
    assert run_cli("new", "unlisted", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "unlisted"
    po_path = tmp_path / "fr.po"
    assert (
        run_cli("i18n", "export", str(game), "--lang", "fr", "--out", str(po_path)).exit_code == 0
    )
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("    fr: rulebook/fr.md\n", ""))
    target = game / "rulebook" / "fr.md"
    with open(target, "wb") as handle:
        handle.truncate(3 * 1024 * 1024)  # sparse, over the 2 MB limit of a rulebook
    result = run_cli("i18n", "import", str(po_path), "--game", str(game))
    assert "fr.md is not read (fr.md:1: the file is larger than the limit" in result.output
    assert target.stat().st_size == 3 * 1024 * 1024
    target.unlink()
    outside = tmp_path / "notes.md"
    outside.write_text("# Notes\n")
    target.symlink_to(outside)
    result = run_cli("i18n", "import", str(po_path), "--game", str(game))
    assert "fr.md is not read (fr.md: it leads outside the game folder)" in result.output
    assert outside.read_text() == "# Notes\n"


def test_a_workbook_switched_to_a_link_after_the_check_is_not_read(tmp_path, run_cli, monkeypatch):
    # an XLSX or ODS deck was opened by path five times (zip check, members, calamine):
    # a link switched after the containment check was read; now it is read once, inside
    import json

    from toolkit.content import game as game_module

    game = _sheet_game(tmp_path, run_cli)
    decks = game / "decks"
    for fmt in ("xlsx", "ods"):
        sheet = decks / f"cards.{fmt}"
        assert run_cli("convert", str(decks / "cards.csv"), "--to", fmt).exit_code == 0
        outside = tmp_path / f"private.{fmt}"
        sheet.rename(outside)
        sheet.symlink_to(outside)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("decks/cards.csv", "decks/cards.xlsx"))
    monkeypatch.setattr(game_module, "_inside", lambda root, rel: root / rel)  # check passed
    monkeypatch.chdir(game)
    for fmt in ("xlsx", "ods"):
        text = manifest.read_text().replace("cards.xlsx", f"cards.{fmt}")
        manifest.write_text(text.replace("cards.ods", f"cards.{fmt}"))
        result = run_cli("validate", "--format", "json")
        found = {(d["file"], d["code"]): d["message"] for d in json.loads(result.stdout)}
        assert "leads outside the game folder" in found[f"decks/cards.{fmt}", "Y010"]


# --- a game folder holding deeply nested folders -------------------------------------------


def _nest(folder: Path, depth: int) -> Path:
    """`depth` folders one inside the other under `folder` (made one at a time: os.makedirs
    recurses too); the deepest."""
    for _ in range(depth):
        folder = folder / "a"
        folder.mkdir()
    return folder


def _unnest(deepest: Path, depth: int) -> None:
    for _ in range(depth):  # rmdir from the bottom: shutil.rmtree recurses once per level
        deepest.rmdir()
        deepest = deepest.parent


def test_deeply_nested_folders_in_a_game_end_no_command_in_a_recursion_error(
    tmp_path, run_cli, monkeypatch
):
    # 1,400 nested folders (a path still under 4 kB) ended validate and build (the cache's
    # walk), validate --no-cache (the unlisted-file check's rglob), i18n import (the
    # journal's os.walk), the preview's icon list and the editor's mirror in RecursionError
    from toolkit.lsp.mirror import Mirror
    from toolkit.render import deps

    assert run_cli("new", "deep", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "deep"
    po_path = tmp_path / "fr.po"
    assert (
        run_cli("i18n", "export", str(game), "--lang", "fr", "--out", str(po_path)).exit_code == 0
    )
    depth = 1400
    nests = [_nest(game / "decks", depth), _nest(game / "icons", depth)]
    monkeypatch.setenv("PLAYSET_NO_CACHE", "0")
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    try:
        assert run_cli("validate", str(game)).exit_code == 0
        assert run_cli("validate", str(game), "--no-cache").exit_code == 0
        out = tmp_path / "out"
        assert run_cli("build", str(game), "--lang", "en", "--out", str(out)).exit_code == 0
        assert run_cli("i18n", "import", str(po_path), "--game", str(game)).exit_code == 0
        from toolkit.content.game import load_game

        assert [p.name for p in deps.icon_files(load_game(game))] == ["token.svg"]
        mirror = Mirror(game)
        try:
            mirror.sync()
            assert (mirror.path / "game.yaml").is_file()
        finally:
            mirror.close()
    finally:
        for deepest in nests:
            _unnest(deepest, depth)


def test_a_keys_file_linked_inside_the_game_is_no_unlisted_file(tmp_path, run_cli):
    # the keys file was recorded as listed by its path, the unlisted-file check compared
    # real paths: a keys file linked to a shared folder of the game was an R008 warning
    game = _sheet_game(tmp_path, run_cli)
    (game / "shared").mkdir()
    keys = game / "decks" / "cards.deck.yaml"
    keys.rename(game / "shared" / "cards.deck.yaml")
    keys.symlink_to(Path("..") / "shared" / "cards.deck.yaml")
    result = run_cli("validate", str(game))
    assert result.exit_code == 0 and "R008" not in result.stdout, result.output


def test_an_include_in_a_rulebook_is_refused_with_a_clear_reason(tmp_path, run_cli):
    # refused before too (the sandbox knows only its own sources), as "KeyError: '/etc/x'"
    assert run_cli("new", "incl", "--into", str(tmp_path)).exit_code == 0
    rulebook = tmp_path / "incl" / "rulebook" / "en.md"
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRETWORD\n")
    rulebook.write_text(rulebook.read_text() + f'\n{{% include "{secret}" %}}\n')
    result = run_cli("validate", str(tmp_path / "incl"))
    assert result.exit_code == 1 and "SECRETWORD" not in result.output
    assert "a text cannot include, import or extend another file" in result.stdout


def test_new_into_a_dangling_link_says_so(tmp_path, run_cli):
    # it said "cannot write …: File exists; no game written"
    (tmp_path / "gone").symlink_to(tmp_path / "nowhere")
    result = run_cli("new", "gone", "--into", str(tmp_path))
    assert result.exit_code == 2 and "is a link to nothing" in result.output  # as "exists"
    assert not (tmp_path / "nowhere").exists()


def test_a_game_layout_that_is_no_regular_file_is_reported_not_replaced(tmp_path, run_cli):
    # a FIFO (or a folder, or a dangling link) named layouts/standard.yaml was passed over
    # for the toolkit's own standard layout without a word: the game's file is the one named
    import os

    assert run_cli("new", "fifo", "--into", str(tmp_path)).exit_code == 0
    layout = tmp_path / "fifo" / "layouts" / "standard.yaml"
    for make in (os.mkfifo, os.mkdir, lambda path: os.symlink("nowhere.yaml", path)):
        layout.unlink() if not layout.is_dir() or layout.is_symlink() else layout.rmdir()
        make(layout)
        result = run_cli("validate", str(tmp_path / "fifo"))
        assert result.exit_code == 2 and "layouts/standard.yaml:1:1: Y010" in result.stdout


def test_a_fifo_named_as_an_icon_layout_or_rulebook_is_said_to_be_one(tmp_path, run_cli):
    # probe 21 L4: a FIFO `icons/q.svg` used as `:q:` was "no icon 'q'" and a FIFO rulebook
    # "no file": the name was there; now each says what it is, and the icon's use is quiet
    import os

    assert run_cli("new", "odd", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "odd"
    os.mkfifo(game / "icons" / "q.svg")
    os.mkfifo(game / "layouts" / "z.yaml")
    (game / "rulebook" / "en.md").unlink()
    os.mkfifo(game / "rulebook" / "en.md")
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text()
    deck.write_text(text.replace("en: Move {steps} spaces.", "en: Move {steps} spaces :q:."))
    result = run_cli("validate", str(game), "--no-cache")
    out = result.output
    assert result.exit_code == 2, out  # Y010, an unreadable file: exit 2 (README)
    assert "T005" not in out and "no icon 'q'" not in out, out
    assert "no file 'rulebook/en.md'" not in out, out
    assert "q.svg:1:1: P008 [error] cannot read file: it is a FIFO, not a regular file" in out
    assert "z.yaml:1:1: Y010 [error] cannot read file: it is a FIFO, not a regular file" in out
    assert "'rulebook/en.md' cannot be read: it is a FIFO, not a regular file" in out
