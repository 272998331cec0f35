"""Apply the safe typography fixes (spaces only) to a game's YAML, with a diff first."""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from toolkit.checks.translation.typography import apply_fixes, safe_fixes
from toolkit.content.game import Game, LoadedFile
from toolkit.content.sheets.load import SheetDocument
from toolkit.content.walk import Facts, collect
from toolkit.fileio import write_many
from toolkit.i18n.sheet_edit import apply_sheet_edits
from toolkit.i18n.sheet_refusal import sheet_refusal
from toolkit.i18n.yaml_edit import Edit, apply_edits, read_source, refusal


@dataclass
class FilePatch:
    file: LoadedFile
    edits: list[Edit]
    new_text: str
    root: Path
    """The game folder the file is read from (and only from)."""
    outputs: dict[Path, str | bytes] | None = None
    """A sheet's new files (the sheet, its keys file): a sheet's cells are fixed in place."""

    @property
    def path(self) -> Path:
        assert self.file.doc is not None
        return self.file.doc.path

    def diff(self) -> str:
        if self.outputs is not None:  # a sheet (ODS and XLSX are no text): cell by cell
            doc = self.file.doc
            assert doc is not None
            return (
                "".join(f"{self._place(edit)} becomes: {edit.value}\n" for edit in self.edits)
                .replace("\u202f", "⍽")
                .replace("\u00a0", "·")
            )
        old = read_source(self.path, self.root)
        lines = difflib.unified_diff(
            old.splitlines(keepends=True),
            self.new_text.splitlines(keepends=True),
            f"a/{self.file.rel}",
            f"b/{self.file.rel}",
        )
        return "".join(lines).replace("\u202f", "⍽").replace("\u00a0", "·")

    def _place(self, edit: Edit) -> str:
        """A sheet edit's place: its cell, or its line in the keys file (a deck's name)."""
        assert self.file.doc is not None
        span = self.file.doc.span(edit.path)
        if span.cell is not None:
            return f"{self.file.rel}:{span.cell}"
        if span.file is not None:
            return f"{span.file}:{span.line}:{span.col}"
        return f"{self.file.rel}:{'/'.join(map(str, edit.path))}"

    @property
    def names(self) -> list[str]:
        """The files this patch writes, as the game names them (a sheet and its keys file)."""
        doc = self.file.doc
        if self.outputs is None or not isinstance(doc, SheetDocument) or doc.keys is None:
            return [self.file.rel]
        return [self.file.rel] + ([doc.keys.display] if doc.keys.path in self.outputs else [])

    def files(self) -> list[tuple[Path, bytes]]:
        """The paths and new bytes this patch writes."""
        if self.outputs is None:
            return [(self.path, self.new_text.encode("utf-8"))]
        return [
            (path, data if isinstance(data, bytes) else data.encode("utf-8"))
            for path, data in self.outputs.items()
        ]


def plan_fixes(
    game: Game, only: Callable[[Path], bool] | None = None, facts: Facts | None = None
) -> list[FilePatch]:
    """One patch per file that has fixable typography (a sheet's cells edited in the sheet,
    as `i18n import` edits them); `only`: the files (by their document's path) to plan, the
    others' texts not looked at; `facts`: the game's, when the caller has them."""
    by_file: dict[int, tuple[LoadedFile, list[Edit]]] = {}
    grouped: dict[int, list[Edit]] = defaultdict(list)
    chosen: dict[int, bool] = {}  # by file: `only` asked once for each
    for text in (facts if facts is not None else collect(game)).texts:
        doc = text.file.doc
        assert doc is not None
        if only is not None:
            if id(text.file) not in chosen:
                chosen[id(text.file)] = only(doc.path)
            if not chosen[id(text.file)]:
                continue
        for lang, value in text.value.items():
            fixed = apply_fixes(value, safe_fixes(lang, value))
            edit = Edit((*text.path, lang), fixed)
            if fixed == value:
                continue
            if isinstance(doc, SheetDocument):
                if doc.cell_of(edit.path) is None and sheet_refusal(doc, edit.path) is not None:
                    continue
            elif refusal(doc, edit) is not None:
                continue  # an alias or merged copy is fixed where its text is defined
            key = id(text.file)
            by_file[key] = (text.file, grouped[key])
            grouped[key].append(edit)
    patches = []
    for loaded, edits in by_file.values():
        doc = loaded.doc
        assert doc is not None
        if isinstance(doc, SheetDocument):
            outputs = apply_sheet_edits(doc, edits, inside=game.root)
            patches.append(FilePatch(loaded, edits, "", game.root, outputs))
            continue
        new = apply_edits(doc.path, doc, edits, inside=game.root)
        patches.append(FilePatch(loaded, edits, new, game.root))
    return sorted(patches, key=lambda p: p.file.rel)


def write(patches: list[FilePatch], root: Path) -> None:
    """Replace every patched file of the game in `root` together (none if one cannot be
    written), never through a link out of the game (one met since the files were read)."""
    write_many([file for p in patches for file in p.files()], within=root)
