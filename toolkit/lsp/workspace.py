"""What the server knows of one game folder: its mirror, the last loaded game (for names,
hover and definitions) and the findings of the last check, by real file."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from toolkit.diagnostics import Diagnostic
from toolkit.lsp.mirror import Mirror

LOCAL_HOSTS = ("", "localhost")


MAX_PATH_BYTES = 4096
"""The longest path a file of this machine has (Linux's PATH_MAX): a URI naming 40,000
folders held the memory of a list of its parents, each its own copy of the steps (5.5 GB
for 80 kB; probe 65-7)."""


def path_of(uri: str) -> Path | None:
    """The local file a document is, or None: only a `file` URI with no host (or
    `localhost`) and an absolute path names a file of this machine. Any other document (the
    `git:` old side of VS Code's diff view, an `http://…` page, a share `file://host/…`, a
    remote folder) has a text of its own, not the file's that has the same path here: taken
    as that file, it replaced the unsaved text of the file open beside it, and closing it
    dropped that text."""
    try:
        parts = urlparse(uri)
    except ValueError:  # a host that is no host ("file://[x/…")
        return None
    if parts.scheme != "file" or parts.netloc.lower() not in LOCAL_HOSTS:
        return None
    path = unquote(parts.path)
    if not path.startswith("/") or "\x00" in path:
        return None
    try:
        named = os.fsencode(path)
    except UnicodeEncodeError:  # a lone surrogate (JSON "\ud800"): no file's name here
        return None
    if len(named) > MAX_PATH_BYTES:
        return None
    return Path(path)


def game_root(path: Path) -> Path | None:
    """The game folder a file belongs to: the nearest folder up with a game.yaml, passing
    over one another user may have planted (their game.yaml in a folder anyone may write
    to, /tmp): that folder, its files and links the server would have mirrored and checked
    as the user's game, as `game_folder_around` passes over it for the commands."""
    from toolkit.content.folders import planted

    for folder in path.parents:  # one at a time: a list of them all held d²/2 steps
        try:
            found = (folder / "game.yaml").is_file()
        except OSError:  # a step longer than a name may be: no game.yaml there
            continue
        if found and not planted(folder):
            return folder
    return None


@dataclass
class GameState:
    """One game folder open in the editor."""

    mirror: Mirror
    game: Any = None  # the last game loaded from the mirror
    facts: Any = None  # its names, references and texts (toolkit.content.walk)
    findings: dict[str, list[Diagnostic]] = field(default_factory=dict)  # real path → findings
    per_check: Any = None  # what requests read, made once a check (toolkit.lsp.names)

    def check(self) -> dict[str, list[Diagnostic]]:
        """Validate the mirror as it is now; the findings by real file path (every file that
        had findings before is in the result, with none when it has none now)."""
        from toolkit.checks import run_checks
        from toolkit.content.game import load_game
        from toolkit.content.walk import collect
        from toolkit.render import icons

        self.mirror.sync()
        # the game's icons are kept by folder for a command's life; the server's lasts the
        # editor's, and an icon added on disk stayed "missing" (probe 65-14)
        icons.icon_set.cache_clear()
        # the mirror holds no dot files: a journal of the real folder is looked for there
        game = load_game(self.mirror.path, written=self.mirror.root)
        found = run_checks(game)
        self.game, self.facts = game, collect(game)
        by_file: dict[str, list[Diagnostic]] = {path: [] for path in self.findings}
        for d in found:
            real = self.mirror.real(str(self._absolute(d.file)))
            message = self.mirror.real_text(d.message)
            if message != d.message:  # the user's paths, not the private mirror's
                d = replace(d, message=message)
            by_file.setdefault(real, []).append(d)
        self.findings = {k: v for k, v in by_file.items() if v}
        return by_file

    def release(self) -> None:
        """Let go of the loaded game and what was worked out of it (its findings are kept):
        every game the server met was held for the session's life, each as large as its
        content makes it (six games of a folder, 1.5 GB; probe 67-7). A document of it
        opened again checks it again."""
        self.game = self.facts = self.per_check = None

    def _absolute(self, shown: str) -> Path:
        """A diagnostic's file as an absolute path (it is shown relative to the working
        folder when it lies under it)."""
        path = Path(shown)
        return path if path.is_absolute() else (Path.cwd() / path)
