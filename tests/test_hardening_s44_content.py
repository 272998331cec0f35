"""Session 44, content surface (issue #33): the twelfth probe's open content findings
(/work/notes/probe12c.md M2, M3 and its Lows), each test red before its fix."""

from __future__ import annotations

import json

import pytest

from tests.conftest import REPO

URL = "https://example.org/?q=" + "x" * 277  # 300 characters


@pytest.fixture(scope="module")
def heroes():
    from toolkit.content.game import load_game

    return load_game(REPO / "content" / "drinking-heroes")


# --- M2: R010's long-word bound measures the words as they print -------------------------


@pytest.mark.parametrize(
    "body",
    [
        # a GFM table needs no spaces around `|`: each cell's word is 300 characters
        f"|A|B|C|D|\n|---|---|---|---|\n|{URL}|{URL}|{URL}|{URL}|\n",
        # the link target is an attribute: only "the map" is laid out
        f"See [the map]({URL + 'y' * 800}) here.\n",
        f"See ![the map]({URL + 'y' * 800}) here.\n",
    ],
)
def test_table_pipes_and_link_targets_are_not_part_of_a_printed_word(heroes, body):
    # R010 counted `|a|b|…` rows and a link's target as one word of over 1,000 characters
    # and refused valid content (validate and build)
    from toolkit.render.rulebook_source import render_markdown

    assert render_markdown(heroes, "en", "# T\n\n" + body)


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ("Plain " + "w" * 1001 + " end.\n", (3, 7)),
        ("|A|B|\n|-|-|\n|x|" + "w" * 1001 + "|\n", (5, 4)),  # in a cell
        ("See [" + "w" * 1001 + "](https://x.org) here.\n", (3, 6)),  # a link's text prints
        ("A **" + "w" * 600 + "**" + "v" * 401 + " b\n", (3, 5)),  # one word across markup
        ("```\n" + "w" * 1001 + "\n```\n", (4, 1)),  # a code block prints its lines
        ("A `" + "w" * 1001 + "` b\n", (3, 4)),
    ],
)
def test_a_printed_word_over_the_bound_is_still_refused_where_it_is(heroes, body, where):
    from toolkit.render.rulebook_source import RulebookError, render_markdown

    with pytest.raises(RulebookError, match="a word of 1,001 characters") as caught:
        render_markdown(heroes, "en", "# T\n\n" + body)
    assert (caught.value.line, caught.value.col) == where


# --- M3: a rules text in none of the game's languages; game.files.rulebook ---------------


def _with_rules_text(game, text: str = "{de: Hallo}"):
    manifest = game / "game.yaml"
    yaml = manifest.read_text(encoding="utf-8")
    manifest.write_text(yaml.replace("  target: 10\n", f"  target: 10\n  intro: {text}\n"))
    return manifest


def test_a_rules_text_in_none_of_the_games_languages_is_never_printed_as_a_dict(game):
    # `intro: {de: Hallo}` in a game of fr/es/en printed "{'de': 'Hallo'}" in every
    # rulebook (a Python dict's repr), silently
    from toolkit.content.game import load_game
    from toolkit.render.rulebook_source import RulebookError, render_markdown

    _with_rules_text(game)
    loaded = load_game(game)
    with pytest.raises(RulebookError, match="table of values") as caught:
        render_markdown(loaded, "en", "# T\n\nIntro: {{ rules.intro }}\n")
    assert caught.value.line == 3
    assert "{'de'" not in str(caught.value)
    # its entries still print, and so does a text in the game's languages
    assert "Hallo" in render_markdown(loaded, "en", "# T\n\n{{ rules.intro.de }}\n")


def test_validate_says_where_a_rules_text_names_none_of_the_games_languages(game, run_cli):
    manifest = _with_rules_text(game)
    line = manifest.read_text(encoding="utf-8").splitlines().index("  intro: {de: Hallo}") + 1
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    found = [d for d in json.loads(result.output) if d["code"] == "T003"]
    assert [(d["file"], d["line"], d["col"]) for d in found] == [(str(manifest), line, 11)], found
    assert "fr, es, en" in found[0]["message"] and "intro" in found[0]["message"]


@pytest.mark.parametrize("text", ["{red: d6, blu: d8}", "{en: Hello, fr: Salut}", "{hp: '3'}"])
def test_a_free_rules_tree_of_short_keys_is_no_text_in_another_language(game, run_cli, text):
    # keys that are no language babel knows (red, blu, hp), or a text in the game's
    # languages: no T003
    _with_rules_text(game, text)
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    assert [d for d in json.loads(result.output) if d["code"] == "T003"] == []


def test_game_files_rulebook_prints_the_path_of_the_language_printed(heroes):
    # before 6e36ec9 (session 43) `{{ game.files.rulebook }}` printed the rulebook's path in
    # the language printed; it then printed the dict of every language's path
    from toolkit.render.rulebook_source import render_markdown

    assert render_markdown(heroes, "en", "{{ game.files.rulebook }}") == "rulebook/en.md"
    assert render_markdown(heroes, "fr", "{{ game.files.rulebook }}") == "rulebook/fr.md"


# --- Lows ------------------------------------------------------------------------------


def _sheet_game(game, run_cli):
    """The base game with its deck converted to a CSV sheet, a French text ending `!` with a
    plain space before it (T010, fixable) and unlike the source's end (T013)."""
    deck = game / "decks" / "cards.yaml"
    assert run_cli("convert", str(deck), "--to", "csv").exit_code == 0
    deck.unlink()
    manifest = game / "game.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8").replace("decks/cards.yaml", "decks/cards.csv")
    )
    sheet = game / "decks" / "cards.csv"
    lines = sheet.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    column = header.index("text.fr")
    cells = lines[1].split(",")
    cells[column] = "Gagnez vite !"
    lines[1] = ",".join(cells)
    sheet.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return sheet, cell_name_of(2, column + 1)


def cell_name_of(row: int, col: int) -> str:
    from toolkit.diagnostics.diagnostic import cell_name

    return cell_name(row, col)


def test_a_cached_validate_names_a_sheet_cell_as_the_cold_run_does(
    game, run_cli, tmp_path, monkeypatch
):
    # the findings cache kept a finding's line and column but not its sheet: a warm run
    # said `decks/cards.csv:2:5: T010 …` where the cold one said `decks/cards.csv:E2: T010 …`
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    sheet, cell = _sheet_game(game, run_cli)
    cold = run_cli("validate", str(game))
    assert f"cards.csv:{cell}: T010" in cold.output, cold.output
    warm = run_cli("validate", str(game))
    assert warm.output == cold.output
    assert run_cli("validate", str(game), "--format", "json").output == (
        run_cli("validate", str(game), "--no-cache", "--format", "json").output
    )


def test_i18n_fix_applies_the_fix_it_offers_in_a_sheet(game, run_cli):
    # T010 on a sheet's cell said "`playset i18n fix` can apply this", and `i18n fix` said
    # "nothing to fix": the fixer skipped sheets
    sheet, cell = _sheet_game(game, run_cli)
    before = sheet.read_bytes()
    shown = run_cli("i18n", "fix", str(game))
    assert "nothing to fix" not in shown.output
    assert "Gagnez vite⍽!" in shown.output and "decks/cards.csv" in shown.output
    assert sheet.read_bytes() == before  # a diff only
    assert run_cli("i18n", "fix", str(game), "--write").exit_code == 0
    text = sheet.read_text(encoding="utf-8")
    assert "Gagnez vite\u202f!" in text
    assert text.replace("Gagnez vite\u202f!", "Gagnez vite !").encode() == before
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    assert not [d for d in json.loads(result.output) if d["code"] == "T010"]


@pytest.mark.parametrize(
    "line", ["See ![the map](map.png) here.", "| a | ![x](pic.png) |", "Gagnez ![x](pic.png)"]
)
def test_the_mark_of_a_markdown_image_is_no_punctuation(line):
    # T012 "no space before '!'" at every Markdown image of an English rulebook (and T010
    # wanted a narrow no-break space before it in French); R012 says what an image does
    from toolkit.checks.rulebook import _typography

    for lang in ("en", "fr"):
        assert list(_typography("rulebook/x.md", lang, f"# T\n\n{line}\n")) == []
    # a real '!' is still seen
    found = list(_typography("rulebook/x.md", "en", "# T\n\nWin !\n"))
    assert [(d.code, d.span.line, d.span.col) for d in found] == [("T012", 3, 5)]


def _gif_with_comment(blocks: int) -> bytes:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("P", (4, 4)).save(buf, "GIF")
    gif = buf.getvalue()
    at = 13 + 3 * (2 << (gif[10] & 7)) if gif[10] & 0x80 else 13  # after the colour table
    return gif[:at] + b"\x21\xfe" + b"\x01x" * blocks + b"\x00" + gif[at:]


def test_a_gif_whose_comment_holds_very_many_blocks_is_refused_before_pillow_reads_it(tmp_path):
    # Pillow reads a GIF's comment block by block in Python when it opens the file: 8 M
    # one-byte blocks (16 MB) cost 3.6 to 5.6 s of CPU per open, up to three opens per
    # picture in validate
    from toolkit.render import pictures

    big = tmp_path / "big.gif"
    big.write_bytes(_gif_with_comment(10_001))
    size, why = pictures.problem(big, tmp_path)
    assert size is None and why is not None and "10,000 data blocks" in why
    fine = tmp_path / "fine.gif"
    fine.write_bytes(_gif_with_comment(9_999))  # the comment itself is one step more
    assert pictures.problem(fine, tmp_path) == ((4, 4), None)


def test_a_layout_printing_a_table_of_values_is_a_finding_at_its_text(tmp_path, run_cli):
    # `{{ rules }}` (a view) printed Python's text of a dict on the card, silently
    from tests.conftest import copy_game

    heroes = copy_game(REPO / "content" / "drinking-heroes", tmp_path / "heroes")
    layout = heroes / "layouts" / "dh-spell.yaml"
    source = layout.read_text(encoding="utf-8")
    layout.write_text(source.replace('"{{ card.text }}"', '"{{ rules }}"'))
    result = run_cli("validate", str(heroes), "--no-cache", "--format", "json")
    found = [d for d in json.loads(result.stdout) if "table of values" in d["message"]]
    assert found and {(d["code"], d["line"]) for d in found} == {("P003", 40)}, result.stdout
    assert all(d["file"].endswith("layouts/dh-spell.yaml") for d in found)
