"""Probe 39 M3: the <style> matching steps of a game's icons, bounded for the game.

Each icon was bounded on its own (`svg_guard.MAX_MATCHING`, 20,000 steps, ~0.08 s of svglib
styling), and every icon a game's icons/ lists is read at each check, used or not: 100
unused icons of 3 kB just under the bound took `validate --no-cache` 6.5 s. The icons one
run reads now share `svg_guard.MAX_GAME_MATCHING`, charged in the order of their names.

The work is counted (icons styled by svglib), never timed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_validate_cache import _same_every_way, cache  # noqa: F401  (a fixture)
from toolkit.render import icons as icons_module
from toolkit.render import svg_guard, svg_icons

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
HEAVY = HEAD + "<style>" + "rect{fill:red}" * 140 + "</style>" + "<rect/>" * 140 + "</svg>"
"""140 rules on 142 elements: 19,880 steps, just under the bound of one icon."""
LIGHT = HEAD + "<style>rect{fill:red}</style><rect/><rect/></svg>"  # 4 steps
PLAIN = HEAD + '<rect width="5" height="5"/></svg>'  # no <style>: no step


def _icons(folder: Path, heavy: int) -> list[str]:
    """`heavy` icons at the bound of one (written last name first), a light one and a plain
    one after them by name; their names in name order."""
    icons = folder / "icons"
    icons.mkdir(parents=True, exist_ok=True)
    names = [f"m{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(heavy)]
    for name in reversed(names):
        (icons / f"{name}.svg").write_text(HEAVY, encoding="utf-8")
    (icons / "x_light.svg").write_text(LIGHT, encoding="utf-8")
    (icons / "y_plain.svg").write_text(PLAIN, encoding="utf-8")
    return [*names, "x_light", "y_plain"]


@pytest.fixture
def styled(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The icons svglib reads (and styles), by file name, in order."""
    read = svg_icons._read
    seen: list[str] = []

    def counting(path: Path, icons: Path, data: bytes) -> object:
        seen.append(path.stem)
        return read(path, icons, data)

    monkeypatch.setattr(svg_icons, "_read", counting)
    icons_module.icon_set.cache_clear()
    yield seen
    icons_module.icon_set.cache_clear()


def test_the_style_steps_of_a_games_icons_are_bounded_together(tmp_path, styled):
    steps = svg_guard.check(*_one(tmp_path / "one", HEAVY))
    assert steps is None  # each icon alone is within its own bound
    names = _icons(tmp_path / "game", 6)
    found = icons_module.icon_set(tmp_path / "game")
    kept = svg_guard.MAX_GAME_MATCHING // 19_880  # 3 (10 at 200,000, until budget59)
    assert kept == 3
    # the first three by name are read; the three after them are refused before svglib
    # styles them, whatever order they were written in; an icon of few steps, or none, fits
    assert styled == names[:kept] + ["x_light", "y_plain"]
    refused = [Path(problem.file).stem for problem in found.problems]
    assert refused == names[kept:6]
    for problem in found.problems:
        assert "the game's icons take more than 60,000 together" in problem.message
        assert "19,880 steps" in problem.message
        assert (problem.span.line, problem.span.col) == (1, 64)  # its <style>
    assert set(names[kept:6]) == found.broken
    assert {*names[:kept], "x_light", "y_plain"} <= found.names


def test_an_icon_refused_alone_is_not_charged_to_the_game(tmp_path, styled):
    icons = tmp_path / "icons"
    icons.mkdir()
    over = HEAD + "<style>" + "rect{fill:red}" * 300 + "</style>" + "<rect/>" * 300 + "</svg>"
    (icons / "a.svg").write_text(over, encoding="utf-8")  # past its own bound: its own message
    for name in "bcd":  # three at the bound of one: the game's
        (icons / f"{name}.svg").write_text(HEAVY, encoding="utf-8")
    found = icons_module.icon_set(tmp_path)
    assert [Path(p.file).stem for p in found.problems] == ["a"]
    assert "more than 20,000 steps to match" in found.problems[0].message
    assert styled == list("bcd")


def test_a_budget_refusal_names_the_file_whose_style_counts(tmp_path):
    # an icon without <style> of its own that draws a file that has one: the steps are the
    # referenced file's, and so is the place
    icons = tmp_path / "icons"
    icons.mkdir()
    (icons / "inner.svg").write_text(HEAVY.replace("<rect/>", '<rect id="r"/>', 1))
    outer = HEAD + '<use href="inner.svg#r"/></svg>'
    (icons / "outer.svg").write_text(outer)
    budget = svg_guard.Budget(svg_guard.MAX_GAME_MATCHING - 100)
    refusal = svg_guard.check(icons / "outer.svg", icons, budget=budget)
    assert refusal is not None and refusal.path == icons / "inner.svg"
    assert (refusal.line, refusal.col) == (1, 64)
    assert budget.matching == svg_guard.MAX_GAME_MATCHING - 100  # not charged
    assert svg_guard.check(icons / "outer.svg", icons, budget=svg_guard.Budget()) is None


def _one(folder: Path, text: str) -> tuple[Path, Path]:
    icons = folder / "icons"
    icons.mkdir(parents=True)
    (icons / "a.svg").write_text(text, encoding="utf-8")
    return icons / "a.svg", icons


def test_the_same_findings_at_every_run_with_and_without_the_cache(
    tmp_path,
    cache,  # noqa: F811  (the findings cache on)
    run_cli,
    monkeypatch,
):
    assert run_cli("new", "lantern", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "lantern"
    _icons(game, 5)
    monkeypatch.chdir(game)
    icons_module.icon_set.cache_clear()
    _same_every_way(".")
    icons_module.icon_set.cache_clear()  # each run a process of its own
    again = run_cli("validate", ".", "--no-cache", "--format", "json")
    icons_module.icon_set.cache_clear()
    warm = run_cli("validate", ".", "--format", "json")
    assert again.output == warm.output
    assert again.output.count("the game's icons take more than") == 2  # mad, mae
    icons_module.icon_set.cache_clear()
