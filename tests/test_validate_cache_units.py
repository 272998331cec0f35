"""The unit results `validate` keeps per game (toolkit.content.unit_cache) never change a
finding: after one file of a game is edited, the findings are those of a run without the
cache, while only what the edit touches is worked out again; a kept value that is not what
its kind stores is worked out afresh; a change to the game's fonts drops every unit."""

from __future__ import annotations

import json
import marshal
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.conftest import FIXTURES, REPO, build_case
from toolkit.cli import app
from toolkit.content import unit_cache, validate_cache
from toolkit.content.game import bundled_games
from toolkit.content.unit_cache import Units
from toolkit.render import textfit
from toolkit.usercache import SignedStore


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["validate", *args], catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The findings cache on, in a folder of this test's own; stamps of files written a
    moment ago trusted (an edit must be seen through its new stamp)."""
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(validate_cache.StatCache, "RACY_NS", -(10**18))
    return tmp_path / "cache" / "playset" / validate_cache.STORE


def _units(folder: Path) -> list[Path]:
    return sorted(folder.glob("units-*"))


def _kept_units(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    """A broken fixture validated twice in its folder (the second run from the cache, the
    same findings): the findings, the store, its units entry and the entry's contents."""
    game = build_case(FIXTURES / "broken" / "text-overflow", tmp_path / "game")
    monkeypatch.chdir(game)
    expected = _run(".", "--no-cache")
    assert _run(".") == expected
    (entry,) = _units(cache)
    store = SignedStore.open(validate_cache.STORE, validate_cache.MAX_ENTRY_BYTES)
    assert store is not None
    return expected, store, entry, marshal.loads(store.read(entry.name) or b"")


def _edit_first_text(game: Path) -> Path:
    """Add a word to the first plain English text of the game's first deck (a card edit)."""
    for deck in sorted((game / "decks").glob("*.yaml")):
        lines = deck.read_text(encoding="utf-8").split("\n")
        for at, line in enumerate(lines):
            if line.strip().startswith("en: ") and line.rstrip()[-1] not in "'\"|>":
                lines[at] = line.rstrip() + " once more"
                deck.write_text("\n".join(lines), encoding="utf-8")
                return deck
    raise AssertionError(f"{game.name}: no English text to edit")


@pytest.mark.parametrize("game", sorted(bundled_games()))
def test_one_card_edited_same_findings_as_without_the_cache(game, cache, tmp_path):
    """A bundled game's copy: checked (units kept), one card edited, checked again from the
    units: the very output of a run without the cache. Three runs: ~5 s for the Whisky Game
    on a quiet machine (the game benchmarks/validate_warm.py edits, so it is kept)."""
    copy = tmp_path / game
    shutil.copytree(REPO / "content" / game, copy)
    assert _run(str(copy), "-f", "json")[0] in (0, 1)
    assert _units(cache), "the first run kept no unit"
    _edit_first_text(copy)
    code, said = _run(str(copy), "-f", "json", "-v")
    assert "unit result(s) kept" in said
    edited = (
        code,
        "".join(line for line in said.splitlines(True) if not line.startswith("cache: ")),
    )
    assert edited == _run(str(copy), "-f", "json", "--no-cache")


def _count(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    """Count the calls of `module.name` (what a unit works out when it is not kept)."""
    calls = [0]
    real = getattr(module, name)

    def counted(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_an_edit_works_out_again_only_what_it_touches(cache, tmp_path, monkeypatch):
    import toolkit.checks.translation.glossary as glossary
    import toolkit.render.layout as layout

    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    fits = _count(monkeypatch, textfit, "_fit")
    faces = _count(monkeypatch, layout, "resolve")
    texts = _count(monkeypatch, glossary, "_unmet")
    textfit.fit.cache_clear()  # one process per run outside tests
    cold = _run(".")
    cold_counts = (fits[0], faces[0], texts[0])
    assert all(cold_counts), cold_counts
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text("utf-8").replace("Move {steps}", "Go {steps}"), "utf-8")
    fits[0] = faces[0] = texts[0] = 0
    textfit.fit.cache_clear()
    edited = _run(".")
    assert 0 < fits[0] < cold_counts[0] / 2, (fits[0], cold_counts)
    # the edited card's front in its three languages, and its back (the first card's back
    # stands for the deck's: legibility checks it)
    assert faces[0] == 6, faces
    assert texts[0] == 1, "only the edited text is looked at for glossary terms"
    assert edited == _run(".", "--no-cache")
    assert edited[0] == cold[0]


def test_a_glossary_edit_is_seen_by_the_kept_units(cache, tmp_path, monkeypatch):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    deck = game / "decks" / "cards.yaml"
    deck.write_text(
        deck.read_text("utf-8")
        .replace("Move {steps} spaces.", "Draw a card, move {steps} spaces.")
        .replace("Avancez de {steps} cases.", "Piochez une carte, avancez de {steps} cases.")
        .replace("Avanza {steps} casillas.", "Roba un naipe, avanza {steps} casillas."),
        "utf-8",
    )
    first = _run(".")
    assert "T008" in first[1] and "'carta'" in first[1], first  # es says naipe, not carta
    glossary = game / "glossary.yaml"
    glossary.write_text(glossary.read_text("utf-8").replace("es: carta", "es: naipe"), "utf-8")
    fixed = _run(".")
    assert fixed == _run(".", "--no-cache")
    assert "T008" not in fixed[1]


def _rewrite_units(cache: Path, change) -> None:
    """Sign the game's units entry again after `change(units)` (as only we can)."""
    (entry,) = _units(cache)
    store = SignedStore.open(validate_cache.STORE, validate_cache.MAX_ENTRY_BYTES)
    assert store is not None
    payload = store.read(entry.name)
    assert payload is not None
    kept = marshal.loads(payload)
    units = {name: marshal.loads(value) for name, value in kept["units"].items()}
    change(units)
    kept["units"] = {name: marshal.dumps(value) for name, value in units.items()}
    assert store.write(entry.name, marshal.dumps(kept))


@pytest.mark.parametrize(
    "bad", [None, "x", [True], [[-1, 0, 0, 1, 1, []]], [["en", 99]], [9, 1.5, ["a"]]]
)
def test_a_kept_value_of_another_shape_is_worked_out_afresh(cache, tmp_path, monkeypatch, bad):
    game = build_case(FIXTURES / "broken" / "text-overflow", tmp_path / "game")
    monkeypatch.chdir(game)
    expected = _run(".", "--no-cache")
    assert expected[0] == 1 and "P001" in expected[1]
    assert _run(".") == expected

    def spoil(units: dict) -> None:
        for name in units:
            units[name] = bad

    _rewrite_units(cache, spoil)
    manifest = Path("game.yaml")  # the game's folder is the current one
    manifest.write_text(manifest.read_text("utf-8") + "\n", "utf-8")
    textfit.fit.cache_clear()
    assert _run(".") == expected


def test_a_kept_value_whose_bytes_are_not_marshal_data_is_worked_out_afresh(
    cache, tmp_path, monkeypatch
):
    """Each unit's value is its own marshal bytes in the entry, decoded when asked for: bytes
    that do not decode (cut short, or not marshal data at all) are a missing unit."""
    expected, store, entry, kept = _kept_units(cache, tmp_path, monkeypatch)
    for at, name in enumerate(sorted(kept["units"])):
        kept["units"][name] = kept["units"][name][:-1] if at % 2 else b"\xffnot marshal"
    assert store.write(entry.name, marshal.dumps(kept))
    manifest = Path("game.yaml")  # the game's folder is the current one
    manifest.write_text(manifest.read_text("utf-8") + "\n", "utf-8")
    textfit.fit.cache_clear()
    assert _run(".") == expected


def test_the_units_read_back_are_written_again_as_the_bytes_read(cache, tmp_path, monkeypatch):
    """After an edit, every unit read back unchanged is kept as the bytes the entry held (not
    decoded and encoded again), and the entry holds each value marshalled apart."""
    expected, store, entry, kept = _kept_units(cache, tmp_path, monkeypatch)
    before = kept["units"]
    assert before and all(type(value) is bytes for value in before.values())
    dumped: list[object] = []
    real_dumps = marshal.dumps

    class Spy:
        loads = staticmethod(marshal.loads)

        @staticmethod
        def dumps(value: object, *version: int) -> bytes:
            dumped.append(value)
            return real_dumps(value, *version)

    monkeypatch.setattr(validate_cache, "marshal", Spy)
    manifest = Path("game.yaml")  # the game's folder is the current one
    manifest.write_text(manifest.read_text("utf-8") + "\n", "utf-8")
    textfit.fit.cache_clear()
    assert _run(".") == expected
    after = marshal.loads(store.read(entry.name) or b"")["units"]
    assert all(type(value) is bytes for value in after.values())
    same = [name for name in after if after[name] == before.get(name)]
    assert len(same) > len(after) // 2  # most read back as they were
    # the entry itself, the file stamps' entry (`STATS`, marshal data too), and only the
    # values worked out anew (a `Clean` unit's, say)
    assert len(dumped) <= 2 + len(after) - len(same)


def test_a_tampered_units_entry_is_ignored(cache, tmp_path, monkeypatch):
    game = build_case(FIXTURES / "broken" / "text-overflow", tmp_path / "game")
    monkeypatch.chdir(game)
    expected = _run(".", "--no-cache")
    assert _run(".") == expected
    (entry,) = _units(cache)
    signed = bytearray(entry.read_bytes())
    signed[-1] ^= 1  # the MAC kept, the payload not what it signs
    entry.write_bytes(bytes(signed))
    manifest = Path("game.yaml")  # the game's folder is the current one
    manifest.write_text(manifest.read_text("utf-8") + "\n", "utf-8")
    textfit.fit.cache_clear()
    assert _run(".") == expected


def test_a_font_of_the_game_changing_drops_its_units(cache, tmp_path, monkeypatch):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    (game / "fonts").mkdir()
    font = game / "fonts" / "Extra.ttf"
    shutil.copy(REPO / "templates" / "fonts" / "NotoSans-Regular.ttf", font)
    monkeypatch.chdir(game)
    assert _run(".")[0] == 0
    shutil.copy(REPO / "templates" / "fonts" / "NotoSans-Bold.ttf", font)
    said = _run(".", "-v")[1]
    assert "the code or fonts changed since the units" in said


def test_a_unit_is_named_by_every_argument():
    base = ["text", 10.0, 20.0, 9.0, 6.0, "regular", "en", ["die"]]
    names = {Units.name("fit", base)}
    for at, other in enumerate(["texts", 10.5, 20.5, 9.5, 6.5, "bold", "fr", ["coin"]]):
        changed = list(base)
        changed[at] = other
        names.add(Units.name("fit", changed))
    names.add(Units.name("face", base))
    assert len(names) == 10


def test_units_are_off_without_the_cache(tmp_path, monkeypatch):
    """conftest turns the cache off: no unit is consulted or kept."""
    seen = []
    monkeypatch.setattr(unit_cache.Units, "get", lambda self, *a: seen.append(a))
    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    assert _run(".")[0] == 0
    assert seen == [] and unit_cache.active() is None


def test_a_fit_is_kept_for_its_own_setting():
    """Two fits that differ only in the language (French hyphenates, English does not) are
    two units: the second run reads back each its own."""
    word = "anticonstitutionnellement"
    settings = [textfit.Setting(9.0, 9.0, "regular", lang) for lang in ("fr", "en")]
    args = [(word, 60.0, 40.0, s) for s in settings]
    truth = [textfit._fit(*a) for a in args]
    assert truth[0] != truth[1]
    first = Units()
    with unit_cache.activated(first):
        textfit.fit.cache_clear()
        assert [textfit.fit(*a) for a in args] == truth
    second = Units(json.loads(json.dumps(first.used)))
    with unit_cache.activated(second):
        textfit.fit.cache_clear()
        assert [textfit.fit(*a) for a in args] == truth
    assert second.worked_out == 0
    textfit.fit.cache_clear()


def test_a_change_to_the_code_drops_the_units(cache, tmp_path, monkeypatch):
    code = tmp_path / "code"
    code.mkdir()
    (code / "rule.py").write_text("LIMIT = 1\n", encoding="utf-8")
    monkeypatch.setattr(validate_cache, "shared_trees", lambda: [("toolkit", str(code))])
    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    assert _run(".")[0] == 0
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text("utf-8").replace("Move {steps}", "Go {steps}"), "utf-8")
    assert "unit result(s) kept" in _run(".", "-v")[1]
    (code / "rule.py").write_text("LIMIT = 2\n", encoding="utf-8")
    assert "the code or fonts changed since the units" in _run(".", "-v")[1]


def test_a_face_names_an_infinity_a_nan_and_nothing_apart():
    """Three cards that print 'inf', 'nan' and 'None' are three faces (pydantic's JSON mode
    writes all three values as null)."""
    from pydantic import BaseModel

    from toolkit.render.face_units import _model

    class Card(BaseModel):
        points: float | None

    named = {unit_cache.to_json(_model(Card(points=v))) for v in (float("inf"), float("nan"), None)}
    assert len(named) == 3


def test_a_face_names_every_field_of_the_class_a_value_has():
    """Two cards whose field, typed as a base class, holds subclasses that differ only in a
    field of their own (or only in their class), or whose dict keys come in another order,
    name two faces; a type the name cannot write is not named (worked out, not kept)."""
    from enum import Enum

    from pydantic import BaseModel, ConfigDict

    from toolkit.render.face_units import _model

    class Effect(BaseModel):
        amount: int = 1

    class Gain(Effect):
        what: str = "coin"

    class Lose(Effect):
        what: str = "coin"

    class Colour(Enum):
        RED = 1
        BLUE = 2

    class Card(BaseModel):
        model_config = ConfigDict(extra="allow")
        effect: Effect
        table: dict[str, int] = {}
        colour: Colour = Colour.RED
        pair: tuple[int, int] | list[int] = (1, 2)

    cards = [
        Card(effect=Gain(what="coin")),
        Card(effect=Gain(what="card")),
        Card(effect=Lose(what="coin")),
        Card(effect=Effect()),
        Card(effect=Gain(what="coin"), table={"a": 1, "b": 2}),
        Card(effect=Gain(what="coin"), table={"b": 2, "a": 1}),
        Card(effect=Gain(what="coin"), colour=Colour.BLUE),
        Card(effect=Gain(what="coin"), pair=[1, 2]),
        Card(effect=Gain(what="coin"), note="extra"),
        Card(effect=Gain(what="coin"), pair=(1, True)),
    ]
    named = {unit_cache.to_json(_model(card)) for card in cards}
    assert len(named) == len(cards)
    assert unit_cache.to_json(_model(cards[0])) == unit_cache.to_json(
        _model(Card(effect=Gain(what="coin")))
    )

    class Odd(BaseModel):
        model_config = ConfigDict(arbitrary_types_allowed=True)
        thing: object

    with pytest.raises(TypeError):
        _model(Odd(thing=object()))


def test_naming_a_face_builds_no_serializer():
    """The models defer building their serializers; naming a card reads its attributes and
    builds none (a dump would build its class's schema first: ~25 ms per card class)."""
    from pydantic import BaseModel, ConfigDict, TypeAdapter

    from toolkit.render.face_units import _model

    class Card(BaseModel):
        model_config = ConfigDict(defer_build=True)
        text: str

    class Deck(BaseModel):
        cards: list[Card]

    deck = TypeAdapter(Deck).validate_python({"cards": [{"text": "a"}]})
    built = type(Card.__pydantic_serializer__).__name__
    _model(deck.cards[0])
    assert type(Card.__pydantic_serializer__).__name__ == built == "MockValSer"


def _question_overflow(tmp_path: Path) -> tuple[Path, Path]:
    game = build_case(FIXTURES / "broken" / "question-overflow", tmp_path / "game")
    return game, game / "questions" / "bank.yaml"


def test_a_question_s_findings_are_placed_again_where_its_fields_now_are(
    cache, tmp_path, monkeypatch
):
    """A question's print-fit findings are kept as the data paths they point at: lines
    added above it move them, without its faces being resolved or fitted again."""
    import toolkit.checks.printfit as printfit

    game, bank = _question_overflow(tmp_path)
    monkeypatch.chdir(game)
    faces = _count(monkeypatch, printfit, "_question_face")
    cold = _run(".", "-f", "json")
    assert [(d["code"], d["line"]) for d in json.loads(cold[1])] == [("P001", 12)]
    assert faces[0] > 0
    text = bank.read_text("utf-8")
    bank.write_text(text.replace("id: bank\n", "id: bank\n# two lines\n# more\n"), "utf-8")
    faces[0] = 0
    moved = _run(".", "-f", "json")
    assert faces[0] == 0, "the question's findings were worked out again"
    assert [(d["code"], d["line"]) for d in json.loads(moved[1])] == [("P001", 14)]
    assert moved == _run(".", "-f", "json", "--no-cache")


def test_a_question_edit_works_its_findings_out_again(cache, tmp_path, monkeypatch):
    """The kept findings are named by the question itself (and what its faces read): a
    question shortened to fit has no finding left, a layout's box made smaller brings
    one back; each as a run without the cache says."""
    game, bank = _question_overflow(tmp_path)
    monkeypatch.chdir(game)
    assert "P001" in _run(".")[1]
    text = bank.read_text("utf-8")
    start = text.index("      es: ¿Cuántas")
    end = text.index("\n", start)
    bank.write_text(text[:start] + "      es: ¿Cuántas caras?" + text[end:], "utf-8")
    short = _run(".")
    assert "P001" not in short[1], short
    assert short == _run(".", "--no-cache")
    bank.write_text(text, "utf-8")
    assert _run(".") == _run(".", "--no-cache")


@pytest.mark.parametrize(
    "case", ["question-overflow", "answer-overflow", "fact-overflow", "text-overflow"]
)
def test_lines_shifted_in_every_file_same_findings_as_without_the_cache(case, cache, tmp_path):
    """Checked once (units kept), then every YAML file of the game gets two lines at its
    top: the findings read back from units are placed where a run without the cache puts
    them."""
    game = build_case(FIXTURES / "broken" / case, tmp_path / "game")
    assert _run(str(game), "-f", "json")[0] == 1
    for path in sorted(game.rglob("*.yaml")):
        path.write_text("# shifted\n# down\n" + path.read_text("utf-8"), "utf-8")
    shifted = _run(str(game), "-f", "json")
    assert shifted == _run(str(game), "-f", "json", "--no-cache")
    assert any(d["code"] == "P001" for d in json.loads(shifted[1]))


def test_a_kept_value_is_what_json_gives_back(cache, tmp_path, monkeypatch):  # noqa: F811
    """The units entry is written by marshal, each value as JSON gives it back (a tuple a
    list, an integer key a text): a unit reads what a JSON entry gave it; a value JSON
    cannot write is not kept."""
    units = Units()
    units.put("a", {"k": (1, [2, (3,)]), "n": None})
    units.put("b", {1: "one"})
    units.put("c", {"x": object()})
    units.put("d", [1.5, float("inf"), "t", True])
    assert units.used == {
        "a": {"k": [1, [2, [3]]], "n": None},
        "b": {"1": "one"},
        "d": [1.5, float("inf"), "t", True],
    }
    assert type(units.used["a"]["k"]) is list and units.worked_out == 3
    expected, store, entry, kept = _kept_units(cache, tmp_path, monkeypatch)
    assert kept["format"] == validate_cache.UNITS_FORMAT and kept["units"]
    values = {name: marshal.loads(value) for name, value in kept["units"].items()}
    assert json.loads(json.dumps(values)) == values


def test_json_own_tells_what_json_gives_back_at_any_depth():
    """`_json_own` (what `Units.put` keeps as it is, without a JSON round trip) says yes
    exactly for JSON's own data: a tuple, a non-text key, a set or an object anywhere inside
    (a scalar beside it or not) says no, and so does nesting past its depth."""
    from toolkit.content.unit_cache import _json_own

    own = ["t", 1, 1.5, True, None, float("inf"), [], {}, ["a", [1, {"k": [None, 2.5]}]]]
    for value in own:
        assert _json_own(value), value
    for value in (
        (1,),
        ["a", 1, (2,)],
        ["a", [1, [2, {1: "x"}]]],
        {"k": "v", "n": {"m": ["ok", b"x"]}},
        {True: 1},
        {"s": {1, 2}},
        [1, 2, object()],
    ):
        assert not _json_own(value), value
    deep: list = []
    for _ in range(100):
        deep = [deep]
    assert _json_own(deep)
    assert not _json_own([deep])  # past 100 lists in lists: not told, kept by a round trip
    assert not _json_own({"k": [deep]})
