"""Glossary: a term is translated one way in each language, everywhere.

When the source text uses a glossary term, every translation must use that term's
translation (plural endings allowed). In the glossary itself, a term translated two ways or
two terms sharing one translation are flagged: both make translations drift apart.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator, Sequence
from functools import cache, partial
from typing import Any

from toolkit.checks.translation.common import TextView, prose
from toolkit.content.game import Game
from toolkit.content.unit_cache import Units, cached
from toolkit.diagnostics import Diagnostic, Severity, rule

T_TERM = rule(
    "T008",
    "glossary-term",
    "A translation does not use the glossary's translation of a term.",
    Severity.WARNING,
)
T_GLOSSARY = rule(
    "T009",
    "glossary-conflict",
    "The glossary translates a term two ways, or gives two terms one translation.",
    Severity.WARNING,
)


def _inflected(word: str) -> str:
    """A word with its regular plural endings (fr/es/en: s, x, es; en y → ies)."""
    if len(word) > 2 and word.endswith("y"):
        return re.escape(word[:-1]) + r"(?:y|ies)"
    return re.escape(word) + r"(?:s|x|es)?"


@cache
def term_pattern(term: str) -> re.Pattern[str]:
    """A term with optional plural endings on each word, on word boundaries, any case."""
    words = [_inflected(w) for w in term.split()]
    return re.compile(r"(?<!\w)" + r"[\s\u00a0\u202f'’-]+".join(words) + r"(?!\w)", re.IGNORECASE)


_ASCII_WORD = re.compile(r"[0-9A-Za-z_]*")
_ASCII_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
"""The characters other than ASCII that a case-blind pattern matches to an ASCII letter
(İ ı to i, ſ to s, the Kelvin sign to k: every one, tests/test_glossary_lead.py finds them)."""


def folded(text: str) -> str:
    """`text` with every character that a case-blind ASCII letter, digit or `_` of a pattern
    matches written as that character in lower case (others may change too): a text that
    `term_pattern(term)` matches holds `lead(term)` in `folded(text)`."""
    return text.translate(_ASCII_FOLD).lower()


@cache
def lead(term: str) -> str:
    """What any match of `term_pattern(term)` holds, folded (`folded`): the lower-case ASCII
    word characters its first word starts with, before any ending a plural may change (a
    word ending in y loses it: `ies`); "" when the word starts otherwise."""
    words = term.split()
    if not words:
        return ""
    first = words[0]
    stem = first[:-1] if len(first) > 2 and first.endswith("y") else first
    found = _ASCII_WORD.match(stem)
    return found.group().lower() if found else ""


def uses(text: str, term: str, forms: Sequence[str] = (), fold: str | None = None) -> bool:
    """Whether `text` uses the term or one of its forms; `fold` (`folded(text)`, when the
    caller has it) spares compiling and searching the patterns of the words it lacks."""
    if fold is None:
        fold = folded(text)
    return any(bool(t) and lead(t) in fold and term_pattern(t).search(text) for t in (term, *forms))


def check(game: Game, texts: Sequence[TextView]) -> Iterator[Diagnostic]:
    if not game.glossary or game.glossary.model is None or game.manifest is None:
        return
    source = game.manifest.source_language
    terms = [t for t in game.glossary.model.terms if not t.keep and t.text.get(source)]
    names = [t.text[source] for t in game.glossary.model.terms if t.keep and t.text.get(source)]
    yield from _conflicts(game, terms, source)
    table = [(t.text, {lang: list(f) for lang, f in t.forms.items()}) for t in terms]
    every = Units.name("glossary-terms", [source, names, table])  # once, not once per text
    for view in texts:
        if view.file == game.glossary.rel:
            continue
        unmet = cached(
            "glossary",
            [every, view.values],
            partial(_unmet, view.values, terms, names, source),
            lambda found: [list(pair) for pair in found],
            lambda kept: [_pair(pair, terms) for pair in kept],
        )
        for lang, at in unmet:
            term = terms[at]
            want = term.text[lang]
            yield T_TERM.at(
                view.file,
                view.span(lang),
                f"{view.label()} ({lang}): {source} uses {term.text[source]!r}; "
                f"the glossary's {lang} term is {want!r}",
            )


def _unmet(
    values: dict[str, str], terms: Sequence[Any], names: Sequence[str], source: str
) -> list[tuple[str, int]]:
    """(language, index of the term) for each term the source text uses that a translation
    does not: a pure function of the values and the glossary (kept as a unit, toolkit.
    content.unit_cache)."""
    src = _without(prose(values.get(source, "")), names)
    src_fold = folded(src)
    read: dict[str, tuple[str, str]] = {}  # each translation's prose and its fold, once
    found = []
    for at, term in enumerate(terms):
        if not uses(src, term.text[source], term.forms.get(source, ()), src_fold):
            continue
        for lang, value in values.items():
            want = term.text.get(lang)
            if lang == source or not want or not value:
                continue
            if lang not in read:
                read[lang] = (prose(value), folded(prose(value)))
            words, fold = read[lang]
            if uses(words, want, term.forms.get(lang, ()), fold):
                continue
            found.append((lang, at))
    return found


def _pair(kept: Any, terms: Sequence[Any]) -> tuple[str, int]:
    """A kept (language, term index), checked to name a translation of a term."""
    lang, at = kept
    if not isinstance(at, int) or not 0 <= at < len(terms) or lang not in terms[at].text:
        raise ValueError("not a term")
    return lang, at


def _without(text: str, names: Sequence[str]) -> str:
    """The text with the glossary's kept names (`keep: true`, a title such as 'Harbour
    Market') blanked out: a word inside a name that stays as it is uses no term."""
    fold = folded(text)  # blanking a name out (by a space) makes no new word start
    for name in sorted(names, key=len, reverse=True):
        if lead(name) in fold:
            text = term_pattern(name).sub(" ", text)
    return text


def _conflicts(game: Game, terms: list, source: str) -> Iterator[Diagnostic]:
    glossary, manifest = game.glossary, game.manifest
    assert glossary is not None and glossary.doc is not None and glossary.model is not None
    assert manifest is not None
    index = {t.id: i for i, t in enumerate(glossary.model.terms)}
    by_source: dict[str, list] = defaultdict(list)
    for term in terms:
        by_source[term.text[source].casefold()].append(term)
    for same in by_source.values():
        for lang in manifest.languages:
            translations = {t.text.get(lang, "").casefold() for t in same}
            if len(translations) > 1:
                last = same[-1]
                yield T_GLOSSARY.at(
                    glossary.rel,
                    glossary.doc.span(("terms", index[last.id], "text", lang)),
                    f"{last.text[source]!r} is translated two ways in {lang}: "
                    + ", ".join(sorted(repr(t) for t in translations)),
                )
    for lang in manifest.languages:
        if lang == source:
            continue
        by_target: dict[str, list] = defaultdict(list)
        for term in terms:
            if term.text.get(lang):
                by_target[term.text[lang].casefold()].append(term)
        for same in by_target.values():
            sources = {t.text[source].casefold() for t in same}
            if len(sources) > 1:
                last = same[-1]
                yield T_GLOSSARY.at(
                    glossary.rel,
                    glossary.doc.span(("terms", index[last.id], "text", lang)),
                    f"terms {', '.join(sorted(repr(t.id) for t in same))} share the {lang} "
                    f"translation {last.text[lang]!r}",
                )
