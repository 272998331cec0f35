"""Workbooks made member by member for the sheet tests: what `write_xlsx` does not write."""

from __future__ import annotations


def add_shared_string(members: dict[str, bytes], text: str) -> None:
    """Give an XLSX's members (name → bytes) a shared-string table holding `text` alone
    (index 0), declared in its content types and the workbook's relationships."""
    members["xl/sharedStrings.xml"] = (
        '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f'<si><t xml:space="preserve">{text}</t></si></sst>'
    ).encode()
    members["[Content_Types].xml"] = members["[Content_Types].xml"].replace(
        b"</Types>",
        b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
        b'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
    )
    rels = "xl/_rels/workbook.xml.rels"
    members[rels] = members[rels].replace(
        b"</Relationships>",
        b'<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/'
        b'2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
    )
