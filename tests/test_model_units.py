"""A content file's validated model kept between `validate` runs (toolkit.content.model_units),
as plain data (marshal), never pickled: after one file is edited only that file is validated
again; a model read back is the model a validation gives, at every level; an entry that is
tampered with, foreign, or names anything but a toolkit model class is validated afresh; a
model holding anything but plain values is not kept; only Playset's own plugins' models are
kept."""

from __future__ import annotations

import datetime
import json
import marshal
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from tests.conftest import FIXTURES, REPO, build_case
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.content import game as game_module
from toolkit.content import model_units, validate_cache
from toolkit.content.game import bundled_games, load_game
from toolkit.content.plugin import GamePlugin, plugin_for
from toolkit.content.unit_cache import FileUnits, NotKept, Units, activated
from toolkit.render import textfit
from toolkit.usercache import SignedStore


def _validated(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files validated from here on (their display paths)."""
    seen: list[str] = []
    real = game_module.validate_document

    def counting(doc, adapter):
        seen.append(doc.display)
        return real(doc, adapter)

    monkeypatch.setattr(game_module, "validate_document", counting)
    real_plain = GamePlugin.plain_manifest
    monkeypatch.setattr(
        GamePlugin,
        "plain_manifest",
        lambda self, data: seen.append("plain manifest") or real_plain(self, data),
    )
    return seen


@pytest.mark.usefixtures("cache")
def test_an_edit_validates_again_only_the_edited_file(tmp_path, monkeypatch):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    validated = _validated(monkeypatch)
    textfit.fit.cache_clear()
    cold = _run(".")
    assert len(validated) >= 4, validated  # the manifest, a deck, a board, a question bank
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text("utf-8").replace("Move {steps}", "Go {steps}"), "utf-8")
    validated.clear()
    textfit.fit.cache_clear()
    edited = _run(".")
    assert [Path(name).name for name in validated] == ["cards.yaml"], validated
    assert edited == _run(".", "--no-cache")
    assert edited[0] == cold[0]


_VALIDATORS_MADE = """
import json, sys
from pydantic import TypeAdapter
made = []
real = TypeAdapter.__init__
def counted(self, type_, *args, **kwargs):
    made.append(getattr(type_, "__name__", repr(type_)))
    real(self, type_, *args, **kwargs)
TypeAdapter.__init__ = counted
sys.argv = ["-c", "validate", sys.argv[1]]
from toolkit.cli import main
try:
    main()
except SystemExit as done:
    print(done.code)
print(json.dumps(made))
"""


def _validators_made(game: Path) -> tuple[list[str], list[str]]:
    """What `validate game` prints in a process of its own, and the types it made a pydantic
    validator (TypeAdapter) of."""
    done = subprocess.run(
        [sys.executable, "-c", _VALIDATORS_MADE, str(game)],
        capture_output=True,
        text=True,
        check=True,
        cwd=game,
    )
    *said, made = done.stdout.splitlines()
    return said, json.loads(made)


@pytest.mark.usefixtures("cache")
def test_a_deck_edit_makes_no_validator_of_the_files_it_did_not_change(tmp_path):
    """After a deck file alone is edited, a fresh `validate` process makes the validator of
    that deck's kind only: not the manifest's, the board's, the question bank's, the
    glossary's nor the layouts' (their schemas are the largest part of loading a game)."""
    game = build_case(FIXTURES / "base", tmp_path / "game")
    said, cold = _validators_made(game)
    kinds = {
        "FixtureGameManifest",
        "GenericDeck",
        "GraphBoard",
        "QuestionBank",
        "Glossary",
        "Layout",
    }
    assert kinds <= set(cold), cold
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text("utf-8").replace("Move {steps}", "Go {steps}"), "utf-8")
    edited_said, edited = _validators_made(game)
    assert kinds & set(edited) == {"GenericDeck"}, edited
    assert edited_said == said


def _entries(cache_folder: Path) -> list[Path]:
    return sorted((cache_folder.parent / validate_cache.FILES_STORE).glob(f"{model_units.KIND}-*"))


@pytest.mark.usefixtures("cache")
@pytest.mark.parametrize("game_id", sorted(bundled_games()))
def test_a_model_read_back_is_the_model_validation_gives(game_id, tmp_path, monkeypatch):
    """Every file of every bundled game: the model read back is equal to the validated one,
    of the same class, with the same fields set, at every level (a tuple a tuple, an integer
    an integer)."""
    game = tmp_path / game_id
    build_case(REPO / "content" / game_id, game)
    monkeypatch.chdir(game)
    fresh = load_game(game)  # no units active: validated
    units = Units()
    units.files = FileUnits(_signed_store(), "test-head")
    with activated(units):
        load_game(game)  # validated, and kept
        validated = _validated(monkeypatch)
        kept = load_game(game)
    assert validated == []
    pairs = [(fresh.manifest, kept.manifest)]
    pairs += [(a.model, b.model) for a, b in zip(fresh.files(), kept.files(), strict=True)]
    assert len(pairs) > 3
    for a, b in pairs:
        assert a is not None and b is not None
        _same(a, b)


def _same(a: object, b: object) -> None:
    assert type(a) is type(b)
    if isinstance(a, BaseModel):
        assert isinstance(b, BaseModel)
        assert a == b
        assert a.model_fields_set == b.model_fields_set
        assert a.__dict__.keys() == b.__dict__.keys()
        assert a.__pydantic_private__ == b.__pydantic_private__
        assert a.__pydantic_extra__ == b.__pydantic_extra__
        for name in type(a).model_fields:
            _same(getattr(a, name), getattr(b, name))
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)  # type: ignore[arg-type]
        for x, y in zip(a, b, strict=True):  # type: ignore[call-overload]
            _same(x, y)
    elif isinstance(a, dict):
        assert list(a) == list(b)  # type: ignore[call-overload]
        for key in a:
            _same(key, next(k for k in b if k == key))  # type: ignore[attr-defined]
            _same(a[key], b[key])  # type: ignore[index]
    else:
        assert a == b or (a != a and b != b)


def _signed_store() -> SignedStore:
    store = SignedStore.open(validate_cache.FILES_STORE, validate_cache.MAX_ENTRY_BYTES)
    assert store is not None
    return store


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"not marshal data",
        marshal.dumps({"a": 1}),
        marshal.dumps(("m", ("class", "os", "system"), (), (), ())),
        marshal.dumps(("m", ("manifest",), ("title",), ("x",), ()))[:-3],
    ],
    ids=["empty", "garbage", "another-value", "another-class", "cut"],
)
def test_a_kept_model_of_another_shape_is_validated_afresh(
    payload,
    tmp_path,
    monkeypatch,
    cache,  # noqa: F811
):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    expected = _run(".", "--no-cache")
    assert _run(".") == expected
    store = _signed_store()
    entries = _entries(cache)
    assert entries
    for entry in entries:
        assert store.write(entry.name, payload)  # signed: only what it holds is wrong
    validated = _validated(monkeypatch)
    (game / "game.yaml").write_text((game / "game.yaml").read_text("utf-8") + "\n", "utf-8")
    textfit.fit.cache_clear()
    assert _run(".") == expected
    assert len(validated) >= len(entries) - 1


class _Holder(BaseModel):
    value: object = None


@pytest.mark.parametrize(
    "value",
    [
        datetime.date(2024, 1, 2),
        {"a": Path("x")},
        {1, 2},
        type("Text", (str,), {})("a str subclass"),
    ],
    ids=["date", "path", "set", "str-subclass"],
)
def test_a_model_holding_anything_but_plain_values_is_not_kept(value):
    """A value marshal would not give back as it is (or not at all) keeps the file out of
    the store: it is validated every run."""
    from toolkit.content.models.glossary import Glossary

    plugin = plugin_for(None)
    glossary = Glossary.model_validate({"terms": [{"id": "harbour", "text": {"en": "harbour"}}]})
    glossary.terms[0].__dict__["text"] = {"en": value}
    with pytest.raises(NotKept):
        model_units.encoded(glossary, plugin)


def test_only_toolkit_model_classes_are_kept_or_read():
    """A model class of another package (here, of the tests) is not kept; an entry naming a
    class that is not a toolkit model (a function of the standard library, a toolkit class
    that is no model) is refused before anything is made of it."""
    plugin = plugin_for(None)
    with pytest.raises(NotKept):
        model_units.encoded(_Holder(value=1), plugin)
    for place in (
        ("class", "os", "system"),
        ("class", "toolkit.content.unit_cache", "Units"),
        ("class", "toolkit.content.unit_cache", "active"),
        ("elsewhere",),
    ):
        payload = marshal.dumps(("m", place, (), (), ()))
        with pytest.raises(ValueError):
            model_units.decoded(payload, plugin)


def test_a_model_read_back_must_be_of_a_class_its_file_validates_to():
    plugin = plugin_for(None)
    from toolkit.content.models.glossary import Glossary

    glossary = Glossary.model_validate({"terms": [{"id": "harbour", "text": {"en": "harbour"}}]})
    payload = model_units.encoded(glossary, plugin)
    back = model_units.decoded(payload, plugin)
    _same(glossary, back)


class _Named(BaseModel):
    """A model whose field another field's alias names (model_construct takes the value
    by the alias)."""

    first: int = Field(alias="second")
    second: int = 0


def test_a_model_is_made_again_as_model_construct_makes_it():
    """The decoder's own construction (a class of no aliased field) gives what pydantic's
    `model_construct` gives: the same fields, in order, the same fields set, no extra nor
    private values; a class with an aliased field is made by `model_construct` itself."""
    from toolkit.content.models.glossary import GlossaryTerm

    state = {"id": "harbour", "text": {"en": "harbour"}}
    state = {name: state.get(name) for name in GlossaryTerm.model_fields}
    made = model_units._construct(GlossaryTerm, dict(state), {"id"})
    constructed = GlossaryTerm.model_construct({"id"}, **state)
    _same(constructed, made)
    assert made.__dict__ == constructed.__dict__
    assert list(made.__dict__) == list(constructed.__dict__)
    assert model_units._unaliased(GlossaryTerm)
    assert not model_units._unaliased(_Named)


def test_only_playsets_own_plugins_models_are_kept():
    """A game of an installed plugin (its models outside the toolkit's hashed tree) is
    validated each run: its code may change where the units' head does not look."""
    bundled = plugin_for("whisky-game")
    assert model_units._keeps(bundled)
    assert model_units._keeps(plugin_for(None))
    other = GamePlugin("whisky-game", card_models=dict(bundled.card_models))
    assert not model_units._keeps(other)  # not the plugin registered under its id
    installed = GamePlugin("an-installed-game", card_models=dict(bundled.card_models))
    from toolkit.content import plugin as plugin_module

    plugin_module.register(installed)  # from this module: not one of Playset's own
    try:
        assert plugin_for(installed.game_id) is installed
        assert not model_units._keeps(installed)
    finally:
        plugin_module.REGISTRY.unregister(installed.game_id)


def _layouts_validated(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    from toolkit.render import layout as layouts

    seen: list[str] = []
    real = layouts.validate_document
    monkeypatch.setattr(
        layouts, "validate_document", lambda doc, a: seen.append(doc.display) or real(doc, a)
    )
    return seen


@pytest.mark.usefixtures("cache")
def test_an_edit_validates_no_layout_again(tmp_path, monkeypatch):
    """A layout's model is kept by its file's bytes too: after a card edit no layout is
    validated again, and the findings are those of a run without the cache."""
    from toolkit.render.layout import clear_layouts

    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    validated = _layouts_validated(monkeypatch)
    clear_layouts()
    textfit.fit.cache_clear()
    cold = _run(".")
    assert validated, "the game's layouts are validated in a cold run"
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text("utf-8").replace("Move {steps}", "Go {steps}"), "utf-8")
    validated.clear()
    clear_layouts()
    textfit.fit.cache_clear()
    edited = _run(".")
    assert validated == []
    clear_layouts()
    assert edited == _run(".", "--no-cache")
    assert edited[0] == cold[0]


@pytest.mark.usefixtures("cache")
def test_a_layout_read_back_is_the_layout_validation_gives(monkeypatch):
    """Every layout the toolkit ships: read back, equal to its validation at every level."""
    from toolkit.render.layout import clear_layouts, load_layout

    names = sorted(p.stem for p in (REPO / "templates" / "cards").glob("*.yaml"))
    assert len(names) > 3
    clear_layouts()
    fresh = {name: load_layout(name) for name in names}  # no units active: validated
    units = Units()
    units.files = FileUnits(_signed_store(), "test-head")
    with activated(units):
        clear_layouts()
        for name in names:
            load_layout(name)
        validated = _layouts_validated(monkeypatch)
        clear_layouts()
        kept = {name: load_layout(name) for name in names}
    clear_layouts()
    assert validated == []
    for name in names:
        (a, a_said), (b, b_said) = fresh[name], kept[name]
        assert a is not None and b is not None and a_said == b_said == (), name
        _same(a, b)


@pytest.mark.usefixtures("cache")
def test_no_layout_is_kept_while_an_installed_element_kind_is_registered(monkeypatch):
    from tests.test_element_registry import StripeElement
    from toolkit.render.elements import REGISTRY, register_element
    from toolkit.render.layout import clear_layouts, load_layout

    units = Units()
    units.files = FileUnits(_signed_store(), "test-head")
    register_element(StripeElement)
    try:
        with activated(units):
            clear_layouts()
            load_layout("standard")
            validated = _layouts_validated(monkeypatch)
            clear_layouts()
            assert load_layout("standard")[0] is not None
        assert validated, "validated again: not kept"
    finally:
        REGISTRY.remove("stripe")
        clear_layouts()
