"""Raster pictures a game brings (card art, the rulebook cover): their size in pixels, read
from the file's header and bounded before anything decodes them whole.

A picture is drawn whole in memory (reportlab embeds every pixel; the contrast check
averages it): a 530 kB PNG of 13,000 × 13,000 pixels took 1.7 GB and 23 s per build, so a
picture above `MAX_PIXELS` is refused (P004) instead of drawn."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path

MAX_PIXELS = 50_000_000
"""About 200 MB as RGBA: an A2 board at 300 dpi is 35 million pixels, a card at 600 dpi 3."""


@dataclass(frozen=True)
class Unfit:
    """Why a picture is not drawn: `message` follows "cannot read image 'x.png': "."""

    message: str


def picture_size(path: Path) -> tuple[int, int] | Unfit:
    """(width, height) of the picture at `path`, from its header only; Unfit when it cannot
    be read or holds more than MAX_PIXELS pixels."""
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():  # PIL's own warning, printed raw, says no more
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                width, height = image.size
    except Image.DecompressionBombError:
        return Unfit(f"it holds more than the limit of {MAX_PIXELS:,} pixels; scale it down")
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        return Unfit(str(exc))
    if width * height > MAX_PIXELS:
        return Unfit(
            f"it is {width}×{height} px, more than the limit of {MAX_PIXELS:,} pixels;"
            " scale it down"
        )
    return width, height
