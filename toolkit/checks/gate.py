"""The one validity gate: every command that consumes content (build, simulate, i18n export
and fixes) asks here, so none of them prints, plays or exports a game that `validate` would
refuse. Errors stop the command; warnings pass.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from toolkit.checks import run_checks
from toolkit.content.game import Game, load_game
from toolkit.diagnostics import Diagnostic, Severity


@dataclass
class InvalidGame(Exception):
    """The game's content has errors: the diagnostics say where (nothing was written)."""

    game_id: str
    errors: list[Diagnostic]

    def __str__(self) -> str:
        n = len(self.errors)
        return f"{self.game_id}: content has {n} error{'s' if n != 1 else ''}; nothing done"


def valid_game(
    folder: Path, tolerate: tuple[str, ...] = (), printed: Collection[str] | None = None
) -> Game:
    """The loaded game when every check passes without an error; else InvalidGame.

    The same checks `playset validate` runs (load-time, cross-file, game rules), so a game
    with a blank title or an unknown reference is refused everywhere, not only by some
    commands. `tolerate` names code families a command exists to repair: the translation
    commands take a game whose only errors are translation ones (T), since a missing
    translation is what a translator exports and imports. `printed` (a `build --lang`)
    names the languages whose print is checked: a face in another language is not resolved,
    and its overflow does not stop a build that does not draw it; the faces resolved here
    are those the build then draws (`PrintJob.resolved`)."""
    game = load_game(folder)
    found = run_checks(game, errors_only=True, printed=printed)  # warnings: not worked out
    errors = [
        d
        for d in found
        if d.severity == Severity.ERROR and not d.code.startswith(tolerate or ("\0",))
    ]
    if errors or game.manifest is None:
        raise InvalidGame(game.id, errors)
    return game
