"""Probe71-1: a file the game reads as something else (game.yaml, the glossary, a layout)
also listed as a deck or question bank had its bytes left out of the frame that names the
units reading no content file, so its later edits went unseen and `validate` repeated stale
findings (a layout's text box shrunk: 33 P001 missing). Such a game's units are no longer
named by the frame (toolkit.checks.content_paths): its output is that of a run without the
cache."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, relink_modelines
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.checks import content_paths
from toolkit.content.game import load_game


def _game(tmp_path: Path, listed: str, group: str = "decks") -> Path:
    """The base fixture with `listed` also listed under `files.<group>`."""
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    relink_modelines(game)
    manifest = game / "game.yaml"
    text = manifest.read_text("utf-8")
    first = {"decks": "    - decks/cards.yaml\n", "questions": "    - questions/bank.yaml\n"}
    assert text.count(first[group]) == 1
    manifest.write_text(text.replace(first[group], f"{first[group]}    - {listed}\n"), "utf-8")
    return game


def _same_as_without_cache(game: Path) -> str:
    cached = _run(str(game), "-f", "json")
    assert cached == _run(str(game), "-f", "json", "--no-cache")
    return cached[1]


@pytest.mark.parametrize("group", ["decks", "questions"])
@pytest.mark.usefixtures("cache")
def test_game_yaml_listed_as_content_has_its_edits_seen(tmp_path: Path, group: str):
    game = _game(tmp_path, "game.yaml", group)
    assert '"T003"' not in _same_as_without_cache(game)
    manifest = game / "game.yaml"
    text = manifest.read_text("utf-8")
    manifest.write_text(text.replace("languages: [fr, es, en]", "languages: [fr, es]"), "utf-8")
    assert '"T003"' in _same_as_without_cache(game)  # every English text: not a language


@pytest.mark.parametrize(
    ("listed", "framed"),
    [
        ("glossary.yaml", False),  # no deck: not loaded as one
        ("decks/cards.yaml", True),  # a deck listed twice is still a deck
    ],
)
def test_content_paths_leave_out_a_game_read_otherwise(tmp_path: Path, listed: str, framed: bool):
    game = load_game(_game(tmp_path, listed))
    assert (content_paths(game) is not None) is framed


def test_a_deck_in_a_folder_found_by_name_is_no_content_file(tmp_path: Path):
    game = _game(tmp_path, "layouts/cards.yaml")
    (game / "layouts").mkdir()
    shutil.copy(game / "decks" / "cards.yaml", game / "layouts" / "cards.yaml")
    (game / "layouts" / "cards.yaml").write_text(
        (game / "layouts" / "cards.yaml").read_text("utf-8").replace("../", "../../", 1), "utf-8"
    )
    loaded = load_game(game)
    assert all(f.model is not None for f in loaded.decks)
    assert content_paths(loaded) is None


@pytest.mark.usefixtures("cache")
def test_a_yaml_file_in_a_tool_s_folder_is_no_stray_with_or_without_the_cache(tmp_path: Path):
    """Probe71-3: R008 named a YAML file under `decks/node_modules/` (a folder the findings
    cache never walks), so once R008 was kept whole a run with the cache never said it. No
    file under a tool's folder is a stray deck: neither run says it; a stray in `decks/`
    itself is said by both."""
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    relink_modelines(game)
    _same_as_without_cache(game)
    for folder in ("node_modules", ".git", "sub/.venv"):
        (game / "decks" / folder).mkdir(parents=True)
        (game / "decks" / folder / "stray.yaml").write_text("id: stray\n", "utf-8")
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text("utf-8") + "\n", "utf-8")
    assert '"R008"' not in _same_as_without_cache(game)
    (game / "decks" / "stray.yaml").write_text("id: stray\n", "utf-8")
    found = _same_as_without_cache(game)
    assert found.count('"R008"') == 1 and "decks/stray.yaml is not listed" in found


@pytest.mark.usefixtures("cache")
def test_a_deck_listed_in_a_tool_s_folder_is_not_read(tmp_path: Path):
    """Probe71-4: a deck listed inside `decks/node_modules/` (a folder the findings cache
    never walks) was read, and its edits went unseen by the cache (findings of the old
    bytes, exit 0 for a deck that now overflowed). No game file is read from a tool's
    folder: the listing says why, with the cache and without, whatever the file holds."""
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    relink_modelines(game)
    (game / "decks" / "node_modules").mkdir()
    deck = game / "decks" / "node_modules" / "cards.yaml"
    (game / "decks" / "cards.yaml").rename(deck)
    manifest = game / "game.yaml"
    listed = manifest.read_text("utf-8").replace(
        "- decks/cards.yaml", f"- {deck.relative_to(game)}"
    )
    manifest.write_text(listed, "utf-8")
    found = _same_as_without_cache(game)
    assert "a tool's folder (node_modules)" in found and '"R002"' in found
    deck.write_text(deck.read_text("utf-8").replace("cards:", "cards: oops\n  x:", 1), "utf-8")
    assert _same_as_without_cache(game) == found
    deck.unlink()  # probe71-6: told by the path alone, there or not
    assert _same_as_without_cache(game) == found


@pytest.mark.usefixtures("cache")
def test_a_content_folder_linked_out_of_the_game_is_not_listed(tmp_path: Path):
    """Probe71-5: `questions/` a link out of the game made R008 list the folder it leads to
    (to `/usr`: 4,310 findings, every file of it walked), which the findings cache never
    walks. A content folder whose real path is outside the game is not listed."""
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    relink_modelines(game)
    outside = tmp_path / "outside"
    shutil.move(str(game / "questions"), outside)
    (outside / "stray.yaml").write_text("id: stray\n", "utf-8")
    (game / "questions").symlink_to(outside, target_is_directory=True)
    manifest = game / "game.yaml"
    text = manifest.read_text("utf-8")
    assert text.count("  questions:\n    - questions/bank.yaml\n") == 1
    manifest.write_text(text.replace("  questions:\n    - questions/bank.yaml\n", ""), "utf-8")
    found = _same_as_without_cache(game)
    assert "stray.yaml" not in found and "bank.yaml" not in found
    (outside / "more.yaml").write_text("id: more\n", "utf-8")  # outside: no finding
    assert _same_as_without_cache(game) == found


def test_a_path_in_a_tool_s_folder_is_told_by_the_path_alone(tmp_path: Path):
    """`fileio.in_tool_folder`: decks, banks, boards (game.yaml's listing), images (P004)
    and every game file read are refused in a tool's folder whether the file is there or
    not; a folder of that name above the game folder does not count."""
    from toolkit.fileio import in_tool_folder

    root = (tmp_path / "node_modules" / "game").resolve()
    root.mkdir(parents=True)
    assert in_tool_folder(root / "decks" / "cards.yaml", root) is None
    assert in_tool_folder(root / "art" / ".git" / "gone.png", root) == ".git"
    assert in_tool_folder(root / "a" / "__pycache__" / "b" / ".venv" / "x.yaml", root) == ".venv"
    assert in_tool_folder(tmp_path / "elsewhere.yaml", root) is None
