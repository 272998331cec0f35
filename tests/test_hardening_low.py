"""Hardening, low-severity findings: a language's PDFs replaced together, honest size and
character diagnostics, strict booleans, a repeated --option, a note before slow bots."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO
from toolkit.content import source

DECK = "decks/cards.yaml"


def _diags(run_cli, root: Path) -> list[dict]:
    result = run_cli("validate", str(root), "--format", "json")
    return json.loads(result.stdout or "[]")


def test_a_failing_rulebook_leaves_every_old_pdf_of_its_language(run_cli, tmp_path):
    heroes = tmp_path / "dh"
    shutil.copytree(REPO / "content" / "drinking-heroes", heroes)
    out = tmp_path / "out"
    assert run_cli("build", str(heroes), "--lang", "en", "--out", str(out)).exit_code == 0
    folder = out / "drinking-heroes" / "en"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert {"cards.pdf", "rulebook.pdf"} <= set(before)
    deck = heroes / "decks" / "heroes.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    (heroes / "rulebook" / "en.md").write_text("{{ no_such_name }}\n", encoding="utf-8")
    result = run_cli("build", str(heroes), "--lang", "en", "--out", str(out))
    assert result.exit_code == 1 and "rulebook/en.md:1" in result.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_a_long_plain_list_is_too_large_not_an_alias_bomb(game, run_cli, monkeypatch):
    # The limit lowered tenfold (200,000 values took 3 s of CPU to read): the same count,
    # passed by a plain list, then by an alias bomb, which expands to 10 million.
    monkeypatch.setattr(source, "MAX_NODES", 20_000)
    (game / DECK).write_text("items:\n" + "  - 1\n" * 21_000)
    found = _diags(run_cli, game)
    assert [d["code"] for d in found if d["file"].endswith(DECK)] == ["Y006"]
    bomb = "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
    for level in "bcdefg":
        prev = chr(ord(level) - 1)
        bomb += f"{level}: &{level} [" + ", ".join([f"*{prev}"] * 10) + "]\n"
    (game / DECK).write_text(bomb)
    assert [d["code"] for d in _diags(run_cli, game) if d["file"].endswith(DECK)] == ["Y004"]


@pytest.mark.parametrize(
    ("data", "line", "col"), [(b"id: x\x00y\n", 1, 6), (b"a: 1\nb: \x7f\n", 2, 4)]
)
def test_a_control_character_is_reported_where_it_is(game, run_cli, data, line, col):
    (game / DECK).write_bytes(data)
    found = [d for d in _diags(run_cli, game) if d["file"].endswith(DECK)]
    assert (found[0]["code"], found[0]["line"], found[0]["col"]) == ("Y001", line, col)
    assert "control character" in found[0]["message"]


def test_a_line_separator_in_a_comment_is_no_syntax_error(game, run_cli):
    path = game / DECK
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("kind: actions", "kind: actions  # a\u2028b: c", 1))
    assert not [d for d in _diags(run_cli, game) if d["file"].endswith(DECK)]
    path.write_text(text.replace("kind: actions", "kind: actions  # a\u2028- [b", 1))
    assert not [d for d in _diags(run_cli, game) if d["file"].endswith(DECK)]


def test_an_explicit_bool_tag_on_a_word_is_refused(game, run_cli):
    path = game / DECK
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    copies: 3", "    copies: !!bool 'yes'", 1))
    found = [d for d in _diags(run_cli, game) if d["file"].endswith(DECK)]
    assert found[0]["code"] == "Y008" and "'yes' is not true or false" in found[0]["message"]


def test_a_repeated_option_is_a_usage_error(run_cli):
    result = run_cli(
        "simulate", "drinking-heroes", "--option", "mode=cooperative", "--option", "mode=versus"
    )
    assert result.exit_code == 2 and "given twice" in result.stderr


@pytest.mark.parametrize(
    ("command", "flag", "values"),
    [
        ("replay", "--set", ("rules.die_sides=6", "rules.die_sides=8")),
        ("sweep", "--vary", ("rules.die_sides=6", "rules.die_sides=8")),
        ("tune", "--param", ("rules.die_sides=4..8", "rules.die_sides=5..9")),
    ],
)
def test_a_repeated_rules_path_is_a_usage_error(run_cli, command, flag, values):
    """The later value used to replace the first silently (the label still showed both)."""
    args = [command, "drinking-heroes"]
    for value in values:
        args += [flag, value]
    if command == "tune":
        args += ["--objective", "first_seat_win_rate=0.25"]
    result = run_cli(*args)
    assert result.exit_code == 2, result.output
    assert f"{flag} rules.die_sides is given twice" in result.stderr


def test_mcts_bots_get_a_note_before_they_start(run_cli):
    result = run_cli("simulate", "drinking-heroes", "-n", "1", "--bots", "mcts,random")
    assert result.exit_code == 0
    assert result.stderr.startswith("note: mcts bots run many playouts per move")
