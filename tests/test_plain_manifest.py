"""A game.yaml without the rarely written sections (options, variants, co-operative play,
checks, question needs, style) is validated with a smaller schema, and gives the very model
the whole manifest's validator gives; anything else goes through the whole validator, whose
messages are the ones a user reads."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from toolkit.content.folders import bundled_games
from toolkit.content.plugin import RARE_SECTIONS, plugin_for
from toolkit.content.source import load_document

FIXTURES = Path(__file__).parent / "fixtures"


def _manifest(folder: Path) -> dict[str, Any]:
    doc = load_document(folder / "game.yaml", "game.yaml")[0]
    assert doc is not None and isinstance(doc.data, dict)
    return doc.data


def _both(game_id: str, data: dict[str, Any]) -> tuple[Any, Any]:
    plugin = plugin_for(game_id)
    try:
        whole = plugin.manifest_adapter.validate_python(data)
    except ValidationError:
        whole = None
    return plugin.plain_manifest(data), whole


def _same(plain: Any, whole: Any) -> None:
    assert whole is not None
    assert type(plain) is type(whole)
    assert plain == whole
    assert plain.model_fields_set == whole.model_fields_set
    assert list(plain.__dict__) == list(whole.__dict__)
    assert repr(plain) == repr(whole)
    assert plain.model_dump_json() == whole.model_dump_json()


BASE = _manifest(FIXTURES / "base")
CHANGED = {
    "as written": {},
    "more plain fields": {
        "minutes": 30,
        "age": 12,
        "sources": ["a book"],
        "summary": {"fr": "x", "es": "x", "en": "x"},
        "plugin": "fixture-game",
        "engine": "engine.py",
    },
    "source language not listed": {"source_language": "de"},
    "players the wrong way round": {"players": {"min": 4, "max": 2}},
    "a count as text": {"players": {"min": "2", "max": 4}},
    "an unknown key": {"colour": "red"},
    "a bad id": {"id": "Bad Id"},
    "no languages": {"languages": []},
    "no files": {"files": None},
}


@pytest.mark.parametrize("change", sorted(CHANGED))
def test_a_plain_manifest_is_the_whole_validator_s_model_or_none(change: str) -> None:
    data = {k: v for k, v in {**BASE, **CHANGED[change]}.items() if v is not None}
    plain, whole = _both("fixture-game", data)
    if plain is not None:
        _same(plain, whole)
    elif change == "as written" or change == "more plain fields":
        pytest.fail("a valid plain manifest went through the whole validator")
    else:
        assert whole is None  # its messages come from the whole validator


@pytest.mark.parametrize("section", sorted(RARE_SECTIONS))
def test_a_manifest_that_writes_a_rare_section_is_left_to_the_whole_validator(
    section: str,
) -> None:
    value = {"cooperative": True, "checks": {}, "style": {}}.get(section, [])
    if section == "questions":
        value = {"difficulties": ["easy"], "minimum": 1}
    plain, whole = _both("fixture-game", {**BASE, section: value})
    assert plain is None
    assert whole is not None


@pytest.mark.parametrize("game", sorted(bundled_games()))
def test_a_bundled_game_s_manifest_is_the_same_either_way(game: str) -> None:
    data = _manifest(bundled_games()[game])
    plain, whole = _both(game, data)
    if plain is not None:
        _same(plain, whole)
    plain, whole = _both(game, {k: v for k, v in data.items() if k not in RARE_SECTIONS})
    assert plain is not None
    _same(plain, whole)


def test_loading_a_plain_game_builds_no_schema_of_the_rare_sections(tmp_path) -> None:
    """The models of the sections a game.yaml does not write get no schema built."""
    game = tmp_path / "game"
    game.mkdir()
    (game / "game.yaml").write_text(
        textwrap.dedent(
            """\
            id: plain
            title: {fr: Jeu, en: Game}
            languages: [fr, en]
            source_language: fr
            players: {min: 2, max: 4}
            rules: {}
            """
        )
    )
    code = (
        "import sys\n"
        "from toolkit.content.models.base import StrictModel\n"
        "built = []\n"
        "hook = StrictModel.__get_pydantic_core_schema__.__func__\n"
        "def spy(cls, source, handler):\n"
        "    built.append(getattr(source, '__name__', ''))\n"
        "    return hook(cls, source, handler)\n"
        "StrictModel.__get_pydantic_core_schema__ = classmethod(spy)\n"
        "from pathlib import Path\n"
        "from toolkit.content.game import load_game\n"
        f"game = load_game(Path({str(game)!r}))\n"
        "assert game.manifest is not None and not game.diagnostics, game.diagnostics\n"
        "print(sorted(set(built)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    built = eval(done.stdout)  # noqa: S307 - a list we printed
    rare = {"Option", "Variant", "ChecksConfig", "Legibility", "QuestionNeeds", "GameStyle"}
    assert "Players" in built
    assert rare.isdisjoint(built), built
