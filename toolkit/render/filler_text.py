"""Filler text for a template's `lipsum()`, the same at every build.

Jinja's own `lipsum` draws its words from the process's random generator, so a layout that
tries its fit with filler text fitted on one run and overflowed on the next, and validate's
verdict was not the build's. Here the words come from a generator seeded by the call's
arguments: the same call prints the same text, in every run and every worker.
"""

from __future__ import annotations

import random

from jinja2.constants import LOREM_IPSUM_WORDS
from markupsafe import Markup, escape

_WORDS = LOREM_IPSUM_WORDS.split()


def lorem(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:
    """`n` paragraphs of `min` to `max` - 1 words each (as Jinja's `lipsum` counts them),
    sentences of 8 to 15 words; in `<p>` elements when `html`."""
    pick = random.Random(f"lipsum {n} {min} {max}")
    paragraphs = []
    for _ in range(n):
        count = pick.randrange(min, max) if max > min else min
        words: list[str] = []
        sentence = 0
        for _ in range(count):
            word = pick.choice(_WORDS)
            if words and word == words[-1].rstrip(".").lower():
                word = _WORDS[(_WORDS.index(word) + 1) % len(_WORDS)]
            if sentence == 0:
                word = word.capitalize()
                sentence = pick.randrange(8, 16)
            sentence -= 1
            words.append(word + "." if sentence == 0 else word)
        text = " ".join(words)
        paragraphs.append(text if not text or text.endswith(".") else text + ".")
    if html:
        return Markup("\n".join(f"<p>{escape(p)}</p>" for p in paragraphs))
    return "\n\n".join(paragraphs)
