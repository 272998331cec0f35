"""Shell completion of values, not just commands and options: game ids (and game folders
here), a game's languages and option names, and the fixed values of options such as
`--profile`, `--paper`, `--format`, `--bots`, `--only`, `--printer`, `--dask-idle`.

One registry keyed by the parameter's name serves every command (the parameter classes of
toolkit.cli.help_types ask it); a name it does not know keeps click's own completion (paths).
Completers never raise: a broken game gives no suggestions, not a traceback in the shell.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

Completer = Callable[[Any, str], list[str]]
COMPLETERS: dict[str, Completer] = {}


def completer(*names: str) -> Callable[[Completer], Completer]:
    def register(fn: Completer) -> Completer:
        for name in names:
            COMPLETERS[name] = fn
        return fn

    return register


def values(name: str | None, ctx: Any, incomplete: str) -> list[str] | None:
    """Completions for parameter `name`, or None when it has no completer."""
    fn = COMPLETERS.get(name or "")
    if fn is None:
        return None
    try:
        found = fn(ctx, incomplete)
    except Exception:  # a game that does not load: no suggestions
        return []
    return [value for value in found if value.startswith(incomplete)]


def _listed(choices: list[str], incomplete: str) -> list[str]:
    """For a comma-separated value (`greedy,ra`): the earlier items kept, the last completed."""
    head, _, _last = incomplete.rpartition(",")
    prefix = f"{head}," if head else ""
    return [prefix + choice for choice in choices]


@completer("games", "game", "games_arg")
def _games(ctx: Any, incomplete: str) -> list[str]:
    from toolkit.content.game import bundled_games

    here = [p.name + "/" for p in sorted(Path.cwd().iterdir()) if (p / "game.yaml").is_file()]
    return sorted(bundled_games()) + here


def _game(ctx: Any) -> Any | None:
    """The game a command line names so far (else the folder it runs in), loaded."""
    from toolkit.content.game import game_folder_around, load_game, resolve_game

    named = None
    for key in ("game", "games_arg", "games"):  # `simulate -n/--games` is a count
        value = ctx.params.get(key)
        if isinstance(value, list | tuple) and value and isinstance(value[0], str):
            value = value[0]
        if isinstance(value, str):
            named = value
            break
    if named is None:  # click leaves the arguments unparsed when an option awaits its value
        named = _game_word()
    folder = resolve_game(named) if named else game_folder_around(Path.cwd())
    return load_game(folder) if folder is not None else None


def _game_word() -> str | None:
    """The first word of the command line being completed that names a game (a bundled id
    or a folder holding game.yaml): typer hands the line over in COMP_WORDS (bash) or
    _TYPER_COMPLETE_ARGS (zsh, fish, PowerShell)."""
    from toolkit.content.game import bundled_games

    line = os.environ.get("COMP_WORDS") or os.environ.get("_TYPER_COMPLETE_ARGS") or ""
    ids = bundled_games()
    for word in line.split()[1:]:
        if word in ids or (Path(word) / "game.yaml").is_file():
            return word
    return None


@completer("lang")
def _languages(ctx: Any, incomplete: str) -> list[str]:
    game = _game(ctx)
    languages = list(game.manifest.languages) if game and game.manifest else ["fr", "es", "en"]
    return _listed(languages, incomplete)


@completer("option")
def _options(ctx: Any, incomplete: str) -> list[str]:
    game = _game(ctx)
    if game is None or game.manifest is None:
        return []
    found = []
    for option in game.manifest.options:
        if option.type == "bool":
            choices = ["true", "false"]
        elif option.type == "choice":
            choices = list(option.choices)
        else:
            choices = [str(option.default)]
        found += [f"{option.id}={value}" for value in choices]
    return found


@completer("profile")
def _profiles(ctx: Any, incomplete: str) -> list[str]:
    return ["home", "press"]


@completer("paper")
def _papers(ctx: Any, incomplete: str) -> list[str]:
    return ["a4", "letter"]


@completer("fmt")
def _formats(ctx: Any, incomplete: str) -> list[str]:
    from toolkit.diagnostics.formats import FORMATS

    return list(FORMATS)


@completer("bots")
def _bots(ctx: Any, incomplete: str) -> list[str]:
    from toolkit.sim.bots import GENERIC_BOTS

    return _listed(sorted({*GENERIC_BOTS, "greedy"}), incomplete)


@completer("only")
def _artifacts(ctx: Any, incomplete: str) -> list[str]:
    from toolkit.render.artifacts import artifacts

    return _listed(sorted(artifacts()), incomplete)


@completer("printer")
def _printers(ctx: Any, incomplete: str) -> list[str]:
    from toolkit.render.printers import load_printers

    return sorted(load_printers())


@completer("dask_idle")
def _idle(ctx: Any, incomplete: str) -> list[str]:
    return ["wait", "stop", "wait:60", "stop:30"]
