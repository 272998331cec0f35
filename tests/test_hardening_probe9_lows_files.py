"""The Lows of the ninth probe of the file system (issue #33, /work/notes/probe9f.md): files
read again by name after their check (a PO file, a game file being edited, a picture), a
picture too large for the build that validate let through, and a cache entry's temporary
file a Ctrl-C left."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from toolkit.content.game import load_game
from toolkit.i18n.po import export_po

DECK = "decks/cards.yaml"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    root = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", root)
    return root


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
