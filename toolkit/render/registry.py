"""A registry of named entries, each declared by its own module with `register` (as the
diagnostic rules are): build artifacts and exports use it.

`load()` imports the modules the toolkit ships; entries come out in the order of those modules,
then in the order others registered theirs (a test file, a game's plugin, a designer's package
imported before the command runs).
"""

from __future__ import annotations

import importlib
import sys
from typing import Generic, Protocol, TypeVar


class Named(Protocol):
    @property
    def name(self) -> str: ...


T = TypeVar("T", bound=Named)


class Registry(Generic[T]):
    def __init__(self, what: str, modules: tuple[str, ...]) -> None:
        self.what = what  # "artifact", "export": for messages
        self.modules = modules
        self.entries: dict[str, T] = {}
        self.origin: dict[str, str] = {}  # entry name → the module that registered it

    def register(self, entry: T) -> T:
        """Add `entry`; the same name twice is a programming error unless it is the same
        entry (a module imported again)."""
        known = self.entries.get(entry.name)
        if known is not None and known != entry:
            raise ValueError(f"{self.what} {entry.name!r} registered twice")
        self.entries[entry.name] = entry
        self.origin[entry.name] = sys._getframe(1).f_globals.get("__name__", "")
        return entry

    def unregister(self, name: str) -> None:
        """Remove an entry (a test that registered its own)."""
        self.entries.pop(name, None)
        self.origin.pop(name, None)

    def load(self) -> dict[str, T]:
        """Every entry: the shipped modules' in their order, then the others'."""
        for module in self.modules:
            importlib.import_module(module)
        rank = {module: i for i, module in enumerate(self.modules)}
        names = sorted(self.entries, key=lambda n: rank.get(self.origin[n], len(rank)))
        return {name: self.entries[name] for name in names}
