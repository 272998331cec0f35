"""Probe 51 P51-16/17: a layout of 200 card-sized boxes with a black stroke and round corners
(26 kB) on 300 plain cards: the preview spent 40 s of CPU drawing 768 faces at start, each
priced at ~4 ms (`face_budget.FACE_LETTERS`) though it cost ~50, and `export png --lang en`
43 s, its bound counting pixels (236 M of 1,000 M) where each face cost ~130 ms to
rasterise. A face is now priced by what its elements paint (toolkit.render.raster_weight):
the preview counts it as that many letters, and an export refuses up front, exit 1 and
nothing written, the faces that together cost more than its bound. The tests count faces
drawn and compare weights, never time."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, REPO
from tests.test_hardening_tips53 import _rules_game
from toolkit.content.game import load_game
from toolkit.preview import face_budget, live
from toolkit.render import textfit
from toolkit.render.exports import faces
from toolkit.render.exports.tts import encoded_pixels, sheet_dpi
from toolkit.render.layout import load_layout

CARDS = [f"c{i:02d}" for i in range(12)]


def _boxes(count: int, text: bool = True) -> str:
    """A layout of `count` nearly card-sized boxes, filled, with a 0.5 mm black stroke and
    3 mm corners (the probe's), and a title text."""
    lines = ["id: heavy", 'background: "#fbf8f1"', "elements:"]
    for i in range(count):
        k = i % 20
        lines += [
            "  - kind: box",
            f"    box: {{x: {k}, y: {k}, w: -{k}, h: -{k}}}",
            f'    fill: "#{(i * 2654435761) % 0xFFFFFF:06x}"',
            '    stroke: "#000000"',
            "    stroke_mm: 0.5",
            "    radius_mm: 3",
        ]
    if text:
        lines += ["  - kind: text", "    box: {x: 5, y: 5, w: 30, h: 10}"]
        lines += ["    size: {max: 8, min: 6}", '    text: "{{ card.id }}"']
    return "\n".join(lines) + "\n"


def _heavy_game(root: Path, count: int = 200, text: bool = True) -> Path:
    """The fixture game with a deck of CARDS cards on a layout of `count` stroked boxes."""
    game = root / "heavy"
    shutil.copytree(FIXTURES / "base", game)
    (game / "layouts").mkdir(exist_ok=True)
    (game / "layouts" / "heavy.yaml").write_text(_boxes(count, text), "utf-8")
    lines = ["id: cards", "kind: actions", "name: {fr: A, es: A, en: A}", "size: poker"]
    lines += ["layout: heavy", "cards:"]
    lines += [f"  - {{id: {card}, name: {{fr: N, es: N, en: N}}}}" for card in CARDS]
    (game / "decks" / "cards.yaml").write_text("\n".join(lines) + "\n", "utf-8")
    return game


def _pixels(game: Path, dpi: float, tts: bool) -> int:
    """One language's card pixels as the export counted them before: from sizes alone."""
    decks = faces.printed_decks(load_game(game))
    if tts:
        return sum(encoded_pixels(deck, dpi) for deck in decks)
    return sum(faces.face_pixels(deck, dpi) * faces.face_images(deck) for deck in decks)


@pytest.mark.parametrize(("kind", "times"), [("png", 20), ("tts", 8)])
def test_an_export_of_heavy_faces_is_refused_before_anything_is_drawn(
    run_cli, tmp_path, monkeypatch, kind, times
):
    """12 faces of 200 stroked round boxes at --dpi 200 and a bound of 20 times their pixels
    (8 times for TTS, which encodes each face again in its sheet):
    refused up front, exit 1, nothing written, the message says why and which --dpi fits
    (was: drawn, the pixels far under the bound); at that --dpi the export is drawn."""
    game, out = _heavy_game(tmp_path), tmp_path / "out"
    pixels = _pixels(game, 200, kind == "tts")
    monkeypatch.setattr(faces, "MAX_EXPORT_PIXELS", times * pixels)
    args = ["export", kind, str(game), "--lang", "en", "--dpi", "200", "--out", str(out)]
    result = run_cli(*args)
    assert result.exit_code == 1 and not out.exists(), result.output
    message = " ".join(result.output.split())
    assert "what their layouts' elements draw and paint" in message, message
    assert "lower --dpi (" in message and "fewer or smaller elements" in message
    most = message.split("lower --dpi (")[1].split(" ")[0]
    low = ["export", kind, str(game), "--lang", "en", "--dpi", most, "--out", str(out)]
    result = run_cli(*low)
    assert result.exit_code == 0, result.output


def test_a_face_costs_what_its_boxes_paint():
    """The probe's face weighs ~20 times a plain face's pixels at 300 dpi (measured: ~130 ms
    against ~9 drawn and encoded), a stroke with round corners more than a square one, a
    filled box by its area (four times at twice the dpi), and a small box little."""
    from toolkit.render.elements.box import BoxElement
    from toolkit.render.raster_weight import layout_paint

    poker = (63.5, 88.9)
    plain = round(63.5 / 25.4 * 300) * round(88.9 / 25.4 * 300)

    def box(**fields: object) -> BoxElement:
        place = {"x": 0, "y": 0, "w": 60, "h": 80}
        return BoxElement.model_validate({"kind": "box", "box": place, **fields})

    filled = box(fill="#123456").paint_cost(60, 80, 300)
    assert box(fill="#123456").paint_cost(60, 80, 600) > 3.5 * filled
    square = box(stroke="#000000").paint_cost(60, 80, 300)
    assert box(stroke="#000000", radius_mm=3).paint_cost(60, 80, 300) > 2 * square
    assert box(fill="#123456").paint_cost(2, 2, 300) < filled / 100

    class Layout:
        elements = [box(fill="#123456", stroke="#000000", radius_mm=3)] * 200

    assert layout_paint(Layout, poker, 300) > 15 * plain


def test_the_preview_counts_a_heavy_face_as_what_it_paints(tmp_path, monkeypatch):
    """A preview budget of 10 faces' own cost (FACE_LETTERS each): of 12 faces of 200
    stroked round boxes, only the first is drawn, the others say why (was: 10 drawn)."""
    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    monkeypatch.setattr(live, "NEIGHBOURS", 1, raising=False)
    monkeypatch.setattr(face_budget, "SHARE", 1)
    monkeypatch.setattr(textfit, "FIT_BUDGET", 10 * face_budget.FACE_LETTERS)
    game = _heavy_game(tmp_path)
    preview = live.Preview(game)
    preview.load(check=False)
    keys = [f"card/cards/{card}/fr/front" for card in CARDS]
    for key in keys:
        preview.page(key)
    drawn = [key for key in keys if preview.cache.page(key) is not None]
    assert drawn == keys[:1], (drawn, preview.cache.errors)
    reason = preview.cache.errors[keys[5]]
    assert "is not rendered: the fitting budget of the preview" in reason
    assert "more for many elements drawn and painted: this layout's " in reason
    weighed = int(reason.split("this layout's ")[1].split(")")[0].replace(",", ""))
    assert weighed > 15 * face_budget.FACE_LETTERS  # measured: ~50 ms a face, FACE_LETTERS ~4


def test_a_heavy_face_without_text_is_counted_too(tmp_path, monkeypatch):
    """The same boxes without a text to fit: was never refused (a face with nothing to fit
    was taken for a plain back); now only a face that weighs no more than FACE_LETTERS is."""
    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    monkeypatch.setattr(live, "NEIGHBOURS", 1, raising=False)
    monkeypatch.setattr(face_budget, "SHARE", 1)
    monkeypatch.setattr(textfit, "FIT_BUDGET", 10 * face_budget.FACE_LETTERS)
    game = _heavy_game(tmp_path, text=False)
    preview = live.Preview(game)
    preview.load(check=False)
    keys = [f"card/cards/{card}/fr/front" for card in CARDS]
    for key in keys:
        preview.page(key)
    drawn = [key for key in keys if preview.cache.page(key) is not None]
    assert drawn == keys[:1], drawn
    assert "this layout's " in preview.cache.errors[keys[1]]


def test_a_plain_face_is_priced_as_before_and_the_bundled_games_add_little(tmp_path):
    """The rules game's plain face still counts FACE_LETTERS; what the bundled games' faces
    count more in the preview, every face of every language, is at most a tenth of its
    budget, and what their elements paint beyond their pixels at most a tenth of the
    export's bound for `export png` and `export tts` at their default dpi."""
    game = _rules_game(tmp_path / "g", ["c0"], "{{ card.id }}")
    layout = load_layout("plain", game)[0]
    assert face_budget.face_letters(layout, (63.5, 88.9)) == face_budget.FACE_LETTERS
    for folder in sorted((REPO / "content").glob("*/game.yaml")):
        loaded = load_game(folder.parent)
        langs = len(loaded.manifest.languages)
        decks = faces.printed_decks(loaded)
        png = sum(faces.face_paint(d, 300, loaded.root) for d in decks)
        tts = sum(faces.face_paint(d, sheet_dpi(150, d.size_mm), loaded.root) for d in decks)
        assert langs * max(png, tts) <= faces.MAX_EXPORT_PIXELS / 10, folder.parent.name
        more = 0
        for deck in decks:
            for name, count in (
                (deck.deck.layout or "standard", len(deck.cards)),
                (deck.deck.back or "back", faces.face_images(deck) - len(deck.cards)),
            ):
                weighed = face_budget.face_letters(load_layout(name, loaded.root)[0], deck.size_mm)
                more += (weighed - face_budget.FACE_LETTERS) * count * langs
        assert more <= face_budget.preview_limit() / 10, (folder.parent.name, more)
