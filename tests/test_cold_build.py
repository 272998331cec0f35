"""A cold `build` (no cache) pays for what the game needs: each test here fails when a short
cut of the gate or the build is gone, and checks the answer stays the same."""

from __future__ import annotations

import subprocess
import sys


def _modules_after_checks(game: str, prefixes: tuple[str, ...]) -> list[str]:
    """The modules starting with one of `prefixes` that checking a bundled game imports."""
    code = (
        "import sys; from toolkit.checks import run_checks;"
        "from toolkit.content.game import bundled_games, load_game;"
        f"run_checks(load_game(bundled_games()[{game!r}]));"
        f"print(sorted(m for m in sys.modules if m.startswith({prefixes!r})))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return eval(done.stdout)  # noqa: S307 - a list of module names we printed


def test_checking_a_game_without_boards_imports_no_board_renderer() -> None:
    """The legibility checks of boards import the board renderer (its module and its style
    models' schemas) only for a game that has a board."""
    assert _modules_after_checks("drinking-heroes", ("toolkit.render.boards",)) == []
    assert "toolkit.render.boards" in _modules_after_checks("tokaido", ("toolkit.render.boards",))
