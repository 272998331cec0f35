"""Plural agreement: a count printed before a noun must agree with the CLDR plural category
of its value in that language (Babel). French counts 0 and 1 as "one"; English only 1."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import cache

from toolkit.checks import wanted
from toolkit.checks.translation.common import TextView, by_file
from toolkit.checks.translation.plural_rules import plural_rule
from toolkit.content.unit_cache import Clean, cached, fresh_each_run
from toolkit.diagnostics import Diagnostic, Severity, rule

T_PLURAL = rule(
    "T017",
    "plural-agreement",
    "A noun after a count disagrees with the count's plural form.",
    Severity.WARNING,
)

COUNTED = re.compile(r"\{([a-z_.0-9]+)\}[ \u00a0\u202f]+([^\W\d_]+)")
NOT_PLURAL = {
    "fr": {
        "fois",
        "pas",
        "plus",
        "mois",
        "dos",
        "bras",
        "prix",
        "choix",
        "sans",
        "dans",
        "sous",
        "des",
        "les",
        "ses",
        "vos",
        "nos",
        "leurs",
    },
    "es": {"más", "menos", "lunes", "dos", "tres", "seis", "las", "los", "sus", "tus"},
    "en": {"is", "was", "has", "this", "plus", "across"},
}


@cache
def _category(lang: str, value: int) -> str:
    """The CLDR plural category of `value` in `lang`. With `validate`'s units active, kept
    between runs (kind `plural-category`: the language and the number; Babel, an installed
    package, is in the units' head): after one card edit the edited file's counts are read
    back, and Babel is not imported for its rules (~6 ms of the run, its locale data aside)."""
    return cached("plural-category", [lang, value], lambda: _cldr_category(lang, value), str, _name)


fresh_each_run(_category.cache_clear)


def _cldr_category(lang: str, value: int) -> str:
    try:
        return str(plural_rule(lang)(value))
    except Exception:  # unknown locale: no opinion
        return "other"


def _name(kept: object) -> str:
    if type(kept) is not str or kept not in _CATEGORIES:
        raise ValueError("not a plural category")
    return kept


_CATEGORIES = frozenset({"zero", "one", "two", "few", "many", "other"})
"""CLDR's plural categories: all a rule answers (Babel's `PluralRule`)."""


def _looks_plural(lang: str, word: str) -> bool:
    lower = word.lower()
    if lower in NOT_PLURAL.get(lang, set()):
        return False
    return lower.endswith(("s", "x")) if lang == "fr" else lower.endswith("s")


def check(texts: Sequence[TextView]) -> Iterator[Diagnostic]:
    """T009 of every card text. With `validate`'s units active, a file whose every card text
    had nothing to say in the last run is skipped whole when nothing it is read from changed
    (toolkit.content.unit_cache.Clean by file): a text's findings are a function of its
    values and its card's parameters, both in its file; a file without card texts is
    clean (which texts are card texts is told by its model). After one card edit only the
    edited file's card texts are looked at (and their cards' parameters worked out)."""
    if not wanted(T_PLURAL):
        return  # a warning: not for the validity gate
    clean = Clean("clean-plurals")
    for loaded, run in by_file(texts):
        if clean.on and clean.file_seen(loaded):
            continue  # every card text of its file clean, and nothing it is read from changed
        cards = False
        for view in run:
            if not view.is_card_text:
                continue
            cards = True
            said = False
            for found in _text_plurals(view):
                said = True
                yield found
            if clean.on:
                clean.noted(loaded, "", not said)
        if clean.on and not cards:  # a file without card texts (which its model tells)
            clean.noted(loaded, "", True)  # is clean too: not even told card texts again
    clean.close()


def _text_plurals(view: TextView) -> Iterator[Diagnostic]:
    """T009 of one card text: at most one a language."""
    values = view.parameters
    for lang, value in view.values.items():
        for match in COUNTED.finditer(value):
            shown = values.get(match.group(1), "")
            if not shown.isdigit():
                continue
            count, word = int(shown), match.group(2)
            if _category(lang, count) == "one" and _looks_plural(lang, word):
                yield T_PLURAL.at(
                    view.file,
                    view.span(lang),
                    f"{view.label()} ({lang}): {{{match.group(1)}}} is {count} "
                    f"(CLDR '{_category(lang, count)}') but {word!r} looks plural",
                )
                break
