"""The presence check (T001-T004, toolkit.checks.translation.presence) skips a file whose
every text had nothing to say in the last run: after one card edit only the edited file's
texts are looked at, and the findings are those of a run without the cache, a text the
edit leaves untranslated or empty included."""

from __future__ import annotations

import json

from tests.file_walks import CARD, checked_copy, walked, walks_after_an_edit
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.checks.translation import presence


def test_an_edit_looks_at_the_edited_file_alone(cache, tmp_path, monkeypatch):  # noqa: F811
    copy, deck = checked_copy(tmp_path)
    seen = walked(monkeypatch, presence, "_text_findings", 1)
    cards = deck.read_text("utf-8").count("\n  - id: ")
    for edited_file, whole in walks_after_an_edit(copy, deck, seen):
        # the deck's name and each card's name and text, of the game's ~1,000 texts
        assert 0 < edited_file <= 2 * cards + 1 < whole, (edited_file, whole)


def test_a_text_left_untranslated_is_found_after_a_run_that_kept_its_file_clean(
    cache,  # noqa: F811
    tmp_path,
):
    copy, deck = checked_copy(tmp_path)
    text = deck.read_text("utf-8")
    start = text.index(CARD)
    french = text.rindex("fr: ", 0, start)
    line_end = text.index("\n", french)
    same = "fr: " + CARD.removeprefix("en: ")
    for edited in (
        text[:french] + same + text[line_end:],
        text[:french] + "fr: ''" + text[line_end:],
    ):
        deck.write_text(edited, "utf-8")
        cached_run = _run(str(copy), "-f", "json")
        assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
        said = [d for d in json.loads(cached_run[1] or "[]") if d["code"] in ("T002", "T004")]
        assert len(said) == 1, said
    deck.write_text(text, "utf-8")  # and back: nothing to say, as without the cache
    assert _run(str(copy), "-f", "json") == _run(str(copy), "-f", "json", "--no-cache")
