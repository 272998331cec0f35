"""Cross-file references on a real plugin game: ids of the right kind, placeholders bound."""

from __future__ import annotations

import json

from tests.conftest import REPO, copy_game


def _copy_whisky(tmp_path, monkeypatch):
    game = tmp_path / "whisky"
    copy_game(REPO / "content" / "whisky-game", game)
    monkeypatch.chdir(game)
    return game


def _found(run_cli):
    result = run_cli("validate", ".", "--format", "json")
    return result.exit_code, [
        (d["code"], d["file"], d["line"], d["col"]) for d in json.loads(result.stdout or "[]")
    ]


def _line_of(path, needle):
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def test_reference_to_a_space_of_the_wrong_kind(run_cli, tmp_path, monkeypatch):
    game = _copy_whisky(tmp_path, monkeypatch)
    deck = game / "decks" / "characters.yaml"
    deck.write_text(deck.read_text().replace("distillery: glenlivet", "distillery: kennacraig", 1))
    line = _line_of(deck, "distillery: kennacraig")
    code, found = _found(run_cli)
    assert code == 1
    assert found == [("R005", "decks/characters.yaml", line, 21)]


def test_unknown_region_in_a_special_card(run_cli, tmp_path, monkeypatch):
    game = _copy_whisky(tmp_path, monkeypatch)
    deck = game / "decks" / "specials.yaml"
    deck.write_text(deck.read_text().replace("region: islay", "region: isla", 1))
    line = _line_of(deck, "region: isla")
    _, found = _found(run_cli)
    assert found == [("R004", "decks/specials.yaml", line, 15)]


def test_unknown_effect_kind_points_at_the_kind(run_cli, tmp_path, monkeypatch):
    game = _copy_whisky(tmp_path, monkeypatch)
    deck = game / "decks" / "characters.yaml"
    deck.write_text(deck.read_text().replace("kind: add_points", "kind: add_pionts", 1))
    line = _line_of(deck, "kind: add_pionts")
    _, found = _found(run_cli)
    assert [f[:3] for f in found] == [("S006", "decks/characters.yaml", line)]


def test_a_clean_run_looks_up_the_place_of_no_reference(tmp_path, monkeypatch):
    """A reference's place is looked up for its finding alone: a file read back from
    `validate`'s units (its spans decoded when one is first asked for) whose references all
    resolve keeps its spans undecoded (after one card edit, the other files' were decoded
    for nothing)."""
    from tests.conftest import FIXTURES, build_case
    from toolkit.checks import references
    from toolkit.content import validate_cache
    from toolkit.content.game import load_game
    from toolkit.content.parse_units import LazySpans
    from toolkit.content.unit_cache import FileUnits, Units, activated
    from toolkit.content.walk import collect
    from toolkit.usercache import SignedStore

    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    store = SignedStore.open(validate_cache.FILES_STORE, validate_cache.MAX_ENTRY_BYTES)
    assert store is not None
    units = Units()
    units.files = FileUnits(store, "test-head")
    with activated(units):
        load_game(game)  # parsed, and kept
        loaded = load_game(game)  # read back: spans decoded on first use
        facts = collect(loaded)
    assert facts.refs, "no reference to resolve"
    lazy = [f.doc.spans for f in loaded.files() if f.doc and isinstance(f.doc.spans, LazySpans)]
    undecoded = [spans for spans in lazy if spans._read is None]
    assert undecoded, "every file's spans decoded by the load"
    assert list(references._references(facts)) == []
    assert all(spans._read is None for spans in undecoded)
