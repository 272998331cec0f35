"""Every registered rule code is named by at least one test or fixture expectation: a code
nobody tests can break, or be disabled, unnoticed."""

from __future__ import annotations

import importlib

from tests.conftest import FIXTURES, REPO
from toolkit.checks import iter_rules
from toolkit.diagnostics.registry import REGISTRY

TESTS = REPO / "tests"

# Codes no content can produce, with the reason; test_whole_file_rules proves it still holds
# (and fails, so the code leaves this list, the day content can produce it).
UNREACHABLE = {
    "G311": "muckle-stoater's model has max_rounds ge=1: 0 is S004, and G checks need no errors",
}


def registered_codes() -> list[str]:
    for module in iter_rules():
        importlib.import_module(module)
    return [r.code for r in REGISTRY.all()]


def named_codes() -> str:
    """The text of every test module and fixture expectation, where codes are named."""
    texts = [p.read_text(encoding="utf-8") for p in sorted(TESTS.glob("*.py"))]
    texts += [p.read_text(encoding="utf-8") for p in sorted(FIXTURES.rglob("expect.json"))]
    this = (TESTS / "test_rule_coverage.py").read_text(encoding="utf-8")
    texts.remove(this)  # naming a code here is not testing it
    return "\n".join(texts)


def test_every_registered_code_is_named_by_a_test_or_fixture():
    text = named_codes()
    uncovered = [c for c in registered_codes() if c not in text and c not in UNREACHABLE]
    assert uncovered == [], f"rule codes no test or fixture names: {', '.join(uncovered)}"


def test_unreachable_codes_are_registered():
    codes = registered_codes()
    for code in UNREACHABLE:
        assert code in codes, f"{code} is no longer registered: drop it from UNREACHABLE"
