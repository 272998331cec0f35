"""P rules: what will not print right — text that overflows its box at the minimum size in
some language, characters the font cannot draw, layouts that cannot be read.

It uses the renderer's own measure (toolkit.render.textfit) with the real font and size.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, replace
from functools import cached_property, partial
from pathlib import Path
from typing import Any

from jinja2 import TemplateError
from pydantic import BaseModel
from reportlab.lib.units import mm

from toolkit.checks import CheckFamily, card_reference, register, wanted
from toolkit.checks.card_units import (
    FileBatch,
    Shape,
    budgeted,
    card_args,
    framed_kinds,
    placed,
    prints_impure,
    read_budgeted,
    read_key,
    same_shape,
    stored_finding,
    stored_key,
)
from toolkit.checks.icon_names import (
    P_INLINE_ICON,
    Tips,
    content_icons,
    own_words,
    printed_unknown,
)
from toolkit.checks.references import R_PLACEHOLDER
from toolkit.checks.text_direction import P_RTL, printed_rtl, rtl_letters, said, string_leaves
from toolkit.checks.translation.parity import ANY_DIGIT
from toolkit.checks.translation.presence import T_MISSING
from toolkit.content import assets, suggest
from toolkit.content.board_phrases import Unfilled, printed_at, unfilled_message, unfilled_terms
from toolkit.content.game import Game, LoadedFile, display_path, repo_root
from toolkit.content.models.deck import size_mm
from toolkit.content.printing import every_language_printed, printed_languages, prints
from toolkit.content.suggest import close_match
from toolkit.content.templating import own_letters
from toolkit.content.unit_cache import (
    Clean,
    NotKept,
    Units,
    active,
    cached_as,
    text_digest,
    to_json,
)
from toolkit.content.walk import Facts, Text, texts_of
from toolkit.diagnostics import Diagnostic, Severity, Span, rule
from toolkit.diagnostics.capped import always_listed
from toolkit.diagnostics.printable import code_point, code_points
from toolkit.diagnostics.registry import REGISTRY
from toolkit.render import pictures
from toolkit.render.elements.icon import ICONS_LISTED
from toolkit.render.face_units import face_args
from toolkit.render.fonts import FILES, missing_glyphs, stand_ins
from toolkit.render.game_fonts import NO_FONTS, FontSet
from toolkit.render.icons import (
    MAX_FACE_ICON_PAINT,
    MAX_FACE_ICON_WEIGHT,
    MAX_FACE_INLINE_ICONS,
    IconSet,
    icon_paint,
    icon_set,
    icon_weight,
    inline_icons,
    without_icons,
)
from toolkit.render.layout import (
    DEFAULT_BACK,
    DEFAULT_FRONT,
    Layout,
    Resolved,
    heaviest_place,
    layout_document,
    layout_file,
    layout_place,
    load_layout,
    worked_out,
)
from toolkit.render.layout_budget import LayoutSpent
from toolkit.render.printjob import PrintJob, game_fonts
from toolkit.render.textfit import MAX_FIT_CHARS, FitBudget, game_budget, icon_names

P_OVERFLOW = rule("P001", "text-overflow", "A text does not fit its box at the minimum size.")
P_GLYPH = rule("P002", "missing-glyph", "A character is missing from the font.")
P_LAYOUT = rule("P003", "layout-error", "A card layout cannot be used for a deck.")
P_MANY_ICONS = rule("P018", "too-many-icons", "A card face draws more icons than one face may.")
P_IMAGE = rule("P004", "image-missing", "A card image is missing, unreadable or outside the game.")
P_DPI = rule(
    "P005", "image-resolution", "A card image prints under 300 dpi at its size.", Severity.WARNING
)
P_UNPRINTED = rule(
    "P006",
    "unprinted-number",
    "A number of a card's data is printed nowhere on its face.",
    Severity.WARNING,
)
MIN_DPI = 300
_DIGITS = re.compile(r"\d+")
NOT_PRINTED = frozenset({"copies"})  # how many to print, not something a player reads

FIELD_OF = {"card.text": "text", "card.name": "name"}
_ANSWER_AT = re.compile(r"card\.answers\[\s*(\d+)\s*\]")
_QUESTION_FIELD = re.compile(r"card\.(question|fact)\b")


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    """What the card faces print, then what the rulebook's card reference prints of the
    decks (toolkit.checks.card_reference), which no face may print (a labelled parameter),
    but where a face's finding already says it."""
    said: set[card_reference.Place] = set()
    for diag in _face_findings(game, facts):
        if diag.code in (P_RTL.code, P_GLYPH.code):
            said.add((diag.file, diag.span.line, diag.span.col, diag.code))
        yield diag
    yield from card_reference.check(game, facts, said)


def _face_findings(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    fonts = game_fonts(game)
    main = fonts.face(None)
    lacking = _content_lacks(facts, main)  # searched once: for P002 and for _Once
    yield from _glyphs(lacking, main, fonts)
    if game.manifest is None:
        return
    once = _Once(facts, lacking, icon_set(game.root))
    unfilled = unfilled_terms(facts)
    faces = _faces(game)
    too_full = assets.too_full(assets.LAYOUTS, game.root)
    if too_full:
        yield P_LAYOUT.at(display_path(game.root / assets.LAYOUTS.folder), Span(), too_full)
    for name in used_layouts(game):
        yield from load_layout(name, game.root)[1]  # Y/S findings in the layout file itself
        if name not in faces:  # a face's words are searched on each face printed
            yield from layout_glyphs(name, game.root, fonts)
            yield from layout_rtl(name, game.root)
        yield from _label_languages(name, game.root, game.manifest.languages)
    budget = game_budget()  # what the checks fit of the game: here its faces' texts, in order
    stop = _Stop(budget)
    yield from _question_fit(game, once, unfilled, stop, LayoutTips(game.root))
    layout_tips = LayoutTips(game.root)  # the layout names, listed at the first unknown one
    measured = (-1, 0) if stop.said or stop.said_layouts else (len(game.decks), 0)
    for position, loaded in enumerate(game.decks):
        if loaded.model is None or loaded.doc is None:
            continue
        deck = loaded.model
        unknown = list(_layouts_refused(loaded, deck, layout_tips))
        yield from unknown
        if unknown:
            continue
        name = deck.layout or DEFAULT_FRONT
        layout, said = load_layout(name, game.root)
        if layout is None and said:
            continue  # its Y/S findings, at the layout's lines, say why
        if layout is None:
            where = ("layout",) if deck.layout else ("id",)
            at = assets.find(assets.LAYOUTS, name, game.root)  # the default's too: not read?
            why = at.unread if at is not None and at.unread else f"layout {name!r} is unusable"
            yield P_LAYOUT.at(loaded.rel, loaded.doc.span(where), why)
            continue
        jobs = [_job(game, deck, layout, lang, unfilled, budget) for lang in languages(game)]
        extra = [name, game.glossary_failed, _named(unfilled)]
        framed = framed_kinds(layout)
        batch = FileBatch("card-print-fit", loaded, extra, len(deck.cards), framed)
        reread = _reread(loaded, game.root, budget if jobs else None)
        for index, card in enumerate(deck.cards):
            # each card's findings in the order met; what is said once (per layout and
            # character, per layout and problem) is decided here, in card order
            found = batch.reused(index, reread) if jobs else None  # its file's not edited
            if found is None:
                found = _card_findings(loaded, index, card, name, layout, jobs, batch)
            if found:
                yield from (once.said(d, key) for d, key, glyph in found if once.new(d, key, glyph))
            if stop.due():
                stopped = stop.said or stop.said_layouts
                yield from stop.check(loaded, ("cards", index, "id"), card.id)
                if (stop.said or stop.said_layouts) and not stopped:
                    measured = (position, index)
        batch.close()
        back = _back_letters(loaded, deck, game, unfilled, budget) if deck.cards else ()
        yield from (once.said(d, key) for d, key, glyph, _ in back if once.new(d, key, glyph))
        if deck.cards:  # the back's texts and face count too: it may be where they ran out
            stopped = stop.said or stop.said_layouts
            yield from stop.check(loaded, ("cards", 0, "id"), deck.cards[0].id)
            if (stop.said or stop.said_layouts) and not stopped:
                measured = (position + 1, 0)  # this deck's fronts were, its back not
    budget.measured = measured


class _Stop:
    """The one P001 that says where the check's fitting budget ran out: at the first card
    or question one of whose texts it refused to fit; and the one P003 that says where its
    layout budget did (toolkit.render.layout_budget): at the template that cost the most on
    the first face it refused to render, naming the card or question."""

    def __init__(self, budget: FitBudget) -> None:
        self.budget = budget
        self.said = False
        self.said_layouts = False

    def due(self) -> bool:
        """Whether `check` has a finding to say: a budget refused and not said yet (asked
        at every card: a generator made for each was ~2 µs of a card read back)."""
        return (not self.said and bool(self.budget.refusals)) or (
            not self.said_layouts and bool(self.budget.layouts.refusals)
        )

    def check(
        self, loaded: LoadedFile, path: tuple[str | int, ...], entry: str
    ) -> Iterator[Diagnostic]:
        yield from self._layouts(loaded, path, entry)
        if self.said or not self.budget.refusals:
            return
        self.said = True
        assert loaded.doc is not None
        yield P_OVERFLOW.at(
            loaded.rel,
            loaded.doc.span(path),
            f"{_STOPS}{entry}: validate fits at most {self.budget.limit:,} "
            "characters of text a game (board labels and faces; a text counted at each size "
            "it is wrapped at, a long word's letters read to hyphenate it too), "
            f"and the texts before {entry} took them; the texts of {entry} and of every "
            "card after it are not measured: shorten the texts or the layouts' boxes' "
            "sizes tried",
        )

    def _layouts(
        self, loaded: LoadedFile, path: tuple[str | int, ...], entry: str
    ) -> Iterator[Diagnostic]:
        layouts = self.budget.layouts
        if self.said_layouts or not layouts.refusals:
            return
        self.said_layouts = True
        assert loaded.doc is not None
        at = loaded.doc.span(path)
        lang = "?"
        place = None
        if layouts.stopped is not None:
            name, layout, card, job = layouts.stopped
            lang = job.lang
            where = heaviest_place(layout, job.context(card))
            place = layout_place(name, job.game.root, where) if where else None
        file, span = place if place is not None else (loaded.rel, at)
        yield P_LAYOUT.at(
            file,
            span,
            f"{_LAYOUTS_STOP}{entry} ({lang}, {loaded.rel}:{at.line}): validate renders at"
            f" most {layouts.limit:,} steps of card layouts' templates a game (reads,"
            " filters, calls and loop iterations, and an eighth of the characters and items"
            " they build, and one for each element a face prints), and the faces before"
            f" {entry} took them; the faces of {entry} and of every card after it are not"
            " checked, and the game is not built: compute less in the layout's templates"
            " (this one took the most on that face), print fewer elements on a face, or"
            " write the values in the content",
        )


def _stopped(job: PrintJob, name: str, layout: Any, card: Any) -> None:
    """Note the first face the check's layout budget refused (`_Stop` says where)."""
    assert job.budget is not None
    if job.budget.layouts.stopped is None:
        job.budget.layouts.stopped = (name, layout, card, job)


_STOPS = always_listed("print fit stops at ")
_LAYOUTS_STOP = always_listed("layout work stops at ")


class _Once:
    """What print-fit says once, decided in the order met: a character content texts lack
    in the game's main face (or a right-to-left letter of theirs) is reported where it is
    written; a layout's own (computed) output, or a text printed in another face, once per
    layout and character (its key), at the card."""

    def __init__(self, facts: Facts, lacking: list[Lack], icons: IconSet) -> None:
        self.facts = facts
        self.tips = Tips(icons)
        self.in_content = {ch for _, _, missing in lacking for ch in missing}
        self.rtl_content: set[str] | None = None  # worked out at the first one printed
        self.icons_content: set[str] | None = None  # the same: inline icon names
        self.reported: set[tuple[object, ...]] = set()

    def new(self, diag: Diagnostic, key: Any, glyph: Any) -> bool:
        """Whether a finding met now is said: not said elsewhere, nor already."""
        content = self.in_content
        if diag.code == P_RTL.code:
            if self.rtl_content is None:
                self.rtl_content = _rtl_in(self.facts)
            content = self.rtl_content
        elif diag.code == P_INLINE_ICON.code:
            if self.icons_content is None:
                self.icons_content = content_icons(self.facts)
            content = self.icons_content
        if glyph is not None and glyph[1] and glyph[0] in content:
            return False  # reported where the content text is written
        if key is not None:
            if key in self.reported:
                return False
            self.reported.add(key)
        return True

    def said(self, diag: Diagnostic, key: Any) -> Diagnostic:
        """A finding `new` lets through, as said: an unknown icon's 'did you mean' is added
        here (`Tips`: searched for the findings said alone, each name once, a few names a
        run), not where a card's findings are worked out and kept (the tip of one card's
        finding would then depend on the cards before it)."""
        if type(key) is not tuple or not key:
            return diag
        message = diag.message
        if diag.code == P_INLINE_ICON.code and key[0] == "icon" and type(key[-1]) is str:
            at = message.rfind(PRINTS_AS_WRITTEN)
            tip = self.tips.tip(key[-1])
            if at < 0 or not tip:
                return diag
            at += len(PRINTS_AS_WRITTEN)
            return replace(diag, message=message[:at] + tip + message[at:])
        asked = key[3] if key[0] == "problem" and len(key) == 4 else None
        if diag.code == "P003" and type(asked) is tuple and len(asked) == 2 and asked[0] == "icon":
            at = message.rfind(f"; {ICONS_LISTED}")
            close = self.tips.close(asked[1]) if type(asked[1]) is str else None
            if at < 0 or close is None:
                return diag
            at += 2
            return replace(diag, message=f"{message[:at]}did you mean {close!r}? {message[at:]}")
        return diag


def _faces(game: Game) -> set[str]:
    """The layouts whose faces are resolved as they print (each deck's front, the back of
    a deck with cards, the question faces): their words are searched there."""
    decks = list(game.valid(game.decks))
    names = {deck.layout or DEFAULT_FRONT for deck in decks}
    names |= {deck.back or DEFAULT_BACK for deck in decks if deck.cards}
    return names | {n for bank in game.valid(game.questions) for n in (bank.layout, bank.back)}


def _job(
    game: Game,
    deck: Any,
    layout: Any,
    lang: str,
    unfilled: Unfilled,
    budget: FitBudget | None = None,
) -> PrintJob:
    """A deck's face printed in `lang`, as print-fit measures it: on the deck's card size,
    with the terms only a board fills in that language and the check's fitting budget."""
    return PrintJob(
        game,
        deck,
        layout,
        None,
        lang,
        size_mm(deck.size),
        unfilled=unfilled.get(lang, ()),
        budget=budget,
    )


def _named(unfilled: Unfilled) -> list[Any]:
    """`unfilled` as a unit argument: it comes from the boards, which a card's or a bank's
    unit is not named by."""
    return [[lang, [list(term) for term in terms]] for lang, terms in unfilled.items()]


def _back_letters(
    loaded: LoadedFile, deck: Any, game: Game, unfilled: Unfilled, budget: FitBudget
) -> Iterator[Event]:
    """P002 and P017 for what a deck's back prints in each language: every back shows the
    deck's first card (toolkit.render.sheets), and only the elements shown (one whose
    `when` is false prints nothing); P003 when it fails to resolve. Kept as a card of its
    file's is (card_units.FileBatch, by the file's name in the frame: a back's faces are
    not named), so a save of one deck does not resolve every other deck's back again."""
    name = deck.back or DEFAULT_BACK
    layout = _layout_of(name, game)
    if layout is None:
        return  # said with the layout
    card, shape = deck.cards[0], Shape(loaded, 0)

    def work() -> tuple[list[Event], bool]:
        events: list[Event] = []
        impure = False
        for lang in languages(game):
            job = _job(game, deck, layout, lang, unfilled, budget)
            try:
                elements = job.resolved(layout, card)
            except LayoutSpent:
                _stopped(job, name, layout, card)
                return events, True
            except (TemplateError, TypeError, ValueError) as exc:
                if not game.glossary_failed:  # else the back may print a term: said there
                    where = ("back",) if deck.back else ("id",)
                    events.append(_layout_failed(loaded, where, card.id, name, job, exc))
                return events, True
            impure = impure or prints_impure(elements)
            for item in elements:
                events.extend(_letters(loaded, card, (name, job), item, shape))
        return events, impure

    extra = [name, game.glossary_failed, _named(unfilled)]
    batch = FileBatch("card-back-letters", loaded, extra, 1, framed_kinds(layout))
    store, read = _event_units(loaded, 0, game.root, shape)
    counted, kept, again = budgeted(budget, work, store, read)
    yield from batch.card(0, lambda: None, counted, kept, again)[0][0]
    batch.close()


def _event_units(
    loaded: LoadedFile, index: int, root: Path, shape: Shape
) -> tuple[Callable[[tuple[list[Event], bool]], Any], Callable[[Any], tuple[list[Event], bool]]]:
    """How the events of card `index`'s faces (or of its deck's back) are kept as a unit,
    and read back: each finding by the place it points at, with its key and glyph."""

    def store(result: tuple[list[Event], bool]) -> list[Any]:
        events, failed = result
        if failed:  # a template error is worked out again, as a face's is (or an image read)
            raise NotKept
        shape.check()
        kept = []
        for diag, key, glyph, place in events:
            found = stored_finding(loaded, index, root, place, diag)
            kept.append([*found, stored_key(key), list(glyph) if glyph else None])
        return [shape.asked, kept]

    def read(kept: Any) -> tuple[list[Event], bool]:
        return _read_events(loaded, index, root, kept)

    return store, read


def _read_events(loaded: LoadedFile, index: int, root: Path, kept: Any) -> tuple[list[Event], bool]:
    """The events `_event_units` kept of card `index` (or of its deck's back), read back."""
    asked, found = kept
    same_shape(loaded, index, asked)
    events: list[Event] = []
    for place, code, message, severity, key, glyph in found:
        if not isinstance(code, str) or not (code[:1] == "P" or code == R_PLACEHOLDER.code):
            raise ValueError("not a print-fit finding")
        diag = placed(loaded, index, root, place, [code, message, severity])
        if glyph is not None and not (type(glyph[0]) is str and type(glyph[1]) is bool):
            raise ValueError("not a glyph")
        events.append((diag, read_key(key), tuple(glyph) if glyph else None, place))
    return events, False


def _rtl_in(facts: Facts) -> set[str]:
    """The right-to-left letters of the content texts in the printed languages (said where
    each is written)."""
    return {
        ch
        for text in facts.texts
        for lang, v in text.value.items()
        if prints(lang)
        for ch in rtl_letters(v)
    }


def used_layouts(game: Game) -> list[str]:
    """The layouts the game prints with (and its own, used or not: the first
    `assets.most_files` by name) that exist and are read."""
    names = [(d.layout or DEFAULT_FRONT, d.back or DEFAULT_BACK) for d in game.valid(game.decks)]
    names += [(bank.layout, bank.back) for bank in game.valid(game.questions)]
    own = [found.path.stem for found in assets.in_game(assets.LAYOUTS, game.root)]
    own += [f.path.stem for f in assets.refused(assets.LAYOUTS, game.root) if f.path.suffix]
    every = dict.fromkeys([*own, *(n for pair in names for n in pair)])
    found = {n: assets.find(assets.LAYOUTS, n, game.root) for n in every}
    return [n for n, at in found.items() if at is not None and not at.unread]


def languages(game: Game) -> list[str]:
    """The languages whose faces are checked: every one, but for a `build --lang`'s gate."""
    return printed_languages(game)


Event = tuple[Diagnostic, Any, Any, Any]
"""A finding of one card, as met: (finding, the key under which it is said once or None,
(character, printed in the main face) for a missing glyph or None, where it is kept)."""


def _card_findings(
    loaded: LoadedFile,
    index: int,
    card: Any,
    name: str,
    layout: Any,
    jobs: list[PrintJob],
    batch: FileBatch | None = None,
) -> list[tuple[Diagnostic, Any, Any]]:
    """One card's print-fit findings on every language's face, before what is said once is
    left out, kept as a unit between `validate` runs (toolkit.checks.card_units), and with
    its file's other cards (`batch`)."""
    game = jobs[0].game if jobs else None
    budget = jobs[0].budget if jobs else None
    shape = Shape(loaded, index)

    def work() -> tuple[list[Event], bool]:
        return _card_work(loaded, index, card, (name, layout), jobs, shape)

    if active() is None or game is None:
        return [event[:3] for event in work()[0]]
    store, read = _event_units(loaded, index, game.root, shape)

    def args() -> list[Any] | None:
        assert game is not None
        named = card_args(jobs, layout, card)
        return None if named is None else [name, game.glossary_failed, *named]

    if batch is None:
        batch = FileBatch("card-print-fit", None, [], 0)  # this card alone
    if budget is None:
        return [event[:3] for event in batch.card(index, args, work, store, read)[0]]
    counted, kept, again = budgeted(budget, work, store, read)
    return [event[:3] for event in batch.card(index, args, counted, kept, again)[0][0]]


def _reread(
    loaded: LoadedFile, root: Path, budget: FitBudget | None
) -> Callable[[int, Any], list[tuple[Diagnostic, Any, Any]]]:
    """How a deck's card reads back its findings from its file's batch (`FileBatch.reused`):
    as `_card_findings` reads its unit, one reader for the deck's cards."""

    def read(index: int, kept: Any) -> list[tuple[Diagnostic, Any, Any]]:
        if budget is None:
            events = _read_events(loaded, index, root, kept)[0]
        else:
            events = read_budgeted(budget, partial(_read_events, loaded, index, root), kept)[0][0]
        return [event[:3] for event in events]

    return read


def _card_work(
    loaded: LoadedFile,
    index: int,
    card: Any,
    face: tuple[str, Any],
    jobs: list[PrintJob],
    shape: Shape,
) -> tuple[list[Event], bool]:
    """What one card gives on every language's face, and whether it may not be kept: a face
    failed, or printed an element of a kind that read a file (an image: `prints_impure`)."""
    assert loaded.doc is not None
    name, layout = face
    events: list[Event] = []
    numbers: set[int] = set()  # what the face shows in some language
    # P006 only warns: the validity gate's run leaves it out, unless the card's findings are
    # kept as a unit (`_card_findings`), which holds them all
    unprinted = wanted(P_UNPRINTED) or active() is not None
    impure = False
    many_said = False  # P018 once a card, at its first language past the bound
    pixels_said = False  # P004 of its pictures' pixels: the same
    for job in jobs:
        try:
            elements = job.resolved(layout, card)
        except LayoutSpent:  # said once, where the check stopped (`_Stop`)
            _stopped(job, name, layout, card)
            return events, True
        except (TemplateError, TypeError, ValueError) as exc:
            if job.game.glossary_failed:
                return events, True  # the layout may print a term of the glossary: said there
            events.append(_layout_failed(loaded, ("cards", index, "id"), card.id, name, job, exc))
            return events, True
        if unprinted:
            numbers |= _printed_numbers(elements)
        impure = impure or prints_impure(elements)
        at = ("cards", index, "id")
        many = None if many_said else _many_icons(loaded, at, card.id, name, job, elements)
        if many is not None:
            events.append((many, None, None, ["card", []]))
            many_said = True
        heavy = None if pixels_said else _many_pixels(loaded, at, card.id, name, job, elements)
        if heavy is not None:
            events.append((heavy, None, None, ["card", []]))
            pixels_said = True
        for item in elements:
            events.extend(_element(loaded, index, card, (name, job), item, shape))
    # no language failed: what no language prints, no player can read
    if unprinted:
        events.extend(
            (d, None, None, p) for d, p in _unprinted(loaded, index, card, name, numbers, shape)
        )
    return events, impure


def _many_icons(
    loaded: LoadedFile,
    path: tuple[str | int, ...],
    owner: str,
    name: str,
    job: PrintJob,
    elements: list[Resolved],
) -> Diagnostic | None:
    """P018 at a card or question (`path`, its id) whose face in the job's language draws
    more inline icons than one face may (`MAX_FACE_INLINE_ICONS`), or None."""
    assert loaded.doc is not None
    names = job.icons.names
    drawn = sum(
        inline_icons(item.text, names) for item in elements if type(item.element).draws_inline_icons
    )
    if drawn > MAX_FACE_INLINE_ICONS:
        message = (
            f"{owner} ({job.lang}): layout {name!r} prints {drawn:,} inline icons"
            f" on its face, more than the {MAX_FACE_INLINE_ICONS} one face draws (a picture"
            " of the card draws each one whole); the ones past it are left blank: write fewer"
        )
        return P_MANY_ICONS.at(loaded.rel, loaded.doc.span(path), message)
    weights: dict[str, int] = {}
    painted: dict[str, float] = {}
    for item in elements:
        for icon, side in item.element.icons_drawn(item, names):
            weights[icon] = weights.get(icon, 0) + icon_weight(icon, job.icons)
            painted[icon] = painted.get(icon, 0.0) + icon_paint(icon, job.icons) * side * side
    if sum(painted.values()) > MAX_FACE_ICON_PAINT:
        most = max(sorted(painted), key=lambda icon: painted[icon])
        message = (
            f"{owner} ({job.lang}): the icons layout {name!r} draws on its face paint"
            f" {sum(painted.values()):,.0f} square points, more than the"
            f" {MAX_FACE_ICON_PAINT:,} one face paints (a picture of the card fills each"
            f" shape's pixels; {most!r} paints its box {icon_paint(most, job.icons):,.1f}"
            " times over a use); the icons past it are left blank: draw them smaller, or"
            " with fewer or smaller shapes"
        )
        return P_MANY_ICONS.at(loaded.rel, loaded.doc.span(path), message)
    if sum(weights.values()) <= MAX_FACE_ICON_WEIGHT:
        return None
    heaviest = max(sorted(weights), key=lambda icon: weights[icon])
    message = (
        f"{owner} ({job.lang}): the icons layout {name!r} draws on its face weigh"
        f" {sum(weights.values()):,} drawn shapes together, more than the"
        f" {MAX_FACE_ICON_WEIGHT:,} one face draws (a picture of the card draws each use"
        f" whole; {heaviest!r} weighs {icon_weight(heaviest, job.icons):,} a use); the icons"
        " past it are left blank: draw fewer or simpler icons"
    )
    return P_MANY_ICONS.at(loaded.rel, loaded.doc.span(path), message)


def _many_pixels(
    loaded: LoadedFile,
    path: tuple[str | int, ...],
    owner: str,
    name: str,
    job: PrintJob,
    elements: list[Resolved],
) -> Diagnostic | None:
    """P004 at a card or question (`path`, its id) whose face in the job's language draws
    pictures of more pixels together than one face may (`MAX_FACE_PIXELS`), or None."""
    assert loaded.doc is not None
    drawn = sum(item.element.pictures_drawn(item, job) for item in elements)
    if drawn <= pictures.MAX_FACE_PIXELS:
        return None
    message = (
        f"{owner} ({job.lang}): the pictures layout {name!r} draws on its face hold"
        f" {drawn:,} pixels together (each image element its picture's), more than the"
        f" {pictures.MAX_FACE_PIXELS:,} one face draws (a picture of the card resamples each"
        " whole); the ones past it are left blank: draw fewer pictures, or smaller ones"
    )
    return P_IMAGE.at(loaded.rel, loaded.doc.span(path), message)


def _layout_failed(
    loaded: LoadedFile,
    path: tuple[str | int, ...],
    card_id: str,
    name: str,
    job: PrintJob,
    exc: Exception,
) -> Event:
    """P003 for a layout that fails on a card: at the failing template in the game's own
    layout file (said once per layout and problem), naming the card and where it is; else
    (a built-in layout, a place not known) at the card."""
    assert loaded.doc is not None
    at = loaded.doc.span(path)
    where = getattr(exc, "where", None)
    place = layout_place(name, job.game.root, where) if where else None
    if place is None:
        message = f"layout {name!r} fails on {card_id} ({job.lang}): {exc}"
        return P_LAYOUT.at(loaded.rel, at, message), None, None, None
    file, span = place
    said = str(exc).removeprefix(f"layout {name!r}: ")
    message = f"layout {name!r} fails on {card_id} ({job.lang}, {loaded.rel}:{at.line}): {said}"
    return P_LAYOUT.at(file, span, message), ("layout-error", name, said), None, None


def _element(
    loaded: LoadedFile,
    index: int,
    card: Any,
    face: tuple[str, PrintJob],
    item: Resolved,
    shape: Shape,
) -> Iterator[Event]:
    """What one element of a card's face (its layout's name and the job printing it in one
    language) gives: its kind's own problems, characters the font lacks in what it prints,
    and a text that does not fit (P001)."""
    assert loaded.doc is not None
    name, job = face
    element, lang = item.element, job.lang
    for problem in element.problems(item, job):
        once = ("problem", name, problem.code, problem.once) if problem.once is not None else None
        in_layout = _layout_path(name, job, element, problem)
        if in_layout is not None:
            doc, _ = layout_document(name, job.root)
            assert doc is not None
            diag = REGISTRY.get(problem.code).at(
                layout_file(name, job.root),
                doc.span(in_layout),
                f"layout {name!r} {problem.message}",
            )
            yield diag, once, None, ["layout", name, list(in_layout)]
            continue
        read = ("cards", index, *problem.field)  # a field the layout reads, else the card
        diag = REGISTRY.get(problem.code).at(
            loaded.rel,
            loaded.doc.spans.get(read) or loaded.doc.span(("cards", index)),
            f"{card.id}, layout {name!r}: {problem.message}",
        )
        yield diag, once, None, ["card", list(problem.field)]
    yield from _letters(loaded, card, face, item, shape)
    measured = element.measure(item, job)
    if measured is None or measured.fit.fits:
        return
    drawn_by = _drawn_by(job, element)
    own_words, field = _words_of(drawn_by, measured.source)
    own = _layout_overflow(name, job, item, measured) if own_words else []
    if own:  # the layout's own words: shorten them there
        yield from own
        return
    path = ("cards", index, field, lang) if field != "id" else ("cards", index, "id")
    place = ["card", list(path[2:])]
    # the element named: a layout printing one field in many boxes said one same line per
    # box, nothing to tell them apart (probe 50, P50-15's Low)
    number = _element_index(drawn_by, element)
    layout = drawn_by.id + ("" if number is None else f", element {number + 1}")
    if len(item.text) > MAX_FIT_CHARS:
        diag = P_OVERFLOW.at(
            loaded.rel,
            loaded.doc.span(path),
            f"{card.id} {field} ({lang}) prints {len(item.text):,} characters, more than "
            f"any box holds (a text over {MAX_FIT_CHARS:,} is not fitted; layout {layout})",
        )
        yield diag, None, None, place
        return
    diag = P_OVERFLOW.at(
        loaded.rel,
        loaded.doc.span(path),
        f"{card.id} {field} ({lang}) {_short_of(measured, item)} "
        f"({len(item.text)} characters; layout {layout})",
    )
    yield diag, None, None, place


def _words_of(layout: Layout, source: str) -> tuple[bool, str]:
    """Whether a text's template is the layout's own words (`_layout_own`), and the card's
    field it prints (`{{ body }}`, `let: body: card.text`: its text), once per layout and
    template: a layout of 1,400 texts that fit nowhere asked both for each text of each
    card in each language (budget60)."""
    known: dict[str, tuple[bool, str]] = worked_out(layout, "words-of", dict)
    found = known.get(source)
    if found is None:
        through = layout.through_lets(source)
        field = next((f for key, f in FIELD_OF.items() if key in through), "id")
        found = known[source] = (_layout_own(source, layout), field)
    return found


def _layout_own(source: str, layout: Layout) -> bool:
    """Whether a text's template reads nothing of the card: no `card`, nor a `let` name of
    the layout (which may)."""
    words = set(re.findall(r"\w+", source))
    return "card" not in words and not words & set(layout.let)


def _element_index(layout: Layout, element: Any) -> int | None:
    """Where `element` is in `layout`'s elements (None: not one of them), by a table made
    once per layout: a scan per finding took 1,400 overflowing texts after 3,500 boxes on 30
    cards 19.6 s of `validate` (probe 47 K12)."""
    places = worked_out(layout, "element-index", lambda: _indexed(layout))
    return places.get(id(element))


def _indexed(layout: Layout) -> dict[int, int]:
    # the layout keeps its elements, so an id is not taken by another object while it lives
    return {id(e): i for i, e in enumerate(layout.elements)}


def _drawn_by(job: PrintJob, element: Any) -> Layout:
    """The layout of the job that holds `element`: its front, else its back."""
    if job.back is not None and _element_index(job.front, element) is None:
        return job.back
    return job.front


def _layout_overflow(name: str, job: PrintJob, item: Resolved, measured: Any) -> list[Event]:
    """P001 for a text of the layout's own that reads nothing of the card, at its element
    in the layout file, once a layout, element and language (it was said at each card's
    `id`, as "advance id"); none when the element is not found in the layout's file."""
    doc, _ = layout_document(name, job.root)
    element = item.element
    index = _element_index(job.front, element)
    field = type(element).templates[0] if type(element).templates else None
    if doc is None or index is None or field is None:
        return []
    at = ("elements", index, field)
    size = len(item.text)
    said = (
        f"prints {size:,} characters, more than any box holds (a text over {MAX_FIT_CHARS:,}"
        " is not fitted)"
        if size > MAX_FIT_CHARS
        else f"{_short_of(measured, item)} ({size} characters)"
    )
    diag = P_OVERFLOW.at(
        layout_file(name, job.root),
        doc.span(at),
        f"layout {name!r}, element {index + 1} ({job.lang}): its own text {said}",
    )
    return [(diag, ("overflow", name, index, job.lang), None, ["layout", name, list(at)])]


def _letters(
    loaded: LoadedFile, card: Any, face: tuple[str, PrintJob], item: Resolved, shape: Shape
) -> Iterator[Event]:
    """P002 and P017 for the letters one element of a face prints (a card's front or back,
    a question's face: `shape.head` is the entry's path): what its kind draws of its
    rendered text as letters, a card's data printed as written (`{{ x }}` in a title is no
    template code there) and only the icons the game has left out."""
    assert loaded.doc is not None
    name, job = face
    element, lang, head = item.element, job.lang, shape.head
    prints_in = element.face(job)
    main = prints_in == job.fonts.face(None)  # content texts were checked against this face
    for field in type(element).prints:
        value = item.value(field)
        printed = element.letters(value, job.icons.names)
        if ":" in value:  # an inline icon the game lacks, made by template code (P007)
            yield from _printed_icons(loaded, card, face, element, field, value, shape)
        if job.unfilled:  # (whatever is left of a term's braces: its code is looked at too)
            yield from _printed_unfilled(loaded, card, face, element, field, value, shape)
        missing = missing_glyphs(printed, prints_in)
        if missing:  # the layout's own words first: at their line, once
            missing = yield from _own_glyphs(face, element, field, missing, prints_in)
        for ch in missing:
            # in a face of its own, a content text's letter is at fault where it is written,
            # and in the main face one that content texts are not searched for (`→`, which
            # the rulebook prints as its stand-in: probe 21 said it at the card's id)
            source = _drawn_by(job, element).through_lets(getattr(element, field) or "")
            seen = main and ch not in stand_ins()
            written = None if seen else _written(source, card, head)
            where = (*head, *written, lang) if written else (*head, "id")
            if not shape.has(where):
                where = (*head, "id")
            diag = P_GLYPH.at(
                loaded.rel,
                loaded.doc.span(where),
                f"layout {name!r} prints {code_point(ch)} for {card.id} "
                f"({lang}); the font has no glyph for it ({job.fonts.describe(prints_in)})",
            )
            yield diag, (name, prints_in, ch), (ch, main), ["card", list(where[2:])]
        rtl = printed_rtl(printed)  # one search in C for nearly every text
        event = _printed_rtl(loaded, card, face, item, field, rtl, shape) if rtl else None
        if event is not None:
            yield event


PRINTS_AS_WRITTEN = "it prints as written"
"""Where a P007 of a face says what it prints (its 'did you mean' goes after)."""
ICONS_A_FIELD = 10
"""Unknown icon names said for one field of one card face: a layout printing 1,300 made-up
names a card gave 456,971 findings on 600 cards (67 MB, 4 minutes)."""


def _printed_icons(
    loaded: LoadedFile,
    card: Any,
    face: tuple[str, PrintJob],
    element: Any,
    field: str,
    value: str,
    shape: Shape,
) -> Iterator[Event]:
    """P007 for an inline icon the game lacks that one element of a face prints, as written,
    from its template code or the card's data (`:{{ card.suit }}:` on a card whose suit has
    no icon): at the element's field in a game's own layout, naming the card, once per
    layout, field and name; at the card for a built-in layout. A name the layout's own words
    write is said there (inline_icons.layout_icons), one a content text writes where the
    text is written (`_Once`)."""
    assert loaded.doc is not None
    name, job = face
    unknown = printed_unknown(element, value, job.icons)
    if not unknown:
        return
    written = printed_unknown(element, own_words(element, field), job.icons)
    at = _field_place(loaded, face, element, field, shape)
    said = [n for n in unknown if n not in written]
    for number, icon in enumerate(said[:ICONS_A_FIELD], 1):
        more = len(said) - ICONS_A_FIELD if number == ICONS_A_FIELD else 0
        message = (
            f"layout {name!r} prints ':{icon}:' for {card.id} ({job.lang}), but the game has"
            f" no icon {icon!r}: {PRINTS_AS_WRITTEN}"  # its 'did you mean': `_Once.said`
            + (
                f"; and {more:,} more names the game has no icon for, not listed"
                if more > 0
                else ""
            )
        )
        diag = P_INLINE_ICON.at(at.file, at.span, message)
        yield diag, ("icon", *at.key, icon), (icon, True), at.place


def _printed_unfilled(
    loaded: LoadedFile,
    card: Any,
    face: tuple[str, PrintJob],
    element: Any,
    field: str,
    value: str,
    shape: Shape,
) -> Iterator[Event]:
    """R006 for a glossary term that one element of a face prints as written, whose
    `{names}` only a board fills (`job.unfilled`): at the element's field in a game's own
    layout, once per layout, field, term and language; at the card for a built-in one."""
    name, job = face
    at = _field_place(loaded, face, element, field, shape)
    from toolkit.render.jinja_cache import glossary_read

    source = getattr(element, field, None)  # the field as the layout writes it
    for term, words in job.unfilled:
        named = isinstance(source, str) and glossary_read(source, term) >= 0
        if not named and printed_at(value, words) < 0:
            continue  # (named: whatever a filter or a slice made of it, `pcount[1:]`)
        message = unfilled_message(f"layout {name!r}", term, job.lang, words)
        said = message if at.in_layout else f"{card.id}: {message}"
        diag = R_PLACEHOLDER.at(at.file, at.span, said)
        yield diag, ("unfilled", *at.key, term, job.lang), None, at.place


@dataclass(frozen=True)
class _Place:
    """Where a finding on what one element of a face prints is said: the element's field in
    a game's own layout file, else the entry's `id` (a built-in layout's words are the
    toolkit's); `key`, the place as `_Once` names it; `place`, as a unit stores it."""

    file: str
    span: Span
    key: tuple[Any, ...]
    place: list[Any]
    in_layout: bool


def _field_place(
    loaded: LoadedFile, face: tuple[str, PrintJob], element: Any, field: str, shape: Shape
) -> _Place:
    assert loaded.doc is not None
    name, job = face
    own = assets.expected(assets.LAYOUTS, name, job.root).in_game
    at = _element_index(job.front, element)
    if own and at is not None:
        path = ("elements", at, field)
        doc, _ = layout_document(name, job.root)
        assert doc is not None
        span = doc.span(path)
        return _Place(
            layout_file(name, job.root), span, (name, *path), ["layout", name, list(path)], True
        )
    where = (*shape.head, "id")
    return _Place(loaded.rel, loaded.doc.span(where), (loaded.rel, *where), ["card", ["id"]], False)


def _own_glyphs(
    face: tuple[str, PrintJob], element: Any, field: str, missing: list[str], prints_in: str
) -> Generator[Event, None, list[str]]:
    """P002 for the characters of `missing` that a game's own layout prints itself (the
    literal words of the element's text, else a label in the job's language): at their
    place in the layout file, once per place; returns the other characters (said at the
    entry). Searched on what prints: an element a card does not show is no finding."""
    name, job = face
    if not assets.expected(assets.LAYOUTS, name, job.root).in_game:
        return missing  # a built-in layout's words are the toolkit's own: said at the entry
    at = _element_index(job.front, element)
    own: list[tuple[tuple[str | int, ...], str, str]] = []
    if at is not None:
        own.append(
            (("elements", at, field), _words(element, field, job.icons.names), "layout text")
        )
    for key, words in job.front.labels.items():
        if job.lang in words:
            text = without_icons(words[job.lang], job.icons.names)
            own.append((("labels", key, job.lang), text, f"label {key}, {job.lang}"))
    for path, text, where in own:
        chars = [ch for ch in missing if ch in text]
        if not chars:
            continue
        missing = [ch for ch in missing if ch not in chars]
        shown = code_points(chars)
        message = (
            f"the font has no glyph for {shown} ({where}; {job.fonts.describe(prints_in)}); "
            "use an icon such as :arrow:"
        )
        doc, _ = layout_document(name, job.root)
        assert doc is not None
        diag = P_GLYPH.at(layout_file(name, job.root), doc.span(path), message)
        yield diag, ("glyph", name, *path, prints_in, *chars), None, ["layout", name, list(path)]
    return missing


def _written(source: str, card: Any, head: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """The content text of an entry a layout text prints (its path under the entry), or ()."""
    if head[0] == "questions":
        field = _question_field(source, card)
        return () if field == ("id",) else field
    return next(((f,) for key, f in FIELD_OF.items() if key in source), ())


def _printed_rtl(
    loaded: LoadedFile,
    card: Any,
    face: tuple[str, PrintJob],
    item: Resolved,
    field: str,
    ch: str,
    shape: Shape,
) -> Event | None:
    """P017 for a right-to-left letter a card face prints, where it comes from: the layout's
    own words (its element's text or a label: said once per layout and place), a value of
    the card's data that is not a localized text (a parameter), else what the layout
    computes (at the element, said once; or at the card for a built-in layout). A letter of
    the card's localized texts is said where the text is written (text-direction): no event
    then; one computed from any content text (`(ch, True)`) is left out for the same
    reason by `check`."""
    assert loaded.doc is not None
    name, job = face
    element, lang = item.element, job.lang
    message = f"{said(ch)} (layout {name!r} prints it for {card.id}, {lang})"
    own = assets.expected(assets.LAYOUTS, name, job.root).in_game
    at = _element_index(job.front, element)
    in_layout: tuple[str | int, ...] | None = None
    if own and at is not None and ch in (getattr(element, field) or ""):
        in_layout = ("elements", at, field)
    if own and in_layout is None:
        labels = job.front.labels.items()
        in_layout = next(
            (("labels", k, lg) for k, words in labels for lg, t in words.items() if ch in t), None
        )
    if in_layout is not None:
        doc, _ = layout_document(name, job.root)
        assert doc is not None
        diag = P_RTL.at(layout_file(name, job.root), doc.span(in_layout), message)
        return diag, ("rtl", name, *in_layout), None, ["layout", name, list(in_layout)]
    head = shape.head
    if any(ch in v for t in texts_of(loaded, card, head) for v in t.value.values()):
        return None
    held = next((path for path, text in string_leaves(card) if ch in text), None)
    if held is not None:
        where = (*head, *held) if shape.has((*head, *held)) else (*head, "id")
        diag = P_RTL.at(loaded.rel, loaded.doc.span(where), message)
        return diag, ("rtl", loaded.rel, *where), None, ["card", list(where[2:])]
    if own and at is not None:  # computed by the layout (or from a content text elsewhere)
        path = ("elements", at, field)
        doc, _ = layout_document(name, job.root)
        assert doc is not None
        diag = P_RTL.at(layout_file(name, job.root), doc.span(path), message)
        return diag, ("rtl", name, *path), (ch, True), ["layout", name, list(path)]
    where = (*head, "id")
    diag = P_RTL.at(loaded.rel, loaded.doc.span(where), message)
    return diag, ("rtl", loaded.rel, *where), (ch, True), ["card", ["id"]]


def _short_of(measured: Any, item: Any) -> str:
    """What a text that does not fit lacks: height, or (its lines fitting the box's height)
    width, as one word wider than the box even at the minimum size."""
    needed = measured.fit.height / mm
    if needed <= item.h:
        return f"holds a word wider than the box's {item.w:.1f} mm even at {measured.min_size} pt"
    return f"needs {needed:.1f} mm at {measured.min_size} pt but the box is {item.h:.1f} mm high"


def _layout_path(
    name: str, job: PrintJob, element: Any, problem: Any
) -> tuple[str | int, ...] | None:
    """Where in the layout file a problem of the layout itself lies (its element's field),
    or None when the card's data is at fault (or the layout has no file to point into)."""
    if problem.in_layout is None:
        return None
    doc, _ = layout_document(name, job.root)
    index = _element_index(job.front, element)
    if doc is None or index is None:
        return None
    return ("elements", index, *problem.in_layout)


MAX_LAYOUTS_LISTED = 10
"""Layout names of the game an unknown layout's finding lists, then how many more: a game of
1,000 layout files made each such finding a 62 kB line (probe 37 H1)."""


def _listed_layouts(names: list[str]) -> str:
    shown = ", ".join(names[:MAX_LAYOUTS_LISTED]) or "none"
    more = len(names) - MAX_LAYOUTS_LISTED
    return f"{shown} … and {more:,} more" if more > 0 else shown


class LayoutTips:
    """The 'did you mean' of the unknown layout names one check run reports, as `Tips` does
    for icons: the game's layouts listed once, each name searched once, and only the first
    MAX_TIPPED distinct names met (in the decks' order, so the same game gives the same
    messages); 370 decks each naming another unknown layout against 1,000 look-alike layout
    files were 740 searches, 32 s (probe 37 H1)."""

    def __init__(self, game_root: Path) -> None:
        self.root = game_root
        self._tips = suggest.Tips()

    @cached_property
    def own(self) -> list[str]:
        """The game's layout names (listed at the first unknown name, not before)."""
        return [found.path.stem for found in assets.in_game(assets.LAYOUTS, self.root)]

    @cached_property
    def builtin(self) -> list[str]:
        builtin_dir = repo_root().joinpath(*(assets.LAYOUTS.builtin or ()))
        return sorted(p.stem for p in builtin_dir.glob("*.yaml")) if builtin_dir.is_dir() else []

    def why(self, name: str) -> str:
        """Why a deck or bank naming `name` prints with no layout ('' if it has one): no
        layout has the name, or the game's file is not read (`assets.Found.unread`)."""
        at = assets.find(assets.LAYOUTS, name, self.root)
        return self.message(name) if at is None else at.unread

    def close(self, name: str) -> str | None:
        """The layout name closest to `name` for the first MAX_TIPPED names asked, else None."""
        return self._tips.ask(name, lambda: close_match(name, self.own + self.builtin))

    def message(self, name: str) -> str:
        """No layout has this name: say where layouts come from and which there are."""
        close = self.close(name)
        tip = f"; did you mean {close!r}?" if close is not None else ""
        return (
            f"no layout {name!r} in the game's layouts/ folder or the toolkit's (the game has"
            f" {_listed_layouts(self.own)}; the toolkit has"
            f" {_listed_layouts(self.builtin)}){tip}"
        )


def unknown_layout(name: str, game_root: Path) -> str:
    """No layout has this name: say where layouts come from and which there are (one name;
    a check run asks its `LayoutTips`)."""
    return LayoutTips(game_root).message(name)


def _layouts_refused(loaded: LoadedFile, named: Any, tips: LayoutTips) -> Iterator[Diagnostic]:
    """P003 at a deck's or bank's `layout` and `back` keys that name no layout it can print
    with (`LayoutTips.why`)."""
    assert loaded.doc is not None
    for field in ("layout", "back"):
        name = getattr(named, field)
        why = tips.why(name) if name else ""
        if why:
            yield P_LAYOUT.at(loaded.rel, loaded.doc.span((field,)), why)


def _question_fit(
    game: Game, once: _Once, unfilled: Unfilled, stop: _Stop, tips: LayoutTips | None = None
) -> Iterator[Diagnostic]:
    """P001 for question cards: the question and answers (front), the right answer and the
    fact line (back), in every language, on the layouts and card size `build` prints; P002
    and P017 for the letters each face prints (said once as `once` decides).

    With `validate`'s units, a bank's findings are also kept whole, named by the bank's
    file in the game folder's frame (toolkit.checks.framed: the other content files' bytes
    left out, which its questions' faces are not resolved from): after an edit elsewhere a
    bank is read back without naming its questions' faces."""
    assert game.manifest is not None
    units = active()
    decks: dict[int, Any] | None = None
    layout_tips = tips if tips is not None else LayoutTips(game.root)  # lists names lazily
    for loaded in game.questions:
        bank = loaded.model
        if bank is None or loaded.doc is None:
            continue
        yield from _layouts_refused(loaded, bank, layout_tips)  # none to print with: no build
        name = _bank_name(loaded, units, unfilled)
        reader = _bank_reader(len(bank.questions), stop.budget)
        kept = units.get(name, reader) if units and name else None
        if kept is not None:
            assert units is not None
            for index, one in enumerate(kept[0]):
                yield from (diag for _, diag, _, _ in _question_read(loaded, index, one))
            for unit in kept[1]:  # each question's own unit kept too: an edit in the bank
                if unit in units.known:  # works out that question alone
                    units.used[unit] = units.known[unit]
            continue
        if decks is None:  # (the build's artifacts imported only then: a kept bank needs none)
            from toolkit.render.artifacts.questions import question_decks

            decks = {id(deck.cards): deck for deck in question_decks(game)}  # what build prints
        deck = decks[id(bank.questions)]
        layouts = [(n, _layout_of(n, game)) for n in (deck.layout, deck.back)]
        # one job per face and language for the whole bank: a job reads the game's fonts
        # and icons once (the layout's absent ones are reported with its S diagnostics)
        jobs = [
            (
                name,
                _job(game, deck, layout, lang, unfilled, stop.budget),
            )
            for name, layout in layouts
            if layout is not None
            for lang in languages(game)
        ]
        stores: list[Any] | None = []
        inner: list[str] = []
        faces = stop.budget.layouts  # what resolving the faces may cost
        spent, refusals = stop.budget.spent, stop.budget.refusals
        drawn, declined = faces.spent, faces.refusals
        for index, question in enumerate(bank.questions):
            found, unit = _question_findings(loaded, index, question, jobs)
            yield from (once.said(d, key) for _, d, key, glyph in found if once.new(d, key, glyph))
            yield from stop.check(loaded, ("questions", index, "id"), question.id)
            if unit is not None:
                inner.append(unit)
            if stores is not None:
                try:
                    stores.append(_question_store(loaded, index, found))
                except NotKept:
                    stores = None
        if stop.budget.refusals != refusals or faces.refusals != declined:
            stores = None  # not every text measured: the bank is not what it is whole
        if units is not None and name is not None and stores is not None:
            units.put(name, [stores, inner, stop.budget.spent - spent, faces.spent - drawn])
            units.framed.append(name)


def _bank_name(loaded: LoadedFile, units: Any, unfilled: Unfilled) -> str | None:
    """A bank's unit name in the frame (None without units, frame or content paths)."""
    if units is None or units.content is None or loaded.doc is None:
        return None
    if not every_language_printed():  # a bank's unit holds every language's findings
        return None
    import os

    here = os.path.abspath(loaded.doc.path)
    kind = f"question-bank-fit:{to_json(_named(unfilled))}" if unfilled else "question-bank-fit"
    return units.framed_name_but(kind, here)


def _bank_reader(count: int, budget: FitBudget) -> Callable[[Any], list[Any]]:
    """A bank's kept findings back, with the fitting and layout work its questions counted
    (counted again: not read back when that reaches a budget's limit, see
    card_units.budgeted)."""

    def read(kept: Any) -> list[Any]:
        if type(kept) is not list or len(kept) != 4 or type(kept[0]) is not list:
            raise ValueError("not a bank's findings")
        if type(kept[2]) is not int or kept[2] < 0:
            raise ValueError("not a fitting count")
        if type(kept[3]) is not int or kept[3] < 0:
            raise ValueError("not a layout's work")
        if len(kept[0]) != count or type(kept[1]) is not list:
            raise ValueError("not a bank's findings")
        if not all(type(unit) is str for unit in kept[1]):
            raise ValueError("not unit names")
        if not budget.affords(kept[2]):
            raise ValueError("past the fitting budget: worked out")
        if not budget.layouts.affords(kept[3]):
            raise ValueError("past the layout budget: worked out")
        budget.spent += kept[2]
        budget.layouts.spent += kept[3]
        return kept

    return read


Found = list[tuple[tuple[object, ...], Diagnostic, Any, Any]]
"""A question's findings: the path each points at, the finding, and (P002, P017) the key it
is said once under and its character (as `Event`'s)."""


def _question_placed(
    loaded: LoadedFile, path: tuple[object, ...], code: str, message: str, severity: str
) -> Diagnostic:
    assert loaded.doc is not None
    span = loaded.doc.span(path)  # type: ignore[arg-type]
    return Diagnostic(span.file or loaded.rel, code, message, Severity(severity), span)


def _question_store(loaded: LoadedFile, index: int, found: Found) -> list[Any]:
    """One question's findings as kept: the data paths under it they point at (NotKept
    for a finding its path alone does not place)."""
    head = ("questions", index)
    kept = []
    for path, diag, _, _ in found:
        if path[:2] != head or diag.code != P_OVERFLOW.code:
            raise NotKept  # a template error or a letter: worked out again, as a face's is
        if _question_placed(loaded, path, diag.code, diag.message, diag.severity.value) != diag:
            raise NotKept  # not placed by its path alone
        kept.append([list(path[2:]), diag.code, diag.message, diag.severity.value])
    return kept


def _question_read(loaded: LoadedFile, index: int, kept: Any) -> Found:
    """One question's kept findings placed again (ValueError for a value not so kept)."""
    if type(kept) is not list:
        raise ValueError("not findings")
    head = ("questions", index)
    found = []
    for item in kept:
        if type(item) is not list or len(item) != 4:
            raise ValueError("not a finding")
        rest, code, message, severity = item
        if not isinstance(rest, list) or not all(
            isinstance(p, str | int) and not isinstance(p, bool) for p in rest
        ):
            raise ValueError("not a path")
        if code != P_OVERFLOW.code or not isinstance(message, str):
            raise ValueError("not a print-fit finding")
        path = (*head, *rest)
        diag = _question_placed(loaded, path, code, message, Severity(severity))
        found.append((path, diag, None, None))
    return found


def _question_findings(
    loaded: LoadedFile, index: int, question: Any, jobs: list[tuple[str, PrintJob]]
) -> tuple[Found, str | None]:
    """The P001 (and P003, P002, P017) findings of one question on every face and language,
    with the data path each points at (and the name of its unit, None without one), kept as a unit
    between `validate` runs (toolkit.content.unit_cache): named by what its faces are
    resolved from (toolkit.render.face_units) and the inline icon names its texts are set
    with, kept as the data paths they point at, and placed again at those paths' lines on
    reuse, so an edit elsewhere in the file (lines shifted) or of another card reuses them."""

    def work() -> Found:
        reported: set[tuple[object, ...]] = set()  # a right answer shows on both faces
        found = []
        for name, job in jobs:
            for path, diag, key, glyph in _question_face(loaded, index, question, name, job):
                if key is None and path in reported:
                    continue  # a letter's finding is said once by its key (`_Once`)
                reported.add(path)
                found.append((path, diag, key, glyph))
        return found

    args = _question_args(question, jobs) if active() is not None else None
    if args is None:
        return work(), None
    assert loaded.doc is not None

    def store(found: Found) -> list[Any]:
        return _question_store(loaded, index, found)

    def read(kept: Any) -> Found:
        return _question_read(loaded, index, kept)

    try:
        unit = Units.name("question-fit", args)
    except (TypeError, ValueError):  # an argument JSON cannot write: worked out, not kept
        return work(), None
    budget = jobs[0][1].budget if jobs else None
    if budget is None:
        return cached_as(unit, work, store, read), unit
    counted, kept, again = budgeted(budget, work, store, read)
    return cached_as(unit, counted, kept, again)[0], unit


def _question_args(question: Any, jobs: list[tuple[str, PrintJob]]) -> list[Any] | None:
    """What one question's print-fit findings are worked out from, or None when something
    cannot be named (or a layout holds an element kind measured by code outside the
    toolkit): each face's layout name and unit inputs, and the inline icon names."""
    args: list[Any] = []
    for name, job in jobs:
        if any(_foreign_measure(element) for element in job.front.elements):
            return None
        try:
            face = face_args(job.game, job.deck, job.front, question, job.lang, job.card_mm)
        except (TypeError, ValueError):
            return None
        args.append([name, face, icon_names(job.icons.names), [list(t) for t in job.unfilled]])
    return args


def _foreign_measure(element: Any) -> bool:
    """Whether an element's kind measures its text with code of its own, not the toolkit's
    (whose fit depends on the face, the language and the icon names alone)."""
    return not type(element).measure.__module__.startswith("toolkit.render.elements.")


def _layout_of(name: str, game: Game) -> Any:
    """The layout `name` as the game finds it, or None (reported with the layout)."""
    return load_layout(name, game.root)[0]


def _question_face(
    loaded: LoadedFile, index: int, question: Any, name: str, job: PrintJob
) -> Iterator[tuple[tuple[object, ...], Diagnostic, Any, Any]]:
    """Each text of one question face (layout `name`) that does not fit, with the field path
    it prints, and the letters it prints that the font lacks or that read right to left."""
    assert loaded.doc is not None
    lang = job.lang
    try:
        elements = job.resolved(job.front, question)
    except LayoutSpent:
        _stopped(job, name, job.front, question)
        return
    except (TemplateError, TypeError, ValueError) as exc:
        where = loaded.doc.span(("questions", index, "id"))
        message = f"layout {name!r} fails on {question.id} ({lang}): {exc}"
        yield ("layout", name, lang), P_LAYOUT.at(loaded.rel, where, message), None, None
        return
    at = ("questions", index, "id")
    many = _many_icons(loaded, at, question.id, name, job, elements)
    if many is not None:
        yield ("many-icons",), many, None, None
    heavy = _many_pixels(loaded, at, question.id, name, job, elements)
    if heavy is not None:
        yield ("many-pixels",), heavy, None, None
    shape = Shape(loaded, index, "questions")
    for item in elements:
        for diag, key, glyph, _ in _letters(loaded, question, (name, job), item, shape):
            yield ("letter",), diag, key, glyph
        measured = item.element.measure(item, job)
        if measured is None or measured.fit.fits:
            continue
        field = _question_field(measured.source, question)
        path = ("questions", index, *field) + ((lang,) if field != ("id",) else ())
        message = (
            f"{question.id} {'.'.join(map(str, field))} ({lang}) {_short_of(measured, item)} "
            f"({len(item.text)} characters; layout {name})"
        )
        yield path, P_OVERFLOW.at(loaded.rel, loaded.doc.span(path), message), None, None


def _question_field(source: str, question: object) -> tuple[str | int, ...]:
    """Which field of a question a layout text prints: `question`, `fact`, an answer by its
    index, or the right answer (`card.answers[...card.right...]`); else the question's id."""
    found = _ANSWER_AT.search(source)
    if found:
        return ("answers", int(found.group(1)))
    if "card.answers" in source and "card.right" in source:
        return ("answers", "abcd".index(question.right))  # type: ignore[attr-defined]
    found = _QUESTION_FIELD.search(source)
    if found:
        return (found.group(1),)
    return ("id",)


def _card_numbers(value: object, path: tuple[str | int, ...]) -> Iterator[tuple[tuple, int]]:
    """Every whole number in a card's data with its path (`bonuses.fire`, `effect.to.1`)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield path, value
    elif isinstance(value, BaseModel):
        for key in type(value).model_fields:
            if key not in NOT_PRINTED:
                yield from _card_numbers(getattr(value, key), (*path, key))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _card_numbers(item, (*path, key))
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from _card_numbers(item, (*path, index))


def _printed_numbers(elements: list[Resolved]) -> set[int]:
    """The whole numbers a face prints as words (the fields its kinds print)."""
    values = (item.value(field) for item in elements for field in type(item.element).prints)
    # a text without a digit is not searched for numbers (most are not): see ANY_DIGIT
    return {int(n) for v in values if ANY_DIGIT.search(v) for n in _DIGITS.findall(v)}


def _unprinted(
    loaded: LoadedFile, index: int, card: object, layout: str, printed: set[int], shape: Shape
) -> Iterator[tuple[Diagnostic, list[Any]]]:
    """A number the rules use but the face shows in no language (a hero's bonus once printed
    as 'add her bonus' with no number): players could not know it. A number missing from one
    language only is a translation finding (T006), not this."""
    assert loaded.doc is not None
    unprinted = [(p, n) for p, n in _card_numbers(card, ()) if abs(n) not in printed]
    written = {p: shape.has(("cards", index, *p)) for p, _ in unprinted}
    numbers = {n for p, n in unprinted if written[p]}
    for path, number in unprinted:
        where = ("cards", index, *path)
        if not written[path] and number in numbers:
            continue  # a field filled from what the file says elsewhere (`params.points`)
        field = ".".join(str(p) for p in path)
        diag = P_UNPRINTED.at(
            loaded.rel,
            loaded.doc.span(where),
            f"{getattr(card, 'id', '?')}: {field} is {number}, but neither its texts nor "
            f"layout {layout!r} print it in any language",
        )
        yield diag, ["card", list(path)]


def _words(element: Any, field: str, icons: frozenset[str]) -> str:
    """The letters a layout element's field prints itself: its template code left out, and
    the inline icons of the game (`icons`) where its kind draws them as icons."""
    return element.letters(own_words(element, field), icons)


def layout_glyphs(
    name: str, game_root: Path | None = None, fonts: FontSet = NO_FONTS
) -> tuple[Diagnostic, ...]:
    """P002 for the words a layout prints itself (its labels and the literal parts of its
    texts), each in the face it prints in: a glyph the font lacks there would print as a box
    on every card. A label is checked against every face the layout prints words in.

    Once per version of the layout read (kept with it): a cache by name kept the findings
    of the first version for good in a long-lived process (`playset lsp`)."""
    layout, _ = load_layout(name, game_root)
    if layout is None:
        return ()
    icons = icon_set(game_root).names
    key = ("glyphs", name, game_root, fonts, icons)
    return worked_out(layout, key, lambda: _layout_glyphs(layout, name, game_root, fonts, icons))


def _layout_glyphs(
    layout: Layout, name: str, game_root: Path | None, fonts: FontSet, icons: frozenset[str]
) -> tuple[Diagnostic, ...]:
    doc, _ = layout_document(name, game_root)
    if doc is None:
        return ()
    found: list[Diagnostic] = []

    def report(path: tuple[str | int, ...], text: str, where: str, face: str) -> None:
        missing = missing_glyphs(text, face)
        if missing:
            shown = code_points(missing)
            message = (
                f"the font has no glyph for {shown} ({where}; {fonts.describe(face)}); "
                "use an icon such as :arrow:"
            )
            found.append(P_GLYPH.at(layout_file(name, game_root), doc.span(path), message))

    faces = []
    for element in layout.elements:
        asked = element.font_asked()
        faces.append(fonts.face(*asked) if asked else fonts.face(None))
    for key, words in layout.labels.items():
        for lang, text in words.items():
            for face in dict.fromkeys(faces or [fonts.face(None)]):
                report(
                    ("labels", key, lang), without_icons(text, icons), f"label {key}, {lang}", face
                )
    for index, element in enumerate(layout.elements):
        for field in type(element).prints:
            printed = _words(element, field, icons)
            report(("elements", index, field), printed, "layout text", faces[index])
    return tuple(found)


def layout_rtl(name: str, game_root: Path) -> tuple[Diagnostic, ...]:
    """P017 for the words a game's own layout prints itself (its labels and the literal
    parts of its texts), each at its place: for a layout no deck prints as its front (a
    back, a question face), whose faces are not resolved card by card here. Once per
    version of the layout read."""
    layout, _ = load_layout(name, game_root)
    if layout is None or not assets.expected(assets.LAYOUTS, name, game_root).in_game:
        return ()  # a built-in layout's words are the toolkit's own
    icons = icon_set(game_root).names
    return worked_out(
        layout, ("rtl", name, game_root, icons), lambda: _layout_rtl(layout, name, game_root, icons)
    )


def _layout_rtl(
    layout: Layout, name: str, game_root: Path, icons: frozenset[str]
) -> tuple[Diagnostic, ...]:
    doc, _ = layout_document(name, game_root)
    if doc is None:
        return ()
    texts: list[tuple[tuple[str | int, ...], str]] = [
        (("labels", key, lang), text)
        for key, words in layout.labels.items()
        for lang, text in words.items()
    ]
    for index, element in enumerate(layout.elements):
        for field in type(element).prints:
            texts.append((("elements", index, field), _words(element, field, icons)))
    found = []
    for path, text in texts:
        ch = printed_rtl(text)
        if ch is not None:
            where = doc.span(path)
            message = f"{said(ch)} (words of layout {name!r})"
            found.append(P_RTL.at(layout_file(name, game_root), where, message))
    return tuple(found)


def _label_languages(name: str, game_root: Path, languages: list[str]) -> Iterator[Diagnostic]:
    """T001 for a layout label that lacks a language the game prints: that face would show
    the label's key ('draw') instead of words."""
    layout, _ = load_layout(name, game_root)
    doc, _ = layout_document(name, game_root)
    if layout is None or doc is None:
        return
    for key, words in layout.labels.items():
        missing = [lang for lang in languages if not words.get(lang)]
        if missing:
            yield T_MISSING.at(
                layout_file(name, game_root),
                doc.span(("labels", key)),
                f"label {key} of layout {name!r} has no {', '.join(missing)}: cards in that "
                "language would print its key",
            )


def as_printed(text: Text, value: str) -> str:
    """The letters a content text prints itself: a card's `text` is filled as it prints
    (context.card_context: `{steps}` prints the card's value, searched where the card
    prints; `{{` a brace), any other as written. A text without a brace is itself (nearly
    every one)."""
    if ("{" not in value and "}" not in value) or not text.path or text.path[-1] != "text":
        return value
    return own_letters(value, text.owner)


Lack = tuple[Text, str, list[str]]
"""A content text, a language and the characters its value lacks in the main face."""


def _content_lacks(facts: Facts, face: str) -> list[Lack]:
    """Each content text's value, in the languages checked (`prints`), that prints a
    character `face` lacks, with those characters, in the order of the texts. A character
    the rulebook prints as its stand-in (`→` as `–›`, fonts.stand_ins) is left to what
    prints it as itself: a card face's or a board's own search finds it there, the
    rulebook's glyph check searches the stand-in.

    With `validate`'s units active (and every language printed), what lacks nothing in the
    face is remembered (toolkit.content.unit_cache.Clean: a text as it prints, its language
    and the face), a file whose every text did is skipped whole: after one card edit only
    the edited file's texts are searched."""
    replaced = stand_ins()
    clean = Clean(f"clean-content-glyphs:{face}") if every_language_printed() else None
    if clean is not None and not clean.on:
        clean = None  # no units: every text searched
    found: list[Lack] = []
    for loaded, texts in facts.by_file():  # a file asked once, not once a text
        if clean is not None and clean.file_seen(loaded):
            continue  # every text of its file lacked nothing, and nothing it reads changed
        for text in texts:
            for lang, value in text.value.items():
                if not prints(lang):
                    continue
                printed = as_printed(text, value)
                digest = text_digest(face, lang, printed) if clean is not None else ""
                if clean is not None and clean.seen(digest):
                    clean.noted(loaded, digest, True)
                    continue
                missing = [c for c in missing_glyphs(printed, face) if c not in replaced]
                if missing:
                    found.append((text, lang, missing))
                if clean is not None:
                    if not missing:
                        clean.found_clean(digest)
                    clean.noted(loaded, digest, not missing)
    if clean is not None:
        clean.close()
    return found


def _glyphs(lacking: list[Lack], face: str, fonts: FontSet) -> Iterator[Diagnostic]:
    """P002 for content texts against the game's main face (the rulebook, components list
    and any layout text without a font of its own print them in it)."""
    named = "" if face in FILES else f"; {fonts.describe(face)}"
    for text, lang, missing in lacking:
        doc = text.file.doc
        if doc is None:
            continue
        shown = code_points(missing)
        yield P_GLYPH.at(
            text.file.rel,
            doc.span((*text.path, lang)),
            f"the font has no glyph for {shown} ({lang}{named})",
        )


__all__ = ["capacities", "capacity", "check"]


def capacity(game: Game, card: object, field: str, lang: str) -> int | None:
    """About how many characters of `field` fit the card's box at the minimum size in `lang`
    (measured with the text's own average character width), for translators' PO comments."""
    return capacities(game, lang)(card, field)


def capacities(game: Game, lang: str) -> Callable[[object, str], int | None]:
    """`capacity` in `lang` for many cards: each card's deck, layout and print job are
    found once for all (each card searched every deck's cards and stat'ed its layout file:
    quadratic in a game's cards)."""
    faces: dict[int, tuple[Any, PrintJob | None]] = {}  # a card's id: its deck's print job
    for deck in game.valid(game.decks):
        layout, _ = load_layout(deck.layout or DEFAULT_FRONT, game.root)
        # through the print job: the face the gate resolved (the game's print memo), not
        # rendered again for each field asked (a face's renders are bounded by the gate's
        # layout budget, toolkit.render.layout_budget, once)
        job = (
            None if layout is None else PrintJob(game, deck, layout, None, lang, size_mm(deck.size))
        )
        for card in deck.cards:
            faces.setdefault(id(card), (card, job))  # the first deck that holds it

    def room(card: object, field: str) -> int | None:
        kept = faces.get(id(card))
        if kept is None or kept[0] is not card or kept[1] is None:
            return None
        job = kept[1]
        try:
            elements = job.resolved(job.front, card)
        except (TemplateError, TypeError, ValueError):
            return None
        wanted = f"card.{field}"
        for item in elements:
            element = item.element
            sources = (getattr(element, t) or "" for t in type(element).templates)
            if any(wanted in source for source in sources):
                found = element.capacity(item)
                if found is not None:
                    return found
        return None

    return room


register(CheckFamily("print-fit", "Card layouts: what is printed fits the card.", check))
