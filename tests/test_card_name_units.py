"""The card-names check (R013, toolkit.checks.card_names) keeps each deck's findings as a
unit named by that deck and the game's other files: after one card edit only the edited
deck's cards are compared, and the findings are those of a run without the cache, a name
the edit makes shared included."""

from __future__ import annotations

import json

from tests.file_walks import checked_copy
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.checks import card_names

CARD = "en: Your Glenlivet bottle scores +{amount} points."


def _compared(monkeypatch) -> list[str]:  # type: ignore[no-untyped-def]
    compared: list[str] = []
    real = card_names._deck_findings

    def counted(loaded):  # type: ignore[no-untyped-def]
        compared.append(loaded.rel)
        return real(loaded)

    monkeypatch.setattr(card_names, "_deck_findings", counted)
    return compared


def test_an_edit_compares_the_edited_deck_alone(cache, tmp_path, monkeypatch):  # noqa: F811
    copy, deck = checked_copy(tmp_path)
    compared = _compared(monkeypatch)
    text = deck.read_text("utf-8")
    assert CARD in text
    for edited in ("en: Your Glenlivet bottle scores +{amount} extra points.", CARD):
        deck.write_text(text.replace(CARD, edited), "utf-8")
        compared.clear()
        cached_run = _run(str(copy), "-f", "json")
        after_edit = list(compared)
        compared.clear()
        assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
        assert len(compared) == 5  # the game's decks, without the cache
        assert [rel.replace("\\", "/").rsplit("/", 1)[-1] for rel in after_edit] == [
            "characters.yaml"
        ]


def test_a_name_an_edit_makes_shared_is_found(cache, tmp_path):  # noqa: F811
    copy, deck = checked_copy(tmp_path)
    text = deck.read_text("utf-8")
    # Billy is named Alan in English: two cards the English players cannot tell apart
    edited = text.replace("en: Billy Leighton", "en: Alan Winchester", 1)
    assert edited != text
    deck.write_text(edited, "utf-8")
    cached_run = _run(str(copy), "-f", "json")
    assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
    said = [d for d in json.loads(cached_run[1] or "[]") if d["code"] == "R013"]
    assert len(said) == 1 and "billy-leighton" in said[0]["message"], said
    assert _run(str(copy), "-f", "json") == cached_run  # said again, read back
    deck.write_text(text, "utf-8")  # and back: nothing to say, as without the cache
    back = _run(str(copy), "-f", "json")
    assert back == _run(str(copy), "-f", "json", "--no-cache")
    assert "R013" not in back[1]
