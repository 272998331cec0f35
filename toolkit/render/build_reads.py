"""What each built file reads, in the dependency map's terms (toolkit.render.deps): the same
map that tells the live preview which drawings a saved file changes tells `build` which
files it may keep.

Every file reads the manifest, the glossary and the icons (the title, terms and icons may be
printed anywhere; the map's finer guess of which layouts print terms is not trusted for
files kept on disk). A cards file reads its decks (their fields, their cards) and their
layouts; a board its own file; a rulebook its source and, as the map says, every deck, bank
and board (it prints their counts and every card's text). None: anything in the game.
"""

from __future__ import annotations

from typing import Any

from toolkit.render.artifacts import Shows

COMMON = frozenset({"manifest", "glossary", "icons"})


def snapshot_of(game: Any) -> Any:
    """The map's snapshot of `game` (its targets and their inputs; fingerprints are not
    needed: files are keyed by their bytes), made once per loaded game."""
    from toolkit.render.deps import snapshot

    snap = game.print_memo.get(("deps snapshot",))
    if snap is None:
        snap = game.print_memo[("deps snapshot",)] = snapshot(game, fingerprint=False)
    return snap


def reads(game: Any, shows: Shows | None, lang: str) -> frozenset[str] | None:
    """The inputs a file printing `shows` in `lang` reads; None: it may read anything."""
    if shows is None:
        return None
    found: set[str] = set(COMMON)
    board = f"board/{shows.board.id}/{lang}" if shows.board is not None else ""
    rulebook = f"rulebook/{lang}" if shows.rulebook else ""
    targets = [_target_inputs(game, key) for key in (board, rulebook) if key]
    for part in (_deck_reads(game, shows.decks, lang), *targets):
        if part is None:
            return None
        found |= part
    return frozenset(found - {""})


def _target_inputs(game: Any, key: str) -> frozenset[str] | None:
    target = snapshot_of(game).targets.get(key)
    return None if target is None else frozenset(target.inputs)


def _deck_reads(game: Any, decks: tuple[Any, ...], lang: str) -> frozenset[str] | None:
    """Each deck's fields and layouts, and the inputs of every face the map draws of it in
    `lang`; None if a deck is not one of the map's."""
    from toolkit.render.deps import deck_specs

    if not decks:
        return frozenset()
    specs = deck_specs(game)
    targets = snapshot_of(game).targets.values()
    found: set[str] = set()
    for deck in decks:
        # a question bank is printed through a deck made of it: the same list of cards
        matches = [spec for spec in specs if spec.deck.cards is deck.cards]
        if len(matches) != 1:
            return None
        spec = matches[0]
        found |= {spec.input, f"layout:{spec.front}", f"layout:{spec.back}"}
        for target in targets:
            if target.kind == "face" and target.lang == lang and spec.input in target.inputs:
                found.update(target.inputs)
    return frozenset(found)
