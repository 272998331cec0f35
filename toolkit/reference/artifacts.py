"""The reference's section on what `build` and `export` write: every registered build
artifact (with its settings) and every export, read from their registries."""

from __future__ import annotations

from toolkit.reference.markdown import cell, entries

Lines = list[str]


def artifacts() -> Lines:
    from toolkit.render import artifacts as registry
    from toolkit.render.exports import REGISTRY as EXPORTS

    lines: Lines = [
        "## Build artifacts",
        "",
        "`playset build` writes every artifact below for each language, under",
        "`<out>/<game>/<lang>/`; `--only NAMES` picks some. An artifact is one module that",
        "registers itself (`toolkit.render.artifacts.register`); its settings become `build`",
        "options. One language's files are replaced together or not at all.",
        "",
        "| artifact | files | settings |",
        "| --- | --- | --- |",
    ]
    for artifact in entries(registry.REGISTRY).values():
        shown = ", ".join(f"`{s.flag}` ({'/'.join(s.choices)})" for s in artifact.settings)
        lines.append(f"| `{artifact.name}` | {cell(artifact.summary)} | {shown or '—'} |")
    lines += [
        "",
        "`playset export NAME` draws from the same pages (`toolkit.render.exports.register`):",
        "",
        "| export | what it writes |",
        "| --- | --- |",
    ]
    for export in entries(EXPORTS).values():
        lines.append(f"| `{export.name}` | {cell(export.summary)} |")
    lines.append("")
    return lines
