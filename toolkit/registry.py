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

import contextlib
import functools
import importlib
import os
import pkgutil
import re
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

T = TypeVar("T")
R = TypeVar("R")

EntryPoints = Callable[[str], Iterable["EntryPoint"]]


_ALL_POINTS: list[dict[str, list[Any]]] = []  # every installed entry point by group, read once


def _entry_points(group: str) -> Iterable[EntryPoint]:
    """The entry points of `group`: the installed distributions are read once for every
    registry (each read is ~20 ms, and a command consults most registries)."""
    if not _ALL_POINTS:
        _ALL_POINTS.append(_read_points())
    return list(_ALL_POINTS[0].get(group, ()))


class Point:
    """An installed entry point as `importlib.metadata.EntryPoint` gives it (name, value,
    group; `module`, `attr`, `load()` read the value with its pattern), made without
    importing `importlib.metadata` (which imports `email`, `socket`, `csv`, `zipfile`…:
    ~70 modules, ~15 ms of a cold build, for the 20 lines read here)."""

    pattern = re.compile(
        r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$"
    )

    def __init__(self, name: str, value: str, group: str) -> None:
        self.name, self.value, self.group = name, value, group

    def load(self) -> Any:
        match = self.pattern.match(self.value)
        module = importlib.import_module(match.group("module"))  # type: ignore[union-attr]
        attrs = filter(None, (match.group("attr") or "").split("."))  # type: ignore[union-attr]
        return functools.reduce(getattr, attrs, module)

    @property
    def module(self) -> str:
        return self.pattern.match(self.value).group("module")  # type: ignore[union-attr]

    @property
    def attr(self) -> str | None:
        return self.pattern.match(self.value).group("attr")  # type: ignore[union-attr]

    def __repr__(self) -> str:
        return f"EntryPoint(name={self.name!r}, value={self.value!r}, group={self.group!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Point):
            return NotImplemented
        return (self.name, self.value, self.group) == (other.name, other.value, other.group)

    def __hash__(self) -> int:
        return hash((self.name, self.value, self.group))


class _Unusual(Exception):
    """Something `_read_points` does not read as `importlib.metadata` would: ask it."""


def _read_points() -> dict[str, list[Any]]:
    """Every installed entry point by group, in the order `importlib.metadata.entry_points()`
    gives them. It reads what Python's own path finder finds (each `sys.path` folder's
    `*.dist-info` / `*.egg-info` folders, a distribution once by its normalised name, the
    first found, and their `entry_points.txt`); anything else (another finder of
    distributions, a zip or egg on the path, a metadata folder whose name does not give the
    distribution's) is left to `importlib.metadata`. An `entry_points.txt` that cannot be read
    (a line without `=`, bytes that are not UTF-8: `importlib.metadata` raises on it, for
    every distribution) leaves its distribution's entry points out, with a warning line."""
    try:
        return _read_points_plainly()
    except _Unusual:
        return _read_points_through_importlib()


def _read_points_through_importlib() -> dict[str, list[Any]]:
    """`importlib.metadata.entry_points()` by group. One distribution whose
    `entry_points.txt` it cannot read makes it raise for all of them: each distribution is
    then read on its own, and the unreadable ones are left out with a warning, as
    `_read_points_plainly` leaves them out."""
    from importlib import metadata

    try:
        every = metadata.entry_points()
        return {group: list(every.select(group=group)) for group in sorted(every.groups)}
    except Exception:  # noqa: BLE001 - one bad distribution: read them one by one
        pass
    points: list[Any] = []
    try:
        unique: Callable[[Any], Iterable[Any]] = getattr(metadata, "_unique", lambda d: d)
        for dist in unique(metadata.distributions()):
            try:
                points.extend(dist.entry_points)
            except Exception as exc:  # noqa: BLE001 - its file, not the command, is broken
                _say_unreadable(str(getattr(dist, "_path", "") or _dist_name(dist)), exc)
    except Exception as exc:  # noqa: BLE001 - the environment itself cannot be read
        say(
            f"warning: the installed distributions cannot be read ({describe(exc)}); "
            "no plugin is loaded"
        )
        return {}
    return _grouped(points)


def _dist_name(dist: Any) -> str:
    try:
        return str(dist.metadata["Name"])
    except Exception:  # noqa: BLE001 - named as unknown
        return "?"


def _say_unreadable(where: str, exc: BaseException) -> None:
    say(
        f"warning: the entry points of the installed distribution {where} cannot be read "
        f"({exc if isinstance(exc, _Malformed) else describe(exc)}); they are left out "
        "(fix or uninstall it)"
    )


class _Malformed(Exception):
    """An `entry_points.txt` that `importlib.metadata` cannot read either."""


def _normalize(name: str) -> str:
    """importlib.metadata's normalised name (`re.sub(r"[-_.]+", "-", name).lower()`, its `-`
    then `_`): runs of `-`, `_` and `.` made one `_`. A name with no `-`, no `.` and no `__`
    is its lower case as it is, without the pattern (~4 us a call, two calls for each of the
    ~130 distributions of a development environment, on every command)."""
    low = name.lower()
    if "-" not in low and "." not in low and "__" not in low:
        return low
    return re.sub(r"[-_.]+", "_", low)


def _read_points_plainly() -> dict[str, list[Any]]:
    from importlib.machinery import PathFinder

    finders = [f for f in sys.meta_path if getattr(f, "find_distributions", None) is not None]
    if finders != [PathFinder]:  # another finder, or Python's turned off (as the
        raise _Unusual  # importlib_metadata backport does when imported)
    seen: set[str] = set()
    points: list[Point] = []
    unreadable: list[tuple[str, Exception]] = []
    for root in sys.path:
        if not isinstance(root, str) or root.lower().endswith(".egg"):
            raise _Unusual
        try:
            children = os.listdir(root or ".")
        except Exception:  # noqa: BLE001 - importlib's own suppress; a zip it would read
            if os.path.isfile(root):
                raise _Unusual from None
            continue
        found: dict[str, list[str]] = {}  # importlib's Lookup: grouped by normalised name
        for child in children:
            low = child.lower()
            if low.endswith((".dist-info", ".egg-info")):
                found.setdefault(_normalize(low.rpartition(".")[0].partition("-")[0]), []).append(
                    child
                )
        for child in (child for group in found.values() for child in group):
            stem, ext = os.path.splitext(child)
            if ext not in (".dist-info", ".egg-info"):
                raise _Unusual  # its name comes from its METADATA
            name = _normalize(stem.partition("-")[0])
            if name in seen:
                continue
            seen.add(name)
            try:
                with open(os.path.join(root, child, "entry_points.txt"), encoding="utf-8") as f:
                    text = f.read()
                points.extend(_parse_points(text))
            except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
                continue
            except Exception as exc:  # noqa: BLE001 - importlib raises it: left out instead
                unreadable.append((os.path.join(root, child), exc))
    for where, error in unreadable:  # said once the path is read as Python's (else importlib
        _say_unreadable(where, error)  # reads it all again, and says them itself)
    return _grouped(points)


def _grouped(points: Iterable[Any]) -> dict[str, list[Any]]:
    grouped: dict[str, list[Any]] = {}
    for point in sorted(points, key=lambda point: point.group):
        grouped.setdefault(point.group, []).append(point)
    return grouped


def _parse_points(text: str) -> list[Point]:
    """importlib.metadata's `Sectioned.section_pairs` of an `entry_points.txt`."""
    section = None
    points = []
    for number, line in enumerate(map(str.strip, text.splitlines()), 1):
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
            continue
        if section is None:
            continue
        name, sep, value = line.partition("=")
        if not sep:  # importlib raises a TypeError
            raise _Malformed(f"line {number} has no '=': {cut(line)[:80]!r}")
        points.append(Point(name.strip(), value.strip(), section))
    return points


def spare_pydantic_scan() -> None:
    """pydantic finds its plugins by reading every installed distribution's entry points
    again (~15 ms), the first time it makes a validator. The registries read them all once
    already: with none in pydantic's group, pydantic is told it has no plugins, which is what
    its own scan would find; with some, pydantic scans and loads them as ever.

    Its plugin loader imports `importlib.metadata` when it is imported (~15 ms and ~30
    modules more, for a scan that then never runs): the loader is run from its own source
    with that one import made when its `entry_points` is first called instead, and that
    first call asks the registries' reading whether pydantic's group has any entry point at
    all. Not imported yet, the loader is made so when something imports it (`_SpareFinder`):
    a command that builds no validator (a `validate` served by its cache) then imports
    neither pydantic nor reads the entry points (~25 ms). Any other source of the loader is
    imported as it is."""
    loaded: Any = sys.modules.get(_LOADER)
    if loaded is None:
        if not any(type(finder) is _SpareFinder for finder in sys.meta_path):
            sys.meta_path.insert(0, _SpareFinder())
        return
    if any(True for _ in _entry_points("pydantic")):
        return
    if getattr(loaded, "_plugins", {}) is None and not getattr(loaded, "_loading_plugins", True):
        loaded._plugins = {}


_LOADER = "pydantic.plugin._loader"
_METADATA_IMPORT = "from importlib.metadata import entry_points\n"


def _metadata_entry_points(**params: Any) -> Any:
    """`importlib.metadata.entry_points`, imported when first called."""
    from importlib.metadata import entry_points

    return entry_points(**params)


def _pydantic_entry_points(**params: Any) -> Any:
    """The entry points pydantic's loader asks for (its group's): none when the registries'
    one reading finds none in pydantic's group (what `importlib.metadata` would give, read
    once for every registry), else `importlib.metadata`'s, as pydantic reads them."""
    if not any(True for _ in _entry_points("pydantic")):
        return ()
    return _metadata_entry_points(**params)


class _SpareFinder:
    """Finds pydantic's plugin loader when it is first imported, as its own source with the
    `importlib.metadata` import taken out (`_SpareLoader`); steps aside after that one import
    (or when the source is not as expected: then it is imported as ever)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != _LOADER:
            return None
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(self)
        try:
            from importlib.machinery import PathFinder

            spec: Any = PathFinder.find_spec(name, path)
            loader: Any = spec.loader if spec is not None else None
            if spec is None or spec.origin is None or loader is None:
                return None
            source = loader.get_source(name)
            if not isinstance(source, str) or source.count(_METADATA_IMPORT) != 1:
                return None
            code = compile(
                source.replace(_METADATA_IMPORT, "\n"), spec.origin, "exec", dont_inherit=True
            )
        except Exception:  # noqa: BLE001 - imported as ever instead
            return None
        spec.loader = _SpareLoader(code)
        return spec


class _SpareLoader:
    """Runs pydantic's plugin loader from its source (`_SpareFinder`), its `entry_points`
    the registries' (`_pydantic_entry_points`)."""

    def __init__(self, code: Any) -> None:
        self.code = code

    def create_module(self, spec: Any) -> None:
        return None  # the default module

    def exec_module(self, module: Any) -> None:
        module.entry_points = _pydantic_entry_points
        exec(self.code, module.__dict__)  # noqa: S102 - pydantic's own module source


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
        reports_broken: bool = False,
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
        self.reports_broken = reports_broken
        """Whether the registry's user reports its broken entry points (check families as
        E008, game plugins as E007); else each is a warning on stderr when found."""
        self._points: dict[str, Any] = {}  # entry name → the entry point that brought it
        self._loading: Any = None  # the entry point being loaded
        self.entry_points: EntryPoints = _entry_points
        self._home = _caller_modules()[:1]  # where the registry is made: not an entry's origin

    # ---------------------------------------------------------------- declaring entries

    def register(self, entry: T) -> T:
        """Add `entry` (usable as a decorator); the same name twice is a programming error
        unless it is the same entry (a module imported again). An entry registered from
        outside the toolkit before the built-ins were looked for has them found first: else
        it would take a built-in's name unseen, and the built-in's own module would then fail
        to register, leaving the registry without the rest of them."""
        origin = tuple(m for m in _caller_modules() if m not in self._home)
        if not self._found and not _builtin(origin):
            self.discover()
        return self._add(entry, origin)

    def _add(self, entry: T, origin: tuple[str, ...]) -> T:
        if self._check is not None:
            self._check(entry)
        name = self._key(entry)
        known = self._entries.get(name)
        if known is not None:
            if self._same(known, entry):
                return known
            if self._loading is not None or not _builtin(origin) or self.is_builtin(name):
                raise ValueError(f"{self.what} {name!r} registered twice")
            # a built-in registered after a plugin's entry of its name (a rule declared by
            # a module imported late, the plugin's brought by this registry's entry points
            # or imported earlier through another's): the built-in wins, the plugin's entry
            # is left out, named
            why = f"its {self.what} {name!r} takes a built-in one's name"
            point = self._points.get(name)
            if point is not None:
                self._set_broken(point, why)
            else:
                self._set_broken_module(name, self.origin(name) or "?", why)
            self.unregister(name)
        self._entries[name] = entry
        self._origin[name] = origin
        if self._loading is not None and not _builtin(origin):  # Playset's own entry points
            self._points[name] = self._loading  # (its bundled games) bring built-ins
        self._seq[name] = self._counter
        self._counter += 1
        self._changed()
        return entry

    def unregister(self, name: str) -> None:
        """Remove an entry (a test that registered its own)."""
        if self._entries.pop(name, None) is not None:
            self._origin.pop(name, None)
            self._seq.pop(name, None)
            self._points.pop(name, None)
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
            try:
                for module in package_modules(self.package):
                    self._import(module)
            except BaseException:
                self._found = False  # a built-in that fails to import fails every time, not
                raise  # once, leaving the registry without the modules after it
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
        self.discover_builtin(name)

    def discover_builtin(self, name: str) -> None:
        """Import only the package's module called `name` (`-` read as `_`), if there is one,
        unless an entry of that name is registered or every entry was looked for: a built-in
        entry found alone, no entry point loaded (a built-in entry is never replaced by one
        found later, see `_add`; the other modules are imported, in their order, when every
        entry is asked for)."""
        if self._found or name in self._entries or self.package is None:
            return
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
        """Import an entry point and add its entry. Whatever it does wrong (its import
        raises, even a BaseException of its own or a `sys.exit()`, which ended the command
        silently; its entry is malformed or takes a name already registered, and the
        built-in stays) leaves it out, noted in `broken`; only Ctrl-C goes through."""
        module = str(getattr(point, "module", ""))
        self._modules.append(module)
        loading, self._loading = self._loading, point
        try:
            with plugin_code():
                loaded = point.load()
                if self._accepts is not None and self._accepts(loaded):
                    self._add(loaded, (module,))
        except BaseException as exc:  # noqa: BLE001 - a plugin must not end the command
            if isinstance(exc, KeyboardInterrupt):
                raise
            self._set_broken(point, describe(exc), _own_frame(exc))
        finally:
            self._loading = loading

    def _set_broken_module(self, name: str, module: str, why: str) -> None:
        """A plugin module that registered an entry here while it was imported for another
        registry's entry point (a game plugin declaring a rule): left out as an entry point
        of this registry is, named by its module."""
        self.broken[module] = why
        if not self.reports_broken:
            say(
                f"warning: the {self.what} {name!r} that module `{module}` registers is left"
                f" out: it takes a built-in one's name (fix or uninstall the plugin)"
            )

    def _set_broken(
        self, point: EntryPoint, why: str, place: tuple[str, int] | None = None
    ) -> None:
        name = _point_name(point)
        self.broken[name] = why
        if place is not None:
            self.broken_at[name] = place
        if not self.reports_broken:
            value = str(getattr(point, "value", ""))
            group = str(getattr(point, "group", self.group))
            say(
                f"warning: the installed {self.what} {name!r} (entry point `{name} = {value}` "
                f"of `{group}`) is left out: {why} (fix or uninstall the plugin)"
            )

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

    def is_builtin(self, name: str) -> bool:
        """Whether `name` is one of Playset's own entries, not an installed plugin's."""
        return name not in self._points and _builtin(self._origin.get(name, ()))

    def builtins(self) -> dict[str, T]:
        """The built-in entries by name, in order (what the reference documents: the plugins
        a developer has installed are not Playset's)."""
        return {name: entry for name, entry in self.load().items() if self.is_builtin(name)}

    def plugin_name(self, name: str) -> str:
        """An entry as a message names it: the artifact 'x' (module, entry point `x = …`)."""
        point = self._points.get(name)
        where = self.origin(name) if name in self._origin else ""
        if point is not None:
            value = str(getattr(point, "value", ""))
            where = f"{where}, entry point `{_point_name(point)} = {value}`"
        return f"the {self.what} {name!r} ({where or '?'})"

    def call(self, name: str, run: Callable[[], R]) -> R:
        """`run()`, an entry's own code: for a plugin's entry, with its print() on stderr and
        the working folder kept (see `plugin_code`), and whatever it raises but Ctrl-C made
        one PluginError naming it. A built-in's error passes as it is (a bug to report)."""
        if self.is_builtin(name):
            return run()
        try:
            with plugin_code():
                return run()
        except BaseException as exc:  # noqa: BLE001 - a plugin must not end the command
            if isinstance(exc, KeyboardInterrupt):
                raise
            raise PluginError(
                f"{self.plugin_name(name)} failed: {describe(exc)} (fix or uninstall the plugin)"
            ) from exc


class PluginError(Exception):
    """An installed plugin's entry failed when it was called: the message names it."""


def _builtin(origin: tuple[str, ...]) -> bool:
    return bool(origin) and origin[0].partition(".")[0] == __name__.partition(".")[0]


MAX_MESSAGE = 500  # characters of a plugin's exception message shown


def cut(text: str) -> str:
    """A plugin's text cut to MAX_MESSAGE characters."""
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE] + f"… ({len(text)} characters)"


def describe(exc: BaseException) -> str:
    """`Type: message` of a plugin's exception; one whose str() raises is named alone."""
    name = type(exc).__name__
    try:
        text = str(exc)
    except Exception:  # noqa: BLE001 - the plugin's own __str__ failed
        text = ""
    return f"{name}: {cut(text)}" if text else name


_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def say(text: str) -> None:
    """One line on stderr, its control characters escaped (never stdout: it holds a JSON or
    SARIF report, or an editor's messages)."""
    stream = sys.stderr if sys.stderr is not None else sys.__stderr__
    if stream is None:
        return
    shown = _CONTROLS.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
    with contextlib.suppress(Exception):
        stream.write(shown + "\n")
        stream.flush()


@contextlib.contextmanager
def plugin_code() -> Iterator[None]:
    """While a plugin's code runs: what it prints goes to stderr (stdout holds a JSON or
    SARIF report, or the editor's messages), and the working folder it may change is put
    back after it (a check's os.chdir made `build --out relout` write to another folder)."""
    with same_folder(), contextlib.redirect_stdout(sys.stderr):
        yield


@contextlib.contextmanager
def same_folder() -> Iterator[None]:
    """The working folder put back after a plugin's code ran, whatever it did (an element
    kind's os.chdir while drawing left `build` and every later face in that folder). Only
    the folder: stdout is the process's, which threads (the preview's) share."""
    here: int | None = None
    if hasattr(os, "fchdir"):
        with contextlib.suppress(OSError):
            here = os.open(".", os.O_RDONLY)
    try:
        yield
    finally:
        if here is not None:
            with contextlib.suppress(OSError):
                os.fchdir(here)
            os.close(here)


def _own_frame(exc: BaseException) -> tuple[str, int] | None:
    """The innermost frame of a failed import in the plugin's own code: not Python's
    (importlib, the standard library) and not this module's."""
    import sysconfig

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


def culprit(exc: BaseException, *registries: Registry[Any]) -> str | None:
    """The installed plugin entry of `registries` whose own code raised `exc` (the innermost
    frame of its traceback in a plugin entry's module), as messages name it; None when no
    plugin's code is on its traceback (Playset's own error: a bug to report as it is). Read
    only once something failed: nothing is paid while all goes well."""
    files: dict[str, str] = {}
    for registry in registries:
        for name in registry.registered():
            if registry.is_builtin(name):
                continue
            module = sys.modules.get(registry.origin(name))
            file = getattr(module, "__file__", None)
            if isinstance(file, str):
                files.setdefault(file, registry.plugin_name(name))
    if not files:
        return None
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename in files:
            return files[frame.filename]
    return None
