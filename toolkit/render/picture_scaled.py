"""A picture drawn only to be rasterised, resampled once per run to the pixels it shows.

An export's and the preview's card PDFs are rasterised at a dpi known when they are drawn,
and PDFium decodes each picture whole in every document that draws it, then resamples it to
the few pixels its box takes: five 40 M-pixel pictures on the cards of 20 languages took
`export png` 11 s of rasterising (probe 61-2), where the faces themselves took well under
one. Such a PDF draws a picture of more than twice `OVERSAMPLE` times the pixels its box
shows at that dpi (each way) from a copy of `OVERSAMPLE` times them, made once per run and
size (the run's image object: `picture_objects`); every language's document and face then
draws the small copy. Each copy is resampled from the picture at half its size, decoded
once per run (`_half`): one decode per picture, however many sizes its boxes take (a face
may draw two pictures of 40 M pixels, and a decode of one costs some 0.3 s). The printed
PDFs (`build`) keep the whole picture.
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
        return picture  # not smaller than its half (`_half`), resampled from
    named = ScaledPicture(str(picture))
    named.picture, named.size = picture, size
    return named


def canvas_scale(c: Any) -> float:
    """How much the canvas's current transformation stretches a length at most: 1 on a card
    page drawn at its size."""
    from toolkit.render.svg_icons import stretch

    return stretch(getattr(c, "_currentMatrix", (1.0, 0.0, 0.0, 1.0)))


def resampled(path: Path, size: tuple[int, int]) -> Any:
    """The picture at `path` (a private copy, named by its digest) resampled to `size`, at
    most half its own each way, from its half (`_half`): the same pixels every run."""
    from PIL import Image

    return _half(path).resize(size, Image.Resampling.BOX)


MAX_HALVES_BYTES = 256 * 1024 * 1024
"""Bytes of the pictures at half their size a run keeps (`_half`): a game's layouts print
at most `pictures.MAX_GAME_PIXELS` (200 M) pixels of pictures, so their halves are 50 M,
200 MB in RGBA; past it the oldest is decoded again when another size of it is asked for."""

_HALVES: OrderedDict[str, Any] = OrderedDict()
_HALVES_LOCK = threading.Lock()  # the preview draws in threads


def _half(path: Path) -> Any:
    """The picture at `path` at half its size each way (`halved`), decoded once per run and
    kept (`MAX_HALVES_BYTES`)."""
    key = str(path)
    with _HALVES_LOCK:
        if key in _HALVES:
            _HALVES.move_to_end(key)
            return _HALVES[key]
    half = halved(path)
    with _HALVES_LOCK:
        _HALVES[key] = half
        while len(_HALVES) > 1 and sum(map(_bytes, _HALVES.values())) > MAX_HALVES_BYTES:
            _HALVES.popitem(last=False)
    return half


def halved(path: Path) -> Any:
    """The picture at `path` decoded and resampled to half its size each way (rounded up):
    a box filter, after the decoder's own reduction of a JPEG; a palette or one-bit
    picture becomes RGB, RGBA or L first, as reportlab draws it."""
    from PIL import Image

    from toolkit.render import pictures

    with pictures.opened(path) as image:
        size = (math.ceil(image.width / 2), math.ceil(image.height / 2))
        image.draft(None, size)  # a JPEG decoded at half its size
        if image.mode not in ("1", "L", "LA", "RGB", "RGBA", "CMYK"):
            alpha = image.mode in ("PA", "La", "RGBa") or "transparency" in image.info
            image = image.convert("RGBA" if alpha else "RGB")
        elif image.mode == "1":
            image = image.convert("L")
        else:
            image.load()
        return image.resize(size, Image.Resampling.BOX)


def _bytes(image: Any) -> int:
    """The bytes a decoded picture holds."""
    return image.width * image.height * len(image.getbands())


def forget() -> None:
    """Drop the pictures at half their size (the copies they were made from are gone)."""
    with _HALVES_LOCK:
        _HALVES.clear()
