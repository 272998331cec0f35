"""The command-line section of the reference: every command and option, read from the
typer app (typer vendors click, so parameters are read by their attributes)."""

from __future__ import annotations

import inspect
from typing import Any

from toolkit.reference.markdown import WITH_PLUGINS, cell, literal

Lines = list[str]


def _param_row(param: Any) -> str:
    if param.param_type_name == "argument":
        name = f"`{(param.metavar or param.name).upper()}`"
    else:
        name = ", ".join(f"`{o}`" for o in [*param.opts, *param.secondary_opts])
    kind = _annotation(getattr(param.type_descriptor, "annotation", None))
    if getattr(param, "is_flag", False):
        kind = "flag"
    if param.multiple or param.nargs == -1:
        kind = f"{kind}, repeatable"
    default = param.default
    shown = "—" if default in (None, (), []) or callable(default) else literal(_plain(default))
    help_text = getattr(param, "help", None) or ""
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if low is not None or high is not None:
        bounds = f"{low if low is not None else ''}–{high if high is not None else ''}"
        help_text = f"{help_text} (range {bounds})".strip()
    return f"| {name} | {cell(kind)} | {cell(shown)} | {cell(help_text)} |"


def _annotation(annotation: Any) -> str:
    """A parameter's Python type as a reader would write it (`Path | None`, `list[str]`)."""
    import enum
    import re

    if annotation is None:
        return "str"
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return " | ".join(f"`{member.value}`" for member in annotation)
    if isinstance(annotation, type):
        return annotation.__name__
    return re.sub(r"\b(?:[a-z_]+\.)+", "", str(annotation)).replace("NoneType", "None")


def _plain(value: Any) -> Any:
    import enum

    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, bool | int | float | str):
        return value
    return str(value)


def cli(root: Any) -> Lines:
    """Every command and its options, from the command line itself (`root`: its click
    command, which the `reference` command takes from its own context: the reference
    never imports the CLI that runs it)."""
    lines: Lines = ["## Command line", ""]
    hidden = _plugin_parts()

    def walk(command: Any, path: str) -> None:
        if hasattr(command, "commands"):  # a group (typer vendors click: duck typing)
            for name in sorted(command.list_commands(None)):  # a group may make its own
                if f"{path} {name}" not in hidden:
                    walk(command.get_command(None, name), f"{path} {name}")
            return
        params = [
            p
            for p in command.params
            if p.name not in ("install_completion", "show_completion", "help")
            and f"{path} --{p.name}" not in hidden
        ]
        lines.append(f"### `{path}`")
        lines.append("")
        text = inspect.cleandoc(command.help or "")
        lines.extend([" ".join(text.split()), ""])
        if params:
            lines.extend(["| parameter | type | default | help |", "| --- | --- | --- | --- |"])
            lines.extend(_param_row(p) for p in params)
            lines.append("")

    walk(root, "playset")
    return lines


def _plugin_parts() -> set[str]:
    """What the installed plugins add to the command line, unless the reference documents
    them (WITH_PLUGINS): `playset export NAME` of their exports, and the `build` options of
    their artifacts' settings (those no built-in artifact declares too)."""
    if WITH_PLUGINS.get():
        return set()
    from toolkit.render.artifacts import REGISTRY as ARTIFACTS
    from toolkit.render.exports import REGISTRY as EXPORTS

    hidden = {f"playset export {name}" for name in EXPORTS.load() if not EXPORTS.is_builtin(name)}
    own = {s.name for a in ARTIFACTS.builtins().values() for s in a.settings}
    for name, artifact in ARTIFACTS.load().items():
        if not ARTIFACTS.is_builtin(name):
            hidden |= {f"playset build --{s.name}" for s in artifact.settings if s.name not in own}
    return hidden
