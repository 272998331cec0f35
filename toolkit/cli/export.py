"""`playset export png|tts`: card images and Tabletop Simulator saves, from build's pages."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from toolkit.cli.common import GAME_HELP, escape, game_folders, gated_game, stderr, usage_error

app = typer.Typer(help="Images and virtual-table files drawn from the printed pages.")

GamesArg = Annotated[list[str] | None, typer.Argument(help=GAME_HELP)]
LangOpt = Annotated[str | None, typer.Option(help="Languages, e.g. fr,es (default: all).")]
OutOpt = Annotated[
    Path | None, typer.Option(help="Output folder (default: ./output in the current folder).")
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


SAVED_OBJECTS = (
    "copy each <game>-<lang>.json into Tabletop Simulator's Saved Objects folder "
    "(Windows: Documents\\My Games\\Tabletop Simulator\\Saves\\Saved Objects; macOS: "
    "~/Library/Tabletop Simulator/Saves/Saved Objects; Linux: ~/.local/share/Tabletop "
    "Simulator/Saves/Saved Objects), then Objects → Saved Objects in the game"
)


def _run(
    name: str,
    games: list[str] | None,
    lang: str | None,
    out: Path | None,
    hint: str | None = None,
    **kw: Any,
) -> None:
    from toolkit.fileio import make_output_root
    from toolkit.render.build import BuildError
    from toolkit.render.exports import ExportOptions, exports
    from toolkit.render.sheets import SheetError

    export = exports()[name]
    out_dir = out or Path.cwd() / "output"
    failed = False
    for folder in game_folders(games):
        game = gated_game(folder)
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
        try:
            make_output_root(out_dir, named=out is not None)
            export.run(game, out_dir, ExportOptions(langs, **kw), report, bar)
        except (BuildError, SheetError) as exc:
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


def _dpi(value: float) -> float:
    if not 30 <= value <= 1200:
        raise usage_error(f"--dpi must be between 30 and 1200, not {value:g}")
    return value


@app.command("png")
def png(
    games: GamesArg = None,
    lang: LangOpt = None,
    dpi: Annotated[float, typer.Option(help="Card images' resolution.")] = 300.0,
    page_dpi: Annotated[
        float, typer.Option("--page-dpi", help="Board and rulebook pages' resolution.")
    ] = 150.0,
    bleed: Annotated[
        bool, typer.Option("--bleed/--no-bleed", help="Keep the 3 mm bleed around each card.")
    ] = False,
    out: OutOpt = None,
) -> None:
    """One PNG per card face and back (<deck>/<card>-front.png), the board, each rulebook
    page: rasterised from the pages `build --profile press` draws."""
    _run("png", games, lang, out, dpi=_dpi(dpi), page_dpi=_dpi(page_dpi), bleed=bleed)


@app.command("tts")
def tts(
    games: GamesArg = None,
    lang: LangOpt = None,
    dpi: Annotated[float, typer.Option(help="Card resolution on the sheets.")] = 150.0,
    base_url: Annotated[
        str | None,
        typer.Option("--base-url", help="Where the images will be hosted (default: file:// URLs)."),
    ] = None,
    out: OutOpt = None,
) -> None:
    """Tabletop Simulator: deck sheets (at most 10 × 7, last slot the hidden face), board
    images and a saved-object JSON to copy into TTS's Saves/Saved Objects folder."""
    if base_url is not None and not base_url.startswith(("https://", "http://")):
        raise usage_error(f"--base-url must start with https:// or http://, not {base_url!r}")
    _run("tts", games, lang, out, SAVED_OBJECTS, dpi=_dpi(dpi), page_dpi=100.0, base_url=base_url)
