"""B001–B004 from synthetic simulation records: each finding fires on the games that earn it,
at its place (a card's id for roles and dead cards), and none fires on a fair run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import FIXTURES, build_case
from toolkit.checks import balance
from toolkit.content.game import load_game
from toolkit.sim.metrics import build_report
from toolkit.sim.runner import GameRecord

CARDS = ("sprint", "rest")
GAMES = 200


def record(
    index: int,
    winner: int,
    roles: tuple[str, str],
    timed_out: bool = False,
    plays: tuple[tuple[int, ...], ...] = ((1, 1), (1, 1)),
) -> GameRecord:
    returns = (0.0, 0.0) if timed_out else tuple(1.0 if s == winner else 0.0 for s in range(2))
    return GameRecord(
        index=index,
        seed=index,
        returns=returns,
        scores=returns,
        turns=20,
        rounds=10,
        timed_out=timed_out,
        roles=roles,
        moves=20,
        decisions=10,
        branching=30,
        events=(),
        card_plays=plays,
    )


def fair(index: int, **changes) -> GameRecord:
    """Winners alternate by pairs of games, roles swap seats every game: nothing is off."""
    roles = CARDS if index % 2 == 0 else CARDS[::-1]
    return record(index, changes.pop("winner", (index // 2) % 2), roles, **changes)


SCENARIOS = {
    "fair": [fair(i) for i in range(GAMES)],
    "B001": [fair(i, timed_out=i % 10 == 0) for i in range(GAMES)],
    # seat 0 wins 80%; as many exceptions fall on even as on odd games, so roles stay even
    "B002": [fair(i, winner=1 if i % 10 in (0, 1) else 0) for i in range(GAMES)],
    # the seat holding `sprint` (seat i % 2) always wins: seats stay even, the role does not
    "B003": [fair(i, winner=i % 2) for i in range(GAMES)],
    "B004": [fair(i, plays=((1, 0), (2, 0))) for i in range(GAMES)],
}


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return load_game(build_case(FIXTURES / "base", tmp_path_factory.mktemp("b") / "game"))


def findings(game, records):
    report = build_report(game.id, {"players": 2}, records, (), CARDS)
    return [(d.code, Path(d.file).as_posix(), d.line, d.col) for d in balance.check(game, report)]


def card_id_place(game, card: str) -> tuple[int, int]:
    lines = (game.root / "decks" / "cards.yaml").read_text(encoding="utf-8").splitlines()
    line = next(i for i, row in enumerate(lines, 1) if row.strip() == f"- id: {card}")
    return line, lines[line - 1].index(card) + 1


def test_a_fair_run_has_no_findings(game):
    assert findings(game, SCENARIOS["fair"]) == []


def test_b001_timeouts(game):
    assert [f[0] for f in findings(game, SCENARIOS["B001"])] == ["B001"]
    assert findings(game, SCENARIOS["B001"])[0][1].endswith("game.yaml")


def test_b002_unfair_seat(game):
    found = findings(game, SCENARIOS["B002"])
    assert {f[0] for f in found} == {"B002"}
    assert all(f[1].endswith("game.yaml") for f in found)


def test_b003_unfair_role_at_the_card(game):
    found = findings(game, SCENARIOS["B003"])
    assert {f[0] for f in found} == {"B003"}
    places = {(f[2], f[3]) for f in found}
    assert card_id_place(game, "sprint") in places
    assert all(f[1].endswith("decks/cards.yaml") for f in found)


def test_b004_dead_card_at_the_card(game):
    found = findings(game, SCENARIOS["B004"])
    assert found == [("B004", found[0][1], *card_id_place(game, "rest"))]
    assert found[0][1].endswith("decks/cards.yaml")
