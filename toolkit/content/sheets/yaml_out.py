"""A sheet's rows back to YAML, fast: the rows are written by a small emitter of our own for
the plain values a card holds (mappings with text or whole-number keys, lists, texts, whole
numbers, numbers, booleans, nothing), in exactly the text ruamel writes for them (`dump`'s
settings: block style, mappings indented 2, lists 4 with the dash at 2, unicode as is, lines
up to 4,096). ruamel's own resolver and scalar analysis choose each text's style, so a text is
plain or quoted just as ruamel would have it; a card holding anything else (a text that needs
double quotes or spans lines, a line long enough to fold, an empty or nested-list value, a
long key, a type of another kind) is written by ruamel itself, and a deck whose cards share a
value (an anchor) wholly by ruamel. ruamel dumping 7,800 cards took 8.5 s of a 10 s
conversion."""

from __future__ import annotations

import io
import math
from functools import cache
from typing import Any

WIDTH = 4096
"""ruamel's line width here: a plain or single-quoted text folds at a space past it."""
SAFE_LINE = WIDTH - 96
"""A line this long or longer is left to ruamel (it might fold there)."""
MAX_KEY = 100
"""A key this long or longer is left to ruamel (from 123 characters, with its tag's 5, it
writes a `? ` key)."""

_STR = "tag:yaml.org,2002:str"
_FLOAT = "tag:yaml.org,2002:float"


_FOLDED = "\x85"
"""A character ruamel's round-trip emitter writes as a line break inside single quotes,
which reads back as a space (NEL, U+0085: `'nel\x85  x'` came back `'nel x'`); a text
holding one is written double-quoted, where it is escaped (`"nel\\Nx"`), as ruamel's safe
dumper writes it."""


@cache
def _emitter() -> type:
    from ruamel.yaml.emitter import RoundTripEmitter

    class Emitter(RoundTripEmitter):
        """ruamel's round-trip emitter, a text holding `_FOLDED` double-quoted."""

        def choose_scalar_style(self) -> Any:
            value = getattr(self.event, "value", None)
            if isinstance(value, str) and _FOLDED in value and not self.event.style:
                return '"'
            return super().choose_scalar_style()

    return Emitter


def _yaml() -> Any:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.Emitter = _emitter()
    yaml.width = WIDTH
    yaml.allow_unicode = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def dump(data: Any) -> str:
    """`data` as ruamel writes it with the settings of a converted deck."""
    out = io.StringIO()
    _yaml().dump(data, out)
    return out.getvalue()


class _Defer(Exception):
    """A value the emitter leaves to ruamel."""


class _Scalars:
    """Texts as ruamel writes them, worked out once per distinct text and place."""

    def __init__(self) -> None:
        from ruamel.yaml.nodes import ScalarNode

        yaml = _yaml()  # its own resolver and emitter: the ones `dump` writes with
        self._resolve = yaml.resolver.resolve
        self._node = ScalarNode
        self._analyze = yaml.emitter.analyze_scalar
        self._values: dict[str, str | None] = {}
        self._keys: dict[str, str | None] = {}

    def _implicit(self, text: str) -> Any:
        return self._resolve(self._node, text, (True, False))

    def text(self, value: str, key: bool) -> str:
        cache = self._keys if key else self._values
        try:
            shown = cache[value]
        except KeyError:
            shown = cache[value] = self._style(value, key)
        if shown is None:
            raise _Defer
        return shown

    def _style(self, value: str, key: bool) -> str | None:
        """ruamel's choice (Emitter.choose_scalar_style) for a text it represents untagged,
        or None where it would write double quotes or lines (those are left to it)."""
        if key and len(value) >= MAX_KEY:
            return None
        if value == "":
            return "''"
        analysis = self._analyze(value)
        if analysis.multiline or "\n" in value:
            return None
        if self._implicit(value) == _STR and analysis.allow_block_plain:
            return value
        if "'" in value or not analysis.allow_single_quoted:
            return None  # ruamel writes double quotes
        return f"'{value}'"

    def number(self, value: float) -> str:
        """SafeRepresenter.represent_float's text, written plain when it reads back as a
        number (else ruamel tags it)."""
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
        shown = repr(value).lower()
        if self._implicit(shown) != _FLOAT:
            raise _Defer
        return shown


class _Writer:
    def __init__(self, scalars: _Scalars) -> None:
        self.scalars = scalars
        self.lines: list[str] = []

    def line(self, text: str) -> None:
        if len(text) >= SAFE_LINE:
            raise _Defer
        self.lines.append(text)

    def scalar(self, value: Any) -> str | None:
        """The text of a scalar value, None for a mapping or a list, _Defer for others."""
        kind = type(value)
        if kind is str:
            return self.scalars.text(value, key=False)
        if kind is bool:
            return "true" if value else "false"
        if kind is int:
            return str(value)
        if kind is float:
            return self.scalars.number(value)
        if value is None:
            return ""
        if kind is dict or kind is list:
            if not value:
                raise _Defer  # `{}` / `[]`: rare, left to ruamel
            return None
        raise _Defer

    def mapping(self, data: dict[Any, Any], col: int, first: str) -> None:
        """`data`'s entries at column `col`, the first after `first` (a list item's dash)."""
        lead = first
        for key, value in data.items():
            if type(key) is str:
                name = self.scalars.text(key, key=True)
            elif type(key) is int:  # `sips: {1: 3}`
                name = str(key)
            else:
                raise _Defer
            shown = self.scalar(value)
            if shown is None:
                self.line(f"{lead}{name}:\n")
                self.block(value, col + 2)
            elif shown == "":
                self.line(f"{lead}{name}:\n")
            else:
                self.line(f"{lead}{name}: {shown}\n")
            lead = " " * col

    def items(self, data: list[Any], col: int) -> None:
        """`data`'s items, each dash at column `col`."""
        dash = " " * col + "- "
        for value in data:
            shown = self.scalar(value)
            if shown is None:
                if type(value) is not dict:
                    raise _Defer  # a list in a list: ruamel's own spacing
                self.mapping(value, col + 2, dash)
            else:
                self.line(f"{dash}{shown}\n")

    def block(self, value: Any, col: int) -> None:
        if type(value) is dict:
            self.mapping(value, col, " " * col)
        else:
            self.items(value, col)


def _shared(values: list[Any]) -> bool:
    """Whether a mapping or list appears twice among `values` (ruamel writes an anchor)."""
    seen: set[int] = set()
    stack = list(values)
    while stack:
        value = stack.pop()
        if isinstance(value, dict | list):
            if id(value) in seen:
                return True
            seen.add(id(value))
            stack.extend(value.values() if isinstance(value, dict) else value)
    return False


def dump_rows(rows_key: str, rows: list[Any]) -> str:
    """`{rows_key: rows}` as `dump` writes it."""
    scalars = _Scalars()
    if not rows or _shared(rows):
        return dump({rows_key: rows})
    try:
        head = f"{scalars.text(rows_key, key=True)}:\n"
    except _Defer:
        return dump({rows_key: rows})
    out = [head]
    for row in rows:
        writer = _Writer(scalars)
        try:
            writer.items([row], 2)
        except _Defer:
            out.append(dump({rows_key: [row]}).split("\n", 1)[1])
            continue
        out.extend(writer.lines)
    return "".join(out)
