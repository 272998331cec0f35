"""Board PDFs: tiling, poster pages, languages, embedded fonts, determinism, escaping."""

from __future__ import annotations

import io
import math
from functools import cache
from pathlib import Path

import pytest
from pypdf import PdfReader

from toolkit.content.game import Game, load_game
from toolkit.content.models.board import GraphBoard, RoadBoard, TrackBoard
from toolkit.render.boards import board_look, build_drawings, graph, render_board
from toolkit.render.pdf import PAPERS
from toolkit.render.tiling import MARGIN, OVERLAP, Drawing, Grid, plan

REPO = Path(__file__).parent.parent
BOARDS = {"whisky-game": GraphBoard, "muckle-stoater": TrackBoard, "tokaido": RoadBoard}


@cache
def game(game_id: str) -> Game:
    return load_game(REPO / "content" / game_id)


def board(game_id: str):
    (model,) = game(game_id).valid(game(game_id).boards)
    assert isinstance(model, BOARDS[game_id])
    return model


@cache
def render(game_id: str, lang: str, paper: str = "a4", board_page: str | None = None) -> bytes:
    return render_board(game(game_id), board(game_id), lang, paper, board_page)


def reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def text(data: bytes, page: int = 0) -> str:
    return reader(data).pages[page].extract_text()


def size_mm(page) -> tuple[int, int]:
    w, h = float(page.mediabox.width), float(page.mediabox.height)
    return tuple(sorted((round(w / 72 * 25.4), round(h / 72 * 25.4))))


@pytest.mark.parametrize("game_id", sorted(BOARDS))
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tiled_pages_are_the_paper_and_count_overview_plus_tiles(game_id: str, paper: str):
    data = render(game_id, "en", paper)
    pages = reader(data).pages
    expected = tuple(sorted(round(v / 72 * 25.4) for v in PAPERS[paper]))
    assert all(size_mm(p) == expected for p in pages)
    drawings = build_drawings(game(game_id), board(game_id), "en")
    start = 0
    for drawing in drawings:  # each drawing: its overview, then its sheets
        grid = plan(drawing, PAPERS[paper])
        sheets = grid.rows * grid.cols
        overview = pages[start].extract_text()
        assert drawing.title.replace("\u00a0", " ") in overview
        assert f"next {sheets} pages" in overview
        assert "A1" in pages[start + 1].extract_text()
        start += 1 + sheets
    assert start == len(pages)


@pytest.mark.parametrize("game_id", sorted(BOARDS))
def test_board_page_is_one_large_page_per_drawing(game_id: str):
    data = render(game_id, "en", board_page="a2")
    pages = reader(data).pages
    assert len(pages) == len(build_drawings(game(game_id), board(game_id), "en"))
    for page in pages:
        assert size_mm(page) == (420, 594)
        assert board(game_id).name["en"] in page.extract_text()


def test_track_board_has_one_loop_per_table_arrangement():
    """2 and 4 players share the 4-Mashie square; 3, 5 and 6 have their own loops, all at the
    box loop's hole pitch; the 2-player seats are Mashies 1 and 3."""
    from toolkit.render.boards.track import arrangements, box_pitch, plan_track, seat_segments

    mashies = board("muckle-stoater")
    assert arrangements(mashies) == {6: (6,), 5: (5,), 4: (2, 4), 3: (3,)}
    look = board_look(game("muckle-stoater"), mashies, "en")
    plans = [plan_track(mashies, look, m, ps) for m, ps in arrangements(mashies).items()]
    assert {p.pitch for p in plans} == {box_pitch(mashies)}
    assert seat_segments(2, 4) == [0, 2]
    assert seat_segments(5, 5) == [0, 1, 2, 3, 4]
    pages = reader(render("muckle-stoater", "en", board_page="a2")).pages
    texts = [page.extract_text() for page in pages]
    assert "3 Mashies, 3 players" in texts[3]
    assert "4 Mashies, 2 or 4 players" in texts[2]
    assert "2 players: seats at Mashies 1, 3" in texts[2]
    assert "Mashie 5" in texts[1] and "Mashie 6" not in texts[1]


def test_board_page_a1_and_unknown_paper():
    assert size_mm(reader(render("tokaido", "fr", board_page="a1")).pages[0]) == (594, 841)
    with pytest.raises(ValueError, match="unknown paper"):
        render_board(game("tokaido"), board("tokaido"), "fr", "b5")


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("fr", ["Carte de l’Écosse et de l’Irlande", "Distillerie", "Case spéciale", "Ferry"]),
        ("es", ["Mapa de Escocia e Irlanda", "Destilería", "Casilla especial", "Ferri"]),
        ("en", ["Map of Scotland and Ireland", "Distillery", "Special space", "Flight"]),
    ],
)
def test_graph_legend_and_title_are_localized(lang: str, words: list[str]):
    page = text(render("whisky-game", lang, board_page="a2"))
    for word in words:
        assert word in page
    for place in ("Glenlivet", "Edinburgh", "Dublin", "Port Ellen", "Highlands"):
        assert place in page
    assert "Road to " not in page  # anonymous road steps carry no name


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("fr", ["Plateau des Mashies", "Dock", "Castle", "Mashie 6", "Pioche"]),
        ("es", ["Tablero de Mashies", "Castle", "Mashie 1", "jugadores"]),
        ("en", ["Mashie board", "Castle", "Start hole", "6 players"]),
    ],
)
def test_track_labels_are_localized(lang: str, words: list[str]):
    page = text(render("muckle-stoater", lang, board_page="a2"))
    for word in words:
        assert word in page


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("fr", ["La route du Tokaido", "Étape 1", "Rizière", "Relais"]),
        ("es", ["El camino de Tokaido", "Tramo 4", "Arrozal", "Posada"]),
        ("en", ["The Tokaido road", "Leg 2", "Paddy", "Inn"]),
    ],
)
def test_road_labels_are_localized(lang: str, words: list[str]):
    page = text(render("tokaido", lang, board_page="a2"))
    for word in words + ["Kyoto", "Edo", "54", "4+"]:
        assert word in page


def _fonts(obj, seen: set[int]) -> list:
    """Every font dictionary reachable from a resources dictionary, forms included."""
    out = []
    obj = obj.get_object()
    if id(obj) in seen:
        return out
    seen.add(id(obj))
    for font in obj.get("/Font", {}).values():
        out.append(font.get_object())
    for xobj in obj.get("/XObject", {}).values():
        xobj = xobj.get_object()
        if "/Resources" in xobj:
            out += _fonts(xobj["/Resources"], seen)
    return out


@pytest.mark.parametrize("game_id", sorted(BOARDS))
def test_fonts_are_embedded_subsets(game_id: str):
    pdf = reader(render(game_id, "fr"))
    fonts = [f for page in pdf.pages for f in _fonts(page["/Resources"], set())]
    assert fonts
    for font in fonts:
        assert "NotoSans" in font["/BaseFont"]
        assert "/FontFile2" in font["/FontDescriptor"]


@pytest.mark.parametrize("game_id", sorted(BOARDS))
def test_same_input_same_bytes(game_id: str):
    again = render_board(game(game_id), board(game_id), "es", "a4", None)
    assert again == render(game_id, "es", "a4")


def test_tiles_cover_the_drawing_with_overlap():
    drawing = Drawing(1500.0, 1100.0, "t", lambda c: None)
    grid = plan(drawing, PAPERS["a4"])
    w, h = grid.window
    assert w == pytest.approx(grid.page[0] - 2 * MARGIN)
    first, last = grid.tile(0, 0), grid.tile(grid.rows - 1, grid.cols - 1)
    eps = 1e-6
    assert first[0] <= eps and first[1] + h >= grid.height - eps
    assert last[0] + w >= grid.width - eps and last[1] <= eps
    if grid.cols > 1:
        right = grid.tile(0, 1)[0]
        assert first[0] + w - right == pytest.approx(OVERLAP)
    assert Grid.name(1, 2) == "B3" and Grid.name(26, 0) == "AA1"


def test_close_spaces_are_nudged_apart_on_paper_only():
    model = board("whisky-game")
    before = {s.id: (s.lat, s.lon) for s in model.spaces}
    layout = graph.plan_graph(model, board_look(game("whisky-game"), model, "en"))
    spots = list(layout.spots.values())
    for i, a in enumerate(spots):
        assert a.reach <= a.x <= layout.width - a.reach
        for b in spots[i + 1 :]:
            assert math.hypot(a.x - b.x, a.y - b.y) > a.reach + b.reach
    assert before == {s.id: (s.lat, s.lon) for s in model.spaces}


def _variant(how: str) -> GraphBoard:
    """The bundled map as is, its spaces piled on one spot (crowded, its names within
    bounds), or doubled with the copies piled apart (crowded, names past MAX_LABEL_WORK)."""
    model = board("whisky-game")
    if how == "as is":
        return model
    piled = [s.model_copy(update={"lat": 50.0, "lon": 1.0}) for s in model.spaces]
    if how == "one spot":
        return model.model_copy(update={"spaces": piled})
    copies = [s.model_copy(update={"id": f"{s.id}-2", "lat": 51.0}) for s in piled]
    return model.model_copy(update={"spaces": piled + copies})


@pytest.mark.parametrize("how", ["as is", "one spot", "doubled"])
def test_the_fit_check_says_what_the_whole_layout_says(how, monkeypatch):
    # P016's warning for a map past its layout's work bounds ran the whole layout (names,
    # title, legend placed) whenever 130 spaces could reach a bound; it now spreads only
    # when the spaces could crowd and places names only when their work could pass its
    # bound: the findings are those of the whole layout
    model = _variant(how)
    look = board_look(game("whisky-game"), model, "en")
    found = graph.problems(model, look, True)
    monkeypatch.setattr(graph, "_may_crowd", lambda board: True)
    monkeypatch.setattr(graph, "_may_unweigh", lambda board, look: True)
    assert found == graph.problems(model, look, True)
    said = " ".join(message for _path, message, _error in found)
    assert ("may touch" in said) == (how != "as is")
    assert ("names are put east" in said) == (how == "doubled")


def test_validate_places_no_name_to_know_the_bundled_map_fits(monkeypatch):
    # the names' work of the bundled map (100 named spaces, 137 road segments) is bounded
    # below MAX_LABEL_WORK by counting: validate spent 4 % of its instructions on the
    # Whisky Game placing names, title and legend to learn that nothing went unweighed
    model = board("whisky-game")
    look = board_look(game("whisky-game"), model, "en")

    def placed(*args):
        raise AssertionError("names placed")

    monkeypatch.setattr(graph, "_place_labels", placed)
    monkeypatch.setattr(graph, "_place_box", placed)
    assert graph.problems(model, look, True) == []


def test_kind_words_prefer_the_style_then_the_glossary():
    look = board_look(game("whisky-game"), board("whisky-game"), "fr")
    assert look.space("resource").label == "Case de ressources"  # glossary term resource-space
    assert look.space("lost_distillery").label == "Distillerie perdue"
    assert look.space("junction").label == "Carrefour"  # the board's style
    assert look.space("unheard_of").label == "Unheard of"
    assert look.line_word("link") == "Route"  # the board's style
    assert look.line_word("flight") == "Vol"  # the toolkit's generic route words
    assert board_look(game("tokaido"), board("tokaido"), "es").space("village").label == "Aldea"


def test_markup_characters_in_content_are_drawn_as_text():
    weird = "A<b>&amp; B"
    graph = board("whisky-game").model_copy(deep=True)
    graph.name = {"en": f"Map {weird}"}
    graph.spaces[0].name = f"Glen {weird}"
    graph.spaces[1].kind = "castle_of_doom"  # a kind with no style or word
    graph.regions[0].name = {"en": "Éire & <Ulster>"}
    road = board("tokaido").model_copy(deep=True)
    road.stops[0].name = f"Kyoto {weird}"
    track = board("muckle-stoater").model_copy(deep=True)
    track.home_name = {"en": "Castle <&>"}
    for model, expected in (
        (graph, [f"Map {weird}", f"Glen {weird}", "Éire & <Ulster>", "Castle of doom"]),
        (road, ["Kyoto", weird]),
        (track, ["Castle <&>"]),
    ):
        data = render_board(game("whisky-game"), model, "en", board_page="a3")
        page = text(data)
        for word in expected:
            assert word in page
        tiled = render_board(game("whisky-game"), model, "en")
        assert len(reader(tiled).pages) >= 2


def test_a_board_without_coordinates_still_draws():
    graph = GraphBoard(
        kind="graph",
        id="tiny",
        name={"en": "Tiny"},
        spaces=[
            {"id": "a", "name": "Alpha", "kind": "city", "tags": ["start"]},
            {"id": "b", "name": "Beta", "kind": "port"},
            {"id": "c", "name": "Gamma", "kind": "port"},
        ],
        links=[{"a": "a", "b": "b"}],
        routes=[{"id": "f", "kind": "ferry", "stops": ["b", "c"]}],
    )
    page = text(render_board(game("whisky-game"), graph, "en", board_page="a4"))
    for word in ("Tiny", "Alpha", "Beta", "Gamma", "Ferry", "Start space"):
        assert word in page


def test_a_boards_look_reads_the_games_fonts_once(monkeypatch) -> None:
    """A board asks its look for a face for every word it prints (a map: over a hundred);
    the game's fonts are looked up (a folder listed, each file's stat) once per look."""
    from toolkit.render import printjob

    calls: list[object] = []
    real = printjob.game_fonts

    def counting(game_):
        calls.append(game_)
        return real(game_)

    monkeypatch.setattr(printjob, "game_fonts", counting)
    look = board_look(game("whisky-game"), board("whisky-game"), "fr")
    faces = {look.face("regular"), look.face("bold"), look.face("regular")}
    build_drawings(game("whisky-game"), board("whisky-game"), "fr")
    assert len(faces) == 2 and len(calls) <= 3  # this look once; the drawings' look once
