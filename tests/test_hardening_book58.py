"""Rulebook costs that no bound priced (probe 51, issue 33): a table's cells, the generated
card reference's columns, rows and headings; and the i18n segmenter's work per table cell."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolkit.checks import run_checks
from toolkit.content.game import load_game
from toolkit.i18n import markdown_units
from toolkit.render import rulebook_source
from toolkit.render.markdown_flow import fit_widths

DECK = "decks/cards.yaml"


def _table(rows: int, columns: int = 5) -> str:
    head = "|" + " h |" * columns + "\n" + "|---" * columns + "|\n"
    return head + ("|" + " x |" * columns + "\n") * rows


def _line_reads(monkeypatch: pytest.MonkeyPatch, text: str) -> int:
    """How many times the segmenter reads a piece's line: its work per cell."""
    reads = [0]

    class Counted(markdown_units.Piece):
        def __getattribute__(self, name: str) -> object:
            if name == "line":
                reads[0] += 1
            return object.__getattribute__(self, name)

    monkeypatch.setattr(markdown_units, "Piece", Counted)
    units = markdown_units.segment(text)
    assert sum(u.kind == "cell" for u in units) > 0
    return reads[0]


def test_table_cells_are_segmented_in_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    # P51-11: each cell scanned every piece found before it (O(cells²)): six 497×20 tables,
    # `i18n export` 51 s, `i18n status` 116 s
    small = _line_reads(monkeypatch, _table(100))
    large = _line_reads(monkeypatch, _table(400))
    assert large <= 5 * small  # four times the cells; a quadratic scan reads ~16 times more


def test_table_cells_keep_their_places() -> None:
    text = "| a | b \\| c | |\n|---|---|---|\n| a | a | a |\n\nPara | graph.\n"
    cells = [(u.text, u.pieces) for u in markdown_units.segment(text) if u.kind == "cell"]
    P = markdown_units.Piece
    assert cells == [
        ("a", (P(0, 2, 3),)),
        ("b \\| c", (P(0, 6, 12),)),
        ("", (P(0, 12, 12),)),
        ("a", (P(2, 2, 3),)),
        ("a", (P(2, 6, 7),)),
        ("a", (P(2, 10, 11),)),
    ]


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


def _line(folder: Path, rel: str, written: str) -> int:
    lines = (folder / rel).read_text(encoding="utf-8").split("\n")
    return next(n for n, line in enumerate(lines, 1) if line.startswith(written))


def test_a_rulebook_s_table_cells_are_counted(run_cli, tmp_path, monkeypatch) -> None:
    # P51-9: six 497-row tables of 20 one-letter columns (60,000 cells, each in the row
    # and column bounds, 3,000 rows) validated clean and took `build` 16 s
    monkeypatch.setattr(rulebook_source, "MAX_TABLE_CELLS", 40)
    folder = _starter(run_cli, tmp_path)
    table = "| a | b | c |\n|---|---|---|\n" + "| x | y | z |\n" * 4  # 15 cells
    rulebook = folder / "rulebook" / "en.md"
    rulebook.write_text(
        "# Rules\n\n" + "\n".join([table] * 2) + "\n\nMiddle.\n\n" + table, encoding="utf-8"
    )
    line = rulebook.read_text(encoding="utf-8").split("\n").index("Middle.") + 4
    found = _r010(folder)
    assert [f[:3] for f in found] == [("rulebook/en.md", line, 1)]
    assert "45 cells, more than the 40" in found[0][3]
    rulebook.write_text("# Rules\n\n" + "\n".join([table] * 2), encoding="utf-8")
    assert [f for f in _r010(folder) if f[0] == "rulebook/en.md"] == []  # 30 cells


def _labelled(folder: Path, count: int, cards: int = 1) -> None:
    """`count` labelled params on the starter deck's first card, and `cards` more cards
    with a text."""
    deck = folder / DECK
    text = deck.read_text(encoding="utf-8")
    labels = "".join(f"  p{i}: {{en: P{i}}}\n" for i in range(count))
    text = text.replace("size: poker\n", f"size: poker\nlabels:\n{labels}", 1)
    params = "".join(f"      p{i}: {i}\n" for i in range(count))
    text = text.replace("      steps: 2\n", "      steps: 2\n" + params, 1)
    text += "".join(
        f"  - id: more{i}\n    name:\n      en: More {i}\n    text:\n      en: Go.\n"
        for i in range(cards)
    )
    deck.write_text(text, encoding="utf-8")


def test_a_card_reference_wider_than_the_page_is_said_at_labels(run_cli, tmp_path) -> None:
    # P51-13: 40 labelled params validated clean and `build` crashed in reportlab
    # (negative availWidth: a column narrower than its padding)
    folder = _starter(run_cli, tmp_path)
    # Card, the starter's `points`, Copies and Text are the others
    fits = rulebook_source.MAX_TABLE_COLUMNS - 4
    _labelled(folder, fits)
    assert _r010(folder) == []
    folder = _starter(run_cli, tmp_path / "wide")
    _labelled(folder, fits + 1)
    found = _r010(folder)
    assert [f[:3] for f in found] == [(DECK, _line(folder, DECK, "labels:"), 1)]
    assert "21 columns" in found[0][3] and "label 1 fewer" in found[0][3]


def test_a_build_of_too_wide_a_card_reference_is_refused_not_a_traceback(run_cli, tmp_path) -> None:
    folder = _starter(run_cli, tmp_path)
    _labelled(folder, 40)
    result = run_cli("build", str(folder), "--only", "rulebook", "--out", str(tmp_path / "o"))
    assert result.exit_code == 1
    assert "R010" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").rglob("*.pdf"))


def test_the_card_reference_s_cells_count_against_the_budget(
    run_cli, tmp_path, monkeypatch
) -> None:
    # P51-14: 2,000 cards of 30 labelled params (66,000 cells a language): `build` 23 s
    folder = _starter(run_cli, tmp_path)
    _labelled(folder, 2, cards=10)  # 13 cards of 6 columns: 84 cells with the header row
    cells = rulebook_source.table_cells(
        rulebook_source.render_markdown(
            load_game(folder), "en", (folder / "rulebook" / "en.md").read_text(encoding="utf-8")
        )
    )
    monkeypatch.setattr(rulebook_source, "MAX_TABLE_CELLS", cells + 84)
    assert _r010(folder) == []
    monkeypatch.setattr(rulebook_source, "MAX_TABLE_CELLS", cells + 83)
    found = _r010(folder)
    assert [f[:3] for f in found] == [(DECK, _line(folder, DECK, "  - id: more9"), 5)]
    assert "more than" in found[0][3] and "table cells" in found[0][3]


def test_the_card_reference_s_headings_and_rows_count_against_the_blocks(
    run_cli, tmp_path, monkeypatch
) -> None:
    # P51-15: 999 one-card decks (a heading and a table each): `build` 12 s
    folder = _starter(run_cli, tmp_path)
    game_yaml = folder / "game.yaml"
    listed = game_yaml.read_text(encoding="utf-8")
    for i in range(3):
        (folder / f"decks/d{i}.yaml").write_text(
            f"id: d{i}\nkind: actions\nname:\n  en: D{i}\nsize: poker\ncards:\n"
            "  - id: one\n    name:\n      en: One\n    text:\n      en: Go.\n",
            encoding="utf-8",
        )
    decks = "".join(f"    - decks/d{i}.yaml\n" for i in range(3))
    listed = listed.replace("    - decks/cards.yaml\n", "    - decks/cards.yaml\n" + decks)
    game_yaml.write_text(listed, encoding="utf-8")
    game = load_game(folder)
    blocks = rulebook_source.block_count(
        rulebook_source.render_markdown(
            game, "en", (folder / "rulebook" / "en.md").read_text(encoding="utf-8")
        )
    )
    weight = rulebook_source.HEADING_WEIGHT
    # the reference's heading; the starter deck's heading, header row and 3 rows; then a
    # heading, a header row and a row a deck
    used = blocks + weight + (weight + 1 + 3) + 3 * (weight + 2)
    monkeypatch.setattr(rulebook_source, "MAX_BLOCKS", used)
    assert _r010(folder) == []
    monkeypatch.setattr(rulebook_source, "MAX_BLOCKS", used - weight - 2)  # d2 past it
    found = _r010(folder)
    assert [f[:3] for f in found] == [("decks/d2.yaml", 1, 1)]
    assert "3," not in found[0][3] and "blocks" in found[0][3]


def test_no_column_is_narrower_than_its_padding() -> None:
    assert fit_widths([10, 90], [10, 90], 100, floor=11) == pytest.approx([11, 89])
    squeezed = fit_widths([300] + [5] * 19, [300] + [5] * 19, 400, floor=11)
    assert min(squeezed) >= 11 - 1e-9 and sum(squeezed) == pytest.approx(400)
    assert fit_widths([30, 30], [40, 50], 400, floor=11) == fit_widths([30, 30], [40, 50], 400)


def test_a_card_reference_of_long_labels_as_wide_as_a_page_holds_builds(run_cli, tmp_path) -> None:
    # 16 long labels (20 columns, the bound) squeezed the Card column under its padding:
    # reportlab's negative availWidth traceback in `build`
    folder = _starter(run_cli, tmp_path)
    deck = folder / DECK
    text = deck.read_text(encoding="utf-8")
    labels = "".join(f"  p{i}: {{en: Parameter number {i} long label}}\n" for i in range(16))
    text = text.replace("size: poker\n", f"size: poker\nlabels:\n{labels}", 1)
    params = "".join(f"      p{i}: {i * 1000003}\n" for i in range(16))
    deck.write_text(text.replace("      steps: 2\n", "      steps: 2\n" + params, 1), "utf-8")
    out = tmp_path / "o"
    result = run_cli("build", str(folder), "--only", "rulebook", "--lang", "en", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert list(out.rglob("rulebook.pdf"))
