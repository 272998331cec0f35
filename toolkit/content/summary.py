"""A short description of a loaded game, for `playset list`."""

from __future__ import annotations

from dataclasses import dataclass, field

from toolkit.content.game import Game
from toolkit.content.models.board import board_kinds


@dataclass
class DeckInfo:
    id: str
    kind: str
    cards: int
    distinct: int


@dataclass
class GameInfo:
    id: str
    title: str
    players: str
    languages: str
    decks: list[DeckInfo] = field(default_factory=list)
    boards: list[tuple[str, str]] = field(default_factory=list)
    valid: bool = True


def summarize(game: Game) -> GameInfo:
    manifest = game.manifest
    if manifest is None:
        return GameInfo(game.root.name, "(invalid game.yaml)", "-", "-", valid=False)
    title = manifest.title.get(manifest.source_language) or next(iter(manifest.title.values()))
    info = GameInfo(
        manifest.id,
        title,
        f"{manifest.players.min}-{manifest.players.max}",
        " ".join(manifest.languages),
    )
    for deck in game.valid(game.decks):
        total = sum(card.copies for card in deck.cards)
        info.decks.append(DeckInfo(deck.id, deck.kind, total, len(deck.cards)))
    for board in game.valid(game.boards):
        entry = board_kinds().get(board.kind)
        detail = entry.summary(board) if entry else ""
        info.boards.append((f"{board.id} ({board.kind})", detail))
    return info
