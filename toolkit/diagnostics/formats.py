"""Output formats for diagnostics: text, json, github workflow commands, sarif."""

from __future__ import annotations

import json
from collections.abc import Sequence

from toolkit.diagnostics.diagnostic import Diagnostic, Severity
from toolkit.diagnostics.registry import REGISTRY

FORMATS = ("text", "json", "github", "sarif")


def format_text(diags: Sequence[Diagnostic]) -> str:
    lines = [
        f"{d.file}:{d.span.line}:{d.span.col}: {d.code} [{d.severity.value}] {d.message}"
        for d in diags
    ]
    return "\n".join(lines)


def format_json(diags: Sequence[Diagnostic]) -> str:
    return json.dumps([d.to_dict() for d in diags], ensure_ascii=False, indent=2)


def _escape_github(value: str, *, prop: bool = False) -> str:
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def format_github(diags: Sequence[Diagnostic]) -> str:
    kind = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
    out = []
    for d in diags:
        props = f"file={_escape_github(d.file, prop=True)},line={d.span.line},col={d.span.col}"
        if d.span.end_line:
            props += f",endLine={d.span.end_line}"
        if d.span.end_col and d.span.end_line == d.span.line:
            props += f",endColumn={d.span.end_col}"
        props += f",title={_escape_github(d.code, prop=True)}"
        out.append(f"::{kind[d.severity]} {props}::{_escape_github(d.message)}")
    return "\n".join(out)


def format_sarif(diags: Sequence[Diagnostic]) -> str:
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
    used = sorted({d.code for d in diags})
    rules = []
    for code in used:
        entry: dict[str, object] = {"id": code}
        if code in REGISTRY:
            r = REGISTRY.get(code)
            entry["name"] = r.name
            entry["shortDescription"] = {"text": r.summary}
        rules.append(entry)
    results = []
    for d in diags:
        region: dict[str, int] = {"startLine": d.span.line, "startColumn": d.span.col}
        if d.span.end_line:
            region["endLine"] = d.span.end_line
        if d.span.end_col:
            region["endColumn"] = d.span.end_col
        results.append(
            {
                "ruleId": d.code,
                "level": level[d.severity],
                "message": {"text": d.message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": d.file},
                            "region": region,
                        }
                    }
                ],
            }
        )
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "playset", "rules": rules}}, "results": results}],
    }
    return json.dumps(doc, ensure_ascii=False, indent=2)


def render(diags: Sequence[Diagnostic], fmt: str) -> str:
    """Render diagnostics in one of FORMATS."""
    return {
        "text": format_text,
        "json": format_json,
        "github": format_github,
        "sarif": format_sarif,
    }[fmt](diags)


def counts_as_finding(diag: Diagnostic) -> bool:
    """Errors and warnings make the exit code 1; info notes do not."""
    return diag.severity in (Severity.ERROR, Severity.WARNING)
