"""The plural agreement check (T017, toolkit.checks.translation.plurals) skips a file whose
every card text had nothing to say in the last run: after one card edit only the edited
file's card texts are looked at, and the findings are those of a run without the cache, a
disagreement the edit brings (a count made 1) included."""

from __future__ import annotations

import json
import shutil

from tests.conftest import REPO
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.checks.translation import plurals

CARD = "en: Your Glenlivet bottle scores +{amount} points."


def _looked_at(monkeypatch) -> list[object]:  # type: ignore[no-untyped-def]
    looked: list[object] = []
    real = plurals._text_plurals

    def counted(view):  # type: ignore[no-untyped-def]
        looked.append(view)
        return real(view)

    monkeypatch.setattr(plurals, "_text_plurals", counted)
    return looked


def test_an_edit_looks_at_the_edited_file_alone(cache, tmp_path, monkeypatch):  # noqa: F811
    copy = tmp_path / "whisky-game"
    shutil.copytree(REPO / "content" / "whisky-game", copy)
    _run(str(copy))
    looked = _looked_at(monkeypatch)
    deck = copy / "decks" / "characters.yaml"
    text = deck.read_text("utf-8")
    assert CARD in text
    cards = text.count("\n  - id: ")
    for edited in ("en: Your Glenlivet bottle scores +{amount} extra points.", CARD):
        deck.write_text(text.replace(CARD, edited), "utf-8")
        looked.clear()
        cached_run = _run(str(copy), "-f", "json")
        edited_file = len(looked)
        looked.clear()
        assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
        # each card's text, of the game's card texts
        assert 0 < edited_file <= cards < len(looked), (edited_file, len(looked))


def test_a_count_an_edit_makes_one_is_found_after_a_run_that_kept_its_file_clean(
    cache,  # noqa: F811
    tmp_path,
):
    copy = tmp_path / "whisky-game"
    shutil.copytree(REPO / "content" / "whisky-game", copy)
    _run(str(copy))
    deck = copy / "decks" / "characters.yaml"
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
