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


GLUED = """# Probe

Pay 2:coin: now, or a:b:c at 10:30:45; pay 2 :coin: x:coin:y.

In code, `2:coin:` and a link [to 2:coin:](x:coin:y) print as written or nothing.

```
2:coin:
```
"""


def test_an_icon_glued_to_a_letter_or_digit_in_the_prose_is_p007_at_it(run_cli, tmp_path):
    # a content text's `pay 2:coin:` was P007, the rulebook's prose was not searched: it
    # printed as written, validate clean
    game = rulebook_game(run_cli, tmp_path, GLUED)
    found = [d for d in _findings(run_cli, game, "P007") if d["file"].endswith("en.md")]
    assert [(d["line"], d["col"]) for d in found] == [(3, 6), (5, 36)], found
    assert found[0]["message"].startswith("':coin:' touches '2', so it prints as written")
    assert found[0]["message"].endswith("(+1 more on this line)")
    assert not found[1]["message"].endswith("line)")  # a link's text prints, its target not
