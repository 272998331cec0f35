"""Every localized text exists, non-empty, in every language the game declares, and is
actually translated (not a copy of the source, unless it is a name that stays the same)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache, cached_property, partial
from typing import TYPE_CHECKING, Any

from toolkit.checks.translation.common import entry_label, prose
from toolkit.content.game import Game
from toolkit.content.unit_cache import Clean
from toolkit.content.walk import Facts, Text
from toolkit.diagnostics import Diagnostic, Severity, rule

if TYPE_CHECKING:  # the term search is imported when a text may be a name that stays
    from toolkit.checks.translation.term_search import Finder

T_MISSING = rule("T001", "missing-language", "A localized text lacks one of the game's languages.")
T_EMPTY = rule("T002", "empty-text", "A localized text is empty in some language.")
T_UNTRANSLATED = rule(
    "T004",
    "untranslated",
    "A text is identical to the source language (and is not a glossary name that stays).",
    Severity.WARNING,
)
T_EXTRA = rule(
    "T003",
    "undeclared-language",
    "A localized text has a language the game does not declare.",
    Severity.WARNING,
)


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    """T001-T004 of every text. With `validate`'s units active, a file whose every text had
    nothing to say in the last run is skipped whole when nothing it is read from changed
    (toolkit.content.unit_cache.Clean by file): a text's findings are a function of its
    values and the game's languages, source language and glossary (the manifest's and the
    glossary's bytes are in each file's name in the frame). After one card edit only the
    edited file's texts are looked at."""
    if game.manifest is None:
        return
    languages = list(game.manifest.languages)
    source = game.manifest.source_language
    kept = _kept_names(game)
    names = _Names(tuple((name, 0) for name in sorted(kept)))
    # a text aliased at many places is looked at once
    may_stay = cache(partial(_may_stay, kept=kept, names=names))
    glossary_file = game.glossary.rel if game.glossary else None
    clean = Clean("clean-presence")
    for loaded, texts in facts.by_file():
        if clean.on and clean.file_seen(loaded):
            continue  # every text of its file clean, and nothing they are read from changed
        for text in texts:
            said = False
            for found in _text_findings(game, text, languages, source, glossary_file, may_stay):
                said = True
                yield found
            if clean.on:  # (the file is what is kept: no digest of each text)
                clean.noted(loaded, "", not said)
    clean.close()
    yield from _rules_texts(game, facts)


def _text_findings(
    game: Game,
    text: Text,
    languages: list[str],
    source: str,
    glossary_file: str | None,
    may_stay: Callable[[str], bool],
) -> Iterator[Diagnostic]:
    """T001-T004 of one text."""
    is_glossary = text.file.rel == glossary_file
    doc = text.file.doc
    assert doc is not None
    missing = [lang for lang in languages if lang not in text.value]
    if missing:
        field = entry_label(text.file, text.path)
        yield T_MISSING.at(
            text.file.rel,
            doc.key_span(text.path),
            f"{field} has no {', '.join(missing)} text",
        )
    for lang, value in text.value.items():
        if lang not in languages:
            yield T_EXTRA.at(
                text.file.rel,
                doc.key_span((*text.path, lang)),
                f"language {lang!r} is not in the game's languages ({', '.join(languages)})",
            )
        elif not value.strip():
            yield T_EMPTY.at(text.file.rel, doc.span((*text.path, lang)), f"empty {lang} text")
        elif (
            lang != source
            and not is_glossary
            and not game.glossary_failed  # which names stay is the glossary's to say
            and value == text.value.get(source)
            and not may_stay(value)
        ):
            yield T_UNTRANSLATED.at(
                text.file.rel,
                doc.span((*text.path, lang)),
                f"{lang} text is the same as {source}: {value[:50]!r}",
            )


def _rules_texts(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    """T003 at each language of a text in the game's free rules tree (`intro: {de: Hallo}`)
    that has none of the game's languages: a template printing it has no text to print;
    T001 and T002 at a text that has some of them but lacks one or leaves one empty. A
    dict is taken for such a text only if every key is a language Babel knows and every
    value a string (`dice: {red: d6, blu: d8}` is no text); texts the model marks as
    localized are the other checks' (`facts.texts`)."""
    loaded = game.manifest_file
    manifest = game.manifest
    if loaded is None or loaded.doc is None or manifest is None:
        return
    data = loaded.doc.data
    rules = data.get("rules") if isinstance(data, dict) else None
    if not isinstance(rules, dict):
        return
    languages = list(manifest.languages)
    marked = {text.path for file, texts in facts.by_file() if file is loaded for text in texts}
    said: set[tuple[int, int]] = set()  # a text aliased at many paths is said once, where it is
    for path, value in text_like(rules, ("rules",), set()):
        if path in marked:
            continue
        name = ".".join(str(step) for step in path)
        if any(lang in value for lang in languages):
            # a text as templates print it (toolkit.render.context): one language missing
            # printed nothing in it, while validate said clean
            if missing := [lang for lang in languages if lang not in value]:
                yield T_MISSING.at(
                    loaded.rel,
                    loaded.doc.key_span(path),
                    f"`{name}` has no {', '.join(missing)} text",
                )
            for lang in languages:  # printed as nothing, as an empty card text would be
                if lang in value and not value[lang].strip():
                    span = loaded.doc.span((*path, lang))
                    yield T_EMPTY.at(loaded.rel, span, f"`{name}` has an empty {lang} text")
            continue
        if not set(value) <= _known_languages():
            continue
        for lang in value:
            span = loaded.doc.key_span((*path, lang))
            place = (span.line, span.col)
            if place in said:
                continue
            said.add(place)
            yield T_EXTRA.at(
                loaded.rel,
                span,
                f"language {lang!r} is not in the game's languages ({', '.join(languages)}):"
                f" `{name}` has a text in none of them, so it has nothing to print",
            )


def text_like(
    value: Any, path: tuple[Any, ...], seen: set[int]
) -> Iterator[tuple[tuple[Any, ...], dict[str, str]]]:
    """The dicts under `value` whose keys look like language codes (two or three lower-case
    letters) and whose values are strings; each node (an alias's many paths to it) walked
    once, at the first path met (`seen`: their ids)."""
    if isinstance(value, (dict, list)):
        if id(value) in seen:
            return
        seen.add(id(value))
    if isinstance(value, dict):
        if value and all(
            isinstance(key, str)
            and isinstance(text, str)
            and len(key) in (2, 3)
            and key.isalpha()
            and key.islower()
            for key, text in value.items()
        ):
            yield path, value
            return
        for key, item in value.items():
            yield from text_like(item, (*path, key), seen)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from text_like(item, (*path, index), seen)


@cache
def _known_languages() -> frozenset[str]:
    """The language codes Babel has data for (`de`, `fil`; not `red` or `hp`)."""
    from babel.localedata import locale_identifiers

    return frozenset(name.split("_")[0] for name in locale_identifiers())


def _kept_names(game: Game) -> set[str]:
    """Words that may read the same in two languages: glossary names marked `keep`, and
    glossary terms whose translation happens to be spelt like the source (bonus, temple)."""
    if not game.glossary or game.glossary.model is None or game.manifest is None:
        return set()
    source = game.manifest.source_language
    kept: set[str] = set()
    for term in game.glossary.model.terms:
        for lang, value in term.text.items():
            if term.keep or (lang != source and value == term.text.get(source)):
                kept.add(value.casefold())
    return kept


class _Names:
    """The kept names as one table, made when a text needs the walk (`table`), and the
    words their pieces may be (`forms`), known before the walk: a text with a word none of
    them has needs no walk, and a game whose every such text has one, no table (a glossary
    of 20,000 words takes ~0.1 s to lay out). Both are made on first use: a game whose
    texts are all short or kept never imports the term search."""

    def __init__(self, listed: tuple[tuple[str, int], ...]) -> None:
        self.listed = listed

    @cached_property
    def forms(self) -> frozenset[str]:
        """The words the names' pieces may be (worked out when a text first needs them)."""
        from toolkit.checks.translation.term_search import piece_forms

        return piece_forms(self.listed)

    @cached_property
    def table(self) -> Finder:
        from toolkit.checks.translation.term_search import finder

        return finder(self.listed)


def _may_stay(value: str, kept: set[str], names: Finder | _Names) -> bool:
    """Short tokens, numbers, glossary names, placeholders and inline icons may read the same
    in every language (`+{coins} :doubloon:` has no word to translate). `names`: the kept
    names as one table, found as the glossary check finds terms (all in one walk of the
    text: a pattern per name took the names times the text, 96 s for 96 kB, probe 33)."""
    bare = prose(value).strip()
    if len(bare) <= 3 or not any(ch.isalpha() for ch in bare) or bare.casefold() in kept:
        return True
    from toolkit.checks.translation.term_search import spaced, strange

    if strange(names.forms, bare):  # a word no name has: it stays, with its letters
        return False
    table = names.table if isinstance(names, _Names) else names
    return not any(ch.isalpha() for ch in spaced(table, bare))
