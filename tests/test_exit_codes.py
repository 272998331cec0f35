"""Exit codes as yamllint and ESLint give them: errors exit 1; warnings are shown but exit 0
unless `--strict` (any warning) or `--max-warnings N` (more than N)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture
def warned(run_cli, tmp_path) -> Path:
    """A `playset new` game with two warnings: a French text with no space before '!'."""
    assert run_cli("new", "quay", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "quay"
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("fr: Piochez une carte.", "fr: Piochez une carte!"))
    return game


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ((), 0),
        (("--strict",), 1),
        (("--max-warnings", "0"), 1),
        (("--max-warnings", "1"), 1),
        (("--max-warnings", "2"), 0),
        (("--strict", "--exit-zero"), 0),
    ],
)
def test_warnings_exit_0_unless_asked(run_cli, warned, options, code):
    result = run_cli("validate", str(warned), "--format", "json", *options)
    found = json.loads(result.stdout)
    assert [d["severity"] for d in found] == ["warning", "warning"], found  # T013, T010
    assert result.exit_code == code


def test_errors_exit_1_whatever_the_warning_options(run_cli, warned):
    deck = warned / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("copies: 3", "copies: 0"))
    for options in ((), ("--max-warnings", "5")):
        assert run_cli("validate", str(warned), *options).exit_code == 1
