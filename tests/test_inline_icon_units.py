"""The inline icon check of content texts (P007, toolkit.checks.inline_icons) skips a file
whose every text had nothing to say in the last run: after one card edit only the edited
file's texts are read, and the findings are those of a run without the cache, an unknown
or glued icon the edit brings included."""

from __future__ import annotations

import json

from tests.file_walks import CARD, checked_copy, walked, walks_after_an_edit
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.checks import inline_icons


def test_an_edit_reads_the_edited_file_alone(cache, tmp_path, monkeypatch):  # noqa: F811
    copy, deck = checked_copy(tmp_path)
    seen = walked(monkeypatch, inline_icons, "_text_icons", 0)
    cards = deck.read_text("utf-8").count("\n  - id: ")
    for edited_file, whole in walks_after_an_edit(copy, deck, seen):
        # the deck's name and each card's name and text, of the game's ~1,000 texts
        assert 0 < edited_file <= 2 * cards + 1 < whole, (edited_file, whole)


def test_an_icon_an_edit_brings_is_found_after_a_run_that_kept_its_file_clean(
    cache,  # noqa: F811
    tmp_path,
):
    copy, deck = checked_copy(tmp_path)
    text = deck.read_text("utf-8")
    for icon in (":nosuchicon:", "x:die:"):
        deck.write_text(text.replace(CARD, CARD.replace("points", f"points {icon}")), "utf-8")
        cached_run = _run(str(copy), "-f", "json")
        assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
        said = [d for d in json.loads(cached_run[1] or "[]") if d["code"] == "P007"]
        assert said and all("characters.yaml" in d["file"] for d in said), said
    deck.write_text(text, "utf-8")  # and back: nothing to say, as without the cache
    assert _run(str(copy), "-f", "json") == _run(str(copy), "-f", "json", "--no-cache")
