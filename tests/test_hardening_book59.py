"""Rulebook costs that the bounds missed (probe 53, issue 33): tables in a quote or a list
item."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_hardening_book58 import _line, _r010, _starter
from toolkit.content.game import load_game
from toolkit.render import rulebook_source

DECK = "decks/cards.yaml"
LABELS = "size: poker\nlabels:\n  mark: {en: Mark}\n"


def _table(columns: int, rows: int, prefix: str = "") -> str:
    head = prefix + "|" + " h |" * columns + "\n" + prefix + "|---" * columns + "|\n"
    return head + (prefix + "|" + " x |" * columns + "\n") * rows


def _refused(text: str) -> tuple[int, int, str] | None:
    try:
        rulebook_source._bounded(text)
    except rulebook_source.RulebookError as exc:
        return exc.line, exc.col, str(exc)
    return None


@pytest.mark.parametrize(
    ("before", "prefix"),
    [
        ("", "> "),  # a table in a quote
        ("- a\n  - b\n\n", "    "),  # in a list item, indented 4
        ("1. a\n\n   > quoted\n   >\n", "   > "),  # in a quote in a list item
    ],
)
def test_a_table_in_a_quote_or_a_list_item_is_bounded(before: str, prefix: str) -> None:
    # probe53-1, -2: `_TABLE_RULE` found a table's `|---|` row only at a line start: a
    # 45-column table in a quote validated clean and `build` crashed in reportlab (negative
    # availWidth); 59,400 cells of quoted tables took `build` 11.8 s
    text = "# T\n\n" + before + _table(45, 3, prefix)
    line = text.split("\n").index(prefix + "|---" * 45 + "|") + 1
    found = _refused(text)
    assert found is not None
    assert found[:2] == (line, len(prefix) + 1)
    assert "a table of 45 columns" in found[2]
    rows = "# T\n\n" + before + _table(3, rulebook_source.MAX_TABLE_ROWS + 1, prefix)
    assert "a table of 501 rows" in (_refused(rows) or (0, 0, ""))[2]
    fits = "# T\n\n" + before + _table(20, 3, prefix)
    assert _refused(fits) is None


def test_quoted_tables_count_against_the_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rulebook_source, "MAX_TABLE_CELLS", 40)
    table = _table(3, 4, "> ")  # 15 cells
    text = "# T\n\n" + table + "\n" + table + "\nMiddle.\n\n" + table
    found = _refused(text)
    line = text.split("\n").index("Middle.") + 4
    assert found is not None and found[:2] == (line, 3)
    assert "45 cells, more than the 40" in found[2]
    assert rulebook_source.table_cells(text) == 45


def test_a_code_block_that_looks_like_a_table_is_none() -> None:
    text = "# T\n\nSee:\n\n" + _table(45, 3, "    ")  # an indented code block
    assert _refused(text) is None
    assert rulebook_source.table_cells(text) == 0


def test_a_table_too_deep_in_quotes_is_refused() -> None:
    # 19 quotes left a 20-column table narrower than its cells' padding: a traceback
    depth = rulebook_source.MAX_TABLE_DEPTH
    deep = "# T\n\n" + _table(20, 2, "> " * (depth + 1))
    found = _refused(deep)
    assert found is not None and found[:2] == (4, 2 * depth + 3)
    assert f"a table inside {depth + 1} quotes and list items" in found[2]
    assert _refused("# T\n\n" + _table(20, 2, "> " * depth)) is None


def test_a_quoted_table_too_wide_is_said_by_validate_and_build(run_cli, tmp_path) -> None:
    folder = _starter(run_cli, tmp_path)
    rulebook = folder / "rulebook" / "en.md"
    rulebook.write_text(
        rulebook.read_text(encoding="utf-8") + "\n" + _table(45, 3, "> "), encoding="utf-8"
    )
    line = rulebook.read_text(encoding="utf-8").split("\n").index("> " + "|---" * 45 + "|") + 1
    assert [f[:3] for f in _r010(folder)] == [("rulebook/en.md", line, 3)]
    result = run_cli("build", str(folder), "--only", "rulebook", "--out", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert "R010" in result.output and "Traceback" not in result.output


def test_a_wide_table_as_deep_as_allowed_builds(run_cli, tmp_path) -> None:
    folder = _starter(run_cli, tmp_path)
    prefix = "> " * rulebook_source.MAX_TABLE_DEPTH
    columns = rulebook_source.MAX_TABLE_COLUMNS
    head = prefix + "|" + "".join(f" Heading{i} |" for i in range(columns)) + "\n"
    row = prefix + "|" + " a long cell |" * columns + "\n"
    table = head + prefix + "|---" * columns + "|\n" + row * 2
    rulebook = folder / "rulebook" / "en.md"
    rulebook.write_text(rulebook.read_text(encoding="utf-8") + "\n" + table, encoding="utf-8")
    assert _r010(folder) == []
    result = run_cli("build", str(folder), "--only", "rulebook", "--out", str(tmp_path / "o"))
    assert result.exit_code == 0, result.output


def test_words_under_a_hundred_letters_count_as_long_words() -> None:
    # probe53-3: words of 99 letters (under the old LONG_WORD of 100) were free: 990 kB of
    # them took `build` 14 s a language, validate clean
    word = ("internationalization" * 5)[:99]
    per = 8_000_000 // 99**2  # within MAX_LONG_WORDS
    lines = [" ".join([word] * 40) for _ in range(per // 40 + 1)]
    text = "# T\n\n" + "\n\n".join(lines) + "\n"
    found = _refused(text)
    assert found is not None and "too many long words" in found[2]
    line = 3 + 2 * (per // 40)  # the paragraph of word per + 1
    assert found[:2] == (line, (per % 40) * 100 + 1)
    short = "# T\n\n" + "\n\n".join([" ".join([word[:30]] * 40)] * 500) + "\n"
    assert _refused(short) is None  # 20,000 words of 30 letters: priced at nothing


def test_icons_in_the_card_reference_s_values_are_counted(run_cli, tmp_path, monkeypatch) -> None:
    # probe53-4: only each card's text was counted; icons in labelled values printed blank
    # past the page's icon weight, validate clean
    from toolkit.checks import rulebook as rulebook_check

    monkeypatch.setattr(rulebook_check, "MAX_RULEBOOK_ICON_WEIGHT", 25)
    folder = _starter(run_cli, tmp_path)
    circles = "".join(f'<circle cx="{5 + 9 * i}" cy="50" r="3"/>' for i in range(10))
    (folder / "icons" / "dots.svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{circles}</svg>',
        encoding="utf-8",
    )
    deck = folder / DECK
    text = deck.read_text(encoding="utf-8").replace("size: poker\n", LABELS, 1)
    text = text.replace("Move {steps} spaces.", "Move {steps} :dots:.", 1)
    text = text.replace("      points: 3\n", "      points: 3\n      mark: ':dots: :dots:'\n", 1)
    deck.write_text(text, encoding="utf-8")
    found = [f for f in _r010(folder) if f[0] == DECK]
    line = _line(folder, DECK, "      mark:")
    assert [f[:2] for f in found] == [(DECK, line)]  # its second icon: the third (30 > 25)
    assert "card reference's inline icons" in found[0][3]


def test_a_long_link_destination_is_priced_by_its_uses() -> None:
    # probe53-5: one definition of a 96,000-character destination (spaces allowed in angle
    # brackets) used 4,800 times: `build` 18 s, 2.2 GB, a 462 MB PDF; validate clean
    target = "<https://example.com/" + "a " * 1_000 + ">"  # 4,017 characters printed (%20)
    uses = rulebook_source.MAX_LINK_TARGETS // 4_017
    body = "\n\n".join(" ".join(["[x]"] * 50) for _ in range(uses // 50 + 1))
    text = f"# T\n\nSee [the site][X].\n\n[x]: {target}\n\n{body}\n"
    found = _refused(text)
    assert found is not None and found[:2] == (5, 1)
    assert "a link destination of 4,017 characters" in found[2]
    few = f"# T\n\n[x]: {target}\n\n" + "[y] " * 1_000 + "[x]\n"  # one use, many brackets
    assert _refused(few) is None


def test_a_long_code_block_is_refused_across_its_blank_lines() -> None:
    # probe53-10: a fenced block runs on across blank lines, laid out as one piece again at
    # every page: 40,000 short lines took `build` 16.8 s, validate clean
    lines = rulebook_source.MAX_CODE_LINES
    text = "# T\n\nSee:\n\n```\n" + ("x\n" * 99 + "\n") * (lines // 100) + "```\n"
    found = _refused(text)
    assert found is not None and found[:2] == (5, 1)
    assert f"a code block of {lines + 2:,} lines" in found[2]
    html = "# T\n\n<pre>\n" + ("x\n" * 99 + "\n") * (lines // 100) + "</pre>\n"
    assert "an HTML block of" in (_refused(html) or (0, 0, ""))[2]
    fits = "# T\n\n```\n" + ("x\n" * 99 + "\n") * (lines // 200) + "```\n"
    assert _refused(fits) is None


def test_code_blocks_count_their_lines_together(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rulebook_source, "MAX_ALL_CODE_LINES", 250)
    block = "```\n" + "x\n" * 98 + "```\n"  # 100 lines
    text = "# T\n\n" + "\n".join([block] * 2) + "\n> " + block.replace("\n", "\n> ")
    found = _refused(text)
    quoted = text.split("\n").index("> ```") + 1  # the quoted one: 300 lines
    assert found is not None and found[:2] == (quoted, 3)
    assert "to 300 lines, more than the 250" in found[2]
    assert _refused("# T\n\n" + "\n".join([block] * 2)) is None


@pytest.mark.parametrize(
    ("nested", "line", "col"),
    [
        (">" * 20 + " hidden\n", 3, 22),  # a quote 20 deep: read no further
        ("".join("  " * k + f"- level{k}\n" for k in range(12)), 12, 19),  # the tenth list
    ],
)
def test_content_nested_past_what_markdown_reads_is_refused(nested, line, col) -> None:
    # probe53-6: markdown-it reads no block nested 20 deep: the content printed nothing and
    # no check saw it
    found = _refused("# T\n\n" + nested + "\nafter\n")
    assert found is not None and found[:2] == (line, col)
    assert "nested this deep print nothing" in found[2]
    assert _refused("# T\n\n" + ">" * 19 + " shown\n") is None


def test_the_card_reference_s_markup_counts_with_the_markdown_s(
    run_cli, tmp_path, monkeypatch
) -> None:
    # probe53-12: `&`, `<`, `>` in card texts are fragments of the reference's cells, outside
    # MAX_INLINE_MARKUP: 700 cards of 300 `&&&` words took `build` 14.7 s, validate clean
    folder = _starter(run_cli, tmp_path)
    source = (folder / "rulebook" / "en.md").read_text(encoding="utf-8")
    printed = rulebook_source.render_markdown(load_game(folder), "en", source)
    own = rulebook_source.inline_markup_count(printed, -1)  # the Markdown's own pieces
    monkeypatch.setattr(rulebook_source, "MAX_INLINE_MARKUP", own + 5)
    deck = folder / DECK
    text = deck.read_text(encoding="utf-8")
    text = text.replace("Move {steps} spaces.", "Move {steps} & <go> on.", 1)  # 3 pieces
    text = text.replace("Score {points} points.", "Score & score & score & more.", 1)  # 3 more
    deck.write_text(text, encoding="utf-8")
    found = [f for f in _r010(folder) if f[0] == DECK]
    assert [f[:2] for f in found] == [(DECK, _line(folder, DECK, "      en: Score &"))]
    assert "pieces of inline markup" in found[0][3]
    deck.write_text(
        text.replace("Score & score & score & more.", "Score & more.", 1), encoding="utf-8"
    )
    assert [f for f in _r010(folder) if f[0] == DECK] == []  # 4 pieces: within


def test_long_headings_are_bounded_and_weighed(monkeypatch: pytest.MonkeyPatch) -> None:
    # probe53-9: a heading's characters cost three times a paragraph's (laid out again in
    # the contents): 299 headings of 1,000 characters a language took `build` 10.8 s
    long = "# T\n\nIntro.\n\n## " + "word " * 100 + "\n"
    found = _refused(long)
    assert found is not None and found[:2] == (5, 1)
    assert "a heading of 499 characters" in found[2]
    heading = "## " + "word " * 50 + "\n\n"  # 249 characters printed, counted 3 times
    text = "# T\n\n" + heading * 10
    monkeypatch.setattr(rulebook_source, "MAX_RENDERED", len(text) + 2 * 252 * 9 + 10)
    found = _refused(text)
    assert found is not None and found[0] == 3 + 2 * 9  # the tenth `##`
    assert "its headings' counted 3 times" in found[2]
    paragraphs = "# T\n\n" + ("word " * 50 + "\n\n") * 10  # as many characters: within
    assert _refused(paragraphs) is None


def test_a_one_column_table_with_a_pipeless_rule_is_bounded() -> None:
    # probe53-L2: `|a` / `---` / `|x`… is a table for markdown-it, not for `_TABLE_RULE`
    rows = rulebook_source.MAX_TABLE_ROWS + 1
    found = _refused("# T\n\n|a\n---\n" + "|x\n" * rows)
    assert found is not None and found[:2] == (4, 1)
    assert f"a table of {rows} rows" in found[2]
    assert _refused("# T\n\nA | b\n---\n\nText.\n") is None  # a heading, not a table


def test_i18n_status_shows_each_file_s_path_once(run_cli, tmp_path, monkeypatch) -> None:
    # probe53-1: `i18n status` of quoted tables (178,000 units) spent a quarter of its 6.8 s
    # working out the same file's shown path for each unit
    from toolkit.i18n import status

    folder = _starter(run_cli, tmp_path)
    rulebook = folder / "rulebook" / "en.md"
    rulebook.write_text(
        rulebook.read_text(encoding="utf-8") + "\n" + _table(5, 40, "> "), encoding="utf-8"
    )
    calls = [0]
    shown = status.display_path

    def counted(path: Path) -> str:
        calls[0] += 1
        return shown(path)

    monkeypatch.setattr(status, "display_path", counted)
    rows = status.status(load_game(folder))
    assert sum(row.texts for row in rows if row.file.endswith("en.md")) > 200
    assert calls[0] <= 10  # a few files, not a call per unit


def test_a_plain_rulebook_is_checked_without_a_block_parse():
    # the bundled rulebooks need no markdown-it parse for their blocks' bounds (its import
    # alone is ~17 ms of a card edit's validate); the nesting the gate assumes is its own
    from markdown_it import MarkdownIt

    assert MarkdownIt("commonmark").options.maxNesting == rulebook_source.MARKDOWN_NESTING
    plain = "# Rules\n\nA paragraph.\n\n- a list\n  - nested\n\n> a quote\n"
    assert rulebook_source._plainly_within(plain)
    for hostile in (
        "# " + "h" * rulebook_source.MAX_HEADING,  # a long heading
        "- # " + "h" * rulebook_source.MAX_HEADING,  # in a list item (probe 60-5)
        "1. # " + "h" * rulebook_source.MAX_HEADING,
        "A heading\nover two lines\n===\n",  # setext
        ">" * 20 + " deep\n",  # nested quotes
        "- " * 10 + "deep\n",  # nested lists on one line
        "```\n" + "x\n" * rulebook_source.MAX_CODE_LINES + "```\n",  # a long code block
    ):
        assert not rulebook_source._plainly_within(hostile), hostile[:40]
