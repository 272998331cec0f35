"""The checks that skip a content file whole (`Clean` by file: references' R006, the
translation family's presence, parity, typography, plurals and glossary, inline icons, text
direction and print-fit's content glyphs) ask once a file
whether to, not once a text, and make no text view of a file they skip: after one card
edit of the Whisky Game only the edited deck's ~30 texts are looked at, of ~1,100. The
findings are those of a run without the cache (`walks_after_an_edit`)."""

from __future__ import annotations

import json
import marshal

from tests.file_walks import checked_copy, walked, walks_after_an_edit
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.checks.translation import common
from toolkit.content import validate_cache
from toolkit.content.unit_cache import Clean, Units
from toolkit.usercache import SignedStore


def test_an_edit_makes_the_views_of_the_edited_file_alone(cache, tmp_path, monkeypatch):  # noqa: F811
    copy, deck = checked_copy(tmp_path)
    made = walked(monkeypatch, common, "TextView")
    cards = deck.read_text("utf-8").count("\n  - id: ")
    for edited_file, whole in walks_after_an_edit(copy, deck, made):
        # the deck's texts (its name, each card's name and text), of the game's ~1,100,
        # by each of the two families that make views (translation, inline icons)
        assert 0 < edited_file <= 2 * (2 * cards + 1) < whole // 10, (edited_file, whole)


def test_a_file_is_asked_once_by_each_check_that_skips_files(cache, tmp_path, monkeypatch):  # noqa: F811
    copy, deck = checked_copy(tmp_path)
    asked: list[tuple[int, int]] = []
    alive: list[object] = []  # (the ids of objects kept alive: never those of another)
    real = Clean.file_seen

    def counted(self: Clean, loaded: object) -> bool:
        asked.append((id(self), id(loaded)))
        alive.append((self, loaded))
        return real(self, loaded)

    monkeypatch.setattr(Clean, "file_seen", counted)
    for _ in walks_after_an_edit(copy, deck, []):
        pass
    files = len(list((copy / "decks").iterdir())) + len(list(copy.rglob("*.yaml")))
    assert 0 < len(asked) == len(set(asked)) < 9 * files, len(asked)


def test_a_file_skipped_in_the_last_run_is_checked_again_once_edited(cache, tmp_path):  # noqa: F811
    """Another deck than the one each run edits, kept clean by every check that skips
    files, then given texts that each of them has something to say about: all said, as
    without the cache."""
    copy, deck = checked_copy(tmp_path)
    for _ in walks_after_an_edit(copy, deck, []):
        pass  # every file skipped by now but the edited deck
    other = copy / "decks" / "bottles.yaml"
    text = other.read_text("utf-8")
    said_wrong = "  en: 'Bottles  {nope} 3 :nope: x'\n"  # R006, T006, T015, P007
    other.write_text(text.replace("  en: Bottles\n", said_wrong), "utf-8")
    cached_run = _run(str(copy), "-f", "json")
    assert cached_run == _run(str(copy), "-f", "json", "--no-cache")
    said = {d["code"] for d in json.loads(cached_run[1]) if d["file"].endswith("bottles.yaml")}
    assert {"R006", "P007", "T006", "T015"} <= said, said


def test_the_placeholder_check_keeps_its_files_by_name_alone(cache, tmp_path):  # noqa: F811
    """R006 asks its files by name, never a text's digest: its files are kept with no
    digest of their texts (it kept ~900 that no run read), and a file of a text that has
    something to say is not kept."""
    copy, deck = checked_copy(tmp_path)
    (entry,) = sorted(cache.glob("units-*"))
    store = SignedStore.open(validate_cache.STORE, validate_cache.MAX_ENTRY_BYTES)
    assert store is not None
    units = marshal.loads(store.read(entry.name) or b"")["units"]
    kept = marshal.loads(units[Units.name("clean-placeholders:files", [])])
    assert len(kept) >= 9 and all(set(texts) == {""} for texts in kept.values()), kept
