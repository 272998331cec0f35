"""P017: a text in a right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko…).

The renderer lays every line out left to right in the order the characters are stored: a
Hebrew word prints reversed, and Arabic letters also print unjoined (no shaping). That is
unreadable, yet each glyph exists, so nothing else would say so: the finding is an error
at the text, until right-to-left layout is supported. Numbers and punctuation around a
right-to-left word are fine alone; only strong right-to-left letters (Unicode bidi classes
R and AL) count.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from toolkit.checks import CheckFamily, register
from toolkit.content.game import Game
from toolkit.content.unit_cache import Clean
from toolkit.content.walk import Facts, Text
from toolkit.diagnostics import Diagnostic, Span, rule

if TYPE_CHECKING:
    from toolkit.content.source import Document

P_RTL = rule(
    "P017",
    "right-to-left-text",
    "A text in a right-to-left script would print reversed (right-to-left layout is not"
    " supported).",
)

_MAYBE_RTL = re.compile(
    "[\u0590-\u08ff\u200f\u202b\u202e\u2067\ufb1d-\ufdff\ufe70-\ufefe"
    "\U00010800-\U00010fff\U0001e800-\U0001efff]"
)
"""The blocks where every character of bidi class R or AL lies (a quick first look: most
texts have none, and one search in C says so); `first_rtl` then asks each one found."""


def first_rtl(text: str) -> int:
    """Index of the first strong right-to-left character of `text`, or -1."""
    for found in _MAYBE_RTL.finditer(text):
        if unicodedata.bidirectional(found.group()) in ("R", "AL"):
            return found.start()
    return -1


def said(ch: str) -> str:
    name = unicodedata.name(ch, "").split(" ")[0].title() or "a right-to-left"
    return (
        f"U+{ord(ch):04X} {ch!r} is {name} script, written right to left: Playset lays text"
        " out left to right only, so it would print reversed (and Arabic letters unjoined);"
        " right-to-left games are not supported yet"
    )


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    """Content texts, where they are written. What a rulebook prints is searched by the
    rulebook family on the text it renders (`in_rulebook`), and what a card face prints by
    print-fit on each resolved face (`printed_rtl`): each is worked out there once.

    With `validate`'s units active, a file whose every text had nothing to say in the last
    run is skipped whole when nothing it is read from changed (toolkit.content.unit_cache.
    Clean by file, as presence does): a text's finding is a function of its values alone,
    which its file holds. After one card edit only the edited file's texts are searched."""
    clean = Clean("clean-text-direction")
    for loaded, texts in facts.by_file():  # a file asked once, not once a text
        doc = loaded.doc
        if doc is None:
            continue
        if clean.on and clean.file_seen(loaded):
            continue  # every text of its file clean, and nothing it is read from changed
        for text in texts:
            said_here = False
            for found in _text_findings(text, doc):
                said_here = True
                yield found
            if clean.on:  # (the file is what is kept: no digest of each text)
                clean.noted(loaded, "", not said_here)
    clean.close()
    yield from _place_names(game)


def _text_findings(text: Text, doc: Document) -> Iterator[Diagnostic]:
    """P017 of one content text: at its first language whose value holds a right-to-left
    letter, and so on for each language."""
    maybe = _MAYBE_RTL.search
    for lang, value in text.value.items():
        if not isinstance(value, str) or maybe(value) is None:
            continue  # nearly every text: one search in C
        at = first_rtl(value)
        if at >= 0:
            yield P_RTL.at(text.file.rel, doc.span((*text.path, lang)), said(value[at]))


def _place_names(game: Game) -> Iterator[Diagnostic]:
    """Board place names, printed as written (not translated, so not content texts): each
    at its name, those the board's drawer prints alone (not a kind's whose names are not
    printed, nor a filler's)."""
    for loaded in game.boards:
        if loaded.model is None or loaded.doc is None:
            continue
        written = loaded.doc.text  # nearly every board: no right-to-left letter in its file
        if (
            written
            and "\\" not in written
            and (written.isascii() or _MAYBE_RTL.search(written) is None)
        ):
            continue  # (nor an escape that could write one): one or two searches in C
        for path, name in printed_names(game, loaded.model):
            letter = printed_rtl(name)
            if letter is not None:
                where = loaded.doc.span(path)
                yield P_RTL.at(loaded.rel, where, said(letter) + " (a place name the board prints)")


def printed_names(game: Game, board: Any) -> Iterable[tuple[tuple[str | int, ...], str]]:
    """The names a board prints as written, with their paths: as its kind's drawer says
    (toolkit.content.models.board.BoardKind.printed_names), else every string called
    `name` but a filler's (the style's `unnamed_prefix`)."""
    from toolkit.content.models.board import board_kinds

    entry = board_kinds().get(getattr(board, "kind", ""))
    if entry is not None and entry.printed_names is not None:
        from toolkit.render.boards import board_look

        langs = game.manifest.languages if game.manifest is not None else ["en"]
        return entry.printed_names(board, board_look(game, board, langs[0]))
    prefix = getattr(getattr(board, "style", None), "unnamed_prefix", None)
    return [
        (path, name)
        for path, name in string_leaves(board)
        if path and path[-1] == "name" and not (prefix and name.startswith(prefix))
    ]


def string_leaves(
    value: object, path: tuple[str | int, ...] = ()
) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """Every string of a model's data (models, dicts, lists, tuples), with its path, in order:
    where a letter printed from a board's or a card's data is written."""
    if isinstance(value, str):
        yield path, value
        return
    items: Iterable[tuple[str | int, object]] = ()
    if isinstance(value, BaseModel):
        items = ((key, getattr(value, key)) for key in type(value).model_fields)
    elif isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list | tuple):
        items = enumerate(value)
    for key, item in items:
        yield from string_leaves(item, (*path, key))


def printed_rtl(text: str) -> str | None:
    """The first strong right-to-left letter of `text`, or None (one search in C for a text
    without any, as nearly every text is)."""
    if _MAYBE_RTL.search(text) is None:
        return None
    at = first_rtl(text)
    return text[at] if at >= 0 else None


def rtl_letters(text: object) -> set[str]:
    """Every strong right-to-left letter of a text (none, after one search in C, for
    nearly every text)."""
    if not isinstance(text, str) or _MAYBE_RTL.search(text) is None:
        return set()
    return {
        found.group()
        for found in _MAYBE_RTL.finditer(text)
        if unicodedata.bidirectional(found.group()) in ("R", "AL")
    }


_COMMENT = re.compile(r"\{#(?:(?!\{#).)*?#\}", re.DOTALL)
"""A Jinja comment, each stopping at the next opener: linear (`{#.*?#}` scanned from every
unclosed `{#` to the end: 240 kB of them with one right-to-left word took 94 s)."""


def _blanked(found: re.Match[str]) -> str:
    """A comment masked: each character but a line break made NUL (lines and columns kept)."""
    return "\n".join("\x00" * len(line) for line in found.group(0).split("\n"))


MAX_SEARCHED_LINES = 50
"""Printed lines with right-to-left letters that one rulebook's source is searched for
beyond their own line (each such search may read the whole source): past them, a line
not found at its own place is left out (the findings already refuse the rulebook)."""


def in_rulebook(display: str, source: str, text: str) -> Iterator[Diagnostic]:
    """P017 on what a rulebook prints (`text`, its rendered Markdown; `source` as written):
    one finding per place, at the letters where the source holds them outside a comment
    (a literal, or a string in an expression), else at the expression that printed them
    when the line's words before them are the source's, else at line 1 with the printed
    line quoted. A comment or a branch never taken prints nothing: no finding."""
    if _MAYBE_RTL.search(text) is None:
        return  # nearly every rulebook: one search in C
    written = _COMMENT.sub(_blanked, source)
    starts = [0, *(found.end() for found in _NEWLINE.finditer(written))]
    letters = rtl_letters(written)
    seen: set[tuple[int, int]] = set()
    searched: dict[str, tuple[int | None, str]] = {}
    for number, line in enumerate(text.split("\n"), 1):
        at = first_rtl(line)
        if at < 0:
            continue
        near = starts[min(number, len(starts)) - 1]
        piece = line[at : at + 64]
        own = written.find(piece, near, near + len(line) + 1) if line[at] in letters else -1
        place: int | None
        if own >= 0:  # a literal at its own line: nearly every one
            place, how = own, ""
        elif line in searched:
            place, how = searched[line]
        elif len(searched) < MAX_SEARCHED_LINES:
            place, how = searched[line] = _rulebook_place(written, near, line, at, letters)
        else:
            continue
        if place is None:
            shown = line.strip()
            shown = shown if len(shown) <= 60 else shown[:60] + "…"
            how = f" (printed from the game's data or an expression: {shown!r})"
            span = Span(1, 1)
        else:
            row = bisect_right(starts, place)
            span = Span(row, place - starts[row - 1] + 1)
        if (span.line, span.col) not in seen:
            seen.add((span.line, span.col))
            yield P_RTL.at(display, span, said(line[at]) + how)


_NEWLINE = re.compile("\n")


def _rulebook_place(
    written: str, near: int, line: str, at: int, letters: set[str]
) -> tuple[int | None, str]:
    """Where in `written` (the source, comments masked) the letters at `at` of a printed
    `line` come from: their own text when the source holds the letter (one of `letters`;
    searched from `near`, the start of the source line of the same number, then before
    it), or a character reference printing it on that source line (`&#1513;`), else the
    end of the printed words before them when an expression starts there; None when none
    is found."""
    from toolkit.render.markdown_printed import reference_to

    end = written.find("\n", near)
    reference = reference_to(written[near : end if end >= 0 else len(written)], line[at])
    if reference >= 0:
        return near + reference, ""
    if line[at] in letters:
        word = line[at:].split()[0]
        for piece in (line[at : at + 64], word, word[:8]):
            found = _find(written, piece, near)
            if found >= 0:
                return found, ""
    before = line[:at]
    for size in (64, 16):
        piece = before[-size:]
        if not piece.strip():
            break
        found = _find(written, piece, near)
        if found >= 0 and written.startswith(("{{", "{%"), found + len(piece)):
            return found + len(piece), " (printed by this expression)"
    return None, ""


def _find(text: str, piece: str, near: int) -> int:
    """The first place of `piece` in `text` from `near`, else the first before it."""
    found = text.find(piece, near)
    return found if found >= 0 else text.find(piece, 0, near + len(piece) - 1)


register(
    CheckFamily(
        "text-direction", "Texts print left to right: right-to-left scripts are said.", check
    )
)
