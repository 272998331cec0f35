"""What the cards print: romanized Japanese names, and a back per deck (V14, V15)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from toolkit.content import assets
from toolkit.content.game import Game
from toolkit.content.source import MAX_FILE_BYTES
from toolkit.diagnostics import Diagnostic, Severity, rule
from toolkit.fileio import InputError, read_text
from toolkit.games.tokaido.checks.base import ROMANIZED, _Where, check

G_NAMES = rule(
    "G414",
    "romanized-names",
    "Every name and text in every language; Japanese names stay the same romanized word in all "
    "of them (V14).",
)

G_BACKS = rule(
    "G415",
    "deck-backs",
    "Every deck has a back, and a back shared by several decks tells each of them apart (V15).",
    Severity.WARNING,
)


_NAMED = ("travellers", "souvenirs", "meals", "encounters")


@check(G_NAMES)
def check_names(game: Game) -> Iterator[Diagnostic]:
    """V14: every name and text in every language; Japanese names (travellers, souvenirs,
    meals, encounters) are one romanized word the same in all languages."""
    where = _Where(game)
    langs = list(where.manifest.model.languages)
    for kind, deck in sorted(where.decks.items()):
        for i, card in enumerate(deck.model.cards):
            for field in ("name", "text", "title"):
                text = getattr(card, field, None)
                if text is None:
                    continue
                values = text
                for lang in langs:
                    if not values.get(lang):
                        yield where.at(
                            G_NAMES,
                            deck,
                            ("cards", i, field),
                            f"{card.id}'s {field} has no {lang} text",
                        )
            if kind in _NAMED:
                names = card.name
                source = names.get(where.manifest.model.source_language) or ""
                for lang in langs:
                    name = names.get(lang) or ""
                    if name != source or not ROMANIZED.match(name):
                        yield where.at(
                            G_NAMES,
                            deck,
                            ("cards", i, "name", lang),
                            f"{card.id}: {name!r}; a Japanese name stays the romanized "
                            f"{source!r} in every language",
                        )
                        break


def _layout_text(game: Game, name: str) -> str | None:
    """The layout's text, read as the loader reads it (None for one it refuses: outside the
    game, over its size limit, not UTF-8; a sparse 3 GB layout was read whole here)."""
    found = assets.find(assets.LAYOUTS, name, Path(game.root))
    if found is None or found.outside or not found.path.is_file():  # a FIFO would block
        return None
    inside = Path(game.root) if found.in_game else None
    try:
        return read_text(found.path, MAX_FILE_BYTES, inside=inside)
    except InputError:
        return None


@check(G_BACKS)
def check_backs(game: Game) -> Iterator[Diagnostic]:
    """V15: each deck has its own back: a back layout shared by several decks must draw a
    different face per deck kind (a `deck.kind == '<kind>'` condition for each)."""
    where = _Where(game)
    by_back: dict[str, list[str]] = {}
    for kind, deck in where.decks.items():
        back = getattr(deck.model, "back", None)
        if back:
            by_back.setdefault(back, []).append(kind)
        else:
            yield where.at(G_BACKS, deck, ("kind",), f"the {kind} deck has no back layout")
    for back, kinds in sorted(by_back.items()):
        if len(kinds) < 2:
            continue
        text = _layout_text(game, back) or ""
        for kind in sorted(kinds):
            if f"deck.kind == '{kind}'" not in text:
                deck = where.decks[kind]
                yield where.at(
                    G_BACKS,
                    deck,
                    ("back",),
                    f"back {back!r} is shared by {len(kinds)} decks but draws nothing of its "
                    f"own for {kind}: the piles look alike face down",
                )
