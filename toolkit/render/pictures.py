"""What a game's artwork (a layout's `image`, the rulebook cover) may cost to print.

reportlab decodes a PNG whole, and copies it again to embed it: a 20 kB PNG of 13000×13000
one-bit pixels took 1.9 GB and half a minute per build, and Pillow refuses a picture only past
179 million pixels (printing its `DecompressionBombWarning` below that). So a picture is read
only if it has at most `MAX_PIXELS` pixels, and checked whole (`verify`, which decodes
nothing) so that a damaged file is a finding in validate, not an error half-way through a
build. Icons embed pictures under their own, smaller limit (toolkit.render.svg_guard).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.Image import Image as PilImage

MAX_PIXELS = 40_000_000
"""Pixels of one picture: an A2 board printed at 300 dpi is 35 million; the bundled games
have none."""
FORMATS = ("PNG", "JPEG", "GIF", "WEBP")
"""The picture formats Pillow may open for the toolkit, each decoded in the process. Pillow
recognises a file by its bytes, not its name, and decodes an EPS file by running the
Ghostscript found on PATH: an EPS named `art.png` in a game made `validate` and `build` run
`gs` on the game's PostScript program."""


def confine() -> None:
    """Let Pillow open only `FORMATS`, for every caller in this process (reportlab and
    svglib open pictures through Pillow with no list of formats). Idempotent."""
    from PIL import Image

    Image.init()  # every plugin registered now, so none is added back by a later open
    Image.ID[:] = [name for name in Image.ID if name in FORMATS]


MAX_GAME_PIXELS = 200_000_000
"""Pixels of all the different pictures a game's layouts print, together: each is decoded
and embedded once per PDF, about a second per 40 million pixels in every language (many
pictures each just under `MAX_PIXELS` cost that many seconds per language). 250 card
illustrations at 300 dpi hold 200 million."""


@contextmanager
def opened(source: Path | IO[bytes]) -> Iterator[PilImage]:
    """The picture in `source`, opened as one of `FORMATS` only, without Pillow's
    `DecompressionBombWarning` (the toolkit bounds pixels itself, below Pillow's limit)."""
    from PIL import Image

    confine()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        with Image.open(source, formats=FORMATS) as image:
            yield image


def _too_many(width: int, height: int) -> str:
    return (
        f"{width}×{height} px is more than the {MAX_PIXELS:,} pixels a picture may have"
        " (it is decoded whole to print); scale it down"
    )


def pixels(path: Path) -> tuple[int, int]:
    """The picture's size in pixels, read from its header (raises ValueError for one of
    more than `MAX_PIXELS`, OSError for a file that is no picture Pillow reads)."""
    from PIL import Image

    try:
        with opened(path) as image:
            width, height = image.size
    except Image.DecompressionBombError as exc:
        raise ValueError(
            f"it has more than the {MAX_PIXELS:,} pixels a picture may have (it is decoded"
            " whole to print); scale it down"
        ) from exc
    if width * height > MAX_PIXELS:
        raise ValueError(_too_many(width, height))
    return width, height


def problem(path: Path) -> tuple[tuple[int, int] | None, str | None]:
    """The picture's size and why it cannot be printed (None: it can): not a picture,
    damaged or cut short, or too many pixels."""
    from PIL import Image, UnidentifiedImageError

    try:
        size = pixels(path)
        with opened(path) as image:
            image.verify()  # reads every chunk, decodes nothing
    except ValueError as exc:
        return None, str(exc)
    except UnidentifiedImageError:
        return None, "not a PNG, JPEG, GIF or WebP picture"
    except (OSError, SyntaxError, Image.DecompressionBombError) as exc:
        return None, f"damaged, or not a picture ({exc})"
    return size, None
