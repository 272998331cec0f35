"""budget60 (issue #33): the worst game of at most 1 MB that spends every per-surface
budget at once; a surface whose unit cost more than its price is priced by what it costs."""

from __future__ import annotations

from tests.test_hardening_budget59 import wordcounts_found


def test_a_wordcount_reads_each_letter_at_a_built_letters_price(tmp_path, monkeypatch):
    # `s|wordcount` makes a text of each word (~60 ns a letter): 8 of a 99,000-letter `s` in
    # one language read 792,000 letters, past the language's share of the rulebook's
    # 2,000,000 (666,666); charged an eighth, they passed (105 a language: ~0.65 s)
    found = wordcounts_found(tmp_path, monkeypatch, 8)
    r010 = [d for d in found if d["code"] == "R010"]
    assert len(r010) == 1 and r010[0]["file"].endswith("rulebook/en.md"), found
    assert "more than 666,666 characters and items" in r010[0]["message"]


def test_a_few_wordcounts_of_a_rulebook_pass(tmp_path, monkeypatch):
    found = wordcounts_found(tmp_path, monkeypatch, 5)
    assert not [d for d in found if d["code"] == "R010"], found
