"""Helpers shared by CLI commands: resolving GAME arguments, consoles, usage errors."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer


class LazyConsole:
    """A rich Console made on first use: importing rich and sizing the terminal cost ~40 ms,
    which commands that print a line or two should not pay before doing their work."""

    def __init__(self, stderr: bool) -> None:
        self._stderr = stderr
        self._console: Any = None

    def get(self) -> Any:
        """The rich Console itself (for rich objects that take a console)."""
        if self._console is None:
            from rich.console import Console

            stream = sys.stderr if self._stderr else sys.stdout
            # Messages on stderr are never wrapped (a path cut in two cannot be copied), and
            # piped or captured output is never hard-wrapped at 80 columns. No emoji codes:
            # `game.yaml:id:` in a message must not print as `game.yaml🆔`.
            soft = self._stderr or not stream.isatty()
            self._console = Console(
                stderr=self._stderr, highlight=False, soft_wrap=soft, emoji=False
            )
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.get(), name)


stdout = LazyConsole(stderr=False)
stderr = LazyConsole(stderr=True)

GAME_HELP = (
    "A bundled game's id or the path of a game folder (default: the game folder you are in,"
    " else every bundled game)."
)


def escape(text: object, keep: str = "\n") -> str:
    """User text (names, paths, messages) made literal for rich: `[/]` in a game title or an
    argument would otherwise raise a MarkupError, and `[bold]` would vanish; its control
    characters but `keep` are shown escaped (ESC would reach the terminal)."""
    from rich.markup import escape as rich_escape

    from toolkit.diagnostics.printable import printable

    return rich_escape(printable(str(text), keep))


def finish_interrupted(folder: Path) -> list[str]:
    """Finish the change a killed run left half done in the game `folder` (its journal,
    toolkit.journal), each note said on stderr; exit 1 with the reason when it cannot be."""
    from toolkit.fileio import describe
    from toolkit.journal import recover

    try:
        notes = recover(folder)
    except OSError as exc:
        stderr.print(f"[red]error:[/red] {escape(describe(exc))}")
        raise typer.Exit(1) from None
    for note in notes:
        stderr.print(escape(note))
    return notes


def usage_error(message: str) -> typer.Exit:
    stderr.print(f"[red]error:[/red] {escape(message)}")
    return typer.Exit(2)


def folder_option(value: str) -> Path:
    """The value of an option naming an output folder (`--out`): an empty one names none
    (its Path is ".", so `build --out ''` wrote into the current folder): a usage error, as
    `convert --out ''` is; `.` names the current folder."""
    if value == "":
        raise typer.BadParameter("'' names no folder; name one (`.` for the current folder)")
    return Path(value)


def language_list(lang: str | None) -> str | None:
    """`--lang` as one comma-separated list, each code once and in the order given (`en,en`
    drew English twice; `en,` named an empty language); exit 2 if it names none."""
    if lang is None:
        return None
    codes = list(dict.fromkeys(code.strip() for code in lang.split(",") if code.strip()))
    if not codes:
        raise usage_error(f"--lang {lang!r} names no language")
    return ",".join(codes)


def game_around_here() -> Path | None:
    """The game folder the current folder is in (None: none); a usage error when the current
    folder's path is too long for the system to name the game's files."""
    from toolkit.content.folders import game_folder_around, path_too_long

    if why := path_too_long(Path.cwd(), "the current folder"):
        raise usage_error(why)
    return game_folder_around(Path.cwd())


def game_folders(args: list[str] | None) -> list[Path]:
    """Folders for GAME arguments; with none, the game folder the current directory is in,
    else every bundled game; exit 2 if unknown."""
    from toolkit.content.folders import GameNotFound, bundled_games, path_too_long, resolve_game

    if not args:
        around = game_around_here()
        return [around] if around is not None else list(bundled_games().values())
    try:
        folders = [resolve_game(arg) for arg in args]
    except GameNotFound as exc:
        raise usage_error(str(exc)) from None
    for arg, folder in zip(args, folders, strict=True):
        if why := path_too_long(folder, f"game folder {arg!r}"):
            raise usage_error(why)
    return folders


def gated_game(
    folder: Path,
    tolerate: tuple[str, ...] = (),
    use_cache: bool = True,
    printed: list[str] | None = None,
) -> Any | None:
    """The game in `folder` if it passes the validity gate; else its errors and a one-line
    reason on stderr (the command's own output, a PDF or a report, never comes), and None.

    With `use_cache` (every command but a `build --no-cache`), a game whose findings
    `validate` kept (toolkit.content.validate_cache) and found free of errors is only loaded,
    not checked again (a `build`, `export`, `simulate` or `i18n` command after `validate`);
    anything else goes through the gate. `printed`: the languages a `build --lang` prints,
    the only ones whose print the gate checks (a `validate` free of errors covers them)."""
    from toolkit.checks.gate import InvalidGame, valid_game

    if use_cache:
        game = _cleared_game(folder, tolerate)
        if game is not None:
            return game
    try:
        return valid_game(folder, tolerate, printed)
    except InvalidGame as exc:
        if exc.errors:
            from toolkit.diagnostics.formats import render  # a refused game's errors only

            sys.stderr.write(render(exc.errors, "text") + "\n")
        reason = f"[red]{escape(str(exc))}[/red] (`playset validate` shows all)"
        stderr.print(reason, soft_wrap=True)
        return None


def _cleared_game(folder: Path, tolerate: tuple[str, ...]) -> Any | None:
    """The loaded game when the findings cache says it passes the gate; else None."""
    from toolkit.content.validate_cache import cached_findings
    from toolkit.diagnostics import Severity

    found = cached_findings(folder)
    if found is None:
        return None
    tolerated = tolerate or ("\0",)
    if any(d.severity == Severity.ERROR and not d.code.startswith(tolerated) for d in found):
        return None  # the gate says which, as it always does
    from toolkit.content.game import load_game

    game = load_game(folder)
    return game if game.manifest is not None else None


# what a game folder's own files end with: a report, PO or chart never replaces one
GAME_FILE_SUFFIXES = frozenset(
    {".yaml", ".yml", ".md", ".py", ".csv", ".tsv", ".xlsx", ".ods"}
    | {".svg", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".ttf", ".otf"}
)


def refuse_output(path: Path, game: str | Path | None = None) -> None:
    """Exit 2 now, before any work, if `path` cannot be written as an output file (missing
    folders inside the current folder are no refusal: `write_output` makes them), or, with
    `game` (an id or folder, as the command was given it), if it is one of that game's own
    files: `--json game.yaml` replaced the manifest with the report."""
    from toolkit.fileio import check_target

    if str(path) == "-":  # not stdout: the text report is printed there already
        raise usage_error(
            "- names no output here (the report is printed on stdout already): name a file,"
            " e.g. report.json, or /dev/stdout for this output alone on stdout"
        )
    if game is not None:
        refuse_game_file(path, game)
    refuse_shared_target(path)
    try:
        check_target(path, Path.cwd())
    except OSError as exc:
        from toolkit.fileio import describe

        raise usage_error(describe(exc)) from None


def refuse_shared_target(path: Path) -> None:
    """Exit 1 if the output file `path` lies in a folder another user may rename or put
    theirs in the place of (`fileio.refuse_shared_file`): asked before the run's work (a
    simulate is not run for nothing) and again by `write_output` at the write."""
    from toolkit.fileio import OutputError, describe, refuse_shared_file

    try:
        refuse_shared_file(path)
    except OutputError as exc:
        stderr.print(f"[red]error:[/red] {escape(describe(exc))}")
        raise typer.Exit(1) from None


def refuse_outputs(targets: dict[str, Path | None], game: str | Path | None = None) -> None:
    """`refuse_output` for each named option, and exit 2 if two of them name one file
    (`--json r --pdf r` wrote the PDF over the JSON it had just written)."""
    import os

    seen: dict[object, str] = {}
    for option, path in targets.items():
        if path is None:
            continue
        refuse_output(path, game)
        try:  # one file under two names (a hard link) is one file too
            where: object = os.stat(path)[1:3]
        except OSError:
            where = os.path.realpath(path)
        if where in seen:
            raise usage_error(
                f"{seen[where]} and {option} both name {path}: the second would replace the"
                " first; name two files"
            )
        seen[where] = option


def refuse_game_file(path: Path, game: str | Path | None = None) -> None:
    """Exit 2 if `path` is an existing file of the game folder `game` names (default: the
    game folder the file is in, if any) that the game reads (by its suffix: content,
    rulebooks, engine, art, fonts), links resolved and folders compared by what they are
    (`fileio.identity`), so a bind mount is no way round it."""
    import os

    from toolkit.content.folders import GameNotFound, game_folder_around, resolve_game
    from toolkit.fileio import identity

    try:
        if game is None:
            around = game_folder_around(Path(os.path.realpath(path)).parent)
            if around is None:
                return
            game = around
        root = os.path.realpath(resolve_game(str(game)))
    except (GameNotFound, OSError, ValueError):
        return  # the command itself says so when it resolves the game
    target = os.path.realpath(path)
    own = Path(target).suffix.lower() in GAME_FILE_SUFFIXES and os.path.isfile(target)
    # the game folder is found among the file's folders by what it is, not by path: through
    # a bind mount (another path to it) `--out` replaced the game's rulebook
    folder = _folder_of(Path(target), identity(root)) if own else None
    if folder is not None:
        shown = os.path.relpath(target, folder)
        raise usage_error(
            f"{path} is the game's own file {shown}: writing there would replace it; "
            "name another file"
        )


def _folder_of(path: Path, folder: tuple[int, int] | None) -> Path | None:
    """The folder among `path`'s own folders that is `folder` (an `identity`), or None."""
    from toolkit.fileio import identity

    if folder is None:
        return None
    return next((above for above in path.parents if identity(above) == folder), None)


def write_output(
    path: Path, write: Callable[[Path], None], quiet: bool = False, *, file: bool = True
) -> None:
    """Run `write(path)`, its missing folders made first if they lie inside the current
    folder; a failed write (full disk, read-only) is one line and exit 1. An output `file`
    (not a game folder the command edits: `file=False`, the game writers refuse a shared
    one themselves) in a folder another user may move is refused (`refuse_shared_file`)."""
    from toolkit.fileio import describe, make_parents, refuse_shared_file

    try:
        if file:
            refuse_shared_file(path)
        make_parents(path, Path.cwd())
        write(path)
    except OSError as exc:
        stderr.print(f"[red]error:[/red] {escape(describe(exc))}")
        raise typer.Exit(1) from None
    if not quiet:
        stderr.print(f"wrote {escape(str(path), keep='')}")


StrictOpt = Annotated[
    bool,
    typer.Option("--strict", help="Exit 1 on warnings too (by default only errors do)."),
]
MaxWarningsOpt = Annotated[
    int | None,
    typer.Option(
        "--max-warnings",
        min=0,
        help="Exit 1 when there are more warnings than this (as ESLint).",
    ),
]
