"""`playset build`: print-and-play PDFs for games, per language.

No `from __future__ import annotations` here: typer reads the command's signature with its
annotations evaluated (`_with_settings`), and as strings each was compiled anew on every run
(~0.1 M instructions apiece); written plainly they come compiled with the module."""

import inspect
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from toolkit.build_date import source_date_epoch
from toolkit.cli.common import (
    GAME_HELP,
    folder_option,
    game_folders,
    gated_game,
    language_list,
    usage_error,
)


def _say(message: str, colour: str | None = None) -> None:
    """One line on stderr (click's echo: rich is not worth its start-up for these lines); a
    path's control characters shown escaped, so the line stays one line."""
    from toolkit.diagnostics.printable import printable

    typer.secho(printable(message), fg=colour, err=True)


def build(
    games: Annotated[list[str] | None, typer.Argument(help=GAME_HELP)] = None,
    lang: Annotated[
        str | None,
        typer.Option(help="Languages, e.g. fr,es (default: all); their print alone is checked."),
    ] = None,
    paper: Annotated[str, typer.Option(help="a4 or letter.")] = "a4",
    profile: Annotated[
        str,
        typer.Option(
            help="home: sheets with crop marks; press: one card per page, one card size a file,"
            " bleed, TrimBox and BleedBox on boards and rulebooks too."
        ),
    ] = "home",
    per_card: Annotated[bool, typer.Option("--per-card", help="One page per card.")] = False,
    only: Annotated[
        str | None,
        typer.Option(
            metavar="NAMES",
            help="Build only these artifacts, e.g. cards,rulebook (`playset reference` lists"
            " them).",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Output folder (default: ./output in the current folder).", parser=folder_option
        ),
    ] = None,
    back_offset: Annotated[
        str | None,
        typer.Option("--back-offset", metavar="X,Y", help="Shift backs pages X mm right, Y mm up."),
    ] = None,
    printer: Annotated[
        str | None,
        typer.Option(help="Back offset of a printer saved by `playset calibrate --save`."),
    ] = None,
    no_cache: Annotated[
        bool,
        typer.Option(
            "--no-cache",
            envvar="PLAYSET_NO_CACHE",
            help="Check and draw every file afresh, even when the game and the options are"
            " unchanged or `validate` kept its findings (or PLAYSET_NO_CACHE=1).",
        ),
    ] = False,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose", "-v", help="Say which files were written as the cache kept them."
        ),
    ] = False,
    **settings: str | None,
) -> None:
    """Write cards.pdf, questions.pdf, board.pdf and rulebook.pdf (every registered artifact)
    per game and language."""
    from toolkit.fileio import (
        hold_output_root,
        missing_folders,
        real_path,
        refuse_over_game,
        remove_made,
    )
    from toolkit.journal import telling
    from toolkit.render.artifacts import REGISTRY, artifacts

    if TYPE_CHECKING:
        from toolkit.render.build_cache import BuildCache, Kept

    lang = language_list(lang)
    if profile not in ("home", "press"):
        raise usage_error(f"profile must be home or press, not {profile!r}")
    if paper not in ("a4", "letter"):
        raise usage_error(f"paper must be a4 or letter, not {paper!r}")
    names = None if only is None else tuple(n.strip() for n in only.split(",") if n.strip())
    if names == ():  # `--only ''` built everything
        raise usage_error("--only names no artifact (e.g. --only cards,rulebook)")
    unknown = [name for name in names or () if name not in artifacts()]
    if unknown:
        known = ", ".join(artifacts())
        raise usage_error(f"--only: unknown artifact {unknown[0]!r} (known: {known})")
    shift = _back_offset(back_offset, printer, profile)
    out_dir = out or Path.cwd() / "output"
    failed = False
    chosen: dict[str, str | None] = {k: v for k, v in settings.items() if v is not None}
    key: tuple[str, ...] = (lang or "", paper, profile, str(per_card), ",".join(names or ()))
    key += (repr(shift), *(f"{name}={value}" for name, value in sorted(chosen.items())))
    key += (f"date={source_date_epoch()}",)  # written into every PDF: a file kept under
    # another date is drawn again
    cache: BuildCache | None = None
    if not no_cache:  # the cache's code (and the findings cache's) is not even imported
        from toolkit.render.build_cache import BuildCache

        cache = BuildCache.open(_say if verbose else lambda text: None)
    from_cache = " (unchanged: kept in the cache)" if verbose else ""
    written_ids: dict[str, Path] = {}  # one output folder per game id in a run

    def twice(game_id: str, folder: Path) -> bool:
        first = written_ids.setdefault(game_id, folder)
        if real_path(first) == real_path(folder):  # one game named twice: built once more
            return False
        _say(
            f"{game_id}: {folder} not built: {first} has the same id and was just written to "
            f"{out_dir / game_id} (build them one at a time, each with its own --out)",
            "red",
        )
        return True

    for folder in game_folders(games):
        kept = cache.lookup(folder, key) if cache else None
        if kept is not None and twice(kept.game_id, folder):
            failed = True
            continue
        if kept is not None:
            langs = lang.split(",") if lang else kept.languages
            start = time.perf_counter()
            made_folders = missing_folders(out_dir)
            from toolkit.render.build_cache import write_kept

            try:
                refuse_over_game(out_dir, kept.game_id, folder, langs)
                # held once: every folder and file below it is made from its descriptor
                with hold_output_root(out_dir, named=out is not None) as held, telling(_say):
                    count = write_kept(
                        kept, langs, held, lambda path: _say(f"wrote {path}{from_cache}")
                    )
            except OSError as exc:
                remove_made(made_folders)
                where = exc.filename or out_dir
                _say(f"{kept.game_id}: cannot write {where}: {exc.strerror or exc}", "red")
                failed = True
                continue
            elapsed = time.perf_counter() - start
            _say(f"{kept.game_id}: {count} PDF(s) in {elapsed:.1f} s", "green")
            continue
        # drawing needs these; files written from the cache do not
        from toolkit.render.build import BuildError, BuildOptions, Written, build_game
        from toolkit.render.sheets import SheetError

        # the print of the languages built only is checked (those faces the build draws)
        printed = lang.split(",") if lang else None
        game = gated_game(folder, use_cache=not no_cache, printed=printed)
        if game is None:
            failed = True
            continue
        if twice(game.id, folder):
            failed = True
            continue
        langs = lang.split(",") if lang else list(game.manifest.languages)
        unknown = [code for code in langs if code not in game.manifest.languages]
        if unknown:
            raise usage_error(f"{game.id} has no language {', '.join(unknown)}")
        options = BuildOptions(
            langs,
            paper,
            per_card=per_card or profile == "press",
            press=profile == "press",
            back_offset=shift,
            only=names,
            settings=chosen,
        )
        made: Kept | None = None
        keep: Callable[[str, str, bytes], None] | None = None
        if cache:  # the files drawn, for the cache to keep
            from toolkit.render.build_cache import Kept

            made = Kept(game.id, list(game.manifest.languages))

            def keep(code: str, name: str, data: bytes, files: dict[str, Any] = made.files) -> None:
                files.setdefault(code, []).append((name, data))

        start = time.perf_counter()

        def show(item: Written) -> None:
            _say(f"wrote {item.path}{'' if item.drawn else from_cache}")

        reuse = cache.reuse(folder, key, game) if cache else None
        made_folders = missing_folders(out_dir)
        try:
            refuse_over_game(out_dir, game.id, game.root, langs)
            with hold_output_root(out_dir, named=out is not None) as held, telling(_say):
                written = build_game(game, held, options, show, keep, reuse)
        except (BuildError, SheetError) as exc:
            remove_made(made_folders)
            _say(f"{game.id}: {exc}", "red")
            failed = True
            continue
        except OSError as exc:  # the output folder cannot be written: a file, no permission…
            remove_made(made_folders)
            where = exc.filename or out_dir
            _say(f"{game.id}: cannot write {where}: {exc.strerror or exc}", "red")
            failed = True
            continue
        elapsed = time.perf_counter() - start
        _say(f"{game.id}: {len(written)} PDF(s) in {elapsed:.1f} s", "green")
        if cache and made is not None:
            cache.save(folder, key, made, reuse)
    if cache:
        cache.close()
    if names is None and REGISTRY.broken:  # every artifact asked for, and one is missing:
        failed = True  # its warning said why when the registry was read
    raise typer.Exit(1 if failed else 0)


def _back_offset(text: str | None, printer: str | None, profile: str) -> tuple[float, float]:
    """The duplex shift for backs pages, from --back-offset or a saved printer (their reader
    imported only then)."""
    if text is None and printer is None:
        return (0.0, 0.0)
    from toolkit.render.printers import PrinterError, parse_offset, printer_offset

    if text is not None and printer is not None:
        raise usage_error("give --back-offset or --printer, not both")
    if profile == "press":
        raise usage_error("--back-offset and --printer are for home duplex, not --profile press")
    try:
        return parse_offset(text) if text is not None else printer_offset(printer or "")
    except PrinterError as exc:
        if text is not None:
            raise usage_error(str(exc)) from None
        _say(str(exc), "red")
        raise typer.Exit(1) from None


def _with_settings(command: typer.models.CommandFunctionType) -> None:
    """Give `command` one option per registered artifact setting (`--board-page`), so a new
    artifact's settings reach the command line without editing it. Typer reads the
    signature when the app is made: artifacts registered after this module was imported get
    their options by calling this again (idempotent)."""
    from toolkit.render.artifacts import settings

    signature = inspect.signature(command, eval_str=True)
    declared = settings()
    # the command's own parameters; keyword-only ones are settings added by an earlier call
    own = (inspect.Parameter.POSITIONAL_OR_KEYWORD,)
    fixed = [p for p in signature.parameters.values() if p.kind in own]
    extra = []
    for setting in declared.values():
        option = typer.Option(
            setting.flag,
            help=setting.help,
            metavar="|".join(setting.choices),
            callback=_one_of(setting.flag, setting.choices),
        )
        annotation = Annotated[str | None, option]
        kind = inspect.Parameter.KEYWORD_ONLY
        extra.append(inspect.Parameter(setting.name, kind, default=None, annotation=annotation))
    new = signature.replace(parameters=[*fixed, *extra])
    command.__signature__ = new  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in [*fixed, *extra]}


def _one_of(flag: str, choices: tuple[str, ...]) -> Callable[[str | None], str | None]:
    def check(value: str | None) -> str | None:
        if value is not None and value not in choices:
            raise typer.BadParameter(f"{flag} must be one of {', '.join(choices)}, not {value!r}")
        return value

    return check


_with_settings(build)
