"""Every broken-content fixture yields exactly one diagnostic, at the asserted place."""

from __future__ import annotations

import json

import pytest

from tests.conftest import FIXTURES, build_case, diagnostics_json

CASES = sorted(p for p in (FIXTURES / "broken").iterdir() if p.is_dir())


def test_corpus_is_large_enough():
    assert len(CASES) >= 30


def test_base_fixture_is_clean(run_cli, tmp_path, monkeypatch):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    result = run_cli("validate", ".", "--format", "json")
    assert result.exit_code == 0, result.output
    assert diagnostics_json(result.stdout) == []


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_broken_case(case, run_cli, tmp_path, monkeypatch):
    expect = json.loads((case / "expect.json").read_text())
    game = build_case(case, tmp_path / "game")
    monkeypatch.chdir(game)
    result = run_cli("validate", ".", "--format", "json")
    found = diagnostics_json(result.stdout)
    assert len(found) == 1, found
    (diag,) = found
    # errors exit 1; a warning exits 0 unless --strict (as yamllint and ESLint)
    assert result.exit_code == (1 if diag["severity"] == "error" else 0), result.output
    if diag["severity"] == "warning":
        assert run_cli("validate", ".", "--strict").exit_code == 1
    got = {k: diag[k] for k in ("code", "file", "line", "col")}
    assert got == {k: expect[k] for k in ("code", "file", "line", "col")}, diag["message"]
    assert diag["message"]
