"""CLDR plural rules, read without loading a whole locale.

Babel's `Locale.plural_form` loads the locale's entire data merged over the root locale's,
and unpickling it imports babel.dates and babel.numbers: ~8 ms per language, the largest
part of the translation checks on a deck in three languages. The rule itself lies in the
language's own data file: this reads that file (and its parents', if it has none) with
every Babel class but the plural rule's left unbuilt, and answers exactly as Babel does.
"""

from __future__ import annotations

import pickle
from functools import cache
from typing import Any

from babel.core import Locale, get_global
from babel.localedata import resolve_locale_filename
from babel.plural import PluralRule


class _Unbuilt:
    """Stands for any object of locale data other than a plural rule (never used)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def __setstate__(self, state: Any) -> None:
        pass


class _RulesOnly(pickle.Unpickler):
    """Babel's own data file, its plural rule built and its other Babel objects not."""

    def find_class(self, module: str, name: str) -> Any:
        if module.split(".")[0] == "babel" and module != "babel.plural":
            return _Unbuilt
        return super().find_class(module, name)


def _own_rule(name: str) -> PluralRule | None:
    with open(resolve_locale_filename(name), "rb") as handle:
        data = _RulesOnly(handle).load()
    rule = data.get("plural_form") if isinstance(data, dict) else None
    return rule if isinstance(rule, PluralRule) else None


@cache
def plural_rule(lang: str) -> PluralRule:
    """The CLDR plural rule of `lang`, as `Locale.parse(lang).plural_form` (which raises
    for an unknown language, as this does)."""
    name = str(Locale.parse(lang))
    try:
        while True:  # the locale, then its parents, as Babel merges them
            rule = _own_rule(name)
            if rule is not None:
                return rule
            if name == "root":
                break
            parent = get_global("parent_exceptions").get(name)
            name = parent or ("root" if "_" not in name else name.rsplit("_", 1)[0])
    except (OSError, pickle.UnpicklingError, EOFError):
        pass
    return Locale.parse(lang).plural_form  # no rule of its own anywhere: Babel's default
