"""How many cards a game prints, its decks' `copies:` together, and what drawing them weighs:
each copy is a face drawn in every language's PDF, picture and Tabletop Simulator sheet. A
card may say `copies: 1000`, so a 17 kB deck of 300 such cards made `build` draw 300,000
faces a language (40 s and a 90 MB PDF for one; probe 47 K8), although the content budget
(Y018) counts each card once. The bundled games print a few hundred cards; a game prints at
most `MAX_PRINTED_CARDS`, and the card whose copies pass it is an error at its `copies:`.

A face of many elements costs each copy again: 10,000 printed cards of 400 elements took
`build` more than 120 s a language (probe 50 P50-3). What the printed faces weigh to draw
(toolkit.render.drawn_weight) is bounded too, and past it the error is at the heaviest
deck's card of most copies (or, its cards printed once each, at the deck's `layout:`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from toolkit.checks import CheckFamily, register
from toolkit.content.game import Game, LoadedFile
from toolkit.content.models.deck import size_mm
from toolkit.content.printing import printed_languages
from toolkit.content.validation import S_BAD_VALUE
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic
from toolkit.render import drawn_weight
from toolkit.render.drawn_weight import most_weight, weighed_kinds
from toolkit.render.layout import load_layout
from toolkit.render.layout_names import DEFAULT_BACK, DEFAULT_FRONT
from toolkit.render.printjob import PrintJob
from toolkit.render.textfit import running_budget

MAX_PRINTED_CARDS = 10_000
"""Cards the decks of one game print together (each card's `copies`, 1 if it says none):
about 1.3 s of drawing a language at 300,000 faces in 40 s."""

MAX_PRINTED_FACES = 30_000
"""Cards printed times the languages `build` prints them in: each language's PDFs draw
every copy again (9,990 printed cards in 20 languages took `build` 10.8 s; probe 62-9).
Three languages of `MAX_PRINTED_CARDS`."""


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    decks = printed_decks(game)
    many = list(_too_many(decks, len(printed_languages(game))))
    yield from many  # too many cards to print: said once, not again as too much to draw
    if not many:
        yield from _too_heavy(decks, game)


def printed_decks(game: Game) -> list[Weighed]:
    """Every deck `build` prints with each card's copies, then the question banks (each
    question printed once, with a back of its own), as read once for both bounds."""
    decks: list[Weighed] = []
    for loaded in game.decks:
        if loaded.model is None or loaded.doc is None:
            continue
        deck = Weighed(loaded, game, loaded.model.layout or DEFAULT_FRONT)
        deck.back = loaded.model.back or DEFAULT_BACK
        for index, card in enumerate(getattr(loaded.model, "cards", None) or []):
            copies = getattr(card, "copies", 1)
            deck.copies.append((index, copies if isinstance(copies, int) else 1))
        decks.append(deck)
    for loaded in game.questions:  # questions.pdf
        if loaded.model is None or loaded.doc is None:
            continue
        bank = Weighed(loaded, game, loaded.model.layout, loaded.model.back, counted=False)
        bank.copies = [(index, 1) for index, _ in enumerate(loaded.model.questions)]
        decks.append(bank)
    return decks


def _too_many(decks: list[Weighed], langs: int) -> Iterator[Diagnostic]:
    """The card whose copies pass `MAX_PRINTED_CARDS`, or `MAX_PRINTED_FACES` in the `langs`
    languages printed, at its `copies:`."""
    printed = 0
    for deck in decks:
        loaded, doc = deck.loaded, deck.loaded.doc
        if not deck.counted or doc is None:
            continue
        for index, copies in deck.copies:
            printed += copies
            if printed <= MAX_PRINTED_CARDS and printed * langs <= MAX_PRINTED_FACES:
                continue
            card, at = _copies_place(loaded, index)
            if printed > MAX_PRINTED_CARDS:
                past = f"more than the {MAX_PRINTED_CARDS:,} a game prints"
            else:
                past = (
                    f"{printed * langs:,} in its {langs} languages, more than the"
                    f" {MAX_PRINTED_FACES:,} a game prints in all"
                )
            yield S_BAD_VALUE.at(
                loaded.rel,
                at,
                f"{getattr(card, 'id', '?')}: with its {copies:,} copies the game's decks print"
                f" {printed:,} cards, {past} (each copy is drawn in every language); print"
                " fewer copies",
            )
            return


@dataclass
class Weighed:
    """A deck (or a question bank) as printed: its layouts and each card's copies."""

    loaded: LoadedFile
    game: Game
    front: str
    back: str = DEFAULT_BACK
    counted: bool = True
    """Whether its cards count against `MAX_PRINTED_CARDS` (a deck's; a bank's questions
    are bounded as content, and its faces weighed at most)."""
    copies: list[tuple[int, int]] = field(default_factory=list)  # (card's index, copies)

    def printed(self) -> int:
        return sum(n for _, n in self.copies)

    def weights(self, lang: str | None) -> list[int]:
        """What drawing one copy of each card weighs (its front, and the back it prints
        with), in `lang` as the faces resolve there, or (None) at most, by the layouts."""
        front, back = _layout(self.front, self.game), _layout(self.back, self.game)
        model: Any = self.loaded.model
        card_mm = size_mm(model.size)
        if lang is None or not self.counted or front is None or not self.copies:
            most = most_weight(front, card_mm) + most_weight(back, card_mm)
            return [most] * len(self.copies)
        job = PrintJob(self.game, model, front, back, lang, card_mm)
        shared = _resolved_weight(job, back, model.cards[0])  # press: drawn with each copy
        return [_resolved_weight(job, front, model.cards[i]) + shared for i, _ in self.copies]


def _layout(name: str, game: Game) -> Any:
    """Layout `name`, or None where it does not load (print fit says why)."""
    return load_layout(name, game.root)[0]


def _resolved_weight(job: PrintJob, layout: Any, card: Any) -> int:
    """One face as it resolves for `card` (print fit's, kept for the run: `job.resolved`),
    or by its layout where it does not resolve (print fit says why)."""
    if layout is None:
        return 0
    try:
        faces = job.resolved(layout, card)
    except ValueError:  # a template's error (LayoutError), said by print fit
        return most_weight(layout, job.card_mm)
    return drawn_weight.resolved_weight(faces)


def _weights(
    game: Game, decks: list[Weighed], shortcut: bool = True
) -> tuple[str | None, list[list[int]], int]:
    """The printed language whose cards weigh most to draw (the first of the heaviest),
    each deck's card weights there, and what every printed language's weigh together: the
    faces print fit resolved, once it has resolved them all in this run (a face is kept for
    the run: here it is looked up; with the validate cache, read back). At most, by the
    layouts alone: when that is under the bounds (with `shortcut`: no face is looked at),
    or print fit stopped short (an error already) or has not run."""
    langs = printed_languages(game)
    most = [deck.weights(None) for deck in decks]
    at_most = sum(_total(deck, w) for deck, w in zip(decks, most, strict=True))
    under = (
        at_most <= drawn_weight.MAX_DRAWN
        and at_most * len(langs) <= drawn_weight.MAX_DRAWN_LANGUAGES
    )
    running = running_budget()
    if (shortcut and under) or (running is not None and running.measured != (len(game.decks), 0)):
        return None, most, at_most * len(langs)
    best: tuple[int, str | None, list[list[int]]] | None = None
    together = 0
    for lang in langs:
        weights = [deck.weights(lang) for deck in decks]
        total = sum(_total(deck, w) for deck, w in zip(decks, weights, strict=True))
        together += total
        if best is None or total > best[0]:
            best = (total, lang, weights)
    if best is None:  # no language printed (a command that prints nothing): nothing drawn
        return None, [[0] * len(deck.copies) for deck in decks], 0
    return best[1], best[2], together


def _total(deck: Weighed, weights: list[int]) -> int:
    return sum(n * w for (_, n), w in zip(deck.copies, weights, strict=True))


def printed_weight(game: Game) -> int:
    """What drawing the game's printed cards weighs in its heaviest printed language."""
    decks = printed_decks(game)
    _, weights, _ = _weights(game, decks, shortcut=False)
    return sum(_total(deck, w) for deck, w in zip(decks, weights, strict=True))


def _too_heavy(decks: list[Weighed], game: Game) -> Iterator[Diagnostic]:
    """One error when the printed faces weigh more than `MAX_DRAWN` in a language, where it
    is lightened most: the heaviest deck's heaviest card if it has copies, else that deck's
    `layout:`."""
    bound = drawn_weight.MAX_DRAWN
    lang, weights, together = _weights(game, decks)
    totals = [_total(deck, w) for deck, w in zip(decks, weights, strict=True)]
    total = sum(totals)
    if total <= bound and together <= drawn_weight.MAX_DRAWN_LANGUAGES:
        return
    heaviest = totals.index(max(totals))
    deck, each = decks[heaviest], weights[heaviest]
    loaded, doc = deck.loaded, deck.loaded.doc
    assert doc is not None
    shares = [n * w for (_, n), w in zip(deck.copies, each, strict=True)]
    at_most = shares.index(max(shares))
    (index, copies), weighs = deck.copies[at_most], each[at_most]
    layout = _layout(deck.front, game)
    held = weighed_kinds(layout) if layout is not None else "nothing"
    where = f" in {lang}" if lang else ""
    up_to = "" if lang else " up to"  # weighed by the layouts alone: at most
    what = f"(front and back; ~10 µs a unit: layout {deck.front!r} holds {held})"
    sum_up = (
        f"so the game's printed cards weigh{up_to} {total:,} units{where}, more than the"
        f" {bound:,}"
        " `build` draws a language"
    )
    if total <= bound:  # every language under its bound, all of them over theirs
        sum_up = (
            f"so the game's printed cards weigh{up_to} {together:,} units in its"
            f" {len(printed_languages(game))} languages together, more than the"
            f" {drawn_weight.MAX_DRAWN_LANGUAGES:,} `build` draws for all"
        )
    if copies > 1:
        card, at = _copies_place(loaded, index)
        yield S_BAD_VALUE.at(
            loaded.rel,
            at,
            f"{getattr(card, 'id', '?')}: each of its {copies:,} copies weighs{up_to}"
            f" {weighs:,} units"
            f" to draw {what}, {sum_up}; print fewer copies, or put fewer elements on"
            f" layout {deck.front!r}",
        )
        return
    at = doc.spans.get(("layout",)) or doc.span(("id",))
    yield S_BAD_VALUE.at(
        loaded.rel,
        at,
        f"{getattr(loaded.model, 'id', '?')}: its {deck.printed():,} printed cards weigh{up_to}"
        f" {totals[heaviest]:,} units to draw {what}, {sum_up}; put fewer elements on"
        f" layout {deck.front!r}, or print fewer cards",
    )


register(
    CheckFamily(
        "printed-cards",
        "How many cards a game's decks print together (their copies), and what drawing them"
        " weighs.",
        check,
        0.5,  # after print fit: the faces it resolved are weighed as they print
    )
)


def _copies_place(loaded: Any, index: int) -> tuple[Any, Any]:
    """The deck's card at `index` and where its `copies` is written (else the card)."""
    doc = loaded.doc
    card = (getattr(loaded.model, "cards", None) or [])[index]
    return card, doc.spans.get(("cards", index, "copies")) or doc.span(("cards", index))
