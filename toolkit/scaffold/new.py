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
from toolkit.fileio import HeldFolder, OutputError, atomic_write_text, others_may_move
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


FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _refuse_unsafe(folder: Path) -> None:
    """Refuse (ScaffoldError) a game folder that is there and not empty, a link, or not the
    user's alone, or one to be made in a folder that is not the user's alone."""
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
    if why := others_may_move(folder):
        # a folder others may rename entries in: they exchange the new game folder for a
        # link while it is written, or put their game (their engine.py) in its place after
        raise ScaffoldError(
            f"the game would be made in a folder that is not yours alone ({why}):"
            " name a folder of your own (--into)"
        )


def _open_game_folder(folder: Path, made: list[tuple[int, str]], fds: list[int]) -> int:
    """A descriptor on the game folder, made (with the folders above it that are missing)
    one name at a time in the folder above it, each opened without following a link; each
    folder made is recorded in `made` (the descriptor of the folder it is in, its name)
    before it is made, each descriptor opened in `fds` (the caller closes them)."""
    path = Path(os.path.normpath(folder))  # as given: a deep one has no absolute path
    missing: list[str] = []
    while not os.path.lexists(path) and path != path.parent:
        missing.insert(0, path.name)
        path = path.parent
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)  # as the user named it
    fds.append(fd)
    for name in missing:
        made.append((fd, name))
        os.mkdir(name, dir_fd=fd)
        fd = os.open(name, FOLDER_FLAGS, dir_fd=fd)
        fds.append(fd)
    return fd


def _subfolder(game: int, rel: Path, held: dict[Path, int], made: list[tuple[int, str]]) -> int:
    """The descriptor of the game's folder `rel` (made if missing), reached from the game
    folder's descriptor without following a link; `held` keeps those opened."""
    if rel in held:
        return held[rel]
    fd = game if rel == Path(".") else _subfolder(game, rel.parent, held, made)
    try:
        child = os.open(rel.name, FOLDER_FLAGS, dir_fd=fd)
    except FileNotFoundError:
        made.append((fd, rel.name))  # recorded before it is made (an interrupt between)
        os.mkdir(rel.name, dir_fd=fd)
        child = os.open(rel.name, FOLDER_FLAGS, dir_fd=fd)
    held[rel] = child
    return child


def new_game(folder: Path, game_id: str, languages: list[str], engine: bool = False) -> list[Path]:
    """Write the new game into `folder` (which must not exist, or be empty, and be made in
    a folder that is the user's alone); on an OSError (a full disk) or Ctrl-C, nothing of it
    is left and the error is raised.

    Every folder and file is made, and taken back, by name in a folder held open, reached
    from one descriptor on the game folder without following a link: a game folder another
    process exchanges for a link half-way is not followed (the writes went, and the
    rollback removed files, through the link into another folder of the user's)."""
    files = plan(game_id, languages, engine)
    _refuse_unsafe(folder)
    made: list[tuple[int, str]] = []  # folders this call created, parents first
    written: list[Path] = []
    fds: list[int] = []
    held: dict[Path, int] = {}
    places: dict[Path, tuple[int, str]] = {}  # each file: its folder's descriptor, its name
    try:
        try:
            game = _open_game_folder(folder, made, fds)
            held[Path(".")] = game
            for rel, text in files.items():
                path = folder / rel
                inner = _subfolder(game, Path(rel).parent, held, made)
                # each path recorded before it is made: an interrupt right after a rename
                # left that file unrecorded, not taken back (a path never made is no harm)
                places[path] = (inner, path.name)
                written.append(path)
                atomic_write_text(path, text, inside=HeldFolder(folder, game))
            _still_there(folder, game)
        except BaseException:
            # A full disk, a read-only folder or Ctrl-C half-way: take back what was
            # written, so a second try does not meet a half-made game ("already exists").
            for path in written:
                inner, name = places[path]
                with contextlib.suppress(OSError):
                    os.unlink(name, dir_fd=inner)
            for at, name in reversed(made):
                with contextlib.suppress(OSError):
                    os.rmdir(name, dir_fd=at)  # only an empty one; a link is no folder
            raise
    finally:
        for fd in {*fds, *held.values()}:
            os.close(fd)
    return written


def _still_there(folder: Path, game: int) -> None:
    """Raise OutputError when `folder` no longer names the folder the game was written in
    (moved or exchanged for a link half-way): the user would not find the game there."""
    try:
        now = os.stat(folder, follow_symlinks=False)
    except OSError:
        now = None
    held = os.fstat(game)
    if now is None or (now.st_dev, now.st_ino) != (held.st_dev, held.st_ino):
        raise OutputError(folder, "it was moved or replaced while the game was written")
