"""Probe 44 I1: the SVG icons of a game bounded together, not only one by one.

Each icon was bounded on its own (`svg_guard.MAX_EXPANDED`, 2,000 elements), and every icon
in icons/ is read at each check, used or not: 50 unused icons of 1,990 circles took
`validate --no-cache` 18 s, 999 icons of 100 paths 29 s. The icons one run reads now share
`svg_guard.MAX_GAME_ELEMENTS` (and bounds on their numbers, CSS and bytes), charged in the
order of their names; an icon past a bound is refused (P008) before svglib reads it.

The work is counted (icons svglib reads, files the guard opens), never timed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_validate_cache import _same_every_way, cache  # noqa: F401  (a fixture)
from toolkit.render import icons as icons_module
from toolkit.render import svg_guard, svg_icons

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
CIRCLES = HEAD + '<circle r="1"/>' * 1_990 + "</svg>"  # 1,991 elements, under MAX_EXPANDED
PLAIN = HEAD + '<rect width="5" height="5"/></svg>'  # 2 elements


@pytest.fixture
def read_by_svglib(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The icons svglib reads, by file name, in order."""
    read = svg_icons._read
    seen: list[str] = []

    def counting(path: Path, icons: Path, data: bytes) -> object:
        seen.append(path.stem)
        return read(path, icons, data)

    monkeypatch.setattr(svg_icons, "_read", counting)
    icons_module.icon_set.cache_clear()
    yield seen
    icons_module.icon_set.cache_clear()


def _names(count: int) -> list[str]:
    return [f"m{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(count)]


def _write(folder: Path, texts: dict[str, str]) -> None:
    icons = folder / "icons"
    icons.mkdir(parents=True, exist_ok=True)
    for name, text in reversed(texts.items()):  # written last name first
        (icons / f"{name}.svg").write_text(text, encoding="utf-8")


def test_the_elements_of_a_games_icons_are_bounded_together(tmp_path, read_by_svglib):
    names = _names(4)
    _write(tmp_path, {**dict.fromkeys(names, CIRCLES), "z_plain": PLAIN})
    found = icons_module.icon_set(tmp_path)
    kept = svg_guard.MAX_GAME_ELEMENTS // 1_991
    assert kept == 1  # 4 at 8,000, until budget59
    # the first by name are read, those after them refused before svglib reads them; a
    # small icon after them still fits
    assert read_by_svglib == [*names[:kept], "z_plain"]
    refused = [Path(problem.file).stem for problem in found.problems]
    assert refused == names[kept:]
    for problem in found.problems:
        assert "the game's icons hold more than 3,000 together" in problem.message
        assert "with its 1,991 elements" in problem.message
        assert "remove the icons the game does not print" in problem.message
    assert set(names[kept:]) == found.broken
    assert {*names[:kept], "z_plain"} <= found.names


def test_the_game_bound_counts_elements_once_uses_are_expanded(tmp_path, read_by_svglib):
    # 395 rectangles drawn 5 times each by <use>: 1,986 elements drawn, 402 written
    group = '<g id="g">' + "<rect/>" * 395 + "</g>"
    used = HEAD + "<defs>" + group + "</defs>" + '<use href="#g"/>' * 4 + "</svg>"
    names = _names(3)
    _write(tmp_path, dict.fromkeys(names, used))
    assert svg_guard.check(tmp_path / "icons" / "maa.svg", tmp_path / "icons") is None
    found = icons_module.icon_set(tmp_path)
    assert read_by_svglib == names[:1]  # 1,986 ≤ 3,000 < 2 × 1,986
    assert [Path(p.file).stem for p in found.problems] == names[1:]


def test_a_file_of_too_many_elements_is_refused_at_its_count(tmp_path, monkeypatch):
    # 2 MB of <g/> took the guard 4.4 s to refuse, one icon; it is refused once counted
    walked: list[Path] = []
    heavy = svg_guard._heavy

    def counting(root: object, text: str, path: Path, spent: object) -> object:
        walked.append(path)
        return heavy(root, text, path, spent)  # type: ignore[arg-type]

    monkeypatch.setattr(svg_guard, "_heavy", counting)
    icons = tmp_path / "icons"
    icons.mkdir()
    (icons / "a.svg").write_text(HEAD + "\n" + "<g/>" * 50_000 + "</svg>")
    refusal = svg_guard.check(icons / "a.svg", icons, budget=svg_guard.Budget())
    assert refusal is not None and "it holds more than 2,000 elements" in refusal.message
    assert (refusal.line, refusal.col) == (2, 4 * 1_999 + 1)  # the 2,001st element
    assert walked == []


def test_icons_are_not_read_once_the_games_bytes_are_spent(tmp_path, monkeypatch, read_by_svglib):
    opened: list[str] = []
    read = svg_guard.read

    def counting(path: Path, icons: Path | None = None) -> bytes:
        opened.append(path.stem)
        return read(path, icons)

    monkeypatch.setattr(svg_guard, "read", counting)
    monkeypatch.setattr(svg_guard, "MAX_GAME_BYTES", 3 * len(PLAIN) + 10)
    names = _names(6)
    _write(tmp_path, dict.fromkeys(names, PLAIN))
    found = icons_module.icon_set(tmp_path)
    assert opened == read_by_svglib == names[:4]  # the fourth takes them past the bound
    assert [Path(p.file).stem for p in found.problems] == names[4:]
    assert all(
        "not read: the icons read before it hold more than" in p.message for p in found.problems
    )


@pytest.mark.parametrize(
    ("bound", "text", "what"),
    [
        ("MAX_GAME_NUMBERS", HEAD + '<path d="M' + "1 2 " * 99 + 'z"/></svg>', "200 numbers"),
        ("MAX_GAME_STYLE", HEAD + "<style>" + ".a{fill:red}" * 20 + "</style></svg>", "240 char"),
    ],
)
def test_the_numbers_and_css_of_a_games_icons_are_bounded_together(
    tmp_path, monkeypatch, read_by_svglib, bound, text, what
):
    monkeypatch.setattr(svg_guard, bound, 500)
    names = _names(4)
    _write(tmp_path, {**dict.fromkeys(names, text), "z_plain": PLAIN})
    found = icons_module.icon_set(tmp_path)
    assert read_by_svglib == [*names[:2], "z_plain"]
    assert [Path(p.file).stem for p in found.problems] == names[2:]
    assert all(f"with its {what}" in p.message for p in found.problems)
    assert all("more than 500 together" in p.message for p in found.problems)


def test_an_icon_refused_for_its_own_reason_is_charged_what_the_guard_walked(tmp_path):
    icons = tmp_path / "icons"
    icons.mkdir()
    bad = HEAD + "<rect/>" * 99 + '<rect transform="' + "rotate(1)" * 200 + '"/></svg>'
    (icons / "a.svg").write_text(bad)
    budget = svg_guard.Budget()
    refusal = svg_guard.check(icons / "a.svg", icons, budget=budget)
    assert refusal is not None and "a transform of" in refusal.message
    assert budget.elements == 101
    assert budget.bytes == len(bad)
    assert budget.numbers == budget.style == budget.matching == 0


def test_the_same_findings_at_every_run_with_and_without_the_cache(
    tmp_path,
    cache,  # noqa: F811  (the findings cache on)
    run_cli,
    monkeypatch,
):
    monkeypatch.setattr(svg_guard, "MAX_GAME_ELEMENTS", 20)
    assert run_cli("new", "lantern", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "lantern"
    square = HEAD + '<rect width="5" height="5"/>' * 5 + "</svg>"  # 6 elements
    _write(game, dict.fromkeys(_names(5), square))  # before token.svg by name
    monkeypatch.chdir(game)
    icons_module.icon_set.cache_clear()
    _same_every_way(".")
    icons_module.icon_set.cache_clear()  # each run a process of its own
    again = run_cli("validate", ".", "--no-cache", "--format", "json")
    icons_module.icon_set.cache_clear()
    warm = run_cli("validate", ".", "--format", "json")
    assert again.output == warm.output
    assert again.output.count("more than 20 together") == 3  # mad, mae, token
    icons_module.icon_set.cache_clear()
