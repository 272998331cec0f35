"""What a translation must carry over from its source: `{placeholders}` of card texts and
the Jinja code of rulebook units. One function says what is wrong, for import and tests."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from jinja2 import TemplateSyntaxError

from toolkit.content.templating import placeholders
from toolkit.i18n.jinja_tags import jinja_tags
from toolkit.render.jinja_cache import TemplateLimitError, parse_check

_SPACES = re.compile(r"\s+")


def jinja_code(text: str) -> list[str]:
    """The Jinja expressions, statements and comments of `text`, spacing normalised, cut
    as Jinja's lexer cuts them (`jinja_tags`: `{{ "}}" }}` is one expression)."""
    return [_SPACES.sub(" ", text[start:end]) for start, end in jinja_tags(text)]


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


def code_problem(
    base: str, replaced: Iterable[tuple[str | None, str | None]], new: str
) -> tuple[int, str] | None:
    """Where and why a rebuilt rulebook holds other Jinja code than its units do, or None.

    Each entry of a PO file is checked on its own (`jinja_problem`), but the code of a whole
    file is more than its units' code: half an expression at the end of one paragraph and
    the rest at the start of the next make an expression no entry holds. `base` is the file
    the units were replaced in and `replaced` its (old, new) unit texts (None: kept); the new
    file must hold exactly the base's code with the old units' code swapped for the new,
    and parse as a template when the base does."""
    expected = Counter(jinja_code(base))
    for old, text in replaced:
        if text is not None and old is not None:
            expected.subtract(jinja_code(old))
            expected.update(jinja_code(text))
    have: Counter[str] = Counter()
    for start, end in jinja_tags(new):
        code = _SPACES.sub(" ", new[start:end])
        have[code] += 1
        if have[code] > expected[code]:
            line = new.count("\n", 0, start) + 1
            shown = code if len(code) <= 60 else code[:57] + "…"
            return line, f"the entries together make Jinja code no entry holds: {shown}"
    try:
        parse_check(base)
    except (TemplateSyntaxError, TemplateLimitError):
        return None  # broken before the import: validate says where, not the import
    try:
        parse_check(new)
    except (TemplateSyntaxError, TemplateLimitError) as exc:
        line = getattr(exc, "lineno", None) or 1
        return line, f"the entries together break the template: {exc.message}"
    return None
