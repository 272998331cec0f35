"""Write cards as a sheet a designer opens and edits: the header row frozen and bold,
columns as wide as their text, numbers and yes/no as the spreadsheet's own types, texts as
text (`3` stays a text where the YAML held "3"). The bytes are the same on every run: zip
members carry a fixed time and the documents a fixed date."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import zipfile
from typing import Any

from toolkit.content.sheets.csv_reader import as_text

FIXED = dt.datetime(2000, 1, 1, 0, 0, 0)
MAX_WIDTH = 60
_NOT_IN_NAME = re.compile(r"[\[\]:*?/\\']")


_ESCAPED_IN_XLSX = re.compile(r"_(?=x[0-9A-Fa-f]{4}_)")


def xlsx_text(text: str) -> str:
    """A text as an XLSX cell holds it: OOXML (ECMA-376's ST_Xstring) reads `_xHHHH_` as the
    character U+HHHH, so an underscore that begins one is written `_x005F_` (`A_x0042_C`
    was read back as "ABC"; a PO file's reviewed translation printed as another)."""
    return _ESCAPED_IN_XLSX.sub("_x005F_", text)


def sheet_name(deck_id: Any) -> str:
    """A worksheet name from a deck id: at most 31 characters, none a spreadsheet refuses."""
    name = _NOT_IN_NAME.sub("-", str(deck_id or "cards")).strip() or "cards"
    return name[:31]


def _width(header: str, values: list[Any]) -> int:
    longest = max([len(header), *(len(str(v)) for v in values if v is not None)])
    return min(longest + 2, MAX_WIDTH)


def write_csv(headers: list[str], rows: list[dict[str, Any]]) -> bytes:
    """UTF-8 with a byte-order mark (so spreadsheet programs read it as UTF-8), `,`-separated."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(headers)
    for row in rows:
        writer.writerow([as_text(row[h]) if h in row else "" for h in headers])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def write_xlsx(name: str, headers: list[str], rows: list[dict[str, Any]]) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = sheet_name(name)
    bold = Font(bold=True)
    for col, text in enumerate(headers, start=1):
        cell = sheet.cell(row=1, column=col, value=xlsx_text(text))
        cell.font = bold
        cell.data_type = "s"
    for number, row in enumerate(rows, start=2):
        for col, text in enumerate(headers, start=1):
            if text not in row:
                continue
            value = row[text]
            cell = sheet.cell(
                row=number, column=col, value=xlsx_text(value) if isinstance(value, str) else value
            )
            if isinstance(value, str):
                cell.data_type = "s"  # a text starting with `=` stays text, not a formula
    for col, text in enumerate(headers, start=1):
        width = _width(text, [row.get(text) for row in rows])
        sheet.column_dimensions[get_column_letter(col)].width = width
    sheet.freeze_panes = "A2"
    book.properties.created = FIXED
    book.properties.modified = FIXED
    book.properties.creator = "playset"
    out = io.BytesIO()
    book.save(out)
    return _fixed_zip(out.getvalue())


def write_ods(name: str, headers: list[str], rows: list[dict[str, Any]]) -> bytes:
    from odf.config import (
        ConfigItem,
        ConfigItemMapEntry,
        ConfigItemMapIndexed,
        ConfigItemMapNamed,
        ConfigItemSet,
    )
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.style import Style, TableColumnProperties, TextProperties
    from odf.table import Table, TableCell, TableColumn, TableRow
    from odf.text import P

    title = sheet_name(name)
    doc = OpenDocumentSpreadsheet()
    bold = Style(name="ce1", family="table-cell")
    bold.addElement(TextProperties(fontweight="bold"))
    doc.automaticstyles.addElement(bold)
    table = Table(name=title)
    styles: dict[int, Any] = {}  # one column style a width (at most MAX_WIDTH of them)
    for text in headers:
        width = _width(text, [row.get(text) for row in rows])
        style = styles.get(width)
        if style is None:
            # a style each column made odfpy's save quadratic in the columns (it looks each
            # style used up in a list): 32,768 columns took 38 s
            style = Style(name=f"co{len(styles) + 1}", family="table-column")
            style.addElement(TableColumnProperties(columnwidth=f"{width * 0.21:.2f}cm"))
            doc.automaticstyles.addElement(style)
            styles[width] = style
        table.addElement(TableColumn(stylename=style))
    head = TableRow()
    for text in headers:
        cell = TableCell(valuetype="string", stylename=bold)
        cell.addElement(P(text=text))
        head.addElement(cell)
    table.addElement(head)
    for row in rows:
        line = TableRow()
        empty = 0  # empty cells not yet written: a run of them is one repeated cell
        for text in headers:
            value = row.get(text)
            if value is None:
                empty += 1
                continue
            if empty:
                line.addElement(_ods_empty(empty, TableCell))
                empty = 0
            line.addElement(_ods_cell(value, TableCell, P))
        if empty:
            line.addElement(_ods_empty(empty, TableCell))
        table.addElement(line)
    doc.spreadsheet.addElement(table)
    view = ConfigItemSet(name="ooo:view-settings")
    views = ConfigItemMapIndexed(name="Views")
    entry = ConfigItemMapEntry()
    entry.addElement(ConfigItem(name="ViewId", type="string", text="view1"))
    tables = ConfigItemMapNamed(name="Tables")
    frozen = ConfigItemMapEntry(name=title)
    for key, kind, value in (
        ("HorizontalSplitMode", "short", "0"),
        ("VerticalSplitMode", "short", "2"),
        ("VerticalSplitPosition", "int", "1"),
        ("ActiveSplitRange", "short", "2"),
        ("PositionTop", "int", "0"),
        ("PositionBottom", "int", "1"),
    ):
        frozen.addElement(ConfigItem(name=key, type=kind, text=value))
    tables.addElement(frozen)
    entry.addElement(tables)
    views.addElement(entry)
    view.addElement(views)
    doc.settings.addElement(view)
    out = io.BytesIO()
    doc.write(out)
    return _fixed_zip(out.getvalue())


def _ods_empty(count: int, cell_type: Any) -> Any:
    """`count` empty cells side by side, as one cell repeated (as spreadsheet programs write
    them): odfpy takes about 15 µs a cell it writes, and a deck of 1,000 cards each with a
    field of its own made a million, all but a thousand empty."""
    return cell_type(numbercolumnsrepeated=count) if count > 1 else cell_type()


def _ods_cell(value: Any, cell_type: Any, paragraph: Any) -> Any:
    if value is None:
        return cell_type()
    if isinstance(value, bool):
        cell = cell_type(valuetype="boolean", booleanvalue="true" if value else "false")
        cell.addElement(paragraph(text="TRUE" if value else "FALSE"))
        return cell
    if isinstance(value, int | float):
        cell = cell_type(valuetype="float", value=repr(value))
        cell.addElement(paragraph(text=repr(value)))
        return cell
    cell = cell_type(valuetype="string")
    for line in str(value).split("\n"):
        cell.addElement(paragraph(text=line))
    return cell


_DATES = re.compile(
    rb"(<(?:dcterms:created|dcterms:modified|meta:creation-date|dc:date)[^>]*>)[^<]*"
)


_ROOT = re.compile(rb"<(?!\?)([\w:.-]+)((?:\s+xmlns(?::[\w.-]+)?=\"[^\"]*\")+)")
_XMLNS = re.compile(rb'xmlns(?::[\w.-]+)?="[^"]*"')


def _namespaces(body: bytes) -> bytes:
    """The root tag's namespace declarations sorted, and only those the document uses:
    odfpy writes them in a set's order and adds more once one document used them."""
    found = _ROOT.search(body)
    if found is None:
        return body
    rest = body[found.end() :]
    kept = []
    for decl in sorted(_XMLNS.findall(found.group(2))):
        prefix = decl.split(b"=", 1)[0].partition(b":")[2]
        if not prefix or re.search(rb"[<\s/]" + re.escape(prefix) + rb":", rest):
            kept.append(decl)
    head = b"<" + found.group(1) + (b" " + b" ".join(kept) if kept else b"")
    return body[: found.start()] + head + rest


def _fixed_zip(data: bytes) -> bytes:
    """The archive again with one fixed time on every member and in its dates, so the same
    cards give the same bytes (the `mimetype` member stays first and stored, as ODS needs)."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for member in source.infolist():
            body = source.read(member.filename)
            if member.filename in ("docProps/core.xml", "meta.xml"):
                body = _DATES.sub(rb"\g<1>2000-01-01T00:00:00Z", body)
            if member.filename.endswith(".xml"):
                body = _namespaces(body)
            info = zipfile.ZipInfo(member.filename, date_time=FIXED.timetuple()[:6])
            info.compress_type = member.compress_type
            info.external_attr = 0o644 << 16
            target.writestr(info, body)
    return out.getvalue()
