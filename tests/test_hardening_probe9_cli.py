"""Ninth probe of issue 33, commands and servers: counters an engine keeps past the float
range, and the language server's exit code and its log of messages it cannot read."""

from __future__ import annotations

from tests.starter_games import engine_game as _game

APPLY = "        seat, game = self.seat, self.game\n"
TURNS = "        self.turns += 1\n"


def test_counters_past_the_float_range_are_findings_not_tracebacks(tmp_path, run_cli):
    # an event count (or turns, rounds, a card's plays) of 10**5000 was an OverflowError
    # traceback from the report's running totals; repr() of it was a ValueError too
    cases = {
        "events": "        self.events[0] = 10**5000\n",
        "turns": "        self.turns = 10**5000\n",
        "card_plays": "        self.card_plays[0][0] = 2**1100\n",
    }
    for name, line in cases.items():
        game = _game(tmp_path, old=TURNS, new=TURNS + line)
        result = run_cli("simulate", str(game), "-n", "3", "-p", "2")
        assert result.exit_code == 1, (name, result.output[-800:])
        assert "E004" in result.output and f"state.{name}" in result.output, name
        assert "too large" in result.output, (name, result.output[-800:])
