"""The one registry shape (`toolkit.registry.Registry`): names, order, discovery from a
package and from an entry-point group, a broken entry point noted rather than fatal."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import pytest

from tests.outside import installed
from toolkit.registry import Registry, package_modules


@dataclass(frozen=True)
class Entry:
    name: str
    order: int = 100


def test_entries_come_by_rank_then_in_the_order_registered():
    made: Registry[Entry] = Registry("thing", rank=lambda e: e.order)
    made.register(Entry("late"))
    made.register(Entry("first", 1))
    made.register(Entry("later"))
    assert list(made.load()) == ["first", "late", "later"]
    assert made.register(Entry("late")) == Entry("late")  # the same entry again: kept
    with pytest.raises(ValueError, match="thing 'late' registered twice"):
        made.register(Entry("late", 5))
    made.unregister("late")
    assert "late" not in made and len(made) == 2


def _made_package(tmp_path, monkeypatch, package: str, modules: tuple[str, ...]) -> None:
    """An importable package `package` whose `THINGS` registry has `package=` itself, and a
    module for each of `modules` registering an `Entry` of its own name."""
    folder = tmp_path / package
    folder.mkdir()
    (folder / "__init__.py").write_text(
        "from tests.test_registry import Entry\n"
        "from toolkit.registry import Registry\n"
        "THINGS = Registry('thing', package=__name__)\n"
    )
    for name in modules:
        (folder / f"{name}.py").write_text(
            f"from {package} import THINGS, Entry\nTHINGS.register(Entry({name!r}))\n"
        )
    monkeypatch.syspath_prepend(str(tmp_path))


def test_the_package_is_imported_module_by_module_in_name_order(tmp_path, monkeypatch):
    _made_package(tmp_path, monkeypatch, "made_things", ("beta", "alpha", "_private"))
    try:
        from made_things import THINGS  # type: ignore[import-not-found]

        assert package_modules("made_things") == ["made_things.alpha", "made_things.beta"]
        assert list(THINGS.load()) == ["alpha", "beta"]  # found, in name order
    finally:
        for name in ("made_things", "made_things.alpha", "made_things.beta"):
            sys.modules.pop(name, None)


def test_an_outside_entry_taking_a_builtin_name_before_discovery_leaves_the_builtins_whole(
    tmp_path, monkeypatch
):
    """A package registering a built-in's name before anything looked for the built-ins was
    accepted, and the built-in's module then failed mid-discovery: every kind after it was
    missing for the rest of the process (a CI worker's layouts lost `box`, 614 tests)."""
    _made_package(tmp_path, monkeypatch, "early_things", ("alpha", "beta", "gamma"))
    try:
        from early_things import THINGS  # type: ignore[import-not-found]

        # registered from this test module, as a plugin's own import would
        with pytest.raises(ValueError, match="thing 'alpha' registered twice"):
            THINGS.register(Entry("alpha", 5))
        assert list(THINGS.load()) == ["alpha", "beta", "gamma"]
    finally:
        for name in ("early_things", *(f"early_things.{n}" for n in ("alpha", "beta", "gamma"))):
            sys.modules.pop(name, None)


def test_an_entry_point_gives_an_entry_or_a_module_that_registers_and_a_broken_one_is_noted(
    tmp_path,
):
    made: Registry[Entry] = Registry(
        "thing", group="playset.test-things", accepts=lambda obj: isinstance(obj, Entry)
    )
    source = """
        from tests.test_registry import Entry
        ENTRY = Entry("pointed")
        raise_me = None
        """
    points = {"pointed": "outside_things:ENTRY", "broken": "outside_things_missing:X"}
    with installed(tmp_path, "outside_things", source, "playset.test-things", points, made):
        assert list(made.load()) == ["pointed"]
        assert made.origin("pointed") == "outside_things"
        assert "ModuleNotFoundError" in made.broken["broken"]
    assert list(made.load()) == []


def test_a_bundled_game_is_found_in_its_package_without_an_entry_point():
    """A new game under toolkit/games is one package exposing PLUGIN: no pyproject line."""
    from toolkit.content.game import bundled_games
    from toolkit.content.plugin import REGISTRY, GamePlugin

    made: Registry[GamePlugin] = Registry(
        "game plugin",
        package=REGISTRY.package,
        key=lambda plugin: plugin.game_id,
        accepts=lambda obj: isinstance(obj, GamePlugin),
        attribute="PLUGIN",
    )
    made.entry_points = lambda group: []
    assert sorted(made.load()) == sorted(bundled_games())
    one: Registry[GamePlugin] = Registry(
        "game plugin",
        package=REGISTRY.package,
        key=lambda plugin: plugin.game_id,
        accepts=lambda obj: isinstance(obj, GamePlugin),
        attribute="PLUGIN",
    )
    one.discover_one("muckle-stoater")
    assert list(one.registered()) == ["muckle-stoater"]


def _register_from(module: str, registry: Registry[Entry], entry: Entry) -> None:
    """`registry.register(entry)` called from code of the module named `module`."""
    exec("registry.register(entry)", {"__name__": module, "registry": registry, "entry": entry})


def test_a_builtin_declared_after_a_plugin_module_took_its_name_wins_and_names_the_plugin(
    capsys,
):
    """A game plugin (loaded by the games' registry) declaring a rule with a built-in's code
    before the check module declaring it was imported: every checking command ended in a
    traceback, the plugin unnamed (probe 39 M1). The built-in wins; the plugin is named."""
    made: Registry[Entry] = Registry("rule code")  # no package: built-ins declared late
    _register_from("evil_plugin", made, Entry("T001", 1))
    _register_from("toolkit.some_check", made, Entry("T001", 2))
    assert made["T001"] == Entry("T001", 2)
    assert made.is_builtin("T001") and "evil_plugin" in made.broken
    assert "module `evil_plugin`" in capsys.readouterr().err
    with pytest.raises(ValueError, match="registered twice"):  # the other way round: refused
        _register_from("evil_plugin", made, Entry("T001", 3))
