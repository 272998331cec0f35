"""Probe70-7: the preview of a 990 kB game of aliases grew from 580 MB to ~1.4 GB over two
saves. Besides the game shown and the files' kept parses, it held the game its start read
to the end (kept to tell whether the findings looked up at the start were that game's):
a third whole load in memory. The first check now lets it go. The tests follow the game
objects, never the process's memory."""

from __future__ import annotations

import gc
import platform
import sys
import weakref
from pathlib import Path

import pytest

from tests.test_hardening_tips53 import _rules_game

CARDS = [f"c{i:02d}" for i in range(4)]


@pytest.mark.parametrize("check_at_load", [True, False])
def test_the_game_read_at_start_is_let_go_after_a_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check_at_load: bool
):
    from toolkit.preview.live import Preview

    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    game = _rules_game(tmp_path / "g", CARDS, "{{ card.id }} {{ card.name }}")
    preview = Preview(game)
    preview.load(check=check_at_load)
    first = preview.on_disk
    assert first is not None
    read_at_start = weakref.ref(first)
    del first
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text("utf-8")
    edited = text.replace("{id: c01, name: {fr: N,", "{id: c01, name: {fr: M,")
    assert edited != text
    deck.write_text(edited, "utf-8")
    preview.apply({deck})  # reloads, draws, checks
    assert preview.checked
    gc.collect()
    assert read_at_start() is None, gc.get_referrers(read_at_start())
    # what is shown is the saved game
    assert preview.shown is not None and preview.on_disk is not None
    cards = {card.id: card for card in preview.shown.decks[0].model.cards}
    assert cards["c01"].name["fr"].startswith("M")


def test_a_save_gives_the_replaced_game_s_memory_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """After a save's reload and check the freed heap goes back to the system (glibc kept
    ~300 MB of the probe's game in its free lists): once a save."""
    from toolkit.preview import heap, live

    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    calls: list[bool] = []
    monkeypatch.setattr(live, "give_back", lambda: calls.append(True) or True)
    game = _rules_game(tmp_path / "g", CARDS, "{{ card.id }} {{ card.name }}")
    preview = live.Preview(game)
    preview.load(check=True)
    assert calls == []
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text("utf-8").replace("fr: N,", "fr: P,", 1), "utf-8")
    preview.apply({deck})
    assert calls == [True]
    if sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc":
        assert heap.give_back()  # the call is made where the C library has it


def test_a_parse_read_back_from_the_last_load_shares_its_spans(tmp_path: Path):
    """The preview's in-memory parses give a file's spans back as the very mappings the
    last load's parse made (read-only), not decoded again into a second copy; its data is
    fresh objects, and every place is what a fresh parse gives."""
    from toolkit.content.parse_units import LazySpans, Parses
    from toolkit.content.source import load_document

    deck = tmp_path / "deck.yaml"
    deck.write_text(
        "id: d\nbase: &b {fr: Un, en: One}\ncards:\n  - {id: a, name: *b}\n  - {id: c, name: *b}\n",
        "utf-8",
    )
    parses = Parses()
    with parses.kept():
        first, _ = load_document(deck, "deck.yaml")
    with parses.kept():
        again, _ = load_document(deck, "deck.yaml")
    fresh, _ = load_document(deck, "deck.yaml")
    assert first is not None and again is not None and fresh is not None
    assert isinstance(again.spans, LazySpans)
    assert again.spans is first.spans and again.key_spans is first.key_spans
    assert again.data == fresh.data and again.data is not first.data
    assert dict(again.spans) == dict(fresh.spans) and len(again.spans) > 5
    assert dict(again.key_spans) == dict(fresh.key_spans)
    (held,) = parses.known.values()
    assert len(held[0]) < 400  # the bytes kept hold the data, not the spans again
