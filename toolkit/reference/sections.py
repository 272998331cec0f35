"""The reference's sections, each read from the registry or model that defines it.

Nothing here lists a field, an icon, a rule or an option by hand: each section walks what
the code registers (content models, layout elements, `ICONS`, the rule registry, the typer
app, the template contexts), so adding one to the code adds it to the reference.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Iterator
from typing import Any

from toolkit.content.schema_standard import tagged_branches
from toolkit.reference.markdown import Schema, TypeNamer, anchor, cell, entries, field_table

Lines = list[str]

FILE_PLACES = {
    "game.schema.json": "`game.yaml`",
    "deck.schema.json": "`decks/*.yaml`",
    "board.schema.json": "`boards/*.yaml`",
    "questions.schema.json": "`questions/*.yaml`",
    "glossary.schema.json": "`glossary.yaml`",
}


def _refs(schema: Any) -> Iterator[str]:
    """Names of the $defs a schema refers to, in the order they appear."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "$ref" and isinstance(value, str):
                yield value.rsplit("/", 1)[-1]
            elif key != "$defs":
                yield from _refs(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _refs(value)


def _reachable(root: Schema, defs: dict[str, Schema]) -> list[str]:
    """$defs names breadth-first from the root: a file's top model, then what it holds."""
    order: list[str] = []
    queue = list(dict.fromkeys(_refs(root)))
    while queue:
        name = queue.pop(0)
        if name in order or name not in defs:
            continue
        order.append(name)
        queue.extend(n for n in dict.fromkeys(_refs(defs[name])) if n not in order)
    return order


class ModelTables:
    """Renders schemas as tables; a model already shown elsewhere is linked, not repeated."""

    def __init__(self) -> None:
        self.shown: dict[str, str] = {}  # canonical JSON of a model → its anchor

    def document(self, section: str, schema: Schema, level: int = 4) -> Lines:
        import json

        defs: dict[str, Schema] = schema.get("$defs", {})
        names = _reachable(schema, defs)
        links: dict[str, str] = {}
        fresh: list[str] = []
        for name in names:
            key = name + json.dumps(defs[name], sort_keys=True)
            if key in self.shown:
                links[name] = self.shown[key]
            else:
                links[name] = self.shown[key] = anchor(f"{section}-{name}")
                fresh.append(name)
        type_name = TypeNamer(links)
        lines: Lines = []
        tagged = tagged_branches(schema)
        if schema.get("properties") and tagged is None:
            lines += field_table(schema, type_name)
        variants = schema.get("oneOf") or schema.get("anyOf")
        if tagged:
            lines += ["One of:", ""]
            for tag, values, branch in tagged:
                keys = ", ".join(f"`{tag}: {value}`" for value in values)
                lines.append(f"- {type_name(branch)} ({keys})")
            lines.append("")
        elif variants:
            mapping = schema.get("discriminator", {}).get("mapping", {})
            by_ref = {ref.rsplit("/", 1)[-1]: value for value, ref in mapping.items()}
            lines.append("One of:")
            lines.append("")
            for variant in variants:
                name = type_name(variant)
                ref = variant.get("$ref", "").rsplit("/", 1)[-1]
                tag = f" (`kind: {by_ref[ref]}`)" if ref in by_ref else ""
                lines.append(f"- {name}{tag}")
            lines.append("")
        if "$ref" in schema and not schema.get("properties"):
            lines += [f"The file is a {type_name(schema)}.", ""]
        hashes = "#" * level
        for name in fresh:
            model = defs[name]
            lines.append(f'<a id="{links[name]}"></a>')
            lines.append("")
            lines.append(f"{hashes} {name}")
            lines.append("")
            if model.get("description"):
                lines += [" ".join(model["description"].split()), ""]
            lines += field_table(model, type_name)
        return lines


def _file_order(rel: str) -> tuple[bool, str, bool]:
    """Generic first, then games by id; each game's manifest before its decks."""
    return (not rel.startswith("generic/"), rel.split("/")[0], "deck" in rel)


def content_files(tables: ModelTables) -> Lines:
    """Every content file type: the shared ones, then the generic and each plugin's."""
    import toolkit.render.layout  # noqa: F401 - registers the layout schema
    from toolkit.content.schemas import schema_documents

    docs = schema_documents()
    lines: Lines = [
        "## Content files",
        "",
        "Each file type as its JSON Schema (under `schemas/`) describes it. A game without a",
        "plugin uses the `generic` manifest and deck; a bundled game's plugin adds its typed",
        "rules and card kinds.",
        "",
    ]
    shared = sorted(rel for rel in docs if "/" not in rel)
    per_game = sorted(rel for rel in docs if "/" in rel)
    per_game.sort(key=_file_order)
    for rel in shared + per_game:
        schema = docs[rel]
        place = FILE_PLACES.get(rel.rsplit("/", 1)[-1], rel)
        lines.append(f"### {schema['title']}")
        lines.append("")
        lines.append(f"{place} — {schema['description']} Schema: `schemas/{rel}`.")
        lines.append("")
        lines += tables.document(anchor(rel.removesuffix(".schema.json")), schema)
    return lines


def board_kinds() -> Lines:
    """The board shapes in the registry, by their `kind`, and the generic look."""
    from toolkit.content.models.board import BOARD_KINDS
    from toolkit.render.boards.look import (
        GENERIC,
        MAX_DRAWING_ICON_WEIGHT,
        MAX_GAME_ICON_WEIGHT,
        PALETTE,
    )

    lines: Lines = [
        "## Board kinds",
        "",
        "A board file's `kind` picks its shape; each shape's fields are under",
        "[Content files](#content-files) (Board). A shape is one module: its model and its",
        "drawer, registered with",
        "`toolkit.content.models.board.register_board_kind(BoardKind(kind, Model, draw))`",
        "(in `toolkit.boards`, or a package's module named in the `playset.boards` entry point",
        "group).",
        "",
        "| kind | model | drawn by | description |",
        "| --- | --- | --- | --- |",
    ]
    for kind, entry in sorted(entries(BOARD_KINDS).items()):
        name = entry.model.__name__
        target = anchor(f"board-{name}")
        draw = _qualname(entry.draw)
        about = cell(" ".join((entry.model.__doc__ or "").split()))
        lines.append(f"| `{kind}` | [{name}](#{target}) | `{draw}` | {about} |")
    lines += [
        "",
        "### Board looks",
        "",
        "Every board may carry a `style:` block ([BoardStyle](#board-boardstyle)): per space "
        "kind a colour, icon, size and label ([SpaceStyle](#board-spacestyle)), per link or "
        "route kind a line ([LineStyle](#board-linestyle)), and the other words it prints. "
        "A word is looked up in the style, then the game's glossary (`<kind>-space`, "
        "`<kind>`), then the toolkit's generic words below, else the kind's id is written out. "
        "A space kind without a colour takes the next of "
        + ", ".join(f"`{c}`" for c in PALETTE)
        + "; without an icon it shows its label's initial in the build language "
        "(`icon: none` for a plain disc). An icon is a board glyph of the game's plugin, "
        "else an SVG of the game's `icons/`, else a toolkit icon. The icons one board drawing "
        f"draws weigh at most {MAX_DRAWING_ICON_WEIGHT:,} drawn elements together, each at "
        "every place it is drawn (an SVG icon its shapes and one per 8,000 pixels of its "
        "pictures, a toolkit icon or glyph 10): past it is P016, and spaces past it are "
        f"drawn without their icon. All the game's boards' icons weigh at most "
        f"{MAX_GAME_ICON_WEIGHT:,} together (P016 at the board that passes it).",
        "",
        "| line kind | colour | width | dash | shape | words (fr / es / en) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for kind, line in GENERIC.links.items():
        words = _words(line.label)
        dash = ", ".join(f"{d:g}" for d in line.dash or []) or "—"
        shape = line.shape or "straight"
        lines.append(
            f"| `{kind}` | `{line.colour}` | {line.width:g} | {dash} | {shape} | {words} |"
        )
    lines += ["", "| word | fr / es / en |", "| --- | --- |"]
    for key, label in GENERIC.labels.items():
        lines.append(f"| `{key}` | {_words(label)} |")
    lines.append("")
    return lines


def _words(label: Any) -> str:
    """A label's words per language, or the glossary term it names."""
    if isinstance(label, dict):
        return " / ".join(cell(str(v)) for v in label.values())
    return f"glossary `{label}`" if label else ""


def _qualname(obj: Any) -> str:
    return f"{getattr(obj, '__module__', '?')}:{getattr(obj, '__qualname__', repr(obj))}"


def layouts(tables: ModelTables) -> Lines:
    """Card layout files and every registered element kind with its options."""
    from toolkit.render import elements, layout
    from toolkit.render.elements.base import Element
    from toolkit.render.elements.registry import kind_of

    schema = layout.layout_adapter().json_schema()
    lines: Lines = [
        "## Card layouts",
        "",
        " ".join((inspect.getdoc(layout) or "").split()),
        "",
        "Element kinds (`elements[].kind`). *Templates* are the options read as Jinja for",
        "each card; *fit* says whether `validate` measures the element in every language",
        "(P001).",
        "",
        "| kind | model | what it is | templates | fit | options |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for model in sorted(entries(elements.REGISTRY).values(), key=kind_of):
        name = model.__name__
        options = [f for f in model.model_fields if f not in ("kind", "box", "when")]
        shown = ", ".join(f"`{o}`" for o in options) or "—"
        templates = ", ".join(f"`{t}`" for t in model.templates) or "—"
        fit = "measured" if model.measure is not Element.measure else "—"
        about = cell(" ".join((inspect.getdoc(model) or "").split()))
        target = anchor("layout-" + name)
        lines.append(
            f"| `{kind_of(model)}` | [{name}](#{target}) | {about} | {templates} | {fit}"
            f" | {shown} |"
        )
    lines += [
        "",
        " ".join((inspect.getdoc(elements) or "").split()),
        "A package outside the toolkit registers its kinds through the `playset.elements`",
        "entry point group (an `Element` model, or a module that calls `register_element`).",
        "",
        "### Layout file",
        "",
    ]
    lines += tables.document("layout", schema, level=4)
    return lines


def _context_keys(doc: str) -> list[str]:
    """The `- \\`name\\`` bullets of a context function's docstring."""
    keys = []
    for line in doc.splitlines():
        stripped = line.strip()
        if stripped.startswith("- `"):
            keys.append(stripped[3:].split("`", 1)[0])
    return keys


def template_contexts() -> Lines:
    """What card layouts and rulebooks can read, and the Jinja names their sandbox offers."""
    from toolkit.render import context, rulebook_source
    from toolkit.render.jinja_cache import REFUSED_FILTERS, CachedSandbox

    env = CachedSandbox(keep_trailing_newline=False).env
    lines: Lines = ["## Templates", ""]
    for title, function in (
        ("Card layout texts", context.card_context),
        ("Rulebooks", rulebook_source.rulebook_context),
    ):
        doc = inspect.getdoc(function) or ""
        lines += [f"### {title}", ""]
        summary, _, rest = doc.partition("\n\n")
        lines += [" ".join(summary.split()), ""]
        lines += [line for line in rest.splitlines() if line.strip()] + [""]
    lines += [
        "### Jinja filters, tests and globals",
        "",
        "Both run in Jinja's sandbox with strict undefined names (an unknown name is an",
        "error, R010 in a rulebook). These are the filters, tests and globals it offers:",
        "",
        "- filters: "
        + ", ".join(f"`{name}`" for name in sorted(env.filters) if name not in REFUSED_FILTERS)
        + " (not `random`: a template prints the same at every build, and `lipsum()` the"
        " same filler text at every call)",
        "- tests: " + ", ".join(f"`{name}`" for name in sorted(env.tests)),
        "- globals: " + ", ".join(f"`{name}`" for name in sorted(env.globals)),
        "",
    ]
    return lines


def icons() -> Lines:
    """Every built-in icon name (`playset icons` prints them on a sheet)."""
    from toolkit.render.icons import ICONS

    names = sorted(ICONS)
    lines: Lines = [
        "## Icons",
        "",
        f"{len(names)} built-in icons, usable as an `icon` element's `icon` and inline in a",
        "text as `:name:`, set apart from letters and digits (`2 :coin:`; `2:coin:`,",
        "`10:30:45` and `a:b:c` print as written). `playset icons --out icons.pdf` draws them",
        "all.",
        "",
        "| icon | inline |",
        "| --- | --- |",
    ]
    lines += [f"| `{name}` | `:{name}:` |" for name in names]
    lines.append("")
    return lines


def rules() -> Lines:
    """Every registered diagnostic rule."""
    from toolkit.checks import iter_rules
    from toolkit.diagnostics.registry import FAMILIES, REGISTRY

    for module in iter_rules():
        importlib.import_module(module)
    lines: Lines = [
        "## Diagnostic rules",
        "",
        "Select or ignore them by code or prefix (`--select`, `--ignore`, the manifest's",
        "`checks:`), or silence one line with `# playset: ignore[CODE]`.",
        "",
        "| code | name | family | severity | summary |",
        "| --- | --- | --- | --- | --- |",
    ]
    for r in sorted(entries(REGISTRY).values(), key=lambda r: r.code):
        lines.append(
            f"| `{r.code}` | {r.name} | {FAMILIES[r.family]} | {r.severity.value}"
            f" | {cell(r.summary)} |"
        )
    lines.append("")
    return lines
