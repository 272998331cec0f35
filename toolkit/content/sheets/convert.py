"""`playset convert`: a YAML deck or question bank to a sheet (XLSX, ODS, CSV) and its keys
file, a sheet back to YAML, or a sheet to another sheet format. Converting back gives the
same data as the YAML started with; comments in the cards are not carried (a sheet has no
place for them), the deck keys' comments stay in the keys file."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.content.sheets import ROWS_KEY, SUFFIXES, is_sheet, keys_file
from toolkit.content.sheets.flatten import NotTabular, flatten, top_field
from toolkit.content.sheets.grid import MAX_CELLS, MAX_COLUMNS, MAX_ROWS
from toolkit.content.sheets.prescan import MAX_AREA
from toolkit.content.sheets.write import write_csv, write_ods, write_xlsx
from toolkit.content.sheets.yaml_out import dump, dump_rows
from toolkit.diagnostics import Diagnostic

if TYPE_CHECKING:
    from toolkit.content.source import Document

FORMATS = ("xlsx", "ods", "csv", "yaml")
MODELINE = "# yaml-language-server:"


@dataclass
class Plan:
    """What a conversion writes (every file, so all are written together or none), or why
    it cannot."""

    files: list[tuple[Path, bytes]] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    error: str | None = None


def rows_key_of(sheet: Path) -> str:
    """`questions` when the game around `sheet` lists it (or the YAML file of the same name
    beside it, the one it was converted from) as a question bank, else `cards`."""
    from toolkit.content.game import MANIFEST, game_folder_around
    from toolkit.content.source import load_document

    folder = game_folder_around(sheet.parent)
    if folder is None:
        return "cards"
    doc, _ = load_document(folder / MANIFEST, MANIFEST)
    files = doc.data.get("files") if doc is not None and isinstance(doc.data, dict) else None
    listed = files.get("questions") if isinstance(files, dict) else None
    names = {sheet.resolve(), sheet.with_suffix(".yaml").resolve()}
    if isinstance(listed, list):
        for rel in listed:
            if isinstance(rel, str) and (folder / rel).resolve() in names:
                return ROWS_KEY["questions"]
    return ROWS_KEY["decks"]


def _keys_text(text: str, rows_key: str, doc: Document | None = None) -> str:
    """The YAML deck's text without its rows: the deck's own keys, their comments kept (but
    an editor modeline: the deck schema would ask for the rows this file no longer has).
    With the deck as parsed (`doc`), the rows' lines are cut out before the round-trip
    parse, which then reads a few keys, not 7,800 cards (2 s of a 3 s conversion); a cut
    that does not read back as the deck's other keys falls back to the whole text. A comment
    line just above the rows' key stays (the whole text's parse dropped it with the rows)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    yaml = YAML(typ="rt")
    data = None
    cut = _without_rows(doc, rows_key) if doc is not None else None
    if cut is not None and doc is not None and isinstance(doc.data, dict):
        try:
            data = yaml.load(cut)
        except YAMLError:
            data = None
        if data != {k: v for k, v in doc.data.items() if k != rows_key}:
            data = None
    if data is None:
        data = yaml.load(text)
        data.pop(rows_key, None)
    lines = dump(data).splitlines(keepends=True)
    return "".join(line for line in lines if not line.startswith(MODELINE))


def _without_rows(doc: Document, rows_key: str) -> str | None:
    """`doc`'s text without the top-level `rows_key` entry (key to the end of its value),
    or None when the key is not at the start of a line (a flow mapping)."""
    key = doc.key_spans.get((rows_key,))
    value = doc.spans.get((rows_key,))
    if key is None or value is None or key.col != 1 or value.end_line is None:
        return None
    lines = doc.text.split("\n")
    if value.end_line > len(lines) or value.end_col is None:
        return None
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    start = starts[key.line - 1]
    end = starts[value.end_line - 1] + value.end_col - 1
    return doc.text[:start] + doc.text[end:]


def _sheet_bytes(fmt: str, name: str, cards: list[Any]) -> bytes:
    headers, rows = flatten(cards)
    _refuse_too_large(headers, rows, fmt)
    if fmt == "csv":
        return write_csv(headers, rows)
    _refuse_inexact(cards, rows)
    _refuse_unwritable(cards, headers, rows)
    if fmt == "ods":
        return write_ods(name, headers, rows)
    return write_xlsx(name, headers, rows)


def _refuse_too_large(headers: list[str], rows: list[dict[str, Any]], fmt: str) -> None:
    """A deck whose sheet would pass what a card sheet may be is refused before anything is
    written: the reader's own limits (grid.py), so every sheet written can be read back.
    Each leaf of a card is a column: a 564-byte deck of nested aliases made 32,768, which
    took an ODS 38 s to write and an XLSX a traceback past column 18,278 (XFD, 16,384, is
    the last any spreadsheet program opens). `MAX_COLUMNS` (1,000) is far past any real deck
    (the bundled ones use at most 31) and under every format's own limit: 16,384 columns an
    XLSX, 1,024 an ODS for LibreOffice before 7.4. An XLSX or ODS sheet is held to the
    reader's area too (`MAX_AREA`: it builds every cell from A1 to the last, empty or not,
    and an ODS file is written with every one of them)."""
    if len(headers) > MAX_COLUMNS:
        fields: dict[str, list[str]] = {}
        for text in headers:
            fields.setdefault(top_field(text), []).append(text)
        widest = max(fields.values(), key=len)
        raise NotTabular(
            f"its cards make {len(headers):,} columns (one for each field, language and list"
            f" item), more than the {MAX_COLUMNS:,} a card sheet may have; {top_field(widest[0])}"
            f" alone makes {len(widest):,} ({_shown(widest[0])}, {_shown(widest[-1])}):"
            " keep this deck in YAML, or give that field fewer parts"
        )
    if len(rows) + 1 > MAX_ROWS:  # the header row and one row a card
        raise NotTabular(
            f"it holds {len(rows):,} cards, more than the {MAX_ROWS - 1:,} a card sheet may"
            " hold (a row each, under the header row): split the deck"
        )
    filled = len(headers) + sum(len(row) for row in rows)
    if filled > MAX_CELLS:
        raise NotTabular(
            f"its cards hold {filled:,} values with their headers, more than the"
            f" {MAX_CELLS:,} filled cells a card sheet may hold: split the deck"
        )
    area = (len(rows) + 1) * len(headers)
    if fmt != "csv" and area > MAX_AREA:
        raise NotTabular(
            f"its sheet would span {len(rows) + 1:,} rows by {len(headers):,} columns,"
            f" more than the {MAX_AREA:,} cells an {fmt.upper()} card sheet may span (empty"
            " ones too): split the deck, or convert to csv"
        )


def _shown(header: str) -> str:
    return header if len(header) <= 60 else f"{header[:57]}..."


EXACT = 2**53
"""Whole numbers an XLSX or ODS cell holds exactly (it stores a number as a double)."""


def _refuse_inexact(cards: list[Any], rows: list[dict[str, Any]]) -> None:
    """A whole number a spreadsheet cell would round (12345678901234567891 came back
    1.234567890123457e+19, silently) is refused: kept as a text, or in a CSV, it stays."""
    for number, row in enumerate(rows, start=1):
        for header, value in row.items():
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) > EXACT:
                card = cards[number - 1]
                name = card.get("id", number) if isinstance(card, dict) else number
                shown = str(value) if len(str(value)) <= 60 else f"{str(value)[:57]}..."
                raise NotTabular(
                    f"card {name}: {header} is {shown}, a whole number of more digits than an"
                    f" XLSX or ODS cell keeps exactly (up to {EXACT:,}): quote it in the YAML"
                    " to keep it as a text, or convert to csv"
                )


_NOT_IN_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""Characters XML 1.0 forbids, so neither sheet format holds them: openpyxl refuses them
(a traceback), and an ODS file holding one is a file LibreOffice cannot open. A CSV keeps
them as they are."""


def _refuse_unwritable(cards: list[Any], headers: list[str], rows: list[dict[str, Any]]) -> None:
    """A text an XLSX or ODS cell cannot hold (a control character, `_NOT_IN_XML`) is
    refused before anything is written, naming the card and the field: validate lets a
    text no layout prints hold one (probe 44 T1)."""
    for header in headers:
        found = _NOT_IN_XML.search(header)
        if found is not None:
            raise NotTabular(_unwritable(f"the field name {_shown(header)!r}", found[0]))
    for number, row in enumerate(rows, start=1):
        for header, value in row.items():
            found = _NOT_IN_XML.search(value) if isinstance(value, str) else None
            if found is not None:
                card = cards[number - 1]
                name = card.get("id", number) if isinstance(card, dict) else number
                raise NotTabular(_unwritable(f"card {name}: {header}", found[0]))


def _unwritable(where: str, char: str) -> str:
    from toolkit.diagnostics.printable import code_point

    return (
        f"{where} holds {code_point(char)}, a control character an XLSX or ODS cell cannot"
        " hold (XML 1.0 forbids it): remove it from the text, or convert to csv"
    )


def plan(src: Path, display: str, fmt: str, out: Path | None = None) -> Plan:
    """The files converting `src` to `fmt` writes (beside it, or at `out`)."""
    from toolkit.content.sheets.load import SheetDocument, load_sheet
    from toolkit.content.source import load_document

    result = Plan()
    source_is_sheet = is_sheet(src)
    if not source_is_sheet and src.suffix.lower() not in (".yaml", ".yml"):
        result.error = f"{display}: convert reads a .yaml deck or a {', '.join(SUFFIXES)} sheet"
        return result
    target = out or src.with_suffix("." + fmt)
    if target.resolve() == src.resolve():
        suffix = src.suffix.lower().lstrip(".")
        if suffix == fmt or (fmt == "yaml" and suffix == "yml"):
            result.error = f"{display} is already {fmt}"
        else:  # `cards.yaml --to csv --out cards.yaml` said "is already csv"
            result.error = f"--out {out} is {display} itself: name another file to write"
        return result
    if source_is_sheet:
        rows_key = rows_key_of(src)
        doc, diags = load_sheet(src, display, rows_key, inside=src.parent)
        keys = doc.keys if isinstance(doc, SheetDocument) else None
        if doc is None or keys is None or any(d.code.startswith("Y") for d in diags):
            result.diagnostics = diags
            return result
        # the keys file as read and checked (beside the sheet, never through a link out of
        # its folder), its line ends as a text read gives them
        keys_text = keys.text.replace("\r\n", "\n").replace("\r", "\n")
    else:
        doc, diags = load_document(src, display)
        if doc is None:
            result.diagnostics = diags
            return result
        data = doc.data if isinstance(doc.data, dict) else {}
        rows_key = next((k for k in ("cards", "questions") if k in data), "")
        if not rows_key or not isinstance(data.get(rows_key), list):
            result.error = f"{display} holds no `cards` or `questions` list: it is no deck"
            return result
        keys_text = _keys_text(doc.text, rows_key, doc)
    cards = doc.data[rows_key]
    if fmt == "yaml":
        body = dump_rows(rows_key, cards)
        text = keys_text if keys_text.endswith("\n") or not keys_text else keys_text + "\n"
        result.files.append((target, (text + body).encode("utf-8")))
        return result
    try:
        sheet = _sheet_bytes(fmt, str(doc.data.get("id", src.stem)), cards)
    except NotTabular as exc:
        result.error = f"{display}: {exc}"
        return result
    result.files.append((target, sheet))
    if not source_is_sheet or keys_file(target) != keys_file(src):
        result.files.append((keys_file(target), keys_text.encode("utf-8")))
    return result
