"""What `build` draws, weighed before anything is drawn (probe 50 P50-3).

`build` draws every printed card again, each copy and each language: a layout of 200 boxes
and 200 badges (each kind's own bound) on 10 cards of `copies: 1000` (the game's bound,
toolkit.checks.printed_cards) validated in 0.64 s, since the checks resolve each distinct face
once, but `build --lang en` ran past 120 s and 1.6 GB (~14 ms and ~40 kB of PDF a printed
card). A face weighs what its layout's elements cost to draw (each kind's `draw_cost`, ~10 µs
a unit), and a game's printed faces together, for one language, at most `MAX_DRAWN`.

A face is weighed as it resolved for print fit (the elements its `when` shows, a text by its
length), or, where print fit did not resolve it (it stopped: an error already), by its
layout, every element counted. Each printed card counts its front and its back (the press
profile draws each card's back on its own page; sheets place one shared back).
"""

from __future__ import annotations

from typing import Any

MAX_DRAWN = 250_000
"""Units (`Element.draw_cost`, ~10 µs each) one language's printed faces may weigh together.
A whole `build --lang en` of a game just under the bound (10 cards of many copies, each of
200 boxes, 200 badges, 100 one-line texts, 20 paragraphs, 32 icons or 16 images, and its
name) took 2.7 to 3.4 s of user CPU on a loaded 2-core machine (the images also 0.8 s of
system); 9,990 printed cards of the built-in `standard` layout weigh 179,820 (1.8 s). The
bundled games weigh 990 to 12,727, so this is 19 times the largest; a game of 500 printed
cards of 30 elements weighs ~30,000 (boxes, icons, one-line texts) to ~105,000
(paragraphs)."""


def face_weight(layout: Any) -> int:
    """What drawing one face of `layout` may weigh, by the layout alone: each element's
    kind's `draw_cost` (None, a layout that does not load: nothing)."""
    if layout is None:
        return 0
    return sum(type(element).draw_cost for element in layout.elements)


def resolved_weight(faces: list[Any]) -> int:
    """What drawing one face weighs as it resolved (`Resolved` elements, those its `when`
    shows): each element's `drawn_cost`."""
    return sum(item.element.drawn_cost(item) for item in faces)


def weighed_kinds(layout: Any) -> str:
    """What a face of `layout` may draw, by kind, each with its `draw_cost`: '200 box × 2,
    200 badge × 4' (in the layout's order of first use)."""
    counts: dict[str, list[int]] = {}
    for element in layout.elements:
        kind = counts.setdefault(str(getattr(element, "kind", "?")), [0, 0])
        kind[0] += 1
        kind[1] = type(element).draw_cost
    return ", ".join(f"{n:,} {kind} × {cost}" for kind, (n, cost) in counts.items()) or "nothing"
