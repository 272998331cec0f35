"""Probe 13c (issue #33): the editor's typography quick fix on a sheet deck, a PO file naming
a codec that is no text encoding, a rules text reported once however many aliases print it."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.test_hardening_probe9_lows_files import DECK, _po
from tests.test_hardening_s44_content import _sheet_game


class _SameFolder:
    """The LSP's mirror for a game read in place (the mirror is the game folder)."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    def rel(self, real: Path) -> str | None:
        try:
            return real.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return None

    rel_of_mirrored = rel


def _code_actions(root: Path, path: Path, text: str) -> list:
    from toolkit.content.game import load_game
    from toolkit.lsp.actions import actions

    state = SimpleNamespace(game=load_game(root), mirror=_SameFolder(root))
    return actions(state, path.as_uri(), text, [])


def test_the_editors_typography_fix_on_a_csv_deck_fixes_the_cell_never_empties_it(game, run_cli):
    # the quick fix replaced the whole CSV with "": the fixer's sheet patches carry their
    # new bytes in `outputs` and an empty `new_text`, which the LSP took for the new text
    sheet, _cell = _sheet_game(game, run_cli)
    text = sheet.read_text(encoding="utf-8")
    fixes = [a for a in _code_actions(game, sheet, text) if a.title.startswith("Fix typography")]
    for fix in fixes:
        for edits in fix.edit.changes.values():
            assert all(edit.new_text for edit in edits)
    (fix,) = fixes
    ((uri, (edit,)),) = fix.edit.changes.items()
    assert uri == sheet.as_uri()
    assert edit.new_text == text.replace("Gagnez vite !", "Gagnez vite\u202f!")


@pytest.mark.parametrize("codec", ["base64", "hex", "rot13", "zlib_codec"])
def test_a_po_file_naming_a_codec_that_is_no_text_encoding_is_refused_at_its_header(
    game, run_cli, tmp_path, codec
):
    # `data.decode('base64')` raised LookupError ("not a text encoding"): a traceback
    po = _po(game, "en", "Run {steps} spaces.", tmp_path)
    text = po.read_text(encoding="utf-8")
    po.write_text(text.replace("charset=UTF-8", f"charset={codec}"), encoding="utf-8")
    line = next(n for n, x in enumerate(text.splitlines(), 1) if "charset=" in x)
    before = (game / DECK).read_bytes()
    result = run_cli("i18n", "import", str(po), "--game", str(game))
    # exit 2, as for the file's other refusals (a byte not valid in its charset, too large)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    (message,) = [x for x in result.stderr.splitlines() if "no text encoding" in x]
    assert f"en.po:{line}: the header's charset '{codec}'" in message
    assert (game / DECK).read_bytes() == before


def test_a_rules_text_in_none_of_the_games_languages_is_reported_once_however_aliased(
    game, run_cli
):
    # T003 was given once per path to the text: a rules tree of aliases repeated it once per
    # alias path (probe: 74,898 findings at two places for a 6-line tree)
    import json

    manifest = game / "game.yaml"
    yaml = manifest.read_text(encoding="utf-8")
    tree = (
        "  l0: &a0 {de: Hallo, it: Ciao}\n"
        "  l1: &a1 [*a0, *a0, *a0]\n"
        "  l2: &a2 [*a1, *a1, *a1]\n"
        "  l3: [*a2, *a2, *a2]\n"
    )
    manifest.write_text(yaml.replace("  target: 10\n", "  target: 10\n" + tree))
    line = manifest.read_text(encoding="utf-8").splitlines().index(tree.splitlines()[0]) + 1
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    found = [d for d in json.loads(result.output) if d["code"] == "T003"]
    assert sorted((d["line"], d["col"]) for d in found) == [(line, 12), (line, 23)], found


def test_i18n_fix_names_the_keys_file_it_fixes_a_sheet_decks_name_in(game, run_cli):
    # a deck name's fix goes into the keys file, but the diff named it
    # `decks/cards.csv:name/fr` and --write said "fixed … in decks/cards.csv" only
    _sheet_game(game, run_cli)
    keys = game / "decks" / "cards.deck.yaml"
    text = keys.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.strip().startswith("fr:"))
    keys.write_text(text.replace(line, line.split(":")[0] + ': "Cartes Action !"', 1))
    row = text.splitlines().index(line) + 1
    shown = run_cli("i18n", "fix", str(game))
    assert f"decks/cards.deck.yaml:{row}:" in shown.output, shown.output
    assert "decks/cards.csv:name/fr" not in shown.output
    written = run_cli("i18n", "fix", str(game), "--write")
    assert written.exit_code == 0
    assert "decks/cards.deck.yaml" in written.stderr, written.stderr
    assert "Cartes Action\u202f!" in keys.read_text(encoding="utf-8")
