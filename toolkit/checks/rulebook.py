"""Rulebook sources render: every Jinja expression names content that exists, every
character printed has a glyph in the font and none is a right-to-left letter (P017, on the
rendered text), and the prose follows each language's spacing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import astuple
from typing import TYPE_CHECKING

from jinja2 import TemplateSyntaxError

from toolkit.checks import CheckFamily, register
from toolkit.checks.card_reference_bounds import findings as reference_bounds
from toolkit.checks.icon_names import P_INLINE_ICON, content_icons, glued_icons
from toolkit.checks.references import R_PLACEHOLDER
from toolkit.checks.rulebook_glyphs import in_data, in_markdown, in_own_words, may_lack
from toolkit.checks.rulebook_tables import MAX_MEASURED_CHARACTERS, looked_rows, table_look
from toolkit.checks.text_direction import in_rulebook, printed_rtl
from toolkit.checks.translation.typography import FIXERS, RULES, T_MINUS, minus_fixes
from toolkit.content.board_phrases import printed_at, unfilled_message, unfilled_terms
from toolkit.content.game import Game, LoadedFile, display_path
from toolkit.content.printing import prints
from toolkit.content.templating import INLINE_ICON
from toolkit.content.unit_cache import Clean, Units, active, cached_as, text_digest
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic, Severity, Span, rule
from toolkit.render.icons import IconSet, icon_set, listed
from toolkit.render.jinja_cache import TEMPLATE_CODE_MASK, glossary_read
from toolkit.render.printjob import game_fonts
from toolkit.render.undefined import MissingName

if TYPE_CHECKING:  # the rulebook's reader and style: imported for a game with a rulebook
    from toolkit.render.card_reference import Printed as ReferencePrinted
    from toolkit.render.markdown_printed import Printed
    from toolkit.render.rulebook_source import RulebookError

R_RULEBOOK = rule(
    "R010", "rulebook-template", "A rulebook expression fails (unknown content or bad syntax)."
)
R_IMAGE = rule(
    "R012",
    "rulebook-image",
    "A rulebook's Markdown image prints only its text: a picture goes on the cover or a card.",
    Severity.WARNING,
)
_SOURCE_CODES = frozenset({*(r.code for r in RULES.values()), T_MINUS.code, R_IMAGE.code})
"""What `_typography` and `_images` say (a kept unit that says anything else is not theirs)."""


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    if game.manifest is None:
        return  # a rulebook reads the manifest: its own finding comes first
    if not game.rulebook:
        return
    from toolkit.render.markdown_printed import printed as printed_markdown
    from toolkit.render.rulebook_source import (
        RulebookError,
        read_rulebook,
        render_markdown,
        rendered_digest,
    )
    from toolkit.render.rulebook_style import rulebook_faces

    faces = rulebook_faces(game)
    fonts = game_fonts(game)
    icons: IconSet | None = None
    named: set[str] | None = None  # the inline icon names content texts write
    unfilled = None  # worked out at the first rulebook rendered
    failed: set[tuple[str, int, int, str]] = set()  # an R010 said: languages sharing a file
    measured = [MAX_MEASURED_CHARACTERS]  # table characters laid out, all languages
    clean = Clean(_CLEAN_KIND)  # rendered texts whose tables and print nothing needs settle
    for lang, path in game.rulebook.items():
        if not prints(lang):
            continue  # a `build --lang`'s gate: that rulebook is not printed
        display = display_path(path)
        yield from in_data(game, lang, faces, fonts)
        title = game.manifest.title.get(lang) or ""
        if ":" in title and INLINE_ICON.search(title):
            icons = icons or icon_set(game.root)
            yield from _title_icons(game, lang, title, icons)
        try:
            source = read_rulebook(path, game.root)
            text = render_markdown(game, lang, source)
        except RulebookError as exc:
            said = (display, exc.line, exc.col, str(exc))
            if _own_fault(game, exc) and said not in failed:  # once a place: the same file
                failed.add(said)  # fails alike for each language it is named for
                yield R_RULEBOOK.at(display, Span(exc.line, exc.col), str(exc))
            continue
        for deck_file, span, message in reference_bounds(game, lang, text):
            if (deck_file, span.line, span.col, message) not in failed:  # once a place
                failed.add((deck_file, span.line, span.col, message))
                yield R_RULEBOOK.at(deck_file, span, message)
        # two pure functions of the text and the faces, each kept as a mark of a text in
        # which it found nothing (`_CLEAN_KIND`): a language whose text is as it was in the
        # last run (after one card edit, each but the card's own) is not searched again
        mark = text_digest(*astuple(faces), rendered_digest(game, text)) if clean.on else ""
        if "|" in text:  # its own tables: a row taller than a page
            if ":" in text and INLINE_ICON.search(text):
                icons = icons or icon_set(game.root)
            if not (clean.on and clean.seen("tables:" + mark)):
                looked = table_look(text, faces, clean)  # each table marked so too
                if looked == [] and clean.on:  # plainly lower than a page: none measured
                    clean.found_clean("tables:" + mark)
                for span, message in looked_rows(text, looked, lang, faces, icons, measured):
                    if (display, span.line, span.col, message) not in failed:
                        failed.add((display, span.line, span.col, message))
                        yield R_RULEBOOK.at(display, span, message)
        # what prints, in which face: link targets never do, `&#1513;` prints ש, `**a**`
        # prints in bold. Parsed only when it may change a finding (an `&`, a right-to-left
        # letter, a character some face lacks): nearly every rulebook is then searched as
        # written, without importing the Markdown parser
        titled = bool(game.manifest.title.get(lang))
        printed = None
        if clean.on and clean.seen("printed:" + mark):
            pass  # none of the three in this text, in these faces
        elif _ENTITY.search(text) or printed_rtl(text) is not None or may_lack(text, faces):
            printed = printed_markdown(text, titled=titled)
            yield from in_markdown(display, source, printed, faces, fonts)
            yield from in_rulebook(display, source, printed.lines())  # P017 on what prints
        elif clean.on:
            clean.found_clean("printed:" + mark)
        yield from in_own_words(game, lang, faces, fonts, _listed(text))
        yield from _source_findings(display, lang, source)
        unfilled = unfilled_terms(facts) if unfilled is None else unfilled
        yield from _unfilled(display, source, text, lang, unfilled.get(lang, ()))
        if ":" in source and _ANY_ICON.search(source):
            icons = icons or icon_set(game.root)
            yield from _glued(display, source, icons)
        if (game.root / "icons").is_dir():  # a game's own SVGs: the built-ins weigh little
            icons = icons or icon_set(game.root)
            yield from reference_icons(game, lang, icons)
        if ":" in text and INLINE_ICON.search(text):
            icons = icons or icon_set(game.root)
            heavy = _painted_past(text, icons)
            if heavy is not None:
                yield R_RULEBOOK.at(display, heavy[0], heavy[1])
            if _may_misprint(text, icons):  # what prints, parsed only then (as above)
                printed = printed or printed_markdown(text, titled=titled)
                named = named if named is not None else content_icons(facts)
                yield from _icons(display, source, printed, icons, named)
    clean.close()


_CLEAN_KIND = "clean-rulebook-text"
"""The rendered rulebook texts (in their faces: `text_digest` of the faces and the text's
digest, `rulebook_source.rendered_digest`) in which the last run found nothing to parse for
(`tables:`: every table plainly lower than a page, `rulebook_tables.table_look`; `printed:`:
no character reference, right-to-left letter or character a face lacks): a text found there
is so now (toolkit.content.unit_cache.Clean). After one card edit only the languages whose
rulebook prints the card's text are searched again (~0.6 ms each other language)."""


MAX_RULEBOOK_ICON_PAINT = 1_000
"""How many times over the inline icons of one rendered rulebook may paint their boxes
together (toolkit.render.icons.icon_paint: a built-in once, an SVG icon as many times as its
shapes cover its box): the 200 icons a rulebook may hold (`rulebook_source.MAX_INLINE_ICONS`)
at five each. 199 uses of an icon of 1,990 translucent circles, each covering its box, took
`export png` 44 s (probe 48 N4)."""


def _painted_past(text: str, icons: IconSet) -> tuple[Span, str] | None:
    """R010's place and message when the inline icons of a rendered rulebook paint their
    boxes more than `MAX_RULEBOOK_ICON_PAINT` times over together: at the icon that passes."""
    from toolkit.render.icons import icon_paint, icon_weight

    painted = 0.0
    weight = 0
    for found in INLINE_ICON.finditer(text):
        name = found.group(1)
        if name not in icons.names:
            continue
        weight += icon_weight(name, icons)
        if weight > MAX_RULEBOOK_ICON_WEIGHT:
            at = found.start()
            line, col = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
            return Span(line, col), _weighed_message(name, icons, "its inline icons")
        painted += icon_paint(name, icons)
        if painted > MAX_RULEBOOK_ICON_PAINT:
            at = found.start()
            line, col = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
            message = (
                f"its inline icons paint their boxes more than {MAX_RULEBOOK_ICON_PAINT:,}"
                f" times over together (':{name}:' {icon_paint(name, icons):,.1f} times a use;"
                " a picture of the page fills each shape's pixels): this is the first one"
                " over; use fewer icons, or icons of fewer or smaller shapes"
            )
            return Span(line, col), message
    return None


MAX_RULEBOOK_ICON_WEIGHT = 16_000
"""What the inline icons of one rendered rulebook's prose may weigh together, and those of
its card reference (toolkit.render.icons.icon_weight: an SVG icon's shapes, pictures and
dashes): a card face's (`MAX_FACE_ICON_WEIGHT`) each. A rulebook drawn as a picture
(`export png`, the preview) draws every use whole, and draws icons up to twice this a
language (toolkit.render.markdown_flow.IconCanvas), so within these none is left blank: 150
uses of a 2,000-element icon left every page's icons past the eighth blank, with validate
clean (probe 50 P50-14, P50-16)."""


def _weighed_message(name: str, icons: IconSet, what: str) -> str:
    from toolkit.render.icons import icon_weight

    return (
        f"{what} weigh more than {MAX_RULEBOOK_ICON_WEIGHT:,} drawn elements together"
        f" (':{name}:' weighs {icon_weight(name, icons):,}: its shapes, pictures and dashes;"
        " a picture of the rulebook draws each use whole): this is the first one over; use"
        " fewer icons, or simpler ones"
    )


def _components(game: Game) -> list[LoadedFile]:
    """The files whose names the rulebook's component list prints: decks, boards, question
    banks (as `rulebook.components` lists them)."""
    group = [*game.decks, *game.boards, *game.questions]
    return [loaded for loaded in group if loaded.model is not None and loaded.doc is not None]


def _title_icons(game: Game, lang: str, title: str, icons: IconSet) -> Iterator[Diagnostic]:
    """P007 at the game's title for an icon of the game it names: the rulebook prints the
    title as words (the cover's title, every page's footer, the PDF's title), as its
    headings (the card faces' templates draw it; a name the game lacks is said where the
    title is written, with the other content texts)."""
    manifest = game.manifest_file
    if manifest is None or manifest.doc is None:
        return
    known = [f":{m.group(1)}:" for m in INLINE_ICON.finditer(title) if m.group(1) in icons.names]
    if known:
        at = ("title", lang) if ("title", lang) in manifest.doc.spans else ("title",)
        yield P_INLINE_ICON.at(
            manifest.rel,
            manifest.doc.span(at),
            f"the rulebook prints the game's title ({lang}) as words, so"
            f" {', '.join(repr(k) for k in dict.fromkeys(known))} prints as written: the"
            " cover's title, every page's footer and the PDF's title print no icons; take"
            " the icon out of the title",
        )


def _summary(game: Game, lang: str) -> tuple[LoadedFile, ReferencePrinted] | None:
    """game.yaml and its summary in `lang`, which the rulebook's cover prints with its
    inline icons drawn; None without one."""
    from toolkit.render.card_reference import Printed as Shown

    manifest = game.manifest_file
    if manifest is None or manifest.model is None or manifest.doc is None:
        return None
    summary = (manifest.model.summary or {}).get(lang)
    return (manifest, Shown(summary, "italic", ("summary",))) if summary else None


def reference_icons(game: Game, lang: str, icons: IconSet) -> Iterator[Diagnostic]:
    """R010 at the name, card text or column value whose inline icons take the component
    list's and card reference's past `MAX_RULEBOOK_ICON_WEIGHT` or `MAX_RULEBOOK_ICON_PAINT`
    together: they print every deck's, board's and bank's name, and every card's name,
    title, text and labelled values, outside the prose's count of icons."""
    from toolkit.render.card_reference import deck_reference, named
    from toolkit.render.icons import icon_paint, icon_weight

    weight, painted = 0, 0.0
    listed = "the cover's, component list's and card reference's"
    parts = [(loaded, [named(loaded.model, lang)], listed) for loaded in _components(game)]
    summary = _summary(game, lang)
    if summary is not None:
        parts.insert(0, (summary[0], [summary[1]], listed))
    for loaded in game.decks:
        if loaded.model is None or loaded.doc is None:
            continue
        found = deck_reference(game, loaded.model, lang)
        cells = [c for row in found.rows for c in row.with_icons()] if found else []
        parts.append((loaded, cells, "the card reference's"))
    for loaded, cells, printer in parts:
        assert loaded.doc is not None
        for cell in cells:
            for icon in INLINE_ICON.finditer(cell.text):
                name = icon.group(1)
                if name not in icons.names:
                    continue
                weight += icon_weight(name, icons)
                painted += icon_paint(name, icons)
                if weight <= MAX_RULEBOOK_ICON_WEIGHT and painted <= MAX_RULEBOOK_ICON_PAINT:
                    continue
                path = cell.path
                span = loaded.doc.span(path if path and path in loaded.doc.spans else ("id",))
                what = f"{printer} inline icons ({lang})"
                message = _weighed_message(name, icons, what)
                if weight <= MAX_RULEBOOK_ICON_WEIGHT:
                    message = (
                        f"{what} paint their boxes more than {MAX_RULEBOOK_ICON_PAINT:,} times"
                        f" over together (':{name}:' {icon_paint(name, icons):,.1f} times a"
                        " use): this is the first one over; use fewer icons, or icons of"
                        " fewer or smaller shapes"
                    )
                yield R_RULEBOOK.at(loaded.rel, span, message)
                return


_SECTION = re.compile(r"^ {0,3}#{2,3}[ \t]", re.MULTILINE)
_TOP = re.compile(r"^ {0,3}#[ \t]", re.MULTILINE)


def _listed(text: str) -> bool:
    """Whether the rulebook has a heading the contents list: a level 2 or 3, or a level-1
    one after the first (the book's title). Read from the Markdown as written (a heading in
    a code block counts too: the contents' one word is searched the more)."""
    return _SECTION.search(text) is not None or len(_TOP.findall(text)) > 1


_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
"""A character reference, which Markdown prints as its character."""


def _own_fault(game: Game, exc: RulebookError) -> bool:
    """Whether a rulebook error is the rulebook's own. With every file valid, it is. Beside
    content that failed its own checks (read as empty), only a syntax error or a name that
    does not exist surely is; a filter or a test failing on the empty content (`first` of
    no card) is the content's finding, already reported."""
    if all(f.model is not None for f in game.files()):
        return True
    cause = exc.__cause__
    named = isinstance(cause, MissingName) and cause.name is not None
    return named or isinstance(cause, TemplateSyntaxError)


# Template code, inline code and link targets keep their punctuation as written.
# a link's target stops at the next `](`: `[^)\n]*` alone scanned from every unclosed `](` to
# the end of its line (15,000 a line: seconds a paragraph)
_NOT_PROSE = re.compile(
    rf"{TEMPLATE_CODE_MASK}|`[^`\n]*`|\]\((?:(?!\]\()[^)\n])*\)|!(?=\[)", re.DOTALL
)  # template code, inline code, a link's target, an image's `!` (no punctuation: R012's)


def _blanked(found: re.Match[str]) -> str:
    """What a match is masked with: each character but a newline made NUL (as
    `re.sub(r"[^\\n]", "\\x00", ...)`, without a pattern lookup at each of the thousands
    of pieces of template code a rulebook holds)."""
    return "\n".join("\x00" * len(line) for line in found.group(0).split("\n"))


def _source_findings(display: str, lang: str, source: str) -> list[Diagnostic]:
    """`_typography`, then `_images`: what the Markdown as written says, whatever the game's
    content. With `validate`'s units active, kept as a unit named by the source itself (its
    language and place): after one card edit the unchanged sources are not searched again
    (~1 ms a language)."""

    def work() -> list[Diagnostic]:
        return [*_typography(display, lang, source), *_images(display, source)]

    if active() is None:
        return work()
    from toolkit.content.validate_cache import finding_from_record, finding_record

    def read(kept: object) -> list[Diagnostic]:
        if type(kept) is not list or not all(type(r) is list and len(r) == 10 for r in kept):
            raise ValueError("not findings")
        found = [finding_from_record(r) for r in kept]
        if any(d.code not in _SOURCE_CODES for d in found):
            raise ValueError("not a finding of the rulebook's source")
        return found

    name = Units.name(_SOURCE_KIND, [display, lang, text_digest(source)])
    return cached_as(name, work, lambda found: [finding_record(d) for d in found], read)


_SOURCE_KIND = "rulebook-source"


def _typography(display: str, lang: str, source: str) -> Iterator[Diagnostic]:
    """The card texts' spacing rules (T010 French, T011 Spanish, T012 English) and the minus
    sign (T016) on the rulebook's prose, one finding per rule and line at the first place."""
    fixer, lang_rule = FIXERS.get(lang), RULES.get(lang)
    masked = _NOT_PROSE.sub(_blanked, source)
    for number, line in enumerate(masked.split("\n"), 1):
        spacing = fixer(line) if fixer else []
        for found, code in ((spacing, lang_rule), (minus_fixes(line), T_MINUS)):
            if found and code is not None:
                more = f" (+{len(found) - 1} more on this line)" if len(found) > 1 else ""
                yield code.at(display, Span(number, found[0].mark + 1), found[0].why + more)


# `![alt](path "title")`, outside template code and inline code (masked), fences apart
# the alt text stops at the next `![`, and no part gives back what it took (`*+`, `?+`;
# a part given back only let a later part retake it, and nothing they take is the `)`):
# an unclosed `![a](` and a long word backtracked the word against the rest of the line
# (48 of them on a 48 kB line took 45 s), and its spaces, `![a](` + 48,000 spaces, 12 s.
# Searched only up to the line's last `)` (`_images`): each `![a](` that is not closed
# scans to the end of its line, so `![a](` × 10,000 is quadratic (1.7 s a line) otherwise.
_IMAGE = re.compile(r"!\[((?:(?!!\[)[^\]\n])*+)\]\(\s*+<?+([^)\s>]*+)>?+[^)\n]*+\)")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CODE = re.compile(rf"{TEMPLATE_CODE_MASK}|`[^`\n]*`", re.DOTALL)


def _prose_lines(masked: str, source: str) -> Iterator[tuple[int, str]]:
    """Each line of `masked` (the source with its code blanked, line for line) outside
    fenced code blocks, with its number: what the rulebook prints as prose."""
    fence = ""
    lines = zip(masked.split("\n"), source.split("\n"), strict=True)  # masking keeps lines
    for number, (line, written) in enumerate(lines, 1):
        opened = _FENCE.match(written)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = ""
            continue
        if opened:
            fence = opened.group(1)
            continue
        yield number, line


def _images(display: str, source: str) -> Iterator[Diagnostic]:
    """R012 at each Markdown image: a rulebook prints its alt text, never the picture (the
    cover's picture is game.yaml's `style.cover`; cards place pictures in their layouts)."""
    masked = _CODE.sub(_blanked, source)
    if "![" not in masked:  # every image starts so (`_IMAGE`): none to find line by line
        return
    for number, line in _prose_lines(masked, source):
        for found in _IMAGE.finditer(line, 0, line.rfind(")") + 1):  # each ends at a `)`
            alt, path = found.group(1).strip(), found.group(2)
            yield R_IMAGE.at(
                display,
                Span(number, found.start() + 1),
                f"a rulebook prints no pictures: `![{alt}]({path})` prints only its text"
                f" {alt!r}; put a picture on the cover (game.yaml `style: cover: {path}`)"
                " or on cards (an image box in a layout)",
            )


def _glued(display: str, source: str, icons: IconSet) -> Iterator[Diagnostic]:
    """P007 at an icon of the game the prose writes glued to a letter or digit (`pay
    2:coin:`), first on its line: it prints as written, not as the icon (a content text's
    is said at the text: inline_icons). Searched in the Markdown as written, its template
    code, inline code, link targets and fenced code blocks left out."""
    masked = _NOT_PROSE.sub(_blanked, source)
    for number, line in _prose_lines(masked, source):
        glued = glued_icons(line, icons.names)
        if glued:
            name, touching, at = glued[0]
            more = f" (+{len(glued) - 1} more on this line)" if len(glued) > 1 else ""
            yield P_INLINE_ICON.at(
                display,
                Span(number, at + 1),
                f"':{name}:' touches {touching!r}, so it prints as written, not as the icon;"
                f" set it apart with a space (an icon's name is never glued to a letter or"
                f" digit){more}",
            )


_ANY_ICON = re.compile(r":[a-z_]+:")
"""Any name between colons, set apart or not: the icons are read only for a rulebook that
writes one."""
_UNDERLINE = re.compile(r"^ {0,3}(?:=+|-+)[ \t]*$", re.MULTILINE)
"""A setext heading's underline (or a thematic break): the lines above may be a heading."""


def _may_misprint(text: str, icons: IconSet) -> bool:
    """Whether an inline icon of `text` (rendered Markdown) may print as written, which only
    the parsed Markdown tells: a name the game lacks (unless a link target or a reference
    definition holds it, which print nothing), or a known one where a heading or an image's
    text may be (a line with a `#`; any, with a `![` or a setext underline in the text).
    Else no icon is a finding and the parser is not imported."""
    risky: bool | None = None
    for found in INLINE_ICON.finditer(text):
        name = found.group(1)
        if name in icons.broken:
            continue
        if name not in icons.names:
            return True
        if risky is None:
            risky = "![" in text or _UNDERLINE.search(text) is not None
        start = text.rfind("\n", 0, found.start()) + 1
        end = text.find("\n", found.end())
        if risky or "#" in text[start : end if end >= 0 else len(text)]:
            return True
    return False


def _icons(
    display: str, source: str, printed: Printed, icons: IconSet, named: set[str]
) -> Iterator[Diagnostic]:
    """P007 at each inline icon the rulebook prints as written: a name the game has no icon
    for, and any name in a heading or an image's text (headings, the contents and the PDF
    outline print words only; paragraphs, lists and tables print icons). Searched in what
    the Markdown prints, as the renderer draws it run by run: a link's target and a
    reference definition print nothing, and a name a template prints (`:{{ x }}:`) counts.
    Each is placed where its source line writes it, else at the template code of that line
    (the rendered lines are the source's but where a template adds some). A name the game
    lacks that a content text writes and the rulebook prints from the data (no line of the
    source writes it) is said where the text is written (`named`)."""
    lines = source.split("\n")
    prose = _NOT_PROSE.sub(_blanked, source).split("\n")  # masking keeps lines
    first = _first_places(prose)
    said: set[tuple[int, int, str]] = set()
    shown = listed(icons.names)
    for number, run, where in printed.runs:
        if ":" not in run:
            continue
        for found in INLINE_ICON.finditer(run):
            name = found.group(1)
            if name in icons.broken:
                continue  # the icon's own finding (P008) says why
            if name not in icons.names:
                why = f"no icon {name!r}, so ':{name}:' would print as written; icons: {shown}"
            elif where == "heading":
                why = (
                    f"a heading prints ':{name}:' as written (icons print in paragraphs,"
                    " lists and tables; headings, the contents and the PDF outline print words)"
                )
            elif where == "image":
                why = f"an image's text prints ':{name}:' as written (it prints no icons)"
            else:
                continue
            span, literal = _icon_place(lines, prose, first, number, name)
            if not literal and name not in icons.names and name in named:
                continue  # printed from a content text: said where it is written
            if (span.line, span.col, name) not in said:
                said.add((span.line, span.col, name))
                yield P_INLINE_ICON.at(display, span, why)


_TEMPLATE_CODE = re.compile(TEMPLATE_CODE_MASK)


def _unfilled(
    display: str, source: str, text: str, lang: str, terms: tuple[tuple[str, str], ...]
) -> Iterator[Diagnostic]:
    """R006 where the rendered rulebook prints a glossary term whose `{names}` only a board
    fills (board_phrases.unfilled_terms): at the first template code naming the term, else
    at the template code of the rendered line that prints it first (its first), with how
    often it prints."""
    lines = source.split("\n")
    for term, words in terms:
        at = printed_at(text, words)
        span = _naming(source, term)  # named: whatever a filter or a slice made of it
        if at < 0 and span is None:
            continue
        if span is None:
            number = text.count("\n", 0, at)
            span = Span(min(number + 1, len(lines)), 1)
            codes = list(_TEMPLATE_CODE.finditer(lines[number])) if number < len(lines) else []
            span = Span(number + 1, codes[0].start() + 1) if codes else span
        times = max(text.count(words), 1)
        message = unfilled_message("the rulebook", term, lang, words, times)
        yield R_PLACEHOLDER.at(display, span, message)


def _naming(source: str, name: str) -> Span | None:
    """Where the first template code of `source` that names `name` (a whole id) starts."""
    at = glossary_read(source, name)
    if at < 0:
        return None
    line = source.count("\n", 0, at)
    return Span(line + 1, at - (source.rfind("\n", 0, at) + 1) + 1)


def _icon_place(
    source: list[str], prose: list[str], first: dict[str, Span], number: int, name: str
) -> tuple[Span, bool]:
    """Where the source writes the icon `name` that rendered line `number` (0-based) prints,
    and whether it is written so: in that line's prose (`prose`: the source's lines, code
    blanked), else at that line's first template code (which printed it), else first in
    the prose (`first`: each name's first place), else at the line's start (template code
    over lines, a printed line break: the rendered lines are the source's but where a
    template adds some)."""
    if number < len(prose):
        for found in INLINE_ICON.finditer(prose[number]):
            if found.group(1) == name:
                return Span(number + 1, found.start() + 1), True
        codes = list(_TEMPLATE_CODE.finditer(source[number]))
        if codes:  # the first that names it (`{{ ":" ~ "zap" ~ ":" }}`), else the first
            code = next((c for c in codes if name in c[0]), codes[0])
            return Span(number + 1, code.start() + 1), False
    if name in first:
        return first[name], True
    return Span(min(number + 1, len(prose)), 1), False


def _first_places(prose: list[str]) -> dict[str, Span]:
    """Each inline icon name's first place in the prose."""
    first: dict[str, Span] = {}
    for at, line in enumerate(prose):
        for found in INLINE_ICON.finditer(line) if ":" in line else ():
            first.setdefault(found.group(1), Span(at + 1, found.start() + 1))
    return first


register(CheckFamily("rulebook", "Rulebooks: templates, glyphs and typography.", check))
