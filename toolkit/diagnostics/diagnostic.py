"""The one record every check produces: where, which rule, how bad, what to do."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Severity(StrEnum):
    """How bad a finding is; errors and warnings make a run exit 1."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Span:
    """A 1-based line/column range in a file (end is inclusive-exclusive like an editor)."""

    line: int = 1
    col: int = 1
    end_line: int | None = None
    end_col: int | None = None


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding at one place in one file."""

    file: str
    code: str
    message: str
    severity: Severity = Severity.ERROR
    span: Span = field(default_factory=Span)

    @property
    def line(self) -> int:
        return self.span.line

    @property
    def col(self) -> int:
        return self.span.col

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.file, self.span.line, self.span.col, self.code)

    def to_dict(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.span.line,
            "col": self.span.col,
            "end_line": self.span.end_line,
            "end_col": self.span.end_col,
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
        }
