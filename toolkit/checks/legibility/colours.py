"""Colour arithmetic for the legibility checks: a colour as the renderer reads it, WCAG
contrast, and how far apart two colours look to someone with a colour-vision deficiency or
on a black-and-white print.

Contrast and luminance follow WCAG 2.2's definitions; colour-vision simulation is Machado et
al.'s (2009) and the difference CIEDE2000, as coloraide computes them (the tests hold this
arithmetic to coloraide's own results; coloraide is not imported at run time, see _MACHADO).
"""

from __future__ import annotations

import math
from functools import cache

RGB = tuple[float, float, float]
"""sRGB channels in 0..1."""

VISIONS = ("protanopia", "deuteranopia", "tritanopia")


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


@cache
def luminance(colour: RGB) -> float:
    """WCAG relative luminance (0 black, 1 white); once per colour (a deck's faces ask the
    contrast of the same few colours for every text of every card and language)."""
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


# Machado, Oliveira and Fernandes (2009), severity 1, on linear sRGB: the simulation
# coloraide's `filter(..., method="machado")` applies (tests/test_legibility.py compares them).
# Written out here because importing coloraide builds colour-temperature tables (0.2-0.3 s),
# more than this whole family may add to a `validate`.
_MACHADO = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


@cache
def seen_as(colour: RGB, vision: str) -> RGB:
    """The colour (sRGB) as simulated for a full colour-vision deficiency."""
    linear = [_linear(c) for c in colour]
    out = [
        min(1.0, max(0.0, sum(m * c for m, c in zip(row, linear, strict=True))))
        for row in _MACHADO[vision]
    ]
    return tuple(_encode(c) for c in out)  # type: ignore[return-value]


def _encode(channel: float) -> float:
    return channel * 12.92 if channel <= 0.0031308 else 1.055 * channel ** (1 / 2.4) - 0.055


@cache
def lab(colour: RGB) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour."""
    r, g, b = (_linear(c) for c in colour)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
    fx, fy, fz = (_f(v) for v in (x, y, z))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _f(t: float) -> float:
    return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29


def delta_e_2000(a: RGB, b: RGB) -> float:
    """CIEDE2000 (Sharma, Wu and Dalal 2005) between two sRGB colours."""
    l1, a1, b1 = lab(a)
    l2, a2, b2 = lab(b)
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    g = 0.5 * (1 - math.sqrt((((c1 + c2) / 2) ** 7) / (((c1 + c2) / 2) ** 7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    big_dh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lm, cm = (l1 + l2) / 2, (c1p + c2p) / 2
    hm = h1p + h2p
    if c1p * c2p:
        near = abs(h1p - h2p) <= 180
        hm = hm / 2 if near else (hm + 360) / 2 if hm < 360 else (hm - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hm - 30))
        + 0.24 * math.cos(math.radians(2 * hm))
        + 0.32 * math.cos(math.radians(3 * hm + 6))
        - 0.20 * math.cos(math.radians(4 * hm - 63))
    )
    sl = 1 + 0.015 * (lm - 50) ** 2 / math.sqrt(20 + (lm - 50) ** 2)
    sc, sh = 1 + 0.045 * cm, 1 + 0.015 * cm * t
    rt = (
        -2
        * math.sqrt(cm**7 / (cm**7 + 25**7))
        * math.sin(math.radians(60 * math.exp(-(((hm - 275) / 25) ** 2))))
    )
    return math.sqrt(
        (dl / sl) ** 2 + (dc / sc) ** 2 + (big_dh / sh) ** 2 + rt * (dc / sc) * (big_dh / sh)
    )


def vision_difference(a: RGB, b: RGB, vision: str) -> float:
    """CIEDE2000 difference of two colours as someone with `vision` sees them."""
    return delta_e_2000(seen_as(a, vision), seen_as(b, vision))


def grey_difference(a: RGB, b: RGB) -> float:
    """Difference of CIE L* (0..100) of two colours: what is left of them in greyscale."""
    return abs(_lightness(luminance(a)) - _lightness(luminance(b)))


def _lightness(y: float) -> float:
    """CIE L* of a relative luminance (D65 white = 1)."""
    f = y ** (1 / 3) if y > (6 / 29) ** 3 else y / (3 * (6 / 29) ** 2) + 4 / 29
    return 116 * f - 16
