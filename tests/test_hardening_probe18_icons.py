"""Inline icons as they print (probe 18 M2, M3, M5, L2, L5): a name a layout's or the
rulebook's template code prints (`:{{ card.id }}:`) is searched in what prints, per card
face and in the rendered Markdown, and placed at the template; what never prints (a
reference definition's URL) is not searched; `10:30:45` and `a:b:c` are no icons; a
finding lists at most 20 of the game's icons."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.starter_games import rulebook_game
from toolkit.checks.translation.common import prose
from toolkit.checks.translation.typography import english_fixes
from toolkit.content import templating
from toolkit.render import icons as render_icons
from toolkit.render.elements.text import _segments
from toolkit.render.icons import BUILTIN, MAX_LISTED, listed, without_icons
from toolkit.render.markdown_flow import markup
from toolkit.scaffold.new import new_game

PER_CARD = """  - kind: text
    box: {x: 5, y: 40, w: 50, h: 8}
    size: {max: 9, min: 6}
    text: "A :{{ card.id }}: B {{ ':' ~ 'nope' ~ ':' }}"
  - kind: badge
    box: {x: 20, y: -16, w: 10, h: 10}
    text: ":{{ card.id }}:"
"""


def _starter(tmp_path: Path, name: str = "g") -> Path:
    game = tmp_path / name
    new_game(game, name, ["en"])
    return game


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _p007(run_cli, game: Path, *more: str) -> list[dict]:
    result = run_cli("validate", str(game), "--format", "json", "--select", "P007", *more)
    return json.loads(result.stdout)


def test_an_icon_a_layouts_template_prints_is_p007_at_the_layout_naming_the_card(run_cli, tmp_path):
    game = _starter(tmp_path)
    layout = game / "layouts" / "standard.yaml"
    layout.write_text(layout.read_text(encoding="utf-8") + PER_CARD, encoding="utf-8")
    lines = layout.read_text(encoding="utf-8").splitlines()
    at = next(n for n, line in enumerate(lines, 1) if "A :{{ card.id }}:" in line)
    for run in ("--no-cache", None, None):  # worked out, then read back from the cache
        found = _p007(run_cli, game, *([run] if run else []))
        badge = [d for d in found if "a badge prints no inline icons" in d["message"]]
        assert len(badge) == 1 and badge[0]["line"] == at + 3, badge  # its text, once
        found = [d for d in found if d not in badge]
        places = {(d["file"].endswith("layouts/standard.yaml"), d["line"]) for d in found}
        assert places == {(True, at)}, found
        said = sorted(d["message"] for d in found)
        assert len(said) == 4, said  # once per name and field of the text element
        for card, name in (("advance", "advance"), ("advance", "nope"), ("rest", "rest")):
            assert any(f"prints ':{name}:' for {card} (en)" in m for m in said), said
        assert any("':treasure:'" in m for m in said)


def test_a_content_texts_icon_a_layout_prints_is_said_once_where_it_is_written(run_cli, tmp_path):
    game = _starter(tmp_path)
    _edit(game / "decks" / "cards.yaml", "en: Move {steps} spaces.", 'en: "Move :nosuch:"')
    found = _p007(run_cli, game, "--no-cache")
    assert len(found) == 1 and found[0]["file"].endswith("decks/cards.yaml"), found


BOOK = """# Probe

Icon A :{{ "nope" }}: and B {{ ":" ~ "zip" ~ ":" }} end.

C :token: fine, and :coin:.

{% for d in decks.cards.cards %}:{{ d.id }}: {% endfor %}

## {{ ":token:" }} heading

D see [the site][r] end.

[r]: https://a.com/:zap:

E time 10:30:45, a:b:c and x:coin: end.
"""


def test_icons_the_rulebooks_templates_print_are_p007_at_the_template(run_cli, tmp_path):
    game = rulebook_game(run_cli, tmp_path, BOOK)
    found = [d for d in _p007(run_cli, game, "--no-cache") if d["file"].endswith("en.md")]
    said = {(d["line"], d["col"], d["message"].split(",")[0]) for d in found}
    assert said == {
        (3, 9, "no icon 'nope'"),
        (3, 29, "no icon 'zip'"),
        (7, 1, "no icon 'advance'"),
        (7, 1, "no icon 'treasure'"),
        (7, 1, "no icon 'rest'"),
        (9, 4, "a heading prints ':token:' as written (icons print in paragraphs"),
        (15, 29, "':coin:' touches 'x'"),  # a known icon glued to a letter (session 50)
    }, found


def test_a_reference_definitions_url_prints_nothing_and_is_no_finding(run_cli, tmp_path):
    game = rulebook_game(run_cli, tmp_path, "# P\n\nD see [the site][r].\n\n[r]: https://a/:zap:\n")
    assert _p007(run_cli, game, "--no-cache") == []


def test_a_rulebooks_data_printing_a_content_texts_icon_is_said_at_the_text(run_cli, tmp_path):
    game = rulebook_game(run_cli, tmp_path, "# P\n\n{{ decks.cards.cards[0].text }}\n")
    _edit(game / "decks" / "cards.yaml", "en: Move {steps} spaces.", 'en: "Move :nosuch:"')
    found = _p007(run_cli, game, "--no-cache")
    assert [d["file"].rsplit("/", 1)[-1] for d in found] == ["cards.yaml"], found


def test_an_icon_glued_to_a_letter_or_digit_is_none_for_the_renderer_and_every_check():
    pattern = templating.INLINE_ICON
    assert render_icons.INLINE_ICON is pattern  # one definition
    names = BUILTIN.names | {"b", "30"}
    for text in ("10:30:45", "a:b:c", "x:coin:", ":coin:x", "2:coin:"):
        assert pattern.search(text) is None, text
        assert without_icons(text, names) == text
        assert _segments(text, names) == [(text, False)]
        assert "playset_icon" not in markup(text, BUILTIN)
        assert prose(text) == text
    for text in (":coin:", "2 :coin:", "(:coin:)", ":coin::coin:", "é :coin:."):
        assert pattern.search(text) is not None, text
        assert "playset_icon" in markup(text, BUILTIN)
    assert english_fixes("x :coin: y") == []  # an icon's colons are not punctuation


def test_a_card_texts_glued_colons_are_no_icon(run_cli, tmp_path):
    game = _starter(tmp_path)
    _edit(game / "decks" / "cards.yaml", "en: Move {steps} spaces.", 'en: "At 10:30:45 a:b:c"')
    assert _p007(run_cli, game, "--no-cache") == []


def test_a_finding_lists_at_most_twenty_icons_and_how_many_more(run_cli, tmp_path, game):
    starter = _starter(tmp_path)
    for target in (starter, game):
        folder = target / "icons"
        folder.mkdir(exist_ok=True)
        for n in range(60):  # icon names are letters and underscores
            name = "extra_" + chr(97 + n // 26) + chr(97 + n % 26)
            shutil.copyfile(starter / "icons" / "token.svg", folder / f"{name}.svg")
    _edit(starter / "decks" / "cards.yaml", "en: Move {steps} spaces.", 'en: "Move :nosuch:"')
    rulebook = starter / "rulebook" / "en.md"
    rulebook.write_text(rulebook.read_text(encoding="utf-8") + "\nPay :nosuch:.\n", "utf-8")
    layout = starter / "layouts" / "standard.yaml"
    icon = "  - kind: icon\n    box: {x: 1, y: 1, w: 4, h: 4}\n    icon: nosuch\n"
    layout.write_text(layout.read_text(encoding="utf-8") + icon, encoding="utf-8")
    board = game / "boards" / "map.yaml"
    board.write_text(
        board.read_text(encoding="utf-8") + "style:\n  spaces:\n    port: {icon: nosuch}\n",
        encoding="utf-8",
    )
    found = []
    for target in (starter, game):
        result = run_cli("validate", str(target), "--format", "json", "--no-cache")
        found += [d for d in json.loads(result.stdout) if "nosuch" in d["message"]]
    assert {d["code"] for d in found} == {"P003", "P007", "P015"}, found
    assert len({d["file"] for d in found}) == 4, found  # card, rulebook, layout, board
    for diag in found:
        shown = diag["message"].split("icons: ", 1)[1]
        assert shown.endswith(" … and 72 more"), diag  # 31 built-in, token, 60 more
        assert len(shown.split(" … ")[0].split(", ")) == MAX_LISTED, diag
    assert listed(["b", "a"]) == "a, b"
