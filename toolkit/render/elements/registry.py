"""The registry of layout element kinds, one entry per module, as diagnostic rules are.

Each built-in kind is a module of `toolkit.render.elements` that registers itself, found the
first time the kinds are asked for; a package outside the toolkit registers its kinds with
`register_element` (from its own import, or through the `playset.elements` entry point group). The
`Layout` model's element union, drawing, print-fit checks and the reference all read it.
"""

from __future__ import annotations

import typing

from toolkit.registry import Registry
from toolkit.render.elements.base import Element

ENTRY_POINTS = "playset.elements"


def kind_of(model: type[Element]) -> str:
    """The `kind:` value a model declares (`kind: Literal["box"]`)."""
    field = model.model_fields.get("kind")
    args = typing.get_args(field.annotation) if field is not None else ()
    if len(args) != 1 or not isinstance(args[0], str):
        raise TypeError(f"{model.__name__} must declare kind: Literal['<name>']")
    return args[0]


class ElementRegistry(Registry[type[Element]]):
    """Every element kind known to this process, by its `kind` name: the built-in modules of
    `toolkit.render.elements` (found, not listed) and the `playset.elements` entry points."""

    def __init__(self) -> None:
        super().__init__(
            "element kind",
            package="toolkit.render.elements",
            group=ENTRY_POINTS,
            key=kind_of,
            rank=lambda model: model.order,
            accepts=lambda obj: isinstance(obj, type) and issubclass(obj, Element),
            check=_is_element,
            same=lambda a, b: a is b,
        )

    def add(self, model: type[Element]) -> type[Element]:
        return self.register(model)

    def remove(self, kind: str) -> None:
        """Forget a kind (for tests that register one of their own)."""
        self.unregister(kind)

    def kinds(self) -> list[type[Element]]:
        """The kinds in order (built-ins first)."""
        return self.values()

    def get(self, kind: str) -> type[Element]:  # a kind, else KeyError
        return self.load()[kind]


def _is_element(model: type[Element]) -> None:
    if not (isinstance(model, type) and issubclass(model, Element)):
        raise TypeError(f"{model!r} is not an Element model")
    kind_of(model)


REGISTRY = ElementRegistry()


def register_element(model: type[Element]) -> type[Element]:
    """Declare an element kind (usable as a class decorator); returns the model."""
    return REGISTRY.add(model)
