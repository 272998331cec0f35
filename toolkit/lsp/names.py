"""The game's own names where the editor asks for them: what to complete at the cursor,
what an id under the cursor is (hover) and where it is declared (definition).

Names come from the last game loaded (toolkit.content.walk's facts: every id declared and
every reference, by namespace), so a half-typed file still completes from what was valid."""

from __future__ import annotations

import bisect
import contextlib
import itertools
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

from toolkit.diagnostics import Span

T = TypeVar("T")

ICON_AFTER_COLON = re.compile(r"(?:^|[\s(\"'])(:)([a-z0-9_]*)$")
KEY_VALUE = re.compile(r"^\s*(?:-\s+)?([A-Za-z_][\w-]*)\s*:\s*[\"']?([\w.-]*)$")
LIST_ITEM = re.compile(r"^(\s*)-\s+[\"']?([\w-]*)$")
RULES = re.compile(r"rules\.([\w.]*)")
"""A rule's path being written; matched in `_dotted_tail` only (searched with `$` on a line
of `rules.` repeated, it went to the line's end from each: 12 s for 20,000)."""
_DOTTED = re.compile(r"[\w.]*")
GLOSSARY = re.compile(r"glossary(?:\.|\[\s*[\"'])([\w-]*)$")
CARD_ID = re.compile(r"card\.id\s*(?:==|!=)\s*[\"']([\w-]*)$")
DECKS = re.compile(r"decks\.([\w-]*)$")
PLACEHOLDER = re.compile(r"(?<!\{)\{([a-z_][a-z0-9_]*)?$")
WORD = re.compile(r"[A-Za-z0-9_-]+")
LAYOUT_KEYS = frozenset({"layout", "back"})
ICON_KEYS = frozenset({"icon", "marker"})


@dataclass(frozen=True)
class Item:
    """One completion: the text to insert, its kind and a line about it."""

    label: str
    kind: str  # "id", "icon", "layout", "rule", "term", "placeholder"
    detail: str = ""


@dataclass(frozen=True)
class Place:
    """A declaration: the real file and where in it."""

    file: str
    span: Span


MAX_ITEMS = 100
"""Completions one answer holds, those that start with the word being typed: a 2,400-card
game answered every card id at each keystroke after `card.id == '` (1,000 answers, 14 s and
119 MB; probe 65-5); past it the answer says it is incomplete, and the editor asks again as
more is typed. An editor shows a dozen at a time."""

MAX_RULE_ITEMS = MAX_ITEMS + 1
"""Rule paths a `rules.` completion lists, the first in order, one more than an answer holds
(so that it says it is incomplete): a game.yaml whose `rules:` aliases a mapping into itself
has ~65,000 paths from 1 kB (probe 39 L2: 3–6 s a request), and each listed path's value is
previewed (1,000 of them a request: 8.5 ms; probe 67-8)."""
PREVIEW = 60  # characters of a rule's value shown beside its path


def typed_word(before: str) -> str:
    """The word being typed: the run of word characters and `-` that ends `before` (after a
    namespace's dot: `glossary.t1` → `t1`), found from the end (searched with `$`, a pattern
    tried every start of a 990-letter run: ~3.5 ms a request; probe 67-3)."""
    start = len(before)
    while start > 0 and (before[start - 1].isalnum() or before[start - 1] in "_-"):
        start -= 1
    return before[start:]


MAX_RULE_MAPPINGS = 5_000
"""Mappings of `rules:` one completion looks into: aliases make a small `rules:` a graph
whose paths double at each level (578 bytes, 2**16 mappings on the way to what was typed:
16 s a request; probe 67-4)."""


def rule_paths(
    rules: Any,
    prefix: str = "",
    want: str = "",
    kept: dict[int, Any] | None = None,
    walk: _Walk | None = None,
) -> Iterator[tuple[str, Any]]:
    """Every dotted path of the game's `rules:` with its value, each mapping's keys in
    order; with `want`, only those that start with it, and only the mappings on the way to
    them are walked: of a mapping's keys, only those that start with what `want` asks at its
    level are looked at (bisected: each request looked at every key, 60,000 of them; probe
    65-5). `kept` holds each mapping's keys in order between calls. A mapping met again at
    the same depth of `want` (an alias) where nothing was found is not walked again; with
    `walk` (a completion's), no more than MAX_RULE_MAPPINGS are walked."""
    if not isinstance(rules, dict):
        return
    if prefix.startswith(want):
        rest = ""
    elif want.startswith(prefix):
        rest = want[len(prefix) :]
    else:
        return
    walk = _Walk(left=sys.maxsize) if walk is None else walk  # unbounded when not asked
    place = (id(rules), len(prefix))
    if rest and place in walk.barren or walk.left <= 0:
        return
    walk.left -= 1
    names, keys, dotted = _in_order(rules, {} if kept is None else kept)
    if not dotted:  # only the first step of `rest` can be a key
        heads: Iterable[str] = itertools.islice(_dotted_heads(rest), 1)
    elif len(names) <= rest.count("."):  # fewer names than steps: each name looked at
        heads = sorted({n for n in names if rest.startswith(n + ".")}, key=len)
    else:
        heads = _dotted_heads(rest)
    on_the_way = [
        (cut, rules[key]) for cut in heads for key in _keys_named(names, keys, cut) if key in rules
    ]
    found = False
    for name, value in on_the_way:  # each before every key that starts with all of `rest`
        for item in rule_paths(value, f"{prefix}{name}.", want, kept, walk):
            found = True
            yield item
    for index in range(bisect.bisect_left(names, rest), len(names)):
        if not names[index].startswith(rest):
            break
        path = f"{prefix}{names[index]}"
        found = True
        yield path, rules[keys[index]]
        yield from rule_paths(rules[keys[index]], path + ".", want, kept, walk)
    if not found:
        walk.barren.add(place)


@dataclass
class _Walk:
    """One completion's walk of `rules:`: the (mapping, depth) that gave nothing, and how
    many more mappings it may look into."""

    barren: set[tuple[int, int]] = field(default_factory=set)
    left: int = MAX_RULE_MAPPINGS


def _in_order(rules: dict[Any, Any], kept: dict[int, Any]) -> tuple[list[str], list[Any], bool]:
    """A mapping's keys as written in paths, in order, the keys themselves, and whether a
    name holds a dot (only then may a key other than the first step of a path lead on)."""
    found = kept.get(id(rules))
    if found is None or found[0] is not rules:
        pairs = sorted(((str(key), key) for key in rules), key=lambda pair: pair[0])
        names = [n for n, _ in pairs]
        found = kept[id(rules)] = (
            rules,
            names,
            [k for _, k in pairs],
            any("." in n for n in names),
        )
    return found[1], found[2], found[3]


def _dotted_heads(rest: str) -> Iterator[str]:
    """Each start of `rest` that a dot follows (`a.b.c` → `a`, `a.b`)."""
    at = rest.find(".")
    while at >= 0:
        yield rest[:at]
        at = rest.find(".", at + 1)


def _keys_named(names: list[str], keys: list[Any], name: str) -> list[Any]:
    start = bisect.bisect_left(names, name)
    return [keys[i] for i in range(start, bisect.bisect_right(names, name))]


class _Full(Exception):
    """The preview has its characters."""


def preview(value: Any, limit: int = PREVIEW) -> str:
    """`repr(value)[:limit]`, written only as far as `limit` (a subtree aliased many times
    over is not written whole to show its first 60 characters)."""
    parts: list[str] = []
    size = 0

    def put(text: str) -> None:
        nonlocal size
        parts.append(text)
        size += len(text)
        if size >= limit:
            raise _Full

    def walk(item: Any) -> None:
        if type(item) is dict:  # a subclass has its own repr
            put("{")
            for n, (key, sub) in enumerate(item.items()):
                put(", " if n else "")
                walk(key)
                put(": ")
                walk(sub)
            put("}")
        elif type(item) in (list, tuple):
            ends = "[]" if isinstance(item, list) else "()"
            put(ends[0])
            for n, sub in enumerate(item):
                put(", " if n else "")
                walk(sub)
            put("," + ends[1] if isinstance(item, tuple) and len(item) == 1 else ends[1])
        elif isinstance(item, str) and len(item) > 4 * limit:
            put(repr(item[: 4 * limit]))  # its first characters, as repr writes them
        else:
            put(repr(item))

    with contextlib.suppress(_Full):
        walk(value)
    return "".join(parts)[:limit]


WINDOW = 1_000
"""Characters either side of the cursor a completion or a hover reads: a name, a key, a
template expression is written within them. Each request read the whole line (3,000
completions at the end of an 800,000-character line passed 120 s; probe 64-2)."""

MAX_LIST_LINES = 2_000
"""Lines above a list item a completion looks through for the key of its list (each
request walked every item of a 200,000-line list: probe 64-3)."""


def around(text: str, col: int) -> tuple[str, int]:
    """`text` within `WINDOW` characters of `col`, and `col` in it."""
    start = max(0, col - WINDOW)
    return text[start : col + WINDOW], col - start


def _dotted_tail(before: str) -> str:
    """The run of word characters and dots that ends `before` (what `[\\w.]*$` matches from
    its leftmost start), found from the end in one pass."""
    start = len(before)
    while start > 0 and _DOTTED.fullmatch(before[start - 1]):
        start -= 1
    return before[start:]


def completions(state: Any, file: Path, lines: list[str], line: int, col: int) -> list[Item]:
    """What may be written at the cursor (0-based line and column)."""
    game = state.game
    if game is None or line >= len(lines):
        return []
    before = lines[line][max(0, col - WINDOW) : col]
    found = RULES.search(_dotted_tail(before))
    if found and game.manifest is not None:
        rules = getattr(game.manifest, "rules", {}) or {}
        kept: dict[int, Any] = per_check(state, "rule keys", dict)
        walked = rule_paths(rules, want=found.group(1), kept=kept, walk=_Walk())
        paths = itertools.islice(walked, MAX_RULE_ITEMS)
        return [Item(p, "rule", preview(v)) for p, v in paths]
    if CARD_ID.search(before):
        return _ids(state, "card")
    if DECKS.search(before):
        return _ids(state, "deck")
    if GLOSSARY.search(before):
        return per_check(
            state, "term items", lambda: [Item(i, "term", t) for i, t in _terms(state).items()]
        )
    key_value = KEY_VALUE.match(before)
    key = key_value.group(1) if key_value else _list_key(lines, line, before)
    if key in LAYOUT_KEYS:
        return per_check(
            state, "layout items", lambda: [Item(n, "layout") for n in _layouts(state)]
        )
    if key in ICON_KEYS:
        return _icon_items(state)
    if key is not None:
        namespace = _namespaces(state).get(key)
        if namespace is not None:
            return _ids(state, namespace)
    if ICON_AFTER_COLON.search(before) and (file.suffix == ".md" or ": " in before):
        return _icon_items(state)
    if PLACEHOLDER.search(before):
        return [Item(p, "placeholder", "card parameter") for p in _params_at(state, file, line)]
    return []


def _ids(state: Any, namespace: str) -> list[Item]:
    """The completions of a namespace's ids, made once a check (each request made an item
    of every id: 2,400 cards, ~1.7 ms a request; probe 67-3)."""
    return per_check(
        state,
        f"id items {namespace}",
        lambda: [Item(i, "id", namespace) for i in _declared(state, namespace)],
    )


def _icon_items(state: Any) -> list[Item]:
    return per_check(state, "icon items", lambda: [Item(n, "icon") for n in _icons(state)])


def _list_key(lines: list[str], line: int, before: str) -> str | None:
    """For a list item being written (`  - sta`), the key the list belongs to."""
    item = LIST_ITEM.match(before)
    if item is None:
        return None
    indent = len(item.group(1))
    for index in range(line - 1, max(-1, line - 1 - MAX_LIST_LINES), -1):
        previous = lines[index]
        stripped = previous.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if len(previous) - len(previous.lstrip()) < indent or not previous.lstrip().startswith("-"):
            match = re.match(r"^\s*(?:-\s+)?([A-Za-z_][\w-]*)\s*:\s*$", previous)
            return match.group(1) if match else None
    return None


def shown(items: list[Item], lines: list[str], line: int, col: int) -> tuple[list[Item], bool]:
    """The completions an answer holds, and whether more were left out (`MAX_ITEMS`)."""
    if len(items) < MAX_ITEMS:
        return items, False
    if items[0].kind == "rule":  # the paths that start with what follows `rules.` already
        return items[:MAX_ITEMS], True
    before = lines[line][max(0, col - WINDOW) : col] if line < len(lines) else ""
    word = typed_word(before).casefold()
    folded, order = _folded(items)
    start = bisect.bisect_left(folded, word)
    stop = min(bisect.bisect_left(folded, word + "\U0010ffff"), start + MAX_ITEMS)
    return [items[order[k]] for k in range(start, stop)], True


_FOLDED: list[tuple[list[Item], list[str], list[int]]] = []
"""The last lists of completions shown (by identity: those made once a check), with their
labels casefolded in order and where each is in the list: the answer's items are bisected
for the word typed, not each compared."""


def _folded(items: list[Item]) -> tuple[list[str], list[int]]:
    for kept, folded, order in _FOLDED:
        if kept is items:
            return folded, order
    order = sorted(range(len(items)), key=lambda i: items[i].label.casefold())
    folded = [items[i].label.casefold() for i in order]
    _FOLDED.insert(0, (items, folded, order))
    del _FOLDED[16:]
    return folded, order


def per_check(state: Any, name: str, make: Callable[[], T]) -> T:
    """`make()`, made once for each check of a game and kept on its state: a request's
    answer read from the whole game (its references, declarations, cards, icons) was made
    again at each request, and the editor decides how many requests there are."""
    kept: tuple[Any, dict[str, Any]] | None = getattr(state, "per_check", None)
    facts = getattr(state, "facts", None)
    if kept is None or kept[0] is not facts:
        kept = (facts, {})
        state.per_check = kept
    if name not in kept[1]:
        kept[1][name] = make()
    return cast(T, kept[1][name])


def _namespaces(state: Any) -> dict[str, str]:
    """Which namespace a key's value refers to, learned from the game's own references
    (`region:` → regions, `stops:` → spaces)."""
    return per_check(state, "namespaces", lambda: _namespaces_of(state))


def _namespaces_of(state: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for ref in state.facts.refs if state.facts is not None else ():
        key = next((p for p in reversed(ref.path) if isinstance(p, str)), None)
        if key is not None and not ref.is_key:
            out.setdefault(key, ref.namespace)
    return out


def _declared(state: Any, namespace: str) -> list[str]:
    def make() -> dict[str, list[str]]:
        ids: dict[str, set[str]] = {}
        for d in state.facts.declared if state.facts is not None else ():
            ids.setdefault(d.namespace, set()).add(d.id)
        return {space: sorted(found) for space, found in ids.items()}

    return per_check(state, "declared", make).get(namespace, [])


def _terms(state: Any) -> dict[str, str]:
    from toolkit.render.context import glossary_terms

    game = state.game
    lang = game.manifest.languages[0] if game.manifest is not None else "en"
    return glossary_terms(game, lang)


def _icons(state: Any) -> list[str]:
    from toolkit.render.icons import icon_set

    return sorted(icon_set(state.game.root).names)


def _layouts(state: Any) -> list[str]:
    from toolkit.content import assets

    own = [f.path.stem for f in assets.in_game(assets.LAYOUTS, state.game.root)]
    builtin = [f.path.stem for f in assets.in_game(assets.LAYOUTS, None)]
    return sorted(set(own) | set(builtin))


def _params_at(state: Any, file: Path, line: int) -> list[str]:
    """The parameters of the card whose entry holds `line` (0-based): the last card, in the
    file's order, whose id is written on that line or above."""
    rel = state.mirror.rel(file)
    if rel is None or state.game is None:
        return []
    lines, latest, cards = per_check(state, f"cards {rel}", lambda: _cards_by_line(state, rel))
    at = bisect.bisect_right(lines, line + 1)
    chosen = cards[latest[at - 1]] if at else {}
    params = chosen.get("params") or {}
    return sorted(params) if isinstance(params, dict) else []


def _cards_by_line(state: Any, rel: Any) -> tuple[list[int], list[int], list[dict[str, Any]]]:
    """A file's cards (those written as mappings) sorted by their id's line, and for each
    the latest card, in the file's order, whose id is on that line or above."""
    loaded = _loaded(state, rel)
    if loaded is None or loaded.doc is None:
        return [], [], []
    cards = loaded.doc.get(("cards",)) or []
    placed = sorted(
        (loaded.doc.span(("cards", index, "id")).line, index)
        for index, card in enumerate(cards)
        if isinstance(card, dict)
    )
    latest: list[int] = []
    for _, index in placed:
        latest.append(max(index, latest[-1]) if latest else index)
    return [line for line, _ in placed], latest, list(cards)


def _loaded(state: Any, rel: Any) -> Any:
    """The loaded file (of the mirrored game) that is this real file."""

    def make() -> dict[Any, Any]:
        found: dict[Any, Any] = {}
        for loaded in state.game.files():
            if loaded.doc is not None:
                found.setdefault(state.mirror.rel_of_mirrored(loaded.doc.path), loaded)
        return found

    return per_check(state, "files", make).get(rel)


def _contains(span: Span, line: int, col: int) -> bool:
    """A span holds a 1-based position (a span without an end holds its first line)."""
    end_line = span.end_line or span.line
    end_col = span.end_col if span.end_col is not None else 10**9
    if not span.line <= line <= end_line:
        return False
    if line == span.line and col < span.col:
        return False
    return not (line == end_line and col > end_col)


def name_at(state: Any, file: Path, line: int, col: int) -> tuple[Any, Any] | None:
    """The (reference or declaration, declaration) under a 0-based position: of the names
    whose span holds it, the first reference in the check's order, else the first
    declaration. Of the names written on one line, only those that start within `WINDOW`
    characters before the cursor are looked at (an id is at most 64); every name written
    over several lines that holds the cursor's line is."""
    if state.facts is None:
        return None
    by_line, targets = _by_file(state).get(state.mirror.rel(file), ({}, {}))
    found = by_line.get(line + 1)
    if found is None:
        return None
    starts, placed, covering = found
    here = (line + 1, col + 1)
    near = placed[
        bisect.bisect_left(starts, here[1] - WINDOW) : bisect.bisect_right(starts, here[1])
    ]
    holding = [p for p in itertools.chain(near, covering) if _contains(p[1], *here)]
    if not holding:
        return None
    _, _, entry, is_ref = min(holding, key=lambda p: p[0])
    return (entry, targets.get((entry.namespace, entry.id))) if is_ref else (entry, entry)


Placed = tuple[int, Span, Any, bool]
"""A name's place in the check's order (references first), its span, the reference or
declaration, and whether it is a reference."""

Line = tuple[list[int], list[Placed], list[Placed]]
"""The columns the names written on one line start at, those names in that order, and the
names written over several lines that hold the line."""

FileIndex = tuple[dict[int, Line], dict[Any, Any]]
"""A file's names by line, and each name's first declaration in the game."""


def _by_file(state: Any) -> dict[Any, FileIndex]:
    """The check's references and declarations, by file and line, made once for each check
    and kept on its game's state: each hover walked every reference of the game (3,000
    hovers on an 800-card game, 14 s; probe 64-4), then every reference of its file (a
    route of 190,000 stops, 165 ms a hover; probe 65-1)."""
    return per_check(state, "names", lambda: _names_by_file(state))


def _names_by_file(state: Any) -> dict[Any, FileIndex]:
    facts = state.facts
    first: dict[Any, Any] = {}
    for entry in facts.declared:
        first.setdefault((entry.namespace, entry.id), entry)
    starting: dict[Any, dict[int, list[Placed]]] = {}
    running: dict[Any, dict[int, list[Placed]]] = {}
    spans: dict[Any, set[Span]] = {}  # by file: each span once, with its first name (an alias
    # carries its anchor's span: 14,000 aliases of a scalar over 14,000 lines were as many
    # names on each line, 1.7 GB; probe 67-1); distinct spans nest or are apart
    named = itertools.chain(((r, True) for r in facts.refs), ((d, False) for d in facts.declared))
    for order, (entry, is_ref) in enumerate(named):
        doc = entry.file.doc
        if doc is None:
            continue
        span = doc.key_span(entry.path) if is_ref and entry.is_key else doc.span(entry.path)
        seen = spans.setdefault(doc.path, set())
        if span in seen:  # a later name with the same span never comes first
            continue
        seen.add(span)
        place = (order, span, entry, is_ref)
        last = span.end_line or span.line
        if last == span.line:
            starting.setdefault(doc.path, {}).setdefault(span.line, []).append(place)
        on = running.setdefault(doc.path, {})
        for number in range(span.line, last + 1) if last > span.line else ():
            on.setdefault(number, []).append(place)
    index: dict[Any, FileIndex] = {}
    for path in starting.keys() | running.keys():
        lines: dict[int, Line] = {}
        starts_on, runs_on = starting.get(path, {}), running.get(path, {})
        for number in starts_on.keys() | runs_on.keys():
            placed = sorted(starts_on.get(number, []), key=lambda p: (p[1].col, p[0]))
            lines[number] = ([p[1].col for p in placed], placed, runs_on.get(number, []))
        index[state.mirror.rel_of_mirrored(path)] = (lines, first)
    return index


def definition(state: Any, file: Path, line: int, col: int) -> Place | None:
    found = name_at(state, file, line, col)
    if found is None or found[1] is None:
        return None
    declared = found[1]
    doc = declared.file.doc
    return Place(state.mirror.real(str(doc.path)), doc.span(declared.path))


def describe(state: Any, declared: Any) -> str:
    """Markdown about a declared entry: its names in every language and where it is."""
    doc = declared.file.doc
    entry = doc.get(declared.path[:-1]) if declared.path and declared.path[-1] == "id" else None
    lines = [f"**{declared.id}** ({declared.namespace})"]
    if isinstance(entry, dict):
        for field in ("name", "text"):
            value = entry.get(field)
            if isinstance(value, dict):
                lines += [f"- {field} {lang}: {text}" for lang, text in value.items()]
            elif isinstance(value, str):
                lines.append(f"- {field}: {value}")
    span = doc.span(declared.path)
    where = Path(state.mirror.real(str(doc.path)))
    if where.is_relative_to(state.mirror.root):
        where = where.relative_to(state.mirror.root)
    lines.append(f"\n{where}:{span.line}")
    return "\n".join(lines)


def word_at(text: str, col: int) -> str:
    for match in WORD.finditer(text):
        if match.start() <= col <= match.end():
            return match.group(0)
    return ""


TERM_AT = re.compile(r"glossary(?:\.([A-Za-z_][\w]*)|\[\s*[\"']([\w-]+)[\"']\s*\])")


def term_at(state: Any, text: str, col: int) -> str | None:
    """Markdown about the glossary term a template names under the cursor
    (`glossary.meal`, `glossary['fifty-fifty']`): its text in every language."""
    game = state.game
    if game is None or game.glossary is None or game.glossary.model is None:
        return None
    for match in TERM_AT.finditer(text):
        if match.start() <= col <= match.end():
            term = match.group(1) or match.group(2)
            found = next((t for t in game.glossary.model.terms if t.id == term), None)
            if found is None:
                return f"**{term}**: no such term in the glossary"
            lines = [f"**{term}** (term)"]
            lines += [f"- {lang}: {words}" for lang, words in found.text.items()]
            return "\n".join(lines)
    return None
