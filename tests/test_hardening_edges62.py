"""What an SVG icon's paths cost at any dpi (issue #33, probe 62-1).

An icon's outline was priced in pixels of length alone, at a layout stroke's rate: the
24,000-point gradient zig-zag 8 times a face in 18 mm boxes (6 cards) was priced ~870 M and
took `export png` 27.5 s at the default dpi, and a refusal's advice (a lower --dpi) let the
same paths through at 24 s. Measured, PDFium spends ~0.17 µs a point a pass whatever the dpi
(reading the form's path again at each use, setting up its edges) and ~100 ns a pixel of
outline a pass for paths that cross each row thousands of times; a gradient fill and a
stroke go along the path twice. Now each point is priced besides the length, each pass
counted, and a refusal no dpi can lift says so."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tests.test_hardening_pages60 import _game as _board_game
from tests.test_hardening_raster59 import _icon

STOPS = '<stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/>'


def _ring(count: int) -> str:
    """A closed path of `count` points on a circle (edges under a unit: short-edged)."""
    points = " ".join(
        f"{50 + 45 * math.cos(2 * math.pi * i / count):.2f}"
        f" {50 + 45 * math.sin(2 * math.pi * i / count):.2f}"
        for i in range(count)
    )
    return f"M{points} Z"


def _zigzag(count: int) -> str:
    """An open path of `count` points zig-zagging across the box (long-edged)."""
    return "M" + " ".join(f"{(i * 37) % 101} {(i * 61) % 97}" for i in range(count))


def test_an_icons_points_are_counted_once_a_pass(tmp_path):
    path = _ring(1_000)
    filled = _icon(tmp_path, f'<path d="{path}" fill="#000"/>')
    stroked = _icon(tmp_path, f'<path d="{path}" fill="none" stroke="#000"/>')
    unpainted = _icon(tmp_path, f'<path d="{path}" fill="none"/>')
    shaded = _icon(
        tmp_path,
        f'<defs><linearGradient id="g">{STOPS}</linearGradient></defs>'
        f'<path d="{path}" fill="url(#g)"/>',
    )
    assert 1_000 <= filled.points <= 1_010
    assert stroked.points == pytest.approx(3 * filled.points, rel=0.01)  # sides, joins
    assert unpainted.points == pytest.approx(filled.points, rel=0.01)  # still read
    assert shaded.points >= 2 * filled.points  # filled under the shading, and its clip
    assert filled.outline < 3  # short edges: their length is no measure of their cost


def test_a_gradient_fill_goes_along_its_outline_twice(tmp_path):
    # svglib writes `path W* f*` then the shading: the path is filled and clipped to
    path = _zigzag(400)
    flat = _icon(tmp_path, f'<path d="{path}" fill="#000"/>')
    for kind in ("linearGradient", "radialGradient"):
        shaded = _icon(
            tmp_path,
            f'<defs><{kind} id="g">{STOPS}</{kind}></defs><path d="{path}" fill="url(#g)"/>',
        )
        assert shaded.outline == pytest.approx(2 * flat.outline, rel=0.01), kind


def _deck_game(folder: Path, body: str, side_mm: float, uses: int = 1) -> tuple[object, object]:
    """A new game (English) whose front layout draws icon `x` (an SVG of `body`) `uses`
    times in a box of `side_mm`; the game and its deck as printed."""
    from toolkit.content.game import load_game
    from toolkit.render.exports.faces import printed_decks
    from toolkit.scaffold.new import new_game

    new_game(folder, "demo", ["en"])
    (folder / "icons").mkdir(exist_ok=True)
    (folder / "icons" / "x.svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{body}</svg>', "utf-8"
    )
    layout = folder / "layouts" / "standard.yaml"
    box = f"{{x: 1, y: 12, w: {side_mm}, h: {side_mm}}}"
    element = f"  - {{kind: icon, box: {box}, icon: x}}\n" * uses
    layout.write_text(layout.read_text("utf-8").replace("elements:\n", "elements:\n" + element, 1))
    game = load_game(folder)
    (printed,) = printed_decks(game)
    return game, printed


@pytest.mark.parametrize(
    ("path", "side", "measured"),
    [
        # (the path, the box in mm, {dpi: CPU a use measured, in image pixels of ~11 ns})
        (_zigzag(24_000), 18, {300: 55e6, 75: 11.7e6}),  # 0.60 s, 0.13 s a use
        (_ring(24_000), 18, {30: 0.5e6, 300: 0.55e6}),  # 5.5 ms and 6 ms a use
    ],
    ids=["zig-zag", "ring"],
)
def test_a_gradient_filled_paths_use_is_priced_at_what_it_was_measured_to_cost(
    tmp_path, path, side, measured
):
    # probe 62-1: the zig-zag, gradient-filled, 8 times a face in 18 mm boxes at 300 dpi
    # was priced 16.6 M a use (~0.18 s) and cost 0.6 s; the ring of short edges was priced
    # by its shapes alone, 0.27 M at 30 dpi
    from toolkit.render.exports.faces import deck_load
    from toolkit.render.raster_weight import load_price

    body = f'<defs><linearGradient id="g">{STOPS}</linearGradient></defs>'
    body += f'<path d="{path}" fill="url(#g)"/>'
    game, printed = _deck_game(tmp_path / "g", body, side)
    load = deck_load(game, printed, ["en"])
    uses = len(printed.cards)  # one a front; the back draws none
    for dpi, cost in measured.items():
        assert load_price(load, dpi) / uses >= cost, (dpi, load_price(load, dpi) / uses)


def test_a_refusal_no_dpi_can_lift_says_so(tmp_path):
    from toolkit.render.artifacts import BuildError
    from toolkit.render.exports.faces import MAX_EXPORT_PIXELS, check_export_cost
    from toolkit.render.raster_weight import FaceLoad, load_floor, load_price

    def drawn(dpi: float) -> int:
        return int(20 * dpi * dpi)

    pointed = FaceLoad(points=MAX_EXPORT_PIXELS / 10)  # points alone past the bound
    assert load_floor(pointed) > MAX_EXPORT_PIXELS
    with pytest.raises(BuildError) as refused:
        check_export_cost(drawn, lambda dpi: load_price(pointed, dpi), 300, ["en"])
    said = " ".join(str(refused.value).split())
    assert "no --dpi brings them under it" in said and "simpler icons" in said, said
    assert "lower --dpi" not in said

    long = FaceLoad(outline=30_000_000.0, points=1_000.0)  # its pixels of outline: a dpi helps
    with pytest.raises(BuildError) as refused:
        check_export_cost(drawn, lambda dpi: load_price(long, dpi), 300, ["en"])
    said = " ".join(str(refused.value).split())
    assert "lower --dpi (" in said and "no --dpi" not in said, said
    most = int(said.split("lower --dpi (")[1].split()[0])
    assert drawn(most) + load_price(long, most) <= MAX_EXPORT_PIXELS


def test_a_page_refusal_no_page_dpi_can_lift_says_so():
    from toolkit.render.artifacts import BuildError
    from toolkit.render.exports import pages
    from toolkit.render.raster_weight import FaceLoad

    priced = pages._Priced()
    board = FaceLoad(points=pages.MAX_EXPORT_PAGE_COST / 10)
    priced.documents.append(("board", [(1190.0, 1684.0)], board))
    priced.langs = 1
    with pytest.raises(BuildError) as refused:
        pages._check(priced, 150, "--page-dpi", ["en"])
    said = " ".join(str(refused.value).split())
    assert "no --page-dpi brings them under it" in said and "use --page-dpi" not in said, said


def test_a_boards_icons_are_priced_by_their_points_too(tmp_path):
    # probe 62-1: the Whisky Game's map with the gradient zig-zag on its distilleries, 9.9 s
    # a page in the preview (60 dpi), priced by its outline's length alone
    from toolkit.content.game import load_game
    from toolkit.preview.document_budget import MAX_PREVIEW_PAGE_COST, PageBudget
    from toolkit.render.exports import pages
    from toolkit.render.icons import icon_points, icon_set
    from toolkit.render.raster_weight import FaceLoad, load_floor

    game = _board_game(tmp_path / "game", boards=1)
    (board,) = pages.board_pdfs(load_game(game), "en")
    each = icon_points("token", icon_set(game))
    assert each >= 50 * 13  # 50 circles, each four curves
    assert board.icons.points == pytest.approx(each * 21)  # every space's use and the legend's

    heavy = FaceLoad(points=MAX_PREVIEW_PAGE_COST / 10)
    assert load_floor(heavy) > MAX_PREVIEW_PAGE_COST
    said = PageBudget().charge("the board's page 1 is", [(420.0, 594.0)], heavy, 60)
    assert said is not None and "not drawn" in said
    assert "the preview does not draw them" in said and "after the next save" not in said
    budget = PageBudget()
    budget.spent = MAX_PREVIEW_PAGE_COST - 1  # a page that fits a revision, none left
    said = budget.charge("the board's page 1 is", [(420.0, 594.0)], FaceLoad(), 60)
    assert said is not None and "drawn when shown after the next save" in said


def test_the_preview_does_not_draw_a_face_whose_icons_pass_what_is_left(tmp_path, monkeypatch):
    # probe 62-1: a face's icons were charged after it was drawn, so the first face asked
    # drew whatever they cost (one request drew two faces of four full-card uses, 5.8 s)
    from tests.test_hardening_pages60 import _preview

    body = f'<defs><linearGradient id="g">{STOPS}</linearGradient></defs>'
    body += f'<path d="{_zigzag(24_000)}" fill="url(#g)"/>'
    _deck_game(tmp_path / "g", body, 60, uses=2)
    preview = _preview(tmp_path / "g", monkeypatch)
    faces = [t for t in preview.snap.targets.values() if t.kind == "face" and t.lang == "en"]
    front = next(t for t in faces if t.side == "front")
    back = next(t for t in faces if t.side == "back")
    assert preview.page(front.key) is None  # not drawn
    said = str(preview.cache.errors[front.key])
    assert "is not rendered" in said and "SVG icons and pictures" in said, said
    assert "the preview does not draw it" in said, said  # no save lets them through
    assert preview.page(back.key) is not None  # a plain back still is
