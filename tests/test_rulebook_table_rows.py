"""A rulebook's own table row taller than a page is R010 in validate, where `build` refuses
it (lows60: validate was clean and build said "a table row is taller than a page"), measured
as build lays the row out; a rulebook of ordinary tables is not parsed for it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import REPO
from toolkit.checks import rulebook_tables
from toolkit.content.game import load_game
from toolkit.render.rulebook import RulebookTooLarge, render_rulebook
from toolkit.render.rulebook_source import read_rulebook, render_markdown
from toolkit.render.rulebook_style import Faces, rulebook_faces
from toolkit.scaffold.new import new_game

TABLE = "\n## Scores\n\n| Name | Effect |\n|---|---|\n| short | fine |\n"


def _game(tmp_path: Path, row: str) -> tuple[Path, int]:
    """The starter game whose English rulebook ends with a table holding `row`: the row's
    line in the file."""
    game = tmp_path / "g"
    new_game(game, "g", ["en"])
    book = game / "rulebook" / "en.md"
    text = book.read_text(encoding="utf-8") + TABLE
    book.write_text(text + row + "\n", encoding="utf-8")
    return game, text.count("\n") + 1


def _words(count: int) -> str:
    return "| long | " + " ".join(["word"] * count) + " |"


def test_a_table_row_taller_than_a_page_is_r010_at_its_line(run_cli, tmp_path):
    game, line = _game(tmp_path, _words(1_800))
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    found = [d for d in json.loads(result.output) if d["code"] == "R010"]
    assert [(Path(d["file"]).name, d["line"], d["col"]) for d in found] == [("en.md", line, 1)]
    assert "more than a page of A4 or letter holds" in found[0]["message"]
    assert result.exit_code == 1
    built = run_cli("build", str(game), "--no-cache", "--only", "rulebook")
    assert built.exit_code == 1 and "R010" in built.output


def test_validate_says_a_tall_table_row_on_the_papers_build_refuses_it_on(tmp_path):
    # at the edge: a row letter's shorter page cannot hold and A4's can is said for letter
    seen = []
    for count in (900, 960, 990):
        game = load_game(_game(tmp_path / str(count), _words(count))[0])
        text = render_markdown(game, "en", read_rulebook(game.rulebook["en"], game.root))
        said = [
            message.split("page of ")[1].split(" holds")[0]
            for _, message in rulebook_tables.tall_table_rows(
                text, "en", rulebook_faces(game), None
            )
        ]
        refused = []
        for paper in ("a4", "letter"):
            try:
                render_rulebook(game, "en", paper)
            except RulebookTooLarge:
                refused.append("A4" if paper == "a4" else paper)
        assert said == ([" or ".join(refused)] if refused else []), count
        seen.append(refused)
    assert seen == [[], ["letter"], ["A4", "letter"]]


def test_a_rulebook_of_ordinary_tables_is_not_parsed_for_them(tmp_path):
    game, _ = _game(tmp_path, "| mid | a few words here |")
    code = (
        "import sys\n"
        "from toolkit.cli import main\n"
        f"sys.argv = ['playset', 'validate', {str(game)!r}, '--no-cache']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "assert 'markdown_it' not in sys.modules, 'parsed'\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.lists(st.integers(min_value=0, max_value=1_200), min_size=2, max_size=4),
        min_size=2,
        max_size=5,
    )
)
def test_a_table_the_cheap_look_passes_has_no_tall_row(rows: list[list[int]]) -> None:
    # the look reads the Markdown as written and may only ever pass a table the layout does
    width = max(len(row) for row in rows)
    lines = [
        "| " + " | ".join(" ".join(["wide"] * n) for n in row + [1] * (width - len(row))) + " |"
        for row in rows
    ]
    text = "# Rules\n\n" + "\n".join([lines[0], "|" + "---|" * width, *lines[1:]]) + "\n"
    if rulebook_tables._plainly_short(text, Faces()):
        assert not list(rulebook_tables.measured_rows(text, "en", Faces(), None))


OLD_DELIMITER_ROW = re.compile(r"\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*")


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="|-: \tx", max_size=14))
def test_a_delimiter_row_is_read_as_the_pattern_read_it(line: str) -> None:
    old = bool(OLD_DELIMITER_ROW.fullmatch(line)) and "-" in line and "|" in line
    assert rulebook_tables._delimiter_row(line) == old


def test_the_delimiter_look_is_one_pass():
    """A dash and 49,000 spaces on a line took the row's one pattern 24 s (probe 63-2): a
    row of 200,000 is read in milliseconds now (a generous limit, in a process of its own)."""
    code = (
        "from toolkit.checks.rulebook_tables import _delimiter_row\n"
        "assert not _delimiter_row('|-' + ' ' * 200_000 + 'x')\n"
        "assert not _delimiter_row('-' + ' ' * 200_000 + 'x|')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60, cwd=REPO)


def test_the_look_measures_a_table_s_words_once(monkeypatch):
    # probe 63-4: each `|-` line under a table's header was a table of its own, every row
    # below it measured again in four faces for each (11.6 s of validate in 20 languages)
    from reportlab.pdfbase import pdfmetrics

    calls: list[str] = []
    real = pdfmetrics.stringWidth

    def counted(text: str, *args, **kwargs):
        calls.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(pdfmetrics, "stringWidth", counted)
    rows = "\n".join(["x|y", *["|-"] * 80, *[" ".join("a" * 25)] * 80])
    text = f"# Rules\n\n{rows}\n"
    rulebook_tables._plainly_short(text, Faces())
    assert len(calls) < 50, len(calls)


def test_the_tables_validate_lays_out_are_bounded(run_cli, tmp_path, monkeypatch):
    # probe 63-5: 5,400 cells of page-high text the look could not settle were laid out by
    # validate (3.8 s): past the bound (in characters) a row is left to `build`
    from toolkit.checks import rulebook

    game, line = _game(tmp_path, _words(1_800))
    book = game / "rulebook" / "en.md"
    book.write_text(book.read_text(encoding="utf-8") + TABLE + _words(1_800) + "\n")

    def tall(found) -> int:
        return sum(1 for d in json.loads(found.output) if "table row would print" in d["message"])

    assert tall(run_cli("validate", str(game), "--no-cache", "--format", "json")) == 2
    monkeypatch.setattr(rulebook, "MAX_MEASURED_CHARACTERS", 10)  # the first table's ~9,000
    assert tall(run_cli("validate", str(game), "--no-cache", "--format", "json")) == 1
