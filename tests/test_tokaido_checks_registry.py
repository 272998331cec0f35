"""Tokaido's G checks: one module per rule group, each check registered by a decorator under
the rule it reports; the plugin's CHECKS is every registered check in rule-code order (no
hand-kept list to forget a check in)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from toolkit.diagnostics import REGISTRY
from toolkit.games.tokaido import checks
from toolkit.games.tokaido.checks import base

PACKAGE = Path(checks.__file__).parent


def _rules_declared() -> dict[str, str]:
    """G code -> module, for every `rule("G…", …)` written in the package."""
    found = {}
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "rule":
                code = node.args[0]
                if isinstance(code, ast.Constant) and str(code.value).startswith("G"):
                    found[str(code.value)] = path.stem
    return found


def test_every_rule_of_the_package_has_one_check_and_they_run_in_code_order():
    declared = _rules_declared()
    assert sorted(base._REGISTERED) == sorted(declared)  # one check per rule, none left out
    names = [base._REGISTERED[code].__name__ for code in sorted(declared)]
    assert [c.__name__ for c in checks.CHECKS] == names


def test_each_rule_group_is_its_own_module():
    modules = set(_rules_declared().values())
    assert modules == {"road", "decks", "setup", "cards"}


def test_a_second_check_for_one_rule_is_refused(monkeypatch):
    monkeypatch.setattr(base, "_REGISTERED", dict(base._REGISTERED))
    taken = next(iter(base._REGISTERED))
    with pytest.raises(ValueError, match=f"two checks report {taken}"):
        base.check(REGISTRY.get(taken))(lambda game: iter(()))
