"""The search of content texts for characters the game's main face lacks (print fit's P002,
toolkit.checks.printfit._content_lacks) remembers what lacked nothing between `validate`
runs: after one card edit only the edited file's texts are searched, and the findings are
those of a run without the cache, a lacking character included."""

from __future__ import annotations

import json
import shutil

from tests.conftest import REPO
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.checks import printfit

SNOWMAN = "\u2603"  # no glyph in the bundled fonts


def test_an_edit_searches_the_edited_file_alone(cache, tmp_path, monkeypatch):  # noqa: F811
    copy = tmp_path / "whisky-game"
    shutil.copytree(REPO / "content" / "whisky-game", copy)
    _run(str(copy))
    searched: list[str] = []
    real = printfit.as_printed

    def as_printed(text, value):  # type: ignore[no-untyped-def]
        searched.append(text.file.rel)
        return real(text, value)

    monkeypatch.setattr(printfit, "as_printed", as_printed)
    deck = copy / "decks" / "characters.yaml"
    text = deck.read_text("utf-8")
    card = "en: Your Glenlivet bottle scores +{amount} points."
    assert card in text
    for edited, lacking in (
        ("en: Your Glenlivet bottle scores +{amount} extra points.", False),
        (f"en: Your Glenlivet bottle scores +{{amount}} points {SNOWMAN}.", True),
        (card, False),
    ):
        deck.write_text(text.replace(card, edited), "utf-8")
        searched.clear()
        cached = _run(str(copy), "-f", "json")
        assert searched and {rel.split("/")[-1] for rel in searched} == {deck.name}
        assert cached == _run(str(copy), "-f", "json", "--no-cache")
        said = [d for d in json.loads(cached[1]) if d["code"] == "P002"]
        assert any("characters.yaml" in d["file"] for d in said) is lacking, said
