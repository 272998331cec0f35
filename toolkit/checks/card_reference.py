"""P017 and P002 on what the rulebook's card reference prints (toolkit.render.card_reference):
a deck's labelled parameters and fields, which no card face may print, a card's name and
title in the reference's bold and italic, and its text with its values filled in. Each
finding is at the place of the deck file that holds the letter; a letter of a content text
(a name, a label, a card text) is said where that text is written, by text-direction and
print-fit, unless only the face the reference prints it in lacks it; the deck's name, which the
component list prints in bold, by the rulebook's check when the bold face lacks it too."""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import astuple, dataclass, field
from typing import TYPE_CHECKING, Any

from toolkit.checks.icon_names import P_INLINE_ICON
from toolkit.checks.text_direction import P_RTL, rtl_letters, said, string_leaves
from toolkit.content.game import Game, LoadedFile
from toolkit.content.printing import every_language_printed, prints
from toolkit.content.templating import INLINE_ICON
from toolkit.content.unit_cache import active
from toolkit.content.walk import Facts, Text
from toolkit.diagnostics import Diagnostic, Rule, Span
from toolkit.diagnostics.printable import code_points
from toolkit.diagnostics.registry import REGISTRY
from toolkit.render.fonts import FALLBACKS, missing_glyphs
from toolkit.render.icons import icon_set
from toolkit.render.printjob import game_fonts

if TYPE_CHECKING:  # the reference's renderer and the rulebook's style: a game with a rulebook
    from toolkit.render.card_reference import DataPath, DeckReference, Printed
    from toolkit.render.rulebook_style import Faces

Place = tuple[str, int, int, str]
"""(file, line, column, code): one finding of a rule at a place is enough."""


@dataclass
class _Found:
    """A rule's finding at one place: the characters it says, for which card and language,
    in which face."""

    rule: Rule
    span: Span
    what: str
    face: str
    chars: list[str] = field(default_factory=list)


def check(game: Game, facts: Facts, said_at: set[Place]) -> Iterator[Diagnostic]:
    """The card reference's findings in every language the game has a rulebook in (the
    reference prints only there), one a rule and place: those already said at the same
    place (`said_at`, a card face printing the same parameter) are left out."""
    if game.manifest is None or not game.rulebook:
        return
    from toolkit.render.rulebook_style import rulebook_faces

    faces = rulebook_faces(game)
    fonts = game_fonts(game)
    content = _ContentPaths(facts)
    for loaded in game.decks:
        if loaded.model is None or loaded.doc is None:
            continue
        found = _kept_deck_findings(game, content, loaded, faces, fonts.face(None))
        for place, one in found.items():
            if place in said_at:
                continue
            said_at.add(place)
            where = f"the rulebook's card reference prints {{}} for {one.what}"
            if one.rule is P_RTL:
                message = f"{said(one.chars[0])} ({where.format('it')})"
            elif one.rule.code == "R010":
                message = (
                    f"the rulebook's card reference would print this card's row at least"
                    f" {one.chars[0]} points high ({one.what}): more than a page of"
                    f" {one.chars[-1]} holds under its table's header, and a row is never"
                    " split, so `build` would refuse the rulebook; shorten it"
                )
            elif one.rule is P_INLINE_ICON and one.face == "heading":
                shown = ", ".join(f"':{name}:'" for name in one.chars)
                message = (
                    f"the rulebook's card reference prints this deck's name as a heading"
                    f" ({one.what}), where {shown} prints as written: headings, the contents"
                    " and the PDF outline print words (icons print in the card faces, the"
                    " component list and the card reference's rows); take the icon out of"
                    " the deck's name"
                )
            elif one.rule is P_INLINE_ICON:
                shown = ", ".join(f"':{name}:'" for name in one.chars)
                message = (
                    f"{where.format(shown)}, but the game has no icon of"
                    f" {'that name' if len(one.chars) == 1 else 'those names'}: it prints as"
                    " written"
                )
            else:
                shown = code_points(one.chars)
                message = (
                    f"{where.format(shown)}; the font has no glyph for"
                    f" {'it' if len(one.chars) == 1 else 'them'} ({fonts.describe(one.face)})"
                )
            yield one.rule.at(loaded.rel, one.span, message)


def _kept_deck_findings(
    game: Game, content: _ContentPaths, loaded: LoadedFile, faces: Faces, main: str
) -> dict[Place, _Found]:
    """`_deck_findings`, kept between `validate` runs as a unit named by the game folder
    with the other content files left out (toolkit.content.unit_cache): what a deck's part
    of the reference prints is worked out from that deck and the game's other files only
    (as its cards' faces are), so an edit in another deck reads it back."""
    units = active()
    name = None
    if (
        units is not None
        and units.content is not None
        and loaded.doc is not None
        and every_language_printed()  # a `build --lang` gate's share is not every language's
    ):
        here = os.path.abspath(loaded.doc.path)
        name = units.framed_name_but(KIND, here)
    if units is None or name is None:
        return _deck_findings(game, content, loaded, faces, main)
    kept = units.get(name, _read_found)
    if kept is not None:
        return kept
    found = _deck_findings(game, content, loaded, faces, main)
    units.put(name, _stored_found(found))
    units.framed.append(name)
    return found


KIND = "card-reference"
"""The unit kind of one deck's card reference findings."""


def _stored_found(found: dict[Place, _Found]) -> list[Any]:
    """A deck's findings as kept (JSON): its spans whole, as the deck's bytes name the unit."""
    return [
        [list(place), one.rule.code, list(astuple(one.span)), one.what, one.face, one.chars]
        for place, one in found.items()
    ]


def _read_found(kept: Any) -> dict[Place, _Found]:
    """A deck's kept findings (ValueError for a value not so kept)."""
    if type(kept) is not list:
        raise ValueError("not findings")
    found: dict[Place, _Found] = {}
    glyph = REGISTRY.get("P002")
    for item in kept:
        if type(item) is not list or len(item) != 6:
            raise ValueError("not a finding")
        place, code, span, what, face, chars = item
        rules = (P_RTL, glyph, P_INLINE_ICON, REGISTRY.get("R010"))
        rule = next((r for r in rules if r.code == code), None)
        if rule is None or type(place) is not list or len(place) != 4 or type(span) is not list:
            raise ValueError("not a card reference finding")
        if not (isinstance(what, str) and isinstance(face, str) and type(chars) is list):
            raise ValueError("not a card reference finding")
        if not all(isinstance(c, str) for c in chars) or len(span) != 6:
            raise ValueError("not a card reference finding")
        found[(place[0], place[1], place[2], place[3])] = _Found(
            rule, Span(*span), what, face, list(chars)
        )
    return found


def _deck_findings(
    game: Game, paths: _ContentPaths, loaded: LoadedFile, faces: Faces, main: str
) -> dict[Place, _Found]:
    """What one deck's part of the card reference prints wrong, in every rulebook language,
    by place in the deck file (a letter of a content text that its own checks say, in the
    face they check it in, left out)."""
    from toolkit.render.card_reference import deck_reference

    deck, doc = loaded.model, loaded.doc
    assert deck is not None and doc is not None
    glyph = REGISTRY.get("P002")  # print-fit's rule (print-fit runs this check)
    content = paths.of(loaded)
    leaves: _Leaves | None = None  # the deck's strings, when needed
    found: dict[Place, _Found] = {}
    icons = icon_set(game.root)
    for lang in filter(prints, game.rulebook):  # a `build --lang`'s gate: its own
        table = deck_reference(game, deck, lang)
        if table is not None:
            _tall_rows(loaded, table, lang, faces, icons, found)
        for card, card_id, printed in _strings(table):
            if ":" in printed.text:  # an icon the game lacks prints as written (P007)
                leaves = leaves if leaves is not None else _Leaves(string_leaves(deck))
                _unknown_icons(loaded, leaves, content, printed, card, card_id, lang, icons, found)
                if printed.face == "heading":
                    _heading_icons(loaded, printed, lang, icons, found)
            face = getattr(faces, printed.face)
            lacking = [c for c in missing_glyphs(printed.text, face) if c not in FALLBACKS]
            letters = sorted(rtl_letters(printed.text), key=printed.text.index)
            if not lacking and not letters:
                continue  # nearly every string: two searches in C
            if leaves is None:
                leaves = _Leaves(string_leaves(deck))
            for rule, ch in [*((P_RTL, c) for c in letters), *((glyph, c) for c in lacking)]:
                path = _written(leaves, printed, card, ch, lang)
                if path in content and (rule is P_RTL or missing_glyphs(ch, main)):
                    continue  # said where the content text is written
                if rule is glyph and path == ("name", lang) and missing_glyphs(ch, faces.bold):
                    continue  # the component list's bold name: the rulebook's P002 says it
                if path is None or path not in doc.spans:
                    path = (*card, "id") if card else ("id",)
                span = doc.span(path)
                place = (loaded.rel, span.line, span.col, rule.code)
                what = f"{card_id}, {lang}" if card_id else lang
                one = found.setdefault(place, _Found(rule, span, what, face))
                if ch not in one.chars:
                    one.chars.append(ch)
    return found


def _unknown_icons(
    loaded: LoadedFile,
    leaves: _Leaves,
    content: set[DataPath],
    printed: Printed,
    card: DataPath,
    card_id: str,
    lang: str,
    icons: Any,
    found: dict[Place, _Found],
) -> None:
    """P007 for an inline icon the game lacks that a string of the reference prints (a
    parameter's `:zork:` in a card's filled text), at the value that holds it; one a
    content text writes is said there (inline-icons)."""
    doc = loaded.doc
    assert doc is not None
    for match in INLINE_ICON.finditer(printed.text):
        name = match.group(1)
        if name in icons.names or name in icons.broken:
            continue
        path = _written(leaves, printed, card, f":{name}:", lang)
        if path in content:
            continue
        if path is None or path not in doc.spans:
            path = (*card, "id") if card else ("id",)
        span = doc.span(path)
        place = (loaded.rel, span.line, span.col, P_INLINE_ICON.code)
        what = f"{card_id}, {lang}" if card_id else lang
        one = found.setdefault(place, _Found(P_INLINE_ICON, span, what, printed.face))
        if name not in one.chars:
            one.chars.append(name)


def _tall_rows(
    loaded: LoadedFile,
    table: DeckReference,
    lang: str,
    faces: Faces,
    icons: Any,
    found: dict[Place, _Found],
) -> None:
    """R010 at the value of each card whose card reference row is taller than a page."""
    from toolkit.checks.card_reference_rows import tall_rows

    doc = loaded.doc
    assert doc is not None
    for card_id, printed, height, papers in tall_rows(table, lang, faces, icons):
        held = printed.path or ("id",)
        path = next((p for p in ((*held, lang), held) if p in doc.spans), ("id",))
        span = doc.span(path)  # the language's text, else the value (a number), else the id
        rule = REGISTRY.get("R010")
        place = (loaded.rel, span.line, span.col, rule.code)
        pages = " or ".join("A4" if p == "a4" else p for p in papers)
        found.setdefault(
            place, _Found(rule, span, f"{card_id}, {lang}", "", [f"{height:,.0f}", pages])
        )


def _heading_icons(
    loaded: LoadedFile, printed: Printed, lang: str, icons: Any, found: dict[Place, _Found]
) -> None:
    """P007 for an icon of the game in the deck's name, which the card reference prints as
    its heading: a heading prints words (as the rulebook's own headings, which P007 says in
    the Markdown), and the contents and the PDF outline list it."""
    doc = loaded.doc
    assert doc is not None
    for match in INLINE_ICON.finditer(printed.text):
        name = match.group(1)
        if name not in icons.names:
            continue  # one the game lacks: said where the name is written (inline-icons)
        held = printed.path or ("id",)
        path = next((p for p in ((*held, lang), held) if p in doc.spans), ("id",))
        span = doc.span(path)
        place = (loaded.rel, span.line, span.col, P_INLINE_ICON.code)
        one = found.setdefault(place, _Found(P_INLINE_ICON, span, lang, printed.face))
        if name not in one.chars:
            one.chars.append(name)


def _strings(table: DeckReference | None) -> Iterator[tuple[DataPath, str, Printed]]:
    """Each string a deck's part of the card reference prints, with its card's path and id
    (empty for the deck's heading and its columns' headings)."""
    if table is None:
        return
    for printed in (table.heading, *table.heads):
        yield (), "", printed
    for index, row in enumerate(table.rows):
        for printed in row.printed():
            yield ("cards", index), row.card_id, printed


class _ContentPaths:
    """Where each file's content texts are written, a path a language: the game's texts
    grouped by file once, when a deck's are first asked for (a deck read back asks for
    none), and a deck's paths made of its own texts alone, when asked for (after one card
    edit, the edited deck's: not the ~3,000 paths of every text of the game). Going over
    the texts for each deck was O(files x texts): 1.3 s of a game of 2,000 one-card decks
    (probe 42 N1)."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self.by_file: dict[int, list[Text]] | None = None
        self.paths: dict[int, set[DataPath]] = {}

    def of(self, loaded: LoadedFile) -> set[DataPath]:
        paths = self.paths.get(id(loaded))
        if paths is None:
            if self.by_file is None:
                self.by_file = {}
                for text in self.facts.texts:
                    self.by_file.setdefault(id(text.file), []).append(text)
            texts = self.by_file.get(id(loaded), ())
            paths = {(*text.path, lang) for text in texts for lang in text.value}
            self.paths[id(loaded)] = paths
        return paths


class _Leaves:
    """A deck's strings by path, grouped by their first two keys (a card: `cards`, its
    index), and within each group indexed by what they hold: a string's place is looked up,
    not searched. Searching every string of the deck took 97 s for a sheet of 5,000 rows
    (probe 22); every string of the card, once for each icon a text names, 63 s for 45 cards
    of 4,000 parameters (probe 23)."""

    def __init__(self, leaves: Iterable[tuple[DataPath, str]]) -> None:
        self.every = list(leaves)
        self.by_head: dict[DataPath, list[tuple[DataPath, str]]] = defaultdict(list)
        for path, text in self.every:
            self.by_head[path[:2]].append((path, text))
        self.indexes: dict[DataPath | None, dict[str, list[DataPath]]] = {}
        self.held: dict[tuple[DataPath, str], list[DataPath]] = {}  # answers, once each

    def under(self, prefix: DataPath) -> list[tuple[DataPath, str]]:
        """The strings whose path may start with `prefix`."""
        return self.by_head.get(prefix[:2], []) if len(prefix) >= 2 else self.every

    def holding(self, prefix: DataPath, ch: str) -> list[DataPath]:
        """The paths, in the deck's order, under `prefix` of the strings that hold `ch`: a
        character, or an icon's `:name:`. Once per prefix and `ch`: a text printing `:a:`
        1,333 times asked as often, and each answer went over the 3,000 strings of its card
        that hold `:a:` too (probe 24)."""
        answer = self.held.get((prefix, ch))
        if answer is None:
            answer = self.held[(prefix, ch)] = self._holding(prefix, ch)
        return answer

    def _holding(self, prefix: DataPath, ch: str) -> list[DataPath]:
        head = prefix[:2] if len(prefix) >= 2 else None
        index = self.indexes.get(head)
        if index is None:
            index = self.indexes[head] = _index(self.under(prefix))
        if len(ch) == 1 or _ICON_WRITTEN.fullmatch(ch):
            paths = index.get(ch, [])
        else:  # anything else: searched
            paths = [p for p, text in self.under(prefix) if ch in text]
        return [p for p in paths if p[: len(prefix)] == prefix]


_ICON_WRITTEN = re.compile(r":[a-z_]+:")
_ICONS_HELD = re.compile(r"(?=(:[a-z_]+:))")
"""Every `:name:` a string holds, overlapping ones too (`:a:b:` holds `:a:` and `:b:`): what
`":name:" in text` finds, as `INLINE_ICON` names are written."""


def _index(leaves: list[tuple[DataPath, str]]) -> dict[str, list[DataPath]]:
    """Each character and `:name:` the strings hold → the paths of those that hold it."""
    index: dict[str, list[DataPath]] = defaultdict(list)
    for path, text in leaves:
        held = set(text)
        if ":" in held:
            held.update(_ICONS_HELD.findall(text))
        for token in held:
            index[token].append(path)
    return index


def _written(
    leaves: _Leaves,
    printed: Printed,
    card: DataPath | None,
    ch: str,
    lang: str,
) -> DataPath | None:
    """Where the deck holds the `ch` a string prints: under the string's own path (in
    `lang` first), else anywhere in its card (a value its text is filled with)."""
    for prefix in (printed.path, card or None):
        if prefix is None:
            continue
        found = leaves.holding(prefix, ch)
        if found:
            return next((p for p in found if p[-1] == lang), found[0])
    return None
