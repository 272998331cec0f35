"""--back-offset moves every backs page by exactly the asked amount, and nothing else."""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import FIXTURES
from tests.pdf_geometry import MM, objects, page_count, page_text
from toolkit.content.game import load_game
from toolkit.render.artifacts.cards import cards_pdf
from toolkit.render.build import BuildOptions


def _moves(before: bytes, after: bytes) -> list[set[tuple[float, float]]]:
    """For each page, the set of (dx, dy) by which its objects moved (rounded to 0.001 pt)."""
    assert page_count(before) == page_count(after)
    moves = []
    for index in range(page_count(before)):
        a, b = objects(before, index), objects(after, index)
        assert [t for t, _ in a] == [t for t, _ in b] and a
        moves.append(
            {
                (round(nb[0] - na[0], 3) + 0.0, round(nb[1] - na[1], 3) + 0.0)
                for (_, na), (_, nb) in zip(a, b, strict=True)
            }
        )
    return moves


@pytest.mark.parametrize("per_card", [False, True])
def test_every_backs_page_moves_by_the_offset_and_fronts_stay(per_card):
    game = load_game(FIXTURES / "base")
    decks = game.valid(game.decks)
    plain = cards_pdf(game, decks, "en", BuildOptions(["en"], per_card=per_card))
    shifted_opts = BuildOptions(["en"], per_card=per_card, back_offset=(1.5, -0.5))
    shifted = cards_pdf(game, decks, "en", shifted_opts)
    expected = (round(1.5 * MM, 3), round(-0.5 * MM, 3))
    moves = _moves(plain, shifted)
    backs = 0
    for index, moved in enumerate(moves):
        # Home sheets say which side a page is in their footer; per-card pages alternate.
        back = "back" in page_text(plain, index) if not per_card else index % 2 == 1
        assert moved == ({expected} if back else {(0.0, 0.0)}), index
        backs += back
    assert backs == len(moves) // 2 > 0


def _game(tmp_path):
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    return game


def test_build_takes_an_offset_or_a_saved_printer(run_cli, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    game = _game(tmp_path)
    for name, args in (
        ("offset", ["--back-offset", "1.5,-0.5"]),
        ("plain", []),
        ("printer", ["--printer", "office"]),
    ):
        if name == "printer":
            assert run_cli("calibrate", "--save", "office", "1.5,-0.5").exit_code == 0
        out = tmp_path / name
        result = run_cli("build", str(game), "--lang", "en", "--out", str(out), *args)
        assert result.exit_code == 0, result.output
    cards = {
        n: (tmp_path / n / "fixture-game" / "en" / "cards.pdf").read_bytes()
        for n in ("offset", "plain", "printer")
    }
    assert cards["offset"] == cards["printer"] != cards["plain"]


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["--back-offset", "1.5"], 2, "offset must be X,Y"),
        (["--back-offset", "nan,0"], 2, "offset must be X,Y in millimetres"),  # plain decimals only
        (["--back-offset", "1,1", "--printer", "x"], 2, "not both"),
        (["--back-offset", "1,1", "--profile", "press"], 2, "not --profile press"),
        (["--printer", "nowhere"], 1, "no printer 'nowhere'"),
    ],
)
def test_bad_offsets_are_refused_before_anything_is_written(
    run_cli, tmp_path, monkeypatch, args, code, message
):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    out = tmp_path / "out"
    result = run_cli("build", str(_game(tmp_path)), "--out", str(out), *args)
    assert result.exit_code == code
    assert message in " ".join(result.output.split())
    assert not out.exists()
