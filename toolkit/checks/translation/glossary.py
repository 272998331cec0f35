"""Glossary: a term is translated one way in each language, everywhere.

When the source text uses a glossary term, every translation must use that term's
translation (plural endings allowed). In the glossary itself, a term translated two ways or
two terms sharing one translation are flagged: both make translations drift apart.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from functools import partial
from typing import Any

from toolkit.checks import wanted
from toolkit.checks.translation.common import TextView, prose
from toolkit.checks.translation.term_search import Finder, blank_out, finder, groups_used
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
    languages = {source, *game.manifest.languages, *(lang for t in terms for lang in t.text)}
    finders = {lang: _finder(terms, lang) for lang in sorted(languages)}
    translated = [{lang: bool((t.text.get(lang) or "").strip()) for lang in t.text} for t in terms]
    # a file whose every text used the glossary's terms as its translations do, with the
    # same glossary, is skipped whole (its texts are not even named): one card edit names
    # the edited file's texts alone
    clean = Clean(f"clean-glossary:{every}")
    seen: dict[tuple[tuple[str, str], ...], list[tuple[str, int]]] = {}
    for view in texts:
        if view.file == game.glossary.rel:
            continue
        if clean.on and clean.file_seen(view.text.file):
            continue
        text = tuple(view.values.items())  # one text aliased at many places: looked at once
        unmet = seen.get(text)
        if unmet is None:
            unmet = seen[text] = cached(
                "glossary",
                [every, view.values],
                partial(_unmet, view.values, names, source, finders, translated),
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
    names: Sequence[str],
    source: str,
    finders: dict[str, Finder],
    translated: Sequence[dict[str, bool]],
) -> list[tuple[str, int]]:
    """(language, index of the term) for each term the source text uses that a translation
    does not: a pure function of the values and the glossary (kept as a unit, toolkit.
    content.unit_cache). `finders`: each language's terms and forms as one table (groups:
    the terms' indexes); `translated[i][lang]`: whether term i has a translation in `lang`."""
    said = groups_used(finders[source], _without(prose(values.get(source, "")), names))
    read: dict[str, set[int]] = {}  # the terms each translation uses, found once
    found = []
    for at in sorted(said):
        for lang, value in values.items():
            if lang == source or not translated[at].get(lang) or not value:
                continue
            if lang not in read:
                read[lang] = groups_used(finders[lang], prose(value))
            if at not in read[lang]:
                found.append((lang, at))
    return found


def _finder(terms: Sequence[Any], lang: str) -> Finder:
    """The terms' texts and forms in `lang` as one table, each term's index its group."""
    return finder(
        tuple(
            (said, at)
            for at, term in enumerate(terms)
            for said in (term.text.get(lang) or "", *term.forms.get(lang, ()))
        )
    )


def _pair(kept: Any, terms: Sequence[Any]) -> tuple[str, int]:
    """A kept (language, term index), checked to name a translation of a term."""
    lang, at = kept
    if not isinstance(at, int) or not 0 <= at < len(terms) or lang not in terms[at].text:
        raise ValueError("not a term")
    return lang, at


def _without(text: str, names: Sequence[str]) -> str:
    """The text with the glossary's kept names (`keep: true`, a title such as 'Harbour
    Market') blanked out: a word inside a name that stays as it is uses no term."""
    return blank_out(names, text) if names else text


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
