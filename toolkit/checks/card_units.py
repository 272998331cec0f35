"""One card's share of a check's findings, kept as a unit between `validate` runs
(toolkit.content.unit_cache), for the checks that go through a deck card by card (print fit,
legibility): after one card edit only that card's faces are worked out again. The units of
one content file's cards are kept together, as one value of the file (`FileBatch`).

A card's share is a list of events in the order the check meets them: a finding with the key
under which the check says it once (None: every time), or, for legibility, a contrast seen.
The check merges the events of every card in card order, so what is said once across cards
(a missing glyph once per layout and character, a layout's small text once per language) is
decided after reading back, exactly as without units.

The unit is named by what each of the card's faces is resolved from (toolkit.render.
face_units.face_args, one per language), the inline icon names (and those whose file is
broken) and what the check adds. A layout holding a kind that is not one of the toolkit's own
pure kinds (text, icon, box, badge: an image reads its file, a plugin's kind runs its own
code) gets no name: worked out each run. A finding is kept as the place it points at (a path
under the card, or a path in the layout's file) and placed again on reuse, so lines shifted
by an edit elsewhere reuse it; a finding the same place does not rebuild exactly is not kept.
What the check asked of the card file's shape (whether a path is written in it) is kept with
the answers and asked again on reuse: a different answer works the card out again.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any, TypeVar

from toolkit.content.game import LoadedFile
from toolkit.content.unit_cache import NotKept, Units, active, cached_as, json_value, to_json
from toolkit.diagnostics import Diagnostic, Severity, Span
from toolkit.render.face_units import face_args
from toolkit.render.layout import layout_document, layout_file
from toolkit.render.printjob import PrintJob
from toolkit.render.textfit import FitBudget, icon_names

PURE_KINDS = frozenset(
    f"toolkit.render.elements.{name}" for name in ("text", "icon", "box", "badge")
)
"""The modules of the element kinds whose checks read nothing but the face, the language,
the fonts and the icon names (an image's reads its picture file)."""

FRAMED_KINDS = PURE_KINDS | {"toolkit.render.elements.image"}
"""The modules of the kinds whose checks read nothing but what the pure kinds' read and files
inside the game folder (an image's picture, which it refuses to read outside): a card of a
layout of these kinds only is kept under its file's name in the frame (`FileBatch`), which
holds the bytes of every file of the game folder but the other content files."""

Path_ = tuple[str | int, ...]
T = TypeVar("T")


def framed_kinds(layout: Any) -> bool:
    """Whether every element of `layout` is of a kind in `FRAMED_KINDS`."""
    return all(type(e).__module__ in FRAMED_KINDS for e in layout.elements)


def prints_impure(items: Any) -> bool:
    """Whether a face's resolved items (those its `when` prints) hold one of a kind not
    pure (an image): its check read a file, so the card's result is not kept."""
    return any(type(item.element).__module__ not in PURE_KINDS for item in items)


def card_args(jobs: list[PrintJob], layout: Any, card: Any) -> list[Any] | None:
    """What one card's faces on `layout` are worked out from, in every job's language, or
    None (a kind of another module in the layout, or an input that cannot be named). The
    jobs of one deck share the game, the deck and the card size: their face inputs are
    named once, with each job's language and icons."""
    if not jobs or any(type(e).__module__ not in PURE_KINDS for e in layout.elements):
        return None
    first = jobs[0]
    if any(j.game is not first.game or j.deck is not first.deck for j in jobs) or any(
        j.card_mm != first.card_mm for j in jobs
    ):
        return None
    try:
        face = face_args(first.game, first.deck, layout, card, first.lang, first.card_mm)
    except (TypeError, ValueError):
        return None
    assert face[5] == first.lang
    face[5] = [job.lang for job in jobs]  # every job's language, not the first's alone
    icons = [[icon_names(j.icons.names), sorted(j.icons.broken)] for j in jobs]
    unfilled = [[list(term) for term in j.unfilled] for j in jobs]
    return [face, icons, unfilled] if any(unfilled) else [face, icons]


class Shape:
    """Whether paths under one card are written in its file, as the check asks: the
    questions and answers are kept with the card's unit and asked again on reuse."""

    def __init__(self, loaded: LoadedFile, index: int, entries: str = "cards") -> None:
        assert loaded.doc is not None
        self.spans = loaded.doc.spans
        self.head: Path_ = (entries, index)  # a question's: ("questions", index)
        self.asked: list[list[Any]] = []

    def has(self, path: Path_) -> bool:
        """Whether `path` (which starts with the card's own) is written in the file."""
        found = path in self.spans
        if path[:2] == self.head:
            self.asked.append([list(path[2:]), found])
        else:
            self.asked.append([None, found])  # not about the card: never reused
        return found

    def check(self) -> None:
        """NotKept unless every question asked is about the card and can be kept."""
        for rest, _ in self.asked:
            if rest is None:
                raise NotKept  # a path outside the card: not asked again on reuse
            try:
                path_of(rest)
            except ValueError as exc:
                raise NotKept from exc


def same_shape(loaded: LoadedFile, index: int, asked: Any) -> None:
    """Raise ValueError unless the file answers every question as it did when kept."""
    assert loaded.doc is not None
    if not isinstance(asked, list):
        raise ValueError("not a list of questions")
    for rest, found in asked:
        if not isinstance(rest, list) or type(found) is not bool:
            raise ValueError("not a question")
        if ((("cards", index, *path_of(rest))) in loaded.doc.spans) != found:
            raise ValueError("the card's file is written otherwise")


def path_of(value: Any) -> Path_:
    """A stored path back as a tuple (ValueError for anything but strings and ints)."""
    if not isinstance(value, list) or not all(type(p) is str or type(p) is int for p in value):
        raise ValueError("not a path")
    return tuple(value)


def placed(
    loaded: LoadedFile, index: int, root: Any, place: list[Any], found: list[Any]
) -> Diagnostic:
    """A finding (`found`: code, message, severity) at `place`: ["card", path under the
    card] or ["layout", layout name, path in its file]."""
    code, message, severity = found
    if type(code) is not str or type(message) is not str:
        raise ValueError("not a finding")
    if place[0] == "card" and len(place) == 2:
        assert loaded.doc is not None
        span = loaded.doc.span(("cards", index, *path_of(place[1])))
        return Diagnostic(span.file or loaded.rel, code, message, Severity(severity), span)
    if place[0] == "layout" and len(place) == 3 and type(place[1]) is str:
        doc, _ = layout_document(place[1], root)
        if doc is None:
            raise ValueError("the layout has no file now")
        span = doc.span(path_of(place[2])) if place[2] is not None else Span()
        file = layout_file(place[1], root)
        return Diagnostic(span.file or file, code, message, Severity(severity), span)
    raise ValueError("not a place")


def stored_finding(
    loaded: LoadedFile, index: int, root: Any, place: list[Any] | None, diag: Diagnostic
) -> list[Any]:
    """[place, code, message, severity] for a finding the place rebuilds exactly (NotKept
    otherwise)."""
    if place is None:
        raise NotKept
    found = [diag.code, diag.message, diag.severity.value]
    try:
        again = placed(loaded, index, root, place, found)
    except (ValueError, TypeError) as exc:
        raise NotKept from exc
    if again != diag:
        raise NotKept  # not placed by its path alone
    return [place, *found]


def stored_key(key: Any) -> Any:
    """A dedup key as JSON (tuples as lists), or NotKept for one JSON cannot give back."""
    if key is None or type(key) in (str, int, float, bool):
        return key
    if type(key) is tuple:
        return [stored_key(k) for k in key]
    raise NotKept


def read_key(value: Any) -> Any:
    """A stored dedup key back (lists as tuples)."""
    if isinstance(value, list):
        return tuple(read_key(v) for v in value)
    if value is None or type(value) in (str, int, float, bool):
        return value
    raise ValueError("not a key")


class FileBatch:
    """The card units of one content file's cards (for one check and face) kept as one
    unit, named by the file's path and `extra`: each card's kept value with the name of
    what it is worked out from (`card_args`; None: see `framed`), in card order, and the
    file's name in the game folder's frame (toolkit.checks.framed: the other content files'
    bytes left out) when kept. The frame's name the same (an edit in another file), no
    card's faces are named (what `card_args` costs, every card of every deck) and no unit
    is looked up: the value is decoded once for the file and each card's result read from
    it by the kind's reader (`reused`: what the card asked of its file's shape asked again,
    the budgets counted). The file edited, each card is named and its kept value found by
    that name (an edit of one card works out that card alone). A value the reader refuses
    is worked out, as without the batch. Without units, frame or path, or in a `build
    --lang` gate (the batch holds every language's results): each card is its own unit.

    `framed`: the layout is of `FRAMED_KINDS` only. A card whose faces cannot be named (its
    layout holds an image: the standard layout does) is then kept with no name, read back
    only while the file's name in the frame is the same: that name holds every file it may
    read (its file's bytes and the game folder's others but the other content files), the
    code is in the units' head, and what is not in the frame is in the batch's name (the
    check's `extra`, the languages printed, every one). The check keeps no such card whose
    faces printed an image (`prints_impure`: its picture was read): a deck on the standard
    layout was checked whole again at every save of another file, and every validate after
    an edit (probe 43 S1). Each card kept as a unit of its own and read back one by one (its
    lookup, its decoding, its place in the entry) cost a Whisky Game card edit's validate
    ~2.6 M instructions of ~1,760 M (258 cards read back, two checks)."""

    KIND = "card-file"

    def __init__(
        self,
        kind: str,
        loaded: LoadedFile | None,
        extra: list[Any],
        count: int,
        framed: bool = False,
    ) -> None:
        import os

        from toolkit.content.printing import every_language_printed

        self.kind = kind
        self.framed = framed
        self.units = active()
        self.name: str | None = None
        self.stamp: str | None = None  # the file's name in the frame
        self.kept: list[Any] | None = None
        """The cards' kept values, when kept under this stamp: each None (not kept) or
        [its name or None, the value]."""
        self.named: dict[str, Any] | None = None  # the named ones, by name
        self.now: list[Any] = []
        self.missed = -1  # the card whose kept value `reused` refused: not read again
        units = self.units
        if units is None or units.content is None or loaded is None or loaded.doc is None:
            return
        if not every_language_printed():  # the batch holds every language's results
            return
        here = os.path.abspath(loaded.doc.path)
        try:
            extra_json = to_json(extra)
            self.stamp = units.framed_name_but(f"{self.KIND}:{kind}:{extra_json}", here)
        except (TypeError, ValueError):
            return
        if self.stamp is None:
            return
        self.name = Units.name(f"{self.KIND}:{kind}", [here, extra_json])

        def read(value: Any) -> list[Any]:
            if type(value) is not list or len(value) != 2 or type(value[0]) is not str:
                raise ValueError("not a batch")
            cards = value[1]
            if type(cards) is not list:
                raise ValueError("not a batch of cards")
            for card in cards:
                if card is not None and (
                    type(card) is not list
                    or len(card) != 2
                    or not (card[0] is None or type(card[0]) is str)
                ):
                    raise ValueError("not a card's kept value")
            return value

        batch = units.get(self.name, read)
        if batch is None:
            return
        if batch[0] == self.stamp and len(batch[1]) == count:
            self.kept = batch[1]
        else:  # the file changed: its cards are named, their values found by name
            self.named = {card[0]: card[1] for card in batch[1] if card and card[0]}

    def reused(self, index: int, read: Callable[[int, Any], T]) -> T | None:
        """Card `index`'s result read from the batch kept under this stamp by `read` (the
        kind's reader, given the index and the value: one for the file's cards); None when
        the batch has none, or `read` refuses it (then `card` names the card or works it
        out)."""
        kept = self.kept
        if kept is None or kept[index] is None:
            return None
        try:
            result = read(index, kept[index][1])
        except (ValueError, TypeError, KeyError, IndexError):
            self.missed = index
            return None
        self.now.append(kept[index])
        return result

    def card(
        self,
        index: int,
        args: Callable[[], list[Any] | None],
        work: Callable[[], T],
        store: Callable[[T], Any],
        read: Callable[[Any], T],
    ) -> T:
        """Card `index`'s result: read from the batch (`reused`), else found by its name
        (`args()`; None: worked out, kept with no name if `framed`)."""
        if self.missed != index and self.kept is not None:
            result = self.reused(index, lambda _, value: read(value))
            if result is not None:
                return result
        units = self.units
        named = args() if units is not None else None
        unit = None
        if named is not None:
            with suppress(TypeError, ValueError):  # an argument JSON cannot write: worked out
                unit = Units.name(self.kind, named)
        if self.name is None:  # no batch: the card is a unit of its own
            if unit is None:
                return work()
            return cached_as(unit, work, store, read)
        if unit is None and not self.framed:
            self.now.append(None)
            return work()
        if unit is not None:
            found = self._named(unit, read)
            if found is not None:
                return found
        result = work()
        try:
            self.now.append([unit, json_value(store(result))])
        except (NotKept, TypeError, ValueError):
            self.now.append(None)
        return result

    def _named(self, unit: str, read: Callable[[Any], T]) -> T | None:
        """The result of the card named `unit` read from the value kept by that name (the
        batch's of another stamp, or this one's, refused by `reused`), or None."""
        if self.named is None and self.kept is not None:
            self.named = {card[0]: card[1] for card in self.kept if card and card[0]}
        value = self.named.get(unit) if self.named is not None else None
        if value is None:
            return None
        try:
            result = read(value)
        except (ValueError, TypeError, KeyError, IndexError):
            return None
        self.now.append([unit, value])
        return result

    def close(self) -> None:
        """Keep the batch: each card's kept value and name, and the file's stamp."""
        if self.name is None or self.units is None or self.now == self.kept:
            return
        self.units.put(self.name, [self.stamp, self.now])
        self.units.framed.append(self.name)


Worked = tuple[T, tuple[int, int], bool]
"""A unit's result with the fitting work and the layout work it counted, and whether a fit
or a face of it was refused."""


def budgeted(
    budget: FitBudget,
    work: Callable[[], T],
    store: Callable[[T], Any],
    read: Callable[[Any], T],
) -> tuple[Callable[[], Worked[T]], Callable[[Worked[T]], Any], Callable[[Any], Worked[T]]]:
    """A unit's work, store and read that keep what its fits counted against the check's
    fitting budget (toolkit.render.textfit.FitBudget), and what its faces cost against the
    check's layout budget (its `layouts`, toolkit.render.layout_budget), so each budget runs
    out at the same fit or face with the validate cache as without: worked out, the unit
    counts what its fits and faces counted, and is not kept when one was refused (its
    results are not the whole's); read back, it counts what it counted when worked out, and
    is not read back when that would reach either limit (worked out again: then fits and
    faces past the limit are refused as without the cache)."""
    layouts = budget.layouts

    def counted() -> Worked[T]:
        spent, refusals = budget.spent, budget.refusals
        drawn, declined = layouts.spent, layouts.refusals
        result = work()
        refused = budget.refusals != refusals or layouts.refusals != declined
        return result, (budget.spent - spent, layouts.spent - drawn), refused

    def kept(worked: Worked[T]) -> Any:
        result, (spent, drawn), refused = worked
        if refused:
            raise NotKept
        return [store(result), spent, drawn]

    def again(value: Any) -> Worked[T]:
        return read_budgeted(budget, read, value)

    return counted, kept, again


def read_budgeted(budget: FitBudget, read: Callable[[Any], T], value: Any) -> Worked[T]:
    """A `budgeted` unit's result read back from `value` by `read`, counted against the
    budgets (ValueError when that would reach either limit: worked out)."""
    if type(value) is not list or len(value) != 3:
        raise ValueError("not a budgeted unit")
    stored, spent, drawn = value
    if type(spent) is not int or spent < 0:
        raise ValueError("not a fitting count")
    if type(drawn) is not int or drawn < 0:
        raise ValueError("not a layout's work")
    result = read(stored)
    layouts = budget.layouts
    if not budget.affords(spent):
        raise ValueError("past the fitting budget: worked out")
    if not layouts.affords(drawn):
        raise ValueError("past the layout budget: worked out")
    budget.spent += spent
    layouts.spent += drawn
    return result, (spent, drawn), False
