"""Probe 14c (issue #33), content surface: a PO file naming the `undefined` codec, printed
carriage returns in a rulebook, `_xHHHH_` texts written to XLSX, and the Lows."""

from __future__ import annotations

import pytest

from tests.test_hardening_probe9_lows_files import DECK, _po


def test_a_po_file_naming_the_undefined_codec_is_refused_at_its_header(game, run_cli, tmp_path):
    # `data.decode('undefined')` raises a UnicodeError that is no UnicodeDecodeError: a
    # traceback
    po = _po(game, "en", "Run {steps} spaces.", tmp_path)
    text = po.read_text(encoding="utf-8")
    po.write_text(text.replace("charset=UTF-8", "charset=undefined"), encoding="utf-8")
    line = next(n for n, x in enumerate(text.splitlines(), 1) if "charset=" in x)
    before = (game / DECK).read_bytes()
    result = run_cli("i18n", "import", str(po), "--game", str(game))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    (message,) = [x for x in result.stderr.splitlines() if "cannot decode" in x]
    assert f"en.po:{line}: the header's charset 'undefined' cannot decode anything" in message
    assert (game / DECK).read_bytes() == before


# --- M2: printed carriage returns and R010's word placing --------------------------------


@pytest.mark.parametrize("count", [1, 3, 40])
def test_printed_carriage_returns_are_line_breaks_to_the_word_bound(game, count):
    # markdown-it counts `\r` as a line break, R010's word placing counted `\n` only: 40
    # printed CRs before a long word were a traceback (ValueError), 3 a wrong line
    from toolkit.content.game import load_game
    from toolkit.render.rulebook_source import RulebookError, render_markdown

    loaded = load_game(game)
    places = []
    for newline in ("\\r", "\\n"):
        source = (
            f"# T\n\n{{{{ '{newline}' * {count} }}}}Intro.\n\nMore.\n\n"
            f"**{'a' * 1001}**\n\nAfter a turn.\n\nAnd {'b' * 80}.\n"
        )
        with pytest.raises(RulebookError, match="a word of 1,001 characters") as caught:
            render_markdown(loaded, "en", source)
        places.append((caught.value.line, caught.value.col))
    assert places[0] == places[1] == (7, 3)  # where the source writes it


# --- M4: texts holding `_xHHHH_` written to XLSX ------------------------------------------

TRICKY = ["A_x0042_C", "_x005F_x0041_", "a_x00e9_b_X0041_", "_x0041", "x0041_", "__x0041__"]


def _with_names(game, names: list[str]) -> None:
    deck = game / DECK
    yaml = deck.read_text(encoding="utf-8")
    assert "      en: Dash\n" in yaml and "      en: Rest\n" in yaml
    yaml = yaml.replace("      en: Dash\n", f"      en: '{names[0]}'\n")
    deck.write_text(yaml.replace("      en: Rest\n", f"      en: '{names[1]}'\n"))


@pytest.mark.parametrize("pair", [TRICKY[0:2], TRICKY[2:4], TRICKY[4:6]])
@pytest.mark.parametrize("to", ["xlsx", "ods", "csv"])
def test_texts_like_ooxml_escapes_round_trip_through_a_sheet(game, run_cli, tmp_path, pair, to):
    # OOXML reads `_xHHHH_` as U+HHHH: `A_x0042_C` written to an XLSX deck came back "ABC"
    import yaml as pyyaml

    _with_names(game, pair)
    sheet, back = tmp_path / f"c.{to}", tmp_path / "b.yaml"
    assert run_cli("convert", str(game / DECK), "--to", to, "--out", str(sheet)).exit_code == 0
    assert run_cli("convert", str(sheet), "--to", "yaml", "--out", str(back)).exit_code == 0
    cards = pyyaml.safe_load(back.read_text(encoding="utf-8"))["cards"]
    assert [card["name"]["en"] for card in cards[:2]] == pair


def test_a_translation_like_an_ooxml_escape_is_imported_into_an_xlsx_deck_as_written(
    game, run_cli, tmp_path
):
    # `i18n import` wrote msgstr `Re_x0070_os` into the cell as it is: read back "Repos",
    # so the text reviewed in the PO file was not the one printed
    from toolkit.content.game import load_game

    deck = game / DECK
    assert run_cli("convert", str(deck), "--to", "xlsx").exit_code == 0
    deck.unlink()
    manifest = game / "game.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8").replace("decks/cards.yaml", "decks/cards.xlsx")
    )
    po = _po(game, "en", "Run_x0070_ {steps} _x005F_x0041_.", tmp_path)
    result = run_cli("i18n", "import", str(po), "--game", str(game))
    assert result.exit_code == 0, result.output
    (card,) = [c for c in load_game(game).decks[0].model.cards if c.id == "sprint"]
    assert card.text["en"] == "Run_x0070_ {steps} _x005F_x0041_."


# --- Lows ----------------------------------------------------------------------------------


def test_an_empty_rules_text_is_t002_as_an_empty_card_text_is(tmp_path, run_cli):
    # `{en: Hello, fr: ''}` validated clean and the fr rulebook printed nothing for it
    from tests.conftest import diagnostics_json
    from toolkit.scaffold.new import new_game

    game = tmp_path / "game"
    new_game(game, "demo", ["en", "fr"])
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(
        text.replace(
            "\nrules:\n", "\nrules:\n  b: {en: Hello, fr: ' '}\n  c: {en: Hi, fr: Salut}\n"
        ),
        encoding="utf-8",
    )
    line = manifest.read_text(encoding="utf-8").splitlines().index("  b: {en: Hello, fr: ' '}") + 1
    result = run_cli("validate", str(game), "--format", "json")
    found = [(d["code"], d["message"], d["line"]) for d in diagnostics_json(result.output)]
    assert found == [("T002", "`rules.b` has an empty fr text", line)], result.output


@pytest.mark.parametrize(
    ("written", "printed"), [(".nan", "nan"), ("-.inf", "-inf"), ("1e400", "inf")]
)
def test_a_param_that_is_no_finite_number_is_refused_where_it_is(game, run_cli, written, printed):
    # `steps: 1e400` (past the float range: infinity) printed "Move inf spaces.", validate clean
    from tests.conftest import diagnostics_json

    deck = game / DECK
    yaml = deck.read_text(encoding="utf-8")
    assert "      steps: 3\n" in yaml
    deck.write_text(yaml.replace("      steps: 3\n", f"      steps: {written}\n"))
    line = deck.read_text(encoding="utf-8").splitlines().index(f"      steps: {written}") + 1
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    found = [(d["code"], d["line"], d["message"]) for d in diagnostics_json(result.output)]
    assert [(code, at) for code, at, _ in found] == [("S005", line)], result.output
    assert f'not a finite number: it prints as "{printed}"' in found[0][2]
    # the hint names what the file holds (probe 17b L2: `.nan` was told of 1e400)
    assert ("not a number" in found[0][2]) is (printed == "nan")


FORMULAS = ['=HYPERLINK("http://x","a")', "@SUM(1+1)", "+1+cmd", "-2+3", "\tx", "'=x"]


@pytest.mark.parametrize("pair", [FORMULAS[0:2], FORMULAS[2:4], FORMULAS[4:6]])
def test_a_text_a_spreadsheet_would_run_as_a_formula_is_written_to_csv_as_text(
    game, run_cli, tmp_path, pair
):
    # `=HYPERLINK(…)` was a bare CSV cell: a spreadsheet program opening the file ran it
    import csv

    import yaml as pyyaml

    _with_names(game, [name.replace("'", "''") for name in pair])
    sheet, back = tmp_path / "c.csv", tmp_path / "b.yaml"
    assert run_cli("convert", str(game / DECK), "--to", "csv", "--out", str(sheet)).exit_code == 0
    rows = list(csv.reader(sheet.read_text(encoding="utf-8-sig").splitlines()))
    column = rows[0].index("name.en")
    assert [row[column] for row in rows[1:3]] == ["'" + name for name in pair]
    assert run_cli("convert", str(sheet), "--to", "yaml", "--out", str(back)).exit_code == 0
    cards = pyyaml.safe_load(back.read_text(encoding="utf-8"))["cards"]
    assert [card["name"]["en"] for card in cards[:2]] == pair


def test_rules_texts_go_through_the_po_file_and_back(tmp_path, run_cli):
    # T001 asked for `rules.intro`'s fr text, but `i18n export` left rules texts out, so
    # `i18n import` could never fill it (and status said 100 %)
    import polib

    from toolkit.scaffold.new import new_game

    game = tmp_path / "game"
    new_game(game, "demo", ["en", "fr"])
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("\nrules:\n", "\nrules:\n  intro: {en: Hello}\n"))
    po_path = tmp_path / "fr.po"
    assert (
        run_cli("i18n", "export", str(game), "--lang", "fr", "--out", str(po_path)).exit_code == 0
    )
    po = polib.pofile(str(po_path))
    (entry,) = [e for e in po if e.msgctxt == "game.yaml:rules.intro"]
    assert entry.msgid == "Hello" and entry.msgstr == ""
    entry.msgstr = "Bonjour"
    po.save(str(po_path))
    result = run_cli("i18n", "import", str(po_path), "--game", str(game))
    assert result.exit_code == 0, result.output
    assert "  intro: {en: Hello, fr: Bonjour}\n" in manifest.read_text(encoding="utf-8")
    assert run_cli("validate", str(game), "--no-cache").exit_code == 0
