"""Card text templates: `{amount}` in a text names a parameter of its card.

One place decides which names a text may use and what they print, for the references check,
the translation checks, the rulebook and the renderer alike.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from functools import cache
from typing import Any

from pydantic import BaseModel

from toolkit.content.unit_cache import cached, fresh_each_run

PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_TOKEN = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")
"""A card text's braces read from left to right, as `str.format` reads them: `{{` a brace,
`}}` a brace, `{name}` a placeholder (group 1). So `{{{points}}}` is a brace, the value, a
brace (splitting on every `{{` first had printed "{{points}}" as written)."""
NAME = re.compile(r"^[a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)*$")
INLINE_ICON = re.compile(r":(?<![^\W_]:)([a-z_]+):(?![^\W_])")
"""An icon inside a line of text (`:die:`), one em wide; unknown names print as written. Set
apart from letters and digits on both sides (as emoji shortcodes are): `10:30:45` and
`a:b:c` are no icons. The one definition the renderer and every check use. (The colon comes
first, so a search skips to each colon: a look-behind first made it 100 times slower.)"""


_SCALARS = (int, float, str)


def _is_scalar(value: Any) -> bool:
    return isinstance(value, _SCALARS) and not isinstance(value, bool)


_FIELDS: dict[type, tuple[str, ...]] = {}


def field_names(model: BaseModel) -> tuple[str, ...]:
    """The names of a model's fields, in order: its class's `model_fields`, read once per
    class (pydantic answers that class property through a descriptor, ~3 µs a time, twice
    per card and language when its texts are filled and its layout context is made)."""
    kind = type(model)
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(kind.model_fields)
    return names


@cache
def _or_list(items: tuple[str, ...], lang: str) -> str:
    """'3 ou 5', '3 o 5', '3 or 5': a list of alternatives as the language writes it (CLDR);
    kept between `validate` runs (toolkit.content.unit_cache): babel's locale data is then
    not read at all."""
    return cached("or-list", [list(items), lang], lambda: _cldr_or_list(items, lang), str, _text)


fresh_each_run(_or_list.cache_clear)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("not a text")
    return value


def _cldr_or_list(items: tuple[str, ...], lang: str) -> str:
    from babel.core import UnknownLocaleError
    from babel.lists import format_list

    try:
        return format_list(list(items), style="or", locale=lang)
    except (UnknownLocaleError, ValueError):
        return "/".join(items)


def _number(value: Any, lang: str | None) -> str:
    """A value as printed: in a language, a negative number takes the minus sign (U+2212)."""
    text = str(value)
    if lang and isinstance(value, (int, float)) and text.startswith("-"):
        return "\u2212" + text[1:]
    return text


def _show(value: Any, lang: str | None) -> str:
    if isinstance(value, list):
        items = tuple(_number(v, lang) for v in value)
        return _or_list(items, lang) if lang and len(items) > 1 else "/".join(items)
    return _number(value, lang)


def parameter_values(owner: BaseModel | None, lang: str | None = None) -> dict[str, str]:
    """Every name a text of `owner` may use, with what it prints (in `lang`: a list prints as
    alternatives, '3 or 5'; without a language, '3/5').

    Its scalar fields (`points`), those of nested effects both plain and dotted (`amount`,
    `ability.coins`), scalar dict entries dotted (`bonuses.fire`), generic `params` keys.
    A plain name shared by two nested effects keeps the first one.
    """
    values: dict[str, str] = {}
    if owner is not None:
        _walk(values, owner, "", 0, lang)
    return values


def parameter_names(owner: BaseModel | None) -> frozenset[str]:
    """The names `parameter_values(owner)` gives: what a text of `owner` may name. In a run
    of the checks (toolkit.content.assets.steady) worked out once per owner: the references
    check, translation parity and print-fit each ask of every card text that names one."""
    from toolkit.content.assets import steady_memo

    memo = steady_memo()
    if memo is None or owner is None:
        return frozenset(parameter_values(owner))
    key = ("parameter-names", id(owner))
    kept = memo.get(key)
    if kept is not None and kept[0] is owner:  # the owner is kept with them: its id is its
        return kept[1]
    names = memo[key] = (owner, frozenset(parameter_values(owner)))
    return names[1]


def _walk(
    values: dict[str, str], model: BaseModel, prefix: str, depth: int, lang: str | None
) -> None:
    """`parameter_values`' names and values of `model` added to `values` (a name given before
    keeps its value). One function, no closure made per call: it runs for every card and
    language a build fills (~500 times for 100 cards), ~17 µs a card with closures. A value
    of the exact type `str` is shown as it is (what `_show` gives it), and the other exact
    scalar types skip `_is_scalar`'s calls: ~5 µs a card to ~3 µs."""
    for name in field_names(model):
        value = getattr(model, name)
        if value is None:  # an unset optional field: no name to give (most of a card's)
            continue
        kind = type(value)
        if kind is str:  # the same text `_show` gives
            values.setdefault(prefix + name, value)
            values.setdefault(name, value)
        elif kind is dict:
            dotted = prefix + name + "."
            both = name == "params"
            for key, item in value.items():
                if type(item) is str:
                    shown = item
                elif _is_scalar(item):
                    shown = _show(item, lang)
                else:
                    continue
                values.setdefault(f"{dotted}{key}", shown)
                if both:
                    values.setdefault(str(key), shown)
        elif _is_scalar(value) or (
            isinstance(value, list) and value and all(_is_scalar(v) for v in value)
        ):
            shown = _show(value, lang)  # once for all its names: the first name given keeps it
            values.setdefault(prefix + name, shown)
            values.setdefault(name, shown)
        elif isinstance(value, dict):
            dotted = prefix + name + "."
            both = name == "params"
            for key, item in value.items():
                if _is_scalar(item):
                    shown = _show(item, lang)
                    values.setdefault(f"{dotted}{key}", shown)
                    if both:
                        values.setdefault(str(key), shown)
        elif depth < 2 and isinstance(value, BaseModel):
            _walk(values, value, prefix + name + ".", depth + 1, lang)
        elif depth < 2 and isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, BaseModel):
                    _walk(values, item, f"{prefix}{name}.{index}.", depth + 1, lang)


def placeholders(text: str) -> list[str]:
    """The {names} a text uses ({{ and }} are literal braces), as `substitute` reads them."""
    if "{" not in text:  # every placeholder opens with one (most texts: no search)
        return []
    return [match.group(1) for match in _TOKEN.finditer(text) if match.group(1) is not None]


def fill(text: str, owner: BaseModel | None, lang: str | None = None) -> str:
    """The text with every placeholder replaced by its value in `lang` (unknown ones left as
    is)."""
    return substitute(text, parameter_values(owner, lang))


MAX_FILLS = 3
"""How many times a board phrase may write one of its names: the drawers put one phrase in
another (a track's `or` in its `count`, its `count` in its `title`), so each repeat
multiplies what the phrase below fills in (probe 18: 360 M characters from a 30 kB board)."""
MAX_FILLED = 100_000
"""Characters a filled board phrase may hold: past it, the drawer refuses it (a validated
game stays far below: labels of at most 200 characters, names written at most 3 times)."""


def filled_size(text: str, values: Mapping[str, str]) -> int:
    """How long `substitute(text, values)` would be, at most, worked out without making it."""
    size = len(text)
    for match in PLACEHOLDER.finditer(text):
        value = values.get(match.group(1))
        if value is not None:
            size += len(value) - len(match.group(0))
    return size


def repeated_names(text: str, names: Collection[str]) -> list[str]:
    """The names of `names` that `text` writes more than MAX_FILLS times."""
    counts: dict[str, int] = {}
    for match in PLACEHOLDER.finditer(text):
        if match.group(1) in names:
            counts[match.group(1)] = counts.get(match.group(1), 0) + 1
    return [name for name, count in counts.items() if count > MAX_FILLS]


def substitute(text: str, values: Mapping[str, str]) -> str:
    """`text` with each `{name}` of `values` replaced by its value, `{{`/`}}` by one brace,
    anything else printed as written: never `str.format`, whose format specs (`{n:>99999999}`)
    a designer's or a translator's text would have obeyed."""

    def sub(match: re.Match[str]) -> str:
        return values.get(match.group(1), match.group(0))

    return _filled(text, sub)


def own_letters(text: str, owner: BaseModel | None) -> str:
    """What the text itself prints once filled: every placeholder `fill` replaces left out
    (its value is the card's data, searched where the card prints), unknown ones and the
    braces `{{`/`}}` print as written, as `fill` gives them."""
    names = parameter_names(owner)
    return _filled(text, lambda match: "" if match.group(1) in names else match.group(0))


_TOKEN_OR_LONE = re.compile(_TOKEN.pattern + r"|[{}]")
"""`_TOKEN`, or a brace left alone (printed as written)."""


def _filled(text: str, sub: Any) -> str:
    """`text` with each placeholder replaced by `sub(match)`, `{{` and `}}` made braces."""

    def one(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "{{" or token == "}}":
            return token[0]
        return str(sub(match))

    return _TOKEN.sub(one, text)


_MAX_ESCAPED = 100
"""Letters between doubled braces still searched as one `{{…}}` (a name, a spec, an index)."""
_HEAD_NAME = re.compile(r"[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*")


def _escaped_runs(text: str) -> list[tuple[str, str]]:
    """Each run of `{{`, then letters with no brace, then a run of `}}` (`{{points}}`,
    `{{{{points}}}}`, six braces, `{{{{points}}`), braces read as `_TOKEN` reads them: as
    written, and its inside. `{{{points}}}` is none: its middle is a placeholder, the value."""
    tokens = [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]
    runs = []
    at = 0
    while at < len(tokens):
        token, start, end = tokens[at]
        at += 1
        if token != "{{":
            continue
        while at < len(tokens) and tokens[at][0] == "{{" and tokens[at][1] == end:
            end = tokens[at][2]
            at += 1
        if at == len(tokens) or tokens[at][0] != "}}" or tokens[at][1] - end > _MAX_ESCAPED:
            continue
        inside, close = text[end : tokens[at][1]], tokens[at][2]
        at += 1
        while at < len(tokens) and tokens[at][0] == "}}" and tokens[at][1] == close:
            close = tokens[at][2]
            at += 1
        runs.append((text[start:close], inside))
    return runs


def escaped_names(text: str, names: Collection[str] | None = None) -> list[str]:
    """The `{{…}}` of `text` that print as written, each once: `{{` and `}}` print a brace,
    so `{{points}}` prints "{points}" where `{points}` prints the value (probe 21: a Jinja
    habit, printed on the card and in the rulebook's card reference, validate clean). With
    `names`, only those that begin with one of them (`{{n}}`, `{{n:>3}}`); with None, any
    (probe 22: a misspelt name, a spec; probe 23: `{{points.x}}`, `{{0}}`, `{{pointé}}`)."""
    if "{{" not in text:
        return []
    found = []
    for written, inside in _escaped_runs(text):
        head = _HEAD_NAME.match(inside)
        if names is None or (head is not None and head.group(1) in names):
            found.append(written)
    return list(dict.fromkeys(found))


def escaped_message(written: str, lang: str) -> str:
    """Why a text's `{{…}}` (`escaped_names`) is refused, as R006 and the PO import say it."""
    inside = written.strip("{}")  # the braces are runs of `{{` and `}}` (`_escaped_runs`)
    shown = _filled(written, lambda match: match.group(0))  # `{{{{points}}` prints `{{points}`
    if _HEAD_NAME.fullmatch(inside):
        return (
            f"{written} ({lang}) prints {shown!r} as written: `{{{{` and `}}}}` print a brace;"
            f" write {{{inside.strip()}}} to print the value"
        )
    if _HEAD_NAME.match(inside):  # a name, then a spec, conversion, attribute or index
        return (
            f"{written} ({lang}) prints {shown!r} as written: `{{{{` and `}}}}` print a brace,"
            " and a card's text takes no format spec, conversion, attribute or index; write"
            " a parameter's name alone in single braces"
        )
    return (
        f"{written} ({lang}) prints {shown!r} as written: `{{{{` and `}}}}` print a brace;"
        " a card's text names a value by a parameter's name alone, in single braces"
        " (`{points}`)"
    )


_WORD = re.compile(r"\S+")
_MAX_SHOWN_WORD = 40


def lone_braces(text: str) -> list[str]:
    """Each word of `text` (up to a space) where a brace left alone, which the fill prints
    as written, touches a placeholder, each once: `{n:{n}}`, a field in a field, filled the
    inner `{n}` alone and printed "{n:999999999}" (probe 51 L3); `{n}}` printed "3}". A
    brace alone away from any placeholder (`rest}.`) prints as written, as meant."""
    if "{" not in text and "}" not in text:
        return []
    # the braces `_TOKEN` reads leave none behind when none is alone (most texts with a
    # placeholder): `_TOKEN_OR_LONE` reads the same tokens and takes each brace left as one
    stripped = _TOKEN.sub("", text)
    if "{" not in stripped and "}" not in stripped:
        return []
    tokens = [(m.start(), m.end(), m.group(0), m.group(1)) for m in _TOKEN_OR_LONE.finditer(text)]
    if not any(token in ("{", "}") for _, _, token, _ in tokens):
        return []
    found: list[str] = []
    at = 0  # the first token not before this word (both in order: one pass over each)
    for word in _WORD.finditer(text):
        while at < len(tokens) and tokens[at][0] < word.start():
            at += 1
        inside = []
        while at < len(tokens) and tokens[at][0] < word.end():
            inside.append(tokens[at])
            at += 1
        lone = any(token in ("{", "}") for _, _, token, _ in inside)
        if lone and any(name is not None for _, _, _, name in inside):
            shown = word.group(0)
            found.append(shown if len(shown) <= _MAX_SHOWN_WORD else shown[:_MAX_SHOWN_WORD] + "…")
    return list(dict.fromkeys(found))


def lone_brace_message(written: str, lang: str) -> str:
    """Why a text's lone brace (`lone_braces`) is refused, as R006 and the PO import say it."""
    return (
        f"{written!r} ({lang}) prints a brace beside its placeholder as written: a placeholder"
        " inside another, or a brace alone beside one, is no placeholder; write {name} for a"
        " value, `{{` or `}}` for a brace"
    )


def stray_braces(text: str, names: Collection[str]) -> list[str]:
    """What `substitute(text, ...)` with these `names` would print as written between braces,
    each once: a `{...}` that is no `{name}` of `names` (another name, a format spec, a
    conversion) and, from a brace left alone (`{{`, `}}` print one brace), the text up to the
    next space (`{n:>9{n}}`, a field in a field)."""
    found: list[str] = []
    for match in _TOKEN_OR_LONE.finditer(text):
        token = match.group(0)
        if token == "{{" or token == "}}":
            continue
        if match.group(1) is not None:  # a placeholder
            if match.group(1) not in names:
                found.append(token)
            continue
        start = match.start()
        end = min(i for i in (text.find(" ", start), start + 24) if i >= 0)
        found.append(text[start:end])
    return list(dict.fromkeys(found))
