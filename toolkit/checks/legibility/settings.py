"""The legibility thresholds a game works to: WCAG 2.2's contrast ratios and a minimum printed
size by default, changed in game.yaml's `checks.legibility`."""

from __future__ import annotations

from toolkit.content.game import Game
from toolkit.content.models.manifest import Legibility


def legibility(game: Game) -> Legibility:
    """The game's thresholds (WCAG's defaults for a game without a valid game.yaml)."""
    return game.manifest.checks.legibility if game.manifest is not None else Legibility()


def large(size: float, bold: bool) -> bool:
    """WCAG's large text: 18 pt, or 14 pt in bold."""
    return size >= 18 or (bold and size >= 14)


def required(settings: Legibility, size: float, bold: bool) -> float:
    """The contrast ratio a text of this size and weight needs."""
    return settings.contrast_large if large(size, bold) else settings.contrast
