"""Issue #33, probe 39 H1: YAML aliases were bounded per document (`MAX_NODES` values a file)
but not per game: twenty-five 700-byte decks each aliasing just under `MAX_NODES` values of
numbers (no text to charge to `MAX_REPEATED`) made `validate --no-cache` take 20 s of CPU
and 1.8 GB; with the cache the first run wrote 666 MB of parses (27 MB of marshal each) into
a store pruned once a run. Merge keys (`<<: *j`, 500 keys into 200 cards, eight files) the
same, their keys' S002 all placed at 1:1.

Now the values built through aliases (and merge keys) are charged to one game-wide bound
(`source.MAX_ALIASED`, `GameRepeats.aliased`), refused with Y004 at the alias that passes
it; a merged key is placed at its `<<`; a parse many times its file's size is not kept; and
a store is pruned again as a run writes past a share of its bound."""

from __future__ import annotations

from pathlib import Path

from tests.test_hardening_repeats_game import _game, _validate
from toolkit import usercache
from toolkit.content import source, validate_cache
from toolkit.content.game import load_game


def _bomb(name: str, depth: int = 14) -> str:
    """The probe's deck: `l0` a mapping of two numbers, each `l<i>` two aliases of the one
    before, a card's params aliasing the last: ~2**depth values, ~700 bytes."""
    rows = [f"id: {name}", "kind: actions", "name: {fr: A, es: A, en: A}", "size: poker"]
    rows += ["x-bomb:", "  l0: &l0 {a: 1, b: 2}"]
    rows += [f"  l{i}: &l{i} {{a: *l{i - 1}, b: *l{i - 1}}}" for i in range(1, depth)]
    rows += ["cards:", f"  - id: c{name}", "    name: {fr: N, es: N, en: N}", "    params:"]
    return "\n".join([*rows, f"      p: *l{depth - 1}"]) + "\n"


def _merged(name: str, keys: int, cards: int) -> str:
    """A deck whose `cards` cards each merge one `keys`-key mapping (`<<: *j`)."""
    junk = ", ".join(f"k{i:04d}: 1" for i in range(keys))
    rows = [f"id: {name}", "kind: actions", "name: {fr: A, es: A, en: A}", "size: poker"]
    rows += [f"x-junk: &j {{{junk}}}", "cards:"]
    card = "  - {{id: c{}x{}, name: {{fr: N, es: N, en: N}}, <<: *j}}"
    rows += [card.format(name, c) for c in range(cards)]
    return "\n".join(rows) + "\n"


def test_values_built_by_aliases_are_bounded_over_the_game(run_cli, tmp_path, monkeypatch):
    """Three of the probe's decks (each under `MAX_NODES`, ~98,000 values built by aliases):
    the third passes the game's bound, at the alias that does (`b: *l8` of its `l9`); the
    values built in all stay under the bound plus what the files hold themselves."""
    decks = {f"d{i}": _bomb(f"d{i}") for i in range(3)}
    assert all(len(text) < 800 for text in decks.values())
    game = _game(run_cli, tmp_path / "g", decks)
    calls = []
    real = source._Builder.build

    def build(self, node, path, depth):
        calls.append(1)
        return real(self, node, path, depth)

    monkeypatch.setattr(source._Builder, "build", build)
    loaded = load_game(game)
    found = [d for d in loaded.diagnostics if d.code == "Y004"]
    assert len(found) == 1, [(d.code, d.message) for d in loaded.diagnostics]
    assert found[0].file.endswith("d2.yaml"), found[0]
    assert (found[0].span.line, found[0].span.col) == (15, 20)  # `b: *l8` in `l9`
    assert "values over the game's content files" in found[0].message
    assert "(196,538 in the files read before this one;" in found[0].message
    assert [f.doc is not None for f in loaded.decks][-3:] == [True, True, False]
    assert len(calls) < source.MAX_ALIASED + 50_000, len(calls)  # was 3 × 98,000 + ...


def test_a_later_file_that_aliases_anything_is_not_built(run_cli, tmp_path, monkeypatch):
    """Past the bound, later files that alias are refused silently; one that does not loads."""
    monkeypatch.setattr(source, "MAX_ALIASED", 20_000, raising=False)
    decks = {f"d{i}": _bomb(f"d{i}", 12) for i in range(4)}  # ~24,500 values each
    decks["plain"] = _bomb("plain", 1).replace("p: *l0", "p: 1")
    loaded = load_game(_game(run_cli, tmp_path / "g", decks))
    found = [d for d in loaded.diagnostics if d.code == "Y004"]
    assert [Path(d.file).name for d in found] == ["d0.yaml"], found
    assert "the content limit (" in found[0].message  # the file alone passes it
    assert [f.doc is not None for f in loaded.decks][-5:] == [False] * 4 + [True]


def test_merged_keys_are_charged_and_placed_at_their_merge_key(run_cli, tmp_path, monkeypatch):
    """The probe's merge variant, smaller: each card merges 50 keys (51 values built again);
    the second deck passes the bound at a card's `<<`; the first deck's unknown merged keys
    are placed at their card's `<<`, not at 1:1."""
    monkeypatch.setattr(source, "MAX_ALIASED", 2_000, raising=False)
    decks = {"a": _merged("a", 50, 30), "b": _merged("b", 50, 30)}  # 1,530 values each
    game = _game(run_cli, tmp_path / "g", decks)
    loaded = load_game(game)
    found = [d for d in loaded.diagnostics if d.code == "Y004"]
    assert [Path(d.file).name for d in found] == ["b.yaml"], loaded.diagnostics
    card = 1 + (2_000 - 1_530) // 51  # the card whose merge passes the bound
    line = _merged("b", 50, 30).splitlines()[6 + card - 1]
    assert (found[0].span.line, found[0].span.col) == (6 + card, line.index("<<") + 1)
    doc = next(f.doc for f in loaded.decks if f.doc is not None and f.doc.path.stem == "a")
    assert doc.key_span(("cards", 3, "k0007")).line == 10
    code, findings = _validate(str(game), "--no-cache")
    unknown = [d for d in findings if d["code"] == "S002" and "'k0" in d["message"]]
    assert unknown and all(d["line"] >= 7 and d["col"] > 1 for d in unknown), unknown[:3]
    assert (unknown[0]["line"], unknown[0]["col"]) == (7, line.index("<<") + 1)


def test_realistic_anchors_stay_far_under_the_bound():
    """Shared card params by anchor, alias and merge: 300 cards, 6,000 values built again."""
    rows = ["common: &c {cost: 2, power: 3, tags: [a, b, c], text: {fr: x, en: y}}", "cards:"]
    rows += [f"  - {{id: c{i}, <<: *c, params: *c}}" for i in range(300)]
    built = source._build("\n".join(rows) + "\n")
    assert isinstance(built, tuple)
    assert built[6] == 6_000 < source.MAX_ALIASED // 20


def test_a_parse_many_times_its_file_is_not_kept(run_cli, tmp_path, monkeypatch):
    """One of the probe's decks (700 bytes, a parse of ~13 MB): not written to the store."""
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(validate_cache.StatCache, "RACY_NS", -(10**18))
    game = _game(run_cli, tmp_path / "g", {"d0": _bomb("d0")})
    first = _validate(str(game))
    files = tmp_path / "cache" / "playset" / "validate-files"
    kept = [entry.stat().st_size for entry in files.glob("parse-*")]
    assert kept, "the game's other files are kept"
    assert max(kept) < 1024 * 1024, sorted(kept)[-3:]
    assert _validate(str(game)) == first == _validate(str(game), "--no-cache")


def test_a_run_writes_no_more_than_the_store_keeps(tmp_path):
    """A store pruned at a run's first write only grew by all the run wrote after it."""
    folder = tmp_path / "store"
    folder.mkdir()
    store = usercache.SignedStore(folder, b"k" * 32, 10_000, keep_bytes=4_000)
    for i in range(40):
        assert store.write(f"e{i:02d}", bytes(1_000))
    total = sum(entry.stat().st_size for entry in folder.iterdir())
    assert total <= 4_000 + 4_000 // 4 + 1_100, total  # was 40 entries, 41 kB
    assert (folder / "e39").exists()


def test_values_under_a_merged_key_are_placed_where_they_are_written():
    """Under a merged key, values are placed in the merged mapping's text (as an alias's
    are); a key merged from a mapping written in place is placed at itself; nothing is kept
    at a `<<` path, which no lookup names."""
    text = (
        "base: &b\n"
        "  name: {fr: A, en: B}\n"
        "  params: {x: 1, y: [1, 2]}\n"
        "cards:\n"
        "  - id: c0\n"
        "    <<: *b\n"
        "  - {id: c1, <<: [*b, {z: 3}]}\n"
    )
    built = source._build(text)
    assert isinstance(built, tuple)
    spans, key_spans = built[1], built[2]
    assert (key_spans[("cards", 0, "name")].line, key_spans[("cards", 0, "name")].col) == (6, 5)
    assert (spans[("cards", 0, "name", "fr")].line, spans[("cards", 0, "name", "fr")].col) == (
        2,
        14,
    )
    assert key_spans[("cards", 0, "name", "fr")].col == 10
    assert spans[("cards", 0, "params", "y", 1)].col == 25
    assert (key_spans[("cards", 1, "z")].line, key_spans[("cards", 1, "z")].col) == (7, 24)
    assert (key_spans[("cards", 1, "params")].line, key_spans[("cards", 1, "params")].col) == (
        7,
        14,
    )
    assert not [path for path in (*spans, *key_spans) if "<<" in path]
