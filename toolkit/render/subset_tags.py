"""Distinct, deterministic subset tags for embedded fonts.

ISO 32000 (9.6.4) names an embedded font subset `ABCDEF+FontName`, the six letters chosen so
that different subsets in one PDF file get different tags. reportlab numbers each font's
subsets from 0 (`AAAAAA+` for the first subset of every font), so a page in regular, bold
and italic carries three fonts tagged `AAAAAA+`. Here a subset's tag comes from a hash of the
font's name, the subset's number and the characters it holds: distinct across a file, and the
same for the same content (builds stay byte-identical)."""

from __future__ import annotations

import hashlib
from typing import Any

from reportlab.pdfbase import ttfonts
from reportlab.pdfbase.ttfonts import TTFont


def subset_tag(font: str, number: int, characters: list[int]) -> bytes:
    """Six capital letters for one subset of `font`."""
    seed = f"{font}\0{number}\0" + ",".join(map(str, characters))
    digest = hashlib.sha256(seed.encode("utf-8")).digest()
    return bytes(65 + byte % 26 for byte in digest[:6])


class TaggedTTFont(TTFont):
    """A TrueType font whose subsets carry distinct tags (see the module's docstring)."""

    def addObjects(self, doc: Any) -> None:
        state = self.state.get(doc)
        subsets = list(state.subsets) if state is not None else []
        numbered = ttfonts.SUBSETN

        def tag(n: int, *_: Any) -> bytes:
            return subset_tag(self.fontName, n, list(subsets[n]) if n < len(subsets) else [])

        ttfonts.SUBSETN = tag  # type: ignore[assignment]  # read for each subset's BaseFont
        try:
            super().addObjects(doc)
        finally:
            ttfonts.SUBSETN = numbered
