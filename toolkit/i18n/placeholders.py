"""What a translation must carry over from its source: `{placeholders}` of card texts and
the Jinja code of rulebook units. One function says what is wrong, for import and tests."""

from __future__ import annotations

import re
from collections import Counter

from toolkit.content.templating import placeholders
from toolkit.render.jinja_cache import TEMPLATE_CODE

_CODE = re.compile(TEMPLATE_CODE, re.DOTALL)
_SPACES = re.compile(r"\s+")


def jinja_code(text: str) -> list[str]:
    """The Jinja expressions, statements and comments of `text`, spacing normalised."""
    return [_SPACES.sub(" ", m.group(0)) for m in _CODE.finditer(text)]


def brace_problem(source: str, translation: str) -> str | None:
    """Why `translation` breaks the source's {placeholders} (python-brace-format), or None."""
    expected, got = set(placeholders(source)), set(placeholders(translation))
    missing, extra = sorted(expected - got), sorted(got - expected)
    parts = []
    if missing:
        parts.append("lacks " + ", ".join(f"{{{p}}}" for p in missing))
    if extra:
        parts.append("adds " + ", ".join(f"{{{p}}}" for p in extra))
    return (
        f"the msgstr {' and '.join(parts)} (placeholders must match the msgid)" if parts else None
    )


def jinja_problem(source: str, translation: str) -> str | None:
    """Why `translation` does not keep the source's Jinja code, or None: expressions may
    move (word order), statements ({% if %}…{% endif %}) keep their order."""
    want, have = jinja_code(source), jinja_code(translation)
    missing = Counter(want) - Counter(have)
    extra = Counter(have) - Counter(want)
    if missing or extra:
        parts = []
        if missing:
            parts.append("lacks " + ", ".join(sorted(missing)))
        if extra:
            parts.append("adds " + ", ".join(sorted(extra)))
        return f"the msgstr {' and '.join(parts)} (Jinja code must stay as written)"
    statements = [c for c in want if not c.startswith("{{")]
    if statements != [c for c in have if not c.startswith("{{")]:
        return "the msgstr reorders Jinja statements ({% … %}); keep them in the msgid's order"
    return None
