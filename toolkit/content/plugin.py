"""Game plugins: how a game extends the generic model, and the registry that finds them.

A plugin names its game id, its typed rules parameters and a card model per deck kind. The
content package never imports a game: bundled and third-party games register through the
`playset.games` entry point group, and a folder whose game has no plugin gets the generic one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, Field, TypeAdapter, ValidationError, create_model, field_validator

from toolkit.content.models.base import Slug, StrictModel
from toolkit.content.models.deck import CardBase, DeckBase
from toolkit.content.models.manifest import ManifestBase
from toolkit.diagnostics import rule
from toolkit.registry import Registry

E_PLUGIN = rule("E007", "plugin-import", "The game's installed plugin cannot be imported.")

R = TypeVar("R")
GenericRules = dict[Slug, int | float | str | bool | list[Any] | dict[Any, Any]]


def _camel(text: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[-_]", text))


@dataclass
class GamePlugin:
    """What a game adds to the generic model (and later: engine, bots, checks)."""

    game_id: str
    rules_model: Any = GenericRules
    card_models: dict[str, type[CardBase]] = field(default_factory=dict)
    checks: tuple[Any, ...] = ()
    """G checks: callables `check(game) -> Iterable[Diagnostic]` (game: content.game.Game),
    run by `playset validate` after loading. Declare their rules (codes G...) beside them."""
    engine: Any = None
    """Simulation: a callable `compile(game) -> CompiledGame` (see toolkit.sim.engine)."""
    bots: dict[str, Any] = field(default_factory=dict)
    """Game-specific bots by name (`greedy`, ...): callables `make(seat) -> Bot`."""
    board_glyphs: Callable[[Callable[[str], str]], Mapping[str, Callable[..., None]]] | None = None
    """The game's own board glyphs by name (`glyph(canvas, x, y, radius)`, see
    toolkit.render.boards.look): a function returning them, called when a board is drawn, so
    loading the game imports no drawing code. The renderer calls it with its font lookup
    (`font(style)` → the reportlab font name), so a glyph that draws letters never imports
    the renderer."""

    @property
    def generic(self) -> bool:
        return not self.card_models

    @cached_property
    def manifest_model(self) -> type[ManifestBase]:
        name = _camel(self.game_id) + "Manifest"
        return create_model(
            name,
            __base__=ManifestBase,
            rules=(self.rules_model, Field(description="Every number the rules use.")),
        )

    @cached_property
    def deck_models(self) -> dict[str, type[DeckBase]]:
        models: dict[str, type[DeckBase]] = {}
        for kind, card in self.card_models.items():
            # types built at run time from data: a static checker sees only `Any` here
            kind_type: Any = Literal[kind]
            cards_type: Any = list.__class_getitem__(card)  # list[card], built at run time
            models[kind] = create_model(
                _camel(self.game_id) + _camel(kind) + "Deck",
                __base__=DeckBase,
                kind=(kind_type, Field(description="What kind of cards this deck holds.")),
                cards=(cards_type, Field(min_length=1)),
            )
        return models

    @cached_property
    def deck_adapter(self) -> TypeAdapter[Any]:
        if self.generic:
            from toolkit.content.models.generic_deck import GenericDeck

            return TypeAdapter(GenericDeck)
        models = tuple(self.deck_models.values())
        if len(models) == 1:
            return TypeAdapter(models[0])
        union: Any = Annotated[_union(models), Field(discriminator="kind")]
        return TypeAdapter(union)

    def deck_shape(self, data: object) -> TypeAdapter[Any] | None:
        """The validator of the one deck model a deck file's `kind` names, or None (not a
        mapping, no such kind, or one model only: `deck_adapter` is that model's): the deck
        union chooses its member by `kind` alone (a tagged union), so the model it gives a
        file is the one this gives, and a file this refuses is validated again by the
        union, whose messages are the ones a user reads (as `board_shape` for boards).
        Building the union's schema built every deck kind's (~12 ms for a game of five
        kinds, one kind's ~3 ms)."""
        if type(data) is not dict:
            return None
        kind = data.get("kind")
        if type(kind) is not str:
            return None
        return self._deck_shapes.get(kind)

    @cached_property
    def _deck_shapes(self) -> dict[str, TypeAdapter[Any]]:
        """Each deck kind's own validator, made when first used; empty when the union is
        not a plain tag read from `kind` (a model's `kind` aliased, or not that literal)."""
        if self.generic or len(self.deck_models) < 2:
            return {}
        for kind, model in self.deck_models.items():
            tag = model.model_fields.get("kind")
            if tag is None or tag.alias or tag.validation_alias or tag.annotation != Literal[kind]:
                return {}
        return _Adapters(self.deck_models)

    @cached_property
    def manifest_adapter(self) -> TypeAdapter[Any]:
        return TypeAdapter(self.manifest_model)

    def plain_manifest(self, data: object) -> ManifestBase | None:
        """The manifest of a game.yaml that writes none of the rarely written sections
        (`RARE_SECTIONS`) and validates, else None (then validate it with `manifest_adapter`,
        whose messages are the ones a user reads).

        Its validator leaves those sections out, and their models' schemas: building the
        whole manifest's schema cost ~4.5 ms of every command, this one ~2.3 ms. The model
        is then made the manifest model's own, those sections at their defaults as its
        validation would have left them (the defaults are plain values or instances made
        without validation, which it passes through as they are)."""
        plain_adapter = self._plain_manifest_adapter
        if plain_adapter is None or not isinstance(data, dict):
            return None
        if not data.keys() <= self.manifest_model.model_fields.keys() - RARE_SECTIONS:
            return None
        try:
            plain = plain_adapter.validate_python(data)
        except ValidationError:
            return None
        return self.manifest_model.model_construct(plain.model_fields_set, **dict(plain))

    @cached_property
    def _plain_manifest_adapter(self) -> TypeAdapter[Any] | None:
        """The validator of a manifest without the rare sections; None when the manifest
        model has validators other than ManifestBase's own (a plugin's own manifest)."""
        full = self.manifest_model
        decorators = full.__pydantic_decorators__
        kept = {
            name: found
            for name, found in decorators.field_validators.items()
            if not set(found.info.fields) & RARE_SECTIONS
        }
        if (
            decorators.model_validators
            or decorators.root_validators
            or decorators.validators
            or decorators.field_validators.keys() - kept.keys() != {"_cooperative_values_fit"}
        ):
            return None
        fields: Any = {
            name: (info.annotation, info)
            for name, info in full.model_fields.items()
            if name not in RARE_SECTIONS
        }
        if any(found.info.mode not in ("after", "before") for found in kept.values()):
            return None
        validators: Any = {}
        for name, found in kept.items():
            func: Any = found.func  # the classmethod bound to the manifest model
            again = field_validator(*found.info.fields, mode=found.info.mode)
            validators[name] = again(classmethod(func.__func__))
        model: Any = create_model(
            full.__name__, __base__=StrictModel, __validators__=validators, **fields
        )
        return TypeAdapter(model)


RARE_SECTIONS = frozenset({"options", "cooperative", "variants", "checks", "questions", "style"})
"""The sections of game.yaml most games never write: `GamePlugin.plain_manifest` validates
a manifest without them with a smaller schema."""


def _union(models: tuple[type[BaseModel], ...]) -> Any:
    result: Any = models[0]
    for model in models[1:]:
        result = result | model
    return result


class _Adapters(dict[str, TypeAdapter[Any]]):
    """A validator for each model by name, made when first asked for."""

    def __init__(self, models: Mapping[str, type[BaseModel]]) -> None:
        super().__init__()
        self.models = models

    def get(self, name: str, default: Any = None) -> Any:
        if name not in self and name in self.models:
            self[name] = TypeAdapter(self.models[name])
        return super().get(name, default)


@cache
def adapter(kind: str) -> TypeAdapter[Any]:
    """Validators of the shared file types, built on first use (`board`, `questions`,
    `glossary`): building them costs time a command that never loads such a file saves.
    `board:<kind>` is the validator of that one board shape (see `board_shape`)."""
    from toolkit.content import models

    if kind.startswith("board:"):
        return TypeAdapter(models.board_shapes()[kind.partition(":")[2]])
    names = {"board": "Board", "questions": "QuestionBank", "glossary": "Glossary"}
    return TypeAdapter(getattr(models, names[kind]))


def board_shape(data: object) -> TypeAdapter[Any] | None:
    """The validator of the one board shape a board file's `kind` names, or None (no such
    kind, not a mapping, or two shapes take the name): the board union chooses its member
    by `kind` alone (a tagged union), so the model it gives a file is the one this gives,
    and a file this refuses is validated again by the union, whose messages are the ones a
    user reads. Building the union's schema builds every registered shape's (~2.5 ms more
    than a graph board's alone, on a game with one board)."""
    if type(data) is not dict:
        return None
    kind = data.get("kind")
    if type(kind) is not str:
        return None
    from toolkit.content import models

    if kind not in models.board_shapes():
        return None
    return adapter(f"board:{kind}")


def guarded_check(check: Callable[[Any], Iterable[Any]]) -> Callable[[Any], list[Any]]:
    """A game's G check as the runner calls it: on valid content only, skipping quietly
    when the manifest is missing (one wrapper for every plugin's CHECKS)."""

    def run(game: Any) -> list[Any]:
        if game.manifest is None or game.manifest_file is None:
            return []
        return list(check(game))

    run.__name__ = getattr(check, "__name__", "check")
    run.__doc__ = check.__doc__
    return run


def rules_of(manifest: ManifestBase | None, model: type[R]) -> R:
    """The manifest's `rules` as the plugin's rules model validated them: `ManifestBase`
    leaves the field to each plugin's manifest model, so the type is checked here, once."""
    rules = getattr(manifest, "rules", None)
    if rules is None or not isinstance(rules, model):
        raise TypeError(f"the manifest's rules are not {model.__name__}")
    return rules


REGISTRY: Registry[GamePlugin] = Registry(
    "game plugin",
    package="toolkit.games",
    group="playset.games",
    key=lambda plugin: plugin.game_id,
    accepts=lambda obj: isinstance(obj, GamePlugin),
    same=lambda known, new: known.game_id == new.game_id,  # the first one found stays
    attribute="PLUGIN",
    reports_broken=True,  # load_game's E007
)
"""Every game plugin: the bundled games' packages (`toolkit.games.<id>`, their `PLUGIN`) and
the `playset.games` entry points. An installed plugin that fails to import is noted in
`REGISTRY.broken` (the game then loads with the generic plugin and `load_game` reports E007
instead of a traceback)."""


def register(plugin: GamePlugin) -> GamePlugin:
    """Add a plugin to the registry, replacing one of the same game id (games call this, or
    expose PLUGIN in their package or through an entry point)."""
    REGISTRY.unregister(plugin.game_id)
    return REGISTRY.register(plugin)


def broken_plugin(game_id: str) -> str | None:
    """Why the installed plugin of `game_id` failed to import, if it did."""
    return REGISTRY.broken.get(game_id) if game_id not in REGISTRY.registered() else None


def plugins() -> dict[str, GamePlugin]:
    """Every registered plugin by game id."""
    return REGISTRY.load()


def plugin_for(game_id: str | None) -> GamePlugin:
    """The plugin of a game id, or the generic plugin for a game without one.

    Only that game's plugin is imported, so loading one game stays cheap."""
    if game_id and game_id not in REGISTRY.registered():
        REGISTRY.discover_one(game_id)
    found = REGISTRY.registered().get(game_id or "")
    return found if found is not None else _generic(game_id or "generic")


MAX_GENERIC = 16
_GENERIC: dict[str, GamePlugin] = {}


def _generic(game_id: str) -> GamePlugin:
    """The generic plugin of a game id, made once: each new one built its manifest model
    anew at every load, and the walk keeps what it learns of each model class for good (a
    language server grew at each edit). The last few ids only: an id is typed letter by
    letter in an editor."""
    kept = _GENERIC.pop(game_id, None)
    if kept is None:
        kept = GamePlugin(game_id)
        while len(_GENERIC) >= MAX_GENERIC:
            _GENERIC.pop(next(iter(_GENERIC)), None)
    _GENERIC[game_id] = kept
    return kept
