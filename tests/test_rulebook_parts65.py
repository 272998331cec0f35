"""A kept render's parts hold the indexes of their reads (rulebook_source._parts): after a
card edit, the edited deck's reads are taken by them (`_same_parts`), not by parting every
read of the render again; a kept value whose indexes are not its reads' is worked out
afresh."""

from __future__ import annotations

import marshal
from typing import Any

import pytest

from tests.test_rulebook_reads import _game, _renders
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.content import validate_cache
from toolkit.render import rulebook_reads as reads
from toolkit.render import rulebook_source
from toolkit.usercache import SignedStore


@pytest.mark.usefixtures("cache")
def test_an_edited_deck_s_reads_are_taken_by_their_indexes(tmp_path, monkeypatch) -> None:
    game = _game(tmp_path)
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text("utf-8")
    assert _run(str(game), "-f", "json")[0] == 0
    parted: list[int] = []
    real = reads.part_indexes

    def counted(made: list[Any], decks: set[str]) -> dict[str, list[int]]:
        parted.append(len(made))
        return real(made, decks)

    monkeypatch.setattr(reads, "part_indexes", counted)
    renders = _renders(monkeypatch)
    deck.write_text(text.replace("en: Move {steps} spaces.", "en: Move {steps} squares."), "utf-8")
    cached = _run(str(game), "-f", "json")
    assert renders == ["en"], "the French rulebook read back by its parts"
    assert len(parted) == 1, "parted once: the English render's reads, to keep them"
    assert cached == _run(str(game), "-f", "json", "--no-cache")


def _kept(parts: Any, made: int = 3) -> Any:
    return {"reads": [[[], "o", None]] * made, "digest": "d", "text": "t", "parts": parts}


@pytest.mark.parametrize("at", [[0, 3], [-1], [True], [0.0], "0", None, [[0]]], ids=repr)
def test_a_part_whose_indexes_are_not_its_reads_is_not_read_back(at) -> None:
    assert rulebook_source._kept_render(_kept({"d": ["f", "g", [0, 2]]}))[3] == {
        "d": ["f", "g", [0, 2]]
    }
    assert rulebook_source._kept_render(_kept({"d": ["f", "g", []]}))
    with pytest.raises(ValueError):
        rulebook_source._kept_render(_kept({"d": ["f", "g", at]}))
    with pytest.raises(ValueError):
        rulebook_source._kept_render(_kept({"d": ["f", "g"]}))


def test_a_render_kept_by_parts_is_not_digested_whole(tmp_path, monkeypatch, cache):  # noqa: F811
    """With parts (a game folder in the frame), a kept render holds no digest of all its
    reads (each part's tells the same: `_same_whole`); a manifest edit (the rest changed)
    reads it back by its parts, as a run without the cache renders it."""
    game = _game(tmp_path)
    monkeypatch.chdir(game)
    assert _run(".", "-f", "json")[0] == 0
    (entry,) = sorted(cache.glob("units-*"))
    store = SignedStore.open(validate_cache.STORE, validate_cache.MAX_ENTRY_BYTES)
    units = marshal.loads(store.read(entry.name) or b"")["units"]
    renders = [v for v in map(marshal.loads, units.values()) if type(v) is dict and "reads" in v]
    assert len(renders) == 2
    assert all(v["digest"] == "" and v["parts"] for v in renders)
    done = _renders(monkeypatch)
    manifest = game / "game.yaml"
    manifest.write_text("# a comment\n" + manifest.read_text("utf-8"), "utf-8")
    cached = _run(".", "-f", "json")
    assert done == [], "read back by their parts"
    assert cached == _run(".", "-f", "json", "--no-cache")


def test_each_part_is_named_in_the_frame_once_a_run(tmp_path, monkeypatch, cache):  # noqa: F811
    """Each language's kept render asks for the same parts' names in the frame: each is
    worked out once a run (as a run without the cache says, after a card edit)."""
    from toolkit.content.unit_cache import Units

    game = _game(tmp_path)
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text("utf-8")
    assert _run(str(game), "-f", "json")[0] == 0
    named: list[str] = []
    for method in ("framed_name", "framed_name_but"):
        real = getattr(Units, method)

        def counted(self, kind, *args, real=real):
            if kind.startswith(reads.KIND + ":"):
                named.append(kind)
            return real(self, kind, *args)

        monkeypatch.setattr(Units, method, counted)
    deck.write_text(text.replace("en: Move {steps} spaces.", "en: Move {steps} squares."), "utf-8")
    cached = _run(str(game), "-f", "json")
    assert named and len(named) == len(set(named)), named
    assert cached == _run(str(game), "-f", "json", "--no-cache")


def test_a_rest_read_finding_otherwise_renders_again(tmp_path, monkeypatch, cache):  # noqa: F811
    """A manifest edit that changes what a read of the rest finds (the title the rulebook
    prints): the render kept by parts is done again, as a run without the cache does it."""
    game = _game(tmp_path)
    assert _run(str(game), "-f", "json")[0] == 0
    renders = _renders(monkeypatch)
    manifest = game / "game.yaml"
    text = manifest.read_text("utf-8")
    title = next(line for line in text.split("\n") if line.startswith("  en: "))
    manifest.write_text(text.replace(title, title + " Deluxe", 1), "utf-8")
    cached = _run(str(game), "-f", "json")
    assert renders == ["en"], renders
    assert cached == _run(str(game), "-f", "json", "--no-cache")
