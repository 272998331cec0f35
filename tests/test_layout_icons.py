"""A layout's own words name inline icons too (probe 17b M7): `:name:` outside its template
code, in a text element, prints as written on every card when the game has no such icon; a
P007 finding at the layout's line. A known icon, and a badge (which prints `:x:` as
written, known or not), are no finding."""

from __future__ import annotations

import json
from pathlib import Path

from toolkit.scaffold.new import new_game


def _game(tmp_path: Path, old: str, new: str) -> Path:
    game = tmp_path / "g"
    new_game(game, "g", ["en"])
    layout = game / "layouts" / "standard.yaml"
    text = layout.read_text(encoding="utf-8")
    assert old in text
    layout.write_text(text.replace(old, new, 1), encoding="utf-8")
    return game


def _p007(run_cli, game: Path) -> list[dict]:
    result = run_cli("validate", str(game), "--format", "json", "--select", "P007")
    return json.loads(result.stdout)


def test_an_unknown_icon_in_a_layout_text_is_p007_at_its_line(run_cli, tmp_path):
    game = _game(tmp_path, '"{{ card.text }}"', '"{{ card.text }} :nosuchicon:"')
    found = _p007(run_cli, game)
    assert len(found) == 1 and found[0]["file"].endswith("layouts/standard.yaml")
    lines = (game / "layouts" / "standard.yaml").read_text(encoding="utf-8").splitlines()
    assert ":nosuchicon:" in lines[found[0]["line"] - 1]
    assert "no icon 'nosuchicon'" in found[0]["message"]


def test_a_known_icon_or_template_code_in_a_layout_text_is_no_finding(run_cli, tmp_path):
    game = _game(tmp_path, '"{{ card.text }}"', "\"{{ card.text }} :coin: {{ ':' ~ 'x' ~ ':' }}\"")
    assert _p007(run_cli, game) == []
