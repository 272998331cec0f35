"""`playset i18n`: typography fixes, status, PO export and import for translators."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from toolkit.cli.common import (
    GAME_HELP,
    escape,
    finish_interrupted,
    folder_option,
    game_around_here,
    game_folders,
    gated_game,
    refuse_game_file,
    refuse_shared_target,
    stderr,
    stdout,
    usage_error,
    write_output,
)

if TYPE_CHECKING:
    from toolkit.i18n.fix import FilePatch

app = typer.Typer(help="Translation workflow: fixes, status, PO files.", no_args_is_help=True)


def _valid_game(arg: str):
    """The game through the validity gate, translation errors tolerated (they are what these
    commands repair); exit 1 with the other errors when it has any. Its print is not checked
    in any language: these commands print nothing, and a text too long for its card is
    what importing a shorter translation repairs (an overflow refused that import, and a
    bank of 3,000 questions cost 6 s of face fitting before each command)."""
    (folder,) = game_folders([arg])
    game = gated_game(folder, tolerate=("T",), printed=[])
    if game is None:
        raise typer.Exit(1)
    return game


def _write_fixes(patches: list[FilePatch], root: Path) -> None:
    from toolkit.i18n import fix as fixer

    fixer.write(patches, root)


@app.command("fix")
def fix(
    games: Annotated[list[str] | None, typer.Argument(help=GAME_HELP)] = None,
    write: Annotated[
        bool, typer.Option("--write", help="Write the fixes (default: diff).")
    ] = False,
) -> None:
    """Apply safe typography fixes (spaces only); show a diff unless --write."""
    from toolkit.i18n import fix as fixer

    total = 0
    for folder in game_folders(games):
        game = _valid_game(str(folder))
        try:  # a file changed since it was loaded (grown, switched to a link out of the game)
            patches = fixer.plan_fixes(game)
            diffs = [] if write else [patch.diff() for patch in patches]
        except (OSError, ValueError) as exc:
            why = str(exc)
            if isinstance(exc, OSError):
                why = f"cannot read {exc.filename or 'a file'}: {exc.strerror or exc}"
            stderr.print(f"[red]error:[/red] {escape(why)}; nothing written")
            raise typer.Exit(1) from None
        total += sum(len(p.edits) for p in patches)
        if write:
            write_output(
                game.root, functools.partial(_write_fixes, patches), quiet=True, file=False
            )
            for patch in patches:
                stderr.print(
                    f"fixed {len(patch.edits)} text(s) in {escape(' and '.join(patch.names))}"
                )
        else:
            sys.stdout.write("".join(diffs))
    if not write and total:
        stderr.print(f"{total} text(s) to fix (⍽ = U+202F, · = U+00A0); run with --write")
    elif not total:
        stderr.print("[green]nothing to fix[/green]")


STATUS_ROWS = 200
"""The rows `i18n status` shows at most: past them, each language's totals, then the rows
missing the most texts and with the most problems. A game of 6,000 one-card decks made a
table of 18,000 rows, ~10 s of rich's layout (probe 42 N2); the bundled games have < 100."""


@app.command("status")
def show_status(games: Annotated[list[str] | None, typer.Argument(help=GAME_HELP)] = None) -> None:
    """Coverage and open translation problems per game, file and language."""
    from toolkit.content.game import display_path, load_game
    from toolkit.i18n.status import folded
    from toolkit.i18n.status import status as game_status

    for folder in game_folders(games):
        game = load_game(folder)
        if game.manifest is None:  # no game to count (R011: a write left half done)
            from toolkit.diagnostics.formats import render

            sys.stdout.write(render(game.diagnostics, "text") + "\n")
            raise typer.Exit(1)
        from rich.table import Table

        table = Table(title=escape(f"{game.id} translation status ({display_path(game.root)})"))
        for column in ("file", "lang", "texts", "coverage", "problems", "codes"):
            table.add_column(column)
        from toolkit.registry import PluginError

        try:
            rows = game_status(game)
        except PluginError as exc:  # an installed unit kind failed
            stderr.print(f"[red]error:[/red] {escape(str(exc))}")
            raise typer.Exit(1) from None
        files = len({row.file for row in rows})
        totals, rows, left = folded(rows, STATUS_ROWS)
        named = [(f"every file ({files:,})", row) for row in totals]
        named += [(os.path.relpath(Path(row.file).absolute(), game.root), row) for row in rows]
        for shown, row in named:
            codes = ", ".join(f"{c}×{n}" for c, n in sorted(row.codes.items()))
            cells = (shown, row.lang, row.texts, row.percent, row.problems, codes)
            table.add_row(*(escape(cell) for cell in cells))
        stdout.print(table)
        if left:
            stdout.print(
                f"and {left:,} more row(s), none missing more texts or with more problems than"
                " those shown (`playset validate` lists every problem)"
            )


@app.command("recover")
def recover_(
    game: Annotated[
        str | None,
        typer.Argument(help="A game folder or bundled id (default: the game folder you are in)."),
    ] = None,
) -> None:
    """Finish a change an interrupted `i18n import` left half done (each file put in place
    as the import staged it), and remove its stale temporary files. The next import does
    this too; the commands that only read a game refuse it until then (R011)."""

    if game:
        (folder,) = game_folders([game])
    else:
        around = game_around_here()
        if around is None:
            raise usage_error("no game folder around the current folder: name the game")
        folder = around
    notes = finish_interrupted(folder)
    if not notes:
        stderr.print(f"[green]nothing to recover[/green] in {escape(str(folder))}")


GAME_ID = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")
MAX_SHOWN = 1_000
"""Entry lines `i18n import` prints; more say how many (a PO file may hold 20,000)."""


def _game_of(file: Path, project: str, given: str | None) -> str:
    """The game to import into: `--game`, else the game folder the current directory is in.

    The PO header only confirms it: a header is data from whoever sent the file, so it may
    name the id of the game in effect and nothing else (a path there, or another game's id,
    would let a PO file choose which folder is edited)."""

    if project and not GAME_ID.match(project):
        raise usage_error(
            f"{file}'s Project-Id-Version header is {project!r}, not a game id: a PO file "
            "cannot name a folder; set the header to the game's id"
        )
    if given:
        return given
    around = game_around_here()
    if around is None:
        named = f" (its header names {project!r})" if project else ""
        raise usage_error(
            f"which game does {file} translate{named}? Run the import in the game's folder "
            "or name the game with --game"
        )
    return str(around)


def _same_game(file: Path, project: str, game_id: str) -> None:
    """Refuse a PO file whose header names another game than the one it is imported into."""
    if project and project != game_id:
        raise usage_error(
            f"{file} was exported from {project!r}, not {game_id!r}; import it into its own "
            f"game (--game), or set its Project-Id-Version header to {game_id!r}"
        )


def _po_text(po) -> str:
    """The PO file's text, refused (ValueError) when `i18n import` would not read it back."""
    from toolkit.i18n.po_bounds import refuse_unreadable

    text = str(po) + "\n"
    refuse_unreadable(text, [entry.msgctxt or "" for entry in po])
    return text


@app.command("export")
def export(
    game: Annotated[
        str | None,
        typer.Argument(help="A bundled game's id or a game folder (default: the one you are in)."),
    ] = None,
    lang: Annotated[str | None, typer.Option("--lang", help="Target language (a PO file).")] = None,
    template: Annotated[
        bool, typer.Option("--template", help="The POT template instead (msgstr empty).")
    ] = False,
    fmt: Annotated[str, typer.Option("--format")] = "po",
    out: Annotated[Path | None, typer.Option("--out", help="File (default: stdout).")] = None,
) -> None:
    """Export a PO file for one language, or the POT template: game texts, glossary,
    layout labels and the rulebook (msgctxt = where the text lives, msgid = source)."""
    from toolkit.fileio import atomic_write_text
    from toolkit.i18n.po import SourceLanguageError, export_po, export_pot
    from toolkit.registry import PluginError

    if fmt != "po":
        raise usage_error(f"unknown format {fmt!r}; only po is supported")
    if template == (lang is not None):
        raise usage_error("give either --lang LANG (a PO file) or --template (the POT)")
    if out:  # before the game is read: a folder another user may move is refused
        refuse_shared_target(out)
    loaded = _valid_game(str(_one_game(game)))
    if lang is not None and lang not in loaded.manifest.languages:
        raise usage_error(
            f"{loaded.id} has no language {lang!r}; start it with "
            f"`playset i18n add-language {lang}`"
        )
    try:
        po = export_pot(loaded) if template else export_po(loaded, lang or "")
        text = _po_text(po)
    except SourceLanguageError as exc:
        raise usage_error(f"{exc} (--template)") from None
    except (ValueError, PluginError) as exc:  # a rulebook that cannot be cut into units
        stderr.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(1) from None
    if out:
        refuse_game_file(out, loaded.root)
        write_output(out, lambda path: atomic_write_text(path, text))
    else:
        sys.stdout.write(text)


def _one_game(game: str | None) -> Path:
    """The game a one-game command works on: the one named, else the game folder the
    current directory is in (as every other command); a usage error with neither."""

    if not game and game_around_here() is None:
        raise usage_error("name the game (an id or a folder), or run this in its folder")
    (folder,) = game_folders([game] if game else None)
    return folder


@app.command("add-language")
def add_language(
    lang: Annotated[str, typer.Argument(help="The new language's ISO 639 code, e.g. de.")],
    game: Annotated[
        str | None,
        typer.Argument(help="A bundled game's id or a game folder (default: the one you are in)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Folder for the PO files (default: ./output/i18n/GAME).",
            parser=folder_option,
        ),
    ] = None,
) -> None:
    """Start a language: add it to game.yaml and write its PO file and the POT to fill in."""
    from toolkit.fileio import (
        atomic_write_bytes,
        make_output_root,
        missing_folders,
        output_folder,
        remove_made,
        write_many,
    )
    from toolkit.i18n.languages import LanguageError
    from toolkit.i18n.languages import add_language as added
    from toolkit.i18n.po import export_po, export_pot
    from toolkit.journal import OUTPUT_JOURNAL, finish_output
    from toolkit.registry import PluginError

    loaded = _valid_game(str(_one_game(game)))
    try:
        manifest_text = added(loaded, lang)
        po_text, pot_text = _po_text(export_po(loaded, lang)), _po_text(export_pot(loaded))
    except LanguageError as exc:
        raise usage_error(str(exc)) from None
    except (ValueError, PluginError) as exc:
        stderr.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(1) from None
    assert loaded.manifest_file.doc is not None
    manifest_path = loaded.manifest_file.doc.path

    inside = out or Path.cwd() / "output"

    def write(_: Path) -> None:
        made = missing_folders(out or Path.cwd() / "output" / "i18n" / loaded.id)
        try:
            write_files()
        except BaseException:  # a full disk, Ctrl-C: no empty output folders stay
            remove_made(made)
            raise

    def write_files() -> None:
        target = (
            make_output_root(out)
            if out
            else output_folder(make_output_root(Path.cwd() / "output", False), "i18n", loaded.id)
        )
        files = [
            (target / f"{lang}.po", po_text.encode("utf-8")),
            (target / f"{loaded.id}.pot", pot_text.encode("utf-8")),
            (manifest_path, manifest_text.encode("utf-8")),
        ]
        # the PO and the POT as one change (journal.py, as a build's PDFs): a run killed
        # between their renames is finished by the next one; game.yaml is renamed last, so
        # a killed run leaves the language not yet added, and the command can be run again
        for note in finish_output(target, only={f"{lang}.po", f"{loaded.id}.pot"}):
            stderr.print(escape(note))
        journal = target / OUTPUT_JOURNAL

        def record(staged: list[tuple[Path, Path]]) -> None:
            here = Path(os.path.realpath(target))
            names = [[tmp.name, path.name] for tmp, path in staged if tmp.parent == here]
            atomic_write_bytes(journal, json.dumps(names).encode("utf-8"), inside=inside)

        # game.yaml is written in the game folder only, never through a link out of it
        write_many(files, inside=inside, within=Path(loaded.root), on_staged=record)
        journal.unlink(missing_ok=True)
        for path, _data in files[:2]:
            stderr.print(f"wrote {escape(str(path), keep='')}")

    write_output(Path(loaded.root), write, quiet=True, file=False)
    import polib

    entries = len(polib.pofile(po_text, encoding="utf-8"))  # a text: no charset to look for
    stderr.print(
        f"added {escape(lang)} to the languages in {escape(loaded.manifest_file.rel)}: "
        f"{entries} texts to translate in the PO file; `playset validate` lists the "
        f"{escape(lang)} texts still missing until `playset i18n import` brings them in"
    )


@app.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="A PO file made by `playset i18n export`.")],
    game: Annotated[
        str | None,
        typer.Option(
            help="Game (default: the game folder you are in); the PO header must name its id."
        ),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Say what would apply; write nothing.")
    ] = False,
) -> None:
    """Bring translations back: fuzzy and obsolete entries are skipped; an entry whose
    source changed, that names no text, or whose msgstr breaks a placeholder is refused at
    its line, and the others apply."""
    import polib

    from toolkit.fileio import InputError
    from toolkit.i18n.po_bounds import read_po_file

    try:
        text = read_po_file(file)  # read once: parsed from this text, never again by name
    except InputError as exc:
        raise usage_error(f"{file}:{exc.line}: {exc}") from None
    try:
        po = polib.pofile(text, encoding="utf-8")  # decoded: polib's charset search is slow
    except (OSError, ValueError) as exc:
        raise usage_error(f"cannot read {file}: {exc}") from None
    lang = po.metadata.get("Language", "").strip()
    project = po.metadata.get("Project-Id-Version", "").strip()
    (folder,) = game_folders([_game_of(file, project, game)])
    with contextlib.ExitStack() as held:
        if not dry_run:  # another import of this game waits for this one to end
            from toolkit.i18n.held import game_held

            held.enter_context(game_held(folder))
            finish_interrupted(folder)  # a write a killed run left half done
        _import_into(file, folder, text, po, lang, project, dry_run)


def _import_into(
    file: Path, folder: Path, text: str, po: Any, lang: str, project: str, dry_run: bool
) -> None:
    """`import_` once the game is its alone: read, planned, written, said."""
    from toolkit.i18n.po import import_po
    from toolkit.journal import write_journaled

    loaded = _valid_game(str(folder))
    _same_game(file, project, loaded.id)
    source = loaded.manifest.source_language
    if not lang:
        raise usage_error(
            f"{file} has no Language header: a template (POT) is filled in a language's PO "
            "file (`playset i18n export --lang LANG`, or msginit)"
        )
    if lang == source:
        raise usage_error(f"{lang} is the source language of {loaded.id}: its texts are msgids")
    if lang not in loaded.manifest.languages:
        raise usage_error(
            f"PO language {lang!r} is not a language of {loaded.id}; start it with "
            f"`playset i18n add-language {lang}`"
        )
    from toolkit.registry import PluginError

    try:
        result, texts = import_po(loaded, po, lang, text)
    except PluginError as exc:  # an installed unit kind failed: nothing is written
        stderr.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(1) from None
    if not dry_run:
        files = [
            (path, text if isinstance(text, bytes) else text.encode("utf-8"))
            for path, text in texts.items()
        ]
        root = Path(loaded.root)
        write_output(root, lambda _: write_journaled(root, files), quiet=True, file=False)
    shown = escape(str(file))
    verb = "would apply" if dry_run else "applied"
    lines: list[str] = []
    for outcome in result.outcomes:
        if outcome.what == "applied":
            lines.append(f"{shown}:{outcome.line}: {verb} {escape(outcome.key)}")
    for outcome in result.outcomes:
        if outcome.what == "applied":
            continue
        label = {"fuzzy": "skipped", "obsolete": "skipped", "held": "held"}.get(
            outcome.what, "refused"
        )
        colour = "yellow" if label != "refused" else "red"
        lines.append(
            f"{shown}:{outcome.line}: [{colour}]{label}[/{colour}] {escape(outcome.key)}: "
            f"{escape(outcome.why)}"
        )
    if len(lines) > MAX_SHOWN:  # each line costs the console about a millisecond
        more = len(lines) - MAX_SHOWN
        lines[MAX_SHOWN:] = [f"… and {more:,} more entries (the totals below count them)"]
    if lines:
        stderr.print("\n".join(lines))
    for note in result.notes:
        stderr.print(escape(note) if not dry_run else escape(f"(dry run) {note}"))
    for path in sorted(texts):
        if path.suffix == ".md":
            stderr.print(f"{'would write' if dry_run else 'wrote'} {escape(str(path), keep='')}")
    held = f", {len(result.held)} held" if result.held else ""
    stderr.print(
        f"{len(result.applied)} {verb}, {result.unchanged} unchanged, "
        f"{len(result.refused)} refused, {len(result.skipped)} skipped (fuzzy or obsolete), "
        f"{result.untranslated} untranslated{held}"
    )
    raise typer.Exit(1 if result.refused else 0)
