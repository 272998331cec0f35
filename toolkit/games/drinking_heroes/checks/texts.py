"""The spell texts: every numeric parameter shows in every language (V11)."""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.content.game import Game
from toolkit.content.templating import placeholders
from toolkit.diagnostics import Diagnostic, rule
from toolkit.games.drinking_heroes.checks.base import _at, check

G_HIDDEN_PARAM = rule(
    "G212", "param-not-shown", "A spell's numeric parameter is missing from its text."
)


@check(G_HIDDEN_PARAM)
def check_texts(game: Game) -> Iterator[Diagnostic]:
    """V11: every numeric spell parameter shows in its text, in every language (hand-written
    numbers are the generic T007's job)."""
    for loaded in game.decks:
        deck = loaded.model
        if deck is None or loaded.doc is None or deck.kind != "spells":
            continue
        for i, card in enumerate(deck.cards):
            if card.text:
                params = [
                    name
                    for name, value in card.effect.model_dump().items()
                    if isinstance(value, int) and not isinstance(value, bool)
                ]
                for lang, value in card.text.items():
                    shown = {name.rsplit(".", 1)[-1] for name in placeholders(value)}
                    for name in params:
                        if name not in shown:
                            yield G_HIDDEN_PARAM.at(
                                loaded.rel,
                                _at(loaded, "cards", i, "text", lang),
                                f"{card.id}: the {lang} text does not show {{{name}}}",
                            )
