"""Rule registry: every diagnostic code is declared once, beside the code that emits it.

As in yamllint and ruff, a rule has a code, a default severity and a one-line summary, and a
run can select or ignore rules by code or prefix (`S`, `R003`). The rules are a
`toolkit.registry.Registry` keyed by code: a package outside the toolkit declares its own in a
module named in the `playset.rules` entry point group (or beside its check family).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from toolkit.diagnostics.diagnostic import Diagnostic, Severity, Span
from toolkit.registry import Registry as _Registry

FAMILIES = {
    "Y": "YAML syntax",
    "S": "schema",
    "R": "references",
    "T": "translation",
    "P": "print",
    "Q": "question banks",
    "G": "game rules",
    "B": "balance",
    "E": "engine",
    "A": "legibility",
}


@dataclass(frozen=True, slots=True)
class Rule:
    """A declared diagnostic code."""

    code: str
    name: str
    summary: str
    severity: Severity = Severity.ERROR

    @property
    def family(self) -> str:
        return self.code[0]

    def at(
        self, file: str, span: Span, message: str, severity: Severity | None = None
    ) -> Diagnostic:
        """Make a diagnostic of this rule at a place."""
        return Diagnostic(span.file or file, self.code, message, severity or self.severity, span)


def _known_family(new: Rule) -> None:
    if new.code[0] not in FAMILIES:
        raise ValueError(f"unknown rule family in {new.code}")


class Registry(_Registry[Rule]):
    """All rules known to this process, by code."""

    def __init__(self) -> None:
        super().__init__(
            "rule code",
            group="playset.rules",
            key=lambda r: r.code,
            accepts=lambda obj: isinstance(obj, Rule),
            check=_known_family,
        )

    def add(self, new: Rule) -> Rule:
        try:
            return self.register(new)
        except ValueError as exc:
            if "registered twice" in str(exc):
                raise ValueError(f"rule code {new.code} declared twice") from None
            raise

    def get(self, code: str) -> Rule:  # a code, else KeyError
        return self.load()[code]

    def all(self) -> list[Rule]:
        return sorted(self.load().values(), key=lambda r: r.code)


REGISTRY = Registry()


def rule(code: str, name: str, summary: str, severity: Severity = Severity.ERROR) -> Rule:
    """Declare a rule in the global registry and return it."""
    return REGISTRY.add(Rule(code, name, summary, severity))


@dataclass(frozen=True, slots=True)
class RuleSelection:
    """Which codes a run reports: select by prefix (empty = all), then ignore by prefix."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    @staticmethod
    def parse(select: Iterable[str] = (), ignore: Iterable[str] = ()) -> RuleSelection:
        def split(values: Iterable[str]) -> tuple[str, ...]:
            out: list[str] = []
            for value in values:
                out.extend(part.strip().upper() for part in value.split(",") if part.strip())
            return tuple(out)

        return RuleSelection(split(select), split(ignore))

    def merged(self, other: RuleSelection) -> RuleSelection:
        return RuleSelection(self.select + other.select, self.ignore + other.ignore)

    def allows(self, code: str) -> bool:
        if self.select and not any(code.startswith(p) for p in self.select):
            return False
        return not any(code.startswith(p) for p in self.ignore)

    def unknown_prefixes(self) -> list[str]:
        """Prefixes that match no registered rule (a usage error on the CLI)."""
        codes = [r.code for r in REGISTRY.all()]
        return [p for p in self.select + self.ignore if not any(c.startswith(p) for c in codes)]
