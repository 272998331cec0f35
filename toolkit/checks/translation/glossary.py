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

from toolkit.checks import wanted
from toolkit.checks.translation.common import TextView, prose
from toolkit.content.game import Game
from toolkit.content.unit_cache import Clean, Units, cached
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


_LEAD = re.compile("[0-9A-Za-z_\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017f]*")
"""Characters a term's lead is made of: ASCII letters, digits and `_`, and the Latin-1 and
Latin Extended-A letters (à, é, ñ, œ...): every character a case-blind pattern matches to
one of them is written as one same character by `folded` (tests/test_validate_speed.py
checks each against every character there is)."""
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
"""The characters whose lower case is not what a case-blind pattern matches them to: İ and ı
(i), ſ (s), the Kelvin sign (k)."""


def folded(text: str) -> str:
    """`text` with each character that a case-blind lead character (`_LEAD`) of a pattern
    matches written as that character's own fold (others may change too): a text that
    `term_pattern(term)` matches holds `lead(term)` in `folded(text)`."""
    return text.translate(_FOLD).lower()


@cache
def lead(term: str) -> str:
    """What any match of `term_pattern(term)` holds, folded (`folded`): the longest run of
    lead characters one of its words starts with, before any ending a plural may change (a
    word ending in y loses it: `ies`); "" when no word starts so."""
    best = ""
    for word in term.split():
        stem = word[:-1] if len(word) > 2 and word.endswith("y") else word
        found = _LEAD.match(stem)
        if found is not None and len(found.group()) > len(best):
            best = found.group()
    return folded(best)


@cache
def _leads(term: str, forms: tuple[str, ...]) -> tuple[str, ...]:
    """The leads of a term and its forms (the empty ones left out, as `uses` leaves them)."""
    return tuple(lead(t) for t in (term, *forms) if t)


def uses(text: str, term: str, forms: Sequence[str] = (), fold: str | None = None) -> bool:
    """Whether `text` uses the term or one of its forms; `fold` (`folded(text)`, when the
    caller has it) spares compiling and searching the patterns of the words it lacks."""
    if fold is None:
        fold = folded(text)
    return any(
        bool(said) and lead(said) in fold and _search(said, text, fold) for said in (term, *forms)
    )


def _search(term: str, text: str, fold: str) -> bool:
    """Whether `term_pattern(term)` finds the term in `text` (folded: `fold`). A term made of
    lead characters only is looked for in the fold, as the pattern matches it, without
    compiling a pattern (compiling one per term was 8 % of a cold `validate`): a character
    matches a lead character case-blind exactly when it folds to that character's fold, and
    folding keeps every character at its place (tests/test_validate_speed.py checks both
    against every character there is)."""
    words = _plain(term)
    if words is None or len(fold) != len(text):
        return term_pattern(term).search(text) is not None
    return next(_matches(words, text, fold), None) is not None


def _blank_out(term: str, text: str, fold: str) -> str:
    """`term_pattern(term).sub(" ", text)` (`fold`: `folded(text)`), found as `_search`
    finds it for a term made of lead characters."""
    words = _plain(term)
    if words is None or len(fold) != len(text):
        return term_pattern(term).sub(" ", text)
    kept: list[str] = []
    last = 0
    for start, end in _matches(words, text, fold):
        kept += (text[last:start], " ")
        last = end
    return "".join(kept) + text[last:] if kept else text


def _matches(words: tuple[Word, ...], text: str, fold: str) -> Iterator[tuple[int, int]]:
    """Where the pattern of the term (`words`) matches in `text`, as its `finditer` finds
    them: the leftmost match first, each match's end as the pattern chooses it, the next
    searched from there (matches are never empty)."""
    first = words[0][0]
    at = fold.find(first)
    while at >= 0:
        end = -1
        if at == 0 or not _word_char(text[at - 1]):
            end = _end(words, 0, at, text, fold)
        if end >= 0:
            yield at, end
            at = fold.find(first, end)
        else:
            at = fold.find(first, at + 1)


Word = tuple[str, tuple[str, ...]]


@cache
def _plain(term: str) -> tuple[Word, ...] | None:
    """Each word of `term` as `_inflected` writes it: its folded stem and its endings in the
    order the pattern tries them (`(?:s|x|es)?`: s, x, es, then none; `(?:y|ies)`); None
    for a term with a character that is not a lead character (`_LEAD`), or with no word,
    which only the pattern finds as it does."""
    words: list[Word] = []
    for word in term.split():
        if not _LEAD.fullmatch(word):
            return None
        if len(word) > 2 and word.endswith("y"):
            words.append((folded(word[:-1]), ("y", "ies")))
        else:
            words.append((folded(word), ("s", "x", "es", "")))
    return tuple(words) or None


def _word_char(ch: str) -> bool:
    """Whether `ch` is what a pattern's `\\w` matches in a text (str)."""
    return ch.isalnum() or ch == "_"


_BETWEEN = "\u00a0\u202f'’-"
"""Besides white space, what may stand between two words of a term (`term_pattern`)."""


def _end(words: tuple[Word, ...], index: int, at: int, text: str, fold: str) -> int:
    """Where the pattern's match of the term's words from `index` on, started at `at`, ends
    (-1: none): the stem, the first of its endings (in the pattern's order) with which the
    rest is found, then at least one separator and the next word, or after the last word a
    character that is not a word character (or the text's end)."""
    stem, endings = words[index]
    if not fold.startswith(stem, at):
        return -1
    after = at + len(stem)
    last = index + 1 == len(words)
    for ending in endings:
        if ending and not fold.startswith(ending, after):
            continue
        end = after + len(ending)
        if last:
            if end == len(text) or not _word_char(text[end]):
                return end
            continue
        # a word starts with a word character, which is no separator: the run of
        # separators is taken whole, as the pattern's `+` ends up taking it
        start = end
        while start < len(text) and (text[start].isspace() or text[start] in _BETWEEN):
            start += 1
        if start > end:
            found = _end(words, index + 1, start, text, fold)
            if found >= 0:
                return found
    return -1


def check(game: Game, texts: Sequence[TextView]) -> Iterator[Diagnostic]:
    if not wanted(T_TERM, T_GLOSSARY):
        return  # warnings: not for the validity gate
    if not game.glossary or game.glossary.model is None or game.manifest is None:
        return
    source = game.manifest.source_language
    # a term whose source text is blank is T002's finding, not one at every text of the game
    said = [t for t in game.glossary.model.terms if (t.text.get(source) or "").strip()]
    terms = [t for t in said if not t.keep]
    names = [t.text[source] for t in said if t.keep]
    yield from _conflicts(game, terms, source)
    table = [(t.text, {lang: list(f) for lang, f in t.forms.items()}) for t in terms]
    every = Units.name("glossary-terms", [source, names, table])  # once, not once per text
    leads = [_leads(t.text[source], tuple(t.forms.get(source, ()))) for t in terms]
    # a file whose every text used the glossary's terms as its translations do, with the
    # same glossary, is skipped whole (its texts are not even named): one card edit names
    # the edited file's texts alone
    clean = Clean(f"clean-glossary:{every}")
    for view in texts:
        if view.file == game.glossary.rel:
            continue
        if clean.on and clean.file_seen(view.text.file):
            continue
        unmet = cached(
            "glossary",
            [every, view.values],
            partial(_unmet, view.values, terms, names, source, leads),
            lambda found: [list(pair) for pair in found],
            lambda kept: [_pair(pair, terms) for pair in kept],
        )
        if clean.on:
            clean.noted(view.text.file, "", not unmet)
        for lang, at in unmet:
            term = terms[at]
            want = term.text[lang]
            yield T_TERM.at(
                view.file,
                view.span(lang),
                f"{view.label()} ({lang}): {source} uses {term.text[source]!r}; "
                f"the glossary's {lang} term is {want!r}",
            )
    clean.close()


def _unmet(
    values: dict[str, str],
    terms: Sequence[Any],
    names: Sequence[str],
    source: str,
    leads: Sequence[tuple[str, ...]],
) -> list[tuple[str, int]]:
    """(language, index of the term) for each term the source text uses that a translation
    does not: a pure function of the values and the glossary (kept as a unit, toolkit.
    content.unit_cache); `leads[i]`: `_leads` of term i and its source forms, worked out
    once for every text."""
    src = _without(prose(values.get(source, "")), names)
    src_fold = folded(src)
    read: dict[str, tuple[str, str]] = {}  # each translation's prose and its fold, once
    found = []
    for at, term in enumerate(terms):
        if not any(found in src_fold for found in leads[at]):  # it may use the term
            continue
        said, forms = term.text[source], term.forms.get(source, ())
        if not uses(src, said, forms, src_fold):
            continue
        for lang, value in values.items():
            want = term.text.get(lang)
            if lang == source or not want or not want.strip() or not value:
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
            blanked = _blank_out(name, text, fold)
            if blanked != text:
                text, fold = blanked, folded(blanked)
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
