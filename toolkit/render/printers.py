"""Saved printers: each printer's measured duplex back offset, in the user's config folder.

Home printers shift the back of a sheet by a few millimetres, differently per printer and
tray. `playset calibrate` measures it once; `playset calibrate --save NAME X,Y` keeps it in
`printers.yaml` (platformdirs' user config folder, e.g. ~/.config/playset on Linux) so that
`playset build --printer NAME` corrects every backs page without retyping the numbers.
"""

from __future__ import annotations

import json
import math
import re
import shlex
import sys
from pathlib import Path

from toolkit import usercache
from toolkit.fileio import atomic_write_text, describe, locked, read_bounded

MAX_OFFSET_MM = 20.0  # a bigger shift is a typo or a wrong duplex mode, not a printer's error
MAX_FILE_BYTES = 1_000_000  # thousands of printers; a bigger file is not ours
# ASCII only, matched whole: `\Z`, not `$` (which also matches before a final newline).
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}\Z", re.ASCII)
# Plain decimals only: float() would also take `1_5` (15), `１.５` (fullwidth) and `inf`.
MILLIMETRES = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\Z", re.ASCII)
HEADER = (
    "# Playset printers: the duplex back offset of each, in mm (right, up on the backs page).\n"
    "# Written by `playset calibrate --save NAME X,Y`; used by `playset build --printer NAME`.\n"
)


class PrinterError(ValueError):
    """A bad offset, name or printers file: the message says what and where."""


def parse_offset(text: str) -> tuple[float, float]:
    """'1.5,-0.5' → (1.5, -0.5): millimetres right and up, each within ±20 mm."""
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2 or not all(MILLIMETRES.match(part) for part in parts):
        message = f"offset must be X,Y in millimetres (e.g. 1.5,-0.5), not {text!r}"
        raise PrinterError(message)
    x, y = (float(part) for part in parts)
    return within_bounds(x, y, text)


def within_bounds(x: float, y: float, text: str) -> tuple[float, float]:
    """(x, y) if each is within ±20 mm; `text` is how the user wrote it, for the message."""
    for value in (x, y):
        if not math.isfinite(value) or abs(value) > MAX_OFFSET_MM:
            raise PrinterError(f"offset {text!r}: each value must be within ±{MAX_OFFSET_MM:g} mm")
    return x + 0.0, y + 0.0  # -0.0 becomes 0.0


def printers_file() -> Path:
    """Where saved printers live: platformdirs' user config folder on Windows and macOS,
    else `$XDG_CONFIG_HOME/playset` or `~/.config/playset`; a relative XDG_CONFIG_HOME is
    ignored as the XDG specification says (platformdirs took it: printers.yaml was read and
    written under the current folder, one a game folder could be unpacked in)."""
    if sys.platform in ("win32", "darwin"):
        from platformdirs import user_config_path

        return user_config_path("playset", appauthor=False) / "printers.yaml"
    return usercache.xdg_folder(("XDG_CONFIG_HOME",), ".config") / "playset" / "printers.yaml"


def load_printers(path: Path | None = None) -> dict[str, tuple[float, float]]:
    """Every saved printer's offset; a missing file is no printers, a broken one an error."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    path = path or printers_file()
    try:
        # Not Path.read_text: a FIFO there would block for ever and /dev/zero never end.
        raw = read_bounded(path, MAX_FILE_BYTES)
        text = raw.decode("utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise PrinterError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise PrinterError(f"{path}: cannot read: not UTF-8 text") from None
    if len(raw) > MAX_FILE_BYTES:
        raise PrinterError(f"{path}: larger than {MAX_FILE_BYTES:,} bytes; not a printers file")
    try:
        data = YAML(typ="safe", pure=True).load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise PrinterError(f"{where}: not valid YAML: {exc.problem}") from None
    except YAMLError as exc:
        raise PrinterError(f"{path}: not valid YAML: {exc}") from None
    except RecursionError:  # `[[[…]]]` 2,000 deep in 4 kB: the reader's own recursion
        raise PrinterError(f"{path}: nested too deeply; not a printers file") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise PrinterError(f"{path}: expected a mapping of printer names")
    printers: dict[str, tuple[float, float]] = {}
    for name, entry in data.items():
        offset = entry.get("back_offset") if isinstance(entry, dict) else None
        if (
            not isinstance(offset, list)
            or len(offset) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in offset)
        ):
            raise PrinterError(f"{path}: printer {name!r} needs back_offset: [X, Y] (mm)")
        try:
            x, y = (float(v) for v in offset)
        except OverflowError:  # an integer with hundreds of digits
            x = y = math.inf
        printers[str(name)] = within_bounds(x, y, f"{offset[0]},{offset[1]}")
    return printers


def printer_offset(name: str, path: Path | None = None) -> tuple[float, float]:
    _check_name(name)  # one --save refuses is never saved: said as such, not "--save x\n"
    path = path or printers_file()
    printers = load_printers(path)
    if name not in printers:
        known = ", ".join(sorted(printers)) or "none saved yet"
        raise PrinterError(
            f"no printer {name!r} in {path} (known: {known}); measure it with `playset"
            f" calibrate`, then `playset calibrate --save {shlex.quote(name)} X,Y`"
        )
    return printers[name]


def _check_name(name: str) -> None:
    if not NAME.match(name):  # a newline, a fullwidth letter or a control character
        shown = repr(name) if len(name) <= 64 else f"{name[:64]!r}… ({len(name):,} characters)"
        raise PrinterError(
            f"printer name {shown}: letters, digits, space, '.', '_' or '-', at most 64"
        )


def save_printer(name: str, offset: tuple[float, float], path: Path | None = None) -> Path:
    """Add or replace one printer; the others are kept, the file is rewritten atomically."""
    _check_name(name)
    path = path or printers_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)  # the user's config folder
        # read, add and write under a lock: two saves at once each kept the file as they read
        # it, and one printer was lost though both said "saved"
        with locked(path.parent / ".printers.lock"):
            printers = load_printers(path)
            printers[name] = offset
            lines = [HEADER]
            for key in sorted(printers):
                x, y = printers[key]
                lines.append(f"{json.dumps(key)}:\n  back_offset: [{x:g}, {y:g}]\n")
            atomic_write_text(path, "".join(lines))
    except OSError as exc:  # a dangling link, a device, a full disk, a read-only folder
        raise PrinterError(f"printer {name!r} not saved: {describe(exc)}") from None
    return path
