"""What every plugin's G checks start from: the game's valid manifest, the plugin's own rules
model, and diagnostics placed at a path inside one of the game's files."""

from __future__ import annotations

from typing import Generic

from toolkit.content.game import Game, LoadedFile, ValidFile
from toolkit.content.models.manifest import ManifestBase
from toolkit.content.plugin import R, rules_of
from toolkit.diagnostics import Diagnostic, Rule, Span

ValuePath = tuple[str | int, ...]


class CheckedGame(Generic[R]):
    """A game past the gate as a plugin's checks see it; each plugin subclasses it and adds
    its own files by role (board, decks)."""

    def __init__(self, game: Game, rules_model: type[R]) -> None:
        manifest = ValidFile.of(game.manifest_file, ManifestBase)
        if manifest is None:  # guarded_check runs the checks on a valid manifest only
            raise ValueError(f"{game.id}: no valid manifest")
        self.game = game
        self.manifest = manifest
        self.rules = rules_of(manifest.model, rules_model)

    @staticmethod
    def at(
        code: Rule, file: LoadedFile, path: ValuePath, message: str, key: bool = False
    ) -> Diagnostic:
        """A diagnostic at the value of `path` (or at its key, for whole-list findings)."""
        doc = file.doc
        span = Span() if doc is None else doc.key_span(path) if key else doc.span(path)
        return code.at(file.rel, span, message)
