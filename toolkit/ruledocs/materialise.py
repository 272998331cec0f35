"""Write a rule example's failing or passing game folder: the base copied, the edits applied."""

from __future__ import annotations

import base64
import re
import shutil
from pathlib import Path

from toolkit.content.game import bundled_games, repo_root
from toolkit.ruledocs.examples import BASE_DIR, RuleExample

VARIANTS = ("fail", "pass")
_MODELINE = re.compile(r"(# yaml-language-server: \$schema=)\S*?schemas/(\S+)")


SCAFFOLD = "new-engine"  # the game `playset new example-game --lang en --engine` writes


def base_folder(example: RuleExample) -> Path:
    """The game the example edits: the shared base, or a bundled game."""
    if example.base in ("fixture", SCAFFOLD):
        return BASE_DIR
    games = bundled_games()
    if example.base not in games:
        raise ValueError(f"{example.code}: no bundled game {example.base!r}")
    return games[example.base]


def _relink(folder: Path) -> None:
    """Point copied modelines at the shipped schemas (same lines: positions do not move), so a
    copy outside the checkout does not warn of missing schemas (R009)."""
    schemas = repo_root() / "schemas"
    for path in folder.rglob("*.y*ml"):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue

        def repoint(m: re.Match[str]) -> str:
            target = schemas / m.group(2)
            return m.group(1) + target.as_posix() if target.is_file() else m.group(0)

        relinked = _MODELINE.sub(repoint, text, count=1)
        if relinked != text:
            path.write_text(relinked, encoding="utf-8")


def materialise(example: RuleExample, variant: str, target: Path) -> Path:
    """The example's game folder for `variant` ("fail" or "pass"), written at `target`."""
    if variant not in VARIANTS:
        raise ValueError(f"variant is one of {VARIANTS}")
    if example.base == SCAFFOLD:
        from toolkit.scaffold.new import new_game

        new_game(target, "example-game", ["en"], engine=True)
    else:
        shutil.copytree(base_folder(example), target)
        _relink(target)
    for edit in example.edits:
        path = target / edit.file
        new = edit.text(variant)
        if edit.encoding == "base64":  # a binary file (an image), in both examples
            if new is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(base64.b64decode(new))
            continue
        encoding = edit.encoding if variant == "fail" else "utf-8"
        if edit.find is None:
            if variant == "pass" and not edit.pass_given:
                continue
            if new is None:
                path.unlink(missing_ok=True)
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(new, encoding=encoding)
            continue
        text = path.read_text(encoding="utf-8")
        if text.count(edit.find) != 1:
            raise ValueError(
                f"{example.code}: {edit.file} holds {text.count(edit.find)} copies of "
                f"{edit.find!r}, not one"
            )
        path.write_text(text.replace(edit.find, new or ""), encoding=encoding)
    return target
