"""A picture drawn only to be rasterised, resampled once per run to the pixels it shows.

An export's and the preview's card PDFs are rasterised at a dpi known when they are drawn,
and PDFium decodes each picture whole in every document that draws it, then resamples it to
the few pixels its box takes: five 40 M-pixel pictures on the cards of 20 languages took
`export png` 11 s of rasterising (probe 61-2), where the faces themselves took well under
one. Such a PDF draws a picture of more than `OVERSAMPLE` times the pixels its box shows at
that dpi (each way) from a copy resampled once per run to `OVERSAMPLE` times them (the
run's image object: `picture_objects`); every language's document and face then draws the
small copy. The printed PDFs (`build`) keep the whole picture.
"""

from __future__ import annotations

import math
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
    itself when it has at most `OVERSAMPLE` times the pixels it covers each way, else its
    `ScaledPicture` of `OVERSAMPLE` times them."""
    from toolkit.render import pictures

    width, height = pictures.pixels(picture.path)
    across, down = box[0] / width, box[1] / height  # points a pixel, drawn
    if keep_ratio:
        across = down = min(across, down)
    per_point = scale * dpi / 72.0 * OVERSAMPLE
    size = (math.ceil(width * across * per_point), math.ceil(height * down * per_point))
    if size[0] >= width or size[1] >= height or min(size) < 1:
        return picture
    named = ScaledPicture(str(picture))
    named.picture, named.size = picture, size
    return named


def canvas_scale(c: Any) -> float:
    """How much the canvas's current transformation stretches a length at most: 1 on a card
    page drawn at its size."""
    from toolkit.render.svg_icons import stretch

    return stretch(getattr(c, "_currentMatrix", (1.0, 0.0, 0.0, 1.0)))


def resampled(path: Path, size: tuple[int, int]) -> Any:
    """The picture at `path` (a private copy, named by its digest) resampled to `size` (a
    box filter, after the decoder's own reduction of a JPEG: the same pixels every run); a
    palette picture becomes RGB (RGBA with transparency), as reportlab draws it."""
    from PIL import Image

    from toolkit.render import pictures

    with pictures.opened(path) as image:
        image.draft(None, size)  # a JPEG decoded at 1/2, 1/4 or 1/8 of its size if enough
        if image.mode not in ("1", "L", "LA", "RGB", "RGBA", "CMYK"):
            alpha = image.mode in ("PA", "La", "RGBa") or "transparency" in image.info
            image = image.convert("RGBA" if alpha else "RGB")
        elif image.mode == "1":
            image = image.convert("L")
        else:
            image.load()
        return image.resize(size, Image.Resampling.BOX)
