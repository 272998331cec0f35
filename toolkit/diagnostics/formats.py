"""Output formats for diagnostics: text, json, github workflow commands, sarif."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path, PurePath
from urllib.parse import quote

from toolkit.diagnostics.diagnostic import Diagnostic, Severity
from toolkit.diagnostics.printable import printable
from toolkit.diagnostics.registry import FAMILIES, REGISTRY

SRCROOT = "%SRCROOT%"

FORMATS = ("text", "json", "github", "sarif")


def format_text(diags: Sequence[Diagnostic]) -> str:
    """One line per finding: a file name or message holding a newline or ESC is shown
    escaped (a line of its own could be a CI workflow command, ESC a terminal sequence)."""
    lines = [f"{d.place}: {d.code} [{d.severity.value}] {d.message}" for d in diags]
    return "\n".join(printable(line) for line in lines)


def format_json(diags: Sequence[Diagnostic]) -> str:
    return json.dumps([d.to_dict() for d in diags], ensure_ascii=False, indent=2)


def _escape_github(value: str, *, prop: bool = False) -> str:
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    value = printable(value)  # ESC and the other controls: the log shows them escaped
    if prop:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def _from_here(file: str) -> str:
    """A diagnostic's file relative to the current directory, `../` included: GitHub
    resolves annotation paths against the checkout, never as absolute paths."""
    try:
        return Path(os.path.relpath(file)).as_posix()
    except ValueError:  # another drive (Windows)
        return Path(file).as_posix()


def format_github(diags: Sequence[Diagnostic]) -> str:
    kind = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
    out = []
    for d in diags:
        where = _escape_github(_from_here(d.file), prop=True)
        props = f"file={where},line={d.span.line},col={d.span.col}"
        if d.span.end_line:
            props += f",endLine={d.span.end_line}"
        if d.span.end_col and d.span.end_line == d.span.line:
            props += f",endColumn={d.span.end_col}"
        props += f",title={_escape_github(d.code, prop=True)}"
        out.append(f"::{kind[d.severity]} {props}::{_escape_github(_with_cell(d))}")
    return "\n".join(out)


def _with_cell(d: Diagnostic) -> str:
    """The message, led by the cell when the finding is in a spreadsheet: line and column are
    then its row and column, and only the message can name the sheet."""
    cell = d.span.cell
    return f"{cell}: {d.message}" if cell is not None else d.message


def _artifact(file: str) -> dict[str, str]:
    """A SARIF artifactLocation: a percent-encoded URI relative to %SRCROOT% (the current
    directory) for files inside it, an absolute file: URI for files elsewhere."""
    path = PurePath(file)
    if path.is_absolute():
        return {"uri": Path(path).as_uri()}
    # a name that is no UTF-8 (Latin-1 bytes: surrogates in Python) keeps its own bytes
    uri = quote(path.as_posix(), safe="/", errors="surrogateescape")
    return {"uri": uri, "uriBaseId": SRCROOT}


def _rule(code: str) -> dict[str, object]:
    """A rule's reportingDescriptor with the descriptions code-scanning tools show."""
    entry: dict[str, object] = {"id": code}
    if code in REGISTRY:
        r = REGISTRY.get(code)
        family = FAMILIES.get(r.family, r.family)
        entry["name"] = r.name
        entry["shortDescription"] = {"text": r.summary}
        entry["fullDescription"] = {
            "text": f"{r.summary} ({family} rule, {r.severity.value} by default.)"
        }
        entry["help"] = {
            "text": f"{r.code} {r.name}: {r.summary} `playset rules` lists every rule;"
            f" `--ignore {r.code}` or `checks: ignore: [{r.code}]` in game.yaml silences it."
        }
        entry["defaultConfiguration"] = {"level": _LEVEL[r.severity]}
    return entry


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("playset")
    except PackageNotFoundError:
        return "0+unknown"


def _information_uri() -> str:
    """Where to learn about the tool: the distribution's declared home page, else its README
    (a file: URI; the rules are listed by `playset rules`)."""
    from importlib.metadata import PackageNotFoundError, metadata

    from toolkit.home import repo_root

    try:
        meta = metadata("playset")
        urls = [u.split(",", 1)[-1].strip() for u in meta.get_all("Project-URL") or []]
        urls += meta.get_all("Home-page") or []
    except PackageNotFoundError:
        urls = []
    for url in urls:
        if "://" in url:
            return url
    return (repo_root() / "README.md").resolve().as_uri()


AUTOMATION_ID = "playset/"
"""runs[].automationDetails.id: the category `playset` (code-scanning services keep one set of
alerts per category; the trailing slash says the run has no id of its own)."""
_ADO = "azuredevops/pipeline/build/"
_ADO_PROPERTIES = {
    "buildDefinitionId": "SYSTEM_DEFINITIONID",
    "buildDefinitionName": "BUILD_DEFINITIONNAME",
    "phaseId": "SYSTEM_PHASEID",
    "phaseName": "SYSTEM_PHASENAME",
}


def _automation() -> dict[str, object]:
    """runs[].automationDetails: in an Azure Pipelines run (TF_BUILD set), the pipeline, phase,
    branch and build that GitHub Advanced Security for Azure DevOps files the alerts under,
    from the pipeline's predefined variables; elsewhere the `playset` category."""
    env = os.environ
    if not env.get("TF_BUILD"):
        return {"id": AUTOMATION_ID}
    org = env.get("SYSTEM_COLLECTIONURI", "").rstrip("/").rsplit("/", 1)[-1]
    parts = [
        org,
        env.get("SYSTEM_TEAMPROJECT", ""),
        env.get("SYSTEM_DEFINITIONID", ""),
        env.get("SYSTEM_PHASEID", ""),
        env.get("BUILD_SOURCEBRANCH", ""),
        env.get("BUILD_BUILDID", ""),
    ]
    properties = {_ADO + key: env.get(var, "") for key, var in _ADO_PROPERTIES.items()}
    return {"id": _ADO + "/".join(parts), "properties": properties}


_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def format_sarif(diags: Sequence[Diagnostic]) -> str:
    level = _LEVEL
    rules = [_rule(code) for code in sorted({d.code for d in diags})]
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
                "message": {"text": _with_cell(d)},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": _artifact(d.file),
                            "region": region,
                        }
                    }
                ],
            }
        )
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "playset",
                        "fullName": f"Playset {_version()} (tabletop game content checks)",
                        "version": _version(),
                        "informationUri": _information_uri(),
                        "rules": rules,
                    }
                },
                "automationDetails": _automation(),
                "originalUriBaseIds": {SRCROOT: {"uri": Path.cwd().as_uri() + "/"}},
                "results": results,
            }
        ],
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
    """Errors and warnings are findings (shown and counted); info notes are not."""
    return diag.severity in (Severity.ERROR, Severity.WARNING)


def fails(
    diags: Sequence[Diagnostic], strict: bool = False, max_warnings: int | None = None
) -> bool:
    """Whether findings make the exit code 1, as yamllint and ESLint decide: any error does;
    warnings do only with `strict` (any warning) or beyond `max_warnings`."""
    warnings = sum(1 for d in diags if d.severity == Severity.WARNING)
    if any(d.severity == Severity.ERROR for d in diags):
        return True
    if strict:
        return warnings > 0
    return max_warnings is not None and warnings > max_warnings
