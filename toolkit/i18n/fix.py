"""Apply the safe typography fixes (spaces only) to a game's YAML, with a diff first."""

from __future__ import annotations

import difflib
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from toolkit.checks.translation.typography import apply_fixes, safe_fixes
from toolkit.content.game import Game, LoadedFile
from toolkit.content.sheets import is_sheet
from toolkit.content.walk import collect
from toolkit.fileio import write_many
from toolkit.i18n.yaml_edit import Edit, apply_edits, read_source, refusal


@dataclass
class FilePatch:
    file: LoadedFile
    edits: list[Edit]
    new_text: str
    root: Path
    """The game folder the file is read from (and only from)."""

    @property
    def path(self) -> Path:
        assert self.file.doc is not None
        return self.file.doc.path

    def diff(self) -> str:
        old = read_source(self.path, self.root)
        lines = difflib.unified_diff(
            old.splitlines(keepends=True),
            self.new_text.splitlines(keepends=True),
            f"a/{self.file.rel}",
            f"b/{self.file.rel}",
        )
        return "".join(lines).replace("\u202f", "⍽").replace("\u00a0", "·")


def plan_fixes(game: Game) -> list[FilePatch]:
    """One patch per file that has fixable typography."""
    by_file: dict[int, tuple[LoadedFile, list[Edit]]] = {}
    grouped: dict[int, list[Edit]] = defaultdict(list)
    for text in collect(game).texts:
        for lang, value in text.value.items():
            fixed = apply_fixes(value, safe_fixes(lang, value))
            assert text.file.doc is not None
            edit = Edit((*text.path, lang), fixed)
            # an alias or merged copy is fixed where its text is defined
            in_sheet = is_sheet(text.file.doc.path)  # a sheet's cells: fixed in the sheet
            if fixed != value and not in_sheet and refusal(text.file.doc, edit) is None:
                key = id(text.file)
                by_file[key] = (text.file, grouped[key])
                grouped[key].append(edit)
    patches = []
    for loaded, edits in by_file.values():
        assert loaded.doc is not None
        new = apply_edits(loaded.doc.path, loaded.doc, edits, inside=game.root)
        patches.append(FilePatch(loaded, edits, new, game.root))
    return sorted(patches, key=lambda p: p.file.rel)


def write(patches: list[FilePatch], root: Path) -> None:
    """Replace every patched file of the game in `root` together (none if one cannot be
    written), never through a link out of the game (one met since the files were read)."""
    write_many([(p.path, p.new_text.encode("utf-8")) for p in patches], within=root)
