"""Layout element kinds: one module per kind, collected in a registry.

Each kind is a pydantic model (`kind: Literal[...]`, subclassing `Element`) that says which
of its fields are Jinja templates, how it draws on a reportlab canvas and how `validate`
measures it for print fit. The `Layout` model's element union is built from the registry, and
drawing, the P checks and the reference iterate it, so a new kind is one module here (found by
the registry, listed after the built-ins by its `order`) that calls `register_element`.
"""

from toolkit.render.elements.base import (
    Box,
    Colour,
    Element,
    Ink,
    LayoutError,
    Measure,
    Paint,
    Problem,
    Resolved,
    colour,
)
from toolkit.render.elements.registry import REGISTRY, register_element

__all__ = [
    "REGISTRY",
    "Box",
    "Colour",
    "Element",
    "Ink",
    "LayoutError",
    "Measure",
    "Paint",
    "Problem",
    "Resolved",
    "colour",
    "register_element",
]
