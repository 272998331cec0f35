"""Rulebook sources: Markdown with Jinja expressions that print facts from the content.

`{{ rules.goal_points }}` in a rulebook prints the number the engine and the cards use, so
the rulebook cannot disagree with the data. Rendering is sandboxed: a rulebook can read the
content but not call into Python.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from toolkit.content.game import Game, LoadedFile
from toolkit.content.plugin import rules_of
from toolkit.content.templating import INLINE_ICON
from toolkit.content.unit_cache import NotKept, Units, active, text_digest
from toolkit.fileio import InputError, read_text
from toolkit.render import rulebook_reads as reads
from toolkit.render import template_bounds
from toolkit.render.context import (
    Later,
    View,
    game_languages,
    glossary_terms,
    later_view,
    localize,
    localized_deck,
    named,
)
from toolkit.render.jinja_cache import CachedSandbox, template_code
from toolkit.render.undefined import MissingName

if TYPE_CHECKING:
    from jinja2 import Template


class RulebookError(Exception):
    """A template error, with the line in the Markdown source where it happened."""

    def __init__(self, message: str, line: int, col: int = 1) -> None:
        super().__init__(message)
        self.line = line
        self.col = col


def rulebook_context(game: Game, lang: str) -> dict[str, Any]:
    """What a rulebook template can use.

    - `game`: the manifest (title, players, options, variants…) with texts in `lang`
    - `rules`: the manifest's rules parameters
    - `decks`: decks by id; each has `name`, `cards` (with `copies`, `name`, `text`…) and
      `total` (cards counting copies)
    - `boards`: boards by id
    - `glossary`: term id → text in `lang`
    - `lang`: the language code
    """
    return _context(game, lang)


def _context(game: Game, lang: str, later: bool = False) -> dict[str, Any]:
    """`rulebook_context`; with `later`, each deck's `cards` made when first read
    (`context.Later`: only a render through toolkit.render.rulebook_reads, or on
    `_own_copy`, may be given it)."""
    manifest = game.manifest
    decks: dict[str, Any] = _unchecked(game.decks)
    for deck in game.valid(game.decks):
        view = localized_deck(game, deck, lang, later)  # its cards' views shared with faces
        view["total"] = sum(card.copies for card in deck.cards)
        decks[deck.id] = view
    boards: dict[str, Any] = _unchecked(game.boards)
    make = later_view if later else localize  # a Later for each field that is no scalar
    boards |= {board.id: make(board, lang) for board in game.valid(game.boards)}
    return {
        "game": localize(manifest, lang, game_languages(game)),
        "rules": named(localize(rules_of(manifest, object), lang, game_languages(game)), "`rules`"),
        "decks": _group(game.decks, decks).named("`decks`", "deck"),
        "boards": _group(game.boards, boards).named("`boards`", "board"),
        "glossary": Unchecked() if game.glossary_failed else glossary_terms(game, lang),
        "lang": lang,
    }


class Unchecked:
    """Content that failed its own Y/S checks, as a rulebook sees it: whatever it reads of it
    prints nothing and fails nothing, so an S error in a deck does not hide (or add to) the
    rulebook's own findings about the content that is fine. `build` never sees one: the
    validity gate refuses such content first."""

    def __getattr__(self, name: str) -> Unchecked:
        if name.startswith("__"):
            raise AttributeError(name)
        return self

    def __getitem__(self, key: object) -> Unchecked:
        return self

    def __call__(self, *args: object, **kwargs: object) -> Unchecked:
        return self

    def __str__(self) -> str:
        return ""

    def __iter__(self) -> Iterator[Any]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __add__(self, other: object) -> Unchecked:
        return self

    __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __floordiv__ = __add__
    __mod__ = __neg__ = __pos__ = __add__


class _Unreadable(View):
    """Decks or boards of which one file could not even be parsed (a YAML error): its id is
    unknown, so any name may be it."""

    def __missing__(self, key: object) -> Unchecked:
        return Unchecked()


def _group(files: list[LoadedFile], views: dict[str, Any]) -> View:
    return (_Unreadable if any(f.doc is None for f in files) else View)(views)


def _unchecked(files: list[LoadedFile]) -> dict[str, Any]:
    """The ids of the files that failed validation (when the file says its id), each as
    Unchecked content."""
    ids = {}
    for loaded in files:
        data = loaded.doc.data if loaded.model is None and loaded.doc is not None else None
        ident = data.get("id") if isinstance(data, dict) else None
        if isinstance(ident, str):
            ids[ident] = Unchecked()
    return ids


_SCALARS = (str, int, float, bool, type(None))


def _own_copy(value: Any, memo: dict[int, Any]) -> Any:
    """`copy.deepcopy(value)`, the same copy made in a fraction of its time: the plain dicts,
    Views (with what they say they stand for) and lists a rulebook's context is made of are
    copied here, any other object by `copy.deepcopy` (sharing `memo`, so an object reached
    twice is copied once, as deepcopy does)."""
    kind: Any = type(value)
    if kind in _SCALARS:
        return value
    made = memo.get(id(value))
    if made is not None:
        return made
    if kind is list:
        items: list[Any] = []
        memo[id(value)] = items
        items.extend(_own_copy(item, memo) for item in value)
        return items
    if kind is dict or isinstance(value, View):
        mapping = memo[id(value)] = kind.__new__(kind)
        if kind is not dict:
            mapping.__dict__.update(value.__dict__)
        for key, item in value.items():
            if type(item) is Later:  # made now: the copy is the template's
                item = reads.later_made(value, key)
            mapping[key] = _own_copy(item, memo)
        return mapping
    return copy.deepcopy(value, memo)


@cache
def _sandbox() -> CachedSandbox:
    return CachedSandbox(keep_trailing_newline=True)


MAX_RULEBOOK_BYTES = 2 * 1024 * 1024
MAX_WORD = 1_000
"""Characters of one word (a run without a space) a rendered rulebook may hold: reportlab
re-hyphenates the rest of a word at every line it breaks, so laying one out costs the square
of its length (200,000 characters took 36 s; the 4,000,000 a template may print, hours). The
longest word of the bundled rulebooks is 92 characters, a long URL a few hundred."""
BREAKING_SPACES = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u200b\u2028\u2029\u202f\u205f\u3000"
)
"""Where reportlab's paragraphs may break a line (`reportlab.platypus.paragraph._wsc`): not
at a no-break space (U+00A0), which Python's `\\s` counts as one, but at a zero-width space."""
_NOT_SPACE = f"[^{re.escape(BREAKING_SPACES)}]"
_SPACE = f"[{re.escape(BREAKING_SPACES)}]"
_WORD = re.compile(f"{_NOT_SPACE}*")


def _runs(size: int) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The patterns of a run without a breaking space of at least `size` characters (as
    many as follow) at a text's start, and after a breaking space (the run its group 1). A
    text's runs are those two find, the second from each space in turn: a pattern that
    starts with a space is searched for in C from one space to the next, where one that
    starts with a look-behind (`(?<!x)x{n,}`) is tried at each character (~2x slower)."""
    run = rf"{_NOT_SPACE}{{{size},}}"
    return re.compile(run), re.compile(rf"{_SPACE}({run})")


def _run_spans(
    text: str, patterns: tuple[re.Pattern[str], re.Pattern[str]]
) -> Iterator[tuple[int, int]]:
    """The (start, end) of each run of `text` that `patterns` (`_runs`) find, in order."""
    first = patterns[0].match(text)
    if first is not None:
        yield first.span()
    for found in patterns[1].finditer(text):
        yield found.span(1)


_LONG_WORDS = _runs(MAX_WORD + 1)


def _long_word_at(text: str) -> int:
    """Where the first run without a breaking space of over `MAX_WORD` characters starts in
    `text`, or -1."""
    return next((start for start, _ in _run_spans(text, _LONG_WORDS)), -1)


MAX_PARAGRAPH = 50_000
"""Characters of one paragraph (lines between blank lines): reportlab re-wraps the rest of a
paragraph at every page it splits (50,000 characters took 0.7 s, 150,000 4 s, 1,000,000 over
40 s). A bundled rulebook's longest paragraph is under 2,000."""
MAX_RENDERED = 1_000_000
"""Characters of a rendered rulebook (the bundled ones are under 20,000): many paragraphs
just under `MAX_PARAGRAPH` still cost seconds each."""
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
MAX_TABLE_ROWS = 500
"""Rows of one Markdown table: reportlab re-wraps every remaining row at each page a table
splits, so a long table costs the square of its rows (16,000 one-cell rows took 128 s;
500 take a fraction of a second, 3,000 about 10 s); the bundled rulebooks' longest has 6."""
MAX_TABLE_COLUMNS = 20
"""Columns of one Markdown table: the page gives each its share of the width, and past about
40 on A4 a column is narrower than its own padding (reportlab's negative availWidth, a
traceback in build); the bundled rulebooks' widest table has 6."""
MAX_TABLE_CELLS = 10_000
"""Cells of a rendered rulebook's tables together, the card reference's too (a row a card, a
column a field, with its header row): each cell is a paragraph reportlab wraps on its own,
which `MAX_BLOCKS` (a row one block) did not price: six 497-row tables of 20 one-letter
columns (60,000 cells, 129 kB) took `build` 5.5 s a language, 16 s in all; 10,000 cells
take about 1.2 s. The bundled rulebooks hold under 100."""
MAX_TABLE_DEPTH = 12
"""Quotes and list items (a list and its item count one each) a table may sit in: each quote
takes 20 pt of the page's width and each list 14 to 18 pt, and a table needs 11 pt a column
(its cells' padding): in 19 quotes a 20-column table was narrower than its padding (a
traceback in build). At this depth A4's 482 pt hold `MAX_TABLE_COLUMNS` columns; the
bundled rulebooks' tables are in none."""
_TABLE_RULE = re.compile(
    r"^(?P<prefix>[ \t>]*+)(?=[^\n]*\|)\|?+[ \t]*+:?+-++:?+[ \t]*+"
    r"(?:\|[ \t]*+:?+-++:?+[ \t]*+)*+\|?+[ \t]*+$",
    re.M,
)  # a table's `|---|---|` row (one column too: `|-|`), after what may hold it (a quote's
# `>`, a list item's indent); nothing given back (`*+`): a cell's spaces and the row's last
# ones were tried against each other (`|-`, 20,000 spaces: 1.1 s)
_PIPELESS_RULE = re.compile(r"^[^\n|]*+\|[^\n]*+\n[ \t>]*+:?+-++:?+[ \t]*+$", re.M)
"""A one-column table's `---` row (no `|`: markdown-it takes it after a header row that has
one), which `_TABLE_RULE` does not find."""
_AT_LINE_START = re.compile(r" {0,3}")
"""A `|---|` row's prefix that makes it a table's at the top level (not in a quote, a list
item or a code block): such tables are found by `_TABLE_RULE` alone."""
_TABLE_CELL = re.compile(r":?-+:?")
MAX_INLINE_MARKUP = 5_000
"""Pieces of inline markup a rendered rulebook may hold: emphasis marks (`*`, `_` runs that
touch a word), code marks, links (`[`), autolinks, inline icons (`:die:`), hard line breaks,
narrow no-break spaces, and the characters `&`, `<` and `>` (escaped for reportlab, whose
parser starts a fragment at each: 20 paragraphs of 12,000 `&#x ` took over 88 s of CPU and
983 MB, the same text without `&` 16 s). Each becomes a styled fragment that reportlab's line
breaking handles one by one, at about ten times the cost of a word, and again for the rest of a
paragraph at every page it splits: 20 paragraphs of 2,000 spans (988 kB) took over 100 s and
1 GB. The bundled rulebooks hold at most 160; at this bound a build takes seconds."""
_INLINE_MARK = re.compile(
    rf"(?P<icon>{INLINE_ICON.pattern})"  # an inline icon
    r"|(?P<break>\\\n|(?<! ) {2,}\n)"  # a hard line break (a run of spaces tried once:
    # from each of its spaces, 48,000 spaces not before a newline took 1.3 s a line)
    r"|(?<=\S)[*_]+|[*_]+(?=\S)"  # emphasis: a run of * or _ touching a word
    r"|`+|!?\[|<"  # code, a link or an image, an autolink or a `<` printed
    r"|&|(?<=[^\s>])>|(?<=\S )>"  # `&` and `>` printed (not a quote's `>` at a line start)
    "|\u202f"  # a narrow no-break space (printed in a font of its own)
)
MAX_INLINE_ICONS = 200
"""Inline icons (`:die:`) in a rendered rulebook: reportlab wraps a paragraph again for each
picture it holds, so an icon costs a hundred times a word (499 in one paragraph took 8 s);
the bundled rulebooks hold none."""
MAX_BLOCKS = 3_000
"""Blocks of a rendered rulebook: paragraphs, headings, list items and table rows (a line
after a blank line, a line that starts a list item, a line with a `|`). Each is a flowable
that reportlab wraps and splits on its own, a list or a table again as a whole at every page:
a 50 kB list of 12,400 items took 44 s, 10,000 one-word paragraphs 4 s. The bundled
rulebooks hold about 100."""
HEADING_WEIGHT = 2
"""What a heading of the contents (levels 1 to 3) counts against `MAX_BLOCKS`: it is laid
out twice, in the book and as a row of the contents, with a link and an outline entry
(2,900 headings took 2.4 s a language to build, 2,900 paragraphs 1.1 s)."""
_CONTENTS_HEADING = re.compile(r" {0,3}#{1,3}(?:[ \t]|$)")
_SETEXT_UNDERLINE = re.compile(r" {0,3}(?:=+|-+)[ \t]*")
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
MAX_HARD_BREAKS = 200
"""Hard line breaks in one paragraph (lines between blank lines): each starts a line of the
same paragraph, and reportlab re-wraps the rest of a paragraph at every page it splits
(3,000 hard breaks in a 9 kB paragraph took 3.4 s, the cost growing with their square)."""


def read_rulebook(path: Path, inside: Path) -> str:
    """A rulebook's source, read no further than its size limit (raises RulebookError), and
    only from a file inside the game folder `inside`: the loader checked the path, but a
    rulebook switched to a link between that check and this read was followed (a file of
    the user's printed in the rulebook PDF)."""
    try:
        return read_text(path, MAX_RULEBOOK_BYTES, inside=inside)
    except InputError as exc:
        raise RulebookError(str(exc), exc.line, exc.col) from None


def render_markdown(game: Game, lang: str, source: str) -> str:
    """Render a rulebook's Markdown source for `lang` (raises RulebookError) within the
    sandbox's limits, on its own copy of the content: a rulebook that changes what it
    reads (`glossary.update(...)`) cannot change what card layouts see.

    Rendered once per loaded game, language and source: the validity gate's rulebook check
    renders it, and the build that follows prints that same text."""
    key = ("rulebook", lang, source)
    kept = game.print_memo.get(key)
    if kept is not None:
        return str(kept)
    try:
        # compiled only when rendered: a render kept by `validate`'s units needs no template
        text = _rendered(
            game,
            lang,
            source,
            lambda: _sandbox().template(source, "rulebook"),
            lambda: _context(game, lang, later=True),
        )
    except MissingName as exc:  # said in the designer's words, at the expression
        line = getattr(exc, "lineno", None) or _traceback_line(exc) or 1
        expression, col = _expression_naming(source, line, exc.name)
        shown = f"`{expression}`: " if expression else ""
        known = ""
        if exc.top_level:
            known = "; a rulebook can use " + ", ".join(sorted(rulebook_context(game, lang)))
        raise RulebookError(f"{shown}{template_bounds.said(exc)}{known}", line, col) from exc
    except Exception as exc:  # jinja raises many kinds; all become one positioned error
        line = getattr(exc, "lineno", None) or _traceback_line(exc) or 1
        kind = "" if isinstance(exc, template_bounds.PrintedTable) else f"{type(exc).__name__}: "
        raise RulebookError(f"{kind}{template_bounds.said(exc)}", line) from exc
    if "\r" in text:  # a printed carriage return: a line break, as markdown-it reads it
        text = text.replace("\r\n", "\n").replace("\r", "\n")  # (the bounds count lines)
    try:
        counts = _bounded(text, rendered_digest(game, text) if active() is not None else None)
    except RulebookError as exc:
        raise _in_source(exc, source, text) from None
    if counts is not None:  # what the card reference's budgets count of the text
        game.print_memo[(COUNTS, text)] = counts  # (card_reference_bounds._text_counts)
    game.print_memo[key] = text
    return text


COUNTS = "rulebook-counts"
"""`game.print_memo`'s key (with the text) of a rendered rulebook's counts as `_bounded`
found them searching it: its blocks, its tables' cells and its long words' squares
(`block_count`, `table_cells`, the squares of `long_runs`' lengths)."""


def rendered_digest(game: Game, text: str) -> str:
    """`text_digest` of a rendered rulebook `text`, worked out once a run: the bounds, the
    card reference's counts and the rulebook family's marks name their units by it (each
    digest of a language's ~15 kB was ~25 µs). Kept in `game.print_memo` with the text, by
    its id (the text `render_markdown` gives is the one it keeps there)."""
    key = (_DIGEST, id(text))
    kept = game.print_memo.get(key)
    if kept is not None and kept[0] is text:
        return str(kept[1])
    digest = text_digest(text)
    game.print_memo[key] = (text, digest)
    return digest


_DIGEST = "rulebook-text-digest"


def _bounded(text: str, digest: str | None = None) -> tuple[int, int, int] | None:
    """Raise RulebookError at the first bound of what a rendered rulebook may hold that
    `text` passes; else its counts (`COUNTS`) when it was searched. A pure function of the
    text: with `validate`'s units active, a text that passed them all in the last run (a
    unit named by its digest, `digest` when known) is not searched again (None), so after
    one card edit only the languages whose text changed are (~0.8 ms a language)."""
    units = active()
    name = Units.name(_BOUNDED_KIND, [digest or text_digest(text)]) if units is not None else ""
    if units is not None and units.get(name, _passed) is not None:
        return None
    long_run = _refuse_long_word(text, parse=False)  # a plain word: said first, as ever
    _refuse_too_long(text)
    squares = _refuse_long_words_together(text)
    cells = _refuse_wide_table(text)
    _refuse_much_markup(text)
    blocks = _refuse_many_blocks(text)
    _refuse_long_links(text)
    _refuse_code_and_nesting(text)
    if long_run:  # parsed only once the bounds above hold (a run of `![` made markdown-it
        _refuse_long_word(text)  # work for minutes on 4 M printed characters)
    if units is not None:
        units.put(name, True)
    return blocks, cells, squares


_BOUNDED_KIND = "rulebook-bounded"


def _passed(value: Any) -> bool:
    if value is not True:
        raise ValueError("not a text that passed the bounds")
    return True


def _in_source(exc: RulebookError, source: str, text: str) -> RulebookError:
    """`exc`, found in the rendered `text`, placed in the source: where the source's line of
    that number does not write what the rendered text holds there (a loop or printed line
    breaks added lines), at the first place the source writes it; else, past the source's
    last line, at its last expression (else its last statement), which printed it."""
    lines = source.split("\n")
    rendered = text.split("\n")
    held = rendered[exc.line - 1][exc.col - 1 :] if exc.line <= len(rendered) else ""
    if exc.line <= len(lines) and lines[exc.line - 1][exc.col - 1 :].startswith(held[:16]):
        return exc  # the source writes it there
    for size in (64, 16):
        at = source.find(held[:size]) if len(held) >= size else -1
        if at >= 0:
            return RulebookError(str(exc), *_place(source, at))
    if exc.line <= len(lines):
        return exc
    for mark in ("{{", "{%"):  # an expression prints; else a statement may (`{% filter %}`)
        for number in range(len(lines) - 1, -1, -1):
            col = lines[number].find(mark)
            if col >= 0:
                said = f"{exc} (printed by the template code here)"
                return RulebookError(said, number + 1, col + 1)
    return RulebookError(str(exc), len(lines), 1)


def _rendered(
    game: Game,
    lang: str,
    source: str,
    template: Callable[[], Template],
    built: Callable[[], dict[str, Any]],
) -> str:
    """The template `template()` compiles rendered on its own copy of the context `built()`
    gives (neither asked for when a kept text is read back); with
    `validate`'s units active, the text kept by the last run when every read it made finds
    what it found then, else a render that records its reads for the next run (toolkit.
    render.rulebook_reads). The reads are also kept by part (`reads.parts`): a part whose
    files did not change finds what it found then, so the context is built only for the
    decks that did (when nothing else did)."""
    # the steps a language's render may take depend on the game's languages: a render kept
    # under a larger share is not read back under a smaller one (its unit's name holds it)
    limits = template_bounds.rulebook_limits(len(game.manifest.languages) if game.manifest else 1)
    units = active()
    if units is None or not _keepable(game):
        return _sandbox().render(template(), _own_copy(built(), {}), limits)
    name = Units.name(reads.KIND, reads.unit_name_args(lang, source, limits.steps))
    kept = units.get(name, _kept_render)  # kept only if `_pure(source)`: its name holds it
    if kept is None and not _pure(source):
        return _sandbox().render(template(), _own_copy(built(), {}), limits)
    differs = False  # a changed deck's reads found something else: so do the whole's
    if kept is not None:
        with suppress(NotKept):
            same = _same_parts(game, lang, units, kept[0], kept[3])
            if same is True:
                return kept[2]
            differs = same is _DIFFERS
    compiled = template()  # compiled before the context is built, as ever
    context = built()
    if kept is not None and not differs:
        with suppress(NotKept):
            if _same_whole(context, kept[0], kept[1], kept[3]):
                return kept[2]
    log = reads.Log()
    try:
        copied = reads.recording_copy(context, log)
    except NotKept:
        return _sandbox().render(compiled, _own_copy(context, {}), limits)
    text = _sandbox().render(compiled, copied, limits)
    with suppress(NotKept):
        made = reads.kept_reads(log)
        tokens = reads.kept_tokens(log)  # looked up as read: for the whole or its parts
        parts = _parts(game, units, made, tokens)
        # the whole's digest only without parts: theirs tell what it would (`_same_whole`)
        digest = reads.tokens_digest(tokens) if parts is None else ""
        value = {"reads": made, "digest": digest, "text": text, "parts": parts}
        # what JSON gives back, by how it is made: each read a list of its path (lists of a
        # step and a key), its op and its key, every key of `reads._KEYS` (a read or a
        # copy of any other raises NotKept); texts; parts by their texts' names, or None
        units.put_own(name, value)
    return text


def _same_whole(context: dict[str, Any], made: list[Any], digest: str, parts: Any) -> bool:
    """Whether every read of a kept render finds in `context` what it found then: by the
    digest of the whole (kept only without parts), else by each part's digest (every read
    is in one part, and they tell the same: encoding every read's token a second time, for
    the whole, was ~0.5 ms of each render kept). Raises NotKept as `read_tokens` does."""
    if parts is None:
        return reads.read_digest(context, made) == digest
    tokens = reads.read_tokens(context, made)
    return all(
        reads.tokens_digest([tokens[i] for i in at]) == kept for _, kept, at in parts.values()
    )


def _deck_paths(game: Game) -> dict[str, str] | None:
    """Each deck's file (made absolute) by its id; None when two decks share an id."""
    import os

    paths: dict[str, str] = {}
    for loaded in game.decks:
        if loaded.model is None or loaded.doc is None or loaded.model.id in paths:
            return None
        paths[loaded.model.id] = os.path.abspath(loaded.doc.path)
    return paths


def _part_frames(game: Game, units: Any, parts: Iterable[str]) -> dict[str, str] | None:
    """Each part's name in the frame (toolkit.checks.framed): `rest` (the manifest, the
    boards, the glossary: the game folder with every content file's bytes left out), a
    deck (the game folder with the other content files' left out) and `*` (the game folder
    whole); None without a frame. Each name worked out once a run (`game.print_memo`, with
    the run's units): each language's render asks for the same parts' (~0.04 ms each)."""
    memo = game.print_memo
    frames: dict[str, str] = {}
    for part in parts:
        kept = memo.get((_PART_FRAME, part))
        if kept is None or kept[0] is not units:
            break
        frames[part] = kept[1]
    else:
        if frames:
            return frames
    paths = _deck_paths(game)
    content = units.content
    if paths is None or content is None or units.frame is None:
        return None
    frames = {}
    for part in parts:
        if part == reads.REST:
            name = units.framed_name(f"{reads.KIND}:{part}", content)
        elif part == reads.WHOLE:
            name = units.framed_name(f"{reads.KIND}:{part}", set())
        elif part in paths:  # the other content files left out
            name = units.framed_name_but(f"{reads.KIND}:{part}", paths[part])
        else:
            return None
        memo[(_PART_FRAME, part)] = (units, name)  # kept with the units it is named in
        frames[part] = name
    return frames


_PART_FRAME = "rulebook-part-frame"


def _parts(game: Game, units: Any, made: list[Any], tokens: list[Any]) -> Any:
    """The reads of a render by part, each part with its name in the frame, the digest of
    what its reads find (`tokens`: what each read found, in order) and the indexes of its
    reads in `made` (`_same_parts` looks up a changed deck's alone, without parting every
    read again: ~0.1 ms a language); None when the game has no frame."""
    by_part = reads.part_indexes(made, set(_deck_paths(game) or ()))
    frames = _part_frames(game, units, by_part)
    if frames is None:
        return None
    return {
        part: [frames[part], reads.tokens_digest([tokens[i] for i in at]), at]
        for part, at in by_part.items()
    }


_DIFFERS = "differs"
"""`_same_parts`' answer when a changed deck's reads find something else than they found
then: the whole render's reads (those among them) do too, so its digest is not looked up."""


def _same_parts(game: Game, lang: str, units: Any, made: list[Any], parts: Any) -> bool | str:
    """Whether every read of a kept render finds what it found then, known by part: a part
    whose files did not change finds the same; the reads of a deck whose file changed are
    looked up in that deck's view alone (raises NotKept when one cannot be). False (build
    the whole context) when a part other than decks changed, or with no parts kept;
    `_DIFFERS` when a changed deck's reads find something else."""
    if parts is None:
        return False
    frames = _part_frames(game, units, parts)
    if frames is None:
        return False
    changed = [part for part, (frame, _, _) in parts.items() if frames[part] != frame]
    if any(part in (reads.REST, reads.WHOLE) for part in changed):
        return False
    if not changed:
        return True
    by_id = {deck.id: deck for deck in game.valid(game.decks)}
    for part in changed:
        deck = by_id[part]
        view = localized_deck(game, deck, lang)  # as rulebook_context makes it
        view["total"] = sum(card.copies for card in deck.cards)
        _, digest, at = parts[part]
        if reads.read_digest({"decks": {part: view}}, [made[i] for i in at]) != digest:
            return _DIFFERS
    return True


def _keepable(game: Game) -> bool:
    """Whether a render of the game's rulebook may be kept: over content that passed its
    own checks (no `Unchecked` in the context); the source must be `_pure` besides."""
    if game.manifest is None or game.glossary_failed:
        return False
    return all(f.model is not None for f in game.files())


def _pure(source: str) -> bool:
    """Whether no word of `reads.NOT_PURE` is in the source's template code: its
    expressions, statements and comments as Jinja's own lexer splits them (a `}}` inside
    a dict literal does not end an expression), prose apart. A rulebook that says a card is
    drawn "at random" is kept; one that names a word anywhere in its code (a string too:
    `map('random')`) is not. A source Jinja cannot split is not kept (its render fails)."""
    if not any(word in source for word in reads.NOT_PURE):
        return True
    from jinja2 import TemplateSyntaxError

    try:
        for _, kind, value in _sandbox().env.lexer.tokeniter(source, None):
            if kind != "data" and any(word in str(value) for word in reads.NOT_PURE):
                return False
    except TemplateSyntaxError:  # the render raises it too: nothing is kept
        return False
    return True


def _kept_render(value: Any) -> tuple[list[Any], str, str, Any]:
    """A kept render read back: its reads, their digest, its text and its parts (raises
    ValueError)."""
    if type(value) is not dict:
        raise ValueError("not a kept render")
    made, digest, text = value["reads"], value["digest"], value["text"]
    if type(made) is not list or type(digest) is not str or type(text) is not str:
        raise ValueError("not a kept render")
    parts = value.get("parts")
    if parts is not None and (
        type(parts) is not dict
        or not all(
            type(p) is list
            and len(p) == 3
            and type(p[0]) is str
            and type(p[1]) is str
            and type(p[2]) is list
            and set(map(type, p[2])) <= _INDEXES
            and (not p[2] or (min(p[2]) >= 0 and max(p[2]) < len(made)))
            for p in parts.values()
        )
    ):
        raise ValueError("not a kept render's parts")
    return made, digest, text, parts


_INDEXES = frozenset({int})


_MARKUP_CHAR = re.compile(r"[^\w\xa0.,;:'\"?-]")
"""A character that may be Markdown markup or a table's or link's part (anything but word
characters and plain punctuation): a long run of none of them prints as one long word."""


def _refuse_long_word(text: str, parse: bool = True) -> bool:
    """Raise RulebookError at the first printed word over `MAX_WORD` characters (its line
    and column in the rendered text, which are the source's unless an expression printed a
    line break before it).

    A word is measured as it prints: a table row's `|` and a link's or picture's target
    are no part of it (`|a|b|` rows and a long URL behind short link text were refused),
    and markup inside a word (`**a**b`) does not end it. No printed word is longer than the
    longest run without a space in the source (markup only drops characters or turns them
    into spaces), so the Markdown is parsed only when the source holds such a run."""
    at = _long_word_at(text)
    if at < 0:
        return False
    run = _WORD.match(text, at).group()  # type: ignore[union-attr]
    if not _MARKUP_CHAR.search(run):  # no markup in it: it prints as it is written
        raise _long_word(len(run), *_place(text, at))
    if not parse:
        return True
    for printed, first_line in _printed_blocks(text):
        at = _long_word_at(printed)
        if at < 0:
            continue
        word = _WORD.match(printed, at).group()  # type: ignore[union-attr]
        raise _long_word(len(word), *_word_place(text, first_line, word))
    return True


LONG_WORD = 30
"""Characters past which a word's cost to lay out counts towards `MAX_LONG_WORDS`: from
about this length, a word that does not fit the rest of a line is hyphenated at each line
it reaches, at a cost that grows with its square. Over 980 kB of one language's words
(`build --only rulebook`): 5 or 20 letters 3.3 s, 30 letters 4.0 s, 40 4.9 s, 60 6.1 s,
80 7.8 s, 99 13.2 s (probe 53-3: words of 99 letters, under the old 100, were free)."""
MAX_LONG_WORDS = 8_000_000
"""The sum of the squares of the lengths of a rendered rulebook's words over `LONG_WORD`
characters (each counted as written, markup and link targets too: an upper bound): a
word's cost grows with its square (`MAX_WORD`), and 1,000 paragraphs of one 975-character
word, each under the bounds, took 22 s of CPU a language (probe 21); at 30,000,000, 29 words
of 1,000 letters still took 5.2 s a language (probe 51 P51-18: ~0.1 s a million here; words
of 30 to 99 letters cost less: 0.025 to 0.1 s a million). At this bound a language takes
under a second more; 88 URLs of 300 characters count 7.9 M. The bundled rulebooks count 0."""
_LONG_RUNS = _runs(LONG_WORD + 1)


def long_runs(text: str) -> Iterator[tuple[int, int]]:
    """The (start, end) of each run without a breaking space of over `LONG_WORD` characters
    in `text` (a long word, counted as `MAX_LONG_WORDS` counts it), in order."""
    return _run_spans(text, _LONG_RUNS)


def _refuse_long_words_together(text: str) -> int:
    """Raise RulebookError at the long word (over `LONG_WORD` characters) that takes the
    rulebook past `MAX_LONG_WORDS`; else the squares of their lengths, added up."""
    work = count = 0
    for start, end in long_runs(text):
        size = end - start
        work, count = work + size * size, count + 1
        if work > MAX_LONG_WORDS:
            raise RulebookError(
                f"too many long words: this is one of {count:,} words of over {LONG_WORD}"
                " characters without a space up to here, and laying out such a word costs"
                f" the square of its length (together past {MAX_LONG_WORDS:,}); break them"
                " with spaces, or print fewer",
                *_place(text, start),
            )
    return work


def _long_word(length: int, line: int, col: int) -> RulebookError:
    return RulebookError(
        f"a word of {length:,} characters without a space: the rulebook cannot lay out"
        f" a word over {MAX_WORD:,} characters (it costs minutes); break it with spaces",
        line,
        col,
    )


def _printed_blocks(text: str) -> Iterator[tuple[str, int]]:
    """The text each block of `text` prints (a paragraph, a heading, a table cell, a code
    block), with the line (0-based) the block starts on; parsed as `markdown_flow` parses
    a rulebook."""
    from markdown_it import MarkdownIt

    for token in MarkdownIt("commonmark").enable("table").parse(text):
        line = token.map[0] if token.map else 0
        if token.type == "inline":
            yield _printed_inline(token.children or []), line
        elif token.type in ("fence", "code_block", "html_block"):
            yield token.content, line


def _printed_inline(children: list[Any]) -> str:
    """What inline tokens print (`markdown_flow.inline_markup`): texts and code, a picture's
    description, a line break as a space; no link target and no markup."""
    out: list[str] = []
    for child in children:
        if child.type in ("softbreak", "hardbreak"):
            out.append("\n")
        elif child.type == "image":
            out.append(_printed_inline(child.children or []) or str(child.attrs.get("alt", "")))
        elif child.type.endswith(("_open", "_close")):
            continue  # emphasis, links: markup around the text, not printed
        else:
            out.append(child.content)
    return "".join(out)


def _word_place(text: str, first_line: int, word: str) -> tuple[int, int]:
    """Where `word`, printed by the block that starts on `first_line` (0-based), begins in
    `text`: at the first place the source holds its beginning, or the block's first line."""
    start = 0
    for _ in range(first_line):
        start = text.find("\n", start) + 1
        if not start:  # not a line of `text` (which markdown-it numbers as it does)
            return first_line + 1, 1
    for size in (64, 8, 1):
        at = text.find(word[:size], start)
        if at >= 0:
            return _place(text, at)
    return first_line + 1, 1


def _refuse_too_long(text: str) -> None:
    """Raise RulebookError at the first paragraph over `MAX_PARAGRAPH` characters, or at the
    line where the text passes `MAX_RENDERED` (lines of the rendered text)."""
    start = 0
    for gap in (*_BLANK_LINE.finditer(text), None):
        end = gap.start() if gap is not None else len(text)
        if end - start > MAX_PARAGRAPH:
            if text[start:end].lstrip().startswith("|"):  # blank lines would break a table
                what, split = "a table", "split it into several tables, each with its header"
            else:
                what, split = "a paragraph", "split it with blank lines"
            raise RulebookError(
                f"{what} of {end - start:,} characters: the rulebook cannot lay out one"
                f" over {MAX_PARAGRAPH:,} (it costs minutes); {split}",
                text.count("\n", 0, start) + 1,
            )
        start = gap.end() if gap is not None else end
    if len(text) > MAX_RENDERED:
        raise RulebookError(
            f"the rulebook prints {len(text):,} characters, more than the {MAX_RENDERED:,}"
            " it can lay out in reasonable time",
            text.count("\n", 0, MAX_RENDERED) + 1,
        )


def _refuse_wide_table(text: str) -> int:
    """Raise RulebookError at the first table (its `| --- |` row) of more than
    `MAX_TABLE_COLUMNS` columns or `MAX_TABLE_ROWS` rows, that sits in more than
    `MAX_TABLE_DEPTH` quotes and list items, or that brings the tables' cells past
    `MAX_TABLE_CELLS`; else the tables' cells (`table_cells`)."""
    cells = 0
    for line, col, rows, columns, depth in _tables(text):
        if rows > MAX_TABLE_ROWS:
            raise RulebookError(
                f"a table of {rows:,} rows: a table may have at most {MAX_TABLE_ROWS:,}"
                " (a long one costs minutes to lay out); split it into several",
                line,
                col,
            )
        if columns > MAX_TABLE_COLUMNS:
            raise RulebookError(
                f"a table of {columns:,} columns: a page holds at most {MAX_TABLE_COLUMNS};"
                " split it, or turn it (one row per column)",
                line,
                col,
            )
        if depth > MAX_TABLE_DEPTH:
            raise RulebookError(
                f"a table inside {depth} quotes and list items (a list and its item count"
                f" one each): a table may sit in at most {MAX_TABLE_DEPTH} (each takes some of"
                " the page's width); take it out of some",
                line,
                col,
            )
        cells += (rows + 1) * columns
        if cells > MAX_TABLE_CELLS:
            raise RulebookError(
                f"this table brings the rulebook's tables to {cells:,} cells, more than the"
                f" {MAX_TABLE_CELLS:,} it can lay out in reasonable time (each cell is laid out"
                " on its own); shorten or remove tables",
                line,
                col,
            )
    return cells


def _tables(text: str) -> list[tuple[int, int, int, int, int]]:
    """Each table's `| --- |` row (its line and column), its rows below it, its columns and
    the quotes and list items it sits in.

    A table at the top level is found by its `|---|` row, its rows the lines up to a blank
    one (an upper bound: no parse). A `|---|` row in a quote (`> |-|`), a list item or a
    code block may or may not be a table's: there the tables are those markdown-it finds
    (as `markdown_flow` lays them out), by a parse of the blocks (not their inline text)
    that stops at the first table past a bound."""
    rules = list(_TABLE_RULE.finditer(text))
    nested = any(not _AT_LINE_START.fullmatch(rule.group("prefix")) for rule in rules)
    if nested or ("-" in text and _PIPELESS_RULE.search(text)):
        return list(_parsed_tables(text, _table_bounds()))
    last = len(text.rstrip())  # a table that ends the text: its last row's end
    found = []
    for rule in rules:
        end = _BLANK_LINE.search(text, rule.end())
        rows = text.count("\n", rule.end(), end.start() if end is not None else last)
        line = text.count("\n", 0, rule.start()) + 1
        found.append((line, 1, rows, len(_TABLE_CELL.findall(rule.group())), 0))
    return found


def _parsed_tables(
    text: str, bounds: tuple[int, int, int, int]
) -> tuple[tuple[int, int, int, int, int], ...]:
    """The tables markdown-it finds in `text` (as `_tables` gives them), up to the first
    that passes one of `bounds` (rows, columns, cells together, depth)."""
    return _parsed_blocks(text, bounds).tables


class _Blocks(NamedTuple):
    """What a block parse of a rendered rulebook found (`_parsed_blocks`)."""

    tables: tuple[tuple[int, int, int, int, int], ...]
    """Each table as `_tables` gives it."""
    references: tuple[tuple[int, str, str], ...]
    """Each link reference definition: the line it starts on (0-based), its label and its
    destination as markdown-it makes it."""
    code: tuple[tuple[int, str, int, int], ...]
    """Each code or HTML block: its first line (0-based), its kind, its lines and characters."""
    headings: tuple[tuple[int, int, int], ...]
    """Each heading: its first line (0-based), its level and its characters."""
    too_deep: int | None
    """The line (0-based) of the first quote or list whose content markdown-it drops: it
    reads no block nested `maxNesting` deep."""


@lru_cache(maxsize=4)
def _parsed_blocks(text: str, bounds: tuple[int, int, int, int]) -> _Blocks:
    """What markdown-it finds in `text`'s blocks (as `markdown_flow` parses it, without the
    inline parse): its tables (up to the first past one of `bounds`: see `_parsed_tables`),
    link reference definitions, code and HTML blocks, and nesting past what it reads. Kept
    for the last few texts: the card reference's bounds count the same text's cells after
    `_bounded`."""
    env: dict[str, Any] = {"tables": [], "cells": 0, "bounds": bounds, "deep": None}
    tokens: list[Any] = []
    with suppress(_TablesPastBound):
        tokens = _block_parser().parse(text, env)
    references = tuple(
        (found["map"][0], label, str(found["href"]))
        for label, found in env.get("references", {}).items()
    )
    code = tuple(
        (token.map[0], token.type, token.map[1] - token.map[0], len(token.content))
        for token in tokens
        if token.type in _CODE_BLOCKS and token.map
    )
    headings = tuple(
        (token.map[0], int(token.tag[1]), len(tokens[index + 1].content))
        for index, token in enumerate(tokens)
        if token.type == "heading_open" and token.map and index + 1 < len(tokens)
    )
    return _Blocks(tuple(env["tables"]), references, code, headings, env["deep"])


_CODE_BLOCKS = {
    "fence": "a code block",
    "code_block": "a code block",
    "html_block": "an HTML block",
}


class _TablesPastBound(Exception):
    """A table passed a bound: the rest of the text need not be parsed."""


@cache
def _block_parser() -> Any:
    """markdown-it as `markdown_flow` parses a rulebook, its blocks only (no inline parse:
    a table's cells stay text), and its table rule noting each table in `env`."""
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark").enable("table").disable("inline")
    rule = next(rule for rule in parser.block.ruler.__rules__ if rule.name == "table")
    table = rule.fn

    def noted(state: Any, start: int, end: int, silent: bool) -> bool:
        first = len(state.tokens)
        if not table(state, start, end, silent):
            return False
        if silent:
            return True
        tokens, at = state.tokens, first + 3  # table_open, thead_open, tr_open, then th…
        while tokens[at].type == "th_open":
            at += 3  # th_open, inline, th_close
        columns = (at - first - 3) // 3
        opened = tokens[first].map
        rows = opened[1] - opened[0] - 2  # the header and `|---|` rows are not counted
        env = state.env
        at = state.bMarks[start + 1] + state.tShift[start + 1]  # the `|---|` row's start
        col = at - state.src.rfind("\n", 0, at)
        depth = state.level  # the quotes, lists and list items open around it
        env["tables"].append((start + 2, col, rows, columns, depth))
        env["cells"] += (rows + 1) * columns
        most_rows, most_columns, most_cells, deepest = env["bounds"]
        if max(rows - most_rows, columns - most_columns, depth - deepest) > 0:
            raise _TablesPastBound
        if env["cells"] > most_cells:
            raise _TablesPastBound
        return True

    parser.block.ruler.at("table", noted, {"alt": rule.alt})  # it ends a paragraph, as ever
    for name, opened in (("blockquote", 1), ("list", 2)):  # a list opens the list and an item
        _note_depth(parser, name, opened)
    return parser


def _note_depth(parser: Any, name: str, opened: int) -> None:
    """Wrap `parser`'s block rule `name` (which opens `opened` levels before its content) to
    note in `env["deep"]` the first line where its content is nested too deep to be read."""
    rule = next(rule for rule in parser.block.ruler.__rules__ if rule.name == name)
    inner = rule.fn

    def noted(state: Any, start: int, end: int, silent: bool) -> bool:
        level = state.level
        if silent or level + opened < state.md.options.maxNesting:  # as markdown-it has it
            return bool(inner(state, start, end, silent))  # (at each line of a quote)
        if not inner(state, start, end, silent):
            return False
        if state.env.get("deep") is None:
            state.env["deep"] = start
        return True

    parser.block.ruler.at(name, noted, {"alt": rule.alt})


MAX_LINK_TARGETS = 1_000_000
"""Characters of link destinations a rendered rulebook's link reference definitions
(`[x]: http://…`) may print, each as many times as the text uses it: a use prints the whole
destination (reportlab parses it in the link's markup and writes it in the PDF's link), and
a destination in angle brackets may hold spaces, so no word bound sees it. One definition of
96,000 characters used 4,800 times (a 67 kB rulebook) took `build` 18 s, 2.2 GB and wrote a
462 MB PDF (probe 53-5); at this bound, well under a second. The bundled rulebooks print
none."""
_LABEL_USE = re.compile(r"\[([^\[\]]{1,999})\]")
"""A link label between brackets (at most 999 characters, as CommonMark has it): a use of a
definition (`[x]`, `[text][x]`, `[x][]`), or the definition itself (an upper bound)."""


MAX_CODE_LINES = 2_000
"""Lines of one code or HTML block (which runs on across blank lines): it is laid out as one
piece of preformatted text, which reportlab lays out again from the split at every page (a
fenced block of 20,000 short lines took 5 s, 40,000 lines 16.8 s: probe 53-10); its
characters are bounded as a paragraph's (`MAX_PARAGRAPH`)."""
MAX_ALL_CODE_LINES = 20_000
"""Lines of a rendered rulebook's code and HTML blocks together: each line is laid out on
its own (about 36 µs: 50,000 lines took 1.8 s a language), where the bounds on blocks and
characters count a paragraph's many lines as one."""


MAX_HEADING = 300
"""Characters of one heading: a heading is laid out whole (it may not split across pages:
a 2,000-character one was taller than a page, refused by `build` only); the bundled
rulebooks' longest has under 60."""
HEADING_CHARACTER_WEIGHT = 3
"""What a character of a heading of the contents (levels 1 to 3) counts against
`MAX_RENDERED`: it is laid out in the book and again in the contents, with the passes that
number the contents' pages (900 kB of `##` headings took 10.2 s a language to build, 900 kB
of paragraphs 3.8 s: probe 53-9)."""


def _refuse_code_and_nesting(text: str) -> None:
    """Raise RulebookError at a code or HTML block past `MAX_CODE_LINES` or
    `MAX_PARAGRAPH`, at the one that takes them past `MAX_ALL_CODE_LINES` together, at a
    heading past `MAX_HEADING` or that takes the rulebook past `MAX_RENDERED` (a contents
    heading's characters weigh `HEADING_CHARACTER_WEIGHT`), or at a quote or list nested so
    deep that markdown-it (and so the rulebook) drops its content."""
    if _plainly_within(text):
        return  # not parsed: markdown-it's import alone is ~17 ms of an edit's validate
    found = _parsed_blocks(text, _table_bounds())
    printed = len(text)
    for first, level, size in found.headings:
        if size > MAX_HEADING:
            raise RulebookError(
                f"a heading of {size:,} characters: a heading may have at most"
                f" {MAX_HEADING:,} (it is laid out whole, and again in the contents); shorten"
                " it",
                *_line_place(text, first),
            )
        printed += (HEADING_CHARACTER_WEIGHT - 1) * size if level <= 3 else 0
        if printed > MAX_RENDERED:
            raise RulebookError(
                f"the rulebook prints more than {MAX_RENDERED:,} characters, its headings'"
                f" counted {HEADING_CHARACTER_WEIGHT} times (each is laid out again in the"
                " contents): this heading is the first one over; shorten the headings or"
                " the text",
                *_line_place(text, first),
            )
    lines = 0
    for first, kind, count, size in found.code:
        what = _CODE_BLOCKS[kind]
        lines += count
        if count > MAX_CODE_LINES or size > MAX_PARAGRAPH:
            why = (
                f"{count:,} lines, more than {MAX_CODE_LINES:,}"
                if count > MAX_CODE_LINES
                else f"{size:,} characters, more than {MAX_PARAGRAPH:,}"
            )
            raise RulebookError(
                f"{what} of {why}: it is laid out as one piece, again at every page (a long"
                " one costs minutes); split it into several",
                *_line_place(text, first),
            )
        if lines > MAX_ALL_CODE_LINES:
            raise RulebookError(
                f"this block brings the rulebook's code and HTML blocks to {lines:,} lines,"
                f" more than the {MAX_ALL_CODE_LINES:,} it can lay out in reasonable time"
                " (each line is laid out on its own); shorten them",
                *_line_place(text, first),
            )
    if found.too_deep is not None:
        raise RulebookError(
            "quotes and lists nested this deep print nothing: the Markdown reader stops at"
            f" {_block_parser().options.maxNesting} levels (a quote counts one, a list two:"
            " the list and its item);"
            " nest fewer",
            *_line_place(text, found.too_deep),
        )


MARKDOWN_NESTING = 20
"""markdown-it's nesting bound (the commonmark preset's `maxNesting`), known without
importing it: past it, a quote's or list's content is dropped."""
_ATX_HEADING = re.compile(r"#{1,6}(?:[ \t]|$)")
"""A `#` heading, after what opens quotes and lists (`_OPENERS`): `- # …` is one too."""
_UNDERLINE = re.compile(r"^[ \t>]*(?:=+|-+)[ \t]*$")
_OPENERS = re.compile(r"^(?:[ \t>]|[*+-](?=[ \t])|\d{1,9}[.)](?=[ \t]))*")
"""What may open quotes and lists at a line's start: its spaces, tabs, `>`, list markers."""


def _plainly_within(text: str) -> bool:
    """Whether no block of `text` can pass a bound `_refuse_code_and_nesting` checks, seen
    without parsing it: every `#` heading within `MAX_HEADING`, no setext heading (a line
    underlined with `===` or `---`, which may join several lines), the text short enough
    for its headings three times over and for any code block, and no line opening quotes
    and lists deep enough (20 levels take at least 20 characters: `>` or `- ` each, or
    their indentation)."""
    if len(text) * HEADING_CHARACTER_WEIGHT > MAX_RENDERED or len(text) > MAX_PARAGRAPH:
        return False
    lines = text.split("\n")
    if len(lines) > min(MAX_CODE_LINES, MAX_ALL_CODE_LINES):
        return False
    blank = True
    for line in lines:
        opened = _OPENERS.match(line)
        start = opened.end() if opened else 0
        if len(line) > MAX_HEADING and _ATX_HEADING.match(line, start):
            return False
        if not blank and _UNDERLINE.match(line):
            return False
        if len(line[:start].expandtabs(4)) >= MARKDOWN_NESTING:
            return False
        blank = not line.strip()
    return True


def _line_place(text: str, line: int) -> tuple[int, int]:
    """The line (1-based) of 0-based `line` of `text`, and the column after what holds it
    (a quote's `>`, a list item's indent)."""
    start = 0
    for _ in range(line):
        start = text.find("\n", start) + 1
        if not start:
            return line + 1, 1
    end = text.find("\n", start)
    held = text[start : end if end >= 0 else len(text)]
    return line + 1, len(held) - len(held.lstrip(" \t>")) + 1


def _table_bounds() -> tuple[int, int, int, int]:
    return MAX_TABLE_ROWS, MAX_TABLE_COLUMNS, MAX_TABLE_CELLS, MAX_TABLE_DEPTH


def _refuse_long_links(text: str) -> None:
    """Raise RulebookError at the link reference definition whose destination, printed at
    each of its uses, takes the rulebook past `MAX_LINK_TARGETS` characters of links."""
    if "]:" not in text:  # no definition (`[label]: destination`)
        return
    references = _parsed_blocks(text, _table_bounds()).references
    if not references:
        return
    brackets = text.count("[")  # no more uses than brackets: counted only past that
    if max(len(href) for _, _, href in references) * brackets <= MAX_LINK_TARGETS:
        return
    uses = dict.fromkeys((label for _, label, _ in references), -1)  # the definition's own
    for found in _LABEL_USE.finditer(text):
        label = _label(found.group(1))
        if label in uses:
            uses[label] += 1
    printed = 0
    for line, label, href in sorted(references):
        printed += len(href) * max(uses[label], 0)
        if printed > MAX_LINK_TARGETS:
            lines = text.split("\n", line + 1)
            col = lines[line].find("[") + 1 if line < len(lines) else 1
            raise RulebookError(
                f"a link destination of {len(href):,} characters (as printed: a space is %20)"
                f" used {uses[label]:,} times: each use prints it whole, and the"
                f" rulebook's links would print more than {MAX_LINK_TARGETS:,} characters of"
                " destinations; give it a short address (a URL has a few hundred characters"
                " at most)",
                line + 1,
                max(col, 1),
            )


def _label(label: str) -> str:
    """A link label as markdown-it matches it to its definition: spaces collapsed, case
    folded."""
    return " ".join(label.split()).lower().upper()


def table_cells(text: str) -> int:
    """The cells of a rendered rulebook's tables (header rows too), as `MAX_TABLE_CELLS`
    counts them: what the card reference has left is the rest."""
    return sum((rows + 1) * columns for _, _, rows, columns, _ in _tables(text))


def _refuse_much_markup(text: str) -> None:
    """Raise RulebookError at the piece of inline markup that passes `MAX_INLINE_MARKUP`, the
    icon that passes `MAX_INLINE_ICONS`, or the hard line break that passes `MAX_HARD_BREAKS`
    in one paragraph (their line and column in the rendered text)."""
    if not _may_hold_much_markup(text):
        return
    icons = breaks = 0
    last = -1  # where the hard break counted last ends
    for count, found in enumerate(_INLINE_MARK.finditer(text), 1):
        if count > MAX_INLINE_MARKUP:
            why = (
                f"more than {MAX_INLINE_MARKUP:,} pieces of inline markup (bold, italics, code,"
                " links, icons, line breaks, &, < and >): each is laid out on its own, so many"
                " cost minutes"
            )
        elif found.group("icon") is not None and (icons := icons + 1) > MAX_INLINE_ICONS:
            why = f"more than {MAX_INLINE_ICONS:,} inline icons: each costs a paragraph's layout"
        elif found.group("break") is not None:
            if last < 0 or _BLANK_LINE.search(text, last - 1, found.start() + 1):
                breaks = 0  # the first in its paragraph
            breaks, last = breaks + 1, found.end()
            if breaks <= MAX_HARD_BREAKS:
                continue
            why = (
                f"more than {MAX_HARD_BREAKS:,} hard line breaks in one paragraph: it cannot be"
                " laid out in reasonable time; split it with blank lines"
            )
        else:
            continue
        raise RulebookError(f"{why} (this is the first one over)", *_place(text, found.start()))


_MARK_STARTS = ":\\*_`![<&>\u202f"
"""The characters a piece of inline markup (`_INLINE_MARK`) starts with, a space aside (a
space starts only a hard line break, which holds a newline after two spaces)."""


def _may_hold_much_markup(text: str) -> bool:
    """Whether `_INLINE_MARK` could find too much in `text`, by counting characters (most of
    scanning it with the pattern's look-behinds: a few ms a rulebook). Pieces do not overlap
    and each starts with one of `_MARK_STARTS` or is a hard break (`\\` or two spaces, then
    a newline), so there are no more pieces than such characters and breaks; an icon takes
    two colons."""
    breaks = text.count("\\\n") + text.count("  \n")
    pieces = sum(text.count(ch) for ch in _MARK_STARTS) + text.count("  \n")
    return (
        pieces > MAX_INLINE_MARKUP
        or text.count(":") // 2 > MAX_INLINE_ICONS
        or breaks > MAX_HARD_BREAKS
    )


def inline_markup_count(text: str, most: int) -> int:
    """The pieces of inline markup of a rendered rulebook, as `MAX_INLINE_MARKUP` counts
    them, or an upper bound when that is at most `most` (counted by characters, not
    searched: a few ms)."""
    bound = sum(text.count(ch) for ch in _MARK_STARTS) + text.count("  \n")
    if bound <= most:
        return bound
    return sum(1 for _ in _INLINE_MARK.finditer(text))


def _refuse_many_blocks(text: str) -> int:
    """Raise RulebookError at the line that starts the block past `MAX_BLOCKS` (a heading of
    the contents counts `HEADING_WEIGHT`; a setext one, at its underline); else the blocks
    (`block_count`: each block adds to the count)."""
    blocks = 0
    for number, line, blocks in _blocks(text):
        if blocks > MAX_BLOCKS:
            raise RulebookError(
                f"more than {MAX_BLOCKS:,} paragraphs, list items and table rows (a heading"
                " counts twice: it is listed in the contents too): each is laid out on its"
                " own, so many cost minutes; this is the first one over",
                number,
                len(line) - len(line.lstrip()) + 1,
            )
    return blocks


def _blocks(text: str) -> Iterator[tuple[int, str, int]]:
    """Each line that starts a block (or a setext heading's underline), with its number and
    the blocks counted so far, it included."""
    blocks, blank = 0, True
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            blank = True
            continue
        counted = 0
        if blank or "|" in line or _LIST_ITEM.match(line):
            counted = HEADING_WEIGHT if _CONTENTS_HEADING.match(line) else 1
        elif _SETEXT_UNDERLINE.fullmatch(line):  # the line above was a heading
            counted = HEADING_WEIGHT - 1
        if counted:
            blocks += counted
            yield number, line, blocks
        blank = False


def block_count(text: str) -> int:
    """The blocks of a rendered rulebook, as `MAX_BLOCKS` counts them."""
    return max((blocks for _, _, blocks in _blocks(text)), default=0)


def _place(text: str, offset: int) -> tuple[int, int]:
    """The line and column of `offset` in `text` (1-based)."""
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def _expression_naming(source: str, line: int, name: object) -> tuple[str, int]:
    """The dotted expression on `line` that ends in the missing `name`, and the column
    where it starts (`decks.cards.cards[0].nmae`, 16); ('', 1) if it cannot be found."""
    lines = source.split("\n")
    if not 0 < line <= len(lines) or not isinstance(name, str | int) or len(str(name)) > 200:
        return "", 1  # a name the source cannot spell (a list, a built text): not searched
    text = lines[line - 1]
    word = re.escape(str(name))
    tail = re.compile(rf"\.{word}\b|\[\s*['\"]?{word}['\"]?\s*\]")
    bare = re.compile(rf"(?<![\w.]){word}\b")
    for start, end in template_code(text):
        code = text[start:end]
        for tried, found in enumerate(tail.finditer(code)):
            begin = _chain_start(code, found.start())
            if begin is not None:
                return code[begin : found.end()], start + begin + 1
            if tried > 100:
                break
        named = bare.search(code)
        if named:
            return named.group(), start + named.start() + 1
    return "", 1


_FIRST = re.compile(r"[A-Za-z_]")


def _chain_start(code: str, at: int) -> int | None:
    """Where the dotted chain (`a.b[0].c`: a name, then names, dots and `[…]`) that runs up
    to `at` starts, or None when no name starts it. Walked back from `at`: a pattern that
    looked for the chain forwards tried every start on the line and ran each to its end (a
    20 kB string literal before the expression took 26 s)."""
    i = at
    while i > 0:
        before = code[i - 1]
        if before.isalnum() or before in "._":
            i -= 1
        elif before == "]":
            opening = code.rfind("[", 0, i - 1)
            inner = code[opening + 1 : i - 1] if opening >= 0 else "]"
            if "]" in inner or "\n" in inner:
                break
            i = opening
        else:
            break
    while i < at and code[i] == "[":  # a chain starts with a name, not a subscript
        i = code.find("]", i) + 1
    first = _FIRST.search(code, i, at)
    if first is None or "[" in code[i : first.start()]:
        return None
    return first.start()


def _traceback_line(exc: BaseException) -> int | None:
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.startswith(("<template>", "rulebook-")):
            line = tb.tb_lineno
        tb = tb.tb_next
    return line
