"""`build --lang X` checks the print of X only: the gate resolves and fits the faces of the
languages built (those the build then draws), not every language of the game; the checks that
do not depend on the language run in full. A full `build` and `validate` are unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import FIXTURES, build_case
from toolkit.checks import run_checks
from toolkit.checks.gate import InvalidGame, valid_game
from toolkit.content.game import load_game
from toolkit.diagnostics import Severity

BROKEN = sorted(p for p in (FIXTURES / "broken").iterdir() if p.is_dir())
ES_OVERFLOW = "sprint text (es) needs"  # tests/fixtures/broken/text-overflow: P001 in es


def _errors(found: list) -> set[tuple[str, str, str]]:
    return {(d.file, d.code, d.message) for d in found if d.severity == Severity.ERROR}


def _es_overflow(tmp_path: Path) -> Path:
    return build_case(FIXTURES / "broken" / "text-overflow", tmp_path / "game")


def test_a_game_whose_spanish_overflows_builds_in_french_and_not_whole(run_cli, tmp_path):
    game, out = _es_overflow(tmp_path), tmp_path / "out"
    fr = run_cli("build", str(game), "--lang", "fr", "--out", str(out / "fr"))
    assert fr.exit_code == 0, fr.output
    assert (out / "fr" / "fixture-game" / "fr" / "cards.pdf").is_file()
    assert "P001" not in fr.stderr
    for langs in (None, "es", "en,es"):
        where = out / (langs or "all")
        more = ("--lang", langs) if langs else ()
        refused = run_cli("build", str(game), *more, "--out", str(where))
        assert refused.exit_code == 1, refused.output
        assert ES_OVERFLOW in refused.stderr and "P001" in refused.stderr
        assert not where.exists()


def test_the_findings_printed_are_those_of_the_languages_built(run_cli, tmp_path):
    game, out = _es_overflow(tmp_path), tmp_path / "out"
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text()
    long_es = max(text.splitlines(), key=len)  # the Spanish text that overflows
    assert long_es.startswith("      es: ")
    # the English text of the same card as long as the Spanish one
    english = "      en: Move {steps} spaces."
    assert english in text
    deck.write_text(text.replace(english, "      en:" + long_es.split(":", 1)[1], 1))
    validated = run_cli("validate", str(game))
    assert "text (es) needs" in validated.stdout and "text (en) needs" in validated.stdout
    refused = run_cli("build", str(game), "--lang", "en", "--out", str(out))
    assert refused.exit_code == 1
    assert "text (en) needs" in refused.stderr and "(es)" not in refused.stderr


def test_a_full_validate_kept_in_the_cache_is_not_taken_for_a_partial_check(
    run_cli, tmp_path, monkeypatch
):
    """validate (kept), build --lang fr (passes), validate again (the same findings, from
    the cache), build (refused as before): the partial gate keeps nothing, and a kept full
    validate with an error in es does not clear the build of es."""
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    game, out = _es_overflow(tmp_path), tmp_path / "out"
    first = run_cli("validate", str(game))
    assert first.exit_code == 1 and ES_OVERFLOW in first.stdout
    fr = run_cli("build", str(game), "--lang", "fr", "--out", str(out / "fr"))
    assert fr.exit_code == 0, fr.output
    again = run_cli("validate", str(game), "-v")
    assert again.stdout == first.stdout and "findings from the cache" in again.stderr
    whole = run_cli("build", str(game), "--out", str(out / "all"))
    assert whole.exit_code == 1 and ES_OVERFLOW in whole.stderr
    fresh = run_cli("validate", str(game), "--no-cache")
    assert fresh.stdout == first.stdout


def test_the_gate_with_every_language_named_is_the_gate_with_none(tmp_path):
    game = load_game(_es_overflow(tmp_path))
    assert game.manifest is not None
    every = run_checks(game, errors_only=True, printed=list(game.manifest.languages))
    assert every == run_checks(load_game(game.root), errors_only=True)
    with pytest.raises(InvalidGame):
        valid_game(game.root)
    with pytest.raises(InvalidGame):
        valid_game(game.root, printed=["es"])
    assert valid_game(game.root, printed=["fr"]).id == "fixture-game"


@pytest.mark.parametrize("case", BROKEN, ids=[p.name for p in BROKEN])
def test_a_partial_gate_finds_no_error_a_full_run_does_not(case: Path, tmp_path: Path) -> None:
    """Each language's gate: errors of the full run only, and what it leaves out is another
    language's print (its message or its rulebook names it)."""
    game = load_game(build_case(case, tmp_path / "game"))
    if game.manifest is None:
        return
    full = _errors(run_checks(game, errors_only=True))
    for lang in game.manifest.languages:
        errors = _errors(run_checks(game, errors_only=True, printed=[lang]))
        assert errors <= full
        others = [other for other in game.manifest.languages if other != lang]
        for file, code, message in full - errors:  # a face, a rulebook of another
            said = [f"({other}" in message or f"{other})" in message for other in others]
            written = [Path(file).stem == other for other in others]
            assert any(said) or any(written), (file, code, message)
