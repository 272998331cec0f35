"""`image`: artwork from the game folder, scaled into its box keeping its proportions. The path
is a template; `validate` checks the file is inside the game, readable and sharp enough."""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import Field

from toolkit.content.printing import printed_languages
from toolkit.render.elements.base import Element, LayoutError, Paint, Problem, Resolved
from toolkit.render.elements.registry import register_element

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from toolkit.render.printjob import PrintJob

MIN_DPI = 300


@register_element
class ImageElement(Element):
    """A picture file (PNG, JPEG) inside the game folder."""

    order: ClassVar[int] = 40
    most_per_layout: ClassVar[int | None] = 16  # the bundled layouts hold 1 at most
    draw_cost: ClassVar[int] = 32
    """~130 µs of user and ~50 of system CPU drawn: each placement reads the picture's copy
    and its size again before reportlab places it (16 on each of 1,000 printed cards: 2.1 s
    of user CPU more than one text); ~390 µs with the build's gate on faces each their own
    (940 cards of 16: `build --lang en` 4.5 s user and 1.5 s system)."""

    kind: Literal["image"]
    path: str = Field(description="Jinja template giving a path inside the game folder.")

    templates = ("path",)

    def draw(self, c: Canvas, item: Resolved, x: float, y: float, job: PrintJob) -> None:
        from reportlab.lib.units import mm

        from toolkit.fileio import real_path

        root = job.root
        if root is None or not item.text:
            return
        path = real_path(root / item.text)
        if path.is_file() and path.is_relative_to(real_path(root)):
            from PIL.Image import DecompressionBombError

            from toolkit.render import pictures
            from toolkit.render.picture_objects import draw_picture

            try:
                # read once from inside the game: reportlab opens what it is given by name
                copy = pictures.private_copy(path, real_path(root))
                width, height = pictures.pixels(copy.path)  # too many: not decoded
            except (OSError, ValueError) as exc:  # P004 in validate
                raise LayoutError(f"cannot print image {item.text!r}: {exc}") from exc
            if not pictures.face_allows(c, width * height):
                return  # past what one face draws: P004 in validate
            w, h = item.w * mm, item.h * mm
            try:
                # the run's image object: made once, not once per PDF (probe 60-3)
                # resampled once to what its pixels show, in a PDF only rasterised (probe 61-2)
                dpi = job.picture_dpi
                draw_picture(c, copy, x, y, w, h, preserveAspectRatio=True, mask="auto", dpi=dpi)
            except (OSError, ValueError, DecompressionBombError) as exc:  # P004 in validate
                message = f"cannot read image {item.text!r} (damaged, or not an image)"
                raise LayoutError(message) from exc

    def pictures_drawn(self, item: Resolved, job: PrintJob) -> int:
        """The pixels of its picture (0 when it prints none: P004 says why)."""
        if not item.text or job.root is None:
            return 0
        from toolkit.fileio import real_path
        from toolkit.render import pictures

        root = real_path(job.root)
        path = real_path(job.root / item.text)
        if not path.is_relative_to(root) or not path.is_file():
            return 0
        try:
            width, height = pictures.pixels(pictures.private_copy(path, root).path)
        except (OSError, ValueError):
            return 0
        return width * height

    def paints(self, item: Resolved, job: PrintJob) -> Iterator[Paint]:
        """The picture's average colour over the area it is drawn in (its proportions kept,
        centred in the box), for the contrast of a text printed over it."""
        if not item.text:
            return
        from toolkit.fileio import real_path

        root = real_path(job.root)
        path = real_path(job.root / item.text)
        if not path.is_relative_to(root) or not path.is_file():
            return  # P004 says so
        from toolkit.render import pictures

        try:  # read once from inside the game, into the copy the build prints
            copy = pictures.private_copy(path, root)
            if _past_game_pixels(job, path, pictures.pixels(copy.path)) is not None:
                return  # not decoded: P004 says so
        except (OSError, ValueError):
            return  # P004 says so
        seen = _average(os.fspath(copy.path))
        if seen is None:
            return
        colour, (pw, ph) = seen
        scale = min(item.w / pw, item.h / ph)
        w, h = pw * scale, ph * scale
        yield Paint(colour, item.x + (item.w - w) / 2, item.y + (item.h - h) / 2, w, h, "path")

    def problems(self, item: Resolved, job: PrintJob) -> Iterator[Problem]:
        """P004 and P005, once per card (in the first language checked: the game's first,
        or a `build --lang`'s)."""
        checked = printed_languages(job.game)
        if not checked or job.lang != checked[0]:
            return
        yield from _file_problems(job, item)


def _file_problems(job: PrintJob, item: Resolved) -> Iterator[Problem]:
    """The image exists inside the game folder, is a whole picture of no more pixels than
    can be printed (toolkit.render.pictures) and has enough for its printed box."""
    from toolkit.fileio import IN_TOOL_FOLDER, in_tool_folder, real_path
    from toolkit.render import pictures

    where = ("image",)
    root = real_path(job.root)
    path = real_path(job.root / item.text)
    if not path.is_relative_to(root):
        yield Problem("P004", f"image {item.text!r} leaves the game folder", where)
        return
    tool = in_tool_folder(path, root)
    if tool is not None:  # there or not (the findings cache never looks in such a folder)
        yield Problem("P004", f"image {item.text!r}: {IN_TOOL_FOLDER.format(tool)}", where)
        return
    if not path.is_file():
        yield Problem("P004", f"no image file {item.text!r}", where)
        return
    pixels, why = pictures.problem(path, root)
    if pixels is None:
        yield Problem("P004", f"cannot read image {item.text!r}: {why}", where)
        return
    past = _past_game_pixels(job, path, pixels)
    if past is not None:
        yield Problem("P004", f"image {item.text!r} {past}", where, once=("game pixels", path))
    dpi = min(pixels[0] / (item.w / 25.4), pixels[1] / (item.h / 25.4))
    if dpi < MIN_DPI:
        yield Problem(
            "P005",
            f"{item.text} is {pixels[0]}×{pixels[1]} px: {dpi:.0f} dpi in its "
            f"{item.w:.0f}×{item.h:.0f} mm box (print needs {MIN_DPI})",
            where,
        )


def _past_game_pixels(job: PrintJob, path: Path, pixels: tuple[int, int]) -> str | None:
    """Why the picture in `path` is not printed, if it is one that takes the different
    pictures the game's layouts print (counted in the order validate meets them) past
    `MAX_GAME_PIXELS`, or past `MAX_UNPAID_PIXELS` that their files do not pay for (a
    nearly blank picture of millions of pixels in a few kB); else None."""
    from toolkit.render import pictures

    counted: dict[Path, tuple[int, int, str | None]] = job.game.print_memo.setdefault(
        ("pictures",), {}
    )
    if path not in counted:
        stored = pictures.paid_file_bytes(path)  # its pixel data, not its metadata
        count = pixels[0] * pixels[1]
        unpaid = pictures.unpaid_pixels(count, stored)
        why, most_unpaid = None, pictures.MAX_UNPAID_PIXELS
        if sum(n for n, _, _ in counted.values()) + count > pictures.MAX_GAME_PIXELS:
            why = (
                f"takes the pictures the game's layouts print past"
                f" {pictures.MAX_GAME_PIXELS:,} pixels together (each is embedded in every"
                " PDF); scale them down, or use fewer"
            )
        elif unpaid and unpaid + sum(u for _, u, _ in counted.values()) > most_unpaid:
            why = (
                f"holds {count:,} pixels in {stored:,} bytes of pixel data: with it, the"
                " pictures the game's"
                f" layouts print hold more than {pictures.MAX_UNPAID_PIXELS:,} pixels beyond"
                f" {pictures.PAID_PIXELS_PER_BYTE} a stored byte together (each is decoded"
                " whole in every PDF, which that few bytes should not cost); save it at the"
                " size it prints at"
            )
        counted[path] = (count, unpaid, why)
    return counted[path][2]


@lru_cache(maxsize=16_384)
def _average(path: str) -> tuple[str, tuple[int, int]] | None:
    """A picture's mean colour over white (`#rrggbb`) and its pixel size, or None when it
    cannot be read (P004). `path` is the picture's private copy (pictures.private_copy),
    named by its digest: an edited picture is another copy, read again. ~200 bytes kept a
    picture: with 256 kept, cards cycling through 257 pictures decoded each at every card
    (probe 66: +35 % of validate)."""
    from PIL import Image, UnidentifiedImageError

    from toolkit.render import pictures

    try:
        pictures.pixels(Path(path))  # not decoded past the limit (P004 says so)
        with pictures.opened(Path(path)) as image:
            pixels = image.size
            image.thumbnail((64, 64))  # reduced while decoding, never whole in memory
            small = image.convert("RGBA")
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        return None
    flat = Image.new("RGBA", small.size, "white")
    flat.alpha_composite(small)
    r, g, b = flat.convert("RGB").resize((1, 1), Image.Resampling.BOX).getpixel((0, 0))  # type: ignore[misc]
    return f"#{r:02x}{g:02x}{b:02x}", pixels
