"""Every bundled game's G checks: one module per rule group in the game's `checks` package,
each check registered by the `check` decorator under the rules it reports, from the module
that declares them; the plugin's checks are what was registered, in rule-code order (no
hand-kept list to forget a check in)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from toolkit.content.plugin import REGISTRY

GROUPS = {
    "whisky-game": {"bottles", "regions", "map", "cards", "components"},
    "muckle-stoater": {"players", "track", "pack"},
    "drinking-heroes": {"heroes", "monsters", "spells", "setup", "texts"},
    "tokaido": {"road", "decks", "setup", "cards"},
}


def _rules_declared(package: Path) -> dict[str, str]:
    """G code -> module, for every `rule("G…", …)` written in the package."""
    found = {}
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "rule":
                code = node.args[0]
                if isinstance(code, ast.Constant) and str(code.value).startswith("G"):
                    found[str(code.value)] = path.stem
    return found


@pytest.mark.parametrize("game", sorted(GROUPS))
def test_each_rule_group_registers_its_checks_and_the_plugin_runs_them(game):
    package = f"toolkit.games.{game.replace('-', '_')}.checks"
    checks = importlib.import_module(package)
    by_code = importlib.import_module(f"{package}.base").CHECKS_BY_RULE.by_code
    declared = _rules_declared(Path(str(checks.__file__)).parent)
    assert set(declared.values()) == GROUPS[game]  # the rules live in their groups' modules
    assert sorted(by_code) == sorted(declared)  # every rule has its registered check
    for code, module in declared.items():
        assert by_code[code].__module__ == f"{package}.{module}", code
    ordered = dict.fromkeys(by_code[code] for code in sorted(by_code))
    plugin = REGISTRY[game]
    assert [c.__name__ for c in plugin.checks] == [fn.__name__ for fn in ordered]
    assert plugin.checks == checks.CHECKS
