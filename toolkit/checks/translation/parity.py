"""Placeholders, numbers and end punctuation must agree across languages; card texts take
their numbers from parameters (the Spanish Alan Winchester said "triple" where the data says
+3: a number word left in a text is exactly how such an error slips in)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Generator, Iterator, Sequence
from functools import cache

from toolkit.checks import wanted
from toolkit.checks.translation.common import TextView, by_file
from toolkit.content.templating import parameter_names, placeholders
from toolkit.content.unit_cache import Clean, text_digest
from toolkit.diagnostics import Diagnostic, Severity, rule

T_PLACEHOLDERS = rule("T005", "placeholder-parity", "A translation lacks or adds a {placeholder}.")
T_NUMBERS = rule(
    "T006",
    "number-parity",
    "Numbers written in a text differ between languages.",
    Severity.WARNING,
)
T_LITERAL_NUMBER = rule(
    "T007",
    "literal-number",
    "A card text writes a number or multiplier instead of a {placeholder}.",
    Severity.WARNING,
)
T_END_PUNCT = rule(
    "T013", "end-punctuation", "A translation ends with different punctuation.", Severity.WARNING
)

NUMBER = re.compile(r"(?<![\w{])\d+(?:[.,]\d+)?(?![\w}])")
PLACEHOLDER_TEXT = re.compile(r"\{[^{}]*\}")
NUMBER_WORDS = {
    "fr": (
        "deux",
        "trois",
        "quatre",
        "cinq",
        "six",
        "sept",
        "huit",
        "neuf",
        "dix",
        "double",
        "triple",
        "quadruple",
        "moitié",
    ),
    "es": (
        "dos",
        "tres",
        "cuatro",
        "cinco",
        "seis",
        "siete",
        "ocho",
        "nueve",
        "diez",
        "doble",
        "triple",
        "cuádruple",
        "mitad",
    ),
    "en": (
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "double",
        "triple",
        "twice",
        "thrice",
        "half",
    ),
}
ENDINGS = {".": ".", "!": "!", "?": "?", ":": ":", "…": "…", ";": ";"}


ANY_DIGIT = re.compile(r"\d")
"""What NUMBER cannot match without: one pass over a text, a third of NUMBER's time; most
texts have no digit."""


def numbers(text: str) -> list[str]:
    if ANY_DIGIT.search(text) is None:
        return []
    bare = PLACEHOLDER_TEXT.sub(" ", text) if "{" in text else text
    return [n.replace(",", ".") for n in NUMBER.findall(bare)]


@cache
def _number_word_pattern(lang: str) -> re.Pattern[str] | None:
    """One pattern for all of a language's number words (a whole word each, any case); the
    group that matched names the word."""
    words = NUMBER_WORDS.get(lang, ())
    if not words:
        return None
    either = "|".join(f"(?P<w{i}>{re.escape(w)})" for i, w in enumerate(words))
    return re.compile(rf"(?<![\w-])(?:{either})(?![\w-])", re.I)


def number_words(lang: str, text: str) -> list[str]:
    """The language's number words that `text` writes outside its {placeholders}, in the
    order of NUMBER_WORDS (one pass over the text, not one search per word)."""
    pattern = _number_word_pattern(lang)
    if pattern is None:
        return []
    seen = {int(str(m.lastgroup)[1:]) for m in pattern.finditer(PLACEHOLDER_TEXT.sub(" ", text))}
    return [w for i, w in enumerate(NUMBER_WORDS[lang]) if i in seen]


def ending(text: str) -> str:
    stripped = text.rstrip().rstrip('»"”’)').rstrip("\u202f\u00a0 ")
    return ENDINGS.get(stripped[-1:], "") if stripped else ""


def check(texts: Sequence[TextView]) -> Iterator[Diagnostic]:
    if not wanted(T_NUMBERS, T_LITERAL_NUMBER, T_END_PUNCT):
        # the validity gate: T005 is the one that is an error (and no text is noted clean,
        # the warnings were not looked for)
        for view in texts:
            source_text = view.values.get(view.source)
            if source_text is not None:
                yield from _placeholders(view, source_text)
        return
    clean = Clean("clean-parity")  # texts (in all their languages) that had nothing to say
    for loaded, run in by_file(texts):
        if clean.on and clean.file_seen(loaded):
            continue  # every text of its file clean, and nothing they are read from changed
        for view in run:
            source_text = view.values.get(view.source)
            if source_text is None:
                continue
            digest = _digest(view) if clean.on else None
            if digest is not None and clean.seen(digest):
                clean.noted(loaded, digest, True)
                continue
            said = yield from _said(view, source_text)
            if not said and digest is not None:
                clean.found_clean(digest)
            if clean.on:
                clean.noted(loaded, digest, not said)
    clean.close()


def _digest(view: TextView) -> str | None:
    """A digest of what the parity findings of `view` are a function of, but for the
    places and labels they name: its source language, whether it is a card's rules text,
    its values by language in order and, when one of them may name a placeholder, the
    parameters of its owner (None when they are not texts)."""
    values = view.values
    parts = [view.source, "card" if view.is_card_text else "", str(len(values))]
    for lang, value in values.items():
        parts += (lang, value)
    if any("{" in value for value in values.values()):
        parameters = view.parameters
        if not all(type(k) is str and type(v) is str for k, v in parameters.items()):
            return None
        for name, shown in parameters.items():
            parts += (name, shown)
    return text_digest(*parts)


def _said(view: TextView, source_text: str) -> Generator[Diagnostic, None, bool]:
    """The parity findings of one text; returns whether there was any."""
    said = False
    for found in _findings(view, source_text):
        said = True
        yield found
    return said


def _findings(view: TextView, source_text: str) -> Iterator[Diagnostic]:
    yield from _placeholders(view, source_text)
    yield from _numbers(view, source_text)
    if view.is_card_text:
        yield from _literals(view)
    yield from _endings(view, source_text)


def _placeholders(view: TextView, source_text: str) -> Iterator[Diagnostic]:
    """Parity of bound placeholders; a language with an unbound one is left to R006."""
    source_names = placeholders(source_text)
    # compared as sorted lists (the same multisets as Counters, ~1 µs less a language);
    # counted only for a finding's message
    in_source = sorted(source_names)
    # the card's parameters are worked out only for a text that uses a placeholder
    allowed = parameter_names(view.owner) if source_names else None
    if allowed is not None and any(name not in allowed for name in source_names):
        return
    for lang, value in view.values.items():
        if lang == view.source:
            continue
        names = placeholders(value)
        if names and allowed is None:
            allowed = parameter_names(view.owner)
        if allowed is not None and any(name not in allowed for name in names):
            continue
        if sorted(names) != in_source:
            want, got = Counter(source_names), Counter(names)
            lacks = ", ".join("{" + p + "}" for p in want - got)
            extra = ", ".join("{" + p + "}" for p in got - want)
            parts = [f"lacks {lacks}" if lacks else "", f"adds {extra}" if extra else ""]
            yield T_PLACEHOLDERS.at(
                view.file,
                view.span(lang),
                f"{view.label()} ({lang}) "
                + " and ".join(p for p in parts if p)
                + f" compared with {view.source}",
            )


def _numbers(view: TextView, source_text: str) -> Iterator[Diagnostic]:
    want = Counter(numbers(source_text))
    for lang, value in view.values.items():
        if lang != view.source and Counter(numbers(value)) != want:
            yield T_NUMBERS.at(
                view.file,
                view.span(lang),
                f"{view.label()} ({lang}) writes {sorted(numbers(value)) or 'no numbers'}, "
                f"{view.source} writes {sorted(want.elements()) or 'none'}",
            )


def _literals(view: TextView) -> Iterator[Diagnostic]:
    values = view.parameters
    for lang, value in view.values.items():
        found = numbers(value)
        words = number_words(lang, value)
        if not found and not words:
            continue
        literal = (found or words)[0]
        hint = [name for name, shown in values.items() if shown == literal and "." not in name]
        tip = f"; write {{{hint[0]}}}" if hint else "; bind it to a parameter"
        yield T_LITERAL_NUMBER.at(
            view.file,
            view.span(lang),
            f"{view.label()} ({lang}) writes {literal!r} in the text{tip}",
        )


def _endings(view: TextView, source_text: str) -> Iterator[Diagnostic]:
    want = ending(source_text)
    for lang, value in view.values.items():
        if lang != view.source and value.strip() and ending(value) != want:
            yield T_END_PUNCT.at(
                view.file,
                view.span(lang),
                f"{view.label()} ({lang}) ends with {ending(value) or 'no punctuation'!r}, "
                f"{view.source} with {want or 'no punctuation'!r}",
            )
