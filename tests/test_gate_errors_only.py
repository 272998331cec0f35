"""The validity gate asks the checks for errors only (`run_checks(errors_only=True)`): the
families leave out the rules that can only warn (legibility, most of translation), which
`build` then dropped anyway. The gate's errors must be exactly the full run's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, build_case, copy_game
from toolkit.checks import run_checks
from toolkit.checks.gate import valid_game
from toolkit.checks.legibility import faces
from toolkit.checks.translation import parity, plurals, typography
from toolkit.content.game import load_game
from toolkit.diagnostics import Severity

CONTENT = Path(__file__).parent.parent / "content"
BROKEN = sorted(p for p in (FIXTURES / "broken").iterdir() if p.is_dir())


def _errors(found: list) -> list[tuple]:
    return [
        (d.file, d.code, d.message, d.span.line, d.span.col)
        for d in found
        if d.severity == Severity.ERROR
    ]


def _same_errors(folder: Path) -> None:
    game = load_game(folder)  # loaded once (a fixture's alias bomb takes seconds)
    gate = run_checks(game, errors_only=True)
    everything = run_checks(game)
    assert _errors(gate) == _errors(everything)
    # what it leaves out are warnings, and only those
    assert {(d.code, d.message) for d in gate} <= {(d.code, d.message) for d in everything}


@pytest.mark.parametrize("case", BROKEN, ids=[p.name for p in BROKEN])
def test_the_gate_finds_the_errors_of_a_full_run_in_each_broken_fixture(
    case: Path, tmp_path: Path
) -> None:
    _same_errors(build_case(case, tmp_path / "game"))


@pytest.mark.parametrize("name", sorted(p.name for p in CONTENT.iterdir() if p.is_dir()))
def test_the_gate_finds_the_errors_of_a_full_run_in_each_bundled_game(
    name: str, tmp_path: Path
) -> None:
    _same_errors(copy_game(CONTENT / name, tmp_path / name))


def test_the_gate_works_out_no_warning_only_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Legibility (A rules: all warnings), typography and plural looks are not run, and
    parity looks for T005 (its error) only."""
    game = build_case(FIXTURES / "broken" / "low-contrast", tmp_path / "game")
    ran: list[str] = []

    def spy(name, real):
        def wrapper(*args, **kwargs):
            ran.append(name)
            return real(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(faces, "check", spy("legibility faces", faces.check))
    monkeypatch.setattr(typography, "_said", spy("typography", typography._said))
    monkeypatch.setattr(plurals, "_category", spy("plurals", plurals._category))
    monkeypatch.setattr(parity, "_literals", spy("T007", parity._literals))
    monkeypatch.setattr(parity, "_numbers", spy("T006", parity._numbers))
    full = run_checks(load_game(game))
    assert "A001" in {d.code for d in full}  # what the spies would have seen
    assert {"legibility faces", "typography", "T006"} <= set(ran)
    ran.clear()
    valid_game(game)  # no error: the game passes
    assert ran == []


def test_passing_the_gate_loads_no_legibility_check_module(tmp_path: Path) -> None:
    """The legibility family's modules (faces, colours, meaning, printed) are loaded when
    its warnings are asked for, not by a command that only passes the gate."""
    game = build_case(FIXTURES / "broken" / "low-contrast", tmp_path / "game")
    code = (
        "import sys; from toolkit.checks.gate import valid_game;"
        f"valid_game(__import__('pathlib').Path({str(game)!r}));"
        "print(sorted(m for m in sys.modules if m.startswith('toolkit.checks.legibility.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["['toolkit.checks.legibility.rules']"]


def _spied(monkeypatch: pytest.MonkeyPatch, module: object, names: list[str]) -> list[str]:
    """The names of `module`'s functions called from now on, in order (each call once)."""
    ran: list[str] = []
    for name in names:
        real = getattr(module, name)

        def wrapper(*args, __real=real, __name=name, **kwargs):
            ran.append(__name)
            return __real(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)
    return ran


def test_the_gate_looks_for_no_unprinted_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """P006 (a number of a card's data printed nowhere on its face) only warns: the gate's
    print-fit resolves and fits every face but reads no card's numbers (~21 M instructions
    of a 100-card build); a full run still does."""
    from toolkit.checks import printfit

    game = load_game(copy_game(CONTENT / "whisky-game", tmp_path / "game"))
    ran = _spied(monkeypatch, printfit, ["_printed_numbers", "_unprinted"])
    run_checks(game)
    assert {"_printed_numbers", "_unprinted"} <= set(ran)
    ran.clear()
    game = load_game(copy_game(CONTENT / "whisky-game", tmp_path / "again"))
    run_checks(game, errors_only=True)
    assert ran == []


def test_the_gate_walks_no_folder_for_unlisted_files_nor_modelines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R008 (a file game.yaml does not list) and R009 (a modeline's missing schema) only
    warn: the gate neither lists the content folders nor searches every file's text for a
    modeline; a full run still does, and finds the unlisted file."""
    from toolkit.checks import references

    folder = build_case(FIXTURES / "broken" / "unlisted-file", tmp_path / "game")
    ran = _spied(monkeypatch, references, ["_unlisted", "_modelines"])
    assert "R008" in {d.code for d in run_checks(load_game(folder))}
    assert {"_unlisted", "_modelines"} <= set(ran)
    ran.clear()
    run_checks(load_game(folder), errors_only=True)
    assert ran == []


def test_the_gate_compares_no_card_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """R013 (two cards of a deck named alike in one language only) only warns: the gate
    compares no deck's names; a full run still does."""
    from toolkit.checks import card_names

    game = load_game(copy_game(CONTENT / "whisky-game", tmp_path / "game"))
    ran = _spied(monkeypatch, card_names, ["_kept_deck_findings"])
    run_checks(game)
    assert "_kept_deck_findings" in ran
    ran.clear()
    game = load_game(copy_game(CONTENT / "whisky-game", tmp_path / "again"))
    run_checks(game, errors_only=True)
    assert ran == []
