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
from xml.sax.saxutils import escape

from toolkit.content.sheets.archive import MAX_RATIO, RATIO_FLOOR
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


_ODS = "application/vnd.oasis.opendocument.spreadsheet"
_NS = {
    "config": "urn:oasis:names:tc:opendocument:xmlns:config:1.0",
    "fo": "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0",
    "manifest": "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0",
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
}
_FROZEN_HEADER = (
    ("HorizontalSplitMode", "short", "0"),
    ("VerticalSplitMode", "short", "2"),
    ("VerticalSplitPosition", "int", "1"),
    ("ActiveSplitRange", "short", "2"),
    ("PositionTop", "int", "0"),
    ("PositionBottom", "int", "1"),
)


def _root(tag: str, *prefixes: str) -> str:
    """An ODF document's XML declaration and root tag, with the namespaces it uses."""
    names = "".join(f' xmlns:{p}="{_NS[p]}"' for p in sorted(prefixes))
    return f"<?xml version='1.0' encoding='UTF-8'?>\n<{tag}{names} office:version=\"1.2\">"


def _attr(text: str) -> str:
    """A text as a double-quoted attribute value holds it."""
    return escape(text, {'"': "&quot;"})


def write_ods(name: str, headers: list[str], rows: list[dict[str, Any]]) -> bytes:
    """The sheet as OpenDocument, its XML written as text: a library building an object a
    cell (odfpy) took 10 s and 440 MB for the 200,000 cells a converted deck may hold."""
    title = _attr(sheet_name(name))
    widths = [_width(text, [row.get(text) for row in rows]) for text in headers]
    styles: dict[int, str] = {}  # one column style a width (at most MAX_WIDTH of them)
    for width in widths:
        styles.setdefault(width, f"co{len(styles) + 1}")
    head = [
        _root("office:document-content", "fo", "office", "style", "table", "text"),
        "<office:automatic-styles>",
        '<style:style style:name="ce1" style:family="table-cell">'
        '<style:text-properties fo:font-weight="bold"/></style:style>',
        *(
            f'<style:style style:name="{style}" style:family="table-column">'
            f'<style:table-column-properties style:column-width="{width * 0.21:.2f}cm"/>'
            "</style:style>"
            for width, style in styles.items()
        ),
        "</office:automatic-styles><office:body><office:spreadsheet>",
        f'<table:table table:name="{title}">',
        *(f'<table:table-column table:style-name="{styles[w]}"/>' for w in widths),
        "<table:table-row>",
        *(
            '<table:table-cell office:value-type="string" table:style-name="ce1">'
            f"<text:p>{escape(text)}</text:p></table:table-cell>"
            for text in headers
        ),
        "</table:table-row>",
    ]
    data = _ods_package("".join(head), title, headers, rows, zipfile.ZIP_DEFLATED)
    packed = zipfile.ZipFile(io.BytesIO(data)).getinfo("content.xml")
    if packed.file_size > RATIO_FLOOR and packed.file_size > MAX_RATIO * packed.compress_size:
        # the reader refuses a member that unpacks over MAX_RATIO times its size (a zip
        # bomb): the cells of a deck of aliases, all alike, are stored as they are
        data = _ods_package("".join(head), title, headers, rows, zipfile.ZIP_STORED)
    return data


def _ods_package(
    head: str, title: str, headers: list[str], rows: list[dict[str, Any]], method: int
) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        _member(archive, "mimetype", _ODS, zipfile.ZIP_STORED)
        with archive.open(_info("content.xml", method), "w") as content:
            content.write(head.encode("utf-8"))
            for row in rows:
                content.write(_ods_row(headers, row).encode("utf-8"))
            content.write(
                b"</table:table></office:spreadsheet></office:body></office:document-content>"
            )
        items = "".join(
            f'<config:config-item config:name="{key}" config:type="{kind}">{value}'
            "</config:config-item>"
            for key, kind, value in _FROZEN_HEADER
        )
        _member(
            archive,
            "settings.xml",
            _root("office:document-settings", "config", "office")
            + '<office:settings><config:config-item-set config:name="ooo:view-settings">'
            '<config:config-item-map-indexed config:name="Views"><config:config-item-map-entry>'
            '<config:config-item config:name="ViewId" config:type="string">view1'
            '</config:config-item><config:config-item-map-named config:name="Tables">'
            f'<config:config-item-map-entry config:name="{title}">{items}'
            "</config:config-item-map-entry></config:config-item-map-named>"
            "</config:config-item-map-entry></config:config-item-map-indexed>"
            "</config:config-item-set></office:settings></office:document-settings>",
        )
        entries = "".join(
            f'<manifest:file-entry manifest:full-path="{path}" manifest:media-type="{kind}"/>'
            for path, kind in (
                ("/", _ODS),
                ("content.xml", "text/xml"),
                ("settings.xml", "text/xml"),
            )
        )
        _member(
            archive,
            "META-INF/manifest.xml",
            "<?xml version='1.0' encoding='UTF-8'?>\n"
            f'<manifest:manifest xmlns:manifest="{_NS["manifest"]}" manifest:version="1.2">'
            f"{entries}</manifest:manifest>",
        )
    return out.getvalue()


def _info(name: str, compress_type: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=FIXED.timetuple()[:6])
    info.compress_type = compress_type
    info.external_attr = 0o644 << 16
    return info


def _member(
    archive: zipfile.ZipFile, name: str, text: str, compress_type: int = zipfile.ZIP_DEFLATED
) -> None:
    archive.writestr(_info(name, compress_type), text.encode("utf-8"))


def _ods_row(headers: list[str], row: dict[str, Any]) -> str:
    """One card's row; a run of empty cells is one cell repeated (as spreadsheet programs
    write them: a deck of 1,000 cards each with a field of its own made a million cells,
    all but a thousand empty)."""
    parts = ["<table:table-row>"]
    empty = 0  # empty cells not yet written
    for text in headers:
        value = row.get(text)
        if value is None:
            empty += 1
            continue
        if empty:
            parts.append(_ods_empty(empty))
            empty = 0
        parts.append(_ods_cell(value))
    if empty:
        parts.append(_ods_empty(empty))
    parts.append("</table:table-row>")
    return "".join(parts)


def _ods_empty(count: int) -> str:
    if count > 1:
        return f'<table:table-cell table:number-columns-repeated="{count}"/>'
    return "<table:table-cell/>"


def _ods_cell(value: Any) -> str:
    if isinstance(value, bool):
        word = "true" if value else "false"
        return (
            f'<table:table-cell office:value-type="boolean" office:boolean-value="{word}">'
            f"<text:p>{word.upper()}</text:p></table:table-cell>"
        )
    if isinstance(value, int | float):
        number = repr(value)
        return (
            f'<table:table-cell office:value-type="float" office:value="{number}">'
            f"<text:p>{number}</text:p></table:table-cell>"
        )
    lines = "".join(f"<text:p>{escape(line)}</text:p>" for line in str(value).split("\n"))
    return f'<table:table-cell office:value-type="string">{lines}</table:table-cell>'


_DATES = re.compile(
    rb"(<(?:dcterms:created|dcterms:modified|meta:creation-date|dc:date)[^>]*>)[^<]*"
)


_ROOT = re.compile(rb"<(?!\?)([\w:.-]+)((?:\s+xmlns(?::[\w.-]+)?=\"[^\"]*\")+)")
_XMLNS = re.compile(rb'xmlns(?::[\w.-]+)?="[^"]*"')


def _namespaces(body: bytes) -> bytes:
    """The root tag's namespace declarations sorted, and only those the document uses:
    a library may write them in a set's order, or add more once one document used them."""
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
