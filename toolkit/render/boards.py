"""Board PDFs: draw a board from its data, then tile it over sheets or put it on one page.

Each board shape has its own drawing module; this one picks it, supplies the words the legend
needs in the chosen language, and hands the drawing to the tiler.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolkit.content.game import Game
from toolkit.content.models.board import GraphBoard, RoadBoard, TrackBoard
from toolkit.render import board_graph, board_road, board_track
from toolkit.render.context import glossary_terms
from toolkit.render.tiling import Drawing, poster_pdf, tiled_pdf

Words = Callable[[str], str]

# Fallback names of space kinds, used when the game's glossary has no term for a kind.
KIND_NAMES: dict[str, dict[str, str]] = {
    "distillery": {"fr": "Distillerie", "es": "Destilería", "en": "Distillery"},
    "lost_distillery": {
        "fr": "Distillerie perdue",
        "es": "Destilería perdida",
        "en": "Lost distillery",
    },
    "port": {"fr": "Port", "es": "Puerto", "en": "Port"},
    "sea": {"fr": "Mer", "es": "Mar", "en": "Sea"},
    "airport": {"fr": "Aéroport", "es": "Aeropuerto", "en": "Airport"},
    "pub": {"fr": "Pub", "es": "Pub", "en": "Pub"},
    "city": {"fr": "Ville", "es": "Ciudad", "en": "City"},
    "junction": {"fr": "Carrefour", "es": "Cruce", "en": "Junction"},
    "path": {"fr": "Case simple", "es": "Casilla simple", "en": "Plain space"},
    "special": {"fr": "Case spéciale", "es": "Casilla especial", "en": "Special space"},
    "resource": {"fr": "Ressource", "es": "Materia prima", "en": "Resource"},
    "start": {"fr": "Départ", "es": "Salida", "en": "Start"},
    "inn": {"fr": "Relais", "es": "Posada", "en": "Inn"},
    "village": {"fr": "Village", "es": "Aldea", "en": "Village"},
    "farm": {"fr": "Ferme", "es": "Granja", "en": "Farm"},
    "temple": {"fr": "Temple", "es": "Templo", "en": "Temple"},
    "hot_spring": {"fr": "Source chaude", "es": "Aguas termales", "en": "Hot spring"},
    "encounter": {"fr": "Rencontre", "es": "Encuentro", "en": "Encounter"},
    "paddy": {"fr": "Rizière", "es": "Arrozal", "en": "Paddy"},
    "mountain": {"fr": "Montagne", "es": "Montaña", "en": "Mountain"},
    "ferry": {"fr": "Ferry", "es": "Ferri", "en": "Ferry"},
    "flight": {"fr": "Vol", "es": "Vuelo", "en": "Flight"},
    "bridge": {"fr": "Pont", "es": "Puente", "en": "Bridge"},
    "link": {"fr": "Route", "es": "Carretera", "en": "Road"},
    "start-hole": {"fr": "Trou de départ", "es": "Agujero de salida", "en": "Start hole"},
    "castle-entrance": {"fr": "Entrée", "es": "Entrada", "en": "Entrance"},
    "draw-pile": {"fr": "Pioche", "es": "Mazo de robo", "en": "Draw pile"},
    "discard-pile": {"fr": "Défausse", "es": "Descarte", "en": "Discard pile"},
}


def kind_words(game: Game, lang: str) -> Words:
    """Name a kind in `lang`: the game's own glossary term first, so the board speaks like the
    rulebook ("resource-space", then "resource"), then the fallback table, then the id."""
    terms = glossary_terms(game, lang)

    def word(kind: str) -> str:
        dashed = kind.replace("_", "-")
        for key in (f"{dashed}-space", kind, dashed):
            text = terms.get(key)
            if text:
                return text[:1].upper() + text[1:]
        names = KIND_NAMES.get(kind, {})
        text = names.get(lang) or names.get("en") or kind.replace("_", " ").replace("-", " ")
        return text[:1].upper() + text[1:]

    return word


def build_drawings(game: Game, board: Any, lang: str) -> list[Drawing]:
    """The board's drawings in their own coordinates, at poster size: one for most boards,
    one per table arrangement for a track of segments."""
    words = kind_words(game, lang)
    if isinstance(board, GraphBoard):
        return [board_graph.build(board, lang, words)]
    if isinstance(board, TrackBoard):
        return board_track.build(board, lang, words)
    if isinstance(board, RoadBoard):
        return [board_road.build(board, lang, words)]
    raise TypeError(f"not a board model: {type(board).__name__}")


def render_board(
    game: Game,
    board: Any,
    lang: str,
    paper: str = "a4",
    board_page: str | None = None,
    bleed: float = 0.0,
) -> bytes:
    """A board's PDF: tiled over `paper` with an assembly page per drawing, or each drawing
    whole on a page of `board_page`. With `bleed` (points, the press profile) the board goes
    whole on `board_page` (A2 by default) with bleed, TrimBox and BleedBox."""
    drawings = build_drawings(game, board, lang)
    name = board.name.get(lang, "") or drawings[0].title
    game_title = game.manifest.title.get(lang, "") if game.manifest else ""
    doc_title = f"{game_title} — {name}" if game_title else name
    if bleed:
        from toolkit.render.tiling import POSTER

        return poster_pdf(drawings, board_page or POSTER, doc_title, bleed)
    if board_page:
        return poster_pdf(drawings, board_page, doc_title)
    return tiled_pdf(drawings, paper, lang, doc_title)
