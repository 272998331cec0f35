"""Tokaido's G check registry refuses a second check for one rule (that every game's rules
live in their groups' modules and run in code order is tests/test_game_checks_registry.py)."""

from __future__ import annotations

import pytest

from toolkit.diagnostics import REGISTRY
from toolkit.games.tokaido.checks import base


def test_a_second_check_for_one_rule_is_refused(monkeypatch):
    monkeypatch.setattr(base, "_REGISTERED", dict(base._REGISTERED))
    taken = next(iter(base._REGISTERED))
    with pytest.raises(ValueError, match=f"two checks report {taken}"):
        base.check(REGISTRY.get(taken))(lambda game: iter(()))
