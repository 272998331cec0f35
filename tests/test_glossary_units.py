"""The glossary check (T004, toolkit.checks.translation.glossary) skips a file whose every
text used the glossary's terms as its translations do, with the same glossary: after one
card edit only the edited file's texts are looked up, and the findings are those of a run
without the cache, a term the edit leaves untranslated included."""

from __future__ import annotations

import json
import shutil

from tests.conftest import REPO
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.checks.translation import glossary


def test_an_edit_looks_up_the_edited_file_alone(cache, tmp_path, monkeypatch):  # noqa: F811
    copy = tmp_path / "whisky-game"
    shutil.copytree(REPO / "content" / "whisky-game", copy)
    _run(str(copy))
    looked: list[dict[str, str]] = []
    real = glossary.cached

    def cached(kind, args, *rest):  # type: ignore[no-untyped-def]
        looked.append(args[1])
        return real(kind, args, *rest)

    monkeypatch.setattr(glossary, "cached", cached)
    deck = copy / "decks" / "characters.yaml"
    text = deck.read_text("utf-8")
    card = "en: Your Glenlivet bottle scores +{amount} points."
    assert card in text
    cards = text.count("\n  - id: ")
    for edited in ("en: Your Glenlivet bottle scores +{amount} extra points.", card):
        deck.write_text(text.replace(card, edited), "utf-8")
        looked.clear()
        cached_run = _run(str(copy), "-f", "json")
        edited_file = len(looked)
        looked.clear()
        assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
        # the deck's name and each card's name and text, of the game's ~1,000 texts
        assert 0 < edited_file <= 2 * cards + 1 < len(looked), (edited_file, len(looked))


def test_an_untranslated_term_is_found_in_a_file_kept_clean(cache, tmp_path):  # noqa: F811
    copy = tmp_path / "whisky-game"
    shutil.copytree(REPO / "content" / "whisky-game", copy)
    _run(str(copy))
    terms = copy / "glossary.yaml"
    said = json.loads(_run(str(copy), "-f", "json", "--no-cache")[1] or "[]")
    before = [d for d in said if d["code"] == "T004"]
    # a glossary edit: every file is looked up again (no file is known clean for it)
    terms.write_text(terms.read_text("utf-8") + "\n", "utf-8")
    cached_run = _run(str(copy), "-f", "json")
    assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
    assert [d for d in json.loads(cached_run[1] or "[]") if d["code"] == "T004"] == before
