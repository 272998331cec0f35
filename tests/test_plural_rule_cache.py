"""The CLDR plural rules the translation checks read are kept in the user cache: a later run
makes each rule from its kept texts instead of unpickling the language's data file, and
answers exactly as Babel's own rule."""

from __future__ import annotations

from decimal import Decimal

import pytest

from toolkit.checks.translation import plural_rules

LANGUAGES = ("fr", "es", "en", "de", "ru", "pl", "ar", "cy", "ga", "he", "lt", "sl", "mt", "br")


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """A process's first look at the rules, with its own user cache folder."""
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path))
    monkeypatch.setattr(plural_rules, "_KEPT", {})
    plural_rules.plural_rule.cache_clear()
    yield tmp_path
    plural_rules.plural_rule.cache_clear()


def _files_read(monkeypatch) -> list[str]:
    read: list[str] = []
    real = plural_rules._RulesOnly

    class Counting(real):  # type: ignore[misc, valid-type]
        def __init__(self, handle):
            read.append(handle.name)
            super().__init__(handle)

    monkeypatch.setattr(plural_rules, "_RulesOnly", Counting)
    return read


def _again(monkeypatch) -> None:
    """The next run: nothing in memory, the user cache as the last run left it."""
    monkeypatch.setattr(plural_rules, "_KEPT", {})
    plural_rules.plural_rule.cache_clear()


def test_a_second_run_makes_the_rules_without_reading_the_data_files(fresh, monkeypatch):
    from babel import Locale

    read = _files_read(monkeypatch)
    first = {lang: plural_rules.plural_rule(lang) for lang in LANGUAGES}
    assert len(read) >= len(LANGUAGES)
    _again(monkeypatch)
    read.clear()
    second = {lang: plural_rules.plural_rule(lang) for lang in LANGUAGES}
    assert read == []
    for lang in LANGUAGES:
        theirs = Locale.parse(lang).plural_form
        assert second[lang].abstract == first[lang].abstract == theirs.abstract, lang
        for value in [*range(0, 130), 1000, 1001, 10**6, 1.5, Decimal("2.0")]:
            assert second[lang](value) == theirs(value), (lang, value)


def test_a_tampered_or_foreign_entry_is_ignored(fresh, monkeypatch):
    plural_rules.plural_rule("fr")
    entry = fresh / "playset" / "plurals" / plural_rules.ENTRY
    data = bytearray(entry.read_bytes())
    data[-5] ^= 1  # a byte of the texts changed: the HMAC no longer checks out
    entry.write_bytes(bytes(data))
    _again(monkeypatch)
    read = _files_read(monkeypatch)
    assert plural_rules.plural_rule("fr")(0) == "one"
    assert len(read) == 1  # the file read again, and its rule kept anew
    _again(monkeypatch)
    read.clear()
    assert plural_rules.plural_rule("fr")(2) == "other"
    assert read == []


def test_an_unusable_cache_folder_means_the_data_files(fresh, monkeypatch, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("PLAYSET_CACHE", str(blocker / "x"))
    read = _files_read(monkeypatch)
    assert plural_rules.plural_rule("en")(1) == "one"
    _again(monkeypatch)
    assert plural_rules.plural_rule("en")(1) == "one"
    assert len(read) == 2
