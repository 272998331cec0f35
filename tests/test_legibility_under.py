"""What lies under a text, found in time near-linear in a face's elements (probe 47 K11):
each text looked at (and hashed) every colour laid before it, so one layout of 4,000 small
boxes then 1,000 short texts took validate 5.9 s a card, 50 s for 10 cards, clean. Now a
face sorts the colours it lays into a grid over its texts' sample points: a colour away from
every text costs one look, and the colours found are those the walk over all of them finds."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from toolkit.checks.legibility import faces
from toolkit.checks.legibility.colours import rgb
from toolkit.render.elements import Ink, Paint
from toolkit.render.elements.box import BoxElement


def _game(tmp_path: Path, run_cli, boxes: int, texts: int) -> Path:
    """A new game whose deck prints one card on a layout of `boxes` 1 mm boxes in a
    corner then `texts` texts away from them."""
    result = run_cli("new", "g", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    root = tmp_path / "g"
    lines = ["id: many", "elements:"]
    lines += [
        f'- {{kind: box, box: {{x: 0, y: 0, w: 1, h: 1}}, fill: "#{k:06x}"}}' for k in range(boxes)
    ]
    lines += [
        f'- {{kind: text, box: {{x: 10, y: 10, w: 40, h: 20}}, text: "t{k:x}",'
        " size: {max: 8, min: 8}}"
        for k in range(texts)
    ]
    (root / "layouts" / "many.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    deck = root / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    text = text.replace("size: poker\n", "size: poker\nlayout: many\n", 1)
    deck.write_text(text.split("  - id: treasure")[0], encoding="utf-8")
    return root


def test_texts_look_at_the_colours_near_them_only(tmp_path, run_cli, monkeypatch):
    """N boxes away from M texts: the colours are hashed and asked whether they cover a
    point O(N + M) times in all, not N × M (4,000 × 1,000 = 4 M hashes a language)."""
    from toolkit.content.game import load_game
    from toolkit.render.layout import load_layout

    boxes, texts = 200, 200  # a layout holds at most 200 boxes (BoxElement.most_per_layout)
    root = _game(tmp_path, run_cli, boxes, texts)
    assert load_layout("many", root)[0] is not None
    looked = [0]
    covers, hashed = Paint.covers, Paint.__hash__

    def counted_covers(self: Paint, px: float, py: float) -> bool:
        looked[0] += 1
        return covers(self, px, py)

    def counted_hash(self: Paint) -> int:
        looked[0] += 1
        return hashed(self)

    laid = [0]
    paints = BoxElement.paints

    def counted_paints(self: BoxElement, item: Any, job: Any) -> Iterator[Paint]:
        laid[0] += 1
        return paints(self, item, job)

    monkeypatch.setattr(BoxElement, "paints", counted_paints)
    monkeypatch.setattr(Paint, "covers", counted_covers)
    monkeypatch.setattr(Paint, "__hash__", counted_hash)
    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    found = list(faces.check(load_game(root)))
    assert found == []
    assert looked[0] <= 4 * (boxes + texts), looked[0]
    assert laid[0] >= boxes  # the face was looked at


def _walked(background: str, laid: list[tuple[int, Paint]], ink: Ink) -> dict:
    """What lies under `ink`, each sample point looking at every colour, topmost first."""
    found: dict = {}
    for px, py in faces._points(ink.x, ink.y, ink.w, ink.h):
        top = next(((i, p) for i, p in reversed(laid) if p.covers(px, py)), None)
        if top is None:
            source, colour = "background", rgb(background)
        else:
            i, paint = top
            source, colour = f"{i}:{paint.field}:{paint.colour}", rgb(paint.colour)
        if colour is not None:
            found.setdefault(source, colour)
    return found


def test_the_grid_finds_what_every_colour_walked_finds():
    """Random faces of rectangles and discs (some alike, some over the whole face, some
    with no area) and texts between them: the same colours, from the same elements, in the
    same order as each point walking every colour laid before it."""
    rand = random.Random(47)
    colours = ["#000000", "#ffffff", "#336699", "#ffcc00", "red"]
    for _ in range(300):
        events: list[tuple[str, object]] = []
        for _ in range(rand.randint(0, 40)):
            pick = rand.random()
            x, y = rand.choice([rand.uniform(-5, 70), 10.0, 0.0]), rand.uniform(-5, 90)
            w = rand.choice([rand.uniform(0, 40), 0.0, 63.0, 200.0, -1.0, 2.5])
            h = rand.choice([rand.uniform(0, 40), 0.0, 88.0, 200.0, 2.5])
            if pick < 0.55:
                at = len(events)
                if rand.random() < 0.1:
                    x, y, w, h = -10.0, -10.0, 200.0, 200.0
                events.append(("paint", (at, Paint(rand.choice(colours), x, y, w, h))))
            elif pick < 0.7:
                events.append(("paint", (len(events), Paint("red", x, y, w, h, round=True))))
            else:
                ink = Ink("#000000", x, y, max(w, 0.0), max(h, 0.0), 8.0, False)
                events.append(("ink", ink))
        background = rand.choice(["#ffffff", "not a colour"])
        inks = [(e.x, e.y, e.w, e.h) for kind, e in events if isinstance(e, Ink)]
        under = faces.Beneath(background, inks)
        laid: list[tuple[int, Paint]] = []
        for kind, event in events:
            if kind == "paint":
                at, paint = event  # type: ignore[misc]
                under.lay(at, paint)
                laid.append((at, paint))
            else:
                got = under.colours((event.x, event.y, event.w, event.h))  # type: ignore[union-attr]
                assert list(got.items()) == list(_walked(background, laid, event).items())
