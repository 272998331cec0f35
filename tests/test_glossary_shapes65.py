"""The glossary check's kept shapes (toolkit.checks.translation.glossary._shapes_kept) cover
the glossary's kept names too (`keep: true`, blanked out of a source text before its walk):
after one card edit of the Whisky Game no term's or name's shape is worked out again (its
68 names' were, each run); a name the glossary changes is, and the findings are those of
a run without the cache."""

from __future__ import annotations

from typing import Any

from tests.file_walks import CARD, checked_copy
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.checks.translation import term_search


def _shaped(monkeypatch: Any) -> list[str]:
    """The terms whose shape is worked out from now on (none read from a process memo)."""
    shaped: list[str] = []
    real = term_search._shape.__wrapped__

    def counted(term: str) -> Any:
        shaped.append(term)
        return real(term)

    monkeypatch.setattr(term_search, "_shape", counted)
    term_search.finder.cache_clear()  # as in a process of its own: no table made yet
    return shaped


def test_an_edit_works_out_no_shape_and_a_new_name_its_own(cache, tmp_path, monkeypatch):  # noqa: F811
    copy, deck = checked_copy(tmp_path)
    shaped = _shaped(monkeypatch)
    text = deck.read_text("utf-8")
    deck.write_text(text.replace(CARD, "en: Your Glenlivet bottle scores +{amount} in Islay."))
    cached_run = _run(str(copy), "-f", "json")
    assert shaped == []
    assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
    glossary = copy / "glossary.yaml"
    words = glossary.read_text("utf-8")
    assert words.count("fr: Islay\n") == 1  # a name in the source language
    glossary.write_text(words.replace("fr: Islay\n", "fr: Islay Isle\n"), "utf-8")
    shaped.clear()
    term_search.finder.cache_clear()
    cached_run = _run(str(copy), "-f", "json")
    assert "Islay Isle" in shaped
    assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
