"""What the preview's board and rulebook pages of one revision of a game may cost (probe
54-3, 54-5): drawn only when the page asks for them, but asked for page after page as it
scrolls, the 358 pages of a rulebook of code lines were 5.4 s of CPU a language (16 s for
its three) and 10 maps at one drawing's icon bound 5.2 s. Each page is priced before it is
rasterised as `export png` prices its pages (`toolkit.render.exports.pages`: its pixels at
the preview's dpi, a board's icons and styled lines); past `MAX_PREVIEW_PAGE_COST` for the
revision, a page is not drawn and its document says why, until the next save (a new
revision)."""

from __future__ import annotations

from typing import Any

from toolkit.render.raster_weight import FaceLoad

MAX_PREVIEW_PAGE_COST = 400_000_000
"""What the board and rulebook pages one revision of the preview draws may cost together, in
image pixels (~11 ns; priced as `export png` prices its pages, whose bound is 700 M): some
4.4 s of CPU. At the preview's dpi (toolkit.preview.draw: boards 60, rulebooks 96) a page
of an A4 rulebook weighs 1.6 M, an A1 board 5 M and its icons ~410 a shape's use: every
page of the bundled games in all their languages weighs 92 M at most, a
rulebook of 32 pages and four boards in three languages some 215 M. Measured, every page of
every language asked for: 358 pages of code lines a language 16.3 s before, 6.7 s now
(each language's PDF is made before its pages are priced: ~1.2 s each), 10 maps at one
drawing's icon bound in three languages 14.3 s before, 7.4 s now."""

MM_PER_POINT = 25.4 / 72.0


class PageBudget:
    """What the board and rulebook pages of one revision have cost so far."""

    def __init__(self) -> None:
        self.spent = 0

    def charge(
        self, what: str, sizes_mm: list[tuple[float, float]], icons: FaceLoad, dpi: float
    ) -> str | None:
        """Charge pages of those sizes (mm) and the icons drawn on them at `dpi`; why they
        are not drawn (the budget spent), else None."""
        from toolkit.render.exports.pages import pages_cost

        sizes = [(w / MM_PER_POINT, h / MM_PER_POINT) for w, h in sizes_mm]
        cost = pages_cost(sizes, icons, dpi)
        if self.spent + cost > MAX_PREVIEW_PAGE_COST:
            when = (
                "they alone cost more than a revision draws: the preview does not draw them"
                if cost > MAX_PREVIEW_PAGE_COST  # no save brings them under it
                else "it is drawn when shown after the next save"
            )
            return (
                f"{what} not drawn: the board and rulebook pages drawn since the last"
                f" save have cost as much as {self.spent / 1e6:,.0f} M pixels, and these"
                f" {cost / 1e6:,.1f} M more would pass the {MAX_PREVIEW_PAGE_COST / 1e6:,.0f}"
                " M the preview draws of them a revision (each page's pixels, a board's"
                " icons each of their shapes and the points and pixels of their outlines, its"
                " lines each of their dashes);"
                f" {when}"
            )
        self.spent += cost
        return None


def page_budget(game: Any) -> PageBudget:
    """The page budget of this revision of the game (kept in its print memo)."""
    key = ("preview page budget",)
    kept = game.print_memo.get(key)
    if not isinstance(kept, PageBudget):
        kept = game.print_memo[key] = PageBudget()
    return kept
