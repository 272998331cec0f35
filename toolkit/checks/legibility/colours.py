"""Colour arithmetic for the legibility checks: a colour as the renderer reads it, WCAG
contrast, and how far apart two colours look to someone with a colour-vision deficiency or
on a black-and-white print.

Contrast and luminance follow WCAG 2.2's definitions (a few lines of arithmetic, needed for
every text of every card, so kept cheap). Colour-vision simulation and the CIEDE2000
difference come from coloraide, imported only when a game has colours that carry meaning.
"""

from __future__ import annotations

from functools import cache
from typing import Any

RGB = tuple[float, float, float]
"""sRGB channels in 0..1."""

VISIONS = ("protanopia", "deuteranopia", "tritanopia")
_FILTER = {"protanopia": "protan", "deuteranopia": "deutan", "tritanopia": "tritan"}


@cache
def rgb(colour: str) -> RGB | None:
    """A colour as the renderer draws it (`#rgb`, `#rrggbb`, `#rrggbbaa`, a reportlab name,
    `rgb(…)`/`rgba(…)`), composited over white when it is translucent; None when unreadable
    (the schema's own finding says so, not this check)."""
    from reportlab.lib.colors import toColor

    try:
        found = toColor(colour.strip())
    except (ValueError, TypeError, AttributeError, IndexError):
        return None
    if found is None:
        return None
    alpha = float(getattr(found, "alpha", 1.0) or 0.0)
    return tuple(alpha * c + (1 - alpha) for c in found.rgb())  # type: ignore[return-value]


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def luminance(colour: RGB) -> float:
    """WCAG relative luminance (0 black, 1 white)."""
    r, g, b = (_linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio, 1 to 21."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def hex_of(colour: RGB) -> str:
    return "#" + "".join(f"{round(c * 255):02x}" for c in colour)


def mix(colours: list[tuple[RGB, float]]) -> RGB:
    """The average of colours weighted by area (an image's mean under a text)."""
    total = sum(w for _, w in colours) or 1.0
    return tuple(sum(c[i] * w for c, w in colours) / total for i in range(3))  # type: ignore[return-value]


@cache
def _color_class() -> Any:
    from coloraide import Color

    return Color


@cache
def seen_as(colour: RGB, vision: str) -> Any:
    """The colour as simulated for a full colour-vision deficiency (coloraide's filters)."""
    color = _color_class()("srgb", list(colour))
    return color.filter(_FILTER[vision]).convert("srgb")


def vision_difference(a: RGB, b: RGB, vision: str) -> float:
    """CIEDE2000 difference of two colours as someone with `vision` sees them."""
    return float(seen_as(a, vision).delta_e(seen_as(b, vision), method="2000"))


def grey_difference(a: RGB, b: RGB) -> float:
    """Difference of CIE L* (0..100) of two colours: what is left of them in greyscale."""
    return abs(_lightness(luminance(a)) - _lightness(luminance(b)))


def _lightness(y: float) -> float:
    """CIE L* of a relative luminance (D65 white = 1)."""
    f = y ** (1 / 3) if y > (6 / 29) ** 3 else y / (3 * (6 / 29) ** 2) + 4 / 29
    return 116 * f - 16
