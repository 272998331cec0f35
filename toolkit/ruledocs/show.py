"""A rule's page, as `ruff rule` prints it: summary, explanation, failing and passing example."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.syntax import Syntax
from rich.text import Text

from toolkit.diagnostics.registry import FAMILIES, Rule
from toolkit.ruledocs.examples import Edit, RuleExample
from toolkit.ruledocs.materialise import SCAFFOLD, base_folder

_WIDEST = 160  # a snippet's line is cut here: a 5,000-digit number shows its start
_LONGEST = 40  # and a snippet after so many lines: a 20-question bank shows its start


def _lexer(file: str) -> str:
    return {"csv": "text", "md": "markdown", "py": "python", "svg": "xml"}.get(
        file.rpartition(".")[2], "yaml"
    )


def _shown(text: str, repeat: int) -> str:
    lines = [line if len(line) <= _WIDEST else line[:_WIDEST] + "…" for line in text.splitlines()]
    if len(lines) > _LONGEST:
        lines = lines[:_LONGEST] + [f"… ({len(lines) - _LONGEST} more lines)"]
    shown = "\n".join(lines)
    return shown + (f"\n… (the lines above {repeat} times)" if repeat > 1 else "")


def _snippet(example: RuleExample, edit: Edit, variant: str) -> RenderableType:
    text = edit.text(variant)
    if edit.find is None and variant == "pass" and not edit.pass_given:
        present = example.base == SCAFFOLD or (base_folder(example) / edit.file).exists()
        return Text(f"{edit.file}: {'as in the base game' if present else 'no such file'}")
    header = Text(edit.file, style="bold")
    if text is None:
        return Group(header, Text("(file removed)", style="italic"))
    if edit.encoding == "base64":
        return Group(header, Text(f"(binary, {len(text) * 3 // 4:,} bytes)", style="italic"))
    if edit.encoding != "utf-8" and variant == "fail":
        header.append(f" (saved as {edit.encoding})", style="italic")
    if variant == "fail" and edit.repeat > 1 and edit.fail is not None:
        text = edit.fail  # shown once, then how many times it is written
    body = _shown(text, edit.repeat if variant == "fail" else 1)
    return Group(header, Syntax(body or "(empty)", _lexer(edit.file), word_wrap=True))


def rule_page(rule: Rule, example: RuleExample | None) -> RenderableType:
    """Everything `playset rules CODE` prints about one rule."""
    parts: list[RenderableType] = [
        Text.assemble((f"{rule.code} ", "bold cyan"), (rule.name, "bold")),
        Text(f"{FAMILIES[rule.family]} · {rule.severity.value} by default", style="dim"),
        Text(rule.summary),
        Text(),
    ]
    if example is None:
        parts.append(Text("No documented examples yet.", style="italic"))
        return Group(*parts)
    parts += [Markdown(example.explain), Text()]
    if example.unreachable:
        parts.append(Text(f"No edit of a game's files produces it: {example.unreachable}"))
        return Group(*parts)
    base = {"fixture": "a minimal game", SCAFFOLD: "the game `playset new --engine` writes"}.get(
        example.base, f"the bundled game {example.base}"
    )
    command = " ".join(example.command)
    parts.append(
        Text(
            f"Fails ({'edits of ' if example.edits else ''}{base}): `playset {command}` reports "
            f"{rule.code} at "
            f"{example.at_file}:{example.at_line}",
            style="bold red",
        )
    )
    parts += [_snippet(example, e, "fail") for e in example.edits]
    passing = f"Passes: no {rule.code}"
    if example.pass_command is not None:
        passing += f" from `playset {' '.join(example.pass_command)}`"
    parts += [Text(), Text(passing, style="bold green")]
    parts += [_snippet(example, e, "pass") for e in example.edits]
    return Group(*parts)
