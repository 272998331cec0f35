"""Header cells name fields by the paths a YAML deck nests them under: `name.fr`,
`params.coins`, `effect.kind`. A list item is numbered from 1 in brackets: `answers[1].en`
is the first answer's English text, `effects[2].kind` the second effect's kind. A segment of
digits is a number key, as YAML reads `1:` (`sips.1`). A header starting with `#` names a
notes column: never a field, the place for a `playset: ignore[CODE]` note."""

from __future__ import annotations

import re
from dataclasses import dataclass

Segment = str | int | tuple[int]
"""A mapping key (text or number) or, as a 1-tuple, a 0-based list index."""

_SEGMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*|[0-9]{1,9})((?:\[[0-9]{1,4}\])*)")
_INDEX = re.compile(r"\[([0-9]+)\]")


@dataclass(frozen=True)
class Column:
    """One header cell: its 1-based column, its text and the path it names."""

    col: int
    text: str
    path: tuple[Segment, ...]

    @property
    def data_path(self) -> tuple[str | int, ...]:
        """The path inside one card, list indexes as ints (the Document's convention)."""
        return tuple(seg[0] if isinstance(seg, tuple) else seg for seg in self.path)


def parse(text: str) -> tuple[Segment, ...] | str:
    """The path a header names, or why it names none."""
    if not text:
        return "an empty header cell above filled cells: name the field this column holds"
    path: list[Segment] = []
    for part in text.split("."):
        found = _SEGMENT.fullmatch(part)
        if found is None:
            return (
                f"{text!r} is not a field path: use names joined by dots (name.fr,"
                " effect.kind) and [n] for a list item (answers[1].en)"
            )
        key, indexes = found.groups()
        path.append(int(key) if key.isdigit() else key)
        for index in _INDEX.findall(indexes):
            if int(index) < 1:
                return f"{text!r}: list items are numbered from 1 ([1] is the first)"
            path.append((int(index) - 1,))
    return tuple(path)


def render(path: tuple[str | int, ...], is_index: tuple[bool, ...]) -> str:
    """The header text of a data path (`is_index` marks list positions)."""
    out = ""
    for seg, index in zip(path, is_index, strict=True):
        if index:
            out += f"[{int(seg) + 1}]"
        else:
            out += ("." if out else "") + str(seg)
    return out
