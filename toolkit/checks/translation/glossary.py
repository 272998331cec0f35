"""Glossary: a term is translated one way in each language, everywhere.

When the source text uses a glossary term, every translation must use that term's
translation (plural endings allowed). In the glossary itself, a term translated two ways or
two terms sharing one translation are flagged: both make translations drift apart.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from functools import partial
from typing import TYPE_CHECKING, Any

from toolkit.checks import wanted
from toolkit.checks.framed import framed
from toolkit.checks.translation.common import TextView, by_file, prose
from toolkit.content.game import Game
from toolkit.content.unit_cache import Clean, NotKept, Units, active, cached
from toolkit.diagnostics import Diagnostic, Severity, Span, rule

if TYPE_CHECKING:  # the term search is imported by the checks of a game with a glossary
    from toolkit.checks.translation.term_search import Finder

T_TERM = rule(
    "T008",
    "glossary-term",
    "A translation does not use the glossary's translation of a term.",
    Severity.WARNING,
)
T_TOO_MANY = rule(
    "T018",
    "glossary-size",
    "The glossary's terms and forms are too many words to look for in every text.",
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
    table = [(t.text, {lang: list(f) for lang, f in t.forms.items()}) for t in terms]
    every = Units.name("glossary-terms", [source, names, table])  # once, not once per text
    languages = {source, *game.manifest.languages, *(lang for t in terms for lang in t.text)}
    tables = _Tables(terms, sorted(languages), source, names, every)
    with _shapes_kept(tables, names):
        # T009 and T018 read the glossary and game.yaml alone, no content file: kept whole
        # while no other file changes (toolkit.checks.framed; after one card edit they were
        # worked out again each run)
        alone = partial(_glossary_alone, terms=terms, source=source, tables=tables)
        yield from framed("translation-glossary", alone, game)
        yield from _checked(game, texts, terms, source, tables, every)


def _glossary_alone(
    game: Game, terms: list[Any], source: str, tables: _Tables
) -> Iterator[Diagnostic]:
    """T009 of terms translated two ways or sharing a translation, then T018 of the
    glossary's size (see `check`): the glossary's findings, at the glossary."""
    from toolkit.checks.translation.term_search import MAX_PIECES, sizes

    yield from _conflicts(game, terms, source)
    assert game.glossary is not None
    for lang, listed in tables.listed.items():
        words, left_out = sizes(listed)
        if left_out:
            yield T_TOO_MANY.at(
                game.glossary.rel,
                game.glossary.doc.key_span(("terms",)) if game.glossary.doc else Span(),
                f"the glossary's {lang} terms and forms have {words:,} words; T008 looks"
                f" for the first {MAX_PIECES:,} and leaves {left_out:,} terms and forms"
                " out: a term is a few words, and a form another way to write one",
            )


def _checked(
    game: Game,
    texts: Sequence[TextView],
    terms: list[Any],
    source: str,
    tables: _Tables,
    every: str,
) -> Iterator[Diagnostic]:
    """T008 of each text (see `check`)."""
    assert game.glossary is not None and game.glossary.model is not None
    translated = [{lang: bool((t.text.get(lang) or "").strip()) for lang in t.text} for t in terms]
    # a file whose every text used the glossary's terms as its translations do, with the
    # same glossary, is skipped whole (its texts are not even named): one card edit names
    # the edited file's texts alone
    clean = Clean(f"clean-glossary:{every}")
    seen: dict[tuple[tuple[str, str], ...], list[Unmet]] = {}
    read: dict[tuple[str, str], set[int]] = {}  # each language's text searched once a run
    for loaded, run in by_file(texts):
        if loaded.rel == game.glossary.rel:
            continue
        if clean.on and clean.file_seen(loaded):
            continue
        for view in run:
            text = tuple(view.values.items())  # one text aliased at many places: looked at once
            unmet = seen.get(text)
            if unmet is None:
                unmet = seen[text] = cached(
                    "glossary",
                    [every, view.values],
                    partial(_unmet, view.values, source, tables, translated, read),
                    lambda found: [[lang, list(named), count] for lang, named, count in found],
                    lambda kept: [_kept(one, terms) for one in kept],
                )
            if clean.on:
                clean.noted(loaded, "", not unmet)
            for lang, named, count in unmet:
                message = _said(view, source, lang, named, count, terms)
                yield T_TERM.at(view.file, view.span(lang), message)
    clean.close()


@contextmanager
def _shapes_kept(tables: _Tables, names: Sequence[str]) -> Iterator[None]:
    """While the block runs, the shapes of the glossary's terms and forms (how the walk finds
    each: toolkit.checks.translation.term_search.shape) and of its kept names (`names`:
    blanked out of a source text before its walk, `_without`) are those the last run kept,
    when `validate`'s units are active: every run worked out every term's shape in every
    language (~2 ms for a bundled game's), though only the edited texts are searched (and
    the Whisky Game's 68 names' after one card edit). Each is a pure function of its term's
    text and the module's code (in the units' head); the unit is named by the texts."""
    from toolkit.checks.translation.term_search import given_shapes, kept_shapes

    units = active()
    if units is None:
        yield
        return
    said = sorted({*names, *(text for listed in tables.listed.values() for text, _ in listed)})
    name = Units.name("glossary-shapes", [said])
    kept = units.get(name, _Shapes)
    if kept is not None:
        with given_shapes(kept):  # type: ignore[arg-type]  # (a mapping, made when asked)
            yield
        if not kept.refused:
            return
    else:
        yield
    with suppress(NotKept):
        units.put(name, kept_shapes(said))


class _Shapes:
    """Kept shapes by term, decoded when a shape is first asked for (`term_search.shape`):
    after one card edit the tables the edited text is searched with are kept (`_table`),
    so no shape is. A value that is not kept shapes is refused then: no shape given (each
    worked out, as without the unit), and `refused` says to keep them again."""

    def __init__(self, value: Any) -> None:
        if type(value) is not list:
            raise ValueError("not shapes")
        self._value: Any = value
        self._shapes: dict[str, Any] | None = None
        self.refused = False

    def _decoded(self) -> dict[str, Any]:
        from toolkit.checks.translation.term_search import kept_shape

        if self._shapes is None:
            shapes = {}
            try:
                for one in self._value:
                    if type(one) is not list or len(one) != 2 or type(one[0]) is not str:
                        raise ValueError("not a term's shape")
                    shapes[one[0]] = kept_shape(one[1])
            except ValueError:
                shapes, self.refused = {}, True
            self._shapes = shapes
        return self._shapes

    def __contains__(self, term: object) -> bool:
        return term in self._decoded()

    def __getitem__(self, term: str) -> Any:
        return self._decoded()[term]


Unmet = tuple[str, list[int], int]
"""A translation's language, the first terms (indexes) the source uses that it does not
(`MAX_NAMED` at most), and how many there are."""
MAX_NAMED = 3
"""The terms one T008 names: a text lacking a thousand is one finding, not a thousand."""


class _Tables:
    """Each language's terms and forms as one table (groups: the terms' indexes), and the
    translations' languages' tables as one (`together`), each made when first walked: a
    table of 20,000 pieces takes ~0.05 s to make, and a language whose texts are all
    walked in the joint one needs no table of its own. And the table of the kept names
    (`names`), blanked out of a source text before its walk (`blank`).

    With `validate`'s units active each table is kept, named by what it is made of (`_table`:
    `every`, the glossary's name (`check`: its source language, kept names and terms' texts
    and forms), and the language, or the translations' languages; without it, the terms and
    groups themselves): after one card edit the tables the edited text is searched with were
    laid out again, from the ~220 kept shapes decoded for them."""

    def __init__(
        self,
        terms: Sequence[Any],
        languages: Sequence[str],
        source: str,
        names: Sequence[str],
        every: str = "",
    ) -> None:
        self.listed = {lang: _listed(terms, lang) for lang in languages}
        self.joined = [lang for lang in languages if lang != source]
        self.names = names
        self.every = every
        self._finders: dict[str, Finder] = {}
        self._widths: dict[str, int] = {}
        self._width: int | None = None
        self._joint: Finder | None = None
        self._names: Finder | None = None

    def finder(self, lang: str) -> Finder:
        """The table of `lang`'s terms and forms."""
        from toolkit.checks.translation.term_search import finder

        if lang not in self._finders:
            listed = self.listed[lang]
            made_of = [self.every, lang] if self.every else [listed]
            self._finders[lang] = _table("one", made_of, lambda: finder(listed))
        return self._finders[lang]

    def blank(self, text: str) -> str:
        """The text with the kept names blanked out (term_search.blank_out)."""
        from toolkit.checks.translation.term_search import finder, spaced

        if not self.names:
            return text
        if self._names is None:
            listed = tuple((name, 0) for name in self.names)
            made_of = [self.every, None] if self.every else [listed]
            self._names = _table("names", made_of, lambda: finder(listed))
        return spaced(self._names, text)

    def joint(self, languages: Sequence[str]) -> Finder | None:
        """The translations' tables as one, when walking it costs no more than walking
        the tables of `languages` (its pieces are at most theirs together, and
        `MAX_PIECES`); else None."""
        from toolkit.checks.translation.term_search import MAX_PIECES, together, width

        if self._width is None:
            self._width = width([self.listed[lang] for lang in self.joined])
        for lang in languages:
            if lang not in self._widths:
                self._widths[lang] = width([self.listed[lang]])
        if self._width > min(sum(self._widths[lang] for lang in languages), MAX_PIECES):
            return None
        if self._joint is None:
            tables = tuple(self.listed[lang] for lang in self.joined)
            made_of = [self.every, self.joined] if self.every else [tables]
            self._joint = _table("together", made_of, lambda: together(tables))
        return self._joint


def _table(kind: str, made_of: list[Any], make: Callable[[], Finder]) -> Finder:
    """The table `make()` lays out, kept as a unit named by what it is made of (`kind`: a
    `finder`'s of terms, the kept names', `together`'s of tables; `made_of`: see `_Tables`)
    when `validate`'s units are active: a pure function of those and the term search's code
    (in the units' head)."""
    from toolkit.checks.translation.term_search import kept_table, plain_table

    units = active()
    if units is None:
        return make()
    name = Units.name(f"glossary-table:{kind}", made_of)
    kept = units.get(name, kept_table)
    if kept is not None:
        return kept
    made = make()
    with suppress(NotKept):
        units.put(name, plain_table(made))
    return made


def _unmet(
    values: dict[str, str],
    source: str,
    tables: _Tables,
    translated: Sequence[dict[str, bool]],
    read: dict[tuple[str, str], set[int]],
) -> list[Unmet]:
    """Each translation that lacks terms the source text uses (`Unmet`): a pure function
    of the values and the glossary (kept as a unit, toolkit.content.unit_cache).
    `tables`: each language's terms and forms as one table;
    `translated[i][lang]`: whether term i has a translation in `lang`; `read`: the terms
    each (language, text) uses, found once a run (480 cards sharing a long source text, each
    with a translation of its own, searched it 480 times: 8 s, probe 37). A text read in
    several languages (aliased) is walked once for them all when the table `together` of
    theirs is no wider than theirs side by side (20 languages, 20 walks: probe 38 M1)."""
    from toolkit.checks.translation.term_search import groups_used, untangled

    def used(lang: str, text: str) -> set[int]:
        key = (lang, text)
        if key not in read:
            read[key] = groups_used(
                tables.finder(lang), tables.blank(text) if lang == source else text
            )
        return read[key]

    said = used(source, prose(values.get(source, "")))
    needed: list[tuple[str, str, list[int]]] = []
    for lang, value in values.items():
        if lang == source or not value:
            continue
        wanted = [at for at in sorted(said) if translated[at].get(lang)]
        if wanted:
            needed.append((lang, prose(value), wanted))
    unread: dict[str, list[str]] = defaultdict(list)  # a text → the languages to walk it in
    for lang, text, _ in needed:
        if (lang, text) not in read:
            unread[text].append(lang)
    for text, languages in unread.items():
        if len(languages) > 1 and (joint := tables.joint(languages)) is not None:
            found_in = untangled(groups_used(joint, text), len(tables.joined))
            each = dict(zip(tables.joined, found_in, strict=True))
            for lang in languages:  # those asked: as many sets as walking each kept
                read[(lang, text)] = each[lang]
    found: list[Unmet] = []
    for lang, text, wanted in needed:
        found_there = used(lang, text)
        lacked = [at for at in wanted if at not in found_there]
        if lacked:
            found.append((lang, lacked[:MAX_NAMED], len(lacked)))
    return found


def _said(
    view: TextView, source: str, lang: str, named: list[int], count: int, terms: Sequence[Any]
) -> str:
    """T008's message: the terms the source uses and the translation lacks, each with the
    glossary's term for it."""
    if count == 1:
        term = terms[named[0]]
        return (
            f"{view.label()} ({lang}): {source} uses {term.text[source]!r}; "
            f"the glossary's {lang} term is {term.text[lang]!r}"
        )
    pairs = [f"{terms[at].text[source]!r} ({terms[at].text[lang]!r})" for at in named]
    more = count - len(named)
    listed = ", ".join(pairs[:-1]) + (f", {pairs[-1]}" if more else f" and {pairs[-1]}")
    return (
        f"{view.label()} ({lang}): {source} uses {count:,} glossary terms whose {lang} terms "
        f"it lacks: {listed}" + (f" and {more:,} more" if more else "")
    )


def _listed(terms: Sequence[Any], lang: str) -> tuple[tuple[str, int], ...]:
    """The terms' texts and forms in `lang`, each with the term's index (its group): what
    `finder` makes the language's table of."""
    return tuple(
        (said, at)
        for at, term in enumerate(terms)
        for said in (term.text.get(lang) or "", *term.forms.get(lang, ()))
    )


def _kept(kept: Any, terms: Sequence[Any]) -> Unmet:
    """A kept `Unmet`, checked to name translations of terms."""
    lang, named, count = kept
    if (
        not isinstance(named, list)
        or not isinstance(count, int)
        or not 0 < len(named) <= min(count, MAX_NAMED)
        or len(named) < min(count, MAX_NAMED)
    ):
        raise ValueError("not what the check keeps")
    for at in named:
        if not isinstance(at, int) or not 0 <= at < len(terms) or lang not in terms[at].text:
            raise ValueError("not a term")
    return lang, named, count


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
