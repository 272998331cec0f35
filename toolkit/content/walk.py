"""Walk validated models and collect what cross-file checks need.

Fields carry markers (`Declares`, `Ref`, `Localized`) in their type annotations; this walker
reads those markers, so every game's ids, references and texts are found without any
game-specific code.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel

from toolkit.content.game import Game, LoadedFile
from toolkit.content.models.base import Declares, Localized, Ref
from toolkit.content.unit_cache import NotKept, Units, active

DataPath = tuple[Any, ...]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Declared:
    """An id a file declares (`Declares`), where its data holds it."""

    namespace: str
    id: str
    kind: str | None
    file: LoadedFile
    path: DataPath


@dataclass(frozen=True, slots=True)
class Reference:
    """An id a file refers to (`Ref`), where its data holds it (`is_key`: as a key)."""

    namespace: str
    kind: str | None
    id: str
    file: LoadedFile
    path: DataPath
    is_key: bool = False


@dataclass(frozen=True, slots=True)
class Text:
    """A localized text (`Localized`), where its data holds it, with the model holding it."""

    value: dict[str, str]
    file: LoadedFile
    path: DataPath
    owner: BaseModel | None


@dataclass
class Facts:
    """Everything the reference and translation checks look at."""

    declared: list[Declared] = field(default_factory=list)
    refs: list[Reference] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    withheld: set[str] = field(default_factory=set)
    """Ids of entries left out for their schema errors: not unknown, only unchecked."""
    _runs: tuple[list[Text], int, list[tuple[LoadedFile, list[Text]]]] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    _derived: dict[Callable[[Facts], Any], tuple[list[Text], int, list[Reference], int, Any]] = (
        field(default_factory=dict, init=False, repr=False, compare=False)
    )

    def derived(self, work: Callable[[Facts], T]) -> T:
        """`work(self)`, worked out once while `texts` and `refs` are those very lists of
        those lengths: for what several families derive from the facts alone (a run's
        facts live as long as its game; print-fit and the rulebook each walked every text
        for the board phrases' unfilled terms). `work` must read nothing else that changes,
        and its value is shared: never changed by a caller."""
        texts, refs = self.texts, self.refs
        kept = self._derived.get(work)
        if (
            kept is not None
            and (kept[0] is texts and kept[1] == len(texts))
            and (kept[2] is refs and kept[3] == len(refs))
        ):
            value: T = kept[4]
            return value
        value = work(self)
        self._derived[work] = (texts, len(texts), refs, len(refs), value)
        return value

    def by_file(self) -> list[tuple[LoadedFile, list[Text]]]:
        """`texts` in their order, cut into runs of one file each (`collect` adds a file's
        texts together): a check that skips a file whole (toolkit.content.unit_cache.Clean
        by file) asks once a run, not once a text. After one card edit each such check
        went through the ~1,100 texts of a bundled game to skip all but the edited
        file's. Worked out once while `texts` is that very list of that length."""
        texts = self.texts
        kept = self._runs
        if kept is not None and kept[0] is texts and kept[1] == len(texts):
            return kept[2]
        runs: list[tuple[LoadedFile, list[Text]]] = []
        for text in texts:
            if runs and runs[-1][0] is text.file:
                runs[-1][1].append(text)
            else:
                runs.append((text.file, [text]))
        self._runs = (texts, len(texts), runs)
        return runs


def _field_annotation(model: type[BaseModel], name: str) -> Any:
    info = model.model_fields[name]
    if info.metadata:
        annotated: Any = Annotated[(info.annotation, *info.metadata)]
        return annotated
    return info.annotation


_FIELDS: dict[type[BaseModel], tuple[Any, list[tuple[str, Any, bool]]]] = {}
_SHAPES: dict[int, tuple[Any, Any, tuple[Any, ...]]] = {}
"""What the walk asks of a model class (its fields with their annotations) and of an
annotation (its origin and arguments), worked out once per process, not once per value:
typing's introspection was most of a walk (18,000 values in a bundled game's). Each entry
holds what it was worked out from (the class's `model_fields`, the annotation), so it is
used only while that is what it meets."""


def _fields(cls: type[BaseModel]) -> list[tuple[str, Any, bool]]:
    """Each field of a model class with its annotation (markers included) and whether it
    is `_inert`."""
    fields = cls.model_fields
    kept = _FIELDS.get(cls)
    if kept is None or kept[0] is not fields:
        annotated = [(name, _field_annotation(cls, name)) for name in fields]
        kept = _FIELDS[cls] = (fields, [(name, ann, _inert(ann)) for name, ann in annotated])
    return kept[1]


_SCALARS = (str, int, float, bool, type(None))
_MARKERS = (Declares, Ref, Localized)
_MARKER_NAMES = frozenset(kind.__name__ for kind in _MARKERS)


def _inert(ann: Any) -> bool:
    """Whether the walk finds nothing in a scalar value (`_SCALARS`) under `ann`: a scalar
    type, a Literal, a union of such, or one annotated with no marker (nor anything named
    like one, which the walk's `seen` could mistake for one). A model's field of such an
    annotation holding a scalar is not walked: most of a game's values are such."""
    if any(ann is kind for kind in _SCALARS):
        return True
    origin, args = _shape(ann)
    if origin is Literal:
        return True
    if origin is Annotated:
        base, *meta = args
        plain = all(
            not isinstance(m, _MARKERS) and type(m).__name__ not in _MARKER_NAMES for m in meta
        )
        return plain and _inert(base)
    if origin in (Union, types.UnionType):
        return all(_inert(arg) for arg in args)
    return False


def _shape(ann: Any) -> tuple[Any, tuple[Any, ...]]:
    """`get_origin(ann)` and `get_args(ann)`."""
    kept = _SHAPES.get(id(ann))
    if kept is None or kept[0] is not ann:
        kept = _SHAPES[id(ann)] = (ann, get_origin(ann), get_args(ann))
    return kept[1], kept[2]


class _Walker:
    def __init__(self, facts: Facts, file: LoadedFile) -> None:
        self.facts = facts
        self.file = file
        self.seen: set[tuple[str, DataPath]] = set()

    def model(self, value: BaseModel, path: DataPath) -> None:
        for name, ann, inert in _fields(type(value)):
            field_value = getattr(value, name)
            if inert and type(field_value) in _SCALARS:
                continue  # nothing to find in it (`_inert`)
            self.value(field_value, ann, (*path, name), value)

    def value(self, value: Any, ann: Any, path: DataPath, owner: BaseModel | None) -> None:
        if value is None:
            return
        origin, args = _shape(ann)
        if origin is Annotated:
            base, *meta = args
            for marker in meta:
                self.marker(marker, value, path, owner)
            self.value(value, base, path, owner)
        elif origin in (Union, types.UnionType):
            if isinstance(value, BaseModel):
                self.model(value, path)
                return
            for arg in args:
                if arg is not type(None):
                    self.value(value, arg, path, owner)
        elif origin is list and isinstance(value, list):
            (item,) = args or (Any,)
            for i, element in enumerate(value):
                self.value(element, item, (*path, i), owner)
        elif origin is tuple and isinstance(value, tuple):
            for i, element in enumerate(value):
                arg = (
                    args[0]
                    if len(args) == 2 and args[1] is Ellipsis
                    else args[min(i, len(args) - 1)]
                )
                self.value(element, arg, (*path, i), owner)
        elif origin is dict and isinstance(value, dict):
            key_ann, value_ann = args or (Any, Any)
            for key, element in value.items():
                self.key(key, key_ann, (*path, key))
                self.value(element, value_ann, (*path, key), owner)
        elif isinstance(value, BaseModel):
            self.model(value, path)

    def key(self, key: Any, ann: Any, path: DataPath) -> None:
        origin, args = _shape(ann)
        if origin is Annotated:
            for marker in args[1:]:
                if isinstance(marker, Ref) and isinstance(key, str):
                    self.facts.refs.append(
                        Reference(marker.namespace, marker.kind, key, self.file, path, True)
                    )

    def marker(self, marker: Any, value: Any, path: DataPath, owner: BaseModel | None) -> None:
        tag = (type(marker).__name__, path)
        if tag in self.seen:
            return
        self.seen.add(tag)
        if isinstance(marker, Declares) and isinstance(value, str):
            kind = getattr(owner, "kind", None)
            self.facts.declared.append(
                Declared(
                    marker.namespace,
                    value,
                    kind if isinstance(kind, str) else None,
                    self.file,
                    path,
                )
            )
        elif isinstance(marker, Ref) and isinstance(value, str):
            self.facts.refs.append(Reference(marker.namespace, marker.kind, value, self.file, path))
        elif isinstance(marker, Localized) and isinstance(value, dict):
            self.facts.texts.append(Text(value, self.file, path, owner))


def texts_of(loaded: LoadedFile, value: BaseModel, path: DataPath) -> list[Text]:
    """The localized texts of one entry of a file (a card: `path` is its own), as `collect`
    finds them."""
    facts = Facts()
    _Walker(facts, loaded).model(value, path)
    return facts.texts


def valid_files(game: Game) -> Iterator[LoadedFile]:
    for loaded in game.files():
        if loaded.model is not None and loaded.doc is not None:
            yield loaded


def collect(game: Game) -> Facts:
    """Collect declared ids, references and localized texts from every valid file, and
    from the entries of a faulty file that validated on their own (at their file paths).
    With `validate`'s units active, a valid file's facts are those an earlier run found
    in the same bytes (`_kept_walk`): after one card edit only the edited file is walked."""
    facts = Facts()
    units = active()
    for loaded in game.files():
        if loaded.doc is None:
            continue
        if isinstance(loaded.model, BaseModel):  # every content model is one
            name = _walk_name(game, loaded) if units is not None else None
            found = units.get(name, _reader(loaded)) if units and name else None
            if found is None:
                found = Facts()
                _Walker(found, loaded).model(loaded.model, ())
                if units is not None and name is not None:
                    with suppress(NotKept):
                        units.put(name, _kept_walk(found))
            facts.declared += found.declared
            facts.refs += found.refs
            facts.texts += found.texts
        elif loaded.partial is not None:
            part = Facts()
            _Walker(part, loaded).model(loaded.partial.model, ())
            where = loaded.partial.file_path
            facts.declared += [replace(d, path=where(d.path)) for d in part.declared]
            facts.refs += [replace(r, path=where(r.path)) for r in part.refs]
            facts.texts += [replace(t, path=where(t.path)) for t in part.texts]
            facts.withheld |= loaded.partial.withheld
    return facts


WALK = "walk"
"""The kind of a valid file's facts kept as a unit (toolkit.content.unit_cache)."""


def _walk_name(game: Game, loaded: LoadedFile) -> str | None:
    """The unit name of a valid file's facts: the bytes its data was parsed from, the game's
    plugin and the model's class (the model is the validator's pure function of the data;
    the walk, of the model and its class's fields; the code of both is in the units' head).
    None for data not parsed from bytes (a spreadsheet's)."""
    doc = loaded.doc
    if doc is None or doc.digest is None:
        return None
    kind = type(loaded.model)
    return Units.name(WALK, [doc.digest, game.plugin.game_id, kind.__module__, kind.__qualname__])


def _path(path: DataPath) -> list[Any]:
    if not all(type(step) is str or type(step) is int for step in path):
        raise NotKept  # a key JSON would not give back as it was
    return list(path)


def _kept_walk(facts: Facts) -> dict[str, Any]:
    """A file's facts as kept: ids and references whole, texts by their path (read back,
    each text is the model's own mapping again, with the model that holds it)."""
    return {
        "d": [[d.namespace, d.id, d.kind, _path(d.path)] for d in facts.declared],
        "r": [[r.namespace, r.kind, r.id, _path(r.path), r.is_key] for r in facts.refs],
        "t": [_path(t.path) for t in facts.texts],
    }


def _steps(value: Any) -> DataPath:
    if type(value) is not list:
        raise ValueError("not a path")
    for step in value:  # (a loop: ~2,200 paths read back after each card edit)
        if type(step) is not str and type(step) is not int:
            raise ValueError("not a path")
    return tuple(value)


def _optional(value: Any) -> str | None:
    if value is not None and type(value) is not str:
        raise ValueError("not a text")
    return value


def _text_at(model: BaseModel, path: DataPath) -> tuple[dict[str, str], BaseModel]:
    """The localized text at `path` under `model` and the model whose field holds it (the
    walk's `owner`); ValueError when the path leads elsewhere."""
    node: Any = model
    owner = model
    for step in path:
        if isinstance(node, BaseModel):
            owner = node
            # the class's own mapping: what `model_fields` gives, without its descriptor
            if type(step) is not str or step not in type(node).__pydantic_fields__:
                raise ValueError("not a field")
            node = getattr(node, step)
        elif _holds(node, step):
            node = node[step]
        else:
            raise ValueError("not a step")
    if not isinstance(node, dict):
        raise ValueError("not a text")
    return node, owner


def _holds(node: Any, step: str | int) -> bool:
    """Whether a list or tuple has item `step`, or a mapping key `step`."""
    if type(node) in (list, tuple):
        return type(step) is int and 0 <= step < len(node)
    return type(node) is dict and step in node


def _reader(loaded: LoadedFile) -> Callable[[Any], Facts]:
    """Reads a file's kept facts back onto `loaded` (ValueError for another shape)."""

    def read(kept: Any) -> Facts:
        model = loaded.model
        if type(kept) is not dict or not isinstance(model, BaseModel):
            raise ValueError("not facts")
        facts = Facts()
        for namespace, ident, kind, path in kept["d"]:
            if type(namespace) is not str or type(ident) is not str:
                raise ValueError("not a declared id")
            facts.declared.append(Declared(namespace, ident, _optional(kind), loaded, _steps(path)))
        for namespace, kind, ident, path, is_key in kept["r"]:
            if type(namespace) is not str or type(ident) is not str or type(is_key) is not bool:
                raise ValueError("not a reference")
            facts.refs.append(
                Reference(namespace, _optional(kind), ident, loaded, _steps(path), is_key)
            )
        for path in kept["t"]:
            steps = _steps(path)
            value, owner = _text_at(model, steps)
            facts.texts.append(Text(value, loaded, steps, owner))
        return facts

    return read
