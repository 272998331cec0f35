"""A001 and A004 on card faces: every text of every card, in every language, against what
lies under it and the smallest size the game allows.

The faces are resolved through the print job, so the texts, boxes and fitted sizes are the
ones the build draws (and the print-fit check has already resolved and measured them: the
game's print memo and the fit cache make this a second, cheap pass). What lies under a text
is sampled at points across its box: the topmost colour an earlier element lays there, else
the layout's background; the worst of them counts.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any

from jinja2 import TemplateError

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
from toolkit.checks.legibility.colours import contrast, rgb
from toolkit.checks.legibility.rules import A_CONTRAST, A_SMALL
from toolkit.checks.legibility.settings import legibility, required
from toolkit.content import assets
from toolkit.content.game import Game, LoadedFile
from toolkit.content.models.deck import size_mm
from toolkit.content.unit_cache import NotKept, active
from toolkit.diagnostics import Diagnostic, Span
from toolkit.render.elements import Ink, Paint
from toolkit.render.layout import (
    DEFAULT_BACK,
    DEFAULT_FRONT,
    layout_document,
    layout_file,
    load_layout,
)
from toolkit.render.printjob import PrintJob
from toolkit.render.textfit import FitBudget, game_budget

FIELD_OF = {"card.text": "text", "card.name": "name"}
SAMPLES = (0.1, 0.3, 0.5, 0.7, 0.9)
"""Where across (and down) a text's box what lies under it is sampled."""
MAX_WORK = 500_000
"""Steps (`Beneath.looked`) the different faces a game's texts are looked at over may take
together, each face counted once a run. A face of 200 boxes, 200 badges and 60 texts took
~0.1 s, and faces that differ card by card (a box per card shown `when` it is not that
card) are each worked out: 300 such cards took validate 9.9 s (probe 51 P51-10), a face
~210,000 steps. A step takes ~0.5 µs with what the check does around it (70 such cards,
P51-10's shape, spent 1,000,000 in ~0.55 s of validate), so this is ~0.25 s (it was 3
million until one game was seen to spend every surface's budget at once, budget59, then 1
million until budget60: that game still took 5 s); the bundled games' faces take 20,000 at
most, 4 % of it. Past it the check stops, and says where (`_stop_finding`)."""


@dataclass
class Under:
    """One text of a layout over one colour: the worst seen, and on which cards."""

    ratio: float
    needed: float
    size: float
    source: str  # what lays the colour: "background" or "element N (when …)"
    cards: list[str] = field(default_factory=list)


@dataclass
class Findings:
    """What the faces of a game give, gathered card by card and said once at the end."""

    low: dict[tuple[str, int, str, str], Under] = field(default_factory=dict)
    small: list[Diagnostic] = field(default_factory=list)
    told: set[tuple[object, ...]] = field(default_factory=set)  # layout texts, once per language
    work: int = 0
    """Steps (`Beneath.looked`) of the faces charged, each once (`faces`)."""
    faces: set[str] = field(default_factory=set)
    """The digests of the faces charged: a face met again costs nothing more, whether
    worked out or read back from the validate cache (so the check stops at the same card)."""
    stopped: Diagnostic | None = None
    """Where the check stopped, once `MAX_WORK` was spent."""
    budget: FitBudget = field(default_factory=game_budget)
    """What the game's checks fit (toolkit.render.textfit.fitting): the fronts print fit
    measured before this check are looked at, not charged again (the same texts, boxes and
    settings: its fits, read back); those it did not, and the faces it does not measure
    (a deck's back), are charged, and past the budget not looked at, silently (print fit
    says where it stopped: a warning check's stop is no error the gate, which skips this
    check, could miss)."""


def check(game: Game) -> Iterator[Diagnostic]:
    if game.manifest is None:
        return
    settings = legibility(game)
    found = Findings()
    for position, loaded in enumerate(game.decks):
        deck = loaded.model
        if deck is None or loaded.doc is None:
            continue
        for name, front in (
            (deck.layout or DEFAULT_FRONT, True),
            (deck.back or DEFAULT_BACK, False),
        ):
            if assets.find(assets.LAYOUTS, name, game.root) is None:
                continue  # P003 says so
            layout = load_layout(name, game.root)[0]
            if layout is not None and found.stopped is None:
                _layout(game, (position, loaded), name, layout, front, settings, found)
    yield from found.small
    if found.stopped is not None:
        yield found.stopped
    for (name, at, _ink, _under), under in found.low.items():
        yield _low_finding(game, name, at, under)


def _layout(
    game: Game,
    deck_at: tuple[int, LoadedFile],
    name: str,
    layout: Any,
    front: bool,
    settings: Any,
    found: Findings,
) -> None:
    """Every text of one face of a deck's cards, in every language: each card's share
    merged in card order; the fronts print fit measured (uncharged), else each card's
    texts while the budget lasts."""
    assert game.manifest is not None
    position, loaded = deck_at
    deck: Any = loaded.model
    card_mm = size_mm(deck.size)
    cards = deck.cards if front else deck.cards[:1]  # a deck's backs are all alike
    budget: FitBudget | None = found.budget
    if front and found.budget.measured is not None:
        cards = [card for i, card in enumerate(cards) if found.budget.measures(position, i)]
        budget = None
    jobs = [
        PrintJob(game, deck, layout, None, lang, card_mm, budget=budget)
        for lang in game.manifest.languages
    ]
    # kept by the file's frame (card_units.FRAMED_KINDS) only with every card taken: the
    # batch's index is then the card's in the deck
    framed = framed_kinds(layout) and len(cards) == (len(deck.cards) if front else 1)
    batch = FileBatch("card-legibility", loaded, [name, front], len(cards), framed)
    reread = _reread(loaded, jobs) if jobs else None
    for index, card in enumerate(cards):
        if found.work >= MAX_WORK:
            at = next(i for i, each in enumerate(deck.cards) if each is card)
            found.stopped = _stop_finding(loaded, at, card.id, found.work)
            break
        # a card of a file not edited is read from its batch here: no closures or call of
        # `_card` for each (~130 cards of a bundled game after one card edit)
        events = batch.reused(index, reread) if reread is not None else None
        if events is None:
            events = _card(loaded, index, card, (name, layout, front), jobs, settings, batch)
        for event in events:
            if event[0] == "face":
                if event[1] not in found.faces:
                    found.faces.add(event[1])
                    found.work += event[2]
                continue
            if event[0] == "low":
                _, at, colour, source, ratio, needed, size = event
                _note(found.low, (name, at, colour, source), ratio, needed, size, card.id)
                continue
            _, told, diag, _place = event
            if told is not None:
                if told in found.told:
                    continue
                found.told.add(told)
            found.small.append(diag)
    batch.close()


def _stop_finding(loaded: LoadedFile, index: int, card: str, work: int) -> Diagnostic:
    """A001 at the card the check stopped at, once the faces looked at took `MAX_WORK`."""
    assert loaded.doc is not None
    message = (
        f"{card}: the legibility check stops here: the different card faces it looked at"
        f" took {work:,} steps, past the {MAX_WORK:,} a game's may (each text's box sampled"
        " over every colour laid before it); the texts of this card and of those after it"
        " are not checked for contrast or size: make faces differ less from card to card,"
        " or lay fewer boxes and badges under their texts"
    )
    return A_CONTRAST.at(loaded.rel, loaded.doc.span(("cards", index, "id")), message)


def _note(
    low: dict[tuple[str, int, str, str], Under],
    key: tuple[str, int, str, str],
    ratio: float,
    needed: float,
    size: float,
    card: str,
) -> None:
    """Keep the worst contrast of one text of a layout over one colour, and the card."""
    seen = low.get(key)
    if seen is None:
        seen = low[key] = Under(ratio, needed, size, key[3])
    elif needed > seen.needed:
        seen.needed, seen.size = needed, size
    seen.ratio = min(seen.ratio, ratio)
    if card not in seen.cards:
        seen.cards.append(card)


def _card(
    loaded: LoadedFile,
    index: int,
    card: Any,
    face: tuple[str, Any, bool],
    jobs: list[PrintJob],
    settings: Any,
    batch: FileBatch | None = None,
) -> list[tuple[Any, ...]]:
    """One card's share on one face in every language, as met: contrasts under what is
    needed ("low", element, colour, what lays the colour, ratio, needed, size) and small
    texts ("small", key said once under or None, finding, where it is kept); kept as a unit
    between `validate` runs (toolkit.checks.card_units), and with its file's other cards
    (`batch`)."""
    name, layout, front = face
    budget = jobs[0].budget if jobs else None
    shape = Shape(loaded, index)

    def work() -> tuple[list[tuple[Any, ...]], bool]:
        return _card_work(loaded, index, card, face, jobs, settings, shape)

    if active() is None or not jobs:
        return work()[0]
    root = jobs[0].root

    def store(result: tuple[list[tuple[Any, ...]], bool]) -> list[Any]:
        events, failed = result
        if failed:
            raise NotKept  # a template error is worked out again, as a face's is
        shape.check()
        kept: list[Any] = []
        for event in events:
            if event[0] in ("low", "face"):
                kept.append(list(event))
                continue
            _, told, diag, place = event
            kept.append(
                ["small", stored_key(told), *stored_finding(loaded, index, root, place, diag)]
            )
        return [shape.asked, kept]

    def read(kept: Any) -> tuple[list[tuple[Any, ...]], bool]:
        return _read_events(loaded, index, root, kept)

    def args() -> list[Any] | None:
        named = card_args(jobs, layout, card)
        return None if named is None else [name, front, *named]

    if batch is None:
        batch = FileBatch("card-legibility", None, [], 0)  # this card alone
    if budget is None:
        return batch.card(index, args, work, store, read)[0]
    counted, kept, again = budgeted(budget, work, store, read)
    return batch.card(index, args, counted, kept, again)[0][0]


def _reread(
    loaded: LoadedFile, jobs: list[PrintJob]
) -> Callable[[int, Any], list[tuple[Any, ...]]]:
    """How a deck's card reads back its events from its file's batch (`FileBatch.reused`):
    as `_card` reads its unit (its budget's charges counted again), one reader for the
    deck's cards."""
    root, budget = jobs[0].root, jobs[0].budget

    def read(index: int, kept: Any) -> list[tuple[Any, ...]]:
        if budget is None:
            return _read_events(loaded, index, root, kept)[0]
        return read_budgeted(budget, partial(_read_events, loaded, index, root), kept)[0][0]

    return read


def _read_events(
    loaded: LoadedFile, index: int, root: Any, kept: Any
) -> tuple[list[tuple[Any, ...]], bool]:
    """The events `_card` kept of card `index`, read back."""
    asked, stored = kept
    same_shape(loaded, index, asked)
    events: list[tuple[Any, ...]] = []
    for event in stored:
        if event[0] == "face":
            _, digest, looked = event
            if type(digest) is not str or type(looked) is not int or looked < 0:
                raise ValueError("not a face's work")
            events.append(tuple(event))
            continue
        if event[0] == "low":
            _, at, colour, source, ratio, needed, size = event
            if type(at) is not int or type(colour) is not str or type(source) is not str:
                raise ValueError("not a contrast")
            if not all(type(v) in (int, float) for v in (ratio, needed, size)):
                raise ValueError("not a contrast")
            events.append(tuple(event))
            continue
        _, told, place, code, message, severity = event
        if code != A_SMALL.code:
            raise ValueError("not a small text")
        diag = placed(loaded, index, root, place, [code, message, severity])
        events.append(("small", read_key(told), diag, place))
    return events, False


def _card_work(
    loaded: LoadedFile,
    index: int,
    card: Any,
    face: tuple[str, Any, bool],
    jobs: list[PrintJob],
    settings: Any,
    shape: Shape,
) -> tuple[list[tuple[Any, ...]], bool]:
    """What one card gives on one face in every language, and whether it may not be kept: a
    face failed, or printed an element of a kind that read a file (an image, whose picture
    lays colours: `prints_impure`)."""
    name, layout, front = face
    index_of = {id(e): i for i, e in enumerate(layout.elements)}
    events: list[tuple[Any, ...]] = []
    impure = False
    for job in jobs:
        try:
            elements = job.resolved(layout, card)
        except (TemplateError, TypeError, ValueError):
            return events, True  # P003 says so
        impure = impure or prints_impure(elements)
        laid = [
            (item, list(item.element.paints(item, job)), list(item.element.inks(item, job)))
            for item in elements
        ]
        drawn = tuple(
            (index_of[id(item.element)], tuple(paints), tuple(_box(ink) for ink in inks))
            for item, paints, inks in laid
        )
        colours, digest, looked = _face_colours(layout.background, drawn)
        events.append(("face", digest, looked))
        under = iter(colours)
        for item, _paints, inks in laid:
            at = index_of[id(item.element)]
            for ink in inks:
                for source, ratio, needed in _contrast(next(under), ink, settings):
                    events.append(("low", at, ink.colour, source, ratio, needed, ink.size))
                if front:
                    place = (loaded, index, card, (name, at))
                    events += _small(place, item, job, ink, settings, shape)
    return events, impure


def _box(ink: Ink) -> tuple[float, float, float, float]:
    return ink.x, ink.y, ink.w, ink.h


Face = tuple[tuple[int, tuple[Paint, ...], tuple[tuple[float, float, float, float], ...]], ...]
"""A face as what lies under its texts depends on: each element's index in the layout, the
colours it lays and the boxes of the texts it prints, in order."""


@lru_cache(maxsize=64)
def _face_colours(
    background: str, face: Face
) -> tuple[list[dict[str, tuple[float, float, float]]], str, int]:
    """The colours under each text of a face, in order, by what lays them: worked out once a
    face (cards that show the same elements ask the same; a deck of 60 cards has a handful
    of such faces), each text's in time near-linear in the face's (`Beneath`); with the
    face's digest and the steps it took (charged once a face: `MAX_WORK`)."""
    boxes = [box for _, _, inks in face for box in inks]
    under = Beneath(background, boxes)
    found = []
    for at, paints, inks in face:
        for paint in paints:  # its own colours first: a badge's words are on its own disc
            under.lay(at, paint)
        found += [under.colours(box) for box in inks]
    digest = hashlib.blake2b(repr((background, face)).encode(), digest_size=16).hexdigest()
    return found, digest, under.looked


def _contrast(
    under: dict[str, tuple[float, float, float]], ink: Ink, settings: Any
) -> Iterator[tuple[str, float, float]]:
    """Each colour under one printed text that it does not stand out enough from: (what
    lays it, the contrast, the contrast needed)."""
    text = rgb(ink.colour)
    if text is None:
        return
    needed = required(settings, ink.size, ink.bold)
    for source, colour in under.items():
        ratio = contrast(text, colour)
        if ratio < needed:
            yield source, ratio, needed


def _points(x: float, y: float, w: float, h: float) -> list[tuple[float, float]]:
    """Where what lies under a text's box is sampled, in the order it is looked at."""
    return [(x + fx * w, y + fy * h) for fx in SAMPLES for fy in SAMPLES]


class _Node:
    """Some of a face's sample points: their bounds, the last colour laid over all of them
    (its order on the face, or -1), and the two halves they split into (none: one point)."""

    __slots__ = ("bounds", "kids", "top")

    def __init__(self, points: list[tuple[float, float]]) -> None:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        self.bounds = (min(xs), min(ys), max(xs), max(ys))
        self.top = -1
        self.kids: tuple[_Node, _Node] | None = None


class Beneath:
    """What lies under the texts of one card face, as its elements lay colours in order
    (probe 47 K11: each text looked at every colour laid before it, and hashed them all, so a
    face of 4,000 boxes and 1,000 texts cost 4 M steps a language).

    The points every text of the face is sampled at are known first, and split in halves
    down to one point each (a k-d tree). A colour laid marks the last colour over each
    part whose points it covers all of, going down only into those it covers some of; a
    point's colour is then the last marked on its way down. A colour away from every text
    costs one step, one over all of them one: the steps a colour takes are those whose
    points its edge runs between. `looked` counts the steps, laying and sampling."""

    def __init__(self, background: str, boxes: list[tuple[float, float, float, float]]) -> None:
        self.background = background
        self.laid: list[tuple[int, Paint]] = []
        self.looked = 0
        self.found: dict[tuple[float, ...], tuple[int, dict[str, Any]]] = {}
        """Each text box's colours, and how many colours were laid when they were found:
        the texts laid with none in between (a layout's words after its boxes) ask once."""
        points = list(dict.fromkeys(p for box in dict.fromkeys(boxes) for p in _points(*box)))
        self.root: _Node | None = None
        self.paths: dict[tuple[float, float], list[_Node]] = {}
        """Each sample point's parts, from all of them down to its own."""
        if not points or not all(math.isfinite(v) for p in points for v in p):
            return  # each point then looks at every colour laid, topmost first
        self.root = _Node(points)
        todo = [(self.root, points, [self.root])]
        while todo:
            node, part, path = todo.pop()
            if len(part) == 1:
                self.paths[part[0]] = path
                continue
            x0, y0, x1, y1 = node.bounds
            axis = 0 if x1 - x0 >= y1 - y0 else 1
            part.sort(key=lambda p: p[axis])
            half = len(part) // 2
            low, high = part[:half], part[half:]
            first, second = node.kids = (_Node(low), _Node(high))
            todo += [(first, low, [*path, first]), (second, high, [*path, second])]

    def lay(self, at: int, paint: Paint) -> None:
        """Element `at` lays `paint` over what is laid so far."""
        order = len(self.laid)
        self.laid.append((at, paint))
        self.looked += 1
        if self.root is None:
            return
        if paint.round:
            self._lay_round(order, paint)
            return
        x, y, right, bottom = paint.x, paint.y, paint.x + paint.w, paint.y + paint.h
        if not (x <= right and y <= bottom):
            return  # covers nothing (Paint.covers)
        todo = [self.root]
        looked = 0
        while todo:
            node = todo.pop()
            looked += 1
            bx0, by0, bx1, by1 = node.bounds
            if not (x <= bx1 and bx0 <= right and y <= by1 and by0 <= bottom):
                continue  # none of its points
            if x <= bx0 and bx1 <= right and y <= by0 and by1 <= bottom:
                node.top = order
            elif node.kids is not None:
                todo += node.kids
        self.looked += looked

    def _lay_round(self, order: int, paint: Paint) -> None:
        """`lay` for an ellipse. Paint.covers sums the squares of how far a point is from
        the centre across (dx) and down (dy), each growing with its coordinate as rounded
        too: over a part's bounds dx lies between its values at the two edges, so the
        largest sum at the edges says whether every point is covered, the smallest
        whether none is, as Paint.covers would say it of each."""
        rx, ry = paint.w / 2, paint.h / 2
        if rx <= 0 or ry <= 0:
            return  # covers nothing
        assert self.root is not None
        px, py = paint.x, paint.y
        todo = [self.root]
        looked = 0
        while todo:
            node = todo.pop()
            looked += 1
            bx0, by0, bx1, by1 = node.bounds
            dx0, dx1 = (bx0 - px - rx) / rx, (bx1 - px - rx) / rx
            dy0, dy1 = (by0 - py - ry) / ry, (by1 - py - ry) / ry
            # their sizes (abs, min and max without the calls: as exact, the same floats)
            ax0, ax1 = (dx0 if dx0 >= 0 else -dx0), (dx1 if dx1 >= 0 else -dx1)
            ay0, ay1 = (dy0 if dy0 >= 0 else -dy0), (dy1 if dy1 >= 0 else -dy1)
            # the nearest: 0 when the centre is between the edges (dx changes sign)
            nx = 0.0 if dx0 <= 0 <= dx1 else (ax1 if ax1 < ax0 else ax0)
            ny = 0.0 if dy0 <= 0 <= dy1 else (ay1 if ay1 < ay0 else ay0)
            if not nx * nx + ny * ny <= 1:
                continue  # none of its points
            fx, fy = (ax1 if ax1 > ax0 else ax0), (ay1 if ay1 > ay0 else ay0)
            if fx * fx + fy * fy <= 1:
                node.top = order
            elif node.kids is not None:
                todo += node.kids
        self.looked += looked

    def _topmost(self, px: float, py: float) -> tuple[int, Paint] | None:
        path = self.paths.get((px, py))
        if path is None:  # every colour laid, topmost first
            for order in range(len(self.laid) - 1, -1, -1):
                self.looked += 1
                if self.laid[order][1].covers(px, py):
                    return self.laid[order]
            return None
        self.looked += len(path)
        best = max(node.top for node in path)
        return self.laid[best] if best >= 0 else None

    def colours(
        self, box: tuple[float, float, float, float]
    ) -> dict[str, tuple[float, float, float]]:
        """The colours under a text's box, by what lays them."""
        seen = self.found.get(box)
        if seen is not None and seen[0] == len(self.laid):
            return seen[1]
        found: dict[str, tuple[float, float, float]] = {}
        for px, py in _points(*box):
            top = self._topmost(px, py)
            if top is None:
                source, colour = "background", rgb(self.background)
            else:
                i, paint = top
                source, colour = f"{i}:{paint.field}:{paint.colour}", rgb(paint.colour)
            if colour is not None:
                found.setdefault(source, colour)
        self.found[box] = (len(self.laid), found)
        return found


def _low_finding(game: Game, name: str, at: int, under: Under) -> Diagnostic:
    doc, _ = layout_document(name, game.root)
    path: tuple[str | int, ...] = ("elements", at, "colour")
    span = doc.span(path) if doc is not None and path in doc.spans else Span()
    if doc is not None and path not in doc.spans:
        span = doc.span(("elements", at))
    layout = load_layout(name, game.root)[0]
    if under.source == "background":
        on = f"the background {layout.background if layout else ''}"
    else:
        index, what, colour = under.source.split(":", 2)
        element = layout.elements[int(index)] if layout else None
        when = f", shown when {element.when}" if element is not None and element.when else ""
        on = f"{colour} (the {what} of element {index}{when})"
    ink = layout.elements[at] if layout else None
    colour = getattr(ink, "colour", "?")
    many = len(under.cards)
    cards = ", ".join(under.cards[:3]) + (f" and {many - 3} more" if many > 3 else "")
    return A_CONTRAST.at(
        layout_file(name, game.root),
        span,
        f"layout {name!r} element {at}: text {colour} on {on} has contrast "
        f"{under.ratio:.2f}:1, under the {under.needed:g}:1 a {under.size:g} pt text needs "
        f"(WCAG 2.2); on {many} card{'s' if many != 1 else ''} ({cards})",
    )


def _small(
    place: tuple[LoadedFile, int, Any, tuple[str, int]],
    item: Any,
    job: PrintJob,
    ink: Ink,
    settings: Any,
    shape: Shape,
) -> Iterator[tuple[Any, ...]]:
    """A004: a text fitted below the game's minimum size (a text that does not fit at all is
    P001's). A card's field is at fault at the card; the layout's own words (a footer, a
    badge) at the layout's element, once per language (the key it is said once under)."""
    loaded, index, card, (name, at) = place
    if ink.size >= settings.min_text_pt - 1e-9 or loaded.doc is None:
        return
    measured = item.element.measure(item, job)
    if measured is not None and not measured.fit.fits:
        return
    source = getattr(item.element, "text", "") or ""
    field_name = next((f for key, f in FIELD_OF.items() if key in source), None)
    path: tuple[str | int, ...] = ("cards", index, field_name or "", job.lang)
    if field_name is None or not shape.has(path):
        doc, _ = layout_document(name, job.root)
        size = ("elements", at, "size")
        diag = A_SMALL.at(
            layout_file(name, job.root),
            doc.span(size) if doc is not None and size in doc.spans else Span(),
            f"layout {name!r} element {at} prints at {ink.size:g} pt ({job.lang}, first on "
            f"{card.id}), under the game's minimum of {settings.min_text_pt:g} pt",
        )
        where = ["layout", name, list(size)] if doc is not None else None
        yield "small", (name, at, job.lang), diag, where
        return
    diag = A_SMALL.at(
        loaded.rel,
        loaded.doc.span(path),
        f"{card.id} {field_name} ({job.lang}) prints at {ink.size:g} pt after fitting, under "
        f"the game's minimum of {settings.min_text_pt:g} pt (layout {name})",
    )
    yield "small", None, diag, ["card", list(path[2:])]
