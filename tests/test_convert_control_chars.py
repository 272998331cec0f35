"""Probe 44 T1: a control character in a card's text, written to an XLSX or ODS sheet.

`convert --to xlsx` ended in openpyxl's IllegalCharacterError traceback on a "\\x01" that
validate accepts (a param no layout prints), and `--to ods` wrote it raw into content.xml,
a file LibreOffice cannot open. Both refuse it now, in one place, naming the card and the
field; CSV keeps it."""

from __future__ import annotations

from pathlib import Path

import pytest

DECK = """id: cards
kind: actions
cards:
  - {id: c1, name: "Hello"}
  - {id: c2, name: "Hi", params: {note: "a\\x01b"}}
"""


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_a_control_character_is_refused_for_a_sheet(tmp_path: Path, run_cli, fmt):
    deck = tmp_path / "cards.yaml"
    deck.write_text(DECK, encoding="utf-8")
    result = run_cli("convert", str(deck), "--to", fmt)
    assert result.exit_code == 1, result.output
    assert "card c2: params.note holds U+0001 '\\x01', a control character an XLSX or ODS" in (
        " ".join(result.output.split())
    )
    assert "convert to csv" in result.output
    assert not (tmp_path / f"cards.{fmt}").exists()
    assert not (tmp_path / "cards.deck.yaml").exists()  # nothing written, the keys file too


@pytest.mark.parametrize("char", ["\x1f", "\ufffe", "\x0b"])
def test_each_character_xml_forbids_is_refused(tmp_path: Path, run_cli, char):
    deck = tmp_path / "cards.yaml"
    escaped = char.encode("unicode_escape").decode("ascii")  # as YAML writes it
    deck.write_text(DECK.replace("a\\x01b", f"a{escaped}b"), encoding="utf-8")
    result = run_cli("convert", str(deck), "--to", "xlsx")
    assert result.exit_code == 1, result.output
    assert f"U+{ord(char):04X}" in result.output


def test_tabs_and_new_lines_are_written_and_csv_keeps_a_control_character(tmp_path, run_cli):
    deck = tmp_path / "cards.yaml"
    deck.write_text(DECK.replace("a\\x01b", "a\\tb\\nc"), encoding="utf-8")
    for fmt in ("xlsx", "ods"):
        assert run_cli("convert", str(deck), "--to", fmt).exit_code == 0
        back = tmp_path / f"back-{fmt}.yaml"
        sheet = tmp_path / f"cards.{fmt}"
        assert run_cli("convert", str(sheet), "--to", "yaml", "--out", str(back)).exit_code == 0
        assert "a\\tb\\nc" in back.read_text(encoding="utf-8")
    deck.write_text(DECK, encoding="utf-8")
    assert run_cli("convert", str(deck), "--to", "csv").exit_code == 0
    assert "a\x01b" in (tmp_path / "cards.csv").read_text(encoding="utf-8-sig")


@pytest.mark.parametrize("text", ["nel\x85x", "\x85", "a\x85\nb", "l\u2028s"])
def test_a_next_line_character_reads_back_from_the_written_yaml(tmp_path: Path, run_cli, text):
    # probe 44 (Low): ruamel's round-trip emitter wrote U+0085 (NEL) as a line break inside
    # single quotes, which reads back as a space: 'nel\x85  x' came back 'nel x'
    from toolkit.content.sheets.yaml_out import dump, dump_rows
    from toolkit.content.source import load_document

    written = text.encode("unicode_escape").decode("ascii")
    deck = tmp_path / "cards.yaml"
    deck.write_text(DECK.replace("a\\x01b", written), encoding="utf-8")
    assert run_cli("convert", str(deck), "--to", "csv").exit_code == 0
    back = tmp_path / "back.yaml"
    csv = tmp_path / "cards.csv"
    assert run_cli("convert", str(csv), "--to", "yaml", "--out", str(back)).exit_code == 0
    doc, _ = load_document(back, "back.yaml")
    assert doc is not None and doc.data["cards"][1]["params"]["note"] == text
    one = tmp_path / "one.yaml"
    one.write_text(dump({"es": text}), encoding="utf-8")
    doc, _ = load_document(one, "one.yaml")
    assert doc is not None and doc.data == {"es": text}
    one.write_text(dump_rows("cards", [{"id": "a", "name": text}]), encoding="utf-8")
    doc, _ = load_document(one, "one.yaml")
    assert doc is not None and doc.data == {"cards": [{"id": "a", "name": text}]}
