"""The setup a user asks for, checked against the game's manifest: its options (`name=value`
pairs), the default player count, whether the options make play co-operative.

Below both the session (toolkit.sim.session) and rules variants (toolkit.sim.variants), which
each check what the user typed with these."""

from __future__ import annotations

from collections.abc import Sequence

from toolkit.content.game import Game


class SetupError(ValueError):
    """Options that do not fit the game (a usage error on the CLI)."""


def parse_options(
    game: Game, pairs: Sequence[str], players: int | None = None
) -> dict[str, bool | int | str]:
    """`name=value` pairs checked against the manifest's declared options (and the player
    counts an option allows)."""
    declared = {o.id: o for o in game.manifest.options} if game.manifest else {}
    values: dict[str, bool | int | str] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep:
            raise SetupError(f"--option {pair!r}: expected name=value")
        option = declared.get(name)
        if name in values:
            raise SetupError(f"--option {name} is given twice")
        if option is None:
            known = ", ".join(declared) or "none"
            raise SetupError(f"unknown option {name!r} (this game has: {known})")
        if option.players and players is not None and players not in option.players:
            allowed = ", ".join(map(str, option.players))
            raise SetupError(f"option {name} needs {allowed} players, not {players}")
        if option.type == "bool":
            if raw.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise SetupError(f"option {name} takes true or false, not {raw!r}")
            values[name] = raw.lower() in ("true", "yes", "1")
        elif option.type == "int":
            try:
                number = int(raw)
            except ValueError:
                raise SetupError(f"option {name} takes a whole number, not {raw!r}") from None
            if (option.min is not None and number < option.min) or (
                option.max is not None and number > option.max
            ):
                raise SetupError(f"option {name}={number} is outside {option.min}..{option.max}")
            values[name] = number
        else:
            if raw not in option.choices:
                raise SetupError(f"option {name} takes one of {', '.join(option.choices)}")
            values[name] = raw
    return values


def default_players(game: Game) -> int:
    if game.manifest is None:
        raise SetupError(f"{game.id}: the manifest is not valid")
    players = game.manifest.players
    return max(players.min, min(4, players.max))


def cooperative(game: Game, options: dict[str, bool | int | str]) -> bool:
    """Whether these options make play co-operative, as the game's `cooperative:` says."""
    return game.manifest is not None and game.manifest.is_cooperative(options)
