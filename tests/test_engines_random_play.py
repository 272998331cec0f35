"""Every bundled game whose plugin has an engine passes the generic random-play test
(toolkit.sim.contract) at every player count its game.yaml allows and with each bool option
on at the smallest and largest count it applies to; each choice value and variant is played
at its smallest count. A new engine joins by being registered: nothing here names a game.

Bounded by counts, not by time: GAMES random games per count or bool setting, SETTING_GAMES
per choice value or variant (an engine's own test file plays many more), every legal action
probed on a clone every PROBE_EVERY moves."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from toolkit.content.game import bundled_games, load_game
from toolkit.sim.contract import random_play_check
from toolkit.sim.engine import CompiledGame, GameSetup

GAMES = 8
SETTING_GAMES = 3
PROBE_EVERY = 11

Options = dict[str, bool | int | str]


@cache
def _game(game_id: str) -> Any:
    return load_game(bundled_games()[game_id])


@cache
def _compiled(game_id: str) -> CompiledGame:
    game = _game(game_id)
    errors = [d for d in game.diagnostics if d.severity == "error"]
    assert not errors, f"{game_id} content has errors: {errors[:3]}"
    return game.plugin.engine(game)


def _allowed(counts: list[int], low: int, high: int) -> list[int]:
    """The player counts a setting applies to, within the game's range, in order."""
    return [n for n in (counts or range(low, high + 1)) if low <= n <= high]


def setups(game_id: str) -> list[tuple[int, Options, int]]:
    """(players, option values, games) to play: every count with the defaults, then each
    setting, deduplicated, in a stable order."""
    manifest = _game(game_id).manifest
    low, high = manifest.players.min, manifest.players.max
    cases: list[tuple[int, Options, int]] = [(n, {}, GAMES) for n in range(low, high + 1)]
    for option in manifest.options:
        allowed = _allowed(option.players, low, high)
        if not allowed:
            continue
        if option.type == "bool":
            ends = sorted({allowed[0], allowed[-1]})
            cases += [(n, {option.id: not option.default}, GAMES) for n in ends]
        elif option.type == "choice":
            values = [c for c in option.choices if c != option.default]
            cases += [(allowed[0], {option.id: v}, SETTING_GAMES) for v in values]
    for variant in manifest.variants:
        allowed = _allowed(variant.players, low, high)
        if variant.options and allowed:
            cases.append((allowed[0], dict(variant.options), SETTING_GAMES))
    unique: dict[tuple[int, tuple[tuple[str, Any], ...]], tuple[int, Options, int]] = {}
    for players, options, games in cases:
        unique.setdefault((players, tuple(sorted(options.items()))), (players, options, games))
    return list(unique.values())


def _engine_games() -> list[str]:
    return [gid for gid in bundled_games() if _game(gid).plugin.engine is not None]


CASES = [(gid, *setup) for gid in _engine_games() for setup in setups(gid)]


def _case_id(case: tuple[str, int, Options, int]) -> str:
    gid, players, options, _ = case
    extra = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{gid}-{players}p" + (f"-{extra}" if extra else "")


def test_engines_are_found():
    """Drinking Heroes and Muckle Stoater have engines today; every engine game is covered
    at each of its player counts."""
    games = _engine_games()
    assert {"drinking-heroes", "muckle-stoater"} <= set(games)
    for gid in games:
        manifest = _game(gid).manifest
        counts = {players for g, players, _, _ in CASES if g == gid}
        assert counts == set(range(manifest.players.min, manifest.players.max + 1))


def test_settings_that_change_the_rules_are_played():
    """The teams option (Muckle Stoater) is played at both its counts, co-operative Drinking
    Heroes too: the list is read from game.yaml, not written here."""
    ids = {_case_id(c) for c in CASES}
    assert {"muckle-stoater-4p-teams=True", "muckle-stoater-6p-teams=True"} <= ids
    assert "drinking-heroes-2p-mode=cooperative" in ids


# Slow as a whole (73 cases, ~20 s of CPU together; the largest ~2 s, Muckle Stoater or the
# Whisky Game at 6 players): every setting of every engine, few games each.
@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_random_play_contract(case):
    game_id, players, options, games = case
    compiled = _compiled(game_id)
    setup = GameSetup(players, options)
    assert random_play_check(compiled, setup, games, seed=players, probe_every=PROBE_EVERY) == []
