"""What Drinking Heroes' G checks share: the valid manifest and its rules, the decks of a
kind, positions in a file, and the `check` decorator that registers a check under the
rules it reports (the package collects every module's checks; they run in rule-code order)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolkit.content.game import Game, LoadedFile
from toolkit.content.game_checks import GameChecks
from toolkit.content.models.manifest import ManifestBase
from toolkit.content.plugin import rules_of
from toolkit.games.drinking_heroes.models import DrinkingRules


def _manifest(game: Game) -> tuple[ManifestBase, DrinkingRules]:
    """The valid manifest and its typed rules (guarded checks run on a valid one only)."""
    manifest = game.manifest
    if manifest is None:
        raise ValueError(f"{game.id}: no valid manifest")
    return manifest, rules_of(manifest, DrinkingRules)


def _decks(game: Game, kind: str) -> Iterator[tuple[LoadedFile, Any]]:
    for loaded in game.decks:
        if loaded.model is not None and loaded.doc is not None and loaded.model.kind == kind:
            yield loaded, loaded.model


def _at(loaded: LoadedFile, *path: Any):  # noqa: ANN202 - a Span
    assert loaded.doc is not None
    return loaded.doc.span(tuple(path))


def _key_at(loaded: LoadedFile, *path: Any):  # noqa: ANN202 - a Span
    assert loaded.doc is not None
    return loaded.doc.key_span(tuple(path))


CHECKS_BY_RULE = GameChecks()
check = CHECKS_BY_RULE.check
"""Register a G check under the rules it reports (one check per rule)."""
