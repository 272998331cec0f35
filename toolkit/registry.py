"""One registry shape for every extension point: named entries, in order, found in a package
and in one entry-point group.

Rules, check families, element kinds, board kinds, artifacts, exports, metrics, i18n unit kinds
and game plugins are each a `Registry`. An entry is declared by its own module with
`register` (as ruff's and yamllint's rules are); `load()` imports every module of the
registry's package (so adding one is adding a module, and nothing else; a module that does not
register may expose its entry as `attribute`, as a game's package exposes PLUGIN) and loads the
registry's entry-point group (`playset.exports`, …), where a package outside the toolkit names
an entry or a module that registers its own. Entries come out by their rank, then in the order
their modules were found (the package's in name order, then the entry points by name), then
in the order they registered.

This module sits below every room of the toolkit: it imports nothing of it.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
import sysconfig
import traceback
from collections.abc import Callable, Iterable, Iterator
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Generic, TypeVar

T = TypeVar("T")

EntryPoints = Callable[[str], Iterable[EntryPoint]]


_ALL_POINTS: list[Any] = []  # every installed entry point, read once per process


def _entry_points(group: str) -> Iterable[EntryPoint]:
    """The entry points of `group`: the installed distributions are read once for every
    registry (each read is ~20 ms, and a command consults most registries)."""
    if not _ALL_POINTS:
        _ALL_POINTS.append(entry_points())
    return list(_ALL_POINTS[0].select(group=group))


def spare_pydantic_scan() -> None:
    """pydantic finds its plugins by reading every installed distribution's entry points
    again (~15 ms), the first time it makes a validator. The registries read them all once
    already: with none in pydantic's group, pydantic is told it has no plugins, which is what
    its own scan would find; with some, pydantic scans and loads them as ever."""
    if any(True for _ in _entry_points("pydantic")):
        return
    from pydantic.plugin import _loader

    if getattr(_loader, "_plugins", {}) is None and not getattr(_loader, "_loading_plugins", True):
        _loader._plugins = {}


class Registry(Generic[T]):
    """Named entries of one extension point.

    `key` names an entry (default: its `name`); `rank` orders it before discovery order (a
    built-in that must come first); `accepts` says whether an object an entry point loads is
    an entry (else it is a module that registered its entries itself); `check` refuses a
    malformed entry with an exception."""

    def __init__(
        self,
        what: str,
        *,
        package: str | None = None,
        group: str | None = None,
        key: Callable[[T], str] | None = None,
        rank: Callable[[T], float] | None = None,
        accepts: Callable[[Any], bool] | None = None,
        check: Callable[[T], None] | None = None,
        same: Callable[[T, T], bool] | None = None,
        attribute: str | None = None,
    ) -> None:
        self.what = what  # "artifact", "export": for messages
        self.package = package
        self.group = group
        self._key = key or (lambda entry: str(getattr(entry, "name")))  # noqa: B009
        self._rank = rank
        self._accepts = accepts
        self._check = check
        self._same = same or (lambda a, b: a == b)
        self._attribute = attribute  # a package module's entry, when it does not register
        self._entries: dict[str, T] = {}
        self._origin: dict[str, tuple[str, ...]] = {}  # entry name → the modules registering it
        self._seq: dict[str, int] = {}
        self._counter = 0
        self._modules: list[str] = []  # discovery order of the modules found
        self._found = False
        self._listeners: list[Callable[[], None]] = []
        self.broken: dict[str, str] = {}
        """Entry points that failed to load, by name: why (their entries are missing)."""
        self.broken_at: dict[str, tuple[str, int]] = {}
        """Where a broken entry point's import failed in its own code (file, line), if it
        did there (a missing module has no such place)."""
        self.entry_points: EntryPoints = _entry_points
        self._home = _caller_modules()[:1]  # where the registry is made: not an entry's origin

    # ---------------------------------------------------------------- declaring entries

    def register(self, entry: T) -> T:
        """Add `entry` (usable as a decorator); the same name twice is a programming error
        unless it is the same entry (a module imported again)."""
        return self._add(entry, tuple(m for m in _caller_modules() if m not in self._home))

    def _add(self, entry: T, origin: tuple[str, ...]) -> T:
        if self._check is not None:
            self._check(entry)
        name = self._key(entry)
        known = self._entries.get(name)
        if known is not None:
            if not self._same(known, entry):
                raise ValueError(f"{self.what} {name!r} registered twice")
            return known
        self._entries[name] = entry
        self._origin[name] = origin
        self._seq[name] = self._counter
        self._counter += 1
        self._changed()
        return entry

    def unregister(self, name: str) -> None:
        """Remove an entry (a test that registered its own)."""
        if self._entries.pop(name, None) is not None:
            self._origin.pop(name, None)
            self._seq.pop(name, None)
            self._changed()

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call `listener` whenever an entry comes or goes (caches built from the entries)."""
        self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in self._listeners:
            listener()

    # ---------------------------------------------------------------- finding entries

    def load(self) -> dict[str, T]:
        """Every entry by name, in order: the package's modules and the entry points are
        imported the first time."""
        self.discover()
        return self.registered()

    def registered(self) -> dict[str, T]:
        """The entries registered so far, in order, without importing anything."""
        where = {module: i for i, module in enumerate(self._modules)}
        last = len(where)

        def order(name: str) -> tuple[float, int, int]:
            rank = self._rank(self._entries[name]) if self._rank is not None else 0.0
            found = (where[m] for m in self._origin[name] if m in where)
            return (rank, next(found, last), self._seq[name])

        return {name: self._entries[name] for name in sorted(self._entries, key=order)}

    def discover(self) -> None:
        """Import the package's modules (in name order) and the entry-point group, once."""
        if self._found:
            return
        self._found = True
        if self.package is not None:
            for module in package_modules(self.package):
                self._import(module)
        if self.group is not None:
            for point in sorted(self.entry_points(self.group), key=_point_name):
                self._load_point(point)

    def rediscover(self) -> None:
        """Look at the entry points again (a package installed since, in tests)."""
        _ALL_POINTS.clear()
        self._found = False
        self._modules.clear()
        self.broken.clear()
        self.broken_at.clear()
        self.discover()

    def discover_one(self, name: str) -> None:
        """Look only for the entry called `name`: its entry point, else the package's module
        of that name (`-` read as `_`), if there is one (a game's plugin, without the
        others)."""
        if self._found:
            return
        if self.group is not None:
            for point in self.entry_points(self.group):
                if _point_name(point) == name:
                    self._load_point(point)
        if name not in self._entries and self.package is not None:
            module = f"{self.package}.{name.replace('-', '_')}"
            if module.rpartition(".")[2].isidentifier() and module in package_modules(self.package):
                self._import(module)

    def _import(self, module: str) -> None:
        if module not in self._modules:
            self._modules.append(module)
        found = importlib.import_module(module)
        entry = getattr(found, self._attribute, None) if self._attribute else None
        if entry is not None and self._accepts is not None and self._accepts(entry):
            self._add(entry, (module,))

    def _load_point(self, point: EntryPoint) -> None:
        module = str(getattr(point, "module", ""))
        self._modules.append(module)
        try:
            loaded = point.load()
        except (Exception, SystemExit) as exc:  # a third party's broken import (or its
            # sys.exit(), which would end the command silently) must not crash a command
            try:
                text = str(exc)
            except Exception:  # noqa: BLE001 - the plugin's own __str__ failed
                text = ""
            self.broken[_point_name(point)] = (
                f"{type(exc).__name__}: {text}" if text else type(exc).__name__
            )
            place = _own_frame(exc)
            if place is not None:
                self.broken_at[_point_name(point)] = place
            return
        if self._accepts is not None and self._accepts(loaded):
            self._add(loaded, (module,))

    # ---------------------------------------------------------------- reading entries

    def __getitem__(self, name: str) -> T:
        return self.load()[name]

    def get(self, name: str) -> T | None:
        return self.load().get(name)

    def __contains__(self, name: object) -> bool:
        return name in self.load()

    def __iter__(self) -> Iterator[str]:
        return iter(self.load())

    def __len__(self) -> int:
        return len(self.load())

    def values(self) -> list[T]:
        return list(self.load().values())

    def items(self) -> list[tuple[str, T]]:
        return list(self.load().items())

    def origin(self, name: str) -> str:
        """The module that registered `name`."""
        return self._origin[name][0] if self._origin[name] else ""


def _own_frame(exc: BaseException) -> tuple[str, int] | None:
    """The innermost frame of a failed import in the plugin's own code: not Python's
    (importlib, the standard library) and not this module's."""
    stdlib = sysconfig.get_paths().get("stdlib", "\0")
    found = None
    for frame in traceback.extract_tb(exc.__traceback__):
        file = frame.filename
        if file.startswith("<") or file == __file__ or not frame.lineno:
            continue
        if os.path.dirname(file).startswith(stdlib) and "-packages" not in file:
            continue
        found = (file, frame.lineno)
    return found


def _point_name(point: EntryPoint) -> str:
    return str(getattr(point, "name", ""))


def package_modules(package: str) -> list[str]:
    """The modules and subpackages of `package`, in name order (private ones, `_x`, left
    out)."""
    found = importlib.import_module(package)
    paths = getattr(found, "__path__", None)
    if paths is None:
        return []
    names = sorted(
        info.name for info in pkgutil.iter_modules(paths) if not info.name.startswith("_")
    )
    return [f"{package}.{name}" for name in names]


def _caller_modules() -> tuple[str, ...]:
    """The modules on the stack of a `register` call, innermost first (the entry's own
    module may be a few frames up, behind a helper such as `rule()` or a decorator)."""
    names: list[str] = []
    frame = sys._getframe(1)
    while frame is not None and len(names) < 12:
        name = str(frame.f_globals.get("__name__", ""))
        if name != __name__ and (not names or names[-1] != name):
            names.append(name)
        frame = frame.f_back  # type: ignore[assignment]
    return tuple(names)
