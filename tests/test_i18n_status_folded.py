"""`i18n status` of a game of many files shows a bounded table: each language's totals,
then the rows with the most texts missing and problems first, then how many rows are left
out (probe 42 N2: 6,000 one-card decks made a rich table of 18,000 rows, ~10 s to lay
out). A game of few files shows every row as before."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import FIXTURES, copy_game
from toolkit.cli import i18n as i18n_cli
from toolkit.i18n.status import StatusRow, folded

DECK = """id: d{i}
kind: actions
name: {{fr: D{i}, es: E{i}, en: N{i}}}
size: poker
cards:
  - {{id: k{i}, name: {{fr: A{i}, es: {es}, en: C{i}}}}}
"""


def _game(tmp_path: Path, count: int) -> Path:
    root = copy_game(FIXTURES / "base", tmp_path / "game")
    listed = ""
    for i in range(count):
        es = "''" if i == 7 else f"B{i}"  # d7: a text missing in Spanish
        (root / "decks" / f"d{i}.yaml").write_text(DECK.format(i=i, es=es), encoding="utf-8")
        listed += f"    - decks/d{i}.yaml\n"
    manifest = root / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    text = text.replace("    - decks/cards.yaml\n", "    - decks/cards.yaml\n" + listed)
    manifest.write_text(text, encoding="utf-8")
    return root


def test_a_game_of_many_files_shows_totals_and_the_rows_missing_most(
    run_cli, tmp_path, monkeypatch
):
    monkeypatch.setattr(i18n_cli, "STATUS_ROWS", 20)
    monkeypatch.setenv("COLUMNS", "200")
    result = run_cli("i18n", "status", str(_game(tmp_path, 30)))
    assert result.exit_code == 0, result.output
    table = [line for line in result.output.splitlines() if line.startswith("│")]
    assert len(table) <= 20
    # the totals a language first, then d7's Spanish row (a text missing) before any other
    assert table[0].split("│")[1].strip().startswith("every file")
    assert [line.split("│")[2].strip() for line in table[:3]] == ["en", "es", "fr"]
    assert "decks/d7.yaml" in table[3] and "50%" in table[3]
    assert "more row(s)" in result.output


def test_a_game_of_few_files_shows_every_row(run_cli, tmp_path):
    result = run_cli("i18n", "status", str(_game(tmp_path, 2)))
    assert result.exit_code == 0, result.output
    assert "every file" not in result.output and "more row(s)" not in result.output
    assert "decks/d0.yaml" in result.output and "decks/d1.yaml" in result.output


def test_the_totals_add_up_every_row():
    rows = [
        StatusRow(f"f{i}", lang, 4, i % 5, i % 3, {"T001": i % 3})
        for i in range(50)
        for lang in ("en", "fr")
    ]
    totals, shown, left = folded(rows, 10)
    assert [t.lang for t in totals] == ["en", "fr"]
    assert sum(t.texts for t in totals) == 400
    assert sum(t.translated for t in totals) == sum(r.translated for r in rows)
    assert sum(t.problems for t in totals) == sum(r.problems for r in rows)
    assert sum(t.codes["T001"] for t in totals) == sum(r.codes["T001"] for r in rows)
    assert len(shown) == 8 and left == 92
    missing = [r.texts - r.translated + r.problems for r in shown]
    assert missing == sorted(missing, reverse=True)
    assert min(missing) >= max(r.texts - r.translated + r.problems for r in rows if r not in shown)
