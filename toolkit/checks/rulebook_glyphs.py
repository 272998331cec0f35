"""P002 for what a rulebook prints, each run in the face it prints in: its Markdown (bold and
italic spans, headings, table heads; the `#` marker, a title the cover replaces and U+202F's
own glyph never print) and the game's texts the renderer places itself (the cover's title and
summary, the component list's and card reference's names), these at their own line.

The rulebook's words and what its Markdown prints (toolkit.render.markdown_printed,
rulebook_words) are imported by these checks when they run: for a game with a rulebook (the
check families' registry imports this module for every game)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import astuple
from functools import cache
from typing import TYPE_CHECKING, Any

from toolkit.checks.printfit import P_GLYPH
from toolkit.content.game import Game, LoadedFile
from toolkit.diagnostics import Diagnostic, Span
from toolkit.diagnostics.printable import code_point, code_points
from toolkit.render.fonts import FILES, missing_glyphs, stand_ins
from toolkit.render.game_fonts import FontSet

if TYPE_CHECKING:  # the rulebook's style: imported by the check of a game with a rulebook
    from toolkit.render.markdown_printed import Printed
    from toolkit.render.rulebook_style import Faces


def may_lack(text: str, faces: Faces) -> bool:
    """Whether any face of the rulebook lacks a character of `text` (rendered Markdown, as
    written): what it prints is a subset of it (but for `&…;` references, searched apart),
    so without one no finding depends on the Markdown parse.

    Each character is searched once: a face lacks a character of the text or not wherever
    it stands, and the whole rendered book was read again for each face (~1.5 ms a
    language). In no order (a set's: whether any is lacking does not depend on it), which
    is found in C several times faster than in order of first use (~0.2 ms a language)."""
    from toolkit.render.markdown_printed import STYLES, drawn

    shown = "".join(set(drawn(text) + marks()))
    return any(missing_glyphs(shown, face) for face in {getattr(faces, s) for s in STYLES})


@cache
def marks() -> str:
    """What the renderer may draw of its own beside a rulebook's text: list bullets and
    numbers."""
    from toolkit.render.rulebook_words import BULLETS

    return "".join(BULLETS) + "0123456789."


def in_markdown(
    display: str, source: str, printed: Printed, faces: Faces, fonts: FontSet
) -> Iterator[Diagnostic]:
    """P002 for characters the rulebook's Markdown prints that the face printing them
    lacks (an arrow is searched as the stand-in it prints as, '–›'): one finding per
    source line, at the first such character (on the line printing it where the source's
    same line holds it), or at line 1 for characters printed from the game's data."""
    from toolkit.render.markdown_printed import STYLES

    lacking: dict[str, list[str]] = {}  # character: the faces lacking it, in style order
    first: dict[str, int] = {}  # character: the first line printing it in such a face
    for style in STYLES:
        face = getattr(faces, style)
        lines = printed.faces[style]
        for ch in missing_glyphs(printed.face(style), face):
            said = _named(face, fonts)
            if said not in lacking.setdefault(ch, []):
                lacking[ch].append(said)
            number = next(n for n, line in enumerate(lines) if ch in line)
            first[ch] = min(first.get(ch, number), number)
    written = source.split("\n")
    by_place: dict[int, tuple[Span, list[str]]] = {}
    for ch, named in lacking.items():
        line, column = _place(written, source, ch, first[ch])
        if line not in by_place:
            by_place[line] = (Span(max(line, 1), column), [])
        by_place[line][1].append(f"{code_point(ch)}{_faces_said(named)}")
    for line, (where, chars) in sorted(by_place.items()):
        origin = " (printed from the game's data)" if line == 0 else ""
        yield P_GLYPH.at(display, where, f"the font has no glyph for {', '.join(chars)}{origin}")
    yield from _marks(display, printed, faces, fonts)


def _marks(display: str, printed: Printed, faces: Faces, fonts: FontSet) -> Iterator[Diagnostic]:
    """P002 at the first list whose bullet or number (drawn by the renderer, not written)
    the face printing it lacks, once per character."""
    said: set[str] = set()
    for line, style, mark in printed.marks:
        face = getattr(faces, style)
        lacking = [ch for ch in missing_glyphs(mark, face) if ch not in said]
        if lacking:
            said.update(lacking)
            shown = code_points(lacking)
            yield P_GLYPH.at(
                display,
                Span(line + 1, 1),
                f"the font has no glyph for {shown} in {_named(face, fonts)}"
                " (the list's bullet or number, which the rulebook draws itself)",
            )


def in_own_words(
    game: Game, lang: str, faces: Faces, fonts: FontSet, headings: bool
) -> Iterator[Diagnostic]:
    """P002 for the rulebook's own words in `lang` (labels, the players range, sizes, a
    hyphen) a face of the game's font lacks: once per face, at game.yaml's `style.font`
    (`style.heading_font` for the heading face when it names one). The toolkit's own font
    prints them all."""
    manifest = game.manifest_file
    style = manifest.model.style if manifest is not None and manifest.model is not None else None
    if style is None or manifest is None or manifest.doc is None:
        return
    if all(face in FILES for face in astuple(faces)):
        return  # every face the toolkit's own, which prints them all: no word to make
    from toolkit.render.markdown_printed import drawn
    from toolkit.render.rulebook_words import own_words

    said: dict[str, list[str]] = {}  # the key of game.yaml's style: what its faces lack
    for words in own_words(game, lang, headings):
        face = getattr(faces, words.style)
        if face in FILES:
            continue
        lacking: dict[str, list[str]] = {}
        for word in words.words:
            for ch in missing_glyphs(drawn(word), face):
                lacking.setdefault(ch, []).append(word)
        key = "heading_font" if words.style == "heading" and style.heading_font else "font"
        said.setdefault(key, []).extend(
            f"{code_point(ch)} in {_named(face, fonts)} ({_words(used)})"
            for ch, used in lacking.items()
        )
    for key, found in said.items():
        if found:
            yield P_GLYPH.at(
                manifest.rel,
                manifest.doc.span(("style", key)),
                f"the font has no glyph for {'; '.join(found)}: words the {lang} rulebook"
                " prints of its own",
            )


def _words(used: list[str]) -> str:
    """The words a character is printed in, as a finding quotes them."""
    shown = [
        "a hyphenated word" if w == "-" else repr(w.replace("\u202f", " "))
        for w in dict.fromkeys(used)
    ]
    return ", ".join(shown)


def _place(written: list[str], source: str, ch: str, number: int) -> tuple[int, int]:
    """(line, column) of the source where `ch`, printed on rendered line `number` (0-based),
    is written: that line of the source if it holds it (the rendered lines are the source's
    but where a template adds or removes some), else its first place, else (0, 1): printed
    from the game's data. U+00A0 is also printed for a U+202F, and a character reference
    (`&#9733;`) on that line of the source prints its character."""
    for wanted in (ch, *_written_as(ch)):
        if number < len(written) and wanted in written[number]:
            return number + 1, written[number].index(wanted) + 1
        at = source.find(wanted)
        if at >= 0:
            return source.count("\n", 0, at) + 1, at - (source.rfind("\n", 0, at) + 1) + 1
    from toolkit.render.markdown_printed import reference_to

    at = reference_to(written[number], ch) if number < len(written) else -1
    if at >= 0:
        return number + 1, at + 1
    return 0, 1


def _written_as(ch: str) -> list[str]:
    """The characters of a source that print as `ch`: U+202F as U+00A0, an arrow as its
    stand-in's characters."""
    found = ["\u202f"] if ch == "\u00a0" else []
    return found + [arrow for arrow, sub in stand_ins().items() if ch in sub]


def _named(face: str, fonts: FontSet) -> str:
    return fonts.describe(face)


def _faces_said(named: list[str]) -> str:
    return f" in {' and '.join(named)}"


def in_data(game: Game, lang: str, faces: Faces, fonts: FontSet) -> Iterator[Diagnostic]:
    """P002 for the game's texts the rulebook in `lang` prints in a face other than the
    main one, at the text's own line: a character the main face lacks too is said there
    already (print-fit checks every content text against it)."""
    for loaded, path, text, styles, what in _placed(game, lang):
        if not text:
            continue
        lacking: dict[str, list[str]] = {}
        for style, shown in styles:
            face = getattr(faces, style)
            if face == faces.regular:
                continue
            for ch in missing_glyphs(shown(text), face):
                if missing_glyphs(ch, faces.regular):
                    continue
                named = _named(face, fonts)
                if named not in lacking.setdefault(ch, []):
                    lacking[ch].append(named)
        if lacking and loaded.doc is not None:
            said = ", ".join(
                f"{code_point(ch)}{_faces_said(named)}" for ch, named in lacking.items()
            )
            yield P_GLYPH.at(
                loaded.rel,
                loaded.doc.span((*path, lang)),
                f"the font has no glyph for {said} ({lang}; the rulebook's {what})",
            )


def _as_written(text: str) -> str:
    return text


_Placed = tuple[LoadedFile, tuple[Any, ...], str, list[tuple[str, Any]], str]


def _placed(game: Game, lang: str) -> Iterable[_Placed]:
    """(file, path, text, [(style, as printed)], what prints it) for each game text the
    rulebook renderer prints itself (toolkit.render.rulebook: cover, components; the card
    reference is toolkit.checks.card_reference's); `path` + (lang,) is where the text is
    written."""
    manifest = game.manifest_file
    if manifest is None or manifest.model is None:
        return
    from toolkit.render.markdown_printed import drawn

    model = manifest.model
    title = model.title.get(lang)
    if title:  # the cover (heading face) and each page's footer (italic, as written)
        yield (
            manifest,
            ("title",),
            title,
            [("heading", drawn), ("italic", _as_written)],
            ("cover title and footer"),
        )
    summary = (model.summary or {}).get(lang)
    if summary:
        yield manifest, ("summary",), summary.strip(), [("italic", drawn)], ("cover summary")
    for group in (game.decks, game.boards, game.questions):
        for loaded in group:
            owner = loaded.model
            if owner is None:
                continue
            name = owner.name.get(lang, "")
            # the component list; the card reference's own strings (a deck's heading, its
            # cards' names and titles) are toolkit.checks.card_reference's
            yield loaded, ("name",), name, [("bold", drawn)], "component list"


def _in(value: Any, lang: str) -> str:
    """A text's value in `lang` ('' for none)."""
    if isinstance(value, dict):
        found = value.get(lang)
        return found if isinstance(found, str) else ""
    return ""
