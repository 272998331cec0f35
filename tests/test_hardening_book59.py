"""Rulebook costs that the bounds missed (probe 53, issue 33): tables in a quote or a list
item."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolkit.checks import run_checks
from toolkit.content.game import load_game
from toolkit.render import rulebook_source


def _table(columns: int, rows: int, prefix: str = "") -> str:
    head = prefix + "|" + " h |" * columns + "\n" + prefix + "|---" * columns + "|\n"
    return head + (prefix + "|" + " x |" * columns + "\n") * rows


def _starter(run_cli, tmp_path: Path) -> Path:
    result = run_cli("new", "g", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    return tmp_path / "g"


def _r010(folder: Path) -> list[tuple[str, int, int, str]]:
    return [
        (Path(d.file).relative_to(folder).as_posix(), d.span.line, d.span.col, d.message)
        for d in run_checks(load_game(folder))
        if d.code == "R010"
    ]


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
