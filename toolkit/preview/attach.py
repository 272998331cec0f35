"""Put each diagnostic beside what it concerns: a card, a deck, a board, the rulebook.

A finding in a deck file belongs to the card whose lines hold it (a card runs from its
`- id:` line to the next card's); one in a layout belongs to the decks drawn with it; one
in a board file or a rulebook source to that board or rulebook; the rest (game.yaml, the
glossary) to the game as a whole.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from typing import Any

from toolkit.content.game import Game, LoadedFile, display_path
from toolkit.diagnostics import Diagnostic
from toolkit.render.deps import card_keys, deck_specs
from toolkit.render.layout_names import layout_file


def _card_starts(loaded: LoadedFile | None, cards: list[Any]) -> list[int]:
    """The first line of each card in its deck file (0 where the file gives no position)."""
    if loaded is None or loaded.doc is None:
        return []
    return [loaded.doc.span(("cards", index)).line for index in range(len(cards))]


def place(
    diagnostics: list[Diagnostic], shown: Game, on_disk: Game | None = None
) -> dict[str, list[dict[str, Any]]]:
    """Diagnostics (as dicts) by place. `shown` is the game whose images are on the page;
    `on_disk` the game just loaded, whose line numbers are current (a deck saved half-way
    has none, and the shown game's lines stand in)."""
    fresh = {f.rel: f for f in (on_disk or shown).files()}
    shown_files: dict[str, LoadedFile] = {}
    for f in shown.files():
        shown_files.setdefault(f.rel, f)  # the first of a name, as a search would find it
    by_file: dict[str, list[tuple[str, Any]]] = defaultdict(list)
    decks: dict[str, tuple[list[int], list[str]]] = {}
    layouts: dict[str, str] = {}  # each layout's file, looked up once (not once a deck)
    for spec in deck_specs(shown):
        parts = [part for part, _ in card_keys(spec.deck.cards)]
        loaded = fresh.get(spec.file)
        own = shown_files.get(spec.file)
        starts = _card_starts(loaded if loaded and loaded.doc else own, spec.deck.cards)
        decks[spec.file] = (starts, [f"card/{spec.id}/{part}" for part in parts])
        by_file[spec.file].append(("deck", f"deck/{spec.id}"))
        for name in {spec.front, spec.back}:
            file = layouts.get(name)
            if file is None:
                file = layouts[name] = layout_file(name, shown.root)
            by_file[file].append(("layout", f"deck/{spec.id}"))
    for loaded in shown.boards:
        if loaded.model is not None:
            by_file[loaded.rel].append(("board", f"board/{loaded.model.id}"))
    for path in shown.rulebook.values():
        by_file[display_path(path)].append(("rulebook", "rulebook"))
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for diag in diagnostics:
        record = {**diag.to_dict(), "where": diag.place}  # a sheet's: `market.xlsx:Market!C7`
        places = by_file.get(diag.file)
        if not places:
            out["game"].append(record)
            continue
        for kind, where in places:
            if kind == "deck":
                starts, cards = decks[diag.file]
                index = bisect.bisect_right(starts, diag.line) - 1
                if starts and index >= 0 and starts[index] > 0:
                    out[cards[index]].append(record)
                    continue
            out[where].append(record)
    return dict(out)
