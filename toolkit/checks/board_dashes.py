"""A board line's dashes are half a line's width apart at least, whatever their caps.

A picture of the board (`export png`, the preview) draws each dash's caps as a shape the
line's width across, however short the dash: `dash: [0.125, …]` (8 entries: 4 dashes a
point) with `cap: round` and `width: 20` painted a 20-point disc every quarter point, and 500
such links (a 17 kB board) took `export png` 12.8 s, 5,000 more than 250 s (probe 52-3).
With the dashes half a width apart, the caps paint about twice what the solid line would
(a dotted line, `[0, 1.5]` on the 1.8-point link, overlaps its dots a little). A butt dash
paints no cap but is drawn on its own all the same, a shape the width across: 2,000 links 20
points wide dashed `[0.5, 0.5]` with `cap: butt` took `export png` 22.6 s, solid 4.9 s
(probe 62-8). How many dashes a whole board draws is its page price's (`line_tally`).
"""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.content.game import LoadedFile
from toolkit.content.validation import S_RULE
from toolkit.diagnostics import Diagnostic


def close_dashes(loaded: LoadedFile) -> Iterator[Diagnostic]:
    """S005 at the `dash` of each line style of the board whose dashes lie closer than half
    its line's width (its cased inner line's, if wider)."""
    style = getattr(loaded.model, "style", None)
    if style is None or loaded.doc is None:
        return
    from toolkit.content.models.board import dash_period
    from toolkit.render.boards.look import line_of
    from toolkit.render.line_tally import CAPPED  # a board's page price: not a card's path

    for kind in style.links:
        line = line_of(style, kind)
        if not line.dash:
            continue
        period, dashes = dash_period(line.dash)
        spacing = period / dashes
        width = max(line.width or 0.0, line.inner_width or 0.0)
        if spacing >= width / 2:
            continue
        own = style.links[kind].model_fields_set
        field = next((f for f in ("dash", "cap", "width", "inner_width") if f in own), None)
        path = ("style", "links", kind) + ((field,) if field else ())
        caps = ", and its caps, however short the dash" if line.cap in CAPPED else ""
        yield S_RULE.at(
            loaded.rel,
            loaded.doc.span(path),
            f"style.links.{kind}: with `cap: {line.cap}` its dashes are {spacing:g} points"
            f" apart, closer than half the line's width ({width:g}): a picture of the board"
            f" draws each dash on its own, a shape the line's width across{caps}; space the"
            " dashes half a width apart at least, or draw the line solid (`dash: []`)",
        )
