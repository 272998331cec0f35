"""The Lows of the ninth probe still open in issue #33 (round ten), items 6-9: engines,
layouts, card names, sheets (items 1-5: tests/test_hardening_lows10.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolkit.scaffold.new import new_game


def _game(folder: Path, langs: tuple[str, ...] = ("en",)) -> Path:
    new_game(folder, "demo", list(langs))
    return folder


# --- 6: engines that raise KeyboardInterrupt or close the standard streams ------------------


def _engine_game(folder: Path, first_lines: str) -> Path:
    new_game(folder, "ge", ["en"], engine=True)
    engine = folder / "engine.py"
    head = "    def apply(self, action: int) -> None:\n"
    text = engine.read_text()
    assert head in text
    engine.write_text(text.replace(head, head + first_lines, 1))
    return folder


def _playset(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "toolkit", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)


def test_an_engine_raising_keyboardinterrupt_is_its_mistake_not_ctrl_c(tmp_path):
    # a process of its own: Ctrl-C is told apart only where the CLI's handler is in place
    # (under pytest another one is, and a KeyboardInterrupt is then taken for Ctrl-C)
    game = _engine_game(tmp_path / "ge", "        raise KeyboardInterrupt\n")
    done = _playset("simulate", str(game), "-n", "10")
    said = done.stdout + done.stderr  # findings on stdout, the summary on stderr
    assert done.returncode == 1, said
    assert "E004" in said and "raised KeyboardInterrupt" in said
    assert "Traceback" not in said and "interrupted" not in said


@pytest.mark.parametrize("how", [["-n", "10", "--workers", "2"], ["--contract"]])
def test_an_engine_raising_keyboardinterrupt_in_workers_or_the_contract_is_its_mistake(
    tmp_path, how
):
    game = _engine_game(tmp_path / "ge", "        raise KeyboardInterrupt\n")
    done = _playset("check", str(game), *how)
    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    assert "raised KeyboardInterrupt" in said and "Traceback" not in said


CLOSE_STREAMS = {
    "sys.stdout": "        import sys\n        sys.stdout.close()\n",
    "sys.stderr": "        import sys\n        sys.stderr.close()\n",
    "descriptors": (
        "        import os\n        for fd in (1, 2):\n            try:\n"
        "                os.close(fd)\n            except OSError:\n                pass\n"
    ),
}


@pytest.mark.parametrize("how", sorted(CLOSE_STREAMS))
def test_an_engine_closing_the_standard_streams_is_a_finding(tmp_path, how):
    game = _engine_game(tmp_path / "ge", CLOSE_STREAMS[how])
    done = _playset("check", str(game), "-n", "10")
    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    assert "E004" in said and "closed " in said, said
    assert "Traceback" not in said and "lost sys.stderr" not in said


# --- 7: a card layout's error carried no place in the layout file ---------------------------


def _layout_game(folder: Path, old: str, new: str) -> tuple[Path, int, int]:
    """A game whose deck prints with its own example-card layout, with `old` in that
    layout replaced by `new`; the (line, column) of the value `new` starts."""
    game = _game(folder)
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text().replace("size: poker\n", "size: poker\nlayout: example-card\n")
    deck.write_text(text)
    layout = game / "layouts" / "example-card.yaml"
    text = layout.read_text()
    assert old in text
    text = text.replace(old, new, 1)
    layout.write_text(text)
    before = text[: text.index(new)]
    return game, before.count("\n") + 1, len(before) - before.rfind("\n")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("\"{{ card.text or '' }}\"", '"{{ card.text | nosuchfilter }}"'),  # at compile time
        ("\"{{ card.text or '' }}\"", '"{{ 1 // 0 }}"'),  # at render time
        ("icon: token\n", "icon: token\n    when: card.nosuch.deeper\n"),  # a `when`
    ],
)
def test_a_layout_error_is_reported_at_its_line_in_the_layout(tmp_path, run_cli, old, new):
    game, line, col = _layout_game(tmp_path / "game", old, new)
    if new.startswith("icon"):  # the `when` value, on the line after
        line, col = line + 1, len("    when: ") + 1
    result = run_cli("validate", str(game))
    assert result.exit_code == 1, result.output
    found = [x for x in result.output.splitlines() if "P003" in x]
    assert found and all(f"layouts/example-card.yaml:{line}:{col}: P003" in x for x in found)
    assert "fails on advance (en, " in found[0] and "decks/cards.yaml:9)" in found[0], found


# --- 8: two cards of a deck that players cannot tell apart by name --------------------------


def _findings_of(run_cli, game: Path, code: str) -> list[dict]:
    result = run_cli("validate", str(game), "--format", "json")
    return [f for f in json.loads(result.stdout or "[]") if f["code"] == code]


def test_two_cards_named_alike_in_one_language_only_are_a_warning(tmp_path, run_cli):
    game = _game(tmp_path / "game", ("en", "fr"))
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text()
    assert "en: Rest\n" in text
    deck.write_text(text.replace("en: Rest\n", "en: forward\n", 1))  # advance is "Forward"
    found = _findings_of(run_cli, game, "R013")
    assert len(found) == 1 and found[0]["severity"] == "warning", found
    line = deck.read_text().splitlines().index("      en: forward") + 1
    assert found[0]["line"] == line and "'rest'" in found[0]["message"]
    assert "cannot tell them apart" in found[0]["message"]


def test_names_alike_in_another_unicode_form_are_named_alike(tmp_path, run_cli):
    # "Café" typed on one keyboard (é), pasted from elsewhere (e + combining acute): the
    # players read one name; the comparison took them for two (probe 11, content)
    game = _game(tmp_path / "game", ("en", "fr"))
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text()
    assert "en: Rest\n" in text and "en: Forward\n" in text
    text = text.replace("en: Forward\n", "en: Caf\u00e9\n", 1)
    deck.write_text(text.replace("en: Rest\n", "en: Cafe\u0301\n", 1))
    found = _findings_of(run_cli, game, "R013")
    assert len(found) == 1 and "cannot tell them apart" in found[0]["message"], found


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_blank_glossary_term_is_one_finding_not_one_at_every_text(tmp_path, run_cli, lang):
    # a term written as spaces in the source language (en) was T002 at the term and a T008
    # at every text of the game ("en uses '   '"); one blank in French, T008 at every text
    # that uses the English term (probe 11, content)
    game = _game(tmp_path / "game", ("en", "fr"))
    glossary = game / "glossary.yaml"
    text = glossary.read_text()
    assert f"      {lang}: point\n" in text
    glossary.write_text(text.replace(f"      {lang}: point\n", f'      {lang}: "   "\n', 1))
    result = run_cli("validate", str(game), "--format", "json")
    codes = [f["code"] for f in json.loads(result.stdout or "[]")]
    assert "T002" in codes and "T008" not in codes, codes


def test_one_card_written_twice_is_a_warning_and_cards_differing_by_a_value_are_not(
    tmp_path, run_cli
):
    game = _game(tmp_path / "game")
    deck = game / "decks" / "cards.yaml"
    twice = (
        "  - id: rest-again\n    name:\n      en: Rest\n    text:\n      en: Draw a card.\n"
        "    copies: 2\n"
    )
    other = "  - id: rest-more\n    name:\n      en: Rest\n    text:\n      en: Draw two cards.\n"
    deck.write_text(deck.read_text() + twice + other)
    found = _findings_of(run_cli, game, "R013")
    assert [
        ("rest-again" in f["message"], "again under another id" in f["message"]) for f in found
    ] == [(True, True)], found


# --- 9: sheet attributes written with character references ---------------------------------


def _ods_with(tmp_path: Path, row: str) -> Path:
    import io
    import zipfile

    from toolkit.content.sheets.write import write_ods

    with zipfile.ZipFile(io.BytesIO(write_ods("cards", ["id"], [{"id": "a"}]))) as base:
        members = {name: base.read(name) for name in base.namelist()}
    members["content.xml"] = members["content.xml"].replace(
        b"</table:table>", row.encode() + b"</table:table>"
    )
    path = tmp_path / "cards.ods"
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


@pytest.mark.parametrize("written", ["&#51;0000", "&#x33;0000", "3&#48;000"])
def test_an_ods_repeat_written_with_character_references_is_refused_before_calamine(
    tmp_path, written
):
    # calamine reads `table:number-rows-repeated="&#51;0000"` as 30,000 rows and builds
    # them; the scan knew only digits and saw no repeat
    import zipfile

    from toolkit.content.sheets import grid, prescan, workbook

    row = (
        f'<table:table-row table:number-rows-repeated="{written}"><table:table-cell'
        ' office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>'
    )
    path = _ods_with(tmp_path, row)
    with zipfile.ZipFile(path) as archive:  # the scan sees it: calamine is never asked
        seen = prescan.scan_ods(archive.read("content.xml")).too_large
    assert seen is not None and seen[:2] == (20_001, 1)
    read = workbook.read_workbook(path, "decks/cards.ods")
    assert isinstance(read, grid.Refused) and read.diagnostic.code == "Y013"
    assert (read.diagnostic.span.line, read.diagnostic.span.col) == (20_001, 1)


def test_an_ods_error_type_written_with_character_references_is_found():
    from toolkit.content.sheets import prescan

    xml = (
        b'<table:table table:name="cards"><table:table-row><table:table-cell'
        b' office:value-type="string" calcext:value-type="&#101;rror"><text:p>#N/A</text:p>'
        b"</table:table-cell></table:table-row></table:table>"
    )
    assert prescan.scan_ods(xml).errors == [(1, 1, "#N/A")]


def test_a_sheet_name_written_with_character_references_is_named_as_calamine_reads_it():
    from toolkit.content.sheets import workbook

    book = b'<workbook><sheets><sheet name="&#99;ards &amp; co" sheetId="1" r:id="rId1"/>'
    assert workbook._first_sheet_name(book) == "cards & co"
