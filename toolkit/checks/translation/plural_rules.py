"""CLDR plural rules, read without loading a whole locale.

Babel's `Locale.plural_form` loads the locale's entire data merged over the root locale's,
and unpickling it imports babel.dates and babel.numbers: ~8 ms per language, the largest
part of the translation checks on a deck in three languages. The rule itself lies in the
language's own data file: this reads that file (and its parents', if it has none) with
every Babel class but the plural rule's left unbuilt, and answers exactly as Babel does.

Even so, unpickling a language's data file to reach its rule costs ~5 ms (three languages: ~2 %
of a cold build of 100 cards): the rule's CLDR texts (`{"one": "i in 0..1", ...}`) are kept in
the user cache (toolkit.usercache: a private folder, HMAC-checked entries, the template cache's
rules), keyed by Babel's version and the data file's size and time, and the rule is made again
from them, as Babel made it from CLDR. A text is kept only when the rule made from it is the
very rule of the file (the same parsed tree); anything else means no cache, the same rule.
"""

from __future__ import annotations

import json
import os
import pickle
from functools import cache
from typing import TYPE_CHECKING, Any

from toolkit.usercache import SignedStore

if TYPE_CHECKING:  # Babel is imported by the first rule asked (a gate may ask none)
    from babel.plural import PluralRule

ENTRY = "plural-rules.json"
MAX_BYTES = 256 * 1024
KEEP_BYTES = 4 * 1024 * 1024
_KEPT: dict[str, Any] = {}
"""The store and what it holds ("rules": data file key → the rule's CLDR texts)."""


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
    import babel
    from babel.localedata import resolve_locale_filename
    from babel.plural import PluralRule

    path = resolve_locale_filename(name)
    info = os.stat(path)
    key = f"{babel.__version__}|{name}|{info.st_size}|{info.st_mtime_ns}"
    texts = _kept().get(key)
    if isinstance(texts, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in texts.items()
    ):
        try:
            return PluralRule(texts)
        except Exception:  # a text Babel cannot parse: read the file
            pass
    with open(path, "rb") as handle:
        data = _RulesOnly(handle).load()
    rule = data.get("plural_form") if isinstance(data, dict) else None
    if not isinstance(rule, PluralRule):
        return None
    _keep(key, rule)
    return rule


def _kept() -> dict[str, Any]:
    """The kept rules' texts by data file ({} without a trustworthy store)."""
    if "rules" not in _KEPT:
        store = _KEPT["store"] = SignedStore.open("plurals", MAX_BYTES, KEEP_BYTES)
        payload = store.read(ENTRY) if store is not None else None
        try:
            found = json.loads(payload) if payload else {}
        except ValueError:
            found = {}
        _KEPT["rules"] = found if isinstance(found, dict) else {}
    rules: dict[str, Any] = _KEPT["rules"]
    return rules


def _keep(key: str, rule: PluralRule) -> None:
    """Keep `rule`'s texts when the rule made again from them is the very same rule."""
    import babel
    from babel.plural import PluralRule

    texts = rule.rules
    try:
        same = PluralRule(texts).abstract == rule.abstract
    except Exception:  # Babel cannot read back its own text: not kept
        same = False
    store = _KEPT.get("store")
    if not same or store is None:
        return
    version = f"{babel.__version__}|"  # another Babel's rules are not kept along
    kept = {k: v for k, v in _kept().items() if k.startswith(version)}
    _KEPT["rules"] = {**kept, key: texts}
    store.write(ENTRY, json.dumps(_KEPT["rules"], sort_keys=True).encode())


@cache
def plural_rule(lang: str) -> PluralRule:
    """The CLDR plural rule of `lang`, as `Locale.parse(lang).plural_form` (which raises
    for an unknown language, as this does)."""
    from babel.core import Locale, get_global

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
