"""The A rules: what a player may not be able to read."""

from __future__ import annotations

from toolkit.diagnostics import Severity, rule

A_CONTRAST = rule(
    "A001",
    "low-contrast",
    "A text's colour is too close to what it prints on (WCAG 2.2 contrast).",
    Severity.WARNING,
)
A_VISION = rule(
    "A002",
    "colour-vision-collision",
    "Two colours that carry meaning look alike to colour-blind players, and nothing else "
    "tells them apart.",
    Severity.WARNING,
)
A_GREY = rule(
    "A003",
    "greyscale-collision",
    "Two colours that carry meaning print as the same grey, and nothing else tells them apart.",
    Severity.WARNING,
)
A_SMALL = rule(
    "A004",
    "text-too-small",
    "A text prints smaller than the game's minimum size after fitting.",
    Severity.WARNING,
)
