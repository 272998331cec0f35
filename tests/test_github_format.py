"""GitHub workflow commands escape what would end or split them: a message holding a
newline, a percent sign or a carriage return, a file name holding ':' or ','. Unescaped, a
newline would end the annotation early and the rest would print as a log line, and a comma
in a file name would start a new property."""

from __future__ import annotations

from toolkit.diagnostics import Diagnostic, Severity, Span
from toolkit.diagnostics.formats import format_github


def line_of(diag: Diagnostic) -> str:
    out = format_github([diag])
    assert "\n" not in out  # one workflow command per diagnostic, always one line
    return out


def test_message_newlines_percent_and_carriage_returns_are_escaped():
    diag = Diagnostic("game.yaml", "T010", "100% sure\r\nsecond line", Severity.WARNING)
    assert line_of(diag) == (
        "::warning file=game.yaml,line=1,col=1,title=T010::100%25 sure%0D%0Asecond line"
    )


def test_file_names_with_colons_and_commas_are_escaped_as_properties():
    diag = Diagnostic("decks/a,b:c.yaml", "S001", "a: b, c", Severity.ERROR, Span(3, 4, 3, 9))
    assert line_of(diag) == (
        "::error file=decks/a%2Cb%3Ac.yaml,line=3,col=4,endLine=3,endColumn=9,title=S001::a: b, c"
    )


def test_info_is_a_notice_and_escaping_is_not_applied_twice():
    diag = Diagnostic("x.yaml", "B004", "50%25 of %0A", Severity.INFO)
    assert line_of(diag) == "::notice file=x.yaml,line=1,col=1,title=B004::50%2525 of %250A"
