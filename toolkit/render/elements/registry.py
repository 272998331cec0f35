"""The registry of layout element kinds, one entry per module, as diagnostic rules are.

The built-in kinds register when `toolkit.render.elements` is imported; a package outside the
toolkit registers its kinds with `register_element` (from its own import, or through the
`playset.elements` entry point group, loaded the first time the kinds are asked for). The
`Layout` model's element union, drawing, print-fit checks and the reference all read it.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from importlib.metadata import entry_points

from toolkit.render.elements.base import Element

ENTRY_POINTS = "playset.elements"


def kind_of(model: type[Element]) -> str:
    """The `kind:` value a model declares (`kind: Literal["box"]`)."""
    field = model.model_fields.get("kind")
    args = typing.get_args(field.annotation) if field is not None else ()
    if len(args) != 1 or not isinstance(args[0], str):
        raise TypeError(f"{model.__name__} must declare kind: Literal['<name>']")
    return args[0]


class ElementRegistry:
    """Every element kind known to this process, by its `kind` name."""

    def __init__(self) -> None:
        self._kinds: dict[str, type[Element]] = {}
        self._plugins_loaded = False
        self._listeners: list[Callable[[], None]] = []

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call `listener` whenever a kind comes or goes (caches of parsed layouts)."""
        self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in self._listeners:
            listener()

    def add(self, model: type[Element]) -> type[Element]:
        if not (isinstance(model, type) and issubclass(model, Element)):
            raise TypeError(f"{model!r} is not an Element model")
        kind = kind_of(model)
        existing = self._kinds.get(kind)
        if existing is not None and existing is not model:
            raise ValueError(f"element kind {kind!r} registered twice")
        if existing is None:
            self._kinds[kind] = model
            self._changed()
        return model

    def remove(self, kind: str) -> None:
        """Forget a kind (for tests that register one of their own)."""
        if self._kinds.pop(kind, None) is not None:
            self._changed()

    def kinds(self) -> list[type[Element]]:
        """The kinds in registration order (built-ins first)."""
        self._load_plugins()
        return list(self._kinds.values())

    def get(self, kind: str) -> type[Element]:
        self._load_plugins()
        return self._kinds[kind]

    def _load_plugins(self) -> None:
        if self._plugins_loaded:
            return
        self._plugins_loaded = True
        for point in entry_points(group=ENTRY_POINTS):
            loaded = point.load()  # a model, or a module that registers its kinds itself
            if isinstance(loaded, type) and issubclass(loaded, Element):
                self.add(loaded)


REGISTRY = ElementRegistry()


def register_element(model: type[Element]) -> type[Element]:
    """Declare an element kind (usable as a class decorator); returns the model."""
    return REGISTRY.add(model)
