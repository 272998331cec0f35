"""Where the toolkit's own files live (bundled games, templates, schemas) and where commands
write by default: below every other module, so the loader, the diagnostics' formats and the
commands ask the same question the same way."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path


@cache
def _package() -> Path:
    """This package's folder, links followed: resolved once (`repo_root` is asked at every
    layout looked up, and a loaded module's file does not move)."""
    return Path(__file__).resolve().parent


@cache
def _checkout() -> Path | None:
    """The source checkout the package runs from, if it runs from one: looked at once, as
    `_package` (`repo_root` is asked ~90 times by a `validate` after a card edit, two `stat`
    calls each; `toolkit/bundled` links to the same folders anyway)."""
    checkout = _package().parent
    if (checkout / "templates").is_dir() and (checkout / "pyproject.toml").is_file():
        return checkout
    return None


def repo_root() -> Path:
    """The folder holding `content/`, `templates/` and `schemas/`: `$PLAYSET_HOME`, else the
    checkout the package runs from, else the copy a wheel carries in `toolkit/bundled`."""
    env = os.environ.get("PLAYSET_HOME")
    if env:
        return Path(env)
    return _checkout() or _package() / "bundled"


def work_folder() -> Path:
    """Where commands write by default (`output/`, `schemas/`): the checkout (or
    `$PLAYSET_HOME`) when there is one, else the current folder, never inside an installed
    package."""
    env = os.environ.get("PLAYSET_HOME")
    if env:
        return Path(env)
    return _checkout() or Path.cwd()
