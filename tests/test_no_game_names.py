"""Nothing under `toolkit/` outside `toolkit/games/<id>/` names a bundled game, one of its
kinds or one of its fields: game knowledge lives in the game's plugin and content folder.

The names come from the bundled games themselves (ids, options and their values, deck kinds,
card fields beyond every card's own, board space/link/stop kinds); each is looked for as a
string literal (docstrings and comments aside) or an identifier in the generic code. Game ids
are also looked for inside longer strings and identifiers (`content/whisky-game`,
`render_tokaido_board`)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from toolkit.content.game import bundled_games, load_game
from toolkit.content.models.deck import CardBase

TOOLKIT = Path(__file__).resolve().parents[1] / "toolkit"

# Words a bundled game uses that generic code uses too, in its own sense or as a generic
# content field every game may have. Each is allowed everywhere.
GENERIC = {
    "path", "value", "target", "title", "default", "type", "table",  # everyday identifiers
    "family",  # a font family
    "mode",  # a file mode (Drinking Heroes' option is also `mode`)
    "level",  # a log or heading level
    "rank",  # a rank in statistics
    "port",  # the preview server's port
    "section",  # a rulebook section
    "region",  # graph board spaces' generic `region`
    "difficulty",  # question banks' generic `difficulty`
    "tokens",  # a deck's generic `pieces: tokens`
    "points", "price",  # generic card reference headings
    "cooperative",  # the manifest's own `cooperative:` declaration
    "measure",  # an element kind measuring its text for print fit
    "link",  # a link between spaces (the default link kind), a hard link, a Markdown link
    "characters",  # a text's length (template bounds), not a deck of characters
    "teams",  # the engine contract's seats_are_teams, not one game's option
}  # fmt: skip

# Vocabulary the toolkit itself offers every game, allowed only in the file that defines it: a
# bundled game's kinds may reuse these names, which is the point of offering them.
OFFERED = {
    # the graph board's route shapes (a dashed crossing, a double-lined bridge, an arc)
    "content/models/board.py": {"ferry", "flight", "bridge"},
    "render/boards/look.py": {"ferry", "flight", "bridge"},
    # the built-in pictograms (`playset icons`), named for what they show
    "render/icons.py": {"temple", "hot_spring", "mountain", "sea", "paddy"},
}


def _kinds(value: object) -> Iterator[str]:
    """Every `kind` of the models in a board's lists (spaces, links, stops, …)."""
    for name in type(value).model_fields:
        items = getattr(value, name)
        if isinstance(items, list):
            for item in items:
                kind = getattr(item, "kind", None)
                if isinstance(kind, str):
                    yield kind


def game_names() -> dict[str, str]:
    """Each name a bundled game owns → what it is (for the failure message)."""
    names: dict[str, str] = {}
    for game_id, folder in bundled_games().items():
        game = load_game(folder)
        for option in game.manifest.options:
            names[option.id] = f"{game_id} option"
            names.update((choice, f"{game_id} option value") for choice in option.choices)
        for deck in game.valid(game.decks):
            names[deck.kind] = f"{game_id} deck kind"
            for field in type(deck.cards[0]).model_fields:
                if field not in CardBase.model_fields:
                    names[field] = f"{game_id} card field"
        for board in game.valid(game.boards):
            names.update((kind, f"{game_id} board kind") for kind in _kinds(board))
    return {name: what for name, what in names.items() if name not in GENERIC}


def game_ids() -> dict[str, str]:
    """Spellings of each bundled game's id: `whisky-game`, `whisky_game` and the id's first
    word (`whisky`, `muckle`, `drinking`, `tokaido`)."""
    ids: dict[str, str] = {}
    for game_id in bundled_games():
        for spelling in (game_id, game_id.replace("-", "_"), game_id.split("-")[0]):
            ids[spelling] = game_id
    return ids


def findings(source: str, names: dict[str, str], ids: dict[str, str]) -> list[str]:
    """`line: what` for each game name in `source` (Python), docstrings left out."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        words: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                words = [node.value]
        elif isinstance(node, ast.Name):
            words = [node.id]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif isinstance(node, ast.keyword | ast.arg) and getattr(node, "arg", None):
            words = [str(node.arg)]
        elif isinstance(node, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef):
            words = [node.name]
        for word in words:
            line = getattr(node, "lineno", 0)
            if word in names:
                found.append(f"{line}: {word!r} ({names[word]})")
            lowered = word.lower()
            for spelling, game_id in ids.items():
                if spelling in lowered:
                    found.append(f"{line}: {word!r} names the game {game_id}")
    return sorted(set(found))


def generic_sources() -> list[Path]:
    return sorted(p for p in TOOLKIT.rglob("*.py") if p.relative_to(TOOLKIT).parts[0] != "games")


def _without(names: dict[str, str], allowed: set[str]) -> dict[str, str]:
    return {name: what for name, what in names.items() if name not in allowed}


def test_generic_code_names_no_bundled_game():
    names, ids = game_names(), game_ids()
    report = []
    for path in generic_sources():
        rel = path.relative_to(TOOLKIT).as_posix()
        allowed = OFFERED.get(rel, set())
        for finding in findings(path.read_text(encoding="utf-8"), _without(names, allowed), ids):
            report.append(f"toolkit/{rel}:{finding}")
    assert not report, "game knowledge in generic code:\n" + "\n".join(report)


def test_offered_files_exist():
    """An entry for a file that is gone (renamed, split) would hide its successor."""
    for rel in OFFERED:
        assert (TOOLKIT / rel).is_file(), rel


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('LABELS = {"kill_target": "Kill"}', "'kill_target' (drinking-heroes card field)"),
        ('coop = values.get("short_deck")', "'short_deck' (drinking-heroes option)"),
        ("if space.kind == 'lost_distillery': pass", "'lost_distillery' (whisky-game board kind)"),
        ("def draw(card):\n    return card.max_tries\n", "'max_tries'"),
        ('ROOT = "content/whisky-game"', "names the game whisky-game"),
        ("def render_tokaido_board(): pass", "names the game tokaido"),
        ("x = muckle_stoater.PLUGIN", "names the game muckle-stoater"),
    ],
)
def test_the_scan_finds_game_names(source, expected):
    found = findings(source, game_names(), game_ids())
    assert any(expected in finding for finding in found), found


def test_docstrings_comments_and_generic_words_pass():
    source = '"""The Whisky Game\'s map."""\n# tokaido\nmode = 0o644\nprice = card.points\n'
    assert findings(source, game_names(), game_ids()) == []
