"""The read-only view of a validated game that an engine compiles from.

An engine in a game folder gets this, never the loader's pydantic models: plain values (ints,
strings, tuples, read-only mappings) that stay the same whatever the content package does
inside, and that an engine cannot change by mistake. `sweep`/`tune` vary rules values by
rebuilding the view from the varied game, so an engine that reads `content.rules` at compile
time plays every sweep point without knowing about sweeps.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

Frozen = Any  # a JSON-like value made read-only: scalars, tuples, read-only mappings


class ContentError(KeyError):
    """An engine asked for content the game does not have (names what it does have)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "missing content"


def freeze(value: Any) -> Frozen:
    """A JSON-like value made read-only all the way down (lists → tuples, dicts → proxies)."""
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def _plain(model: Any) -> Any:
    dump = getattr(model, "model_dump", None)
    return dump(mode="json", exclude_none=True) if dump else model


@dataclass(frozen=True, slots=True)
class Card:
    """One card as the deck file declares it: `copies` of it are in the deck."""

    id: str
    deck: str  # the deck's id
    kind: str  # the deck's kind
    copies: int
    params: Mapping[str, Frozen]  # the card's `params:` (empty when it has none)
    fields: Mapping[str, Frozen]  # every field of the card as written (name, text, effects…)

    def param(self, name: str, default: Any = None) -> Any:
        """A parameter of this card, else `default`."""
        return self.params.get(name, default)


@dataclass(frozen=True, slots=True)
class Deck:
    id: str
    kind: str
    cards: tuple[Card, ...]

    @property
    def total(self) -> int:
        """Cards in the deck, copies counted."""
        return sum(card.copies for card in self.cards)


@dataclass(frozen=True, slots=True)
class OptionInfo:
    id: str
    type: str  # bool, int or choice
    default: bool | int | str
    choices: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameContent:
    """Everything an engine may read from a validated game, read-only."""

    game_id: str
    players: range  # the player counts game.yaml allows
    rules: Mapping[str, Frozen]  # game.yaml's `rules:`
    decks: tuple[Deck, ...]
    boards: tuple[Mapping[str, Frozen], ...]
    questions: tuple[Mapping[str, Frozen], ...]
    options: tuple[OptionInfo, ...]
    cooperative: bool  # always co-operative (an option-dependent game says False here)

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card of every deck, in file order."""
        return tuple(card for deck in self.decks for card in deck.cards)

    def rule(self, name: str, default: Any = ...) -> Any:
        """A value of game.yaml's `rules:` (a dotted path reaches inside: `scoring.bonus`).
        Without a default, a missing value raises ContentError naming the values there are."""
        here: Any = self.rules
        for part in name.split("."):
            if not isinstance(here, Mapping) or part not in here:
                if default is not ...:
                    return default
                known = ", ".join(self.rules) or "none"
                raise ContentError(f"game.yaml has no rules value {name!r} (it has: {known})")
            here = here[part]
        return here

    def deck(self, name: str) -> Deck:
        """The deck of this id, else the only deck of this kind."""
        for deck in self.decks:
            if deck.id == name:
                return deck
        kinds = [deck for deck in self.decks if deck.kind == name]
        if len(kinds) == 1:
            return kinds[0]
        known = ", ".join(deck.id for deck in self.decks) or "none"
        raise ContentError(f"no deck {name!r} (decks: {known})")

    def card(self, card_id: str) -> Card:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise ContentError(f"no card {card_id!r}")


def content_view(game: Any) -> GameContent:
    """The view of a loaded, valid game (`toolkit.content.game.Game`)."""
    manifest = game.checked_manifest
    decks = []
    for deck in game.valid(game.decks):
        kind = str(getattr(deck, "kind", ""))
        cards = []
        for card in deck.cards:
            fields = _plain(card)
            cards.append(
                Card(
                    id=card.id,
                    deck=deck.id,
                    kind=kind,
                    copies=card.copies,
                    params=freeze(fields.get("params", {})),
                    fields=freeze(fields),
                )
            )
        decks.append(Deck(deck.id, kind, tuple(cards)))
    options = tuple(OptionInfo(o.id, o.type, o.default, tuple(o.choices)) for o in manifest.options)
    return GameContent(
        game_id=manifest.id,
        players=range(manifest.players.min, manifest.players.max + 1),
        rules=freeze(_plain(manifest.rules) or {}),
        decks=tuple(decks),
        boards=tuple(freeze(_plain(b)) for b in game.valid(game.boards)),
        questions=tuple(freeze(_plain(q)) for q in game.valid(game.questions)),
        options=options,
        cooperative=manifest.cooperative is True,
    )


def load_content(folder: str | Path) -> GameContent:
    """The content view of a game folder, for trying an engine from Python (its own tests, a
    notebook); a ValueError if the content has errors (`playset validate` shows them)."""
    from toolkit.content.game import load_game

    game = load_game(Path(folder))
    errors = [d for d in game.diagnostics if d.severity == "error"]
    if errors or game.manifest is None:
        raise ValueError(f"{folder}: content has {len(errors)} error(s); run playset validate")
    return content_view(game)
