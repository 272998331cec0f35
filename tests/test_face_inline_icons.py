"""A card face draws a bounded number of inline icons (`:die:`): the PDF places an icon by
reference, but a picture of the face draws each use whole (probe 46: 200 uses of a
1,990-circle icon took `export png` 3 s for one face)."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from tests.conftest import FIXTURES, diagnostics_json
from toolkit.content.game import load_game
from toolkit.content.models.deck import size_mm
from toolkit.render import layout as layouts
from toolkit.render.cardface import draw_face
from toolkit.render.elements import text as text_kind
from toolkit.render.icons import (
    BUILTIN,
    MAX_FACE_ICON_WEIGHT,
    MAX_FACE_INLINE_ICONS,
    inline_allowed,
    inline_icons,
    one_face,
)
from toolkit.render.printjob import PrintJob


def test_a_face_may_draw_its_bound_of_inline_icons_and_no_more(tmp_path: Path):
    c = Canvas(str(tmp_path / "x.pdf"))
    assert inline_allowed(c, 500) == 500  # outside a face nothing is counted
    with one_face(c):
        assert inline_allowed(c, MAX_FACE_INLINE_ICONS - 4) == MAX_FACE_INLINE_ICONS - 4
        assert inline_allowed(c, 10) == 4
        assert inline_allowed(c, 1) == 0
    assert inline_allowed(c, 3) == 3
    with one_face(c):  # each face its own
        assert inline_allowed(c, MAX_FACE_INLINE_ICONS + 1) == MAX_FACE_INLINE_ICONS


def test_a_face_of_many_inline_icons_draws_the_first_ones(tmp_path: Path, monkeypatch):
    game = load_game(FIXTURES / "base")
    deck = next(d.model for d in game.decks if d.model is not None)
    standard, _ = layouts.load_layout("standard")
    assert standard is not None
    job = PrintJob(game, deck, standard, None, "en", size_mm(deck.size))
    card = deck.cards[0]
    many = " ".join([":coin:"] * 150)
    card = card.model_copy(update={"text": {**card.text, "en": many}})
    drawn: list[str] = []
    monkeypatch.setattr(text_kind, "draw_icon", lambda c, name, *a: drawn.append(name))
    c = Canvas(str(tmp_path / "x.pdf"))
    draw_face(c, job, standard, card, (0.0, 0.0))
    assert len(drawn) == MAX_FACE_INLINE_ICONS
    drawn.clear()
    draw_face(c, job, standard, card, (0.0, 0.0))  # the next face draws its own again
    assert len(drawn) == MAX_FACE_INLINE_ICONS


def test_inline_icons_counts_the_names_the_game_has():
    names = frozenset({"coin", "die"})
    assert inline_icons(":coin: :die: :lamp: coin", names) == 2
    assert inline_icons("no colon", names) == 0


def test_validate_says_a_face_past_the_bound_at_its_card(tmp_path: Path, run_cli):
    assert run_cli("new", "g", "--into", str(tmp_path)).exit_code == 0
    deck = tmp_path / "g" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    assert "en: Move" in text
    icons = " ".join([":coin:"] * (MAX_FACE_INLINE_ICONS + 1))
    deck.write_text(text.replace("en: Move", f'en: "{icons}" # Move', 1), encoding="utf-8")
    result = run_cli("validate", str(tmp_path / "g"), "--format", "json", "--no-cache")
    assert result.exit_code == 1, result.output
    found = [d for d in diagnostics_json(result.output) if d["code"] == "P018"]
    assert len(found) == 1, result.output
    assert f"prints {MAX_FACE_INLINE_ICONS + 1} inline icons" in found[0]["message"]
    fewer = " ".join([":coin:"] * MAX_FACE_INLINE_ICONS)
    deck.write_text(text.replace("en: Move", f'en: "{fewer}" # Move', 1), encoding="utf-8")
    result = run_cli("validate", str(tmp_path / "g"), "--format", "json", "--no-cache")
    assert "P018" not in {d["code"] for d in diagnostics_json(result.output)}, result.output


def _heavy_game(tmp_path: Path, run_cli, elements: int) -> Path:
    """A new game whose token icon is 1,000 circles, on a layout of `elements` icon
    elements naming it, used by its deck."""
    assert run_cli("new", "g", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "g"
    circles = "".join(f'<circle cx="{k % 100}" cy="{k // 10}" r="1"/>' for k in range(1000))
    (game / "icons" / "token.svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{circles}</svg>',
        encoding="utf-8",
    )
    icons = "".join(
        f"  - {{kind: icon, box: {{x: {1 + k}, y: 2, w: 5, h: 5}}, icon: token}}\n"
        for k in range(elements)
    )
    (game / "layouts" / "heavy.yaml").write_text(f"id: heavy\nelements:\n{icons}", "utf-8")
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("size: poker\n", "size: poker\nlayout: heavy\n", 1), "utf-8")
    return game


def test_validate_says_a_face_whose_icons_weigh_past_the_bound(tmp_path: Path, run_cli):
    # probe 47 K9: 32 icon elements of 1,990 large translucent circles, 8.9 s for one face
    heavy = MAX_FACE_ICON_WEIGHT // 1000 + 1
    game = _heavy_game(tmp_path / "a", run_cli, heavy)
    result = run_cli("validate", str(game), "--format", "json", "--no-cache")
    found = [d for d in diagnostics_json(result.output) if d["code"] == "P018"]
    assert result.exit_code == 1 and found, result.output
    assert "'token' weighs 1,00" in found[0]["message"], found[0]["message"]
    game = _heavy_game(tmp_path / "b", run_cli, heavy - 2)
    result = run_cli("validate", str(game), "--format", "json", "--no-cache")
    assert "P018" not in {d["code"] for d in diagnostics_json(result.output)}, result.output


def test_a_face_draws_the_icons_its_weight_allows(tmp_path: Path, monkeypatch):
    from toolkit.render import icons as icon_module

    c = Canvas(str(tmp_path / "x.pdf"))
    weights = {"big": MAX_FACE_ICON_WEIGHT // 3, "small": 1}
    monkeypatch.setattr(icon_module, "icon_weight", lambda name, icons=None: weights[name])
    assert all(icon_module._face_allows(c, "big", BUILTIN) for _ in range(5))  # no face
    with one_face(c):
        assert [icon_module._face_allows(c, "big", BUILTIN) for _ in range(4)] == [
            True,
            True,
            True,
            False,
        ]
        assert not icon_module._face_allows(c, "small", BUILTIN)  # none after the first past
    with one_face(c):
        assert icon_module._face_allows(c, "big", BUILTIN)


def test_draw_icon_leaves_blank_what_a_face_may_not_draw(tmp_path: Path, monkeypatch):
    from toolkit.render import icons as icon_module

    drawn: list[float] = []
    icons = icon_module.IconSet({"big": lambda c, size: drawn.append(size)}, frozenset({"big"}))
    monkeypatch.setattr(icon_module, "icon_weight", lambda *a: MAX_FACE_ICON_WEIGHT // 3)
    c = Canvas(str(tmp_path / "x.pdf"))
    with one_face(c):
        assert all(icon_module.draw_icon(c, "big", 0, 0, 10, "#000000", icons) for _ in range(5))
    assert len(drawn) == 3


def _svg(tmp_path: Path, body: str):
    from toolkit.render.svg_icons import load_svg

    path = tmp_path / "i.svg"
    path.write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{body}</svg>', "utf-8"
    )
    return load_svg(path, "icons/i.svg")


def test_an_icons_coverage_is_how_many_times_its_shapes_paint_its_box(tmp_path: Path):
    whole = '<rect x="0" y="0" width="100" height="100"/>'
    icon, problem = _svg(tmp_path, whole * 3)
    assert problem is None and icon is not None
    assert abs(icon.coverage - 3.0) < 0.01
    icon, _ = _svg(tmp_path, '<circle cx="50" cy="50" r="5"/>')
    assert icon is not None and abs(icon.coverage - 0.01) < 0.001  # its 10 x 10 box
    icon, _ = _svg(tmp_path, '<g transform="scale(0.5)">' + whole + "</g>")
    assert icon is not None and abs(icon.coverage - 0.25) < 0.01  # a group's transform
    icon, _ = _svg(tmp_path, '<circle cx="50" cy="50" r="300"/>')  # clipped as its form is
    assert icon is not None and abs(icon.coverage - 1.5**2) < 0.01


def test_an_icon_whose_shapes_reach_far_beyond_its_box_is_refused(tmp_path: Path):
    # probe 48 N2: 32 circles of radius 100,000, clipped to their box, took a board 17.7 s
    icon, problem = _svg(tmp_path, '<circle cx="50" cy="50" r="100000"/>')
    assert icon is None and problem is not None
    assert "reaches more than 4 times its size beyond its box" in problem.message
    icon, problem = _svg(tmp_path, '<circle cx="50" cy="50" r="400"/>')  # within the reach
    assert icon is not None and problem is None


def test_a_face_paints_a_bounded_area_of_icons(tmp_path: Path, monkeypatch):
    from toolkit.render import icons as icon_module

    monkeypatch.setattr(icon_module, "icon_weight", lambda *a: 1)
    monkeypatch.setattr(icon_module, "icon_paint", lambda *a: 100.0)
    c = Canvas(str(tmp_path / "x.pdf"))
    side = (icon_module.MAX_FACE_ICON_PAINT / 100 / 3) ** 0.5  # three such fill the face's
    with one_face(c):
        allowed = [icon_module._face_allows(c, "big", BUILTIN, side * 0.99) for _ in range(4)]
    assert allowed == [True, True, True, False]


def test_validate_says_a_face_whose_icons_paint_too_much(tmp_path: Path, run_cli):
    # probe 48 N1: 8 full-card icons of 1,990 translucent circles, 70 s for one face
    game = _heavy_game(tmp_path, run_cli, 1)
    rects = '<rect x="0" y="0" width="100" height="100" fill-opacity="0.5"/>' * 200
    (game / "icons" / "token.svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{rects}</svg>', "utf-8"
    )
    layout = game / "layouts" / "heavy.yaml"
    big = "id: heavy\nelements:\n  - {kind: icon, box: {x: 0, y: 0, w: 60, h: 60}, icon: token}\n"
    layout.write_text(big, encoding="utf-8")
    result = run_cli("validate", str(game), "--format", "json", "--no-cache")
    found = [d for d in diagnostics_json(result.output) if d["code"] == "P018"]
    assert result.exit_code == 1 and found, result.output
    assert "paints its box 200.0 times over" in found[0]["message"], found[0]["message"]
    layout.write_text(big.replace("w: 60, h: 60", "w: 6, h: 6"), encoding="utf-8")
    result = run_cli("validate", str(game), "--format", "json", "--no-cache")
    assert "P018" not in {d["code"] for d in diagnostics_json(result.output)}, result.output


def test_a_rulebooks_inline_icons_paint_a_bounded_number_of_times(tmp_path: Path, run_cli):
    # probe 48 N4: 199 uses of an icon of 1,990 translucent circles, 44 s of `export png`
    from toolkit.checks.rulebook import MAX_RULEBOOK_ICON_PAINT

    assert run_cli("new", "g", "--into", str(tmp_path), "--lang", "en").exit_code == 0
    game = tmp_path / "g"
    rects = '<rect x="0" y="0" width="100" height="100" fill-opacity="0.5"/>' * 200
    (game / "icons" / "token.svg").write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{rects}</svg>', "utf-8"
    )
    rulebook = game / "rulebook" / "en.md"
    text = rulebook.read_text(encoding="utf-8")
    uses = MAX_RULEBOOK_ICON_PAINT // 200
    rulebook.write_text(text + "\n\nTokens: " + ":token: " * (uses + 1) + "\n", "utf-8")
    result = run_cli("validate", str(game), "--format", "json", "--no-cache")
    found = [d for d in diagnostics_json(result.output) if d["code"] == "R010"]
    assert result.exit_code == 1 and len(found) == 1, result.output
    assert "paint their boxes more than" in found[0]["message"]
    rulebook.write_text(text + "\n\nTokens: " + ":token: " * uses + "\n", "utf-8")
    result = run_cli("validate", str(game), "--format", "json", "--no-cache")
    assert "R010" not in {d["code"] for d in diagnostics_json(result.output)}, result.output


def test_a_rulebook_document_draws_the_icons_two_faces_may(tmp_path: Path, monkeypatch):
    # validate bounds the prose's icons and the card reference's at a face's weight each
    # (R010), so a document drawing both whole leaves none blank (probe 50 P50-14, P50-16:
    # a page's bound left icons blank past the eighth on a page, validate clean)
    from toolkit.render import icons as icon_module
    from toolkit.render.markdown_flow import IconCanvas

    monkeypatch.setattr(icon_module, "icon_weight", lambda *a: MAX_FACE_ICON_WEIGHT // 3)
    c = IconCanvas(str(tmp_path / "x.pdf"))
    assert [icon_module._face_allows(c, "big", BUILTIN) for _ in range(3)] == [True] * 3
    c.showPage()  # a page more: the same document's allowance
    assert [icon_module._face_allows(c, "big", BUILTIN) for _ in range(4)] == [
        True,
        True,
        True,
        False,
    ]


def test_a_stroke_counts_in_what_a_shape_paints(tmp_path: Path):
    # probe 49 S1: lines of a 150-unit stroke have a box of no height: they painted the card
    # while their coverage was 0
    icon, problem = _svg(
        tmp_path, '<line x1="0" y1="50" x2="100" y2="50" stroke="#000" stroke-width="100"/>'
    )
    assert problem is None and icon is not None
    assert icon.coverage > 0.9


def test_a_paths_numbers_count_as_elements_each_use_again(tmp_path: Path):
    # probe 49 S2, S3: a path of 24,000 segments used 500 times took validate past 60 s
    from toolkit.render.svg_guard import NUMBERS_PER_ELEMENT

    path = "M0 0" + " L1 1" * 2_000  # 4,000 numbers: 80 elements a copy
    icon, problem = _svg(tmp_path, f'<path id="p" d="{path}"/>')
    assert problem is None and icon is not None
    assert icon.weight >= 4_000 // NUMBERS_PER_ELEMENT
    uses = '<use href="#p"/>' * 30  # 31 copies: past the 2,000 elements an icon draws
    icon, problem = _svg(tmp_path, f'<defs><path id="p" d="{path}"/></defs>{uses}')
    assert icon is None and problem is not None and "2,000 elements" in problem.message
