"""R008 (a content file the game does not list, toolkit.checks.references._unlisted) reads
the game folder's listing and game.yaml, no content file: kept whole between `validate`
runs (toolkit.checks.framed), so one card edit lists no folder again; a file added to a
content folder is still found, as without the cache."""

from __future__ import annotations

import json

from tests.file_walks import CARD, checked_copy, walked
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.checks import references


def test_an_edit_lists_no_folder_and_a_file_added_is_found(cache, tmp_path, monkeypatch):  # noqa: F811
    copy, deck = checked_copy(tmp_path)
    listed = walked(monkeypatch, references, "_unlisted")
    text = deck.read_text("utf-8")
    deck.write_text(text.replace(CARD, "en: Your Glenlivet bottle scores +{amount} more."))
    cached_run = _run(str(copy), "-f", "json")
    assert listed == []
    assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
    (copy / "decks" / "stray.yaml").write_text("id: stray\n", "utf-8")
    listed.clear()
    cached_run = _run(str(copy), "-f", "json")
    assert len(listed) == 1
    assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
    said = [d["message"] for d in json.loads(cached_run[1]) if d["code"] == "R008"]
    assert len(said) == 1 and "decks/stray.yaml" in said[0], said
