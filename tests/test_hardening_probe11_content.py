"""Eleventh hostile probe (issue #33), content surface: what the probe found, each test red
before its fix."""

from __future__ import annotations

from toolkit.content.models.deck import GenericCard
from toolkit.render.context import localize


def test_a_cards_params_of_short_names_are_not_taken_for_a_text() -> None:
    # `params: {die: "d6"}`: short lower-case keys holding strings looked like a text by
    # language ({"en": …}), so a layout's `card.params.die` printed nothing
    card = GenericCard.model_validate(
        {"id": "rest", "name": {"en": "Rest", "fr": "Repos"}, "params": {"die": "d6", "en": "x"}}
    )
    view = localize(card, "en")
    assert view["name"] == "Rest"
    assert view["params"] == {"die": "d6", "en": "x"}
    assert view["params"].die == "d6"
