"""Inline icons in a rulebook's own prose (probe 17b M7): a name the game has no icon for
prints as written, and so does any icon in a heading: each is a P007 finding at its place; an
icon in a paragraph prints as an icon, and code prints as written."""

from __future__ import annotations

import json

from tests.starter_games import rulebook_game

BOOK = """# Probe

## Costs :coin: and more

Pay 2 :coin: or :nosuch:. In code, `:nosuch:` prints as written.

```
:also_code:
```
"""


def _findings(run_cli, game, codes: str) -> list[dict]:
    result = run_cli("validate", str(game), "--format", "json", "--select", codes)
    return json.loads(result.stdout)


def test_an_unknown_icon_and_an_icon_in_a_heading_are_p007_at_their_place(run_cli, tmp_path):
    game = rulebook_game(run_cli, tmp_path, BOOK)
    found = [d for d in _findings(run_cli, game, "P007") if d["file"].endswith("en.md")]
    places = sorted((d["line"], d["col"]) for d in found)
    assert places == [(3, 10), (5, 17)], found
    by_line = {d["line"]: d["message"] for d in found}
    assert "heading prints ':coin:'" in by_line[3] and "no icon 'nosuch'" in by_line[5]
