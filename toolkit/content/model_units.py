"""The validated model of a content file, kept between `validate` runs of its game as plain
data: after one card edit the files that did not change are not validated again, and the
validators of their kinds (the manifest's, the boards', the question banks', the glossary's,
the other decks' kinds': ~20 ms of schema building in a fresh process) are not built.

A model is a unit of kind `model` in the units' store of their own (`Units.files`: one
HMAC-signed entry per unit in the private user cache, toolkit.usercache, as a file's parse),
named by the units' head (the toolkit's code, the interpreter and installed packages:
toolkit.content.validate_cache.FindingsCache.units), what the file is (`decks`, `boards`,
`questions`, `glossary`, `manifest`), the game's plugin and the SHA-256 of the file's bytes:
its data is a pure function of those bytes (its parse is kept by them, toolkit.content.
parse_units), and its validation a pure function of that data and the code.

Nothing is unpickled. The entry is `marshal` data of plain values only: texts, numbers,
booleans, None, lists, mappings, and two tagged tuples, a tuple's items and a model's class
(named by its place, below), the fields it was given and its fields' values. A model is
made again by its class's `model_construct` with the very values and fields set its
validation gave: the classes are the toolkit's own models (a module of the toolkit's folder,
found by its module and name, a subclass of pydantic's BaseModel) and the plugin's deck and
manifest models made at run time (by their place in the plugin); enumerations are not kept.
A model is kept only when it is nothing but its fields (no private or extra attributes, no
`model_post_init`, nothing cached in its `__dict__`) and each value is one of those plain
kinds exactly (not a subclass: a `str` subclass, a set, a path or a date is not kept, the
file is validated every run).

Kept only for Playset's own plugins (the generic one and the bundled games': their models
and validators are in the toolkit's hashed tree), and for a file that validated (a file with
findings is validated again, for its messages). Read back, an entry is refused (the file is
validated afresh) unless it gives an instance of a class the file's validator makes. Only
`validate` activates units: build, preview and export validate as before.
"""

from __future__ import annotations

import importlib
import marshal
import os
import sys
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from toolkit.content.unit_cache import NotKept, active

KIND = "model"
FORMAT = "1"
"""What an entry holds: a change of this module's encoding changes it (and so the names)."""
_TOOLKIT = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
"""The toolkit package's folder: every model class a kept model holds is defined in a module
there (a tree the units' head hashes), or made by the plugin from such classes."""
_SCALARS = frozenset({str, int, float, bool, type(None)})
_TUPLE = "t"
_MODEL = "m"
MAX_DEPTH = 64


def _own_module(name: str) -> Any:
    """The toolkit module `name` (imported), or None: a module of another package, or one
    whose file is not in the toolkit's folder."""
    if name != "toolkit" and not name.startswith("toolkit."):
        return None
    module = sys.modules.get(name)
    if module is None:
        try:
            module = importlib.import_module(name)
        except ImportError:
            return None
    where = getattr(module, "__file__", None)
    if not isinstance(where, str) or not os.path.abspath(where).startswith(_TOOLKIT):
        return None
    return module


def _made_classes(plugin: Any) -> dict[type, tuple[str, ...]]:
    """The plugin's classes made at run time, each by its place in the plugin."""
    made: dict[type, tuple[str, ...]] = {plugin.manifest_model: ("manifest",)}
    for kind, model in plugin.deck_models.items():
        made[model] = ("deck", kind)
    return made


def _keeps(plugin: Any) -> bool:
    """Whether the models of games of `plugin` may be kept: Playset's own plugins only."""
    from toolkit.content.plugin import REGISTRY

    if plugin.generic:
        return True
    # as `plugin_for` found it (`get` would look for every other game's plugin too)
    game_id: str = plugin.game_id
    return REGISTRY.registered().get(game_id) is plugin and REGISTRY.is_builtin(game_id)


class _Encoder:
    """A model as plain data (see the module docstring); raises NotKept for anything else."""

    def __init__(self, made: dict[type, tuple[str, ...]]) -> None:
        self.made = made
        self.places: dict[type, tuple[str, ...]] = {}

    def place(self, cls: type) -> tuple[str, ...]:
        known = self.places.get(cls)
        if known is not None:
            return known
        if cls in self.made:
            place = self.made[cls]
        else:
            module = _own_module(getattr(cls, "__module__", "") or "")
            name = getattr(cls, "__qualname__", "")
            if module is None or "." in name or getattr(module, name, None) is not cls:
                raise NotKept  # not found as a toolkit module's own name
            place = ("class", cls.__module__, name)
        if not _plain_model(cls):
            raise NotKept
        self.places[cls] = place
        return place

    def value(self, value: Any, depth: int = 0) -> tuple[Any, bool]:
        """`value` as plain data, and whether it is that data itself (no model or tuple in
        it: read back as it is, not walked)."""
        kind = type(value)
        if kind in _SCALARS:
            return value, True
        if depth > MAX_DEPTH:
            raise NotKept
        if kind is list:
            items = [self.value(item, depth + 1) for item in value]
            return [item for item, _ in items], all(plain for _, plain in items)
        if kind is dict:
            out, whole = {}, True
            for key, item in value.items():
                if type(key) not in _SCALARS:
                    raise NotKept
                out[key], plain = self.value(item, depth + 1)
                whole = whole and plain
            return out, whole
        if kind is tuple:
            items = [self.value(item, depth + 1)[0] for item in value]
            return (_TUPLE, tuple(items)), False
        if isinstance(value, BaseModel):
            return self.model(value, depth), False
        raise NotKept  # a set, an enumeration, a path, a date, a subclass of a plain kind

    def model(self, model: BaseModel, depth: int) -> Any:
        cls = type(model)
        place = self.place(cls)
        names = cls.model_fields.keys()
        state = model.__dict__
        if state.keys() != names:  # something besides its fields (a cached property)
            raise NotKept
        if model.__pydantic_extra__ or model.__pydantic_private__:
            raise NotKept
        fields_set = model.model_fields_set
        if not fields_set <= names:
            raise NotKept
        values, walked = [], []
        for index, name in enumerate(names):
            value, plain = self.value(state[name], depth + 1)
            values.append(value)
            if not plain:
                walked.append(index)
        return (_MODEL, place, tuple(sorted(fields_set)), tuple(values), tuple(walked))


def _plain_model(cls: type) -> bool:
    """Whether instances of `cls` are their fields alone (made again exactly from them)."""
    if not issubclass(cls, BaseModel) or cls.__pydantic_root_model__:
        return False
    if cls.__private_attributes__ or cls.__pydantic_post_init__:
        return False
    return cls.model_config.get("extra") != "allow"


class _Decoder:
    """Plain data made a model again; raises ValueError for anything not `_Encoder`'s."""

    def __init__(self, made: dict[tuple[str, ...], type]) -> None:
        self.made = made
        self.classes: dict[tuple[str, ...], type[BaseModel]] = {}
        self.shapes: dict[tuple[Any, Any], _Shape] = {}
        """By a model's class place and fields set as kept: its class, field names, whether
        it is made by `_construct` (else by `model_construct`) and its fields set, checked
        once a shape, not once a model (a game's ~700 models have ~70 shapes)."""

    def cls(self, place: Any) -> type[BaseModel]:
        if type(place) is not tuple:
            raise ValueError("not a class's place")
        known = self.classes.get(place)
        if known is not None:
            return known
        found = self.made.get(place)
        if found is None:
            if len(place) != 3 or place[0] != "class" or "." in str(place[2]):
                raise ValueError("not a class's place")
            module = _own_module(str(place[1]))
            found = getattr(module, str(place[2]), None) if module is not None else None
            if not isinstance(found, type) or found.__module__ != place[1]:
                raise ValueError("not a toolkit model class")
        if not _plain_model(found):
            raise ValueError("not a model kept as its fields")
        self.classes[place] = found
        return found

    def shape(self, place: Any, fields_set: Any) -> _Shape:
        """The shape of models of the class at `place` given the fields `fields_set` (hashable:
        `model` looked for it first)."""
        cls = self.cls(place)
        names = tuple(cls.model_fields)
        if type(fields_set) is not tuple or not set(fields_set) <= set(names):
            raise ValueError("not the model's fields")
        known = (cls, names, _unaliased(cls), frozenset(fields_set))
        self.shapes[(place, fields_set)] = known
        return known

    def value(self, value: Any) -> Any:
        kind = type(value)
        if kind in _SCALARS:
            return value
        if kind is list:
            model = self.model
            out = []
            for item in value:  # most lists kept hold models: made without a dispatch each
                if type(item) is tuple and len(item) == 5 and item[0] == _MODEL:
                    out.append(model(item))
                else:
                    out.append(self.value(item))
            return out
        if kind is dict:
            return {key: self.value(item) for key, item in value.items()}
        if kind is tuple and len(value) == 2 and value[0] == _TUPLE:
            return tuple(self.value(item) for item in value[1])
        if kind is tuple and len(value) == 5 and value[0] == _MODEL:
            return self.model(value)
        raise ValueError("not a kept value")

    def model(self, node: tuple[Any, ...]) -> BaseModel:
        _, place, fields_set, values, walked = node
        try:
            shape = self.shapes.get((place, fields_set))
        except TypeError as exc:  # a list where a tuple was kept: unhashable
            raise ValueError("not a model's place or fields") from exc
        cls, names, plain, given = shape or self.shape(place, fields_set)
        if type(values) is not tuple or len(values) != len(names) or type(walked) is not tuple:
            raise ValueError("not the model's fields")
        if walked:
            items = list(values)
            for index in walked:  # the others are plain data, read back as they are
                items[index] = self.value(items[index])
            state = dict(zip(names, items, strict=True))
        else:
            state = dict(zip(names, values, strict=True))
        if plain:
            return _construct(cls, state, set(given))
        return cls.model_construct(set(given), **state)


_Shape = tuple[type[BaseModel], tuple[str, ...], bool, frozenset[str]]


def _unaliased(cls: type[BaseModel]) -> bool:
    """Whether no field of `cls` has an alias: `model_construct` then takes each value by
    its field's name alone (a field's alias naming another field takes that one's value)."""
    return all(f.alias is None and f.validation_alias is None for f in cls.model_fields.values())


_set_attribute = object.__setattr__


def _construct(cls: type[BaseModel], state: dict[str, Any], fields_set: set[str]) -> BaseModel:
    """`cls.model_construct(fields_set, **state)` for a class whose models are their fields
    alone (`_plain_model`), no field aliased (`_unaliased`) and `state` holding every field
    in their order: what pydantic's own sets (its `__dict__`, the fields set, no extra and no
    private values), without its walk of each field's aliases and default (~4 us a model,
    ~1,000 models in a game of 300 cards)."""
    model = cls.__new__(cls)
    _set_attribute(model, "__dict__", state)
    _set_attribute(model, "__pydantic_fields_set__", fields_set)
    _set_attribute(model, "__pydantic_extra__", None)
    _set_attribute(model, "__pydantic_private__", None)
    return model


def encoded(model: Any, plugin: Any) -> bytes:
    """`model` as an entry's bytes; raises NotKept when it cannot be kept exactly."""
    return _encoded_made(model, _made_classes(plugin))


def _encoded_made(model: Any, classes: dict[type, tuple[str, ...]]) -> bytes:
    return marshal.dumps(_Encoder(classes).value(model)[0])


def decoded(payload: Any, plugin: Any) -> Any:
    """The model an entry's bytes hold; raises ValueError when they are not `encoded`'s."""
    return _decoded_made(payload, _made_classes(plugin))


def _decoded_made(payload: Any, classes: dict[type, tuple[str, ...]]) -> Any:
    if type(payload) is not bytes:
        raise ValueError("not a kept model")
    try:
        data = marshal.loads(payload)
    except (EOFError, TypeError) as exc:
        raise ValueError("not a kept model") from exc
    made = {place: cls for cls, place in classes.items()}
    try:
        return _Decoder(made).value(data)
    except RecursionError as exc:
        raise ValueError("not a kept model") from exc


def kept_model(what: str, plugin: Any, doc: Any, fits: Callable[[Any], bool]) -> Any:
    """The model kept for the file `doc` (a `what` of the game of `plugin`), or None (not
    kept, or not what `fits` accepts: validate it)."""
    units = active()
    files = units.files if units is not None else None
    if files is None or doc.digest is None or not _keeps(plugin):
        return None

    def read(payload: Any) -> Any:
        model = decoded(payload, plugin)
        if not fits(model):
            raise ValueError("not a model of this file's kind")
        return model

    return files.get(KIND, _name(what, plugin, doc), read)


def keep_model(what: str, plugin: Any, doc: Any, model: Any) -> None:
    """Keep the model the file `doc` validated to (see `kept_model`)."""
    units = active()
    files = units.files if units is not None else None
    if files is None or doc.digest is None or model is None or not _keeps(plugin):
        return
    try:
        payload = encoded(model, plugin)
    except (NotKept, ValueError, RecursionError):
        return
    files.put(KIND, _name(what, plugin, doc), payload)


def _name(what: str, plugin: Any, doc: Any) -> str:
    generic = "generic" if plugin.generic else "plugin"
    return f"{FORMAT}\0{what}\0{generic}\0{plugin.game_id}\0{doc.digest}"


def kept_made(
    name: str, doc: Any, classes: dict[type, tuple[str, ...]], fits: Callable[[Any], bool]
) -> Any:
    """The model kept as `name` for the file `doc` (its bytes name it too), its run-time
    classes by their places (`classes`), or None: for a kind of file whose validator is no
    plugin's (a layout: toolkit.render.layout)."""
    units = active()
    files = units.files if units is not None else None
    if files is None or doc.digest is None:
        return None

    def read(payload: Any) -> Any:
        model = _decoded_made(payload, classes)
        if not fits(model):
            raise ValueError("not a model of this file's kind")
        return model

    return files.get(KIND, f"{FORMAT}\0{name}\0{doc.digest}", read)


def keep_made(name: str, doc: Any, classes: dict[type, tuple[str, ...]], model: Any) -> None:
    """Keep the model the file `doc` validated to (see `kept_made`)."""
    units = active()
    files = units.files if units is not None else None
    if files is None or doc.digest is None or model is None:
        return
    try:
        payload = _encoded_made(model, classes)
    except (NotKept, ValueError, RecursionError):
        return
    files.put(KIND, f"{FORMAT}\0{name}\0{doc.digest}", payload)
