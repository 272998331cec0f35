"""Board and rulebook pages in an export's price (issue #33, probe 54-3, 54-5, 54-6).

`export png` and `export tts` priced the decks' faces before drawing, but drew board and
rulebook pages unpriced: 10 maps each at one drawing's icon bound (217 kB) took `export png`
6.7 s of CPU a language, three 40 kB rulebooks of code lines (358 pages each) 29.5 s, and
nothing added up a game's boards. Now every language's boards and rulebook are made and
priced before any page is rasterised (`exports.pages`), and validate bounds the icons of all
a game's boards together (P016)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_hardening_probe10_files import _files
from toolkit.scaffold.new import new_game


def _circles(count: int) -> str:
    shapes = "".join(
        f'<circle cx="{k % 100}" cy="{k // 100}" r="1" fill="currentColor"/>' for k in range(count)
    )
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{shapes}</svg>'


def _game(folder: Path, boards: int = 0, spaces: int = 20, icon: str = "token") -> Path:
    """A new game (English) with `boards` graph boards of `spaces` spaces of the kind `town`
    styled with `icon` (the game's `token`: an SVG of 50 circles)."""
    new_game(folder, "demo", ["en"])
    (folder / "icons").mkdir(exist_ok=True)
    (folder / "icons" / "token.svg").write_text(_circles(50), encoding="utf-8")
    if not boards:
        return folder
    (folder / "boards").mkdir(exist_ok=True)
    for b in range(boards):
        lines = ["kind: graph", f"id: map{b}", f"name: {{en: Map {b}}}", "style:", "  spaces:"]
        lines += [f"    town: {{icon: {icon}}}", "spaces:"]
        lines += [
            f"  - {{id: b{b}s{i}, name: P{i}, kind: town, lat: {50 + (i // 8) * 0.5},"
            f" lon: {(i % 8) * 0.7}}}"
            for i in range(spaces)
        ]
        lines += ["links:"]
        lines += [f"  - {{a: b{b}s{i}, b: b{b}s{i + 1}}}" for i in range(spaces - 1)]
        (folder / "boards" / f"map{b}.yaml").write_text("\n".join(lines) + "\n", "utf-8")
    manifest = folder / "game.yaml"
    listed = "".join(f"    - boards/map{b}.yaml\n" for b in range(boards))
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("files:\n", f"files:\n  boards:\n{listed}", 1), "utf-8")
    return folder


def _rasterised(monkeypatch) -> list[int]:
    """Count the board and rulebook pages `export png`/`tts` rasterise."""
    from toolkit.render.exports import png

    pages: list[int] = []
    real = png.png_selected

    def counting(pdf, indexes, *args, **kwargs):
        pages.extend(indexes)
        return real(pdf, indexes, *args, **kwargs)

    monkeypatch.setattr(png, "png_selected", counting)
    return pages


def test_export_png_refuses_rulebook_pages_past_the_price_before_drawing_any(
    tmp_path, run_cli, monkeypatch
):
    from toolkit.render.exports import pages

    game = _game(tmp_path / "game")
    out = tmp_path / "out"
    args = ["export", "png", str(game), "--out", str(out), "--dpi", "30", "--page-dpi", "30"]
    drawn = _rasterised(monkeypatch)
    assert run_cli(*args).exit_code == 0
    assert drawn  # the rulebook's pages
    before = _files(out)
    drawn.clear()
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("Forward", "Backward"), "utf-8")
    monkeypatch.setattr(pages, "MAX_EXPORT_PAGE_COST", 1_000)  # less than one page
    result = run_cli(*args)
    assert result.exit_code == 1, result.output
    said = " ".join(result.output.split())
    assert "rulebook page(s)" in said and "more than the 0 M one export may draw" in said, said
    assert "--page-dpi" in said and "--lang" in said, said
    assert drawn == []  # refused before any page was rasterised
    assert _files(out) == before  # and before any card image: the old set stays


def test_export_png_prices_the_icons_a_board_draws(tmp_path, run_cli, monkeypatch):
    from toolkit.content.game import load_game
    from toolkit.render.exports import pages
    from toolkit.render.icons import icon_set, icon_weight

    game = _game(tmp_path / "game", boards=1)
    loaded = load_game(game)
    (board,) = pages.board_pdfs(loaded, "en")
    weight = icon_weight("token", icon_set(game))
    assert board.icons.shapes == weight * 21  # every space's use, and the legend's
    plain = _game(tmp_path / "plain", boards=1, icon="none")
    (none,) = pages.board_pdfs(load_game(plain), "en")
    assert none.icons.shapes == 0

    def cost(root: Path) -> int:
        made = pages.priced_pages(load_game(root), ["en"], 30, None, None, lambda *a: None)
        return sum(pages.pages_cost(pages.page_sizes(b.pdf), b.icons, 30) for b in made[0].boards)

    assert cost(game) > cost(plain)  # the icons' shapes are priced
    from toolkit.render.exports.png import rulebook_document

    (rulebook,) = [rulebook_document(loaded, "en")]
    assert rulebook is not None
    pixels = pages.pages_cost(pages.page_sizes(rulebook), pages.FaceLoad(), 30)
    monkeypatch.setattr(pages, "MAX_EXPORT_PAGE_COST", cost(plain) + pixels)
    drawn = _rasterised(monkeypatch)
    args = ["--out", str(tmp_path / "out"), "--dpi", "30", "--page-dpi", "30"]
    assert run_cli("export", "png", str(plain), *args).exit_code == 0  # its pixels only
    plain_pages = len(drawn)
    result = run_cli("export", "png", str(game), *args)
    assert result.exit_code == 1, result.output
    said = " ".join(result.output.split())
    assert "1 board page(s)" in said and "for the icons and game fonts' glyphs drawn" in said, said
    assert len(drawn) == plain_pages  # none rasterised


def test_export_tts_refuses_board_images_past_the_price_before_drawing_any(
    tmp_path, run_cli, monkeypatch
):
    from toolkit.render.exports import pages

    game = _game(tmp_path / "game", boards=2)
    out = tmp_path / "out"
    monkeypatch.setattr(pages, "MAX_EXPORT_PAGE_COST", 1_000)
    drawn = _rasterised(monkeypatch)
    result = run_cli("export", "tts", str(game), "--out", str(out), "--dpi", "30")
    assert result.exit_code == 1, result.output
    said = " ".join(result.output.split())
    assert "2 board page(s)" in said and "at 100 dpi" in said, said
    assert "--page-dpi" not in said  # not an option of tts
    assert drawn == []
    assert not [path for path in out.rglob("*") if path.is_file()]


def _board_fit(run_cli, root: Path) -> list[dict]:
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    found = json.loads(result.stdout)
    return [d for d in found if d["code"] == "P016" and d["severity"] == "error"]


@pytest.mark.parametrize("boards", [1, 2])
def test_validate_bounds_the_icons_of_a_games_boards_together(
    tmp_path, run_cli, monkeypatch, boards
):
    from toolkit.render.boards import look
    from toolkit.render.icons import icon_set, icon_weight

    game = _game(tmp_path / "game", boards=boards)
    each = icon_weight("token", icon_set(game)) * 21  # 20 spaces and the legend
    monkeypatch.setattr(look, "MAX_GAME_ICON_WEIGHT", each + each // 2)
    found = _board_fit(run_cli, game)
    if boards == 1:
        assert found == []
        return
    assert len(found) == 1, found
    (finding,) = found
    assert finding["file"].endswith("boards/map1.yaml")  # the board that passes it
    assert (finding["line"], finding["col"]) == (6, 18)  # `token` of `town: {icon: token}`
    assert f"weigh {2 * each:,} drawn elements together" in finding["message"]
    assert f"more than the {each + each // 2:,} a game's boards draw" in finding["message"]


def _preview(game: Path, monkeypatch):
    from toolkit.preview.live import Preview

    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    preview = Preview(game)
    preview.load(check=False)
    return preview


def _first(preview, kind: str):
    return next(t for t in preview.snap.targets.values() if t.kind == kind and t.lang == "en")


def test_the_preview_draws_board_and_rulebook_pages_within_a_revision_budget(tmp_path, monkeypatch):
    # the preview drew every page asked for: 358 rulebook pages of code lines a language
    # were 16.3 s of CPU for three, 10 maps at one drawing's icon bound 14.3 s
    from toolkit.preview import document_budget, live
    from toolkit.preview.cache import page_key

    game, plain = _game(tmp_path / "game", boards=1), _game(tmp_path / "p", 1, icon="none")
    spent = {}
    for name, root in (("icons", game), ("plain", plain)):
        preview = _preview(root, monkeypatch)
        assert preview.page(page_key(_first(preview, "board"), 0)) is not None
        spent[name] = document_budget.page_budget(preview.shown).spent
    assert spent["icons"] > spent["plain"] > 0  # a page's pixels, and the board's icons

    rasterised: list[int] = []
    real = live.document_pages
    monkeypatch.setattr(live, "document_pages", lambda *a: rasterised.append(1) or real(*a))
    monkeypatch.setattr(document_budget, "MAX_PREVIEW_PAGE_COST", spent["plain"])
    preview = _preview(game, monkeypatch)
    board, rulebook = _first(preview, "board"), _first(preview, "rulebook")
    assert preview.page(page_key(board, 0)) is None  # its icons pass the budget
    assert preview.page(page_key(rulebook, 0)) is not None  # a page of the scaffold's fits
    assert len(rasterised) == 1
    said = preview.cache.errors[board.key]
    assert said.startswith("the board's page 1 is not drawn"), said
    assert "the preview does not draw them" in said  # the budget is less than its icons
    face = next(t for t in preview.snap.targets.values() if t.kind == "face")
    assert preview.page(face.key) is not None  # faces have their own budget
