"""A question bank prints as a deck like any other: its size, front and back layouts are the
bank's data (poker, `question-front`, `question-back` unless it says otherwise), read by the
build, the exports, the print-fit checks and the preview alike."""

from __future__ import annotations

import pypdf

from tests.conftest import FIXTURES, copy_game
from toolkit.content.game import load_game
from toolkit.render.deps import deck_specs
from toolkit.render.exports.faces import printed_decks

MM = 72 / 25.4


def _game(tmp_path, extra: str = ""):
    game = copy_game(FIXTURES / "base", tmp_path / "game")
    bank = game / "questions" / "bank.yaml"
    bank.write_text(bank.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return game


def _trim_mm(pdf) -> tuple[int, int]:
    box = pypdf.PdfReader(pdf).pages[0].trimbox
    return round(float(box.width) / MM), round(float(box.height) / MM)


def test_a_bank_prints_at_the_size_it_names(tmp_path, run_cli):
    game = _game(tmp_path, "size: tarot\n")
    out = tmp_path / "out"
    result = run_cli("build", str(game), "--only", "questions", "--profile", "press",
                     "--lang", "en", "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert _trim_mm(out / "fixture-game" / "en" / "questions.pdf") == (70, 120)
    loaded = load_game(game)
    (bank,) = [p for p in printed_decks(loaded) if p.deck.kind == "questions"]
    assert bank.size_mm == (70.0, 120.0) and bank.back_per_card
    (spec,) = [s for s in deck_specs(loaded) if s.deck.kind == "questions"]
    assert spec.card_mm == (70.0, 120.0) and spec.per_card_back


def test_a_bank_without_a_size_is_poker_on_the_question_layouts(tmp_path, run_cli):
    game = _game(tmp_path)
    out = tmp_path / "out"
    result = run_cli("build", str(game), "--only", "questions", "--profile", "press",
                     "--lang", "en", "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert _trim_mm(out / "fixture-game" / "en" / "questions.pdf") == (63, 88)
    (spec,) = [s for s in deck_specs(load_game(game)) if s.deck.kind == "questions"]
    assert (spec.front, spec.back) == ("question-front", "question-back")


def test_a_bank_naming_a_layout_the_game_lacks_is_refused(tmp_path, run_cli):
    game = _game(tmp_path, "back: no-such-back\n")
    result = run_cli("build", str(game), "--only", "questions", "--lang", "en",
                     "--out", str(tmp_path / "out"))  # fmt: skip
    assert result.exit_code == 1
    assert "no-such-back" in result.output
