"""The placeholder check (R006, toolkit.checks.references) skips a file whose every text
had nothing to say in the last run, none of them a phrase: after one card edit only the
edited file's texts are looked through, and the findings are those of a run without the
cache, a placeholder the edit misspells included."""

from __future__ import annotations

import json

from tests.file_walks import CARD, checked_copy, walked, walks_after_an_edit
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.checks import references


def test_an_edit_looks_through_the_edited_file_alone(cache, tmp_path, monkeypatch):  # noqa: F811
    copy, deck = checked_copy(tmp_path)
    seen = walked(monkeypatch, references, "_check_text", 0)
    cards = deck.read_text("utf-8").count("\n  - id: ")
    for edited_file, whole in walks_after_an_edit(copy, deck, seen):
        # the deck's name and each card's name and text, of the game's ~1,000 texts
        assert 0 < edited_file <= 2 * cards + 1 < whole, (edited_file, whole)


def test_a_misspelt_placeholder_is_found_after_a_run_that_kept_its_file_clean(
    cache,  # noqa: F811
    tmp_path,
):
    copy, deck = checked_copy(tmp_path)
    text = deck.read_text("utf-8")
    deck.write_text(text.replace(CARD, CARD.replace("{amount}", "{amout}")), "utf-8")
    cached_run = _run(str(copy), "-f", "json")
    assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
    said = [d for d in json.loads(cached_run[1] or "[]") if d["code"] == "R006"]
    assert len(said) == 1 and "{amout}" in said[0]["message"], said
    deck.write_text(text, "utf-8")  # and back: nothing to say, as without the cache
    assert _run(str(copy), "-f", "json") == _run(str(copy), "-f", "json", "--no-cache")
