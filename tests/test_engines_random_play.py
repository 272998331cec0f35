"""Every bundled game whose plugin has an engine passes the generic random-play test
(toolkit.sim.contract) at every player count its game.yaml allows, and with each of its bool
options on, each choice value and each variant, at the smallest and largest player count
where that setting applies. A new engine joins by being registered: nothing here names a game.

Bounded by counts, not by time: GAMES random games per setup, every legal action probed on a
clone every PROBE_EVERY moves (the games' own test files play many more games)."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from toolkit.content.game import bundled_games, load_game
from toolkit.sim.contract import random_play_check
from toolkit.sim.engine import CompiledGame, GameSetup

GAMES = 12
PROBE_EVERY = 11


@cache
def _game(game_id: str) -> Any:
    return load_game(bundled_games()[game_id])


@cache
def _compiled(game_id: str) -> CompiledGame:
    game = _game(game_id)
    errors = [d for d in game.diagnostics if d.severity == "error"]
    assert not errors, f"{game_id} content has errors: {errors[:3]}"
    return game.plugin.engine(game)


def _ends(counts: list[int], low: int, high: int) -> list[int]:
    """The smallest and largest of `counts` (or of low..high) the game allows."""
    allowed = [n for n in (counts or range(low, high + 1)) if low <= n <= high]
    return sorted({allowed[0], allowed[-1]}) if allowed else []


def setups(game_id: str) -> list[tuple[int, dict[str, bool | int | str]]]:
    """Player counts and option values to play: every count with the defaults, then each
    setting that changes the rules, deduplicated, in a stable order."""
    manifest = _game(game_id).manifest
    low, high = manifest.players.min, manifest.players.max
    cases: list[tuple[int, dict[str, bool | int | str]]] = [(n, {}) for n in range(low, high + 1)]
    for option in manifest.options:
        values: list[bool | int | str] = []
        if option.type == "bool":
            values = [not option.default]
        elif option.type == "choice":
            values = [c for c in option.choices if c != option.default]
        for value in values:
            cases += [(n, {option.id: value}) for n in _ends(option.players, low, high)]
    for variant in manifest.variants:
        if variant.options:
            cases += [(n, dict(variant.options)) for n in _ends(variant.players, low, high)]
    unique: dict[tuple[int, tuple[tuple[str, Any], ...]], tuple[int, dict[str, Any]]] = {}
    for players, options in cases:
        unique.setdefault((players, tuple(sorted(options.items()))), (players, options))
    return list(unique.values())


def _engine_games() -> list[str]:
    return [gid for gid in bundled_games() if _game(gid).plugin.engine is not None]


CASES = [(gid, players, options) for gid in _engine_games() for players, options in setups(gid)]


def _case_id(case: tuple[str, int, dict[str, Any]]) -> str:
    gid, players, options = case
    extra = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{gid}-{players}p" + (f"-{extra}" if extra else "")


def test_engines_are_found():
    """Drinking Heroes and Muckle Stoater have engines today; every engine game is covered
    at each of its player counts."""
    games = _engine_games()
    assert {"drinking-heroes", "muckle-stoater"} <= set(games)
    for gid in games:
        manifest = _game(gid).manifest
        counts = {players for g, players, _ in CASES if g == gid}
        assert counts == set(range(manifest.players.min, manifest.players.max + 1))


def test_settings_that_change_the_rules_are_played():
    """The teams option (Muckle Stoater) is played at both its counts, co-operative Drinking
    Heroes too: the list is read from game.yaml, not written here."""
    ids = {_case_id(c) for c in CASES}
    assert {"muckle-stoater-4p-teams=True", "muckle-stoater-6p-teams=True"} <= ids
    assert "drinking-heroes-2p-mode=cooperative" in ids


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_random_play_contract(case):
    game_id, players, options = case
    compiled = _compiled(game_id)
    setup = GameSetup(players, options)
    assert random_play_check(compiled, setup, GAMES, seed=players, probe_every=PROBE_EVERY) == []
