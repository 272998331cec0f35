"""A game with some rules values or options changed: what sweeps and tuning play.

A parameter is a dotted path into `game.yaml`'s `rules` (`die_sides`, `rules.team_sizes.0`)
or a declared option (`mode`, `option.short_deck`); a bare name that is both is the option,
since an option's value overrides the rules default at the table. Changed rules are validated
exactly as the file would be (the schema, then the game's own G checks), so a value the rules
do not allow is refused with a diagnostic at that rule's line in game.yaml, naming it.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from toolkit.content.game import Game, LoadedFile
from toolkit.content.models.manifest import ManifestBase
from toolkit.content.source import Document
from toolkit.content.suggest import tipped
from toolkit.content.validation import validate_document
from toolkit.diagnostics import Diagnostic, Severity, Span, rule
from toolkit.sim.options import SetupError, parse_options

B_SWEEP_PATH = rule(
    "B101",
    "unknown-parameter",
    "A swept or tuned parameter names no rules value and no option of the game.",
)
B_SWEEP_VALUE = rule(
    "B102", "bad-parameter-value", "A swept or tuned value is not one the option takes."
)

Value = bool | int | float | str


class VariantError(ValueError):
    """Parameters the game refuses: positioned diagnostics (exit 1, nothing played)."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = list(diagnostics)


@dataclass(frozen=True)
class Parameter:
    """One thing a sweep varies: where it lives and the values it takes."""

    path: str  # as the user wrote it, without the rules./option. prefix
    target: Literal["rules", "option"]
    values: tuple[Value, ...]

    @property
    def label(self) -> str:
        return self.path


def parse_value(raw: str) -> Value:
    """A command-line value as YAML would read it: true/false, whole numbers, decimals, text."""
    text = raw.strip()
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def finite_values(values: tuple[Value, ...], where: str) -> tuple[Value, ...]:
    """VALUES, or a SetupError naming WHERE (the option and its text) if one is a number
    past the float range or not a number at all (`nan`, `inf`, `1e400` read as floats)."""
    for value in values:
        if isinstance(value, float) and not math.isfinite(value):
            raise SetupError(f"{where}: {value} is not a finite number")
    return values


def _segments(path: str) -> tuple[str | int, ...]:
    return tuple(int(p) if p.isdigit() else p for p in path.split(".") if p)


def _manifest(game: Game) -> tuple[LoadedFile, Document, ManifestBase]:
    mf, manifest = game.manifest_file, game.manifest
    if mf is None or mf.doc is None or manifest is None:
        raise ValueError(f"{game.id}: no valid game.yaml")
    return mf, mf.doc, manifest


def resolve(game: Game, path: str, values: Iterable[Value]) -> Parameter:
    """Where `path` points (rules or option), or a B101 diagnostic at the nearest place."""
    mf, doc, manifest = _manifest(game)
    options = {o.id for o in manifest.options}
    values = tuple(values)
    if path.startswith("option."):
        name = path.removeprefix("option.")
        if name in options:
            return Parameter(name, "option", values)
        raise VariantError([_unknown(doc, mf.rel, path, ("options",), sorted(options), "option")])
    if not path.startswith("rules.") and path in options:
        return Parameter(path, "option", values)
    bare = path.removeprefix("rules.")
    segs = _segments(bare)
    node: Any = doc.data.get("rules") if isinstance(doc.data, dict) else None
    where: tuple[str | int, ...] = ("rules",)
    for seg in segs:
        # below a number or a text lies nothing (len() of an int was a traceback)
        keys: list[Any] = (
            list(node)
            if isinstance(node, dict)
            else list(range(len(node)))
            if isinstance(node, list)
            else []
        )
        if not isinstance(node, dict | list) or seg not in keys:
            names = [str(k) for k in keys] + ([] if where != ("rules",) else sorted(options))
            raise VariantError([_unknown(doc, mf.rel, path, where, names, "rules value")])
        node = node[seg] if isinstance(node, dict) else node[int(seg)]
        where = (*where, seg)
    if isinstance(node, dict | list):
        inside = ", ".join(map(str, node if isinstance(node, dict) else range(len(node))))
        message = f"--vary {path}: {bare} is a group, not one value (inside it: {inside})"
        raise VariantError([B_SWEEP_PATH.at(mf.rel, doc.key_span(where), message)])
    return Parameter(bare, "rules", values)


def _unknown(
    doc: Document, rel: str, path: str, where: tuple[str | int, ...], names: list[str], what: str
) -> Diagnostic:
    last = path.split(".")[-1]
    close = tipped(last, names)  # a few paths a run (`suggest.tips_run`)
    there = f" (there: {', '.join(names) or 'none'})"
    hint = f"; did you mean {close}?" if close is not None else there
    span = doc.key_span(where) if where in doc.key_spans else Span()
    return B_SWEEP_PATH.at(rel, span, f"--vary {path}: no such {what} in game.yaml{hint}")


def check_option(game: Game, name: str, value: Value, players: int) -> bool | int | str:
    """The option's value as the game types it, or a B102 diagnostic at the option's
    declaration if it does not take `value`."""
    mf, doc, manifest = _manifest(game)
    text = str(value).lower() if isinstance(value, bool) else str(value)
    try:
        return parse_options(game, [f"{name}={text}"], players)[name]
    except SetupError as exc:
        index = next(i for i, o in enumerate(manifest.options) if o.id == name)
        span = doc.span(("options", index, "id"))
        raise VariantError(
            [B_SWEEP_VALUE.at(mf.rel, span, f"--vary {name}={text}: {exc}")]
        ) from None


def with_rules(game: Game, overrides: Sequence[tuple[str, Any]]) -> Game:
    """A copy of `game` whose rules hold these values, validated as if written in game.yaml
    (schema, then the game's G checks); errors point at the changed rule's line."""
    mf, doc, _ = _manifest(game)
    data = copy.deepcopy(doc.data)
    for path, value in overrides:
        node = data["rules"]
        segs = _segments(path)
        for seg in segs[:-1]:
            node = node[seg]
        node[segs[-1]] = value
    changed = ", ".join(f"{p}={v}" for p, v in overrides)
    variant_doc = Document(doc.path, doc.display, data, doc.spans, doc.key_spans)
    manifest, diags = validate_document(variant_doc, game.plugin.manifest_adapter)
    if manifest is None:
        raise VariantError([_named(d, changed) for d in diags])
    variant = dataclasses.replace(
        game, manifest_file=LoadedFile(mf.rel, variant_doc, manifest), diagnostics=[]
    )
    errors = [
        _named(d, changed)
        for check in game.plugin.checks
        for d in check(variant)
        if d.severity == Severity.ERROR
    ]
    if errors:
        raise VariantError(errors)
    return variant


def _named(d: Diagnostic, changed: str) -> Diagnostic:
    return dataclasses.replace(d, message=f"with {changed}: {d.message}")
