"""`playset calibrate`: the duplex calibration sheet, and saving a printer's measured offset."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from toolkit.cli.common import escape, folder_option, stderr, usage_error


def calibrate(
    paper: Annotated[str, typer.Option(help="a4 or letter.")] = "a4",
    lang: Annotated[str, typer.Option(help="Language of the sheet: en, fr or es.")] = "en",
    save: Annotated[
        tuple[str, str] | None,
        typer.Option(
            "--save",
            metavar="NAME X,Y",
            help="Save the offset read on the sheet (mm) as printer NAME, for build --printer.",
        ),
    ] = None,
    printer: Annotated[
        str | None,
        typer.Option(help="Print the sheet with this saved printer's offset, to check it."),
    ] = None,
    back_offset: Annotated[
        str | None,
        typer.Option("--back-offset", metavar="X,Y", help="Print the sheet with this offset."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Output folder (default: ./output in the current folder).", parser=folder_option
        ),
    ] = None,
) -> None:
    """Write a two-sided sheet that measures your printer's duplex shift (or --save it)."""
    from toolkit.fileio import atomic_write_bytes, make_output_root, missing_folders, remove_made
    from toolkit.render.printers import PrinterError, parse_offset, printer_offset, save_printer

    if paper not in ("a4", "letter"):
        raise usage_error(f"paper must be a4 or letter, not {paper!r}")
    from toolkit.render.calibration import LANGS

    if lang not in LANGS:
        raise usage_error(f"--lang must be one of {', '.join(LANGS)}, not {lang!r}")
    if printer and back_offset:
        raise usage_error("give --printer or --back-offset, not both")
    if save is not None and (printer or back_offset):
        # the X,Y read on a sheet printed with an offset are what is left of the shift, not
        # the shift: saving them as given, the offset would be silently wrong
        given = "--printer" if printer else "--back-offset"
        raise usage_error(
            f"--save takes the X,Y read on the sheet printed without an offset, not {given}: "
            f"give --save NAME X,Y alone"
        )
    try:
        if save is not None:
            name, value = save
            path = save_printer(name, parse_offset(value))
            stderr.print(f"saved printer {escape(name)} in {escape(str(path), keep='')}")
            raise typer.Exit(0)
        offset = (0.0, 0.0)
        if printer:
            offset = printer_offset(printer)
        elif back_offset:
            offset = parse_offset(back_offset)
    except PrinterError as exc:
        stderr.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(1) from None
    from toolkit.render.calibration import calibration_pdf

    folder = out or Path.cwd() / "output"
    target = folder / f"calibration-{paper}.pdf"
    made = missing_folders(folder)  # taken back when the write fails (a full disk)
    try:
        make_output_root(folder, named=out is not None)
        atomic_write_bytes(target, calibration_pdf(paper, offset, lang), inside=folder)
    except OSError as exc:
        remove_made(made)
        where = exc.filename or target
        stderr.print(f"[red]cannot write {escape(str(where))}: {escape(exc.strerror or str(exc))}")
        raise typer.Exit(1) from None
    stderr.print(
        f"wrote {escape(str(target), keep='')}: print it double-sided (long edge) at 100 %, "
        "read X and Y "
        "on the back, then `playset calibrate --save NAME X,Y`",
        soft_wrap=True,
    )
