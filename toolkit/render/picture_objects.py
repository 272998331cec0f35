"""Each picture's PDF image object made once per run, then put into every PDF that draws it.

reportlab's `drawImage` keeps one image object per document: each language's cards PDF (and
each profile's) decodes a PNG, WebP or GIF again and compresses its pixels again, so five
pictures of 40 M pixels cost a build 2.3 s a language (probe 60-3). The object's bytes
depend on the picture file and its mask only, so the PDFs are the same bytes as before.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from typing import Any

from toolkit.render import pictures

MAX_HELD_BYTES = 256 * 1024 * 1024
"""Bytes of image streams (compressed pixels and masks) the run keeps for later PDFs; a
picture past it is made again for each PDF, as reportlab does (a photograph of 40 M pixels
compresses to some 70 MB)."""

_MADE: dict[tuple[str, str], Any] = {}
"""Each image object made so far, before any document holds it, by (picture name, mask)."""
_HELD = [0]
"""Bytes of the image streams in `_MADE`."""
_LOCK = threading.Lock()
"""The preview draws in threads."""


def draw_picture(
    c: Any,
    picture: Any,
    x: float,
    y: float,
    width: float,
    height: float,
    *,
    mask: Any = None,
    dpi: float | None = None,
    preserveAspectRatio: bool = False,  # noqa: N803  (reportlab's name)
) -> None:
    """`c.drawImage(picture, x, y, width, height, mask=mask, preserveAspectRatio=…)`, the
    picture's image object taken from the run's (`put_picture`). With `dpi` (a PDF only
    rasterised, at that dpi: an export's, the preview's), a picture of many more pixels than
    its box shows there is drawn from its copy resampled once (`picture_scaled`)."""
    if dpi is not None:
        from toolkit.render.picture_scaled import canvas_scale, scaled

        box = (abs(width), abs(height))
        picture = scaled(picture, box, preserveAspectRatio, dpi, canvas_scale(c))
    put_picture(c, picture, mask)
    c.drawImage(picture, x, y, width, height, mask=mask, preserveAspectRatio=preserveAspectRatio)


def put_picture(c: Any, picture: str, mask: Any) -> None:
    """Register in `c`'s document the image object `drawImage(picture, mask=mask)` would
    make, under the same name (reportlab's own: a digest of the name and the mask), from
    the one the run made already; `drawImage` then finds it there. `picture` names a file
    that does not change while the run lasts (a private copy named by its digest), or is
    such a file's resampled copy (`picture_scaled.ScaledPicture`, made from its reader)."""
    from reportlab.lib import utils
    from reportlab.pdfbase import pdfdoc

    digester: Any = utils._digester  # type: ignore[attr-defined]  # drawImage names it so
    name = digester(f"{picture}{mask}".encode())

    def make() -> Any:
        source = picture.reader() if hasattr(picture, "reader") else picture
        return pdfdoc.PDFImageXObject(name, source, mask=mask)

    put_object(c, name, (str(picture), str(mask)), make)


def put_object(c: Any, name: str, key: tuple[str, str], make: Callable[[], Any]) -> None:
    """Register in `c`'s document under `name` (as `drawImage` names an image) the image
    object `make()` makes, made once per run (by `key`) and kept for the later PDFs."""
    document = c._doc
    registered = document.getXObjectName(name)
    if document.idToObject.get(registered) is not None:
        return
    made = _MADE.get(key)
    if made is None:
        made = make()
        made.name = name
        soft = getattr(made, "_smask", None)
        size = len(made.streamContent) + (len(soft.streamContent) if soft is not None else 0)
        with _LOCK:
            if key not in _MADE and _HELD[0] + size <= MAX_HELD_BYTES:
                _MADE[key] = made
                _HELD[0] += size
    _register(c, copy.copy(made), registered, name)


def _register(c: Any, image: Any, registered: str, name: str) -> None:
    """Put `image` (a copy of the run's object) into `c`'s document as `drawImage` does a
    new one, with its soft mask (alpha) as an object of its own."""
    from reportlab.pdfbase import pdfdoc

    document = c._doc
    c._setXObjects(image)
    document.Reference(image, registered)
    document.addForm(name, image)
    soft = image.__dict__.pop("_smask", None)
    if soft is None:
        return
    mask_name = document.getXObjectName(soft.name)
    if document.idToObject.get(mask_name) is None:
        soft = copy.copy(soft)
        c._setXObjects(soft)
        image.smask = document.Reference(soft, mask_name)
    else:
        image.smask = pdfdoc.PDFObjectReference(mask_name)


_SIDE = "_playset_raster_side"  # the canvas attribute `rasterised` sets


def rasterised(c: Any, side: int) -> None:
    """Say that the pages of `c` are only rasterised, none to more than `side` pixels on its
    longer side: what draws a picture without a print job at hand (an SVG icon's,
    `svg_icons.Picture`) draws it from a copy of at most twice that (`raster_side`)."""
    setattr(c, _SIDE, side)


def raster_side(c: Any) -> int | None:
    """The most pixels a page of `c` is rasterised to on its longer side (`rasterised`), or
    None for a printed PDF."""
    return getattr(c, _SIDE, None)


def forget() -> None:
    """Drop the run's image objects (the private copies they were made from are gone)."""
    from toolkit.render import picture_scaled

    with _LOCK:
        _MADE.clear()
        _HELD[0] = 0
    picture_scaled.forget()


pictures.on_discard(forget)  # the private copies the objects were made from are gone
