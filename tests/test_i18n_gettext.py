"""gettext the way translators' tools expect: fuzzy and obsolete entries skipped, placeholders
flagged (python-brace-format) and checked on import, refusals at their PO line, POT
templates, real dates, new languages, rulebook Markdown and layout labels in the PO file."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import polib
import pytest

from tests.conftest import FIXTURES, REPO, copy_game
from toolkit.content.game import load_game
from toolkit.i18n.markdown_units import rebuild, segment
from toolkit.i18n.po import export_po, export_pot, import_po

DECK = "decks/cards.yaml"
SPRINT = "decks/cards.yaml:cards[sprint].text"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    root = tmp_path / "game"
    copy_game(FIXTURES / "base", root)
    return root


@pytest.fixture
def whisky(tmp_path: Path) -> Path:
    root = tmp_path / "whisky-game"
    copy_game(REPO / "content" / "whisky-game", root)
    return root


def _save(po: polib.POFile, path: Path) -> Path:
    path.write_text(str(po) + "\n", encoding="utf-8")
    return path


def _msgstr_line(path: Path, msgctxt: str) -> int:
    lines = path.read_text(encoding="utf-8").split("\n")
    at = lines.index(f'msgctxt "{msgctxt}"')
    return next(i for i in range(at, len(lines)) if lines[i].startswith("msgstr")) + 1


def _texts(game: Path) -> dict[str, str]:
    return {e.msgctxt: e.msgstr for e in export_po(load_game(game), "en")}


def test_fuzzy_broken_and_good_entries_only_the_good_one_applies(game, run_cli, tmp_path):
    po = export_po(load_game(game), "en")
    entries = {e.msgctxt: e for e in po}
    texts = [k for k, e in entries.items() if "{" not in e.msgid and k.endswith(".text")]
    fuzzy, good = texts[0], texts[1]
    entries[fuzzy].msgstr = "Not ready yet."
    entries[fuzzy].flags.append("fuzzy")
    entries[SPRINT].msgstr = "Run {stpes} spaces."
    entries[good].msgstr = "A checked translation."
    path = _save(polib.pofile(str(po)), tmp_path / "en.po")
    before = _texts(game)
    result = run_cli("i18n", "import", str(path), "--game", str(game))
    assert result.exit_code == 1
    err = result.stderr
    assert f"en.po:{_msgstr_line(path, SPRINT)}: refused {SPRINT}: " in err
    assert "lacks {steps} and adds {stpes}" in err
    assert f"en.po:{_msgstr_line(path, fuzzy)}: skipped {fuzzy}: fuzzy" in err
    assert f"en.po:{_msgstr_line(path, good)}: applied {good}" in err
    assert "1 applied" in err and "1 refused" in err and "1 skipped" in err
    after = _texts(game)
    assert {k for k in after if after[k] != before[k]} == {good}
    assert after[good] == "A checked translation."


def test_obsolete_entries_are_listed_as_skipped_and_never_applied(game, run_cli, tmp_path):
    po = export_po(load_game(game), "en")
    entry = next(e for e in po if e.msgctxt == SPRINT)
    entry.msgstr = "Run {steps} spaces."
    entry.obsolete = True
    path = _save(po, tmp_path / "en.po")
    result = run_cli("i18n", "import", str(path), "--game", str(game))
    assert result.exit_code == 0, result.stderr
    assert "skipped" in result.stderr and "obsolete" in result.stderr
    assert "Run {steps}" not in (game / DECK).read_text(encoding="utf-8")


def test_placeholders_are_flagged_and_msgfmt_rejects_a_broken_one(game, tmp_path):
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("no msgfmt (apt-get install gettext)")
    po = export_po(load_game(game), "en")
    entry = next(e for e in po if e.msgctxt == SPRINT)
    assert "python-brace-format" in entry.flags
    plain = [e for e in po if "{" not in e.msgid]
    assert plain and all("python-brace-format" not in e.flags for e in plain)
    good = _save(po, tmp_path / "good.po")
    check = [msgfmt, "-c", "-o", "/dev/null"]
    assert subprocess.run([*check, str(good)], capture_output=True).returncode == 0
    entry.msgstr = "Run {stpes} spaces."
    bad = _save(po, tmp_path / "bad.po")
    run = subprocess.run([*check, str(bad)], capture_output=True, text=True)
    assert run.returncode != 0 and "'steps'" in run.stderr


def test_a_changed_source_and_an_unknown_entry_are_refused_at_their_lines(game, run_cli, tmp_path):
    po = export_po(load_game(game), "en")
    entry = next(e for e in po if e.msgctxt == SPRINT)
    entry.msgstr = "Run {steps} spaces."
    entry.msgid = "Avancez vite de {steps} cases."
    po.append(polib.POEntry(msgctxt="decks/cards.yaml:cards[gone].text", msgid="x", msgstr="y"))
    path = _save(po, tmp_path / "en.po")
    result = run_cli("i18n", "import", str(path), "--game", str(game))
    assert result.exit_code == 1
    assert f"en.po:{_msgstr_line(path, SPRINT)}: refused {SPRINT}: the source text" in result.stderr
    gone = _msgstr_line(path, "decks/cards.yaml:cards[gone].text")
    assert f"en.po:{gone}: refused decks/cards.yaml:cards[gone].text: unknown" in result.stderr


def test_plural_forms_are_refused_at_their_line_not_counted_untranslated(game, run_cli, tmp_path):
    """msgid_plural/msgstr[n] on a plain text (probe 17b L9): it was "1 untranslated", the
    translator's forms dropped without a line or a reason."""
    po = export_po(load_game(game), "en")
    entry = next(e for e in po if e.msgctxt == SPRINT)
    entry.msgid_plural = entry.msgid
    entry.msgstr_plural = {0: "Run {steps} space.", 1: "Run {steps} spaces."}
    fuzzy = next(e for e in po if e.msgctxt != SPRINT and e.msgctxt.endswith(".text"))
    fuzzy.msgid_plural = fuzzy.msgid
    fuzzy.msgstr_plural = {0: "Not ready.", 1: "Not ready."}
    fuzzy.flags.append("fuzzy")
    path = _save(po, tmp_path / "en.po")
    before = (game / DECK).read_bytes()
    result = run_cli("i18n", "import", str(path), "--game", str(game))
    assert result.exit_code == 1
    err = result.stderr
    line = _msgstr_line(path, SPRINT)
    assert f"en.po:{line}: refused {SPRINT}: msgid_plural and msgstr[n] are not read" in err
    assert "has no plurals" in err and 'one msgstr "' in err
    assert f"en.po:{_msgstr_line(path, fuzzy.msgctxt)}: skipped {fuzzy.msgctxt}: fuzzy" in err
    assert "1 refused" in err and "1 skipped" in err and "0 untranslated" in err
    assert (game / DECK).read_bytes() == before


def test_dry_run_says_what_would_apply_and_writes_nothing(game, run_cli, tmp_path):
    po = export_po(load_game(game), "en")
    next(e for e in po if e.msgctxt == SPRINT).msgstr = "Run {steps} spaces."
    path = _save(po, tmp_path / "en.po")
    before = (game / DECK).read_bytes()
    result = run_cli("i18n", "import", str(path), "--game", str(game), "--dry-run")
    assert result.exit_code == 0
    assert f"would apply {SPRINT}" in result.stderr and "1 would apply" in result.stderr
    assert " applied" not in result.stderr
    assert (game / DECK).read_bytes() == before


def test_the_template_has_every_text_and_no_translation(game, run_cli):
    pot = export_pot(load_game(game))
    po = export_po(load_game(game), "en")
    assert [e.msgctxt for e in pot] == [e.msgctxt for e in po]
    assert all(e.msgstr == "" for e in pot) and any(e.msgstr for e in po)
    assert pot.metadata["Language"] == "" and pot.metadata_is_fuzzy
    result = run_cli("i18n", "export", str(game), "--template")
    assert result.exit_code == 0 and 'msgstr ""\n\n' in result.stdout


def test_the_source_language_is_refused_with_a_pointer_to_the_template(game, run_cli):
    result = run_cli("i18n", "export", str(game), "--lang", "fr")
    assert result.exit_code == 2
    assert "source language" in result.stderr and "--template" in result.stderr


def test_header_dates_are_the_contents_and_reproducible(game, monkeypatch):
    import os

    stamp = 1_700_000_000  # 2023-11-14 22:13 UTC
    for path in game.rglob("*.yaml"):
        os.utime(path, (stamp, stamp))
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    po = export_po(load_game(game), "en")
    assert po.metadata["PO-Revision-Date"] == "2023-11-14 22:13+0000"
    assert po.metadata["POT-Creation-Date"] == "2023-11-14 22:13+0000"
    assert str(export_po(load_game(game), "en")) == str(po)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")
    assert export_po(load_game(game), "en").metadata["PO-Revision-Date"] == "1970-01-02 00:00+0000"


def test_add_language_starts_it_and_validate_asks_only_for_translations(tmp_path, run_cli):
    assert run_cli("new", "my-game", "--into", str(tmp_path), "--lang", "fr,es").exit_code == 0
    root = tmp_path / "my-game"
    out = tmp_path / "po"
    out.mkdir()
    result = run_cli("i18n", "add-language", "de", str(root), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    manifest = (root / "game.yaml").read_text(encoding="utf-8")
    assert "  - fr\n  - es\n  - de\n" in manifest
    po = polib.pofile(str(out / "de.po"))
    assert po.metadata["Language"] == "de" and po.percent_translated() == 0
    kinds = {e.msgctxt.split(":", 1)[0] for e in po}
    assert {"game.yaml", "glossary.yaml", "decks/cards.yaml", "rulebook/fr.md"} <= kinds
    assert (out / "my-game.pot").is_file()
    found = json.loads(run_cli("validate", str(root), "--format", "json").stdout)
    assert found and {d["code"] for d in found} == {"T001"}
    from toolkit.i18n.status import status

    rows = {(Path(r.file).name, r.lang): r for r in status(load_game(root))}
    assert rows[("fr.md", "de")].texts > 0 and rows[("fr.md", "de")].translated == 0
    assert rows[("fr.md", "es")].coverage == 1.0
    again = run_cli("i18n", "add-language", "de", str(root), "--out", str(out))
    assert again.exit_code == 2 and "already has de" in again.stderr
    # the whole language through the PO file: texts, glossary and a new rulebook
    for entry in po:
        entry.msgstr = entry.msgid.replace("Marquez", "Punkte:")
    po.save(str(out / "de.po"))
    result = run_cli("i18n", "import", str(out / "de.po"), "--game", str(root))
    assert result.exit_code == 0, result.stderr
    assert (root / "rulebook" / "de.md").is_file()
    assert "    de: rulebook/de.md" in (root / "game.yaml").read_text(encoding="utf-8")
    found = json.loads(run_cli("validate", str(root), "--format", "json").stdout)
    assert not [d for d in found if d["severity"] == "error"]


def test_a_language_babel_does_not_know_is_refused(game, run_cli):
    result = run_cli("i18n", "add-language", "qqq", str(game))
    assert result.exit_code == 2 and "knows no language" in result.stderr


def test_the_spanish_rulebook_is_translated_entirely_through_the_po_file(whisky, run_cli, tmp_path):
    from toolkit.render.rulebook import render_rulebook

    es = whisky / "rulebook" / "es.md"
    original = es.read_text(encoding="utf-8")
    po = export_po(load_game(whisky), "es")
    rulebook = [e for e in po if e.msgctxt.startswith("rulebook/fr.md:")]
    assert len(rulebook) > 80 and all(e.msgstr for e in rulebook)
    path = _save(po, tmp_path / "es.po")
    es.write_text("# Borrador\n\nNada todavía.\n", encoding="utf-8")  # not the source's shape
    result = run_cli("i18n", "import", str(path), "--game", str(whisky))
    assert result.exit_code == 0, result.stderr
    rebuilt = es.read_text(encoding="utf-8")
    assert [s.text for s in segment(rebuilt)] == [s.text for s in segment(original)]
    assert render_rulebook(load_game(whisky), "es").startswith(b"%PDF")


def test_an_incomplete_rulebook_is_held_back_and_the_rest_applies(whisky, tmp_path):
    es = whisky / "rulebook" / "es.md"
    es.write_text("# Borrador\n", encoding="utf-8")
    po = export_po(load_game(whisky), "es")
    entries = [e for e in po if e.msgctxt.startswith("rulebook/fr.md:")]
    assert all(not e.msgstr for e in entries)  # the draft does not follow fr.md
    entries[3].msgstr = entries[3].msgid
    card = next(e for e in po if e.msgctxt == "decks/specials.yaml:cards[faker].text")
    card.msgstr = "Es falsa: devuelve {count} botellas."
    result, texts = import_po(load_game(whisky), po, "es")
    assert result.applied == ["decks/specials.yaml:cards[faker].text"]
    assert [o.key for o in result.held] == [entries[3].msgctxt]
    assert es not in texts and any("es.md not written" in n for n in result.notes)


def test_a_rulebook_unit_must_keep_its_jinja_code(whisky, run_cli, tmp_path):
    po = export_po(load_game(whisky), "es")
    entry = next(e for e in po if "{{ rules.goal_points }}" in e.msgid and e.msgctxt[0] == "r")
    entry.msgstr = entry.msgstr.replace("{{ rules.goal_points }}", "25")
    path = _save(po, tmp_path / "es.po")
    before = (whisky / "rulebook" / "es.md").read_bytes()
    result = run_cli("i18n", "import", str(path), "--game", str(whisky))
    assert result.exit_code == 1
    assert f"es.po:{_msgstr_line(path, entry.msgctxt)}: refused {entry.msgctxt}" in result.stderr
    assert "lacks {{ rules.goal_points }}" in result.stderr
    assert (whisky / "rulebook" / "es.md").read_bytes() == before


def test_layout_labels_are_in_the_po_file_and_come_back(whisky, run_cli, tmp_path):
    po = export_po(load_game(whisky), "en")
    entry = next(e for e in po if e.msgctxt == "layouts/wg-special.yaml:labels.draw")
    assert entry.msgid == "À jouer dès la pioche" and entry.msgstr == "Play when drawn"
    entry.msgstr = "Play it when drawn"
    path = _save(po, tmp_path / "en.po")
    result = run_cli("i18n", "import", str(path), "--game", str(whisky))
    assert result.exit_code == 0, result.stderr
    layout = (whisky / "layouts" / "wg-special.yaml").read_text(encoding="utf-8")
    assert 'en: "Play it when drawn"' in layout or "en: Play it when drawn" in layout
    assert "Play when drawn" not in layout


MARKDOWN = """# {{ game.title }}

{% set n = rules.goal -%}
{% set how = {'a': 'le plus de cartes', 'b': 'equalto'} -%}
## Mise en place

Un paragraphe sur
deux lignes avec {{ n }} points.

- Un élément **gras**
- Un autre, {% if x %}rare{% endif %}
  qui continue

| Objet | Points |
|---|---|
| Bouteille | {{ bv | join(' | ') }} |

> Une citation.
"""


def test_markdown_is_cut_into_headings_paragraphs_items_and_cells():
    segments = segment(MARKDOWN)
    units = [(s.kind, s.text) for s in segments if s.translatable]
    assert units == [
        ("string", "le plus de cartes"),
        ("heading", "Mise en place"),
        ("paragraph", "Un paragraphe sur\ndeux lignes avec {{ n }} points."),
        ("paragraph", "Un élément **gras**"),
        ("paragraph", "Un autre, {% if x %}rare\nqui continue"),  # {% endif %} stays outside
        ("cell", "Objet"),
        ("cell", "Points"),
        ("cell", "Bouteille"),
        ("paragraph", "Une citation."),
    ]
    assert rebuild(MARKDOWN, segments, [None] * len(segments)) == MARKDOWN
    new = [s.text.upper() if s.translatable else None for s in segments]
    out = rebuild(MARKDOWN, segments, new)
    assert "  QUI CONTINUE\n" in out and "| BOUTEILLE | {{ bv | join(' | ') }} |" in out
    kept = "{% set how = {'a': 'LE PLUS DE CARTES', 'b': 'equalto'} -%}\n## MISE EN PLACE"
    assert "{% set n = rules.goal -%}\n" + kept in out
    quoted = rebuild(MARKDOWN, segments, ["l'un" if s.kind == "string" else None for s in segments])
    assert "{'a': 'l\\'un', 'b'" in quoted


@pytest.mark.parametrize("game_id", ["whisky-game", "drinking-heroes", "muckle-stoater", "tokaido"])
def test_every_bundled_rulebook_rebuilds_byte_for_byte(game_id):
    text = (REPO / "content" / game_id / "rulebook" / "fr.md").read_text(encoding="utf-8")
    segments = segment(text)
    assert rebuild(text, segments, [s.text for s in segments]) == text


@pytest.mark.parametrize("game_id", ["whisky-game", "drinking-heroes", "muckle-stoater", "tokaido"])
def test_every_bundled_spanish_rulebook_is_in_its_po_file(game_id):
    """Each translation follows its source unit for unit (texts inside `{% set %}` too), so
    the PO file starts with the rulebook already translated."""
    po = export_po(load_game(REPO / "content" / game_id), "es")
    rulebook = [e for e in po if e.msgctxt.startswith("rulebook/")]
    assert rulebook and all(e.msgstr for e in rulebook)
    assert len({e.msgctxt for e in po}) == len(po)


def test_a_crlf_rulebook_stays_crlf_and_only_the_changed_unit_moves(whisky, run_cli, tmp_path):
    es = whisky / "rulebook" / "es.md"
    es.write_bytes(es.read_bytes().replace(b"\n", b"\r\n"))
    before = es.read_bytes().split(b"\r\n")
    po = export_po(load_game(whisky), "es")
    entry = next(e for e in po if e.msgctxt == "rulebook/fr.md:mise-en-place.0")
    entry.msgstr = "Antes de empezar"
    path = _save(po, tmp_path / "es.po")
    result = run_cli("i18n", "import", str(path), "--game", str(whisky))
    assert result.exit_code == 0, result.stderr
    after = es.read_bytes()
    assert b"\n" not in after.replace(b"\r\n", b"")
    changed = [(a, b) for a, b in zip(before, after.split(b"\r\n"), strict=True) if a != b]
    assert changed == [("## Preparación".encode(), b"## Antes de empezar")]
