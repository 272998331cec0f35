"""The plural agreement check (T017, toolkit.checks.translation.plurals) skips a file whose
every card text had nothing to say in the last run: after one card edit only the edited
file's card texts are looked at, and the findings are those of a run without the cache, a
disagreement the edit brings (a count made 1) included."""

from __future__ import annotations

import json

from tests.file_walks import CARD, checked_copy, walked, walks_after_an_edit
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.checks.translation import plurals


def test_an_edit_looks_at_the_edited_file_alone(cache, tmp_path, monkeypatch):  # noqa: F811
    copy, deck = checked_copy(tmp_path)
    seen = walked(monkeypatch, plurals, "_text_plurals", 0)
    cards = deck.read_text("utf-8").count("\n  - id: ")
    for edited_file, whole in walks_after_an_edit(copy, deck, seen):
        # each card's text, of the game's card texts
        assert 0 < edited_file <= cards < whole, (edited_file, whole)


def test_a_count_an_edit_makes_one_is_found_after_a_run_that_kept_its_file_clean(
    cache,  # noqa: F811
    tmp_path,
):
    copy, deck = checked_copy(tmp_path)
    text = deck.read_text("utf-8")
    at = text.index(CARD)
    amount = text.rindex("amount: 3", 0, at)
    deck.write_text(text[:amount] + "amount: 1" + text[amount + len("amount: 3") :], "utf-8")
    cached_run = _run(str(copy), "-f", "json")
    assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
    said = [d for d in json.loads(cached_run[1] or "[]") if d["code"] == "T017"]
    assert said and all("characters.yaml" in d["file"] for d in said), said
    deck.write_text(text, "utf-8")  # and back: nothing to say, as without the cache
    assert _run(str(copy), "-f", "json") == _run(str(copy), "-f", "json", "--no-cache")
