"""Where the rulebook's card reference passes the rulebook's layout budgets
(toolkit.render.rulebook_source: `MAX_TABLE_COLUMNS`, `MAX_BLOCKS` with `HEADING_WEIGHT`,
`MAX_TABLE_CELLS`): it is a heading and a table per deck, a row a card and a column a field,
laid out as the Markdown's are, so it shares what the rendered Markdown leaves of them. No
bound priced it: 2,000 cards of 30 labelled params took `build` 23 s, 999 one-card decks
12 s, and 40 labelled params crashed it (a column narrower than its padding)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolkit.content.game import Game, LoadedFile
from toolkit.content.unit_cache import Units, active, cached_as
from toolkit.diagnostics import Span

Finding = tuple[str, Span, str]
"""(deck file, place, message): an R010 the rulebook's check says."""


def findings(game: Game, lang: str, text: str) -> Iterator[Finding]:
    """The card reference's findings in `lang`, whose rendered Markdown is `text`: each deck
    of more columns than a page holds, at its `labels:` (not counted further); and the
    first deck heading or card row that takes the rulebook past a budget (nothing is said
    past it)."""
    from toolkit.render import rulebook_source as bounds
    from toolkit.render.card_reference import FIXED_COLUMNS, named

    blocks, cells, squares = _text_counts(game, text)
    started = False
    for loaded in game.decks:
        deck, doc = loaded.model, loaded.doc
        if deck is None or doc is None:
            continue
        size = _size(game, loaded, lang)
        if size is None:
            continue
        rows, columns = size
        name = named(deck, lang)
        if len(name.text) > bounds.MAX_HEADING:
            held = name.path or ("id",)
            at = (*held, lang) if (*held, lang) in doc.spans else held
            yield (
                loaded.rel,
                doc.span(at),
                f"the rulebook's card reference heads this deck's part with its name, of"
                f" {len(name.text):,} characters: a heading may have at most"
                f" {bounds.MAX_HEADING:,} (it is laid out whole, and again in the contents);"
                " shorten it",
            )
        if columns > bounds.MAX_TABLE_COLUMNS:
            at = ("labels",) if ("labels",) in doc.spans else ("id",)
            yield (
                loaded.rel,
                doc.key_span(at),
                f"the rulebook's card reference would print this deck in {columns} columns"
                f" (Card, {columns - FIXED_COLUMNS} fields and labelled params, Copies, Text):"
                f" a page holds at most {bounds.MAX_TABLE_COLUMNS} (a narrower column is"
                f" narrower than its padding): label {columns - bounds.MAX_TABLE_COLUMNS} fewer",
            )
            continue  # each deck that is too wide is said (build stops at the first)
        if not started:  # the card reference's own heading
            started, blocks = True, blocks + bounds.HEADING_WEIGHT
        blocks += bounds.HEADING_WEIGHT + 1  # the deck's heading and its table's header row
        cells += columns
        if blocks > bounds.MAX_BLOCKS or cells > bounds.MAX_TABLE_CELLS:
            yield _past(loaded, -1, blocks > bounds.MAX_BLOCKS)
            return
        by_blocks = bounds.MAX_BLOCKS - blocks  # the rows each budget has left
        by_cells = (bounds.MAX_TABLE_CELLS - cells) // columns
        if rows > min(by_blocks, by_cells):
            yield _past(loaded, min(by_blocks, by_cells), by_blocks <= by_cells)
            return
        blocks, cells = blocks + rows, cells + rows * columns
    reference = _reference_rows(game, lang)
    counted = [_deck_counts(game, loaded, lang, found) for loaded, found in reference]
    yield from _markup_past(reference, text, sum(pieces for pieces, _, _ in counted))
    more = sum(more for _, more, _ in counted)  # the decks' cells are set apart: they add up
    longest = max((longest for _, _, longest in counted), default=0)
    yield from _long_words_past(reference, squares, (more, longest))


def _text_counts(game: Game, text: str) -> tuple[int, int, int]:
    """What the budgets count of a rendered rulebook itself: its blocks, its tables' cells
    and its long words' squares (`_long_words_past`). With `validate`'s units active, kept
    between runs (kind `rulebook-counts`) by the text's digest: after a card edit the
    languages whose rulebook prints the same text are not counted again (~0.5 ms each).
    A text the render's bounds searched in this run is counted there (`rulebook_source.
    COUNTS`: ~0.35 ms)."""
    from toolkit.render import rulebook_source as bounds

    def work() -> tuple[int, int, int]:
        counted = game.print_memo.get((bounds.COUNTS, text))
        if counted is not None:
            return counted
        return bounds.block_count(text), bounds.table_cells(text), _long_words(text)[0]

    if active() is None:
        return work()
    name = Units.name(COUNTS_KIND, [bounds.rendered_digest(game, text)])
    return cached_as(name, work, list, _counts_read)


COUNTS_KIND = "rulebook-counts"


def _counts_read(kept: Any) -> tuple[int, int, int]:
    if type(kept) is not list or len(kept) != 3 or not all(type(n) is int for n in kept):
        raise ValueError("not a rulebook's counts")
    return kept[0], kept[1], kept[2]


def _long_words(of: str) -> tuple[int, int]:
    """(the squares of the long words' lengths of `of`, added up; its longest word)."""
    from toolkit.render import rulebook_source as bounds

    sizes = [end - start for start, end in bounds.long_runs(of)]
    return sum(size * size for size in sizes), max(sizes, default=0)


Rows = list[tuple[LoadedFile, list[list[str]]]]
"""Each deck with a part in the card reference, and the strings each card's row prints."""


def _reference_rows(game: Game, lang: str) -> Rows:
    """What the card reference's rows print in `lang`, deck by deck (made once for the
    budgets that count them)."""
    out: Rows = []
    for loaded in game.decks:
        if loaded.model is None or loaded.doc is None:
            continue
        found = _deck_rows(game, loaded, lang)
        if found:
            out.append((loaded, found))
    return out


Counts = tuple[int, int, int]
"""What the budgets count of a deck's rows: the pieces of markup its cells print
(`_markup_past`), its long words' squares and its longest word (`_long_words_past`)."""


def _row_counts(rows: list[list[str]]) -> Counts:
    """`Counts` of a deck's rows, its cells set apart by line breaks (a breaking space: no
    word or piece spans two cells)."""
    cells = [cell for row in rows for cell in row]
    joined = "\n".join(cells)
    return (_pieces(cells, joined), *_long_words(joined))


def _deck_counts(game: Game, loaded: LoadedFile, lang: str, rows: list[list[str]]) -> Counts:
    """`_row_counts` of a deck's `rows` in `lang`: with `validate`'s units active, kept with
    its rows (`_kept_rows`: after a card edit the other decks' are read back, not counted
    again in each language)."""
    assert loaded.doc is not None
    if active() is None or loaded.doc.digest is None:
        return _row_counts(rows)
    counts = _kept_rows(game, loaded, lang)[2]
    assert counts is not None  # kept with the rows it has
    return counts


def _size(game: Game, loaded: LoadedFile, lang: str) -> tuple[int, int] | None:
    """`reference_size` of a deck in `lang`: with `validate`'s units active, from its rows
    and columns as kept (`_kept_rows`: a deck has a part when one card's text prints, as it
    has rows; a row a card)."""
    from toolkit.render.card_reference import reference_size

    assert loaded.model is not None and loaded.doc is not None
    if active() is None or loaded.doc.digest is None:
        return reference_size(game, loaded.model, lang)
    rows, columns, _ = _kept_rows(game, loaded, lang)
    return None if rows is None else (len(loaded.model.cards), columns)


def _deck_rows(game: Game, loaded: LoadedFile, lang: str) -> list[list[str]] | None:
    """`reference_rows` of a deck in `lang` (with units active, as kept: `_kept_rows`)."""
    from toolkit.render.card_reference import reference_rows

    assert loaded.model is not None and loaded.doc is not None
    if active() is None or loaded.doc.digest is None:
        return reference_rows(game, loaded.model, lang)
    return _kept_rows(game, loaded, lang)[0]


def _kept_rows(
    game: Game, loaded: LoadedFile, lang: str
) -> tuple[list[list[str]] | None, int, Counts | None]:
    """`reference_rows` of a deck in `lang`, its columns and its rows' `Counts` (None
    without rows). With `validate`'s units active, kept between
    runs (kind `reference-rows`), named as a file's walk is (toolkit.content.walk: the bytes
    the deck's model was validated from, the game's plugin and the model's class), with the
    language and the game's languages (which texts a view reads as localized): what the
    rows print is a function of the deck's model alone. After a card edit the other decks'
    rows are read back, in every language (filling every card's text of every deck was
    most of the budgets' ~1.5 ms a language)."""
    from toolkit.render.card_reference import column_count, reference_rows
    from toolkit.render.context import game_languages

    deck, doc = loaded.model, loaded.doc
    assert deck is not None and doc is not None and doc.digest is not None

    def work() -> tuple[list[list[str]] | None, int, Counts | None]:
        rows = reference_rows(game, deck, lang)
        if rows is None:
            return None, 0, None
        return rows, column_count(game, deck), _row_counts(rows)

    memo = game.print_memo
    key = ("reference-rows", id(loaded), lang)
    made = memo.get(key)
    if made is not None and made[0] is loaded:  # kept with its file: an id is never reused
        return made[1]
    kind = type(deck)
    langs = game_languages(game)
    args = [doc.digest, game.plugin.game_id, kind.__module__, kind.__qualname__, lang]
    name = Units.name(ROWS_KIND, [*args, sorted(langs) if langs is not None else None])
    found = cached_as(name, work, _rows_kept, _rows_read)
    memo[key] = (loaded, found)  # the size, then the rows: one unit asked once
    return found


ROWS_KIND = "reference-rows"


def _rows_kept(found: tuple[list[list[str]] | None, int, Counts | None]) -> list[Any]:
    rows, columns, counts = found
    return [rows, columns, None if counts is None else list(counts)]


def _rows_read(kept: Any) -> tuple[list[list[str]] | None, int, Counts | None]:
    """Kept rows, columns and counts read back (ValueError for another shape)."""
    if type(kept) is not list or len(kept) != 3 or type(kept[1]) is not int:
        raise ValueError("not a deck's rows")
    rows, columns, counts = kept
    if rows is None:
        if counts is not None:
            raise ValueError("not a deck's rows")
        return None, columns, None
    if type(counts) is not list or len(counts) != 3 or set(map(type, counts)) != {int}:
        raise ValueError("not a deck's rows' counts")
    if type(rows) is not list or not all(
        type(row) is list and all(type(cell) is str for cell in row) for row in rows
    ):
        raise ValueError("not a deck's rows")
    return rows, columns, (counts[0], counts[1], counts[2])


_MARKUP_CHARS = "&<>\u202f\n"
"""What the card reference's cells print as a piece of markup of their own: `&`, `<` and `>`
(escaped: reportlab's parser starts a fragment at each), a narrow no-break space (in a font
of its own) and a line break (`<br/>`)."""


def _markup_past(decks: Rows, text: str, total: int | None = None) -> Iterator[Finding]:
    """R010 at the card whose reference row takes the rulebook's inline markup (the
    Markdown's, `text`, with the reference's cells') past `MAX_INLINE_MARKUP`: 700 cards of
    300 `&&&` words, outside the count, took `build` 14.7 s and 1.25 GB (probe 53-12).
    `total`: the pieces the decks' cells print together, when counted (`Counts`)."""
    from toolkit.render import rulebook_source as bounds

    most = bounds.MAX_INLINE_MARKUP
    if total is None:
        total = _pieces([cell for _, found in decks for row in found for cell in row])
    if not total:
        return
    count = bounds.inline_markup_count(text, most - total)
    if count + total <= most:
        return  # nearly every game: no row takes the count past (each adds its pieces)
    rows = []  # (deck file, row's index, its pieces) for each row with any
    for loaded, found in decks:
        for index, row in enumerate(found):
            pieces = _pieces(row)
            if pieces:
                rows.append((loaded, index, pieces))
    for loaded, index, pieces in rows:
        count += pieces
        if count > most:
            doc = loaded.doc
            assert doc is not None
            path = ("cards", index, "text")  # the row's text (deck_reference's place of it)
            span = doc.span(path if path in doc.spans else ("id",))
            yield (
                loaded.rel,
                span,
                f"the rulebook with its card reference would hold more than {most:,} pieces"
                " of inline markup (the Markdown's bold, italics, links, icons, &, < and >,"
                " with the card reference's &, <, >, icons and line breaks): each is laid out"
                " on its own, so many cost minutes; this card's row is the first one over:"
                " write fewer of them",
            )
            return


def _pieces(cells: list[str], joined: str | None = None) -> int:
    """The pieces of markup `cells` print together, as `_markup_past` counts each row's:
    counted in C over the cells set apart by line breaks (themselves not counted), which no
    piece spans (an icon's name holds no line break), not cell by cell (~0.2 ms a language).
    `joined`: the cells so joined, when made."""
    from toolkit.content.templating import INLINE_ICON

    joined = "\n".join(cells) if joined is None else joined
    pieces = sum(joined.count(ch) for ch in _MARKUP_CHARS) - max(len(cells) - 1, 0)
    if ":" in joined:
        pieces += sum(1 for _ in INLINE_ICON.finditer(joined))
    return pieces


def _long_words_past(
    decks: Rows, total: int, counted: tuple[int, int] | None = None
) -> Iterator[Finding]:
    """R010 at the first card whose reference row prints a word over the rulebook's
    `MAX_WORD`, or takes its long words (over `LONG_WORD` letters: the Markdown's, whose
    squares add up to `total`, with the reference's cells') past `MAX_LONG_WORDS`: laying a
    word out costs the square of its length, and 10 cards whose text is one 3,899-letter
    word took `build --only rulebook` 13.3 s a language, printed by no face (probe 60-16).
    `counted`: the cells' squares and longest word, when counted (`Counts`)."""
    from toolkit.render import rulebook_source as bounds

    work = _long_words
    # the cells set apart by line breaks (a breaking space: no word spans two cells)
    more, longest = counted or work(
        "\n".join(cell for _, rows in decks for row in rows for cell in row)
    )
    if total + more <= bounds.MAX_LONG_WORDS and longest <= bounds.MAX_WORD:
        return  # nearly every game: no row is counted alone
    for loaded, rows in decks:
        for index, row in enumerate(rows):
            more, longest = work("\n".join(row))
            total += more
            if longest <= bounds.MAX_WORD and total <= bounds.MAX_LONG_WORDS:
                continue
            if longest > bounds.MAX_WORD:
                why = (
                    f"a word of {longest:,} characters without a space, more than the"
                    f" {bounds.MAX_WORD:,} a rulebook can lay out (it costs the square of its"
                    " length)"
                )
            else:
                why = (
                    f"words of over {bounds.LONG_WORD} characters without a space that take the"
                    f" rulebook's past {bounds.MAX_LONG_WORDS:,} (each costs the square of its"
                    " length to lay out)"
                )
            doc = loaded.doc
            assert doc is not None
            path = ("cards", index, "text")  # the row's text, as `_markup_past` says it
            yield (
                loaded.rel,
                doc.span(path if path in doc.spans else ("id",)),
                f"the rulebook's card reference prints this card's row with {why}; this card"
                " is the first one over: break them with spaces",
            )
            return


def _past(loaded: LoadedFile, index: int, by_blocks: bool) -> Finding:
    """The finding at the card (or, `index` -1, the deck's heading) that passes a budget."""
    from toolkit.render import rulebook_source as bounds

    doc = loaded.doc
    assert doc is not None
    at: tuple[str | int, ...] = ("cards", index) if index >= 0 else ("id",)
    if by_blocks:
        what = (
            f"more than {bounds.MAX_BLOCKS:,} blocks (the Markdown's paragraphs, list items and"
            " table rows, with the card reference's rows; a heading counts"
            f" {bounds.HEADING_WEIGHT}: it is listed in the contents too)"
        )
        fewer = "fewer cards, or fewer decks with card texts"
    else:
        what = (
            f"more than {bounds.MAX_TABLE_CELLS:,} table cells (the Markdown's tables, with the"
            " card reference's: a row a card, a column a field or labelled param)"
        )
        fewer = "fewer cards or labelled params"
    here = "this card's row" if index >= 0 else "this deck's heading"
    return (
        loaded.rel,
        doc.key_span(at) if index < 0 else doc.span(at),
        f"the rulebook with its card reference would hold {what}: each is laid out on its own,"
        f" so many cost minutes; {here} is the first one over: {fewer}",
    )
