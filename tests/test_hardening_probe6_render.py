"""Findings of the sixth hostile-input probe (issue #33's re-probe) on rendering: rulebooks
of styled spans, and pictures drawn many times or many of them; each with its test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, copy_game

SPANS = "**a** [b](https://x) *c* "  # five pieces of inline markup, three styled spans


@pytest.fixture(scope="module")
def game():
    from toolkit.content.game import load_game

    return load_game(REPO / "content" / "drinking-heroes")


def test_a_rulebook_of_thousands_of_styled_spans_is_refused_where_it_passes_the_bound(game):
    # P1: 20 paragraphs of ~2,000 styled spans (988 kB, within every other bound) took over
    # 100 s and ~1 GB to build: reportlab breaks lines span by span, again at every page
    from toolkit.render.rulebook_source import MAX_INLINE_MARKUP, RulebookError, render_markdown

    assert MAX_INLINE_MARKUP == 5_000
    source = "# Title\n\nShort.\n\n{{ '" + SPANS + "' * 1001 }}\n"
    with pytest.raises(RulebookError, match="more than 5,000 pieces of inline markup") as caught:
        render_markdown(game, "en", source)
    # the 5,001st piece, placed where the source writes it (session 50: at the rendered
    # text's column 25,001, which the source's line does not have)
    assert (caught.value.line, caught.value.col) == (5, 5)
    spread = "# Title\n\n{% for i in range(10) %}{{ '" + SPANS + "' * 101 }}x\n\n{% endfor %}"
    with pytest.raises(RulebookError, match="inline markup"):
        render_markdown(game, "en", spread)  # the total is bounded, not only a paragraph's
    # at the bound: rendered as before
    assert render_markdown(game, "en", source.replace("1001", "1000")).count("**a**") == 1000


def test_inline_icons_and_hard_breaks_have_their_own_lower_bounds(game):
    # an icon costs a paragraph's layout (499 in one paragraph: 8 s); hard line breaks make
    # one paragraph of many pages (3,000 in 9 kB: 3.4 s, growing with their square)
    from toolkit.render.rulebook_source import RulebookError, render_markdown

    with pytest.raises(RulebookError, match="more than 200 inline icons") as caught:
        render_markdown(game, "en", "# T\n\n{{ ':die: ' * 201 }}x\n")
    assert (caught.value.line, caught.value.col) == (3, 200 * 6 + 1)
    assert render_markdown(game, "en", "# T\n\n{{ ':die: ' * 200 }}x\n")
    for hard in ("\\\\\n", "  \n"):  # a backslash or two spaces before the line break
        source = "# T\n\n{{ 'a" + hard + "' * 201 }}a\n"
        with pytest.raises(RulebookError, match="more than 200 hard line breaks") as caught:
            render_markdown(game, "en", source)
        assert caught.value.line == 3  # the template code that printed them (session 50)
        # the same breaks in paragraphs of 100: fine
        split = "# T\n\n{% for i in range(3) %}{{ 'a" + hard + "' * 100 }}a\n\n{% endfor %}"
        assert render_markdown(game, "en", split)


def test_validate_says_where_and_build_refuses_the_span_bomb(tmp_path, run_cli):
    folder = copy_game(REPO / "content" / "drinking-heroes", tmp_path / "g")
    rulebook = folder / "rulebook" / "en.md"
    paragraph = SPANS * 1960  # 49,000 characters: within the paragraph bound
    rulebook.write_text("# Title\n\n" + "\n\n".join([paragraph] * 20) + "\n")
    result = run_cli("validate", str(folder), "--no-cache")
    assert result.exit_code == 1
    assert "rulebook/en.md:3:25001: R010" in result.output.replace("\\", "/")
    out = tmp_path / "out"
    result = run_cli("build", str(folder), "--lang", "en", "--no-cache", "--out", str(out))
    assert result.exit_code == 1
    assert "R010" in result.output and "Traceback" not in result.output
    assert not any(p.is_file() for p in out.rglob("*"))


@pytest.mark.parametrize("lang", ["fr", "es", "en"])
@pytest.mark.parametrize("game_id", ["drinking-heroes", "muckle-stoater", "tokaido", "whisky-game"])
def test_the_bundled_rulebooks_are_well_within_the_markup_bounds(game_id, lang):
    from toolkit.content.game import load_game
    from toolkit.render import rulebook_source as rs

    game = load_game(REPO / "content" / game_id)
    text = rs.render_markdown(game, lang, rs.read_rulebook(game.rulebook[lang], game.root))
    marks = list(rs._INLINE_MARK.finditer(text))
    assert len(marks) < rs.MAX_INLINE_MARKUP / 10
    assert sum(m.group("icon") is not None for m in marks) < rs.MAX_INLINE_ICONS / 10


SVG_OPEN = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
    ' width="100" height="100">'
)


def _icon_folder(root: Path, pictures: dict[str, str], count: int = 5) -> Path:
    """`root/icons/` with each picture of `pictures` (name: colour, 200×200 px) and `count`
    icons (i_a, i_b…) drawing them in turn."""
    from PIL import Image

    icons = root / "icons"
    icons.mkdir(parents=True)
    names = list(pictures)
    for name, colour in pictures.items():
        Image.new("RGB", (200, 200), colour).save(icons / name)
    for i in range(count):
        href = names[i % len(names)]
        (icons / f"i_{chr(97 + i)}.svg").write_text(
            f'{SVG_OPEN}<image xlink:href="{href}" width="100" height="100"/></svg>\n'
        )
    return icons


def _draw(icons: Any, names: list[str], times: int = 3) -> bytes:
    import io

    from reportlab.pdfgen.canvas import Canvas

    from toolkit.render.icons import draw_icon

    out = io.BytesIO()
    page = Canvas(out)
    page.setPageCompression(0)
    for _ in range(times):
        for i, name in enumerate(names):
            assert draw_icon(page, name, 10 + 20 * i, 10, 15, "#000000", icons)
        page.showPage()
    page.save()
    return out.getvalue()


def test_a_picture_many_icons_draw_is_decoded_once_and_embedded_once_per_pdf(tmp_path):
    # P5: 20 icons each drawing one 15.9 M-pixel PNG took 53 s (validate 3:41 and a cards
    # build 5:25 here): svglib decoded the picture for each icon, the throwaway page drew it
    # again, and reportlab decoded and embedded it inline at every draw on every card
    from toolkit.render.icons import icon_set

    _icon_folder(tmp_path, {"b.png": "#c81e1e"})
    icons = icon_set(tmp_path)
    names = [f"i_{chr(97 + i)}" for i in range(5)]
    assert not icons.problems
    pdf = _draw(icons, names)
    assert pdf.count(b"/Subtype /Image") == 1  # embedded once, drawn 15 times
    assert pdf.count(b"\nBI\n") == 0  # no inline image
    from toolkit.render.svg_icons import pictures

    keys = {key for name in names for key in pictures(icons.drawers[name])}
    assert len(keys) == 1  # one picture, shared by the five icons


def test_a_picture_swapped_after_the_check_is_not_what_is_printed(tmp_path):
    # Low: svglib named the picture, and reportlab opened that name again at each draw,
    # after svg_guard's check: what was printed was whatever the name led to then
    from toolkit.render.icons import icon_set

    icons_dir = _icon_folder(tmp_path, {"b.png": "#c81e1e"}, count=1)
    icons = icon_set(tmp_path)
    (icons_dir / "b.png").unlink()
    (icons_dir / "b.png").symlink_to(tmp_path / "elsewhere.png")  # not even there
    pdf = _draw(icons, ["i_a"], times=1)
    assert pdf.count(b"/Subtype /Image") == 1  # the bytes that were checked


def test_the_pictures_a_games_icons_embed_are_bounded_together(tmp_path, monkeypatch):
    # P5/P3: one bound per icon (16 M pixels) let many icons of different pictures cost a
    # second each per PDF; the same picture in many icons counts once
    from toolkit.render import icons as icons_module
    from toolkit.render import svg_guard

    monkeypatch.setattr(svg_guard, "MAX_GAME_PICTURE_PIXELS", 100_000)  # two and a half
    shared = tmp_path / "shared"
    _icon_folder(shared, {"b.png": "#c81e1e"}, count=6)
    assert not icons_module.icon_set(shared).problems
    many = tmp_path / "many"
    colours = {"a.png": "#111111", "b.png": "#222222", "c.png": "#333333"}
    _icon_folder(many, colours, count=3)
    found = icons_module.icon_set(many)
    assert [Path(problem.file).name for problem in found.problems] == ["i_c.svg"]
    assert "more than 100,000 pixels together" in found.problems[0].message
    assert "i_c" in found.broken and {"i_a", "i_b"} <= found.names


def test_the_different_pictures_a_games_layouts_print_are_bounded_together(
    tmp_path, run_cli, monkeypatch
):
    # P3: many different pictures each just under the 40 M-pixel bound cost ~1 s each per
    # language (six took 5:44 to build here); now P004 names the one that passes the total
    from PIL import Image

    from toolkit.render import pictures

    monkeypatch.setattr(pictures, "MAX_GAME_PIXELS", 250_000)
    folder = copy_game(REPO / "content" / "drinking-heroes", tmp_path / "g")
    (folder / "art").mkdir()
    for i in range(3):
        Image.new("RGB", (300, 300), (40 * i, 90, 160)).save(folder / "art" / f"p{i}.png")
    layout = folder / "layouts" / "dh-hero.yaml"
    images = "".join(
        f"  - {{kind: image, box: {{x: 1, y: 1, w: 2, h: 2}}, path: art/p{i}.png}}\n"
        for i in range(3)
    )
    layout.write_text(layout.read_text().replace("elements:\n", "elements:\n" + images, 1))
    result = run_cli("validate", str(folder), "--no-cache")
    assert result.exit_code == 1, result.output
    said = " ".join(result.output.split())
    assert "image 'art/p2.png' takes the pictures the game's layouts print past 250,000" in said
    assert "art/p0.png" not in said and "art/p1.png" not in said


@pytest.mark.parametrize(
    ("block", "col"),
    [("- a\n", 1), ("  1. a\n", 3), ("a\n\n", 1)],
    ids=["list", "ordered", "paragraphs"],
)  # a table's rows meet the tighter MAX_TABLE_ROWS (500) first: test_hardening_probe6_input
def test_a_rulebook_of_thousands_of_blocks_is_refused(game, block, col):
    # a 50 kB list of 12,400 items (one paragraph: within the character bounds) took 44 s
    # to build, the cost growing faster than the items; paragraphs and rows alike
    from toolkit.render.rulebook_source import MAX_BLOCKS, RulebookError, render_markdown

    assert MAX_BLOCKS == 3_000
    head = "# Title\n\n"
    source = head + "{{ '" + block.replace("\n", "\\n") + "' * 3001 }}"
    with pytest.raises(RulebookError, match="more than 3,000 paragraphs") as caught:
        render_markdown(game, "en", source)
    nth = 3001 - 1  # the repeat that is the 3,001st block (the title is the first)
    # rendered line 3 + ... (nth - 1) is past the source's 3 lines: said at the template
    # code that printed it (session 50)
    assert (caught.value.line, caught.value.col) == (3, 1), (nth, col)
    assert render_markdown(game, "en", source.replace("3001", "2900"))
