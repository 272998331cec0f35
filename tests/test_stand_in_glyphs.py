"""A content text's `→`, which the default font lacks, prints in the rulebook as its stand-in
`–›` (fonts.stand_ins): a glossary term holding it was a P002 error at the glossary although
the rulebook printed it fine. What prints it as itself (a card face) is still found there."""

from __future__ import annotations

from pathlib import Path

from tests.starter_games import rulebook_game


def _glossary_arrow(game: Path) -> None:
    glossary = game / "glossary.yaml"
    text = glossary.read_text(encoding="utf-8")
    assert "en: card\n" in text, text
    glossary.write_text(text.replace("en: card\n", "en: card → deck\n", 1), encoding="utf-8")


def test_an_arrow_only_the_rulebook_prints_is_clean(run_cli, tmp_path):
    game = rulebook_game(run_cli, tmp_path, "Glossary: {{ glossary.card }} and A → B end.\n")
    _glossary_arrow(game)
    result = run_cli("validate", str(game), "--no-cache")
    assert "P002" not in result.output, result.output
    assert result.exit_code == 0, result.output
    built = run_cli("build", str(game), "--only", "rulebook", "--out", str(tmp_path / "o"))
    assert built.exit_code == 0, built.output


def test_an_arrow_a_card_face_prints_is_still_p002(run_cli, tmp_path):
    game = rulebook_game(run_cli, tmp_path, "Rules.\n")
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("en: Move {steps}", "en: Move → {steps}", 1), encoding="utf-8")
    result = run_cli("validate", str(game), "--no-cache")
    assert result.exit_code == 1 and "P002" in result.output and "U+2192" in result.output


def test_an_arrow_a_board_label_prints_is_p002_at_the_label(run_cli, tmp_path):
    # the board draws no stand-in: print-fit left `→` to the board, the board left it to
    # print-fit (probe 20 M5), and `Leg 1 ▯` printed with validate clean
    import shutil

    from tests.conftest import REPO

    game = tmp_path / "tk"
    shutil.copytree(REPO / "content" / "tokaido", game)
    road = game / "boards" / "road.yaml"
    text = road.read_text(encoding="utf-8")
    assert "\nstyle:\n" in text
    text = text.replace(
        "\nstyle:\n",
        '\nstyle:\n  labels:\n    leg: {fr: "Étape {n} →", es: "Tramo {n} →", en: "Leg {n} →"}\n',
        1,
    )
    road.write_text(text, encoding="utf-8")
    result = run_cli("validate", str(game), "--no-cache")
    assert result.exit_code == 1, result.output
    assert "boards/road.yaml" in result.output and "U+2192" in result.output
