"""A rulebook's code and `<pre>` blocks, their lines broken at the width they print in.

reportlab's XPreformatted breaks lines only where the text does: a line wider than the page
ran past the block's box and was cut at the page's edge (probe 53-L3: of 40,000 words on
5,000-character lines, 1,086 were in the PDF). Here a line too wide is broken at its last
space that fits, else between two characters, so every character prints; the block is laid
out again only for a new width.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, XPreformatted


class CodeBlock(Flowable):
    """Preformatted text whose lines (`plain`, a block's text as written) are broken to fit
    the width it is wrapped at, as an XPreformatted made again for each new width
    (`markup` makes reportlab markup of the broken text); a page split gives that
    XPreformatted's parts, their lines already broken."""

    def __init__(self, plain: str, style: ParagraphStyle, markup: Callable[[str], str]) -> None:
        super().__init__()
        self.plain = plain
        self.style = style
        self.markup = markup
        self._width = -1.0
        self._inner: XPreformatted | None = None

    def _made(self, availWidth: float) -> XPreformatted:
        style = self.style
        width = availWidth - style.leftIndent - style.rightIndent
        if self._inner is None or abs(width - self._width) >= 0.01:
            self._width = width
            lines = broken_lines(self.plain, width, style.fontName, style.fontSize)
            self._inner = XPreformatted(self.markup("\n".join(lines)), style)
        return self._inner

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        inner = self._made(availWidth)
        self.width, self.height = inner.wrap(availWidth, availHeight)
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        inner = self._made(availWidth)
        inner.wrap(availWidth, availHeight)
        return list(inner.split(availWidth, availHeight))

    def drawOn(self, canvas: Any, x: float, y: float, _sW: float = 0) -> None:
        assert self._inner is not None, "drawOn before wrap"
        self._inner.drawOn(canvas, x, y, _sW)  # type: ignore[call-arg]  # the stubs lack _sW

    def getSpaceBefore(self) -> float:
        return float(self.style.spaceBefore)

    def getSpaceAfter(self) -> float:
        return float(self.style.spaceAfter)


def broken_lines(text: str, width: float, font: str, size: float) -> list[str]:
    """The lines of `text`, each line wider than `width` (points, in `font` at `size`)
    broken into lines that fit: at the last space that fits (the space ends the line), else
    after the last character that fits (one character at least, however narrow `width`)."""
    out: list[str] = []
    for line in text.split("\n"):
        if stringWidth(line, font, size) <= width:
            out.append(line)
            continue
        widths: dict[str, float] = {}
        start = 0
        while start < len(line):
            used, end, space = 0.0, start, -1
            while end < len(line):
                ch = line[end]
                w = widths.get(ch)
                if w is None:
                    w = widths[ch] = stringWidth(ch, font, size)
                if used + w > width and end > start:
                    break
                if ch == " " and end > start:
                    space = end
                used += w
                end += 1
            if end < len(line) and space > start:
                end = space + 1  # the space ends this line: the next starts with the word
            out.append(line[start:end])
            start = end
    return out
