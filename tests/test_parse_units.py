"""A YAML file's parse kept as a unit between `validate` runs (toolkit.content.parse_units):
after one file is edited only that file is composed again, the findings stay those of a run
without the cache, a read-back parse is the parse (its spans made on use), a value other than
plain data is not kept, and each parse is an entry of its own: an unchanged file's is not
written again, a tampered one is composed afresh."""

from __future__ import annotations

import datetime
import marshal
from pathlib import Path
from unittest.mock import patch

import pytest

from tests.conftest import FIXTURES, build_case
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.content import parse_units, source
from toolkit.content.parse_units import KeptData, LazySpans, LazyStyles, NotKept
from toolkit.diagnostics.diagnostic import Span
from toolkit.render import textfit


@pytest.mark.usefixtures("cache")
def test_an_edit_composes_again_only_the_edited_file(tmp_path, monkeypatch):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    built = []
    real = source._build
    monkeypatch.setattr(source, "_build", lambda text, *a: built.append(text) or real(text, *a))
    textfit.fit.cache_clear()
    cold = _run(".")
    files = len(list(game.rglob("*.yaml")))
    assert len(built) >= files, (len(built), files)  # the game's files and its layouts
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text("utf-8").replace("Move {steps}", "Go {steps}"), "utf-8")
    built.clear()
    textfit.fit.cache_clear()
    edited = _run(".")
    assert built == [deck.read_text("utf-8")], "only the edited deck is composed"
    assert edited == _run(".", "--no-cache")
    assert edited[0] == cold[0]
    # two lines above every value of an unchanged file: new bytes, so parsed again, and
    # every finding placed where the value now is
    board = game / "boards" / "map.yaml"
    board.write_text("# one\n# two\n" + board.read_text("utf-8"), "utf-8")
    built.clear()
    shifted = _run(".")
    assert len(built) == 1
    assert shifted == _run(".", "--no-cache")


@pytest.mark.usefixtures("cache")
def test_an_edit_scans_again_only_the_edited_file_for_its_limits(tmp_path, monkeypatch):
    """The checks made before composing (control characters, nesting depth) are part of the
    parse unit, a pure function of the file's bytes: a file read back is not scanned again
    (the depth scan alone took ~18 ms of each edit of a game with many flow lists)."""
    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    scanned = []
    real = source._too_deep
    monkeypatch.setattr(source, "_too_deep", lambda text: scanned.append(text) or real(text))
    textfit.fit.cache_clear()
    cold = _run(".")
    assert len(scanned) >= len(list(game.rglob("*.yaml")))
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text("utf-8").replace("Move {steps}", "Go {steps}"), "utf-8")
    scanned.clear()
    textfit.fit.cache_clear()
    edited = _run(".")
    assert scanned == [deck.read_text("utf-8")], "only the edited deck is scanned"
    assert edited == _run(".", "--no-cache")
    assert edited[0] == cold[0]


@pytest.mark.usefixtures("cache")
@pytest.mark.parametrize(
    ("bad", "code"),
    [("\x07", "Y001"), ("[" * 70 + "]" * 70, "Y005")],
    ids=["control-character", "too-deep"],
)
def test_a_file_refused_before_composing_is_refused_with_the_cache(
    tmp_path, monkeypatch, bad, code
):
    """A refusal is never kept: the same bytes give the same finding on every run, after a
    run in which the file was fine too."""
    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    _run(".")
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text("utf-8") + f"\nextra: {bad}\n", "utf-8")
    first, again, cold = _run("."), _run("."), _run(".", "--no-cache")
    assert first == again == cold
    assert code in first[1], first[1]


TEXT = """\
id: a
count: 3
ratio: 1.5
off: false
none: null
big: 123456789012345678901234567890
inf: .inf
quoted: 'a ''b'''
double: "c\\td"
block: |
  line one
  line two
folded: >
  folded
  text
players:
  2: two
  "3": three
base: &base
  x: 1
merged:
  <<: *base
  y: 2
again: *base
list: [1, [2, {z: 3}]]
"""


def test_a_parse_read_back_is_the_parse_with_its_spans_made_on_use():
    built = source._build(TEXT)
    assert isinstance(built, tuple)
    kept = parse_units.store(built)
    back = parse_units.read(kept)
    kept_data, spans, key_spans, shared, styles, repeated, aliased = back
    assert isinstance(kept_data, KeptData), "decoded when first read"
    assert kept_data.lists == parse_units.top_lists(built[0]) and kept_data.lists
    data = kept_data.decoded()
    assert repr(data) == repr(built[0])  # int key 2 and str key "3" kept apart, types kept
    assert isinstance(spans, LazySpans) and isinstance(key_spans, LazySpans)
    assert not spans._made, "no Span is made before one is asked for"
    assert spans._read is None and key_spans._read is None, "decoded before asked for"
    assert list(spans.items()) == list(built[1].items())
    assert dict(key_spans) == dict(built[2])
    assert shared == built[3] and shared
    assert isinstance(styles, LazyStyles) and styles._read is None, "decoded before asked for"
    assert dict(styles) == built[4] and styles
    assert repeated == built[5] and repeated > 0  # what `again: *base` repeats
    assert aliased == built[6] and aliased > 0  # the values `again: *base` builds again
    assert spans[("block",)] is spans[("block",)]
    assert spans.get(("nowhere",)) is None and spans.get(("nowhere",), Span()) == Span()
    assert ("players", 2) in spans and ("players", "2") not in spans
    # each read gives the run its own objects: a check changing them changes nothing kept
    data["list"].append("changed")
    assert kept_data.decoded() == parse_units.read(kept)[0].decoded() == built[0]


@pytest.mark.parametrize(
    "text",
    [
        "when: 2024-01-01\n",  # a timestamp
        "blob: !!binary aGVsbG8=\n",  # bytes
    ],
)
def test_a_value_other_than_plain_data_is_not_kept(text):
    built = source._build(text)
    assert isinstance(built, tuple), built
    with pytest.raises(NotKept):
        parse_units.store(built)


def test_a_refusal_is_not_kept():
    refused = source._build("a: [1, 2\n")
    assert not isinstance(refused, tuple)
    with pytest.raises(NotKept):
        parse_units.store(refused)


def _kept(*items: object) -> bytes:
    return marshal.dumps(items)


NONE = marshal.dumps({})
"""No styles, as kept."""
DATA = marshal.dumps({})
"""Empty data, as kept."""


def test_each_bad_shape_is_refused_for_its_own_fault():
    """The shapes below are refused for what they say, the others kept well: this one is
    read back."""
    good = _kept(parse_units.FORMAT, DATA, b"", b"", set(), NONE, 0, 0, [("a", 1)])
    assert parse_units.read(good)[0].decoded() == {}


@pytest.mark.parametrize(
    "bad",
    [
        None,
        "J[]",
        b"",
        b"not marshal",
        _kept(parse_units.FORMAT, DATA, {}, {}, set(), NONE, 0, 0),  # an item short
        _kept("playset-parse-6", DATA, b"", b"", set(), NONE, 0, 0, None),  # another format
        _kept(parse_units.FORMAT, {}, b"", b"", set(), NONE, 0, 0, None),  # data not bytes
        _kept(parse_units.FORMAT, DATA, {("a",): (1, 1, 1, 2)}, b"", set(), NONE, 0, 0, None),
        _kept(parse_units.FORMAT, DATA, b"", {}, set(), NONE, 0, 0, None),  # key spans
        _kept(parse_units.FORMAT, DATA, b"", b"", [], NONE, 0, 0, None),  # shared not a set
        _kept(parse_units.FORMAT, DATA, b"", b"", set(), {}, 0, 0, None),  # styles not bytes
        _kept(parse_units.FORMAT, DATA, b"", b"", set(), NONE, -1, 0, None),  # a count below 0
        _kept(parse_units.FORMAT, DATA, b"", b"", set(), NONE, "0", 0, None),  # not a number
        _kept(parse_units.FORMAT, DATA, b"", b"", set(), NONE, 0, -1, None),  # aliased below 0
        _kept(parse_units.FORMAT, DATA, b"", b"", set(), NONE, 0, "0", None),  # not a number
        _kept(parse_units.FORMAT, DATA, b"", b"", set(), NONE, 0, 0, [("a", -1)]),  # a length
        _kept(parse_units.FORMAT, DATA, b"", b"", set(), NONE, 0, 0, [["a", 1]]),  # no pair
        _kept(parse_units.FORMAT, DATA, b"", b"", set(), NONE, 0, 0, {}),  # lists no list
        parse_units.store(source._build("a: 1\n"))[:-3],  # cut short  # type: ignore[arg-type]
    ],
)
def test_a_kept_parse_of_another_shape_is_refused(bad):
    with pytest.raises((ValueError, TypeError, KeyError)):
        parse_units.read(bad)


@pytest.mark.parametrize(
    "spans",
    [
        marshal.dumps({("a",): (1, 1, 1)}),  # three numbers
        marshal.dumps({"a": (1, 1, 1, 2)}),  # path no tuple
        marshal.dumps([]),  # no mapping
        b"not marshal",
        marshal.dumps({("a",): (1, 1, 1, 2)})[:-3],  # cut short
    ],
    ids=["three-numbers", "path-no-tuple", "no-mapping", "not-marshal", "cut-short"],
)
def test_kept_spans_of_another_shape_are_those_of_a_fresh_parse(spans):
    """A parse's spans are decoded (and their shape checked) when first asked for: ones of
    another shape are those of a fresh parse of the same bytes (`again`), or refused
    (ValueError) without one."""
    built = source._build("a: 1\n")
    assert isinstance(built, tuple)
    good = marshal.loads(parse_units.store(built))
    bad = marshal.dumps((*good[:2], spans, spans, *good[4:]), parse_units.MARSHAL_VERSION)
    fresh = []

    def again() -> object:
        fresh.append(1)
        return source._build("a: 1\n")

    _, lazy, key_lazy, *_ = parse_units.read(bad, again)
    assert not fresh, "nothing decoded before it is asked for"
    assert lazy[("a",)] == built[1][("a",)] and dict(key_lazy) == dict(built[2])
    assert len(fresh) == 2
    _, lazy, *_ = parse_units.read(bad)
    with pytest.raises(ValueError):
        lazy.get(("a",))


@pytest.mark.usefixtures("cache")
def test_a_date_is_still_read_as_a_date_with_the_cache(tmp_path, monkeypatch):
    """A file holding a timestamp is parsed each run (not kept), with the same findings."""
    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    board = game / "boards" / "map.yaml"
    board.write_text(board.read_text("utf-8") + "\nwhen: 2024-01-01\n", "utf-8")
    assert isinstance(datetime.date(2024, 1, 1), datetime.date)
    first = _run(".")
    (game / "game.yaml").write_text((game / "game.yaml").read_text("utf-8") + "\n", "utf-8")
    built = []
    real = source._build
    monkeypatch.setattr(source, "_build", lambda text, *a: built.append(text) or real(text, *a))
    again = _run(".")
    assert len(built) == 2, "the edited manifest and the board that holds a date"
    assert again == first == _run(".", "--no-cache")


def test_each_parse_is_an_entry_of_its_own(tmp_path, monkeypatch, cache):  # noqa: F811
    """The parses live in a store of their own, one entry per file's bytes: after an edit
    only the edited file's parse is written (the others are read, not written again), the
    game's units entry holds none, and a tampered entry is composed afresh, the findings
    those of a run without the cache."""
    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    textfit.fit.cache_clear()
    cold = _run(".")
    files = Path(cache).parent / "validate-files"
    kept = {entry: entry.stat().st_mtime_ns for entry in files.glob("parse-*")}
    assert len(kept) >= 2 * len(list(game.rglob("*.yaml")))  # each parse's head and body
    for units in Path(cache).glob("units-*"):
        assert b"playset-parse" not in units.read_bytes()
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text("utf-8").replace("Move {steps}", "Go {steps}"), "utf-8")
    textfit.fit.cache_clear()
    edited = _run(".")
    now = {entry: entry.stat().st_mtime_ns for entry in files.glob("parse-*")}
    new = sorted(entry.name.rpartition("-")[0] for entry in set(now) - set(kept))
    assert new == ["parse", "parse-body"], "the edited deck's parse alone is written"
    assert all(now[entry] == stamp for entry, stamp in kept.items())
    assert edited == _run(".", "--no-cache")
    built = []
    real = source._build
    monkeypatch.setattr(source, "_build", lambda text, *a: built.append(text) or real(text, *a))
    for entry in files.glob("parse-*"):
        data = bytearray(entry.read_bytes())
        data[-1] ^= 1  # its signature no longer holds
        entry.write_bytes(bytes(data))
    deck.write_text(deck.read_text("utf-8").replace("Go {steps}", "Move {steps}"), "utf-8")
    textfit.fit.cache_clear()
    tampered = _run(".")
    assert len(built) >= len(list(game.rglob("*.yaml"))), "every file composed afresh"
    assert tampered == cold == _run(".", "--no-cache")


@pytest.mark.parametrize(
    "styles",
    [
        marshal.dumps({("a",): "?"}),  # no style
        marshal.dumps([]),  # no mapping
        b"not marshal",
        marshal.dumps({("a",): None})[:-3],  # cut short
    ],
    ids=["no-style", "no-mapping", "not-marshal", "cut-short"],
)
def test_kept_styles_of_another_shape_are_those_of_a_fresh_parse(styles):
    """A parse's styles are decoded (and their shape checked) when first asked for: ones of
    another shape are those of a fresh parse of the same bytes (`again`), or refused
    (ValueError) without one."""
    text = "a: 'quoted'\nb: plain\n"
    built = source._build(text)
    assert isinstance(built, tuple)
    good = marshal.loads(parse_units.store(built))
    bad = marshal.dumps((*good[:5], styles, *good[6:]), parse_units.MARSHAL_VERSION)
    fresh = []

    def again() -> object:
        fresh.append(1)
        return source._build(text)

    lazy = parse_units.read(bad, again)[4]
    assert not fresh, "nothing decoded before it is asked for"
    assert lazy[("a",)] == "'" and ("b",) in lazy and lazy.get(("b",), "?") is None
    assert dict(lazy) == built[4] and len(fresh) == 1
    lazy = parse_units.read(bad)[4]
    with pytest.raises(ValueError):
        lazy.get(("a",))


def test_a_text_s_place_inside_it_is_the_same_from_a_kept_parse():
    """`Document.position_in` reads the styles: a parse read back places a mark inside a
    quoted text where a fresh parse does."""
    text = "a: 'it''s here'\nb: |\n  line one\n  line two\n"
    built = source._build(text)
    assert isinstance(built, tuple)
    back = parse_units.read(parse_units.store(built))

    def document(parse) -> source.Document:
        data, spans, key_spans, shared, styles = parse[:5]
        made = source.KeptDocument if isinstance(data, KeptData) else source.Document
        return made(Path("x.yaml"), "x.yaml", data, spans, key_spans, shared, text, styles)

    fresh, kept = document(built), document(back)
    for path, offset in ((("a",), 5), (("b",), 12)):
        assert kept.position_in(path, offset) == fresh.position_in(path, offset)
    assert kept.position_in(("a",), 5) != kept.span(("a",))  # placed inside the text


def test_a_kept_document_s_data_is_decoded_when_first_read(tmp_path, monkeypatch):
    """A document whose parse is read back decodes its data when first read, and tells the
    lengths of its top-level lists (the game's size budget) without it, as a fresh one."""
    from toolkit.content import unit_cache
    from toolkit.content.unit_cache import FileUnits, Units

    text = b"id: d\ncards: [1, 2, 3]\nnames: {a: 1}\nmore: []\n"
    units = Units()
    units.files = FileUnits(_CountingStore(), "head")
    with unit_cache.activated(units):
        fresh, _ = source.parse_document(Path("d.yaml"), "d.yaml", text)
        kept, _ = source.parse_document(Path("d.yaml"), "d.yaml", text)
    assert type(fresh) is source.Document and isinstance(kept, source.KeptDocument)
    assert isinstance(kept.__dict__["_data"], KeptData), "not decoded by the load"
    assert kept.top_lists() == fresh.top_lists() == [("cards", 3), ("more", 0)]
    assert isinstance(kept.__dict__["_data"], KeptData), "the lists told without the data"
    assert kept.data == fresh.data and kept.data is kept.data  # decoded once


def test_the_questions_findings_are_read_back_over_kept_parses(tmp_path, monkeypatch):
    """The questions family keeps its findings for banks parsed from their text: a bank read
    back from a kept parse (a KeptDocument) is one, so a card edit does not check them again
    (a spreadsheet's bank is not)."""
    import json

    from toolkit.checks import questions
    from toolkit.content import unit_cache
    from toolkit.content.game import load_game
    from toolkit.content.unit_cache import FileUnits, Units
    from toolkit.content.walk import collect

    folder = Path(__file__).resolve().parent.parent / "content" / "whisky-game"
    store = _CountingStore()
    worked = [0]
    real = questions._findings
    monkeypatch.setattr(
        questions, "_findings", lambda game: worked.__setitem__(0, worked[0] + 1) or real(game)
    )

    def run(units: Units) -> list[object]:
        units.files = FileUnits(store, "head")
        with unit_cache.activated(units):
            game = load_game(folder)
            return [type(f.doc) for f in game.questions], list(questions.check(game, collect(game)))

    first = Units()
    kinds, found = run(first)
    assert kinds and all(kind is source.Document for kind in kinds)
    kinds, again = run(Units(json.loads(json.dumps(first.used))))
    assert kinds and all(kind is source.KeptDocument for kind in kinds)
    assert again == found and worked[0] == 1, "read back"


class _CountingStore:
    """A signed store's stand-in that counts the entries read, by kind."""

    def __init__(self) -> None:
        self.entries: dict[str, bytes] = {}
        self.read_kinds: list[str] = []

    def read(self, name: str) -> bytes | None:
        self.read_kinds.append(name.rpartition("-")[0])
        found = self.entries.get(name)
        self.read_bytes += len(found or b"")
        return found

    def write(self, name: str, payload: bytes) -> bool:
        self.entries[name] = payload
        return True

    read_bytes = 0


def test_a_kept_parse_s_body_is_read_when_a_part_of_it_is_first_asked_for():
    """A parse read back reads its head entry alone (the counts and list lengths every load
    reads); its body (data, spans, key spans, styles) is read once, when one of them is
    first asked for: a card edit reads back 22 parses and the data of one. A body that
    cannot be read is a fresh parse's."""
    from toolkit.content import unit_cache
    from toolkit.content.unit_cache import FileUnits, Units

    text = b"id: d\ncards: [1, 2, 3]\nnames: {a: 'x', b: the words of a card, c: more}\n"
    store = _CountingStore()
    units = Units()
    units.files = FileUnits(store, "head")
    with unit_cache.activated(units):
        fresh, _ = source.parse_document(Path("d.yaml"), "d.yaml", text)
        store.read_kinds.clear()
        store.read_bytes = 0
        kept, _ = source.parse_document(Path("d.yaml"), "d.yaml", text)
        assert isinstance(kept, source.KeptDocument)
        assert kept.top_lists() == fresh.top_lists()
        assert store.read_bytes < len(text), "the data and spans not read with the load"
        assert store.read_kinds == ["parse"], store.read_kinds
        assert kept.data == fresh.data
        assert kept.spans == fresh.spans and kept.key_spans == fresh.key_spans
        assert dict(kept.styles) == dict(fresh.styles)
        assert store.read_kinds == ["parse", "parse-body"], store.read_kinds
        for name in [n for n in store.entries if n.startswith(parse_units.BODY + "-")]:
            store.entries[name] = b"tampered"
        again, _ = source.parse_document(Path("d.yaml"), "d.yaml", text)
        assert isinstance(again, source.KeptDocument)
        assert again.data == fresh.data and again.spans == fresh.spans
        assert dict(again.styles) == dict(fresh.styles)


def test_a_fresh_parse_makes_its_spans_on_use_too():
    """A fresh parse keeps each value's and key's place as four numbers, made a Span when
    first asked for, as a parse read back does: a 100-card deck has ~2,900 values and keys,
    and a clean run asks for the places of a few (~20 M instructions of a card build)."""
    built = source._build(TEXT)
    assert isinstance(built, tuple)
    _, spans, key_spans, *_ = built
    assert isinstance(spans, LazySpans) and isinstance(key_spans, LazySpans)
    assert not spans._made and not key_spans._made, "no Span made before one is asked for"
    assert spans[("block",)] is spans[("block",)]
    assert spans.get(("nowhere",)) is None and spans.get(("nowhere",), Span()) == Span()
    # kept as the numbers its Spans hold: read back, what the Spans made at once give
    made = (built[0], dict(spans), dict(key_spans), *built[3:])
    assert all(type(span) is Span for span in made[1].values())
    back = parse_units.read(parse_units.store(built))
    back_made = parse_units.read(parse_units.store(made))  # type: ignore[arg-type]
    assert dict(back[1]) == dict(back_made[1]) == dict(spans) and spans
    assert dict(back[2]) == dict(back_made[2]) == dict(key_spans) and key_spans


def test_a_head_is_kept_only_with_its_body_and_a_body_gone_is_made_again_once():
    """probe70-1: a body the store refused (larger than an entry may be) left its head kept,
    and every later run parsed the file again for each part asked (three parses a run, for
    ever); a body gone later (pruned before its head) did the same. Now a head is kept only
    with its body, and a body gone is one fresh parse, written back for the next run."""
    from toolkit.content import unit_cache
    from toolkit.content.unit_cache import FileUnits, Units

    text = b"id: d\ncards: [1, 2, 3]\nnames: {a: 'x', b: the words of a card, c: more}\n"
    parses: list[int] = []

    def parse(store: _CountingStore) -> source.Document:
        units = Units()
        units.files = FileUnits(store, "head")
        real = source._build

        def counted(*args, **kwargs):
            parses.append(1)
            return real(*args, **kwargs)

        with unit_cache.activated(units), patch.object(source, "_build", counted):
            doc, _ = source.parse_document(Path("d.yaml"), "d.yaml", text)
            assert doc.data and doc.spans and doc.key_spans is not None and doc.styles is not None
        return doc

    refusing = _CountingStore()
    real_write = refusing.write

    def no_body(name: str, payload: bytes) -> bool:
        return not name.startswith(parse_units.BODY) and real_write(name, payload)

    refusing.write = no_body  # type: ignore[method-assign]
    parse(refusing)
    heads = [v for n, v in refusing.entries.items() if n.startswith(parse_units.KIND + "-")]
    assert [marshal.loads(v) for v in heads] == [parse_units._TOO_LARGE], "no head but a note"
    encoded: list[int] = []
    real_parts = parse_units.store_parts
    with patch.object(
        parse_units, "store_parts", lambda built: encoded.append(1) or real_parts(built)
    ):
        parses.clear()
        parse(refusing)  # the note read: parsed once, not encoded again
    assert len(parses) == 1 and encoded == []
    store = _CountingStore()
    fresh = parse(store)
    for name in [n for n in store.entries if n.startswith(parse_units.BODY + "-")]:
        del store.entries[name]  # pruned before its head
    parses.clear()
    again = parse(store)
    assert len(parses) == 1, "one fresh parse for all the parts"
    assert again.data == fresh.data and again.spans == fresh.spans
    parses.clear()
    parse(store)
    assert parses == [], "the body was written back"
