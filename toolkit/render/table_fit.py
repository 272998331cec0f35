"""How the rulebook's tables share a page's width between their columns, and the room a
body page holds: what `build` lays out with (toolkit.render.markdown_flow.FitTable) and
what `validate` measures a card reference row with before it wraps any (card_reference_rows),
without the layout's imports (the Markdown parser and platypus: ~80 ms of a validate)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from reportlab.lib.pagesizes import A4, letter
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from toolkit.content.templating import INLINE_ICON

if TYPE_CHECKING:
    from toolkit.render.icons import IconSet

PAD = 5.0
"""A table cell's padding left and right (points)."""
TOP, BOTTOM = 3.0, 4.0
"""A table cell's padding above and below: no row is lower than the two."""
CELL_SIZE = 0.9
CELL_LEADING = 1.18
"""A table cell's font size and leading, times the body's size."""
BODY_SIZE = 10.0
"""The rulebook's body size (points)."""

MARGIN = 20 * mm
"""A rulebook page's margin; the bottom one is 2 mm more, over the footer."""
PAPERS = {"a4": A4, "letter": letter}
"""The papers `build` prints a rulebook on (`--paper`)."""


def page_room(paper: str) -> tuple[float, float]:
    """The width and height a body page of `paper` holds a flowable in: the page less its
    margins and the frame's padding (6 points a side, reportlab's)."""
    width, height = PAPERS[paper]
    return width - 2 * MARGIN - 12, height - 2 * MARGIN - 2 * mm - 12


def measured(plain: str, icons: IconSet | None) -> str:
    """`plain` as wide as it prints: an inline icon is about an em (an `M`)."""
    if icons is None or ":" not in plain:
        return plain
    return INLINE_ICON.sub(lambda m: "M" if m.group(1) in icons.names else m[0], plain)


def column_bounds(
    cells: Sequence[Sequence[tuple[str, str, float]]], columns: int, icons: IconSet | None
) -> tuple[list[float], list[float]]:
    """Each column's narrowest and widest width, padding in: its longest word, its longest
    line (`cells`: each row's cells as their plain text, font and size)."""
    mins = [0.0] * columns
    maxs = [0.0] * columns
    known: dict[tuple[str, str, float], float] = {}  # each word measured once: texts repeat
    for row in cells:
        for i, (plain, font, size) in enumerate(row):
            plain = measured(plain, icons)
            words = re.split(r"[ \n\t]+", plain.strip()) or [""]
            longest = 0.0
            for word in words:
                wide = known.get((word, font, size))
                if wide is None:
                    wide = known[word, font, size] = stringWidth(word, font, size)
                longest = max(longest, wide)
            full = max(stringWidth(line, font, size) for line in plain.split("\n"))
            mins[i] = max(mins[i], longest + 2 * PAD + 1)
            maxs[i] = max(maxs[i], full + 2 * PAD + 1)
    return mins, maxs


def fit_widths(
    mins: list[float], maxs: list[float], total: float, floor: float = 0.0
) -> list[float]:
    """Column widths summing to `total`: see FitTable. None is under `floor` (a cell's own
    padding: reportlab refuses a narrower one with a traceback, which 18 long labels of a
    card reference met) while `total` holds that many: the room comes from the wider ones."""
    widths = _fitted(mins, maxs, total)
    narrow = [i for i, w in enumerate(widths) if w < floor]
    if not narrow or floor * len(widths) > total:
        return widths
    need = sum(floor - widths[i] for i in narrow)
    slack = {i: w - floor for i, w in enumerate(widths) if w > floor}
    available = sum(slack.values())  # >= need: the widths sum to `total`
    for i in narrow:
        widths[i] = floor
    for i, extra in slack.items():
        widths[i] -= extra * need / available
    return widths


def _fitted(mins: list[float], maxs: list[float], total: float) -> list[float]:
    """`fit_widths` before its floor."""
    n = len(maxs)
    widths = [0.0] * n
    free, room = list(range(n)), total
    while free:
        share = room / len(free)
        small = [i for i in free if maxs[i] <= share]
        if not small:
            break
        for i in small:
            widths[i] = maxs[i]
            room -= maxs[i]
        free = [i for i in free if i not in small]
    if not free:
        used = sum(widths)
        return [w * total / used for w in widths] if used else [total / n] * n
    weight = sum(maxs[i] for i in free)
    for i in free:
        widths[i] = room * maxs[i] / weight
    # Raise columns below their longest word, taking the room from columns with slack.
    for _ in range(n):
        short = [i for i in free if widths[i] < mins[i] - 0.01]
        if not short:
            break
        need = sum(mins[i] - widths[i] for i in short)
        slack = {i: widths[i] - mins[i] for i in range(n) if i not in short and widths[i] > mins[i]}
        available = sum(slack.values())
        if available <= 0:
            break
        take = min(need, available)
        for i in short:
            widths[i] += (mins[i] - widths[i]) * take / need
        for i, s in slack.items():
            widths[i] -= s * take / available
    return widths
