"""`playset export <name>`: one command per registered export (card images, Tabletop
Simulator saves, …), drawn from build's pages.

The commands and their options are made from the export registry
(`toolkit.render.exports`) when the group runs: importing the exports brings in the drawing
code, too slow for every command's start.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import sys
import time
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from toolkit.cli.common import (
    GAME_HELP,
    escape,
    folder_option,
    game_folders,
    gated_game,
    language_list,
    stderr,
    usage_error,
)
from toolkit.cli.help_types import ReadableGroup, readable_help


class _Exports(ReadableGroup):
    """The `export` group: its commands come from the registry the first time it is asked
    for them (each run of the command line makes a new group, so a new export shows)."""

    def _fill(self) -> None:
        if getattr(self, "_filled", False):
            return
        self._filled = True
        from toolkit.render.exports import exports

        made = typer.Typer()
        for export in exports().values():
            made.command(export.name, help=export.help or export.summary)(_command(export))
        group = typer.main.get_group(readable_help(made))
        for name, command in group.commands.items():
            self.commands.setdefault(name, command)

    def list_commands(self, ctx: Any) -> list[str]:
        self._fill()
        return sorted(self.commands)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        self._fill()
        return super().get_command(ctx, cmd_name)


app = typer.Typer(
    help="Images and virtual-table files drawn from the printed pages.",
    cls=_Exports,
)

GamesArg = Annotated[list[str] | None, typer.Argument(help=GAME_HELP)]
LangOpt = Annotated[str | None, typer.Option(help="Languages, e.g. fr,es (default: all).")]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        help="Output folder (default: ./output in the current folder).", parser=folder_option
    ),
]


class _Bar:
    """A progress bar on stderr that appears only once an export has run for a second."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.start = time.perf_counter()
        self.bar: Any = None
        self.task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            if time.perf_counter() - self.start < 1.0 or not sys.stderr.isatty():
                return
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

            self.bar = Progress(
                "[progress.description]{task.description}",
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=stderr.get(),
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total)
        self.bar.update(self.task, completed=done, total=total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _command(export: Any) -> Callable[..., None]:
    """The command of one export: games, --lang, the export's own options, --out."""
    fixed = inspect.signature(_template, eval_str=True).parameters

    def command(**values: Any) -> None:
        games, lang, out = values.pop("games"), values.pop("lang"), values.pop("out")
        _run(export, games, lang, out, values)

    own = [
        _parameter(f, hints)
        for hints in [typing.get_type_hints(export.options)]
        for f in dataclasses.fields(export.options)
        if f.metadata.get("help")
    ]
    keyword = inspect.Parameter.KEYWORD_ONLY
    params = [p.replace(kind=keyword) for p in fixed.values()]
    ordered = [*params[:2], *own, params[2]]
    signature = inspect.Signature(ordered, return_annotation=None)
    command.__signature__ = signature  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in ordered}
    command.__doc__ = export.help or export.summary
    return command


def _template(games: GamesArg = None, lang: LangOpt = None, out: OutOpt = None) -> None:
    """The parameters every export command has (their annotations are read from here)."""


def _parameter(spec: dataclasses.Field[Any], hints: dict[str, Any]) -> inspect.Parameter:
    """A command-line option for one field of an export's options."""
    flag = spec.metadata.get("flag") or "--" + spec.name.replace("_", "-")
    value_type: Any = hints[spec.name]
    annotation: Any = Annotated[value_type, typer.Option(flag, help=spec.metadata["help"])]
    kind = inspect.Parameter.KEYWORD_ONLY
    return inspect.Parameter(spec.name, kind, default=spec.default, annotation=annotation)


def _note(note: str) -> None:
    """What the export finished of a killed run (toolkit.journal.telling), as it is done."""
    stderr.print(escape(note), soft_wrap=True)


def _run(
    export: Any,
    games: list[str] | None,
    lang: str | None,
    out: Path | None,
    values: dict[str, Any],
) -> None:
    from toolkit.fileio import hold_output_root, missing_folders, refuse_over_game, remove_made
    from toolkit.journal import telling
    from toolkit.registry import PluginError
    from toolkit.render.build import BuildError, plugin_failure
    from toolkit.render.exports import REGISTRY
    from toolkit.render.sheets import SheetError

    name = export.name
    lang = language_list(lang)
    try:
        checked = export.options([], **values)
    except ValueError as exc:
        raise usage_error(str(exc)) from None
    hint = export.hint
    out_dir = out or Path.cwd() / "output"
    failed = False
    for folder in game_folders(games):
        # a game `validate` found free of errors is only loaded (as `build` does); else the
        # gate checks the print of the languages exported only
        game = gated_game(folder, printed=lang.split(",") if lang else None)
        if game is None:
            failed = True
            continue
        langs = lang.split(",") if lang else list(game.manifest.languages)
        unknown = [code for code in langs if code not in game.manifest.languages]
        if unknown:
            raise usage_error(f"{game.id} has no language {', '.join(unknown)}")
        count = 0

        def report(path: Path) -> None:
            nonlocal count
            count += 1

        bar = _Bar(f"{game.id}: {name}")
        start = time.perf_counter()
        made, done = missing_folders(out_dir), False
        try:
            refuse_over_game(out_dir, game.id, game.root, langs, export=name)
            asked = dataclasses.replace(checked, langs=langs)
            # held once: every folder below it is made, written and pruned from its
            # descriptor, never again by its path (one exchanged for a link is not followed);
            # an installed plugin's export that fails is one error naming it (PluginError)
            with hold_output_root(out_dir, named=out is not None) as held, telling(_note):
                try:
                    REGISTRY.call(
                        name, functools.partial(export.run, game, held, asked, report, bar)
                    )
                except (BuildError, SheetError, PluginError, KeyboardInterrupt, OSError):
                    raise
                except BaseException as exc:  # noqa: BLE001 - a plugin kind's, drawn by a built-in export
                    if (failure := plugin_failure(exc)) is not None:
                        raise failure from None
                    raise
            done = True
        except (BuildError, SheetError, PluginError) as exc:
            stderr.print(f"[red]{escape(game.id)}: {escape(str(exc))}[/red]", soft_wrap=True)
            failed = True
            continue
        except OSError as exc:
            where = exc.filename or out_dir
            message = f"{game.id}: cannot write {where}: {exc.strerror or exc}"
            stderr.print(f"[red]{escape(message)}[/red]", soft_wrap=True)
            failed = True
            continue
        finally:
            bar.close()
            if not done:  # the folders the export made (--out's parents too) go with it
                remove_made(made)
        elapsed = time.perf_counter() - start
        where = out_dir / game.id
        stderr.print(
            f"[green]{escape(game.id)}: {count} file(s) in {elapsed:.1f} s under "
            f"{escape(str(where))}[/green]",
            soft_wrap=True,
        )
    if hint and not failed:
        stderr.print(escape(hint), soft_wrap=True)
    raise typer.Exit(1 if failed else 0)
