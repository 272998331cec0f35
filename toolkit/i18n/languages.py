"""Start a language: add it to game.yaml's `languages`, so that `validate` lists every text
it still lacks (T001, at each field and label) and a PO file holds them all to fill in.

Nothing else is written into the content: an empty or copied text would read as translated
(or as an empty-text error) where it is simply not done yet, and the rulebook is written by
`i18n import` once every unit has its translation.
"""

from __future__ import annotations

import re

from babel import Locale, UnknownLocaleError

from toolkit.content import game as game_module
from toolkit.content.game import Game
from toolkit.i18n.yaml_edit import append_item

LANG_CODE = re.compile(r"^[a-z]{2,3}$")


class LanguageError(ValueError):
    """A language that cannot be added (the message says why)."""


def check_new_language(game: Game, lang: str) -> None:
    manifest = game.manifest
    assert manifest is not None
    if not LANG_CODE.match(lang):
        raise LanguageError(f"{lang!r} is not an ISO 639 language code (two or three letters)")
    try:
        Locale.parse(lang)
    except (UnknownLocaleError, ValueError):
        raise LanguageError(f"CLDR (Babel) knows no language {lang!r}") from None
    if lang in manifest.languages:
        raise LanguageError(f"{game.id} already has {lang}")


def _room_for_one_more(game: Game) -> None:
    """A ValueError when one more language would take the game's content past its work
    budget (Y018, `MAX_WORK`): the language is not added, rather than added and the files
    refused."""
    manifest = game.checked_manifest
    cards = sum(len(getattr(deck, "cards", None) or ()) for deck in game.valid(game.decks))
    questions = sum(
        len(getattr(bank, "questions", None) or ()) for bank in game.valid(game.questions)
    )
    per_row = game_module.FACES_PER_ROW
    faces = cards * per_row["cards"] + questions * per_row["questions"]
    files = len(game.decks) + len(game.questions) + len(game.boards)
    entries = sum(
        len(rows)
        for board in game.boards
        if board.doc is not None and isinstance(board.doc.data, dict)
        for rows in board.doc.data.values()
        if isinstance(rows, list)
    )
    languages = len(manifest.languages) + 1
    bound = game_module.MAX_WORK
    units = (faces + files + entries) * languages + files * game_module.FILE_WORK
    if units > bound:
        raise ValueError(
            f"{game.id} prints {faces:,} faces a language ({cards:,} cards, {questions:,}"
            f" questions of two faces) from {files:,} content files: in {languages} languages"
            f" its content would be {units:,} units of work, more than the {bound:,} a game"
            f" may take (Y018: a face is one unit in each language, a file {game_module.FILE_WORK}"
            " and one in each language, a board's entry one in each language); nothing done"
        )


def add_language(game: Game, lang: str) -> str:
    """game.yaml's new text with `lang` added to `languages` (raises LanguageError, or a
    ValueError when the game's cards leave no room for one more language)."""
    check_new_language(game, lang)
    _room_for_one_more(game)
    loaded = game.manifest_file
    assert loaded is not None and loaded.doc is not None
    try:
        return append_item(loaded.doc.path, loaded.doc, ("languages",), lang, inside=game.root)
    except ValueError as exc:
        raise LanguageError(f"cannot add {lang} to {loaded.rel}: {exc}") from None
