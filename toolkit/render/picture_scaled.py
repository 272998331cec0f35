"""A picture drawn only to be rasterised, resampled once per run to the pixels it shows.

An export's and the preview's card PDFs are rasterised at a dpi known when they are drawn,
and PDFium decodes each picture whole in every document that draws it, then resamples it to
the few pixels its box takes: five 40 M-pixel pictures on the cards of 20 languages took
`export png` 11 s of rasterising (probe 61-2), where the faces themselves took well under
one. Such a PDF draws a picture of more than twice `OVERSAMPLE` times the pixels its box
shows at that dpi (each way) from a copy of `OVERSAMPLE` times them, made once per run and
size (the run's image object: `picture_objects`); every language's document and face then
draws the small copy, and a picture is decoded at most twice a run (`resampled`). The
printed PDFs (`build`) keep the whole picture.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

OVERSAMPLE = 2
"""How many pixels of the copy cover a pixel of the image, each way. Rasterised at 300 and
150 dpi, a detailed 4,000-pixel photograph on a poker card differed from its 8× render
boxed down by 3.22 and 5.07 (mean of 255) drawn whole, 3.19 and 5.07 from a copy of twice
the pixels, 4.0 and 5.7 from one of the pixels alone (PDFium's own resampling is then a
second one)."""


class ScaledPicture(str):
    """A picture's resampled copy, as `draw_picture` names it to reportlab: `str()` of it
    is the picture's digest and its size, the image object's name in the PDF. It is never
    opened by that name (`picture_objects.put_picture` makes the object from `reader()`)."""

    picture: Any  # the whole picture's private copy (pictures.PictureCopy)
    size: tuple[int, int]

    def __str__(self) -> str:
        return f"{self.picture}@{self.size[0]}x{self.size[1]}"

    def reader(self) -> Any:
        """The copy as reportlab's ImageReader, resampled now (`resampled`): the run's
        image object is made of it once (`picture_objects`)."""
        from reportlab.lib.utils import ImageReader

        return ImageReader(resampled(self.picture.path, self.size))


def scaled(
    picture: Any, box: tuple[float, float], keep_ratio: bool, dpi: float, scale: float = 1.0
) -> Any:
    """`picture` (a private copy: pictures.PictureCopy) as a PDF rasterised at `dpi` needs
    it drawn into `box` (width and height in points, times `scale`, the canvas's own):
    itself when it has at most twice `OVERSAMPLE` times the pixels it covers one way or
    the other (PDFium decodes at most 16 times those, priced with the face), else its
    `ScaledPicture` of `OVERSAMPLE` times them."""
    from toolkit.render import pictures

    width, height = pictures.pixels(picture.path)
    across, down = box[0] / width, box[1] / height  # points a pixel, drawn
    if keep_ratio:
        across = down = min(across, down)
    per_point = scale * dpi / 72.0 * OVERSAMPLE
    size = (math.ceil(width * across * per_point), math.ceil(height * down * per_point))
    if 2 * size[0] > width or 2 * size[1] > height or min(size) < 1:
        return picture  # not smaller than its half (`resampled` keeps at most that)
    named = ScaledPicture(str(picture))
    named.picture, named.size = picture, size
    return named


def within(pixels: tuple[int, int], side: int) -> tuple[int, int] | None:
    """The size of the copy a picture of `pixels` drawn on a page rasterised to at most
    `side` pixels on its longer side is drawn from when where and how large it is drawn is
    not known (an SVG icon's, written once per PDF for every size it is drawn at): its
    longer side `OVERSAMPLE` times `side`; None (drawn whole) when it has less than twice
    that (as `scaled`). A picture drawn larger than the page shows fewer pixels of it."""
    longer = OVERSAMPLE * side / max(pixels)
    if 2 * longer > 1:
        return None
    return (max(1, math.ceil(pixels[0] * longer)), max(1, math.ceil(pixels[1] * longer)))


def page_side(card_mm: tuple[float, float], bleed_mm: float, dpi: float) -> int:
    """The pixels a card face's page (its trim and bleed) takes on its longer side at `dpi`."""
    from reportlab.lib.units import mm

    from toolkit.render.raster import pixels

    return pixels((max(card_mm) + 2 * bleed_mm) * mm, dpi)


def canvas_scale(c: Any) -> float:
    """How much the canvas's current transformation stretches a length at most: 1 on a card
    page drawn at its size."""
    from toolkit.render.stretch import stretch

    return stretch(getattr(c, "_currentMatrix", (1.0, 0.0, 0.0, 1.0)))


def resampled(path: Path, size: tuple[int, int]) -> Any:
    """The picture at `path` (a private copy, named by its digest) resampled to `size` (at
    most half its own each way: `scaled`), the same pixels every run. Each picture is
    decoded at most twice a run, however many sizes its boxes take (a face may draw two
    pictures of 40 M pixels, and a decode and resample of one cost ~0.46 s, where the
    face's price counts ~0.1 s for it): its first copy is kept and smaller sizes are
    resampled from it; a larger size decodes the picture again, and its half is kept."""
    from PIL import Image

    key = str(path)
    with _KEPT_LOCK:
        kept = _KEPT.get(key)
        if kept is not None:
            _KEPT.move_to_end(key)
    if kept is not None and kept.width >= size[0] and kept.height >= size[1]:
        return kept.resize(size, Image.Resampling.BOX)
    if kept is None:  # its first size: decoded to it, and that copy kept
        made = kept = decoded(path, size)
    else:  # a size past the one kept: decoded again, to its half (`scaled`'s largest)
        kept = decoded(path, None)
        made = kept.resize(size, Image.Resampling.BOX)
    with _KEPT_LOCK:
        _KEPT[key] = kept
        while len(_KEPT) > 1 and sum(map(_bytes, _KEPT.values())) > MAX_KEPT_BYTES:
            _KEPT.popitem(last=False)
    return made


MAX_KEPT_BYTES = 256 * 1024 * 1024
"""Bytes of the decoded pictures a run keeps to resample from (`resampled`): at most the
halves of the pictures a game's layouts print, `pictures.MAX_GAME_PIXELS` (200 M) pixels of
them, so 50 M pixels, 200 MB (Pillow holds a pixel of more than one band in 4 bytes); past
it the oldest is decoded again when another size of it is asked for."""

_KEPT: OrderedDict[str, Any] = OrderedDict()
_KEPT_LOCK = threading.Lock()  # the preview draws in threads


def decoded(path: Path, size: tuple[int, int] | None) -> Any:
    """The picture at `path` decoded and resampled to `size` (None: half its own each way,
    rounded up): a box filter, after the decoder's own reduction of a JPEG; a palette or
    one-bit picture becomes RGB, RGBA or L first, as reportlab draws it."""
    from PIL import Image

    from toolkit.render import pictures

    with pictures.opened(path) as image:
        size = size or (math.ceil(image.width / 2), math.ceil(image.height / 2))
        image.draft(None, size)  # a JPEG decoded at 1/2, 1/4 or 1/8 of its size if enough
        if image.mode not in ("1", "L", "LA", "RGB", "RGBA", "CMYK"):
            alpha = image.mode in ("PA", "La", "RGBa") or "transparency" in image.info
            image = image.convert("RGBA" if alpha else "RGB")
        elif image.mode == "1":
            image = image.convert("L")
        else:
            image.load()
        return image.resize(size, Image.Resampling.BOX)


def _bytes(image: Any) -> int:
    """The bytes a decoded picture holds (Pillow: 1 a pixel of one band, else 4)."""
    return image.width * image.height * (1 if len(image.getbands()) == 1 else 4)


def forget() -> None:
    """Drop the decoded pictures kept (the copies they were made from are gone)."""
    with _KEPT_LOCK:
        _KEPT.clear()
