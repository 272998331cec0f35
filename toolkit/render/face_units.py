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
from typing import TYPE_CHECKING, Any

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


def _model(model: Any) -> list[Any]:
    """A model's fields with its class (two kinds may hold the same fields): Python values,
    so that JSON tells an infinity, a NaN and a None apart (pydantic's JSON mode writes all
    three as null); a value JSON cannot write raises TypeError (the face is then worked
    out, not kept)."""
    if model is None:
        return [None]
    kind = type(model)
    return [kind.__module__, kind.__qualname__, model.model_dump(serialize_as_any=True)]


def _layout(layout: Layout) -> list[Any]:
    return [
        _model(layout),
        [
            [type(e).__module__, type(e).__qualname__, e.model_dump(serialize_as_any=True)]
            for e in layout.elements
        ],
    ]


def resolved_face(
    game: Any,
    deck: Any,
    layout: Layout,
    card: Any,
    lang: str,
    card_mm: tuple[float, float],
    work: Callable[[], list[Resolved]],
) -> list[Resolved]:
    """`work()` (the face resolved), or the face kept for the same inputs."""
    if active() is None:
        return work()
    glossary = game.glossary.model if game.glossary else None
    try:
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
    except (TypeError, ValueError):
        return work()
    index_of = {id(e): i for i, e in enumerate(layout.elements)}

    def stored(found: list[Resolved]) -> list[Any]:
        return [[index_of[id(r.element)], r.x, r.y, r.w, r.h, list(r.values)] for r in found]

    def read(kept: Any) -> list[Resolved]:
        from toolkit.render.elements import Resolved

        out = []
        for index, x, y, w, h, values in kept:
            if not isinstance(index, int) or isinstance(index, bool) or index < 0:
                raise ValueError("not an element")
            element = layout.elements[index]
            if not all(
                isinstance(v, int | float) and not isinstance(v, bool) for v in (x, y, w, h)
            ):
                raise ValueError("not a box")
            if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
                raise ValueError("not texts")
            if len(values) != len(type(element).templates):
                raise ValueError("not this kind's texts")
            out.append(Resolved(element, x, y, w, h, tuple(values)))
        return out

    return cached("face", args, work, stored, read)
