"""P rules: what will not print right — text that overflows its box at the minimum size in
some language, characters the font cannot draw, layouts that cannot be read.

It uses the renderer's own measure (toolkit.render.textfit) with the real font and size.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from jinja2 import TemplateError
from pydantic import BaseModel
from reportlab.lib.units import mm

from toolkit.checks.translation.presence import T_MISSING
from toolkit.content.game import Game, LoadedFile, repo_root
from toolkit.content.models.deck import size_mm
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic, Severity, rule
from toolkit.fileio import real_path
from toolkit.render import assets
from toolkit.render.context import card_context
from toolkit.render.fonts import missing_glyphs, text_width
from toolkit.render.icons import icon_set
from toolkit.render.jinja_cache import TEMPLATE_CODE
from toolkit.render.layout import (
    DEFAULT_BACK,
    DEFAULT_FRONT,
    QUESTION_BACK,
    QUESTION_FRONT,
    BadgeElement,
    IconElement,
    ImageElement,
    Resolved,
    TextElement,
    layout_document,
    layout_file,
    load_layout,
    resolve,
)
from toolkit.render.textfit import LEADING, fit_text

P_OVERFLOW = rule("P001", "text-overflow", "A text does not fit its box at the minimum size.")
P_GLYPH = rule("P002", "missing-glyph", "A character is missing from the font.")
P_LAYOUT = rule("P003", "layout-error", "A card layout cannot be used for a deck.")
P_IMAGE = rule("P004", "image-missing", "A card image is missing, unreadable or outside the game.")
P_DPI = rule(
    "P005", "image-resolution", "A card image prints under 300 dpi at its size.", Severity.WARNING
)
P_UNPRINTED = rule(
    "P006",
    "unprinted-number",
    "A number of a card's data is printed nowhere on its face.",
    Severity.WARNING,
)
MIN_DPI = 300
QUESTION_SIZE = "poker"  # the size `build` prints question cards at
_DIGITS = re.compile(r"\d+")
NOT_PRINTED = frozenset({"copies"})  # how many to print, not something a player reads

FIELD_OF = {"card.text": "text", "card.name": "name"}
_ANSWER_AT = re.compile(r"card\.answers\[\s*(\d+)\s*\]")
_QUESTION_FIELD = re.compile(r"card\.(question|fact)\b")


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    yield from _glyphs(facts)
    if game.manifest is None:
        return
    # Characters content texts lack are reported where they are written; a layout's own
    # (computed) output is reported once per layout and character, at the first card.
    in_content = {ch for t in facts.texts for v in t.value.values() for ch in missing_glyphs(v)}
    reported: set[tuple[str, ...]] = set()
    names = [(d.layout or DEFAULT_FRONT, d.back or DEFAULT_BACK) for d in game.valid(game.decks)]
    if game.valid(game.questions):
        names.append((QUESTION_FRONT, QUESTION_BACK))
    own = [found.path.stem for found in assets.in_game(assets.LAYOUTS, game.root)]
    for name in dict.fromkeys([*own, *(n for pair in names for n in pair)]):
        if assets.find(assets.LAYOUTS, name, game.root) is None:
            continue  # no such layout: said at the deck that names it
        yield from load_layout(name, game.root)[1]  # Y/S findings in the layout file itself
        yield from layout_glyphs(name, game.root)
        yield from _label_languages(name, game.root, game.manifest.languages)
    yield from _question_fit(game)
    icons = icon_set(game.root)
    for loaded in game.decks:
        if loaded.model is None or loaded.doc is None:
            continue
        deck = loaded.model
        unknown = [(f, n) for f, n in (("layout", deck.layout), ("back", deck.back)) if n]
        unknown = [(f, n) for f, n in unknown if not assets.find(assets.LAYOUTS, n, game.root)]
        for where, missing in unknown:
            yield P_LAYOUT.at(
                loaded.rel, loaded.doc.span((where,)), unknown_layout(missing, game.root)
            )
        if unknown:
            continue
        name = deck.layout or DEFAULT_FRONT
        layout, _ = load_layout(name, game.root)
        if layout is None:
            where = ("layout",) if deck.layout else ("id",)
            yield P_LAYOUT.at(loaded.rel, loaded.doc.span(where), f"layout {name!r} is unusable")
            continue
        width, height = size_mm(deck.size)
        for index, card in enumerate(deck.cards):
            numbers: set[int] = set()  # what the face shows in some language
            for lang in game.manifest.languages:
                context = card_context(game, deck, card, lang)
                try:
                    elements = resolve(layout, context, width, height)
                except (TemplateError, TypeError, ValueError) as exc:
                    yield P_LAYOUT.at(
                        loaded.rel,
                        loaded.doc.span(("cards", index, "id")),
                        f"layout {name!r} fails on {card.id} ({lang}): {exc}",
                    )
                    break
                numbers |= _printed_numbers(elements)
                for item in elements:
                    element = item.element
                    unknown = isinstance(element, IconElement) and item.text not in icons.names
                    if unknown and ("icon", name, item.text) not in reported:  # prints nothing
                        reported.add(("icon", name, item.text))
                        yield P_LAYOUT.at(
                            loaded.rel,
                            loaded.doc.span(("cards", index, "id")),
                            f"layout {name!r} asks for icon {item.text!r} on {card.id} "
                            f"({lang}), which does not exist; icons: "
                            + ", ".join(sorted(icons.names)),
                        )
                    if isinstance(element, ImageElement) and lang == game.manifest.languages[0]:
                        yield from _image(game, loaded, index, item)
                    if isinstance(element, TextElement | BadgeElement) and item.text:
                        printed = _TEMPLATE_CODE.sub("", item.text)
                        for ch in missing_glyphs(printed):
                            if ch in in_content or (name, ch) in reported:
                                continue
                            reported.add((name, ch))
                            yield P_GLYPH.at(
                                loaded.rel,
                                loaded.doc.span(("cards", index, "id")),
                                f"layout {name!r} prints U+{ord(ch):04X} {ch!r} for {card.id} "
                                f"({lang}); the font has no glyph for it",
                            )
                    if not isinstance(element, TextElement) or not element.fit or not item.text:
                        continue
                    fit = fit_text(
                        item.text,
                        item.w * mm,
                        item.h * mm,
                        element.size.max,
                        element.size.min,
                        element.style,
                        lang,
                        icons.names,
                    )
                    if not fit.fits:
                        field = next(
                            (f for key, f in FIELD_OF.items() if key in element.text), "id"
                        )
                        path = (
                            ("cards", index, field, lang)
                            if field != "id"
                            else ("cards", index, "id")
                        )
                        yield P_OVERFLOW.at(
                            loaded.rel,
                            loaded.doc.span(path),
                            f"{card.id} {field} ({lang}) needs {fit.height / mm:.1f} mm at "
                            f"{element.size.min} pt but the box is {item.h:.1f} mm high "
                            f"({len(item.text)} characters; layout {name})",
                        )
            else:  # no language failed: what no language prints, no player can read
                yield from _unprinted(loaded, index, card, name, numbers)


def unknown_layout(name: str, game_root: Path) -> str:
    """No layout has this name: say where layouts come from and which there are."""
    own = [found.path.stem for found in assets.in_game(assets.LAYOUTS, game_root)]
    builtin_dir = repo_root().joinpath(*(assets.LAYOUTS.builtin or ()))
    builtin = sorted(p.stem for p in builtin_dir.glob("*.yaml")) if builtin_dir.is_dir() else []
    close = difflib.get_close_matches(name, own + builtin, n=1)
    tip = f"; did you mean {close[0]!r}?" if close else ""
    mine = ", ".join(own) or "none"
    return (
        f"no layout {name!r} in the game's layouts/ folder or the toolkit's (the game has"
        f" {mine}; the toolkit has {', '.join(builtin) or 'none'}){tip}"
    )


def _question_fit(game: Game) -> Iterator[Diagnostic]:
    """P001 for question cards: the question and answers (front), the right answer and the
    fact line (back), in every language, on the layouts and card size `build` prints."""
    assert game.manifest is not None
    layouts = [(n, load_layout(n, game.root)[0]) for n in (QUESTION_FRONT, QUESTION_BACK)]
    icons = icon_set(game.root).names
    for loaded in game.questions:
        bank = loaded.model
        if bank is None or loaded.doc is None:
            continue
        deck = SimpleNamespace(
            id=bank.id, kind="questions", name=bank.name, size=QUESTION_SIZE, cards=bank.questions
        )
        for index, question in enumerate(bank.questions):
            reported: set[tuple[object, ...]] = set()  # a right answer shows on both faces
            for name, layout in layouts:
                if layout is None:
                    continue  # reported with the layout (its own S diagnostics)
                for lang in game.manifest.languages:
                    context = card_context(game, deck, question, lang)
                    found = _question_face(loaded, index, question, name, layout, context, icons)
                    for path, diag in found:
                        if path not in reported:
                            reported.add(path)
                            yield diag


def _question_face(
    loaded: LoadedFile,
    index: int,
    question: Any,
    name: str,
    layout: Any,
    context: dict,
    icons: frozenset[str],
) -> Iterator[tuple[tuple[object, ...], Diagnostic]]:
    """Each text of one question face that does not fit, with the field path it prints."""
    assert loaded.doc is not None
    lang = context["lang"]
    width, height = size_mm(QUESTION_SIZE)
    try:
        elements = resolve(layout, context, width, height)
    except (TemplateError, TypeError, ValueError) as exc:
        where = loaded.doc.span(("questions", index, "id"))
        message = f"layout {name!r} fails on {question.id} ({lang}): {exc}"
        yield ("layout", name, lang), P_LAYOUT.at(loaded.rel, where, message)
        return
    for item in elements:
        element = item.element
        if not isinstance(element, TextElement) or not element.fit or not item.text:
            continue
        fit = fit_text(
            item.text,
            item.w * mm,
            item.h * mm,
            element.size.max,
            element.size.min,
            element.style,
            lang,
            icons,
        )
        if fit.fits:
            continue
        field = _question_field(element.text, question)
        path = ("questions", index, *field) + ((lang,) if field != ("id",) else ())
        message = (
            f"{question.id} {'.'.join(map(str, field))} ({lang}) needs {fit.height / mm:.1f} "
            f"mm at {element.size.min} pt but the box is {item.h:.1f} mm high "
            f"({len(item.text)} characters; layout {name})"
        )
        yield path, P_OVERFLOW.at(loaded.rel, loaded.doc.span(path), message)


def _question_field(source: str, question: object) -> tuple[str | int, ...]:
    """Which field of a question a layout text prints: `question`, `fact`, an answer by its
    index, or the right answer (`card.answers[...card.right...]`); else the question's id."""
    found = _ANSWER_AT.search(source)
    if found:
        return ("answers", int(found.group(1)))
    if "card.answers" in source and "card.right" in source:
        return ("answers", "abcd".index(question.right))  # type: ignore[attr-defined]
    found = _QUESTION_FIELD.search(source)
    if found:
        return (found.group(1),)
    return ("id",)


def _card_numbers(value: object, path: tuple[str | int, ...]) -> Iterator[tuple[tuple, int]]:
    """Every whole number in a card's data with its path (`bonuses.fire`, `effect.to.1`)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield path, value
    elif isinstance(value, BaseModel):
        for key in type(value).model_fields:
            if key not in NOT_PRINTED:
                yield from _card_numbers(getattr(value, key), (*path, key))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _card_numbers(item, (*path, key))
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from _card_numbers(item, (*path, index))


def _printed_numbers(elements: list[Resolved]) -> set[int]:
    return {
        int(n)
        for item in elements
        if isinstance(item.element, TextElement | BadgeElement)
        for n in _DIGITS.findall(item.text)
    }


def _unprinted(
    loaded: LoadedFile, index: int, card: object, layout: str, printed: set[int]
) -> Iterator[Diagnostic]:
    """A number the rules use but the face shows in no language (a hero's bonus once printed
    as 'add her bonus' with no number): players could not know it. A number missing from one
    language only is a translation finding (T006), not this."""
    assert loaded.doc is not None
    for path, number in _card_numbers(card, ()):
        if abs(number) not in printed:
            field = ".".join(str(p) for p in path)
            yield P_UNPRINTED.at(
                loaded.rel,
                loaded.doc.span(("cards", index, *path)),
                f"{getattr(card, 'id', '?')}: {field} is {number}, but neither its texts nor "
                f"layout {layout!r} print it in any language",
            )


def _image(game: Game, loaded: LoadedFile, index: int, item: Resolved) -> Iterator[Diagnostic]:
    """The image exists inside the game folder and has enough pixels for its printed box."""
    from PIL import Image, UnidentifiedImageError

    assert loaded.doc is not None
    span = loaded.doc.span(("cards", index, "image"))
    root = real_path(game.root)
    path = real_path(game.root / item.text)
    if not path.is_relative_to(root):
        yield P_IMAGE.at(loaded.rel, span, f"image {item.text!r} leaves the game folder")
        return
    if not path.is_file():
        yield P_IMAGE.at(loaded.rel, span, f"no image file {item.text!r}")
        return
    try:
        with Image.open(path) as image:
            pixels = image.size
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError) as exc:
        yield P_IMAGE.at(loaded.rel, span, f"cannot read image {item.text!r}: {exc}")
        return
    dpi = min(pixels[0] / (item.w / 25.4), pixels[1] / (item.h / 25.4))
    if dpi < MIN_DPI:
        yield P_DPI.at(
            loaded.rel,
            span,
            f"{item.text} is {pixels[0]}×{pixels[1]} px: {dpi:.0f} dpi in its "
            f"{item.w:.0f}×{item.h:.0f} mm box (print needs {MIN_DPI})",
        )


_TEMPLATE_CODE = re.compile(rf"{TEMPLATE_CODE}|:[a-z_]+:", re.DOTALL)  # icons print as shapes


@cache
def layout_glyphs(name: str, game_root: Path | None = None) -> tuple[Diagnostic, ...]:
    """P002 for the words a layout prints itself (its labels and the literal parts of its
    texts): a glyph the font lacks there would print as a box on every card."""
    layout, _ = load_layout(name, game_root)
    doc, _ = layout_document(name, game_root)
    if layout is None or doc is None:
        return ()
    found: list[Diagnostic] = []

    def report(path: tuple[object, ...], text: str, where: str) -> None:
        missing = missing_glyphs(_TEMPLATE_CODE.sub("", text))
        if missing:
            shown = ", ".join(f"U+{ord(ch):04X} {ch!r}" for ch in missing)
            message = f"the font has no glyph for {shown} ({where}); use an icon such as :arrow:"
            found.append(P_GLYPH.at(layout_file(name, game_root), doc.span(path), message))

    for key, words in layout.labels.items():
        for lang, text in words.items():
            report(("labels", key, lang), text, f"label {key}, {lang}")
    for index, element in enumerate(layout.elements):
        if isinstance(element, TextElement | BadgeElement):
            report(("elements", index, "text"), element.text, "layout text")
    return tuple(found)


def _label_languages(name: str, game_root: Path, languages: list[str]) -> Iterator[Diagnostic]:
    """T001 for a layout label that lacks a language the game prints: that face would show
    the label's key ('draw') instead of words."""
    layout, _ = load_layout(name, game_root)
    doc, _ = layout_document(name, game_root)
    if layout is None or doc is None:
        return
    for key, words in layout.labels.items():
        missing = [lang for lang in languages if not words.get(lang)]
        if missing:
            yield T_MISSING.at(
                layout_file(name, game_root),
                doc.span(("labels", key)),
                f"label {key} of layout {name!r} has no {', '.join(missing)}: cards in that "
                "language would print its key",
            )


def _glyphs(facts: Facts) -> Iterator[Diagnostic]:
    for text in facts.texts:
        doc = text.file.doc
        if doc is None:
            continue
        for lang, value in text.value.items():
            missing = missing_glyphs(value)
            if missing:
                shown = ", ".join(f"U+{ord(ch):04X} {ch!r}" for ch in missing)
                yield P_GLYPH.at(
                    text.file.rel,
                    doc.span((*text.path, lang)),
                    f"the font has no glyph for {shown} ({lang})",
                )


__all__ = ["capacity", "check"]


def capacity(game: Game, card: object, field: str, lang: str) -> int | None:
    """About how many characters of `field` fit the card's box at the minimum size in `lang`
    (measured with the text's own average character width), for translators' PO comments."""
    for deck in game.valid(game.decks):
        if not any(c is card for c in deck.cards):
            continue
        layout, _ = load_layout(deck.layout or DEFAULT_FRONT, game.root)
        if layout is None:
            return None
        width, height = size_mm(deck.size)
        try:
            elements = resolve(layout, card_context(game, deck, card, lang), width, height)
        except (TemplateError, TypeError, ValueError):
            return None
        for item in elements:
            element = item.element
            if isinstance(element, TextElement) and f"card.{field}" in element.text:
                size = element.size.min
                sample = item.text or "n"
                average = text_width(sample, size, element.style) / max(1, len(sample))
                lines = int(item.h * mm // (size * LEADING))
                return int(lines * (item.w * mm / average) * 0.92)
    return None
