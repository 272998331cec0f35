"""A badge prints one centred line on its disc: a text wider than the disc is a P001 finding
at the card, and is drawn clipped to the disc (probe 17b M9: a card's name in a badge ran
across the card's edge after a clean validate)."""

from __future__ import annotations

import json
from pathlib import Path

from toolkit.scaffold.new import new_game

WIDE = '    text: "{{ card.points }} {{ card.name }}"\n'


def _badge_game(tmp_path: Path, text: str) -> Path:
    game = tmp_path / "g"
    new_game(game, "g", ["en"])
    layout = game / "layouts" / "standard.yaml"
    lines = layout.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.strip() == "- kind: badge")
    text_line = next(i for i in range(at, len(lines)) if lines[i].lstrip().startswith("text:"))
    lines[text_line] = text
    layout.write_text("".join(lines), encoding="utf-8")
    return game


def test_a_badge_text_wider_than_its_disc_is_p001_at_the_card(run_cli, tmp_path):
    game = _badge_game(tmp_path, WIDE)
    result = run_cli("validate", str(game), "--format", "json", "--select", "P001")
    assert result.exit_code == 1, result.output
    found = json.loads(result.stdout)
    assert len(found) == 1 and found[0]["file"].endswith("decks/cards.yaml")
    assert "badge text '" in found[0]["message"] and "mm across" in found[0]["message"]
    deck = (game / "decks" / "cards.yaml").read_text(encoding="utf-8").splitlines()
    assert deck[found[0]["line"] - 1].strip().startswith("- id:")


def test_a_badge_text_that_fits_is_no_finding(run_cli, tmp_path):
    game = _badge_game(tmp_path, '    text: "{{ card.points }}"\n')
    result = run_cli("validate", str(game), "--select", "P001")
    assert result.exit_code == 0, result.output


def test_an_overflowing_badge_is_drawn_clipped_to_its_disc(tmp_path):
    from reportlab.pdfgen.canvas import Canvas

    from toolkit.content.game import load_game
    from toolkit.render.elements.badge import BadgeElement
    from toolkit.render.elements.base import Resolved
    from toolkit.render.printjob import PrintJob

    game = load_game(_badge_game(tmp_path, WIDE))
    deck = game.decks[0].model
    job = PrintJob(game, deck, None, None, "en", (63.0, 88.0))  # type: ignore[arg-type]
    badge = BadgeElement(kind="badge", box={"x": 0, "y": 0, "w": 11, "h": 11}, text="x")
    for text, clipped in (("999 A long name", True), ("9", False)):
        canvas = Canvas(str(tmp_path / "c.pdf"), pageCompression=0)
        badge.draw(canvas, Resolved(badge, 0, 0, 11, 11, (text,)), 10, 10, job)
        assert (" W* n" in canvas.getpdfdata().decode("latin-1")) is clipped


TALL = """  - kind: badge
    box: {x: 20, y: -16, w: 16, h: 16}
    text: "|"
    fill: "#ff0000"
    colour: "#0000ff"
    size: 72
"""


def test_a_badge_size_taller_than_its_disc_is_p001_at_the_layouts_size(run_cli, tmp_path):
    """Probe 18 M1: a "|" at 72 pt is narrow but 34.6 mm tall (Noto Sans Bold's ascent to
    descent) on a 16 mm disc; it ran off the card after a clean validate."""
    game = _badge_game(tmp_path, '    text: "{{ card.points }}"\n')
    layout = game / "layouts" / "standard.yaml"
    layout.write_text(layout.read_text(encoding="utf-8") + TALL, encoding="utf-8")
    result = run_cli("validate", str(game), "--format", "json", "--select", "P001")
    assert result.exit_code == 1, result.output
    found = json.loads(result.stdout)
    assert len(found) == 1, found  # said once, at the layout: every card's badge is as tall
    assert found[0]["file"].endswith("layouts/standard.yaml")
    assert (
        "34.6 mm tall at 72 pt" in found[0]["message"] and "16.0 mm across" in found[0]["message"]
    )
    lines = layout.read_text(encoding="utf-8").splitlines()
    assert lines[found[0]["line"] - 1].strip() == "size: 72"


def test_a_badge_whose_line_reaches_past_its_disc_is_drawn_clipped(tmp_path):
    from reportlab.pdfgen.canvas import Canvas

    from toolkit.content.game import load_game
    from toolkit.render.elements.badge import BadgeElement
    from toolkit.render.elements.base import Resolved
    from toolkit.render.printjob import PrintJob

    game = load_game(_badge_game(tmp_path, WIDE))
    deck = game.decks[0].model
    job = PrintJob(game, deck, None, None, "en", (63.0, 88.0))  # type: ignore[arg-type]
    box = {"x": 0, "y": 0, "w": 16, "h": 16}
    for size, clipped in ((72, True), (13, False)):
        badge = BadgeElement(kind="badge", box=box, text="|", size=size)
        canvas = Canvas(str(tmp_path / "c.pdf"), pageCompression=0)
        badge.draw(canvas, Resolved(badge, 0, 0, 16, 16, ("|",)), 10, 10, job)
        assert (" W* n" in canvas.getpdfdata().decode("latin-1")) is clipped
