"""Every PO file `playset i18n export` writes for the four bundled games compiles with the
translators' own tools: GNU `msgfmt -c` and Babel (read_po, its checks, write_mo)."""

from __future__ import annotations

import io
import shutil
import subprocess
from functools import cache
from pathlib import Path

import polib
import pytest
from babel.messages.catalog import PYTHON_FORMAT
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from toolkit.content.game import bundled_games, load_game
from toolkit.i18n.po import NO_PYTHON_FLAG, export_po

GAMES = sorted(bundled_games())


@cache
def _exports(game_id: str) -> list[tuple[str, str]]:
    game = load_game(bundled_games()[game_id])
    assert game.manifest is not None
    source = game.manifest.source_language
    return [
        (lang, str(export_po(game, lang)) + "\n")
        for lang in game.manifest.languages
        if lang != source
    ]


@pytest.mark.parametrize("game_id", GAMES)
def test_exported_po_files_pass_msgfmt_check(game_id, tmp_path: Path):
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("GNU gettext's msgfmt is not installed")
    for lang, text in _exports(game_id):
        po = tmp_path / f"{game_id}-{lang}.po"
        po.write_text(text, encoding="utf-8")
        done = subprocess.run(
            [msgfmt, "-c", "-o", str(tmp_path / "out.mo"), str(po)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("game_id", GAMES)
def test_exported_po_files_compile_with_babel(game_id):
    """Babel reads each file, writes its MO, and its checks (what `pybabel compile` runs)
    pass on every entry. Babel (2.19) takes a percent sign followed by a space and a letter
    for a %-format even under `no-python-format` (python-babel/babel#35), so the source
    texts avoid `30 % de` (`30 pour cent de`, `fois sur 100`)."""
    for lang, text in _exports(game_id):
        catalog = read_po(io.StringIO(text), locale=lang)
        write_mo(io.BytesIO(), catalog)
        assert [(m.id, errors) for m, errors in catalog.check()] == [], lang


def _marked(text: str) -> set[tuple[str | None, str]]:
    return {(e.msgctxt, e.msgid) for e in polib.pofile(text) if NO_PYTHON_FLAG in e.flags}


def test_percent_texts_are_marked_no_python_format():
    """The two Whisky Game texts whose percent sign Babel reads as a format are marked, and
    no text without one is."""
    (en,) = [text for lang, text in _exports("whisky-game") if lang == "en"]
    entries = polib.pofile(en)
    marked = [e for e in entries if NO_PYTHON_FLAG in e.flags]
    assert any("de la maische d’un whiskey irlandais" in e.msgid for e in marked)
    assert all(PYTHON_FORMAT.search(e.msgid) or PYTHON_FORMAT.search(e.msgstr) for e in marked)
