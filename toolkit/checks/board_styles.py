"""Board styles: an icon a style names must exist, or the space would quietly show a letter
and the flight its bare arc (the game's plugin glyphs, its SVG icons and the toolkit's icons
count, as they do when the board is drawn: toolkit.render.boards.look); a board kind's
data must fit its page, and the icons one drawing draws their bound together (P016); and the
player counts a board speaks of are the game's (S004)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from toolkit.checks import CheckFamily, register
from toolkit.checks.board_dashes import close_dashes
from toolkit.checks.framed import framed
from toolkit.content.board_phrases import MAX_LABEL
from toolkit.content.game import Game, LoadedFile
from toolkit.content.printing import prints
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic, Severity, rule
from toolkit.diagnostics.capped import always_listed
from toolkit.render.textfit import game_budget

P_BOARD_ICON = rule(
    "P015", "unknown-board-icon", "A board style names an icon that does not exist."
)
P_BOARD_FIT = rule("P016", "board-fit", "A board's data cannot be drawn on its page.")


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    # reads no deck nor question bank: kept whole while no other file changes
    yield from framed("board-styles", _check, game)


def _check(game: Game) -> Iterator[Diagnostic]:
    yield from _player_counts(game)
    yield from _fit(game)
    yield from _glyphs(game)
    styled = [f for f in game.boards if f.model is not None and f.doc is not None]
    styled = [f for f in styled if getattr(f.model, "style", None) is not None]
    if not styled:
        return
    from toolkit.render.boards.look import plugin_glyphs
    from toolkit.render.icons import icon_set, listed

    icons = icon_set(game.root)
    known = set(plugin_glyphs(game)) | set(icons.names) | {"none"}
    shown = listed(known)
    known |= icons.broken  # a broken icon's own finding (P008) says why, once
    for loaded in styled:
        yield from close_dashes(loaded)
        style = getattr(loaded.model, "style", None)
        if style is None:
            continue
        named: list[tuple[tuple[str | int, ...], str | None]] = [
            (("style", "spaces", k, "icon"), s.icon) for k, s in style.spaces.items()
        ]
        named += [(("style", "links", k, "marker"), s.marker) for k, s in style.links.items()]
        squares = getattr(loaded.model, "icons", None)  # icons on numbered squares (score track)
        if isinstance(squares, dict):
            named += [(("icons", number), icon) for number, icon in squares.items()]
        for path, icon in named:
            if icon is not None and icon not in known and loaded.doc is not None:
                yield P_BOARD_ICON.at(
                    loaded.rel,
                    loaded.doc.span(path),
                    f"{'.'.join(map(str, path))}: no icon {icon!r}; icons: {shown}",
                )


def _player_counts(game: Game) -> Iterator[Diagnostic]:
    """S004 at each player count a board speaks of (a track's `segments_by_players` key)
    outside game.yaml's `players`: its legend and title printed an arrangement for a count
    the game is not played with, validate clean."""
    if not game.boards or game.manifest is None:
        return
    from toolkit.content.models.board import board_kinds
    from toolkit.content.validation import S_BAD_VALUE

    low, high = game.manifest.players.min, game.manifest.players.max
    for loaded in game.boards:
        if loaded.model is None or loaded.doc is None:
            continue
        entry = board_kinds().get(getattr(loaded.model, "kind", ""))
        counts = entry.player_counts if entry is not None else None
        for path, count in counts(loaded.model) if counts is not None else []:
            if not low <= count <= high:
                yield S_BAD_VALUE.at(
                    loaded.rel,
                    loaded.doc.key_span(path),
                    f"{'.'.join(map(str, path))}: {count} players, but the game is for"
                    f" {low} to {high} players (game.yaml `players`); the board would print"
                    " an arrangement for a count the game is not played with",
                )


def _fit(game: Game) -> Iterator[Diagnostic]:
    """P016: what a board kind says cannot be drawn (a score track's count past its page, a
    map's title wider than the poster), and what its layout gives up on (a warning)."""
    if not game.boards:
        return  # no import of the board models for a game without boards
    from toolkit.content.models.board import board_kinds

    budget = game_budget()
    weighed = [0]  # the icons of the boards so far (`look.game_icon_problem`)
    for loaded in game.boards:
        if loaded.model is None or loaded.doc is None:
            continue
        refusals = budget.refusals
        yield from _board_fit(game, loaded, board_kinds(), weighed)
        if budget.refusals and not refusals:  # the first board one of whose labels it refused
            at = ("id",) if ("id",) in loaded.doc.spans else ()
            yield P_BOARD_FIT.at(
                loaded.rel,
                loaded.doc.span(at),
                f"{_STOPS}{loaded.rel}: validate fits at most {budget.limit:,} characters of "
                "text a game (board labels and faces), and the labels before this board's "
                "took them; its labels, the other boards' after it and the cards' are not "
                "measured: shorten the labels or the boards' stops",
            )


_STOPS = always_listed("board label fit stops at ")


def _board_fit(
    game: Game, loaded: LoadedFile, kinds: Any, weighed: list[int]
) -> Iterator[Diagnostic]:
    """P016 for one board: what its kind says, its icons' weight (its drawing's, and the
    game's boards' together: `weighed` holds the boards' before it, and adds this one's),
    its labels' lengths and what its drawing gives up on (its words' fits counted against
    the game's fitting budget)."""
    assert loaded.doc is not None
    entry = kinds.get(getattr(loaded.model, "kind", ""))
    hook = entry.problems if entry is not None else None
    for path, message in hook(loaded.model) if hook is not None else []:
        yield P_BOARD_FIT.at(loaded.rel, loaded.doc.span(path), message)
    uses = entry.icon_uses if entry is not None else None
    if uses is not None and game.manifest is not None:
        from toolkit.render.boards import board_look
        from toolkit.render.boards.look import game_icon_problem, icon_bound_problem

        look = board_look(game, loaded.model, game.manifest.source_language)
        used = list(uses(loaded.model, look))
        heavy = icon_bound_problem(used, look)
        if heavy is not None:
            yield P_BOARD_FIT.at(loaded.rel, loaded.doc.span(heavy[0]), heavy[1])
        weight, game_heavy = game_icon_problem(weighed[0], used, look)
        weighed[0] += weight
        if game_heavy is not None and heavy is None:  # one finding a board
            heavy = game_heavy
            yield P_BOARD_FIT.at(loaded.rel, loaded.doc.span(heavy[0]), heavy[1])
    drawn = entry.drawn_problems if entry is not None else None
    labels = getattr(getattr(loaded.model, "style", None), "labels", None) or {}
    if game.manifest is None or (drawn is None and not labels):
        return
    from toolkit.render.boards import board_look

    source = game.manifest.source_language
    langs = [source, *(lang for lang in game.manifest.languages if lang != source)]
    langs = [lang for lang in langs if prints(lang)]  # a `build --lang`'s gate: its own
    if not langs:
        return
    looks = {lang: board_look(game, loaded.model, lang) for lang in langs}
    said = list(_label_lengths(loaded, labels, looks))
    yield from said
    if drawn is None:
        return
    seen = set()  # a legend too large in every language is one finding
    long = {d.span for d in said}  # a label too long is said once, not again as drawn
    for lang, look in looks.items():
        for path, message, error in drawn(loaded.model, look, lang == langs[0]):
            if path in seen or loaded.doc.span(path) in long:
                continue
            seen.add(path)
            severity = None if error else Severity.WARNING
            yield P_BOARD_FIT.at(loaded.rel, loaded.doc.span(path), message, severity)


def _label_lengths(
    loaded: Any, labels: dict[str, Any], looks: dict[str, Any]
) -> Iterator[Diagnostic]:
    """P016 at a style label whose words (its own, or its glossary term's) pass MAX_LABEL,
    in the looks of each language (a glossary term's label once, at its one place)."""
    seen = set()
    for lang, look in looks.items():
        for key, own in labels.items():
            words = look.text(own)
            path = ("style", "labels", key, *(() if isinstance(own, str) else (lang,)))
            if len(words) > MAX_LABEL and path not in seen:
                seen.add(path)
                yield P_BOARD_FIT.at(
                    loaded.rel,
                    loaded.doc.span(path),
                    f"the board label {key!r} ({lang}) is {len(words):,} characters; a label"
                    f" prints at most {MAX_LABEL} (the board puts labels inside one another's"
                    " phrases, so their lengths multiply)",
                )


def _glyphs(game: Game) -> Iterator[Diagnostic]:
    """P002 for what a board prints in its faces (its style's `font`, else the game's): the
    characters a face lacks, at the place name or the board's text that writes them, else (a
    word from the glossary or the drawer: a capital, a phrase, the legend, the assembly page)
    at the board's `style.font`, or its `kind`; one finding per place and face, with a string
    that prints them. A character of a content text the game's main face lacks is said where
    it is written (print-fit) and not again."""
    if not game.boards or game.manifest is None:
        return
    from toolkit.checks.printfit import P_GLYPH
    from toolkit.checks.text_direction import string_leaves
    from toolkit.render.boards import board_look
    from toolkit.render.printjob import game_fonts

    fonts = game_fonts(game)
    main = fonts.face(None)
    for loaded in game.boards:
        if loaded.model is None or loaded.doc is None:
            continue
        found: dict[tuple[Any, str], dict[str, tuple[str, str]]] = {}
        data = " ".join(text for _, text in string_leaves(loaded.model))
        data += " " + data.upper()  # a label's initial, a capitalised word
        for lang in filter(prints, game.manifest.languages):
            look = board_look(game, loaded.model, lang)
            if not _covered(data, look):
                for path, face, ch, printed in _board_glyphs(game, loaded, look, main):
                    found.setdefault((path, face), {}).setdefault(ch, (printed, lang))
        from toolkit.diagnostics.printable import code_point

        for (path, face), chars in found.items():
            shown = ", ".join(
                f"{code_point(ch)} in {_short(printed)!r} ({lang})"
                for ch, (printed, lang) in chars.items()
            )
            yield P_GLYPH.at(
                loaded.rel,
                loaded.doc.span(path),
                f"the font has no glyph for {shown}, which the board prints"
                f" ({fonts.describe(face)})",
            )


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:39] + "…"


def _covered(data: str, look: Any) -> bool:
    """Whether the board surely prints nothing its faces lack, without drawing it: it prints
    in the toolkit's own faces (whose words they cover), and its `data` (every string of it,
    with capitals) and the glossary terms it may print have their glyphs."""
    from toolkit.render.boards.printed import STYLES
    from toolkit.render.fonts import FILES, missing_glyphs

    faces = {look.face(style) for style in STYLES}
    if not faces <= set(FILES):
        return False
    terms = " ".join(look.terms.values())
    words = f"{data} {terms} {terms.upper()}"
    return not any(missing_glyphs(words, face) for face in faces)


def _board_glyphs(
    game: Game, loaded: LoadedFile, look: Any, main: str
) -> Iterator[tuple[tuple[str | int, ...], str, str, str]]:
    """(path, face, character, string printed) for each character one board prints in
    `look`'s language that its face lacks, its strings as drawn; a content text's in the
    game's `main` face is left to print-fit, and so is one the main face lacks too (the same
    character at the same place, said once)."""
    from toolkit.checks.text_direction import printed_names
    from toolkit.content.walk import texts_of
    from toolkit.render.boards import build_drawings
    from toolkit.render.boards.printed import printed_strings
    from toolkit.render.fonts import missing_glyphs, stand_ins

    assert loaded.model is not None
    lang, board = look.lang, loaded.model
    names = list(printed_names(game, board))
    texts = [
        ((*t.path, lang), t.value[lang]) for t in texts_of(loaded, board, ()) if lang in t.value
    ]
    style = getattr(board, "style", None)
    own = ("style", "font") if style is not None and style.font else ("kind",)
    try:
        strings = printed_strings(build_drawings(game, board, lang), look)
    except (ValueError, TypeError, KeyError, IndexError, ArithmeticError, AttributeError):
        return  # a board its drawer cannot draw: P016 or the build says why, not this search
    for printed, face in dict.fromkeys(strings):
        for ch in missing_glyphs(printed, face):
            path = _written(ch, names, texts, own)
            if (
                path[-1] == lang
                and (face == main or missing_glyphs(ch, main))
                and ch not in stand_ins()  # print-fit leaves those to what prints them
            ):
                continue  # print-fit's P002 says it there (a text against the main face)
            yield path, face, ch, printed


def _written(
    ch: str,
    names: Iterable[tuple[tuple[str | int, ...], str]],
    texts: Iterable[tuple[tuple[str | int, ...], str]],
    own: tuple[str, ...],
) -> tuple[str | int, ...]:
    """Where a character printed is written: a place name, else a text of the board, else
    the board's own words (the font's line, or the kind's)."""
    for path, text in (*names, *texts):
        if ch in text:
            return path
    return own


register(CheckFamily("board-styles", "Board looks: styled kinds the board uses.", check))
