"""A YAML file's parse kept as a unit between `validate` runs (toolkit.content.parse_units):
after one file is edited only that file is composed again, the findings stay those of a run
without the cache, a read-back parse is the parse (its spans made on use) and a value JSON
cannot give back as it was is not kept."""

from __future__ import annotations

import datetime
import json

import pytest

from tests.conftest import FIXTURES, build_case
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.content import parse_units, source
from toolkit.content.parse_units import LazySpans, NotKept
from toolkit.diagnostics.diagnostic import Span
from toolkit.render import textfit


@pytest.mark.usefixtures("cache")
def test_an_edit_composes_again_only_the_edited_file(tmp_path, monkeypatch):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    built = []
    real = source._build
    monkeypatch.setattr(source, "_build", lambda text: built.append(text) or real(text))
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
    back = parse_units.read(json.loads(json.dumps(kept)))
    data, spans, key_spans, shared, styles = back
    assert repr(data) == repr(built[0])  # int key 2 and str key "3" kept apart, types kept
    assert isinstance(spans, LazySpans) and isinstance(key_spans, LazySpans)
    assert not spans._made, "no Span is made before one is asked for"
    assert list(spans.items()) == list(built[1].items())
    assert dict(key_spans) == dict(built[2])
    assert shared == built[3] and shared
    assert styles == built[4]
    assert spans[("block",)] is spans[("block",)]
    assert spans.get(("nowhere",)) is None and spans.get(("nowhere",), Span()) == Span()
    assert ("players", 2) in spans and ("players", "2") not in spans
    # each read gives the run its own objects: a check changing them changes nothing kept
    data["list"].append("changed")
    assert parse_units.read(kept)[0] == built[0]


@pytest.mark.parametrize(
    "text",
    [
        "when: 2024-01-01\n",  # a timestamp
        "blob: !!binary aGVsbG8=\n",  # bytes
        '"\\0int-keys": [[1, 2]]\n',  # the key that marks integer keys
    ],
)
def test_a_value_json_cannot_give_back_is_not_kept(text):
    built = source._build(text)
    assert isinstance(built, tuple), built
    with pytest.raises(NotKept):
        parse_units.store(built)


def test_a_refusal_is_not_kept():
    refused = source._build("a: [1, 2\n")
    assert not isinstance(refused, tuple)
    with pytest.raises(NotKept):
        parse_units.store(refused)


@pytest.mark.parametrize(
    "bad",
    [
        None,
        "J[]",
        'J{"d":{},"s":[[["a"]],[1,1,1],[0]],"k":[[],[]],"h":[]}',  # three numbers a span
        'J{"d":{},"s":[[["a"]],[1,1,1,true],[0]],"k":[[],[]],"h":[]}',
        'J{"d":{},"s":[[[1.5]],[1,1,1,2],[0]],"k":[[],[]],"h":[]}',  # a float in a path
        'J{"d":{},"s":[[["a"]],[1,1,1,2],["?"]],"k":[[],[]],"h":[]}',  # no such style
        'X{"d":{},"s":[[],[],[]],"k":[[],[]],"h":[]}',
    ],
)
def test_a_kept_parse_of_another_shape_is_refused(bad):
    with pytest.raises((ValueError, TypeError, KeyError)):
        parse_units.read(bad)


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
    monkeypatch.setattr(source, "_build", lambda text: built.append(text) or real(text))
    again = _run(".")
    assert len(built) == 2, "the edited manifest and the board that holds a date"
    assert again == first == _run(".", "--no-cache")
