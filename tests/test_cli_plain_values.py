"""The command line reads a plain option value (a flag, a text, texts, a number in bounds)
without the pydantic validator typer builds for each parameter it reads (toolkit.cli.
help_types._Plain): a `validate` served by its cache imports none of what those are made
with. Every value reads as typer reads it, and typer says what is wrong with a bad one."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from typing import Any

import pytest

from tests.conftest import FIXTURES, relink_modelines
from toolkit.cli import make_app
from toolkit.cli.help_types import _readable_params


def _imported(done: subprocess.CompletedProcess[str]) -> set[str]:
    return {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}


def test_a_validate_served_by_its_cache_builds_no_typer_validator(tmp_path):
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    relink_modelines(game)
    env = {k: v for k, v in os.environ.items() if k != "PLAYSET_NO_CACHE"}
    env.update(PLAYSET_CACHE=str(tmp_path / "cache"), PLAYSET_WORKERS="1")
    command = [sys.executable, "-X", "importtime", "-m", "toolkit", "validate", str(game)]
    first = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert first.returncode in (0, 1), first.stderr[-2000:]
    again = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert again.returncode == first.returncode, again.stderr[-2000:]
    imported = _imported(again)
    assert "toolkit.diagnostics.formats" in imported  # the command ran
    assert "toolkit.checks" not in imported  # served by the cache
    assert "typer._adapters" not in imported
    assert "pydantic.main" not in imported


def test_a_validate_served_by_its_cache_imports_no_pydantic(tmp_path):
    """No validator is built, so pydantic's plugin loader (and pydantic with it) is not
    imported to be told it has no plugins, and the entry points are not read."""
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    relink_modelines(game)
    env = {k: v for k, v in os.environ.items() if k != "PLAYSET_NO_CACHE"}
    env.update(PLAYSET_CACHE=str(tmp_path / "cache"))
    command = [sys.executable, "-X", "importtime", "-m", "toolkit", "validate", str(game)]
    first = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert "pydantic.plugin._loader" in _imported(first)  # checked: validators were built
    again = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert again.returncode == first.returncode, again.stderr[-2000:]
    imported = _imported(again)
    assert "toolkit.diagnostics.formats" in imported  # the command ran
    assert not {name for name in imported if name.split(".")[0] == "pydantic"}
    assert "importlib.metadata" not in imported


PYDANTIC_LOADER = """
import sys
from toolkit import registry
registry.spare_pydantic_scan()
assert "pydantic" not in sys.modules
from pydantic import BaseModel

class M(BaseModel):
    x: int

assert M(x=1).x == 1
loader = sys.modules["pydantic.plugin._loader"]
print(loader.entry_points.__name__, loader._plugins, "importlib.metadata" in sys.modules)
"""


def test_pydantics_plugin_loader_is_made_when_pydantic_imports_it():
    done = subprocess.run(
        [sys.executable, "-c", PYDANTIC_LOADER], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["_pydantic_entry_points", "{}", "False"]


def test_pydantic_reads_its_plugins_as_ever_when_there_are_some(monkeypatch):
    from toolkit import registry

    asked: list[dict[str, Any]] = []
    monkeypatch.setattr(registry, "_metadata_entry_points", lambda **p: asked.append(p) or ["x"])
    monkeypatch.setattr(registry, "_ALL_POINTS", [{}])
    assert list(registry._pydantic_entry_points(group="pydantic")) == []
    assert asked == []
    point = registry.Point("plugin", "some.module:plugin", "pydantic")
    monkeypatch.setattr(registry, "_ALL_POINTS", [{"pydantic": [point]}])
    assert registry._pydantic_entry_points(group="pydantic") == ["x"]
    assert asked == [{"group": "pydantic"}]


VALUES: dict[str, list[Any]] = {
    "bool": [None],
    "str": ["text", "", "a b", " x ", "\udcff", None],
    "list": [("a",), ("a", "b"), [], ("",), ("\udcff",), None],
    "int": [None, "0", "1", "2", "01", " 2", "2 ", "2x", "-3", "+3", "1_0", "99999999999", 5, 0],
}


def _params() -> tuple[Any, list[Any]]:
    import typer.main
    from typer._click import Context

    command = typer.main.get_command(make_app("validate")).commands["validate"]  # type: ignore[attr-defined]
    ctx = Context(command)
    return ctx, _readable_params(command.get_params(ctx))


def _read(reader: Any, value: Any, param: Any, ctx: Any) -> tuple[str, Any]:
    from typer._click.exceptions import BadParameter

    try:
        return "value", reader.coerce(value, param=param, ctx=ctx)
    except BadParameter as exc:
        return "refused", exc.format_message()


def test_every_plain_value_reads_as_typer_reads_it():
    from typer._coercion import build_runtime_param

    from toolkit.cli.help_types import _plain_kind

    ctx, params = _params()
    kinds = {param.name: _plain_kind(param) for param in params}
    assert {kinds["games"], kinds["fmt"], kinds["select"], kinds["workers"]} == {
        "list",
        "str",
        "int",
    }
    assert kinds["verbose"] == "bool"
    compared = 0
    for param in params:
        kind = kinds[param.name]
        if kind is None:
            continue
        typers = build_runtime_param(param.type_descriptor)
        for value in VALUES[kind]:
            if param.multiple or param.nargs == -1:
                value = tuple(value) if isinstance(value, list) else value
            ours = _read(param.get_runtime_param(), value, param, ctx)
            assert ours == _read(typers, value, param, ctx), (param.name, value)
            compared += 1
    assert compared > 30


@pytest.mark.parametrize("value", ["0", "-1", "abc", "1.5"])
def test_a_bad_number_is_refused_in_typers_words(value):
    ctx, params = _params()
    (workers,) = [param for param in params if param.name == "workers"]
    kind, said = _read(workers.get_runtime_param(), value, workers, ctx)
    assert kind == "refused" and said


def test_a_validate_served_by_its_cache_imports_nothing_it_writes_with(tmp_path):
    """`tempfile` and `secrets` (and `random` behind them) are imported by what writes a
    file or a cache entry: a warm run writes none."""
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    relink_modelines(game)
    env = {k: v for k, v in os.environ.items() if k != "PLAYSET_NO_CACHE"}
    env.update(PLAYSET_CACHE=str(tmp_path / "cache"), TMPDIR="relative/tmp")
    command = [sys.executable, "-X", "importtime", "-m", "toolkit", "validate", str(game)]
    first = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert "tempfile" in _imported(first)  # it wrote its entries
    again = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert again.returncode == first.returncode, again.stderr[-2000:]
    imported = _imported(again)
    assert "toolkit.diagnostics.formats" in imported  # the command ran
    assert not {"tempfile", "secrets", "random"} & imported
