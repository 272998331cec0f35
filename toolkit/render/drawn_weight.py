"""What `build` draws, weighed before anything is drawn (probe 50 P50-3).

`build` draws every printed card again, each copy and each language: a layout of 200 boxes
and 200 badges (each kind's own bound) on 10 cards of `copies: 1000` (the game's bound,
toolkit.checks.printed_cards) validated in 0.64 s, since the checks resolve each distinct face
once, but `build --lang en` ran past 120 s and 1.6 GB (~14 ms and ~40 kB of PDF a printed
card). A face weighs what its layout's elements cost to draw (each kind's `draw_cost`, ~10 µs
a unit), and a game's printed faces together, for one language, at most `MAX_DRAWN`.

A face is weighed at most by its layout (each element's `most_drawn_cost`: a text by what
its box holds at its smallest size) and, only when that passes the bound, as it resolved for
print fit (the elements its `when` shows, a text by its length; print fit's faces are kept
for the run, or read back with the validate cache). Where print fit did not resolve them all
(it stopped: an error already), at most. Each printed card counts its front and its back
(the press profile draws each card's back on its own page; sheets place one shared back).
"""

from __future__ import annotations

from typing import Any

MAX_DRAWN = 250_000
"""Units (`Element.draw_cost`, ~10 µs each) one language's printed faces may weigh together.
A whole `build --lang en` (its gate included) of a game just under the bound took, on a
loaded 2-core machine: 590 cards each of 200 boxes 3.6 s of user CPU, 300 of 200 badges
3.3 s, 480 of 16 images 2.6 s (and 0.8 s of system); 10 cards of many copies each of 200
boxes 3.0 s with `--profile press`, which draws each copy (sheets place a card's copies as
one form: 0.44 s). Texts each a paragraph run out of the fitting budget first. 9,990 printed
cards of the built-in `standard` layout weigh 179,820 (1.8 s). The bundled games weigh 990
to 10,619 as they resolve (1,296 to 12,977 at most), so this is 19 times the largest at
most; a game of 500 printed cards of 30 elements weighs ~30,000 (boxes, icons, one-line
texts) to ~105,000 (paragraphs)."""


MAX_DRAWN_LANGUAGES = 750_000
"""Units the printed faces of every language `build` prints may weigh together: a game may
have 20 languages, and each language's PDFs draw every printed face again (10 cards of 59
copies of 200 boxes in 20 languages, each language under `MAX_DRAWN`: `build --profile
press` past 120 s; probe 62-9). Three languages at `MAX_DRAWN`, some 11 s."""


def most_weight(layout: Any, card_mm: tuple[float, float]) -> int:
    """What drawing one face of `layout` at that trim size (mm) may weigh at most: each
    element's `most_drawn_cost` (under it, no card needs its face resolved to be weighed)."""
    if layout is None:
        return 0
    return sum(element.most_drawn_cost(card_mm) for element in layout.elements)


def resolved_weight(faces: list[Any]) -> int:
    """What drawing one face weighs as it resolved (`Resolved` elements, those its `when`
    shows): each element's `drawn_cost`."""
    return sum(item.element.drawn_cost(item) for item in faces)


def weighed_kinds(layout: Any) -> str:
    """What a face of `layout` may draw, by kind: '200 box, 200 badge' (in the layout's
    order of first use)."""
    counts: dict[str, int] = {}
    for element in layout.elements:
        kind = str(getattr(element, "kind", "?"))
        counts[kind] = counts.get(kind, 0) + 1
    return ", ".join(f"{n:,} {kind}" for kind, n in counts.items()) or "nothing"
