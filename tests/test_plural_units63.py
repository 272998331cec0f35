"""A number's plural category in a language is kept between `validate` runs (unit kind
`plural-category`): after one card edit Babel is not imported for its plural rules. The
unit is named by the language and the number: another of either is worked out afresh."""

from __future__ import annotations

import json

from toolkit.checks.translation import plurals
from toolkit.content import unit_cache
from toolkit.content.unit_cache import Units


def _asked(monkeypatch) -> list[tuple[str, int]]:
    """The (language, number) pairs whose category is worked out from Babel's rules."""
    asked: list[tuple[str, int]] = []
    real = plurals._cldr_category

    def counted(lang: str, value: int) -> str:
        asked.append((lang, value))
        return real(lang, value)

    monkeypatch.setattr(plurals, "_cldr_category", counted)
    return asked


def _kept(units: Units) -> Units:
    return Units(json.loads(json.dumps(units.used)))  # as the next run reads them


def test_a_category_is_read_back_by_its_language_and_number(monkeypatch) -> None:
    asked = _asked(monkeypatch)
    first = Units()
    with unit_cache.activated(first):
        assert [plurals._category("fr", 1), plurals._category("en", 1)] == ["one", "one"]
        assert plurals._category("en", 2) == "other"
    assert asked == [("fr", 1), ("en", 1), ("en", 2)]
    asked.clear()
    with unit_cache.activated(_kept(first)):
        assert [plurals._category("fr", 1), plurals._category("en", 1)] == ["one", "one"]
        assert plurals._category("en", 2) == "other"
    assert asked == [], "read back, not worked out"


def test_another_number_or_language_is_worked_out(monkeypatch) -> None:
    asked = _asked(monkeypatch)
    first = Units()
    with unit_cache.activated(first):
        assert plurals._category("en", 1) == "one"
    asked.clear()
    with unit_cache.activated(_kept(first)):
        assert plurals._category("en", 0) == "other"  # not the kept "one" of 1
        assert plurals._category("fr", 0) == "one"  # French counts 0 as one
        assert plurals._category("es", 1) == "one"
    assert asked == [("en", 0), ("fr", 0), ("es", 1)]


def test_a_kept_value_that_is_no_category_is_worked_out_again(monkeypatch) -> None:
    asked = _asked(monkeypatch)
    first = Units()
    with unit_cache.activated(first):
        plurals._category("en", 1)
    tampered = {name: "plenty" for name in first.used}
    asked.clear()
    with unit_cache.activated(Units(tampered)):
        assert plurals._category("en", 1) == "one"
    assert asked == [("en", 1)]


def test_without_units_every_category_is_babel_s(monkeypatch) -> None:
    asked = _asked(monkeypatch)
    plurals._category.cache_clear()
    assert plurals._category("en", 1) == "one"
    assert plurals._category("fr", 1) == "one"
    assert asked == [("en", 1), ("fr", 1)]
    plurals._category.cache_clear()
