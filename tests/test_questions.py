"""Q rules (question banks) and the question-card parts of P001, on hand-made banks and
through the CLI; one fixture per rule lives in tests/fixtures/broken (test_fixtures.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import FIXTURES, build_case, diagnostics_json, relink_modelines
from toolkit.checks.questions.answers import giveaway, too_long
from toolkit.checks.questions.common import normalise
from toolkit.checks.questions.duplicates import _Text, near
from toolkit.checks.questions.spread import SPREAD_FROM, band

BROKEN = FIXTURES / "broken"
BANK = Path("questions") / "bank.yaml"


def _validate(run_cli, game: Path, monkeypatch, *extra: str) -> tuple[int, list[dict]]:
    monkeypatch.chdir(game)
    result = run_cli("validate", ".", "--format", "json", *extra)
    return result.exit_code, diagnostics_json(result.stdout)


def _codes(found: list[dict]) -> list[tuple[str, str, int, int]]:
    return [(d["code"], d["file"], d["line"], d["col"]) for d in found]


# ----- the measures, one by one ------------------------------------------------------------


def test_normalise_ignores_case_accents_and_punctuation():
    assert normalise("  Île d’ARRAN\u202f! ") == normalise("ile d'arran") == "ile d arran"


@pytest.mark.parametrize(
    ("count", "expected"), [(20, (4, 6)), (40, (8, 12)), (42, (9, 12)), (14, (3, 4))]
)
def test_letter_band_is_20_to_30_percent(count, expected):
    assert band(count) == expected


def test_questions_about_different_names_are_not_near_duplicates():
    one = _Text("In which region is the Laphroaig distillery?", "Islay")
    other = _Text("In which region is the Lagavulin distillery?", "Islay")
    assert near(one, other) is None


def test_questions_about_different_quoted_terms_are_not_near_duplicates():
    one = _Text("Dans une distillerie, qu’est-ce qu’un « washback »\u202f?", "Une cuve")
    other = _Text("Dans une distillerie, qu’est-ce que le « wash »\u202f?", "Un moût")
    assert near(one, other) is None
    assert near(one, _Text("Dans une distillerie, qu’est-ce qu’un « washback » ?", "Cuve"))


def test_a_reworded_question_with_the_same_answer_is_a_near_duplicate():
    one = _Text("En quelle année la distillerie d’Arran a-t-elle ouvert à Lochranza\u202f?", "1995")
    other = _Text(
        "En quelle année la distillerie de Lochranza, sur l’île d’Arran, a-t-elle commencé ?",
        "1995",
    )
    assert near(one, other) is not None
    assert near(one, _Text(other.flat, "1825")) is None  # another answer: another question


def test_giveaway_needs_a_telling_word_no_wrong_answer_has():
    answers = ["Easter Elchies House", "Glamis Castle", "Cawdor Castle", "Scone Palace"]
    assert giveaway("Which house does Macallan call home?", answers, 0) == ["house"]
    shared = ["Highland Park", "Highland Queen", "Highland Spring", "Highland Fling"]
    assert giveaway("Which Highland name is an Orkney malt?", shared, 0) == []
    assert giveaway("How many sides has a six-sided die?", ["Six", "Four", "Ten", "Two"], 0) == []
    assert giveaway("Which peat smoke?", ["Peats", "Oak", "Pine", "Coal"], 0) == ["peats"]


def test_long_right_answer_needs_both_ratio_and_margin():
    assert too_long(["Twelve", "Six", "Ten", "Two"], 0) is None  # twice as long, 3 more
    wrong = ["He sold his farm", "He fled", "He wed"]
    assert too_long(["He took out a distilling licence", *wrong], 0) == (32, 16)
    assert too_long(["He took out a licence", *wrong], 0) is None


# ----- through the CLI --------------------------------------------------------------------


BAD_INPUT = {
    # issue 13, "Bad input": one diagnostic each, at its line, exit 1
    "fifty-fifty-without-right": ("S005", "leaves out the right answer b"),
    "duplicate-question": ("Q002", "asks the same question as q1"),
    "question-missing-language": ("T001", "has no es text"),
    "unknown-distillery": ("R004", "no distillery with id 'ardbeg'"),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUT))
def test_bad_input_is_one_positioned_diagnostic(case, run_cli, tmp_path, monkeypatch):
    code, words = BAD_INPUT[case]
    expect = json.loads((BROKEN / case / "expect.json").read_text())
    game = build_case(BROKEN / case, tmp_path / "game")
    monkeypatch.chdir(game)
    result = run_cli("validate", ".")
    assert result.exit_code == 1
    (line,) = result.stdout.strip().splitlines()[:-1] or result.stdout.strip().splitlines()
    where = f"{expect['file']}:{expect['line']}:{expect['col']}: {code} [error]"
    assert line.startswith(where), line
    assert words in line


def test_fifty_fifty_finding_sits_on_the_pair(run_cli, tmp_path, monkeypatch):
    game = build_case(BROKEN / "fifty-fifty-without-right", tmp_path / "game")
    _, found = _validate(run_cli, game, monkeypatch)
    (diag,) = found
    text = (game / BANK).read_text().splitlines()[diag["line"] - 1]
    assert text[diag["col"] - 1 :].startswith("[a, c]")
    assert "[a, c]" in diag["message"]


def test_rules_are_listed(run_cli):
    result = run_cli("rules")
    assert result.exit_code == 0
    for code in (f"Q00{n}" for n in range(1, 10)):
        assert code in result.stdout
    assert "question banks" in result.stdout


def _spread_bank(keep: int) -> str:
    """The letter-spread fixture's bank cut to its first `keep` questions."""
    text = (BROKEN / "question-letter-spread" / BANK).read_text()
    head, *questions = text.split("\n  - id: ")
    return "\n  - id: ".join([head, *questions[:keep]]) + "\n"


def test_letter_spread_is_left_alone_in_a_small_difficulty(run_cli, tmp_path, monkeypatch):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    (game / BANK).write_text(_spread_bank(SPREAD_FROM - 1))
    relink_modelines(game)
    code, found = _validate(run_cli, game, monkeypatch)
    assert (code, found) == (0, [])
    (game / BANK).write_text(_spread_bank(SPREAD_FROM))
    relink_modelines(game)
    code, found = _validate(run_cli, game, monkeypatch)
    assert [d["code"] for d in found] == ["Q001"]


def _two_banks(game: Path) -> None:
    """A second bank file, `hard.yaml`, repeating the base question at another difficulty."""
    text = (game / BANK).read_text().replace("id: q1", "id: h1").replace("easy", "hard")
    (game / "questions" / "hard.yaml").write_text(text.replace("id: bank", "id: hard"))
    manifest = game / "game.yaml"
    manifest.write_text(
        manifest.read_text().replace(
            "    - questions/bank.yaml\n", "    - questions/bank.yaml\n    - questions/hard.yaml\n"
        )
    )


def test_a_question_repeated_in_another_file_and_difficulty(run_cli, tmp_path, monkeypatch):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    _two_banks(game)
    code, found = _validate(run_cli, game, monkeypatch)
    assert code == 1
    assert _codes(found) == [("Q002", "questions/hard.yaml", 11, 11)]
    assert "questions/bank.yaml:8" in found[0]["message"]


def _declare(game: Path, section: str) -> None:
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text() + section)


def test_counts_follow_the_declaration(run_cli, tmp_path, monkeypatch):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    _two_banks(game)
    (game / "questions" / "hard.yaml").unlink()
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("    - questions/hard.yaml\n", ""))
    _declare(game, "questions:\n  difficulties: [easy, hard]\n  minimum: 1\n  recommended: 3\n")
    code, found = _validate(run_cli, game, monkeypatch)
    assert code == 1
    assert [(d["code"], d["severity"], d["line"]) for d in found] == [
        ("Q008", "warning", 24),  # easy: 1 of 3 recommended
        ("Q007", "error", 24),  # hard: none
    ]


def test_no_count_for_a_bank_that_failed_validation(run_cli, tmp_path, monkeypatch):
    game = build_case(BROKEN / "three-answers", tmp_path / "game")
    _declare(game, "questions:\n  difficulties: [easy]\n  minimum: 1\n")
    _, found = _validate(run_cli, game, monkeypatch)
    assert [d["code"][0] for d in found] == ["S"]


@pytest.mark.parametrize(
    ("section", "code", "words"),
    [
        ("  difficulties: [easy]\n  minimum: 30\n  recommended: 20\n", "S005", "smaller than"),
        ("  difficulties: [easy, easy]\n  minimum: 1\n", "S005", "listed twice"),
        ("  difficulties: [easy]\n  minimun: 1\n", "S002", "minimun"),
    ],
)
def test_a_bad_declaration_is_a_schema_error(section, code, words, run_cli, tmp_path, monkeypatch):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    _declare(game, "questions:\n" + section)
    exit_code, found = _validate(run_cli, game, monkeypatch)
    assert exit_code == 1
    assert [d["code"] for d in found][:1] == [code]
    assert words in found[0]["message"]


def test_a_long_right_answer_is_one_fit_finding_for_both_faces(run_cli, tmp_path, monkeypatch):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    bank = game / BANK
    long = "Six, " + "comme sur chaque dé cubique du monde entier, " * 6
    bank.write_text(bank.read_text().replace("{fr: Six,", "{fr: " + json.dumps(long) + ","))
    _, found = _validate(run_cli, game, monkeypatch, "--select", "P")
    assert _codes(found) == [("P001", "questions/bank.yaml", 16, 14)]


def test_checks_are_game_agnostic_for_a_designers_game(run_cli, tmp_path, monkeypatch):
    """A copy of the fixture game under another id and folder gets the same findings."""
    game = build_case(BROKEN / "near-duplicate-question", tmp_path / "my-quiz")
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("id: fixture-game", "id: my-quiz"))
    shutil.rmtree(game / "decks")
    manifest.write_text(manifest.read_text().replace("  decks:\n    - decks/cards.yaml\n", ""))
    _, found = _validate(run_cli, game, monkeypatch)
    assert [d["code"] for d in found] == ["Q003"]


@given(st.integers(min_value=14, max_value=5000))
def test_every_count_from_14_can_meet_the_band(count):
    low, high = band(count)
    assert low <= high and 4 * low <= count <= 4 * high


@given(st.text(max_size=80))
def test_normalise_is_idempotent(text):
    assert normalise(normalise(text)) == normalise(text)


def test_empty_texts_are_left_to_t002(run_cli, tmp_path, monkeypatch):
    """Two questions empty in Spanish are not 'the same question', nor its answers alike."""
    game = build_case(BROKEN / "duplicate-question", tmp_path / "game")
    bank = game / BANK
    text = bank.read_text().replace("How many faces does a COMMON die have?", "How many, then?")
    text = text.replace("es: ¿Cuántas caras tiene un dado común?", 'es: ""')
    text = text.replace("es: ¿Cuántos lados tiene un dado normal?", 'es: ""')
    bank.write_text(text.replace("es: Cuatro", 'es: ""').replace("es: Ocho", 'es: ""'))
    _, found = _validate(run_cli, game, monkeypatch)
    codes = {d["code"] for d in found}
    assert "T002" in codes and not codes & {"Q002", "Q005"}
