"""The toolkit's dataclasses that a `validate` run makes each have a docstring of their own:
`dataclasses` writes one for a class without, from the class's signature (`inspect.signature`
and the text of each annotation), ~0.1 ms a class on every run that imports it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import FIXTURES, build_case

_SHOWN = """
import dataclasses, sys
from typer.testing import CliRunner
from toolkit.cli import app
done = CliRunner().invoke(app, ["validate", sys.argv[1]], catch_exceptions=False)
print("exit", done.exit_code, "toolkit.content.walk" in sys.modules)
for name, module in sorted(sys.modules.items()):
    if name != "toolkit" and not name.startswith("toolkit."):
        continue
    for value in list(vars(module).values()):
        if (
            isinstance(value, type)
            and value.__module__ == name
            and dataclasses.is_dataclass(value)
            and "__doc__" in vars(value)
            and (value.__doc__ or "").startswith(value.__name__ + "(")
        ):
            print(name + "." + value.__qualname__)
"""


def test_no_dataclass_a_validate_run_makes_has_its_signature_for_docstring(
    tmp_path: Path,
) -> None:
    game = build_case(FIXTURES / "base", tmp_path / "game")
    env = {**os.environ, "PLAYSET_CACHE": str(tmp_path / "cache")}
    env.pop("PLAYSET_NO_CACHE", None)
    done = subprocess.run(
        [sys.executable, "-c", _SHOWN, str(game)], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    shown = done.stdout.splitlines()
    assert shown[0] == "exit 0 True"  # validated (a cold cache), the facts walked
    assert shown[1:] == []
