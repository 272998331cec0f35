"""A card face resolved through its layout, kept as a unit between `validate` runs
(toolkit.content.unit_cache): after one card edit only that card's faces are resolved again.

A face is a pure function of what `card_context` and `resolve` read: the card (its class and
every field), the deck's id, kind, name and size, the manifest (the game's id, title and
rules), the glossary, the language, the layout (every field of it and of each element, with
each element's class) and the card size. The unit is named by all of them; the code that
turns them into a face is in the units' head. A template error is raised, never kept.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from enum import Enum
from types import ModuleType
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from toolkit.content.unit_cache import active, cached, fresh_each_run, to_json

if TYPE_CHECKING:
    from toolkit.render.elements import Resolved
    from toolkit.render.layout import Layout

_DIGESTS: dict[tuple[str, int], tuple[Any, str]] = {}
fresh_each_run(_DIGESTS.clear)


def _once(what: str, owner: Any, make: Callable[[], Any]) -> str:
    """The digest of `make()`'s JSON, once per owner object (kept with it: an id is never
    taken by another object while it is here)."""
    kept = _DIGESTS.get((what, id(owner)))
    if kept is not None and kept[0] is owner:
        return kept[1]
    text = to_json(make())
    digest = hashlib.sha256(text.encode()).hexdigest()
    _DIGESTS[(what, id(owner))] = (owner, digest)
    return digest


_NUMBER = (int, float)
MAX_NESTING = 200
_SCALARS = (str, int, float, bool, type(None))


def _plain(value: Any, depth: int = 0) -> Any:
    """`value` as JSON that tells every input apart: a scalar as itself (JSON keeps an
    infinity, a NaN and a None apart, and true from 1), every other value as a list that
    starts with its tag: a model with its class and each field's value (the attributes
    themselves: a field typed as a base class holding a subclass is written whole), a
    dict with its pairs in order, a list, a tuple, a set, an enum member with its class. A
    value of another type raises TypeError (the face is then worked out, not kept).

    Read from the attributes, not through `model_dump`: the models defer building their
    serializers (`defer_build`), and dumping one of a class builds that class's schema
    first, ~25 ms per card class and manifest, more than the face it names."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if depth > MAX_NESTING:
        raise ValueError("too deeply nested to name")
    depth += 1
    if isinstance(value, BaseModel):
        fields = [_plain(getattr(value, name), depth) for name in kind.model_fields]
        extra = value.model_extra
        more = [[_plain(k, depth), _plain(v, depth)] for k, v in extra.items()] if extra else []
        return ["M", kind.__module__, kind.__qualname__, fields, more]
    if kind is list:
        return ["L", *[_plain(v, depth) for v in value]]
    if kind is dict:
        return ["D", *[[_plain(k, depth), _plain(v, depth)] for k, v in value.items()]]
    if kind is tuple:
        return ["T", *[_plain(v, depth) for v in value]]
    if kind is set or kind is frozenset:
        return ["S", *sorted(to_json(_plain(v, depth)) for v in value)]
    if isinstance(value, Enum):
        return ["E", kind.__module__, kind.__qualname__, _plain(value.value, depth)]
    raise TypeError(f"cannot name a {kind.__qualname__}")


def _model(model: Any) -> Any:
    """A model with its class and every field (two kinds may hold the same fields)."""
    return _plain(model)


def _layout(layout: Layout) -> Any:
    return _plain(layout)  # its elements are fields of it, each with its own class


def face_args(
    game: Any, deck: Any, layout: Layout, card: Any, lang: str, card_mm: tuple[float, float]
) -> list[Any]:
    """What a face's unit is named by (raises TypeError or ValueError for an input that
    cannot be named: the face is then worked out, not kept)."""
    glossary = game.glossary.model if game.glossary else None
    args = [
        _once("layout", layout, lambda: _layout(layout)),
        _once("manifest", game.manifest, lambda: _model(game.manifest)),
        _once("glossary", glossary, lambda: _model(glossary)) if glossary else None,
        [deck.id, deck.kind, deck.name, str(deck.size)],
        _once("card", card, lambda: _model(card)),  # once for all its languages
        lang,
        list(card_mm),
    ]
    to_json(args[3])  # a deck of another shape is worked out, not named
    return args


_BOUNDS: list[ModuleType] = []


def _template_bounds() -> ModuleType:
    """toolkit.render.template_bounds, imported by the first face (it imports Jinja): an
    import statement run at every face cost ~2 µs, even with the module loaded."""
    if not _BOUNDS:
        from toolkit.render import template_bounds

        _BOUNDS.append(template_bounds)
    return _BOUNDS[0]


WORDS_UNITS = 3
"""Layout work one element that prints words counts on a face (`printed_units`): it is
placed, measured and checked for its letters (~15 µs, where a box costs ~7; one that fits no
box, ~45 µs: 1,400 such texts on 60 cards took 5.4 s at 2 units, probe 48 N3)."""


def printed_units(faces: list[Resolved]) -> int:
    """Layout work a face's elements count besides their templates' (`LAYOUT_BUDGET`):
    every check walks each element of every face, so each is one unit, and one that prints
    words `WORDS_UNITS` (5,000 boxes on 1,000 cards took validate 79 s with no template work,
    probe 46 K1; 1,400 short texts on 301 cards 10.6 s counted as one unit each, probe 47 K6)."""
    return sum(WORDS_UNITS if type(r.element).prints else 1 for r in faces)


def resolved_face(
    game: Any,
    deck: Any,
    layout: Layout,
    card: Any,
    lang: str,
    card_mm: tuple[float, float],
    work: Callable[[], list[Resolved]],
) -> tuple[list[Resolved], int]:
    """`work()` (the face resolved), or the face kept for the same inputs, with what its
    renders cost (`template_bounds.work_done`): kept with the face, so a face read back
    counts against a check's layout budget what it cost when worked out
    (toolkit.render.layout_budget)."""
    work_done = _template_bounds().work_done

    def counted() -> tuple[list[Resolved], int]:
        before = work_done()
        found = work()
        return found, work_done() - before + printed_units(found)

    if active() is None:
        return counted()
    try:
        args = face_args(game, deck, layout, card, lang, card_mm)
    except (TypeError, ValueError):
        return counted()
    index_of = {id(e): i for i, e in enumerate(layout.elements)}

    def stored(found: tuple[list[Resolved], int]) -> list[Any]:
        faces, spent = found
        kept = [[index_of[id(r.element)], r.x, r.y, r.w, r.h, list(r.values)] for r in faces]
        return [kept, spent]

    def read(value: Any) -> tuple[list[Resolved], int]:
        from toolkit.render.elements import Resolved

        if type(value) is not list or len(value) != 2:
            raise ValueError("not a face")
        kept, spent = value
        if type(spent) is not int or spent < 0 or type(kept) is not list:
            raise ValueError("not a layout's work")
        out = []
        for index, x, y, w, h, values in kept:  # JSON's own types: no subclass to allow
            if type(index) is not int or index < 0:
                raise ValueError("not an element")
            element = layout.elements[index]
            if not (type(x) in _NUMBER and type(y) in _NUMBER):
                raise ValueError("not a box")
            if not (type(w) in _NUMBER and type(h) in _NUMBER):
                raise ValueError("not a box")
            if type(values) is not list or not all(type(v) is str for v in values):
                raise ValueError("not texts")
            if len(values) != len(type(element).templates):
                raise ValueError("not this kind's texts")
            out.append(Resolved(element, x, y, w, h, tuple(values)))
        return out, spent

    return cached("face", args, counted, stored, read)
