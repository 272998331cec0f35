"""The glossary's own findings (T009 terms translated two ways or sharing a translation,
T018 its size: toolkit.checks.translation.glossary._glossary_alone) read the glossary and
game.yaml alone, no content file: kept whole between `validate` runs (toolkit.checks.
framed), so one card edit works none of them out again; a glossary edit is seen, as
without the cache."""

from __future__ import annotations

import json

from tests.file_walks import CARD, checked_copy, walked
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.checks.translation import glossary


def test_a_card_edit_looks_at_no_term_and_a_glossary_edit_is_seen(cache, tmp_path, monkeypatch):  # noqa: F811
    copy, deck = checked_copy(tmp_path)
    looked = walked(monkeypatch, glossary, "_conflicts")
    text = deck.read_text("utf-8")
    deck.write_text(text.replace(CARD, "en: Your Glenlivet bottle scores +{amount} more."))
    cached_run = _run(str(copy), "-f", "json")
    assert looked == []
    assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
    words = copy / "glossary.yaml"
    terms = words.read_text("utf-8")
    assert terms.count("en: Islands\n") == 1
    words.write_text(terms.replace("en: Islands\n", "en: Ireland\n"), "utf-8")  # shared
    looked.clear()
    cached_run = _run(str(copy), "-f", "json")
    assert len(looked) == 1
    assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
    said = [d["message"] for d in json.loads(cached_run[1]) if d["code"] == "T009"]
    assert len(said) == 1 and "'Ireland'" in said[0], said
