"""Every registered rule is documented by examples that prove it (as `ruff rule`): a failing
example reports exactly that code at the stated line, a passing example never reports it.
The examples are `toolkit/ruledocs/examples/<CODE>.yaml` (a game's own rules:
`toolkit/games/<id>/rule_examples/`), printed by `playset rules CODE`."""

from __future__ import annotations

import importlib
import json
import re

import pytest

from tests.conftest import REPO
from toolkit.checks import iter_rules
from toolkit.diagnostics.registry import REGISTRY
from toolkit.ruledocs import example_codes, load_example, materialise


def registered_codes() -> list[str]:
    for module in iter_rules():
        importlib.import_module(module)
    return [r.code for r in REGISTRY.all()]


CODES = registered_codes()

TEXT_FINDING = re.compile(r"^(\S+?):(\d+):(\d+): ([A-Z]\d{3}) \[(\w+)\] (.*)$", re.M)


def findings(run_cli, folder, command, monkeypatch) -> list[dict]:
    """The findings of `command` run inside the example's game folder: its JSON, or for a
    command without a JSON format (sweep) its `file:line:col: CODE [severity]` lines."""
    monkeypatch.chdir(folder)
    if command[0] == "sweep":
        result = run_cli(*command, str(folder))
        return [
            {"file": m[1], "line": int(m[2]), "col": int(m[3]), "code": m[4], "severity": m[5]}
            for m in TEXT_FINDING.finditer(result.stdout)
        ]
    result = run_cli(*command, str(folder), "--format", "json")
    return json.loads(result.stdout) if result.stdout.strip() else []


def test_every_example_names_a_registered_rule():
    assert sorted(set(example_codes()) - set(CODES)) == []


@pytest.mark.parametrize("code", CODES)
def test_rule_has_a_proven_failing_example(code, run_cli, tmp_path, monkeypatch):
    assert code in example_codes(), f"{code} has no examples (toolkit/ruledocs/examples/)"
    example = load_example(code)
    if example.unreachable:
        # No edit of a game's files produces it: the named test does it another way.
        assert example.proof is not None
        test_file, _, test_name = example.proof.partition("::")
        text = (REPO / test_file).read_text(encoding="utf-8")
        assert f"def {test_name}(" in text and code in text, example.proof
        return
    folder = materialise(example, "fail", tmp_path / "fail")
    found = findings(run_cli, folder, example.command, monkeypatch)
    places = [(d["code"], d["file"], d["line"]) for d in found]
    assert (code, example.at_file, example.at_line) in places, places
    others = {d["code"] for d in found} - {code, *example.also}
    assert others == set(), f"the failing example of {code} also reports {sorted(others)}"


_BASE_FINDINGS: dict[tuple[str, tuple[str, ...]], list[dict]] = {}


def _is_the_base(example) -> bool:
    """The passing example is the base game itself: every edit puts back what it found."""
    return all(e.find is not None and not e.pass_given for e in example.edits)


@pytest.mark.parametrize("code", CODES)
def test_rule_has_a_passing_example(code, run_cli, tmp_path, monkeypatch):
    example = load_example(code)
    if example.unreachable:
        return
    command = example.pass_command or example.command
    key = (example.base, command)
    if _is_the_base(example) and key in _BASE_FINDINGS:  # the same game: run once a session
        found = _BASE_FINDINGS[key]
    else:
        folder = materialise(example, "pass", tmp_path / "pass")
        found = findings(run_cli, folder, command, monkeypatch)
        if _is_the_base(example):
            _BASE_FINDINGS[key] = found
    assert [d for d in found if d["code"] == code] == []
    if command == ("validate",):
        assert found == [], "a passing example is a clean game"
