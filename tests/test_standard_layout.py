"""The plain `standard` layout serves a designer's generic cards: name, subtitle, value (large
and as a corner index), points in a badge, price with a coin and the text, from documented
card fields, or from `params` entries of the same names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from toolkit.content.game import load_game
from toolkit.content.models.deck import size_mm
from toolkit.content.models.generic_deck import GenericCard
from toolkit.render.context import card_context
from toolkit.render.layout import load_layout, resolve

DECK = """\
id: cards
kind: actions
name: {fr: Cartes, es: Cartas, en: Cards}
size: poker
cards:
  - id: merchant
    name: {fr: Marchand, es: Mercader, en: Merchant}
    subtitle: {fr: Personnage, es: Personaje, en: Character}
    value: 7
    points: -3
    price: 12
    text:
      fr: "Avancez de {value} cases."
      es: "Avanza {value} casillas."
      en: "Move {value} spaces."
  - id: treasure
    name: {fr: Trésor, es: Tesoro, en: Treasure}
    text: {fr: "Marquez {points} points.", es: "Gana {points} puntos.", en: "Score {points}."}
    params: {points: 4, price: 2}
  - id: rest
    name: {fr: Repos, es: Descanso, en: Rest}
    text: {fr: Piochez une carte., es: Roba una carta., en: Draw a card.}
  - id: ace
    name: {fr: As, es: As, en: Ace}
    value: A
    image: art.png
"""
LINES = DECK.splitlines()
POINTS = LINES.index("    points: -3") + 1  # lines, 1-based
LINE = LINES.index("    params: {points: 4, price: 2}") + 2  # with one line added above


@pytest.fixture
def game(tmp_path, run_cli) -> Path:
    assert run_cli("new", "plain", "--into", str(tmp_path)).exit_code == 0
    root = tmp_path / "plain"
    (root / "decks" / "cards.yaml").write_text(DECK, encoding="utf-8")
    from PIL import Image

    Image.new("RGB", (720, 420), (90, 140, 180)).save(root / "art.png")
    return root


def _face(root: Path, card_id: str, lang: str = "en") -> dict[str, list[str]]:
    """What each element kind shows on a card's standard face, in layout order."""
    loaded = load_game(root)
    deck = loaded.valid(loaded.decks)[0]
    card = next(c for c in deck.cards if c.id == card_id)
    layout, _ = load_layout("standard", root)
    assert layout is not None
    shown: dict[str, list[str]] = {}
    for item in resolve(layout, card_context(loaded, deck, card, lang), *size_mm(deck.size)):
        shown.setdefault(item.element.kind, []).append(item.text)
    return shown


def test_every_documented_field_is_printed(game):
    face = _face(game, "merchant")
    texts = face["text"]
    assert texts[0] == "Merchant"
    assert texts[1:3] == ["7", "7"]  # the corner indexes
    assert "Character" in texts
    assert texts.count("7") == 3  # and the large value
    assert "Move 7 spaces." in texts
    assert "12 :coin:" in texts
    assert face["badge"] == ["\u22123"]  # a true minus sign, as in card texts


def test_params_of_the_documented_names_print_like_the_fields(game):
    face = _face(game, "treasure")
    assert face["badge"] == ["4"]
    assert "2 :coin:" in face["text"]


def test_a_card_without_them_prints_no_badge_price_value_or_subtitle(game):
    face = _face(game, "rest")
    assert "badge" not in face
    assert face["text"][0] == "Rest" and "Draw a card." in face["text"]
    assert not any(":coin:" in t for t in face["text"])
    assert len(face["text"]) == 3  # name, text, footer


def test_artwork_replaces_the_large_value_but_keeps_the_corner_index(game):
    face = _face(game, "ace")
    assert face["image"] == ["art.png"]
    assert face["text"].count("A") == 2


def test_the_fields_validate_clean_and_print(game, run_cli):
    result = run_cli("validate", str(game), "--format", "json")
    assert json.loads(result.stdout or "[]") == []
    assert run_cli("build", str(game), "--lang", "es", "--out", str(game / "out")).exit_code == 0
    text = PdfReader(game / "out" / "plain" / "es" / "cards.pdf").pages[0].extract_text()
    for words in ("Mercader", "Personaje", "Avanza 7 casillas.", "12", "Tesoro"):
        assert words in text


def test_a_param_that_cannot_print_as_its_field_is_a_schema_error_at_params(game, run_cli):
    deck = game / "decks" / "cards.yaml"
    deck.write_text(
        DECK.replace("params: {points: 4, price: 2}", "params: {points: many}").replace(
            "    points: -3\n", "    points: -3\n    params: {points: 5}\n"
        ),
        encoding="utf-8",
    )
    found = json.loads(run_cli("validate", str(game), "--format", "json").stdout)
    schema = sorted((d["code"], d["line"], d["message"]) for d in found if d["code"][0] == "S")
    assert [line for _, line, _ in schema] == [POINTS + 1, LINE]
    assert "points is -3 but params.points is 5" in schema[0][2]
    assert "params.points prints as the card's points" in schema[1][2]


def test_a_number_from_params_is_reported_once_where_it_is_written(game, run_cli):
    """A layout that prints no points: params.points is one P006, not a second one for the
    `points` field it filled."""
    (game / "layouts").mkdir(exist_ok=True)
    (game / "layouts" / "bare.yaml").write_text(
        "id: bare\nelements:\n  - kind: text\n    box: {x: 4, y: 4, w: -4, h: -4}\n"
        '    text: "{{ card.name }}"\n    size: {max: 10, min: 6}\n',
        encoding="utf-8",
    )
    deck = game / "decks" / "cards.yaml"
    deck.write_text(DECK.replace("size: poker\n", "size: poker\nlayout: bare\n"), encoding="utf-8")
    found = json.loads(run_cli("validate", str(game), "--format", "json").stdout)
    treasure = [d for d in found if d["code"] == "P006" and "treasure" in d["message"]]
    fields = [(d["line"], d["message"].split(":")[1].split(",")[0].strip()) for d in treasure]
    assert fields == [(LINE, "params.points is 4"), (LINE, "params.price is 2")]


def test_generic_card_fields_are_documented():
    for name in ("subtitle", "value", "points", "price"):
        assert GenericCard.model_fields[name].description


def test_let_names_resolve_alike_in_one_render_and_element_by_element(game):
    """The layout's `let` names are set once per card in the combined template and in the
    element-by-element path alike (the standard layout uses them)."""
    from toolkit.render.layout import _resolve_each

    loaded = load_game(game)
    deck = loaded.valid(loaded.decks)[0]
    layout, _ = load_layout("standard", game)
    assert layout is not None and layout.let
    for card in deck.cards:
        for lang in ("fr", "es", "en"):
            context = card_context(loaded, deck, card, lang)
            each = _resolve_each(layout, {**context, "label": {}}, *size_mm(deck.size))
            assert resolve(layout, context, *size_mm(deck.size)) == each


def test_a_let_name_may_not_hide_a_context_name(game, run_cli):
    (game / "layouts").mkdir(exist_ok=True)
    (game / "layouts" / "standard.yaml").write_text(
        "id: standard\nlet:\n  card: 'true'\nelements: []\n", encoding="utf-8"
    )
    found = json.loads(run_cli("validate", str(game), "--format", "json").stdout)
    schema = [d for d in found if d["code"][0] == "S"]
    assert [(d["file"].endswith("layouts/standard.yaml"), d["line"]) for d in schema] == [(True, 3)]
    assert "let name 'card' is taken" in schema[0]["message"]
