"""Write a new game folder: manifest, one deck, glossary, a rulebook per language, the
toolkit's standard card layout to edit (layouts/standard.yaml shadows the built-in), an
example layout and icon, schemas, and a .gitignore for output/."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path
from typing import Any

from toolkit.content.folders import others_may_change
from toolkit.content.game import repo_root
from toolkit.content.schemas import render, schema_documents
from toolkit.fileio import atomic_write_text
from toolkit.scaffold import starter

GAME_ID = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")
SCHEMAS = (
    "generic/game.schema.json",
    "generic/deck.schema.json",
    "glossary.schema.json",
    "board.schema.json",
    "questions.schema.json",
    "layout.schema.json",
)
BUILTIN_MODELINE = "$schema=../../schemas/layout.schema.json"


class ScaffoldError(Exception):
    """The game cannot be started as asked (a usage error)."""


def _only(value: Any, languages: list[str]) -> Any:
    """The starter data with every localized text cut down to `languages`."""
    if isinstance(value, dict):
        if set(value) == set(starter.STARTER_LANGUAGES):
            return {lang: value[lang] for lang in languages}
        return {key: _only(item, languages) for key, item in value.items()}
    if isinstance(value, list):
        return [_only(item, languages) for item in value]
    return value


def _yaml(data: dict[str, Any], schema: str) -> str:
    from ruamel.yaml import YAML

    yaml = YAML()
    yaml.default_flow_style = False
    yaml.allow_unicode = True
    yaml.width = 100
    yaml.indent(mapping=2, sequence=4, offset=2)
    buffer = io.StringIO()
    yaml.dump(data, buffer)
    return f"# yaml-language-server: $schema={schema}\n" + buffer.getvalue()


def _title(game_id: str) -> str:
    """A title from the id, as a game's name is written: `harbour-market` → Harbour Market."""
    return " ".join(word.capitalize() for word in re.split(r"[-_]", game_id))


ENGINE_FILE = "engine.py"


def engine_source() -> str:
    """The starter engine's text: the module toolkit/scaffold/starter_engine.py itself, so
    the engine a new game gets is the one the tests play."""
    from importlib.resources import files

    return files("toolkit.scaffold").joinpath("starter_engine.py").read_text(encoding="utf-8")


def plan(game_id: str, languages: list[str], engine: bool = False) -> dict[str, str]:
    """Every file of the new game by its path in the folder (with `engine`: a working
    engine.py beside the content, named in game.yaml)."""
    if not GAME_ID.match(game_id) or len(game_id) > 64:
        raise ScaffoldError(
            f"{game_id!r} is not a game id: lower-case letters and digits, joined by - or _"
        )
    twice = sorted({lang for lang in languages if languages.count(lang) > 1})
    if twice:
        raise ScaffoldError(f"--lang names {', '.join(twice)} twice; give each language once")
    unknown = [lang for lang in languages if lang not in starter.STARTER_LANGUAGES]
    if unknown or not languages:
        have = ", ".join(starter.STARTER_LANGUAGES)
        raise ScaffoldError(
            f"no starter text in {', '.join(unknown) or 'no language'}; choose among {have}"
            " (add other languages to game.yaml afterwards)"
        )
    manifest = _only(starter.manifest(game_id, _title(game_id)), languages)
    manifest = {
        **{k: manifest[k] for k in ("id", "title", "summary")},
        "languages": languages,
        "source_language": "en" if "en" in languages else languages[0],
        "players": manifest["players"],
        **({"engine": ENGINE_FILE} if engine else {}),
        **{k: manifest[k] for k in ("rules", "files")},
    }
    manifest["files"]["rulebook"] = {lang: f"rulebook/{lang}.md" for lang in languages}
    files = {
        "game.yaml": _yaml(manifest, "schemas/generic/game.schema.json"),
        "decks/cards.yaml": _yaml(
            _only(starter.deck(), languages), "../schemas/generic/deck.schema.json"
        ),
        "glossary.yaml": _yaml(
            _only(starter.glossary(_title(game_id)), languages), "schemas/glossary.schema.json"
        ),
    }
    for lang in languages:
        files[f"rulebook/{lang}.md"] = starter.RULEBOOK[lang]
    if engine:
        files[ENGINE_FILE] = engine_source()
    standard = repo_root() / "templates" / "cards" / "standard.yaml"
    text = standard.read_text(encoding="utf-8")
    files["layouts/standard.yaml"] = text.replace(
        BUILTIN_MODELINE, "$schema=../schemas/layout.schema.json", 1
    )
    files["layouts/example-card.yaml"] = starter.EXAMPLE_LAYOUT
    files["icons/token.svg"] = starter.EXAMPLE_ICON
    files[".gitignore"] = starter.GITIGNORE
    import toolkit.render.layout  # noqa: F401 - registers the layout schema

    documents = schema_documents()
    for rel in SCHEMAS:
        files[f"schemas/{rel}"] = render(documents[rel])
    return files


def new_game(folder: Path, game_id: str, languages: list[str], engine: bool = False) -> list[Path]:
    """Write the new game into `folder` (which must not exist, or be empty); on an
    OSError (a full disk) or Ctrl-C, nothing of it is left and the error is raised."""
    files = plan(game_id, languages, engine)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ScaffoldError(f"{folder} already exists and is not an empty folder")
    if folder.is_symlink() and not folder.exists():
        raise ScaffoldError(f"{folder} is a link to nothing ({os.readlink(folder)}): remove it")
    if folder.is_symlink():  # an empty folder elsewhere: the game would be written there
        raise ScaffoldError(
            f"{folder} is a symbolic link (to {os.readlink(folder)}): name the folder itself"
        )
    if folder.is_dir() and (why := others_may_change(folder)):
        # an empty folder another user made where anyone may write (/tmp): the game would
        # stay theirs to change, its engine.py too, which `simulate` runs as us
        raise ScaffoldError(f"{folder} is not yours alone ({why}): name a new folder")
    made: list[Path] = []  # folders this call created, parents first
    written: list[Path] = []
    try:
        for rel, text in files.items():
            path = folder / rel
            missing = [p for p in (path.parent, *path.parent.parents) if not p.exists()]
            # each path recorded before it is made: an interrupt right after a rename (or a
            # mkdir) left that file unrecorded, not taken back (a path never made is no harm)
            for parent in reversed(missing):
                made.append(parent)
                parent.mkdir()
            written.append(path)
            atomic_write_text(path, text, inside=folder)  # no link followed below it
    except BaseException:
        # A full disk, a read-only folder or Ctrl-C half-way: take back what was written,
        # so a second try does not meet a half-made game ("already exists").
        for path in written:
            path.unlink(missing_ok=True)
        for parent in reversed(made):
            with contextlib.suppress(OSError):
                parent.rmdir()
        raise
    return written
