"""Card layouts are data: `<name>.yaml` places elements in millimetres.

A layout is read from the game folder's `layouts/` first, then from the toolkit's
`templates/cards/` (toolkit.render.assets), so a game may ship its own faces and backs.

Coordinates are from the trim's top-left corner; a negative x or y counts from the right or
bottom edge and a negative w or h means "card size minus that much", so one layout serves
every card size. Text fields are sandboxed Jinja over the card (`card.name`, `card.text`,
any parameter), the deck, the game's rules and glossary terms (`glossary.meal`) and the
language; `when` makes an element conditional.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from jinja2 import Template, TemplateError
from pydantic import Field, TypeAdapter

from toolkit.content.models.base import Slug, StrictModel
from toolkit.content.source import Document, load_document
from toolkit.content.validation import validate_document
from toolkit.diagnostics import Diagnostic
from toolkit.render import assets
from toolkit.render.jinja_cache import CachedSandbox
from toolkit.render.undefined import MissingName

Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$|^[a-z_]+$")]


class Box(StrictModel):
    x: float = Field(ge=-500, le=500)
    y: float = Field(ge=-500, le=500)
    w: float = Field(ge=-500, le=500)
    h: float = Field(ge=-500, le=500)

    def resolve(self, width: float, height: float) -> tuple[float, float, float, float]:
        """(x, y, w, h) in mm from the top-left of a card of that trim size."""
        x = self.x if self.x >= 0 else width + self.x
        y = self.y if self.y >= 0 else height + self.y
        w = self.w if self.w > 0 else width + self.w - x
        h = self.h if self.h > 0 else height + self.h - y
        return x, y, w, h


class Sizes(StrictModel):
    max: float = Field(ge=3, le=96)
    min: float = Field(ge=3, le=96)


class Base(StrictModel):
    box: Box
    when: str | None = Field(default=None, description="Jinja test; the element shows if true.")


class BoxElement(Base):
    kind: Literal["box"]
    fill: Colour | None = None
    stroke: Colour | None = None
    stroke_mm: float = Field(default=0.3, ge=0, le=10)
    radius_mm: float = Field(default=0, ge=0, le=50)


class TextElement(Base):
    kind: Literal["text"]
    text: str = Field(description="Jinja template, e.g. '{{ card.name }}'.")
    style: Literal["regular", "bold", "italic", "bolditalic"] = "regular"
    size: Sizes
    align: Literal["left", "center", "right"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    colour: Colour = "#222222"
    fit: bool = Field(default=True, description="Checked for print fit in every language.")


class IconElement(Base):
    kind: Literal["icon"]
    icon: str = Field(description="Icon name or Jinja template giving one.")
    colour: Colour = "#222222"


class ImageElement(Base):
    kind: Literal["image"]
    path: str = Field(description="Jinja template giving a path inside the game folder.")


class BadgeElement(Base):
    kind: Literal["badge"]
    text: str
    fill: Colour = "#222222"
    colour: Colour = "#ffffff"
    size: float = Field(default=10, ge=3, le=72)


Element = Annotated[
    BoxElement | TextElement | IconElement | ImageElement | BadgeElement,
    Field(discriminator="kind"),
]


class Layout(StrictModel):
    """A card face."""

    id: Slug
    background: Colour = "#ffffff"
    labels: dict[Slug, dict[str, str]] = Field(
        default_factory=dict,
        description="Printed words by language, used in texts as {{ label.kill }}.",
        examples=[{"kill": {"fr": "Tuer", "es": "Matar", "en": "Kill"}}],
    )
    elements: list[Element] = Field(default_factory=list)


@cache
def layout_adapter() -> TypeAdapter[Any]:
    return TypeAdapter(Layout)


DEFAULT_FRONT = "standard"
DEFAULT_BACK = "back"
QUESTION_FRONT, QUESTION_BACK = "question-front", "question-back"


def layout_file(name: str, game_root: Path | None = None) -> str:
    """A layout's path as diagnostics show it."""
    return assets.expected(assets.LAYOUTS, name, game_root).display


@cache
def layout_document(
    name: str, game_root: Path | None = None
) -> tuple[Document | None, tuple[Diagnostic, ...]]:
    """A layout's YAML with the position of every value."""
    found = assets.expected(assets.LAYOUTS, name, game_root)
    doc, diags = load_document(found.path, found.display)
    return doc, tuple(diags)


@cache
def load_layout(
    name: str, game_root: Path | None = None
) -> tuple[Layout | None, tuple[Diagnostic, ...]]:
    """A layout by name (the game's own first), validated like content (Y/S diagnostics at
    exact positions)."""
    doc, diags = layout_document(name, game_root)
    if doc is None:
        return None, diags
    model, found = validate_document(doc, layout_adapter())
    return model, tuple(found)


@cache
def _cached() -> CachedSandbox:
    # immutable: a layout's text cannot change the views and glossary that cards share
    return CachedSandbox(keep_trailing_newline=False, immutable=True)


@cache
def template(source: str) -> Template:
    return _cached().template(source, "layout")


@cache
def expression(source: str) -> Any:
    return _cached().env.compile_expression(source, undefined_to_none=False)


@dataclass(frozen=True)
class Resolved:
    """An element with its box in mm and its text rendered for one card and language."""

    element: Any
    x: float
    y: float
    w: float
    h: float
    text: str = ""


def _element_sources(element: Any) -> str | None:
    if isinstance(element, TextElement | BadgeElement):
        return element.text
    if isinstance(element, IconElement):
        return element.icon
    if isinstance(element, ImageElement):
        return element.path
    return None


_COMPILED: dict[int, tuple[Layout, Template | None]] = {}


def _layout_template(layout: Layout) -> Template | None:
    """One template that evaluates every `when` and text of a layout in a single render.

    Rendering sixteen small templates per card cost a third of drawing a deck; one render
    per card gives the same values. None if the pieces do not parse on their own, so the
    per-element path reports the faulty piece."""
    cached = _COMPILED.get(id(layout))
    if cached is not None and cached[0] is layout:
        return cached[1]
    parts: list[str] = []
    compiled: Template | None
    try:
        for index, element in enumerate(layout.elements):
            source = _element_sources(element)
            if element.when:
                _cached().env.parse(f"{{{{ ({element.when}) }}}}")
                parts.append(f"{{% set when_{index} = ({element.when}) %}}{{% if when_{index} %}}")
            else:
                parts.append("{% if true %}")
            if source is not None:
                _cached().env.parse(source)
                parts.append(f"{{% set text_{index} %}}{source}{{% endset %}}")
            parts.append(f"{{% set shown_{index} = true %}}{{% endif %}}")
        compiled = _cached().template("".join(parts), "layout")
    except TemplateError:
        compiled = None
    _COMPILED[id(layout)] = (layout, compiled)
    return compiled


class LayoutError(ValueError):
    """A layout's template fails for a card: a syntax error, an unknown name, a bad value."""


def resolve(layout: Layout, context: dict[str, Any], width: float, height: float) -> list[Resolved]:
    """The elements that show for this card, with boxes and texts resolved (raises
    LayoutError naming the layout when one of its templates fails)."""
    try:
        with _cached().bounded():
            return _resolve(layout, context, width, height)
    except (TemplateError, TypeError, ValueError) as exc:
        kind = "" if isinstance(exc, MissingName) else f"{type(exc).__name__}: "  # own words
        raise LayoutError(f"layout {layout.id!r}: {kind}{exc}") from exc


def _resolve(
    layout: Layout, context: dict[str, Any], width: float, height: float
) -> list[Resolved]:
    lang = context.get("lang", "")
    context = {**context, "label": {k: v.get(lang, k) for k, v in layout.labels.items()}}
    combined = _layout_template(layout)
    if combined is None:
        return _resolve_each(layout, context, width, height)
    values = combined.make_module(context).__dict__
    out: list[Resolved] = []
    for index, element in enumerate(layout.elements):
        if f"shown_{index}" not in values:
            continue
        x, y, w, h = element.box.resolve(width, height)
        text = str(values.get(f"text_{index}", "")).strip()
        out.append(Resolved(element, x, y, w, h, text))
    return out


def _resolve_each(
    layout: Layout, context: dict[str, Any], width: float, height: float
) -> list[Resolved]:
    out: list[Resolved] = []
    for element in layout.elements:
        if element.when and not expression(element.when)(**context):
            continue
        x, y, w, h = element.box.resolve(width, height)
        source = _element_sources(element)
        text = template(source).render(**context).strip() if source is not None else ""
        out.append(Resolved(element, x, y, w, h, text))
    return out
