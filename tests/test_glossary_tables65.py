"""The glossary check's tables (each language's terms, the kept names', the translations'
together: toolkit.checks.translation.glossary._table) are kept between runs, named by what
they are made of: after one card edit of the Whisky Game the edited text is searched with
tables read back, none laid out and no kept shape decoded (~220 were, for them); the
findings are those of a run without the cache."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.file_walks import CARD, checked_copy
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.checks.translation import term_search


def _counted(monkeypatch: Any, name: str) -> list[object]:
    calls: list[object] = []
    real = getattr(term_search, name)

    def counted(*args: Any) -> Any:
        calls.append(args[0])
        return real(*args)

    monkeypatch.setattr(term_search, name, counted)
    return calls


def test_an_edit_lays_out_no_table_and_decodes_no_shape(cache, tmp_path, monkeypatch):  # noqa: F811
    copy, deck = checked_copy(tmp_path)
    term_search.finder.cache_clear()  # as in a process of its own: no table made yet
    laid, decoded = _counted(monkeypatch, "_laid"), _counted(monkeypatch, "kept_shape")
    searched = _counted(monkeypatch, "groups_used")
    text = deck.read_text("utf-8")
    deck.write_text(text.replace(CARD, "en: Your Glenlivet bottle scores +{amount} in Islay."))
    cached_run = _run(str(copy), "-f", "json")
    assert searched  # the edited text was searched
    assert laid == [] and decoded == []
    assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
    # a glossary edit: other tables, laid out (and kept), the same findings as without
    glossary = copy / "glossary.yaml"
    words = glossary.read_text("utf-8")
    glossary.write_text(words.replace("fr: Islay\n", "fr: Islay Isle\n"), "utf-8")
    term_search.finder.cache_clear()
    laid.clear()
    cached_run = _run(str(copy), "-f", "json")
    assert laid
    assert cached_run == _run(str(copy), "-f", "json", "--no-cache")


def test_a_kept_table_is_the_table_laid_out():
    terms = (("harbour market", 0), ("«Dr.»", 1), ("eau-de-vie", 2), ("l'eau", 2), ("pony", 3))
    tables = [
        term_search.finder(terms),
        term_search.finder(()),
        term_search.together((terms, (("cask", 0), ("casks", 0)))),
    ]
    for table in tables:
        again = term_search.kept_table(json.loads(json.dumps(term_search.plain_table(table))))
        assert again == table
        assert type(again.opening_sizes) is tuple and type(again.ends) is dict
    for wrong in (None, [], [{}] * 13, term_search.plain_table(tables[0])[:-1]):
        with pytest.raises(ValueError):
            term_search.kept_table(wrong)
    broken = term_search.plain_table(tables[0])
    broken[10] = [[0, ["a"], 1]]
    with pytest.raises(ValueError):
        term_search.kept_table(broken)
