"""The rulebook's table of contents costs each entry a bounded amount of layout, however
many headings the book has (probe 42 N4: a 2,900-row contents split page by page)."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.platypus.tables import Table

from toolkit.content.game import load_game
from toolkit.render.rulebook import render_rulebook

FIXTURES = Path(__file__).parent / "fixtures"


def headings_game(root: Path, count: int):
    shutil.copytree(FIXTURES / "base", root)
    manifest = (root / "game.yaml").read_text(encoding="utf-8")
    (root / "game.yaml").write_text(manifest + "  rulebook:\n    en: rulebook/en.md\n")
    (root / "rulebook").mkdir()
    body = "# Rules\n\n## Setup\n\nDeal.\n\n" + "".join(
        f"# H{i}\n\n## Part {i}\n\n" for i in range(count)
    )
    (root / "rulebook" / "en.md").write_text(body, encoding="utf-8")
    game = load_game(root)
    assert game.manifest is not None, game.diagnostics
    return game


def rows_measured(game, monkeypatch) -> tuple[int, bytes]:
    """How many table rows reportlab measured (`Table._calc_height`, once a split) while the
    book was laid out."""
    rows = [0]
    real = Table._calc_height

    def counting(self, *args, **kwargs):
        rows[0] += len(self._cellvalues)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Table, "_calc_height", counting)
    pdf = render_rulebook(game, "en")
    monkeypatch.setattr(Table, "_calc_height", real)
    return rows[0], pdf


def test_a_long_contents_is_laid_out_in_linear_time(tmp_path, monkeypatch):
    """The contents was one table, split page by page, and each split measured every row
    left: 300 headings measured 145,000 rows, 600 measured 571,000."""
    game = headings_game(tmp_path / "game", 300)
    rows, pdf = rows_measured(game, monkeypatch)
    entries = 2 + 2 * 300
    assert rows <= 10 * entries, (rows, entries)
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "H299" in text and "Part 299" in text


@pytest.mark.parametrize("count", [3, 60])
def test_contents_entries_name_their_headings_pages(tmp_path, count) -> None:
    """Every heading is listed once, in order, with the page it starts on, over several
    contents pages too."""
    game = headings_game(tmp_path / "game", count)
    texts = [
        page.extract_text() for page in PdfReader(io.BytesIO(render_rulebook(game, "en"))).pages
    ]
    listed: list[tuple[str, int]] = []  # (name, page) in the contents
    starts: dict[str, int] = {}  # the page a line of the book is first on
    contents_pages = 0
    for number, text in enumerate(texts, start=1):
        lines = [line.strip() for line in text.split("\n")]
        for line, after in zip(lines, [*lines[1:], ""], strict=True):
            leader = re.fullmatch(r"[ .]*\.\s*(\d+)", line)
            if leader:  # pypdf reads an entry's leader and page number before its name
                listed.append((after, int(leader.group(1))))
        if any(re.fullmatch(r"[ .]*\.\s*(\d+)", line) for line in lines):
            contents_pages += 1
        else:
            for line in lines:  # a page of the book, not of the contents
                starts.setdefault(line, number)
    names = ["Setup"] + [n for i in range(count) for n in (f"H{i}", f"Part {i}")]
    assert [name for name, _ in listed][: len(names)] == names
    assert listed[-1][0] == "Action cards"  # the card reference's deck, last
    assert [(n, p) for n, p in listed if n in names and starts[n] != p] == []
    assert (contents_pages > 1) == (count > 30), contents_pages


@pytest.mark.parametrize("heading", ["# H{{ i }}\n\n", "### H{{ i }}\n\n", "H{{ i }}\n=\n\n"])
def test_a_heading_counts_twice_against_the_block_bound(tmp_path, heading) -> None:
    """A heading is laid out twice, in the book and in the contents (with a link and an
    outline entry): 2,900 headings took 2.4 s a language, 2,900 paragraphs 1.1 s."""
    from toolkit.render.rulebook_source import MAX_BLOCKS, RulebookError, render_markdown

    game = headings_game(tmp_path / "game", 0)
    loop = "{% for i in range(N) %}" + heading + "{% endfor %}"
    over = (MAX_BLOCKS - 5) // 2 + 1  # the title and "## Setup" count 2 each, "Deal." 1
    with pytest.raises(RulebookError, match="a heading counts twice"):
        render_markdown(
            game, "en", "# Rules\n\n## Setup\n\nDeal.\n\n" + loop.replace("N", str(over))
        )
    assert render_markdown(
        game, "en", "# Rules\n\n## Setup\n\nDeal.\n\n" + loop.replace("N", str(over - 1))
    )
    # a heading of level 4 is a paragraph (not in the contents), and counts once
    assert render_markdown(game, "en", "{% for i in range(2900) %}#### H{{ i }}\n\n{% endfor %}")
