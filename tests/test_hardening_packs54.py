"""Probe 40 H5: Muckle Stoater's `packs_by_players` had no upper bound. A folder copy of the
bundled game with `2: 3000000` validated clean, then `simulate -p 2` built a deck of 162
million cards (2.6 GB) and ended on an error that blamed an endless loop. Validate now says
G301 at the value, and the engine's setup refuses such a count before building anything."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from toolkit.content.game import load_game
from toolkit.games.muckle_stoater.compile import build_table, compile_content

GAME_DIR = Path(__file__).parent.parent / "content" / "muckle-stoater"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    root = tmp_path / "muckle-stoater"
    shutil.copytree(GAME_DIR, root)
    for page in (root / "rulebook").glob("*.md"):  # the rulebook renders cards; keep it neutral
        page.write_text("# Rules\n\nPlay.\n", encoding="utf-8")
    return root


def _set_packs(game: Path, packs: int) -> int:
    """`2: packs` in game.yaml; the line of that entry."""
    path = game / "game.yaml"
    text = path.read_text(encoding="utf-8")
    assert "\n    2: 2\n" in text
    text = text.replace("\n    2: 2\n", f"\n    2: {packs}\n", 1)
    path.write_text(text, encoding="utf-8")
    return next(i for i, row in enumerate(text.splitlines(), 1) if row == f"    2: {packs}")


@pytest.mark.parametrize("packs", [13, 3_000_000, 100_000_000])
def test_validate_refuses_a_pack_count_no_table_could_use(game, run_cli, packs):
    line = _set_packs(game, packs)
    result = run_cli("validate", str(game), "--no-cache")
    assert result.exit_code == 1, result.output
    assert f"game.yaml:{line}:8: G301" in result.stdout, result.stdout
    assert f"2 players get {packs} packs; at most 12" in result.stdout


def test_validate_accepts_the_largest_pack_count(game, run_cli):
    _set_packs(game, 12)
    result = run_cli("validate", str(game), "--no-cache")
    assert "G301" not in result.stdout, result.stdout


def test_simulate_refuses_before_playing(game, run_cli):
    _set_packs(game, 3_000_000)
    result = run_cli("simulate", str(game), "-n", "4", "-p", "2")
    assert result.exit_code == 1
    assert "G301" in result.output and "loop without end" not in result.output


@pytest.mark.parametrize("packs", [0, 13, 100])
def test_the_engine_setup_refuses_a_pack_count_out_of_bounds(packs):
    # the engine without validate in front of it (a worker, an API caller): a clear setup
    # error, not a deck of millions of cards (13 and 100 keep the old code's deck small)
    content = compile_content(load_game(GAME_DIR))
    content = dataclasses.replace(content, packs_by_players={**content.packs_by_players, 2: packs})
    with pytest.raises(ValueError, match=rf"{packs} packs for 2 players: .* 1 to 12 packs"):
        build_table(content, 2, False)
    assert build_table(content, 3, False).total_cards == 108  # the other counts still play
