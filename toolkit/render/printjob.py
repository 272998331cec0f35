"""One deck on its way from YAML to the page: the print job every step of printing reads.

`build` makes one per deck and language; sheets, card faces, element kinds and text fitting
take it whole instead of passing the game, deck, layouts, language, paper, card size and
options along one by one, and `validate` measures print fit with a job of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from toolkit.content.game import Game
    from toolkit.render.elements import Resolved
    from toolkit.render.game_fonts import FontSet
    from toolkit.render.icons import IconSet
    from toolkit.render.layout import Layout

BLEED_MM = 3.0  # every card is drawn with this much bleed around its trim


@dataclass(frozen=True, eq=False)
class PrintJob:
    """A deck printed in one language: what it is, on what, and how.

    `paper` is the sheet size in points (None when each card gets a page of its own);
    `footer` is printed under each sheet; `back_per_card` gives each card its own back (the
    answers of a question bank) instead of the deck's one back; `back_offset` (mm, right and
    up) moves every back to undo a printer's measured duplex shift."""

    game: Game
    deck: Any
    front: Layout
    back: Layout | None
    lang: str
    card_mm: tuple[float, float]
    paper: tuple[float, float] | None = None
    footer: str = ""
    back_per_card: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)
    bleed_mm: float = BLEED_MM
    unfilled: tuple[tuple[str, str], ...] = ()
    """Glossary terms whose `{names}` only a board fills, with their words in this language
    (toolkit.content.board_phrases.unfilled_terms): `validate` reports a face printing one."""
    budget: Any = None
    """A check's fitting budget (toolkit.render.textfit.FitBudget): its texts are fitted
    through it, and not at all once it is spent, and its faces resolved through its layout
    budget (`resolved`); None (a build, after the gate): every text is fitted, every face
    resolved."""
    picture_dpi: float | None = None
    """The dpi its pages are rasterised at, when they are drawn only for that (an export's,
    the preview's): a picture far larger than its box there is drawn from a copy resampled
    once (`picture_scaled`). None (a printed PDF): each picture whole."""

    @property
    def root(self) -> Path:
        return self.game.root

    @cached_property
    def icons(self) -> IconSet:
        """The game's icons (its own `icons/` first, then the built-ins)."""
        from toolkit.render.icons import icon_set

        return icon_set(self.game.root)

    @cached_property
    def fonts(self) -> FontSet:
        """The game's fonts (its own `fonts/`, then Noto Sans) and its main family."""
        return game_fonts(self.game)

    @cached_property
    def settings(self) -> dict[int, tuple[Any, Any]]:
        """Each text element's setting in this job (toolkit.render.elements.text), by the
        element's id, with the element: worked out once, not once per card."""
        return {}

    def context(self, card: Any) -> dict[str, Any]:
        """What the layouts' templates see for `card` in this job's language."""
        return _face_modules().context.card_context(self.game, self.deck, card, self.lang)

    def resolved(self, layout: Layout, card: Any) -> list[Resolved]:
        """`layout` resolved for `card` in this job's language and card size, once per loaded
        game: `validate`'s print-fit check and the build after the gate draw the very same
        elements and texts, measured once (a template error raises, and is not kept).

        With a check's budget, each face asked counts what its renders cost against the
        check's layout budget (toolkit.render.layout_budget), whole, even when the memo or
        the validate cache answers it; once that is spent, a face raises LayoutSpent."""
        modules = _face_modules()
        work_done = modules.template_bounds.work_done

        budget = self.budget.layouts if self.budget is not None else None
        key = (id(layout), id(self.deck), id(card), self.lang, self.card_mm)
        kept = self.game.print_memo.get(key)
        # the objects are kept with the result: an id is never taken by another object
        if kept is not None and not (kept[0] is layout and kept[1] is self.deck):
            kept = None
        if kept is not None and kept[2] is not card:
            kept = None
        if budget is not None and not (kept is not None and budget.once):
            if not budget.allows():
                raise budget.refused(layout)
            if kept is not None:
                budget.spent += kept[4]
        if kept is not None:
            return list(kept[3])
        before = work_done()
        # a failing template's 'did you mean' is searched through the checks' NameTips: once
        # a name, for a few names a run (toolkit.render.undefined); a face rendered again by a
        # later check without a budget of its own (legibility) asks the game's run's. A face
        # drawn outside any check (the preview's) says none: its check's finding has it, and
        # 300 faces each missing another key searched 300 times at each save (probe 39 H4)
        run = self.budget or modules.textfit.running_budget()
        names = run.names if run is not None else modules.undefined.NameTips(limit=0)
        try:
            with modules.undefined.tips_of(names):
                elements, spent = modules.face_units.resolved_face(
                    self.game,
                    self.deck,
                    layout,
                    card,
                    self.lang,
                    self.card_mm,
                    lambda: modules.layout.resolve(layout, self.context(card), *self.card_mm),
                )
        except BaseException:
            if budget is not None:  # what the failing renders cost (never kept)
                budget.spent += work_done() - before
            raise
        if budget is not None:
            budget.spent += spent
        self.game.print_memo[key] = (layout, self.deck, card, tuple(elements), spent)
        return elements

    def faces(self) -> tuple[Layout, Layout]:
        """(front, back): a sheet needs both."""
        if self.back is None:
            raise ValueError(f"print job for deck {self.deck.id!r} has no back layout")
        return self.front, self.back


class _FaceModules(NamedTuple):
    context: ModuleType
    face_units: ModuleType
    layout: ModuleType
    template_bounds: ModuleType
    textfit: ModuleType
    undefined: ModuleType


_FACE_MODULES: list[_FaceModules] = []


def _face_modules() -> _FaceModules:
    """The modules a face is resolved with, imported on the first face (they import this
    module: not at its top). An import statement run again costs ~2 µs even when the module
    is loaded (the import system's checks), and `resolved` ran five of them for every face,
    twice a face in a build (the gate's print-fit check, then the drawing): ~1 % of a
    100-card build, ~2 % in three languages. Their functions are still read from the modules
    at each call, as the imports did."""
    if not _FACE_MODULES:
        from toolkit.render import context, face_units, layout, template_bounds, textfit, undefined

        _FACE_MODULES.append(
            _FaceModules(context, face_units, layout, template_bounds, textfit, undefined)
        )
    return _FACE_MODULES[0]


def game_fonts(game: Game) -> FontSet:
    """The fonts of `game`, with game.yaml's `style.font` as the family nothing else names."""
    from toolkit.render.game_fonts import font_set

    manifest = getattr(game, "manifest", None)  # a board may be drawn without a whole game
    main = manifest.style.font if manifest is not None else None
    return font_set(getattr(game, "root", None), main)
