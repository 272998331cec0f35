"""What a PO file holds: translation units from every kind of source, one registry.

Each kind (localized YAML fields, layout labels, rulebook Markdown) is one module here that
registers itself (a package outside the toolkit adds one through the `playset.i18n_units`
entry point group): it lists its units for a language and applies accepted translations back
to its own files. The PO export and import (`toolkit.i18n.po`) know only this interface.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar

from toolkit.content.game import Game
from toolkit.content.source import Document
from toolkit.i18n.yaml_edit import Edit, refusal
from toolkit.registry import PluginError, Registry

R = TypeVar("R")


@dataclass(frozen=True)
class Unit:
    """One translatable text: `key` is the msgctxt, stable across reordering."""

    kind: str
    key: str
    source: str  # the msgid: the source language's text
    target: str  # the current translation ("" when there is none)
    file: str  # where the source is, relative to the game folder
    line: int
    notes: tuple[str, ...] = ()
    brace_format: bool = False  # {placeholders}: python-brace-format
    jinja: bool = False  # Jinja code that must come back unchanged


@dataclass(frozen=True)
class Change:
    """An accepted PO entry: the unit and its new translation, with its PO line."""

    unit: Unit
    text: str
    po_line: int


@dataclass
class Applied:
    """What a kind makes of its changes: YAML scalar edits (made together per file by the
    import, so two kinds can edit one file), whole new files, refusals, changes held back,
    and notes for the translator."""

    edits: list[tuple[Document, Edit, Change | None]] = field(default_factory=list)
    texts: dict[Path, str] = field(default_factory=dict)
    applied: list[Change] = field(default_factory=list)
    refused: list[tuple[Change, str]] = field(default_factory=list)
    held: list[Change] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def edit(self, doc: Document, edit: Edit, change: Change) -> None:
        """Plan one scalar edit for `change`, or refuse it when YAML could not keep it (an
        alias, a merge key, a character the file cannot hold)."""
        why = refusal(doc, edit)
        if why is not None:
            self.refused.append((change, why))
        else:
            self.edits.append((doc, edit, change))
            self.applied.append(change)


class UnitKind(Protocol):
    name: str

    def units(self, game: Game, lang: str) -> list[Unit]: ...

    def apply(self, game: Game, lang: str, changes: list[Change]) -> Applied: ...

    def inputs(self, game: Game, lang: str | None) -> list[Path]:
        """The files its units are read from (their dates date the PO file)."""
        ...


KINDS: Registry[UnitKind] = Registry(
    "i18n unit kind",
    package=__name__,
    group="playset.i18n_units",
    accepts=lambda obj: callable(getattr(obj, "units", None)) and hasattr(obj, "name"),
)
register = KINDS.register


def all_units(game: Game, lang: str) -> list[Unit]:
    return [unit for name in KINDS for unit in kind_units(name, game, lang)]


def kind_units(name: str, game: Game, lang: str) -> list[Unit]:
    """The units of the kind `name`: an installed plugin's that fails (raises anything but
    Ctrl-C, or gives something that is not a Unit) is a PluginError naming it."""
    kind = KINDS[name]
    if KINDS.is_builtin(name):
        return kind.units(game, lang)
    units = KINDS.call(name, lambda: list(kind.units(game, lang)))
    wrong = next((unit for unit in units if not isinstance(unit, Unit)), None)
    if wrong is not None:
        raise PluginError(
            f"{KINDS.plugin_name(name)} gave a {type(wrong).__name__}, not a Unit (fix or "
            "uninstall the plugin)"
        )
    return units


def kind_call(name: str, run: Callable[[UnitKind], R]) -> R:
    """`run(kind)` for the kind `name` (its inputs, its apply): an installed plugin's failure
    is a PluginError naming it (a kind without `inputs` was an AttributeError traceback)."""
    kind = KINDS[name]
    return KINDS.call(name, lambda: run(kind))


__all__: list[str] = [
    "KINDS",
    "Applied",
    "Change",
    "Unit",
    "UnitKind",
    "all_units",
    "kind_call",
    "kind_units",
    "register",
]
