"""The rules a spreadsheet deck can break before its cards are validated (Y family: the file
cannot be read as a table of cards, as a YAML file can fail to parse)."""

from __future__ import annotations

from toolkit.diagnostics import rule

Y_NOT_SHEET = rule(
    "Y011", "not-a-spreadsheet", "A .csv, .xlsx or .ods file is not readable as one."
)
Y_PROTECTED = rule(
    "Y012", "sheet-protected", "A spreadsheet is password-protected: save it without one."
)
Y_SHEET_SIZE = rule(
    "Y013",
    "sheet-size",
    "A spreadsheet exceeds the content limits (bytes, rows, columns, filled cells, repeated text).",
)
Y_HEADER = rule(
    "Y014",
    "sheet-header",
    "A header cell is empty, merged, repeated or not a field path, or a row repeats the header.",
)
Y_FORMULA = rule("Y015", "formula-without-value", "A formula cell has no saved value to read.")
Y_ROW = rule(
    "Y016",
    "sheet-row",
    "A row's cells cannot make one card: a list with a hole, a value and its sub-fields both.",
)
Y_KEYS_FILE = rule(
    "Y017",
    "sheet-keys-file",
    "A sheet deck's keys file (market.deck.yaml beside market.xlsx) is missing, is no regular"
    " file, or holds rows.",
)
