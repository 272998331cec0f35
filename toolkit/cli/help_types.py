"""Readable value names in `--help`: TEXT, INTEGER, PATH, nothing for a flag; and shell
completion of values (toolkit.cli.complete) on the same parameter classes.

typer 0.2x labels a value with its Python annotation (`<str>`, `<list[str]>`, `<int range>`)
and gives every flag a `<bool>`. Help shows what users of ruff, yamllint and older typer
expect instead: `TEXT`, `INTEGER`, `NUMBER`, `PATH`, a choice's values, a `metavar` as the
option spells it (`X,Y`), and nothing after a flag. `readable_help(app)` gives every command
and group of an app these labels, so no option has to spell its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, get_args, get_origin

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

VALUE_NAMES: tuple[tuple[type, str], ...] = (
    (bool, "BOOLEAN"),
    (int, "INTEGER"),
    (float, "NUMBER"),
    (str, "TEXT"),
    (Path, "PATH"),
)


def value_name(annotation: Any) -> str:
    """What one value of this annotation is called in help."""
    if get_origin(annotation) is list:
        (item,) = get_args(annotation)
        return value_name(item)
    if get_origin(annotation) is tuple:
        return " ".join(value_name(arg) for arg in get_args(annotation))
    if isinstance(annotation, type):
        for kind, name in VALUE_NAMES:
            if issubclass(annotation, kind):
                return name
    return "VALUE"


def type_label(param: TyperOption | TyperArgument) -> str | None:
    """The help's type column for one parameter; None for a flag."""
    if isinstance(param, TyperOption):
        if param.is_flag or param.count:
            return None
        if param.metavar is not None:
            return param.metavar
    descriptor = param.type_descriptor
    if descriptor.is_choice:
        return "[" + "|".join(str(choice) for choice in descriptor.choices or ()) + "]"
    return value_name(descriptor.annotation)


def _completions(param: Any, ctx: Any, incomplete: str) -> list[Any] | None:
    """The values toolkit.cli.complete suggests for this parameter (None: click's own)."""
    from click.shell_completion import CompletionItem

    from toolkit.cli.complete import values

    found = values(param.name, ctx, incomplete)
    return None if found is None else [CompletionItem(value) for value in found]


_DECIMAL = re.compile(r"0|[1-9][0-9]{0,8}")
"""A number as a command line or an environment variable plainly writes it (`--workers 2`,
`PLAYSET_WORKERS=1`): what pydantic reads as that int; any other text goes to typer."""


def _plain_kind(param: Any) -> str | None:
    """How typer would read this parameter's values when it is one of the plain kinds: a
    flag, a text, a list of texts, an int (bounded by `min`/`max`, not clamped); else None."""
    descriptor = getattr(param, "type_descriptor", None)
    info = getattr(descriptor, "parameter_info", None)
    if descriptor is None or info is None or getattr(descriptor, "file_annotation", None):
        return None
    if getattr(info, "parser", None) is not None or getattr(info, "click_type", None):
        return None
    annotation = descriptor.annotation
    if annotation is bool:  # a bool is passed through by typer itself; no value (None) too
        return "bool"
    if annotation is str:
        return "str"
    if annotation == list[str]:
        return "list"
    if annotation is int and not getattr(info, "clamp", False):
        return "int"
    return None


class _Plain:
    """typer's coercion of a plain parameter's values (`_plain_kind`), given back without
    the pydantic validator typer builds for each parameter it reads: a value already of the
    kind (a text for a text, a list of texts, a plain number within its bounds) comes out as
    typer's validator gives it; anything else (a number out of bounds, an odd spelling) goes
    to typer's own, which says what is wrong in its words. Building those validators (and
    importing what they are built with) was ~15 ms of each `validate` served by its cache,
    ~2 ms of one after a card edit."""

    def __init__(self, param: Any, kind: str, typers: Callable[[], Any]) -> None:
        self.param, self.kind, self.typers = param, kind, typers

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        multi = param.multiple or param.nargs == -1
        if value is None:  # as typer's RuntimeParam.coerce, before any validator
            return () if multi else None
        if self.kind == "str" and type(value) is str and not multi:
            return value
        if (
            self.kind == "list"
            and type(value) in (list, tuple)
            and all(type(item) is str for item in value)
        ):
            return list(value)
        if self.kind == "int" and not multi:
            number = _plain_number(value)
            info = param.type_descriptor.parameter_info
            low, high = getattr(info, "min", None), getattr(info, "max", None)
            if (
                number is not None
                and (low is None or number >= low)
                and (high is None or number <= high)
            ):
                return number
        return self.typers().coerce(value, param=param, ctx=ctx)


def _plain_number(value: Any) -> int | None:
    if type(value) is int:
        return value
    if type(value) is str and _DECIMAL.fullmatch(value):
        return int(value)
    return None


def _runtime_param(param: Any, typers: Callable[[], Any]) -> Any:
    """What reads `param`'s values: for a plain kind, `_Plain` (typer's own, `typers()`, made
    only for a value it must read itself); else typer's own."""
    if getattr(param, "_runtime_param", None) is not None:
        return typers()
    kind = _plain_kind(param)
    return typers() if kind is None else _Plain(param, kind, typers)


class ReadableOption(TyperOption):
    def get_runtime_param(self) -> Any:
        return _runtime_param(self, super().get_runtime_param)

    def display_type_rich(self, ctx: Any) -> str | None:
        return type_label(self)

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        found = _completions(self, ctx, incomplete)
        return super().shell_complete(ctx, incomplete) if found is None else found


class ReadableArgument(TyperArgument):
    def get_runtime_param(self) -> Any:
        return _runtime_param(self, super().get_runtime_param)

    def display_type_rich(self, ctx: Any) -> str | None:
        return type_label(self)

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        found = _completions(self, ctx, incomplete)
        return super().shell_complete(ctx, incomplete) if found is None else found


def _readable_params(params: list[Any]) -> list[Any]:
    # typer makes its own parameter objects and has no hook for their labels: each one,
    # help option included, takes the subclass that only changes the label.
    for param in params:
        if type(param) is TyperOption:
            param.__class__ = ReadableOption
        elif type(param) is TyperArgument:
            param.__class__ = ReadableArgument
    return params


class ReadableCommand(TyperCommand):
    def get_params(self, ctx: Any) -> list[Any]:
        return _readable_params(super().get_params(ctx))


class ReadableGroup(TyperGroup):
    def get_params(self, ctx: Any) -> list[Any]:
        return _readable_params(super().get_params(ctx))


def readable_help(app: typer.Typer) -> typer.Typer:
    """`app`, its commands and its groups (recursively) made to show readable labels; a
    command or group that names its own class keeps it."""
    app.info.cls = _readable(app.info.cls, TyperGroup, ReadableGroup)
    for command in app.registered_commands:
        command.cls = _readable(command.cls, TyperCommand, ReadableCommand)
    for group in app.registered_groups:
        own = group.typer_instance.info.cls if group.typer_instance is not None else None
        group.cls = _readable(group.cls, TyperGroup, _readable(own, TyperGroup, ReadableGroup))
        if group.typer_instance is not None:
            readable_help(group.typer_instance)
    return app


def _readable(cls: Any, plain: type, readable: type) -> Any:
    from typer.models import DefaultPlaceholder

    return readable if cls is None or cls is plain or isinstance(cls, DefaultPlaceholder) else cls
