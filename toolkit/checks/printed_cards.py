"""How many cards a game prints, its decks' `copies:` together: each copy is a face drawn in
every language's PDF, picture and Tabletop Simulator sheet. A card may say `copies: 1000`, so
a 17 kB deck of 300 such cards made `build` draw 300,000 faces a language (40 s and a 90 MB PDF
for one; probe 47 K8), although the content budget (Y018) counts each card once. The bundled
games print a few hundred cards; a game prints at most `MAX_PRINTED_CARDS`, and the card whose
copies pass it is an error at its `copies:`."""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.checks import CheckFamily, register
from toolkit.content.game import Game
from toolkit.content.validation import S_BAD_VALUE
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic

MAX_PRINTED_CARDS = 10_000
"""Cards the decks of one game print together (each card's `copies`, 1 if it says none):
about 1.3 s of drawing a language at 300,000 faces in 40 s."""


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    printed = 0
    for loaded in game.decks:
        if loaded.model is None or loaded.doc is None:
            continue
        for index, card in enumerate(getattr(loaded.model, "cards", None) or []):
            copies = getattr(card, "copies", 1)
            printed += copies if isinstance(copies, int) else 1
            if printed <= MAX_PRINTED_CARDS:
                continue
            path = ("cards", index, "copies")
            at = loaded.doc.spans.get(path) or loaded.doc.span(("cards", index))
            yield S_BAD_VALUE.at(
                loaded.rel,
                at,
                f"{getattr(card, 'id', '?')}: with its {copies:,} copies the game's decks print"
                f" {printed:,} cards, more than the {MAX_PRINTED_CARDS:,} a game prints (each"
                " copy is drawn in every language); print fewer copies",
            )
            return


register(
    CheckFamily(
        "printed-cards", "How many cards a game's decks print together (their copies).", check
    )
)
