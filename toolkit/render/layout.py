"""Card layouts are data: `<name>.yaml` places elements in millimetres.

A layout is read from the game folder's `layouts/` first, then from the toolkit's
`templates/cards/` (toolkit.content.assets), so a game may ship its own faces and backs.

Coordinates are from the trim's top-left corner; a negative x or y counts from the right or
bottom edge and a negative w or h means "card size minus that much", so one layout serves
every card size. Text fields are sandboxed Jinja over the card (`card.name`, `card.text`,
any parameter), the deck, the game's rules and glossary terms (`glossary.meal`) and the
language; `when` makes an element conditional. Element kinds (box, text, icon, image,
badge, and any a package registers) live in `toolkit.render.elements`, one module each.
"""

from __future__ import annotations

import os
import re
import weakref
from collections.abc import Callable, Hashable
from functools import cache
from pathlib import Path
from typing import Annotated, Any, TypeVar, Union, cast

from jinja2 import Template, TemplateError
from pydantic import Field, StringConstraints, TypeAdapter, create_model, field_validator

from toolkit.content import assets
from toolkit.content.game import R_OUTSIDE
from toolkit.content.models.base import Slug, StrictModel, new_list
from toolkit.content.schemas import register_schema
from toolkit.content.source import Document, latest_load, load_document, repeats_of
from toolkit.content.validation import S_BAD_VALUE, validate_document
from toolkit.diagnostics import Diagnostic, Span
from toolkit.fileio import MISSING, FileVersion, file_version
from toolkit.render import plain_layout, template_bounds
from toolkit.render.elements import REGISTRY, Box, Colour, Element, LayoutError, Resolved
from toolkit.render.jinja_cache import CachedSandbox
from toolkit.render.layout_names import DEFAULT_BACK, DEFAULT_FRONT, layout_file  # noqa: F401
from toolkit.render.undefined import MissingName

LetName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]
CONTEXT_NAMES = frozenset({"card", "deck", "game", "rules", "glossary", "label", "lang"})
INTERNAL_PREFIXES = ("when_", "text_", "shown_")  # the combined template's own names
T = TypeVar("T")

__all__ = ["Box", "Element", "Layout", "LayoutError", "Resolved", "load_layout", "resolve"]


class Layout(StrictModel):
    """A card face."""

    id: Slug
    background: Colour = "#ffffff"
    labels: dict[Slug, dict[str, str]] = Field(
        default_factory=dict,
        description="Printed words by language, used in texts as {{ label.kill }}.",
        examples=[{"kill": {"fr": "Tuer", "es": "Matar", "en": "Kill"}}],
    )
    let: dict[LetName, str] = Field(
        default_factory=dict,
        description="Names computed once per card from Jinja expressions, in order, for "
        "every `when` and text of the layout to use: a test written once, and cheaper than "
        "repeating it.",
        examples=[{"numbered": "card.value is defined and card.value is not none"}],
    )
    elements: list[Element] = Field(default_factory=new_list)

    @field_validator("let")
    @classmethod
    def _own_names(cls, let: dict[str, str]) -> dict[str, str]:
        for name in let:
            if name in CONTEXT_NAMES or name.startswith(INTERNAL_PREFIXES):
                raise ValueError(f"let name {name!r} is taken by the layout's context")
        return let

    def through_lets(self, source: str) -> str:
        """`source` followed by the `let` expressions it reads, and those they read in turn:
        where a text's words come from, searched as written (`{{ body }}` with `let: body:
        card.text` prints the card's text, whose finding goes at its field)."""
        parts, seen, todo = [source], set(), [source]
        while todo:
            for word in _NAME.findall(todo.pop()):
                if word in self.let and word not in seen:
                    seen.add(word)
                    parts.append(self.let[word])
                    todo.append(self.let[word])
        return "\n".join(parts)


_NAME = re.compile(r"[A-Za-z_]\w*")


def element_union() -> Any:
    """Every registered element kind, told apart by `kind`."""
    kinds = tuple(REGISTRY.kinds())
    if len(kinds) == 1:
        return kinds[0]
    return Annotated[Union[kinds], Field(discriminator="kind")]  # noqa: UP007 - built at run time


@cache
def layout_model() -> type[Layout]:
    """The Layout model whose elements are the kinds registered now."""
    return create_model(
        "Layout",
        __base__=Layout,
        __doc__=Layout.__doc__,
        __module__=__name__,
        elements=(list[element_union()], Field(default_factory=new_list)),  # type: ignore[arg-type, misc]
    )


@cache
def layout_adapter() -> TypeAdapter[Any]:
    return TypeAdapter(layout_model())


QUESTION_FRONT, QUESTION_BACK = "question-front", "question-back"


def layout_document(
    name: str, game_root: Path | None = None
) -> tuple[Document | None, tuple[Diagnostic, ...]]:
    """A layout's YAML with the position of every value (none, and R002, for a game's
    layout that links outside the game folder: it is never opened)."""
    return _layout_document(name, game_root, _stamp(name, game_root))


def load_layout(
    name: str, game_root: Path | None = None
) -> tuple[Layout | None, tuple[Diagnostic, ...]]:
    """A layout by name (the game's own first), validated like content (Y/S diagnostics at
    exact positions) against the registered element kinds."""
    return _load_layout(name, game_root, _stamp(name, game_root))


Stamp = tuple[str, FileVersion, int]


def _stamp(name: str, game_root: Path | None) -> Stamp:
    """Which file a layout name reads, its version (`file_version`: with its inode and
    ctime, so a same-size replacement with the old mtime is read anew) and, for a game's
    own, the number of the game's latest load: a cached layout is kept while it is that
    very file unchanged, read for that load (one process may see several games at the
    same relative root, or a saved layout; what a layout's aliases build counts against
    its load's bound, `source.repeats_of`). Taken once per name in a run of the checks
    (`assets.steady`)."""
    memo = assets.steady_memo()
    if memo is not None:
        key = ("layout-stamp", name, game_root)
        if key not in memo:
            memo[key] = _stamp_now(name, game_root)
        stamp: Stamp = memo[key]
        return stamp
    return _stamp_now(name, game_root)


def _stamp_now(name: str, game_root: Path | None) -> Stamp:
    found = assets.expected(assets.LAYOUTS, name, game_root)
    load = latest_load(game_root) if found.in_game else None
    number = load.load if load is not None else 0
    try:
        stat = found.path.stat()
    except OSError:
        return os.path.abspath(found.path), MISSING, number
    return os.path.abspath(found.path), file_version(stat), number


MAX_KEPT_FILES = 2048
"""Layout files kept read at once (one version each): a process that sees many games drops
the longest read first."""


class _LatestVersion:
    """A layout file's read, kept for its last version only: the file's stamp (path and
    `file_version`) says which, and a newer one replaces the older (`@cache` kept every
    version, so a language server grew by the layout's size at each edit of it)."""

    def __init__(self, read: Callable[[str, Path | None, Stamp], Any]) -> None:
        self._read = read
        self._kept: dict[tuple[str, Path | None, str], tuple[Stamp, Any]] = {}

    def __call__(self, name: str, game_root: Path | None, stamp: Stamp) -> Any:
        key = (name, game_root, stamp[0])
        kept = self._kept.get(key)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        value = self._read(name, game_root, stamp)
        self._kept.pop(key, None)
        while len(self._kept) >= MAX_KEPT_FILES:
            self._kept.pop(next(iter(self._kept), key), None)
        self._kept[key] = (stamp, value)
        return value

    def __len__(self) -> int:
        return len(self._kept)

    def cache_clear(self) -> None:
        self._kept.clear()


def _read_layout_document(
    name: str, game_root: Path | None, stamp: Stamp
) -> tuple[Document | None, tuple[Diagnostic, ...]]:
    found = assets.expected(assets.LAYOUTS, name, game_root)
    if found.outside:
        return None, (R_OUTSIDE.at(found.display, Span(), found.outside),)
    if found.unread:  # a deck that names it hears why (toolkit.checks.printfit)
        return None, ()
    inside = game_root if found.in_game else None
    with repeats_of(inside):  # a game's own: counted with its content files
        doc, diags = load_document(found.path, found.display, inside=inside)
    return doc, tuple(diags)


def _read_layout(
    name: str, game_root: Path | None, stamp: Stamp
) -> tuple[Layout | None, tuple[Diagnostic, ...]]:
    doc, diags = _layout_document(name, game_root, stamp)
    if doc is None:
        return None, diags
    from toolkit.content.model_units import keep_made, kept_made

    # `validate` keeps a layout's model by the file's bytes, as a content file's, while
    # every registered element kind is one of Playset's own: the element union is tagged
    # by `kind`, so a layout of those kinds validates the same whatever else is registered
    # (an installed kind's class is no toolkit class: a layout using one is never kept)
    classes: dict[type, tuple[str, ...]] = {layout_model(): ("layout",)}
    own = not diags and all(REGISTRY.is_builtin(kind) for kind in REGISTRY.load())
    if own:
        kept = kept_made("layout", doc, classes, lambda m: type(m) is layout_model())
        if kept is not None:
            return kept, ()
    model, found = validate_document(doc, layout_adapter())
    past = _past_kind_bounds(model, doc) if model is not None else None
    if past is not None:  # not used: its finding says why, at the element
        return None, (*found, past)
    if own and not found:
        keep_made("layout", doc, classes, model)
    return model, tuple(found)


def _past_kind_bounds(layout: Layout, doc: Document) -> Diagnostic | None:
    """S004 at the first element of a kind past what one layout may hold of it
    (`Element.most_per_layout`), or None."""
    counts: dict[type, int] = {}
    for index, element in enumerate(layout.elements):
        kind = type(element)
        counts[kind] = counts.get(kind, 0) + 1
        most = kind.most_per_layout
        if most is not None and counts[kind] > most:
            name = getattr(element, "kind", kind.__name__)
            return S_BAD_VALUE.at(
                doc.display,
                doc.span(("elements", index, "kind")),
                f"the layout holds more than {most} elements of kind {name!r}:"
                f" {kind.most_per_layout_why}, and the layout is not used; draw fewer",
            )
    return None


_layout_document = _LatestVersion(_read_layout_document)
_load_layout = _LatestVersion(_read_layout)


def clear_layouts() -> None:
    """Forget every layout read (the preview, after a save). What was worked out for a
    layout (its compiled templates, `_state`) goes with the last reference to it."""
    _layout_document.cache_clear()
    _load_layout.cache_clear()


def _kinds_changed() -> None:
    """A kind came or went: layouts parse anew against the new union."""
    for cached in (layout_model, layout_adapter, _load_layout):
        cached.cache_clear()


REGISTRY.on_change(_kinds_changed)
register_schema(
    "layout.schema.json",
    layout_adapter,
    "Card layout",
    "A card face (layouts/*.yaml): elements placed in mm, texts as Jinja templates.",
)


@cache
def _cached() -> CachedSandbox:
    # immutable: a layout's text cannot change the views and glossary that cards share; it
    # renders once per card face and language, so within far lower limits than a rulebook
    return CachedSandbox(keep_trailing_newline=False, immutable=True, limits=template_bounds.LAYOUT)


class _Worked:
    """What is worked out once per layout object, not once per card: kept by `_state` for
    as long as the layout lives (the module's dicts by `id(layout)` held the layout itself,
    so no version read was ever freed)."""

    __slots__ = (
        "combined",
        "compiled",
        "derived",
        "expressions",
        "pieces",
        "plain",
        "plans",
        "timed_out",
        "too_long",
    )

    def __init__(self) -> None:
        self.compiled = False  # whether `combined`, `plain` and `too_long` are worked out
        self.combined: Template | None = None
        self.plain: plain_layout.Plan | None = None
        """A layout whose templates are plain reads and tests (toolkit.render.plain_layout):
        its values are worked out without a render, card by card, where they can be."""
        self.too_long: str | None = None
        """Why the templates, which have more tokens together than one template may, are not
        compiled: piece by piece instead, sixty pieces just under the limit in a 4 MB layout
        cost over a minute."""
        self.timed_out = False
        """The templates ran past the time limit on a card: every other card would spend as
        long (a one-line loop made validate take 5 s a card and language, minutes for a
        deck), so they fail at once until the layout is read again (an edit, a new run)."""
        self.plans: dict[tuple[float, float], list[Any]] = {}
        self.pieces: dict[str, Template] = {}  # one text's template, by its source
        self.expressions: dict[str, Any] = {}  # a `when` or `let`, by its source
        self.derived: dict[Hashable, Any] = {}  # `worked_out`


_STATE: dict[int, tuple[weakref.ref[Layout], _Worked]] = {}


def _state(layout: Layout) -> _Worked:
    """What is worked out for `layout`: the entry goes when the layout is freed (a weak
    reference's callback), and one for an earlier object at the same id is never taken."""
    key = id(layout)
    kept = _STATE.get(key)
    if kept is not None and kept[0]() is layout:
        return kept[1]

    def forget(ref: weakref.ref[Layout]) -> None:
        current = _STATE.get(key)
        if current is not None and current[0] is ref:
            _STATE.pop(key, None)

    worked = _Worked()
    _STATE[key] = (weakref.ref(layout, forget), worked)
    return worked


def worked_out(layout: Layout, key: Hashable, make: Callable[[], T]) -> T:
    """`make()` once per layout object and `key`, kept as long as the layout (a check's
    findings on the layout itself: a layout read again after an edit is a new object)."""
    derived = _state(layout).derived
    if key not in derived:
        derived[key] = make()
    return cast(T, derived[key])


def _template(worked: _Worked, source: str) -> Template:
    piece = worked.pieces.get(source)
    if piece is None:
        piece = worked.pieces[source] = _cached().template(source, "layout")
    return piece


def _expression(worked: _Worked, source: str) -> Any:
    compiled = worked.expressions.get(source)
    if compiled is None:
        compiled = worked.expressions[source] = _cached().expression(source)
    return compiled


def _sources(element: Element) -> list[str | None]:
    """The element's template fields' sources, in the order of its kind's `templates`."""
    return [getattr(element, name) for name in type(element).templates]


def _layout_template(layout: Layout, worked: _Worked) -> Template | None:
    """One template that evaluates every `when` and text of a layout in a single render.

    Rendering sixteen small templates per card cost a third of drawing a deck; one render
    per card gives the same values. None if the pieces do not parse on their own, so the
    per-element path reports the faulty piece."""
    if worked.compiled:
        return worked.combined
    parts: list[str] = []
    compiled: Template | None
    lets: list[tuple[str, Any]] = []
    shown: list[tuple[Any, list[Any]]] = []
    plain = True  # every text's own parse is its parse inside the combined template
    try:
        # every piece parsed alone (an error in one: no combined template), in one go: the
        # trees are read back when an earlier run parsed the same pieces
        sources = [f"{{{{ ({expr}) }}}}" for expr in layout.let.values()]
        for element in layout.elements:
            if element.when:
                sources.append(f"{{{{ ({element.when}) }}}}")
            sources.extend(source for source in _sources(element) if source is not None)
        trees = iter(_cached().parse_all(sources))
        for name, expr in layout.let.items():
            lets.append((name, next(trees)))
            parts.append(f"{{% set {name} = ({expr}) %}}")
        for index, element in enumerate(layout.elements):
            when = None
            if element.when:
                when = next(trees)
                parts.append(f"{{% set when_{index} = ({element.when}) %}}{{% if when_{index} %}}")
            pieces: list[Any] = []
            for field, source in enumerate(_sources(element)):
                pieces.append(next(trees) if source is not None else None)
                if source is not None:
                    # alone, a last line break is dropped (keep_trailing_newline)
                    plain = plain and not source.endswith(("\n", "\r"))
                    parts.append(f"{{% set text_{index}_{field} %}}{source}{{% endset %}}")
            shown.append((when, pieces))
            if element.when:  # an element without `when` always shows: no flag to set
                parts.append(f"{{% set shown_{index} = true %}}{{% endif %}}")
        compiled = _cached().template("".join(parts), "layout")
        if plain:
            worked.plain = plain_layout.plan(_cached().env, (lets, shown))
    except template_bounds.TemplateLimitError as exc:  # too many tokens: none compiled alone
        compiled = None
        worked.too_long = str(exc)
    except TemplateError:
        compiled = None
    worked.combined, worked.compiled = compiled, True
    return compiled


def resolve(layout: Layout, context: dict[str, Any], width: float, height: float) -> list[Resolved]:
    """The elements that show for this card, with boxes and texts resolved (raises
    LayoutError naming the layout when one of its templates fails)."""
    worked = _state(layout)
    if worked.timed_out:
        raise LayoutError(
            f"layout {layout.id!r}: its templates took longer than"
            f" {template_bounds.MAX_SECONDS:g} s on a card already; it is not rendered again"
            " until it changes"
        )
    try:
        with _cached().bounded():
            return _resolve(layout, context, width, height)
    except LayoutError:
        raise
    except RecursionError:  # a macro that calls itself
        raise LayoutError(f"layout {layout.id!r}: templates call themselves too deep") from None
    except MemoryError:
        raise LayoutError(f"layout {layout.id!r}: a template ran out of memory") from None
    except Exception as exc:  # 1/0, 10.0**400, a limit: Jinja raises many kinds
        where = None
        if isinstance(exc, template_bounds.TemplateTimeError):
            worked.timed_out = True
        elif isinstance(exc, template_bounds.TemplateStepError):  # counted: found again cheaply
            where = _failing_place(layout, worked, context, steps=True)
        elif not isinstance(exc, template_bounds.TemplateLimitError):
            where = _failing_place(layout, worked, context)
        own_words = isinstance(exc, MissingName | template_bounds.PrintedTable)
        kind = "" if own_words else f"{type(exc).__name__}: "
        message = f"layout {layout.id!r}: {kind}{template_bounds.said(exc)}"
        raise LayoutError(message, where) from exc


def _failing_place(
    layout: Layout, worked: _Worked, context: dict[str, Any], steps: bool = False
) -> tuple[str | int, ...] | None:
    """Where in the layout's YAML the first template that fails for this card is (a `let`
    entry, an element's `when` or one of its texts), found by evaluating them one by one
    as `_resolve_each` does; None when none fails alone (or one runs out of its bounds).
    Only after a failure: the one-template path does not say which piece failed.

    `steps`: the failure was the layout's steps or loop iterations on one face, which count
    the same on every run: the piece that goes past them, or (the pieces alone taking a few
    steps fewer than the one template) the one that took the most."""
    lang = context.get("lang", "")
    context = {**context, "label": {k: v.get(lang, k) for k, v in layout.labels.items()}}
    where: tuple[str | int, ...] | None = None
    heaviest: list[Any] = [-1, None]  # the most steps a piece took, and its place

    def spent() -> int:
        budget = template_bounds.current()
        return budget.ticks + budget.iterations if budget is not None else 0

    def weigh(before: int) -> None:
        if spent() - before > heaviest[0]:
            heaviest[:] = [spent() - before, where]

    try:
        with _cached().bounded():
            for name, source in layout.let.items():
                where, before = ("let", name), spent()
                context[name] = _expression(worked, source)(**context)
                weigh(before)
            for index, element in enumerate(layout.elements):
                where, before = ("elements", index, "when"), spent()
                shows = not element.when or _expression(worked, element.when)(**context)
                weigh(before)
                if not shows:
                    continue
                for field in type(element).templates:
                    source = getattr(element, field)
                    where, before = ("elements", index, field), spent()
                    if source is not None:
                        _cached().render(_template(worked, source), context)
                        weigh(before)
    except template_bounds.TemplateStepError:
        return where if steps else None
    except (RecursionError, MemoryError, template_bounds.TemplateLimitError):
        return None
    except Exception:  # noqa: BLE001 - what failed above fails here: its place is wanted
        return None if steps else where
    return cast("tuple[str | int, ...] | None", heaviest[1]) if steps else None


def heaviest_place(layout: Layout, context: dict[str, Any]) -> tuple[str | int, ...] | None:
    """Where in the layout's YAML the template that takes the most steps on this face is (a
    `let` entry, an element's `when` or one of its texts), or the one that goes past a
    face's steps; None when none is found. Its pieces are rendered one by one within one
    face's limits: where a check's layout budget ran out (toolkit.render.layout_budget)."""
    return _failing_place(layout, _state(layout), context, steps=True)


def layout_place(
    name: str, game_root: Path | None, where: tuple[str | int, ...]
) -> tuple[str, Span] | None:
    """The file (as diagnostics show it) and span of `where` in the game's own layout
    `name`; None for a built-in layout (the designer cannot edit it) or a place not found."""
    found = assets.expected(assets.LAYOUTS, name, game_root)
    if not found.in_game:
        return None
    doc, _ = layout_document(name, game_root)
    span = doc.spans.get(where) if doc is not None else None
    return (found.display, span) if span is not None else None


def _resolve(
    layout: Layout, context: dict[str, Any], width: float, height: float
) -> list[Resolved]:
    worked = _state(layout)
    lang = context.get("lang", "")
    context = {**context, "label": {k: v.get(lang, k) for k, v in layout.labels.items()}}
    combined = _layout_template(layout, worked)
    if worked.too_long is not None:
        raise template_bounds.TemplateLimitError(worked.too_long)
    if combined is None:
        return _resolve_each(layout, context, width, height)
    plain = worked.plain
    if plain is not None:
        try:
            found = plain_layout.evaluate(plain, context)
        except Exception:  # noqa: BLE001 - NotPlain, or what Jinja must say in its own words
            pass
        else:
            return [
                Resolved(element, x, y, w, h, texts)
                for (element, _, _, (x, y, w, h)), (shows, texts) in zip(
                    _plan(layout, worked, width, height), found, strict=True
                )
                if shows
            ]
    values = _cached().module(combined, context)
    out: list[Resolved] = []
    for element, shown, keys, (x, y, w, h) in _plan(layout, worked, width, height):
        if shown is None or shown in values:
            texts = tuple(str(values.get(key, "")).strip() for key in keys)
            out.append(Resolved(element, x, y, w, h, texts))
    return out


def _plan(layout: Layout, worked: _Worked, width: float, height: float) -> list[Any]:
    """For each element of a layout on a card of that size: the element, the names the
    combined template gives its `shown` flag (None: it always shows) and its texts, and its
    box in mm; worked out once per layout and size, not once per card."""
    plan = worked.plans.get((width, height))
    if plan is not None:
        return plan
    plan = [
        (
            element,
            f"shown_{index}" if element.when else None,
            tuple(f"text_{index}_{field}" for field in range(len(type(element).templates))),
            element.box.resolve(width, height),
        )
        for index, element in enumerate(layout.elements)
    ]
    worked.plans[(width, height)] = plan
    return plan


def _resolve_each(
    layout: Layout, context: dict[str, Any], width: float, height: float
) -> list[Resolved]:
    worked = _state(layout)
    context = dict(context)
    for name, source in layout.let.items():
        context[name] = _expression(worked, source)(**context)
    out: list[Resolved] = []
    for element in layout.elements:
        if element.when and not _expression(worked, element.when)(**context):
            continue
        x, y, w, h = element.box.resolve(width, height)
        texts = tuple(
            _cached().render(_template(worked, source), context).strip()
            if source is not None
            else ""
            for source in _sources(element)
        )
        out.append(Resolved(element, x, y, w, h, texts))
    return out
