"""The text-direction check (P017, toolkit.checks.text_direction) skips a file whose every
text had nothing to say in the last run: after one card edit only the edited file's texts
are searched, and the findings are those of a run without the cache, a right-to-left letter
the edit brings included."""

from __future__ import annotations

import json
import shutil

from tests.conftest import REPO
from tests.file_walks import checked_copy
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.checks import text_direction

CARD = "en: Your Glenlivet bottle scores +{amount} points."


def _looked_at(monkeypatch) -> list[object]:  # type: ignore[no-untyped-def]
    looked: list[object] = []
    real = text_direction._text_findings

    def counted(text, doc):  # type: ignore[no-untyped-def]
        looked.append(text)
        return real(text, doc)

    monkeypatch.setattr(text_direction, "_text_findings", counted)
    return looked


def test_an_edit_searches_the_edited_file_alone(cache, tmp_path, monkeypatch):  # noqa: F811
    copy, deck = checked_copy(tmp_path)
    looked = _looked_at(monkeypatch)
    text = deck.read_text("utf-8")
    assert CARD in text
    cards = text.count("\n  - id: ")
    for edited in ("en: Your Glenlivet bottle scores +{amount} extra points.", CARD):
        deck.write_text(text.replace(CARD, edited), "utf-8")
        looked.clear()
        cached_run = _run(str(copy), "-f", "json")
        edited_file = {id(t.file) for t in looked}  # type: ignore[attr-defined]
        searched = len(looked)
        looked.clear()
        assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
        # the deck's name and each card's name and text, of the game's ~1,000 texts
        assert 0 < searched <= 2 * cards + 1 < len(looked), (searched, len(looked))
        assert len(edited_file) == 1


def test_a_right_to_left_letter_an_edit_brings_is_found(cache, tmp_path):  # noqa: F811
    copy = tmp_path / "whisky-game"
    shutil.copytree(REPO / "content" / "whisky-game", copy)
    assert _run(str(copy))[0] == 0  # every file kept clean
    deck = copy / "decks" / "characters.yaml"
    text = deck.read_text("utf-8")
    start = text.index(CARD)
    french = text.rindex("fr: ", 0, start)
    edited = text[: french + 4] + "\u05e9\u05dc\u05d5\u05dd " + text[french + 4 :]
    deck.write_text(edited, "utf-8")
    cached_run = _run(str(copy), "-f", "json")
    assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
    said = [d for d in json.loads(cached_run[1] or "[]") if d["code"] == "P017"]
    line = text.count("\n", 0, french) + 1
    at_text = [d for d in said if d["file"].endswith("characters.yaml") and d["line"] == line]
    assert len(at_text) == 1, said  # (and the rulebook, which prints the text, says it)
    assert _run(str(copy), "-f", "json") == cached_run  # said again, from the cache
    deck.write_text(text, "utf-8")  # and back: nothing to say, as without the cache
    assert _run(str(copy), "-f", "json") == _run(str(copy), "-f", "json", "--no-cache")
