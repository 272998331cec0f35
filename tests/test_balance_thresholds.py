"""B001–B004 fire just past their thresholds and stay silent just short of them, on
synthetic records (tests/test_balance_rules.py has the scenarios that earn each one): a
rule that fired on everything, or on nothing, fails here."""

from __future__ import annotations

import pytest

from tests.test_balance_rules import GAMES, fair, findings, game  # noqa: F401 (fixture)


def codes(game, records) -> list[str]:  # noqa: F811 (the fixture)
    return sorted({f[0] for f in findings(game, records)})


def test_b001_fires_over_one_percent_of_timeouts_only(game):  # noqa: F811
    at_limit = [fair(i, timed_out=i in (0, 1)) for i in range(GAMES)]  # 1.0%
    over = [fair(i, timed_out=i in (0, 1, 2)) for i in range(GAMES)]  # 1.5%
    assert "B001" not in codes(game, at_limit)
    assert "B001" in codes(game, over)


@pytest.mark.parametrize(("wins", "fires"), [(112, False), (140, True)])
def test_b002_needs_a_significant_gap(game, wins, fires):  # noqa: F811
    # seat 0 wins `wins` of 200 games; roles still swap seats every game, evenly
    seat0 = set(range(0, 2 * wins, 2)) | set(range(1, 2 * (wins - GAMES // 2) + 1, 2))
    records = [fair(i, winner=0 if i in seat0 else 1) for i in range(GAMES)]
    assert sum(1 for r in records if r.returns[0] == 1.0) == wins
    assert ("B002" in codes(game, records)) is fires


def test_b004_a_card_played_once_is_not_dead(game):  # noqa: F811
    records = [fair(i, plays=((1, 1 if i == 7 else 0), (2, 0))) for i in range(GAMES)]
    assert "B004" not in codes(game, records)
    records = [fair(i, plays=((1, 0), (2, 0))) for i in range(GAMES)]
    assert "B004" in codes(game, records)
