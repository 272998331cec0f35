"""A deck card's print-fit and legibility findings are kept card by card between `validate`
runs (toolkit.checks.card_units) and never change a finding: after a card edit, lines shifted
in every file, or the first card of a finding said once edited, the output is that of a run
without the cache, and only the edited card is worked out again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, build_case
from tests.test_validate_cache_units import _count, _run, cache  # noqa: F401 (a fixture)

LAYOUT = """\
id: plain
background: "#fbf8f1"
elements:
  - kind: box
    box: {x: 2.5, y: 2.5, w: -2.5, h: 12}
    fill: "#3b4a5a"
  - kind: text
    box: {x: 4.5, y: 3.5, w: -4.5, h: 10}
    text: "{{ card.name }}"
    size: {max: 12, min: 7}
    colour: "#7d8a96"
  - kind: icon
    when: card.copies > 1
    box: {x: 5, y: 20, w: 10, h: 10}
    icon: "{{ 'no' ~ 'such' }}"
  - kind: icon
    box: {x: 20, y: 20, w: 10, h: 10}
    icon: nowhere
  - kind: text
    box: {x: 5.5, y: 34, w: -5.5, h: -12}
    text: "{{ card.text }}"
    size: {max: 10, min: 3}
"""
"""A face of the toolkit's own pure kinds (no image: a card's findings are kept): a title of
low contrast on every card (A001, merged over the cards), an icon that does not exist on the
cards of more than one copy (P003, said once at the first), a literal one that does not
exist (P003 at the layout's line), a text box that small texts fit in (A004)."""


def _game(tmp_path: Path) -> tuple[Path, Path]:
    game = build_case(FIXTURES / "broken" / "small-spanish", tmp_path / "game")
    (game / "layouts").mkdir(exist_ok=True)
    (game / "layouts" / "plain.yaml").write_text(LAYOUT, "utf-8")
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text("utf-8")
    deck.write_text(text.replace("size: poker\n", "size: poker\nlayout: plain\n", 1), "utf-8")
    return game, deck


def _found(output: str) -> list[tuple[str, str, int]]:
    return [(d["code"], d["file"], d["line"]) for d in json.loads(output)]


def _counted(monkeypatch: pytest.MonkeyPatch) -> tuple[list[int], list[int]]:
    import toolkit.checks.legibility.faces as faces
    import toolkit.checks.printfit as printfit

    return _count(monkeypatch, printfit, "_card_work"), _count(monkeypatch, faces, "_card_work")


@pytest.mark.usefixtures("cache")
def test_lines_shifted_everywhere_reuse_every_card(tmp_path, monkeypatch):
    """Two lines added at the top of every YAML file (the deck's and the layout's): every
    card's findings are read back and placed again two lines down, none worked out."""
    game, _ = _game(tmp_path)
    monkeypatch.chdir(game)
    fit, legible = _counted(monkeypatch)
    before = _run(".", "-f", "json")
    found = _found(before[1])
    assert {"P003", "A001", "A004"} <= {code for code, _, _ in found}, found
    assert fit[0] > 0 and legible[0] > 0
    for path in sorted(game.rglob("*.yaml")):
        path.write_text("# shifted\n# down\n" + path.read_text("utf-8"), "utf-8")
    fit[0] = legible[0] = 0
    shifted = _run(".", "-f", "json")
    assert (fit[0], legible[0]) == (0, 0), "a card was worked out again"
    assert _found(shifted[1]) == [(c, f, line + 2 if line else 0) for c, f, line in found]
    assert shifted == _run(".", "-f", "json", "--no-cache")


@pytest.mark.usefixtures("cache")
def test_a_finding_said_once_moves_when_its_first_card_is_edited(tmp_path, monkeypatch):
    """The missing icon is said once, at the first card that prints it: that card edited
    not to print it, the finding moves to the next card (read back from its unit), as a run
    without the cache says; only the edited card is worked out again."""
    game, deck = _game(tmp_path)
    monkeypatch.chdir(game)
    text = deck.read_text("utf-8")
    first = _run(".", "-f", "json")
    icons = [d for d in json.loads(first[1]) if "nosuch" in d["message"]]
    assert [d["message"].split(",")[0] for d in icons] == ["sprint"]
    fit, legible = _counted(monkeypatch)
    deck.write_text(text.replace("copies: 3", "copies: 1"), "utf-8")
    edited = _run(".", "-f", "json")
    assert (fit[0], legible[0]) == (1, 2), "not only the edited card was worked out"
    icons = [d for d in json.loads(edited[1]) if "nosuch" in d["message"]]
    assert [d["message"].split(",")[0] for d in icons] == ["rest"]
    assert edited == _run(".", "-f", "json", "--no-cache")
    deck.write_text(text, "utf-8")
    assert _run(".", "-f", "json") == first


@pytest.mark.usefixtures("cache")
def test_a_card_edit_brings_and_takes_away_its_own_findings(tmp_path, monkeypatch):
    """A card's English text made long enough to be fitted under the minimum size gives an
    A004 at that card; made short again, none: each as a run without the cache says."""
    game, deck = _game(tmp_path)
    monkeypatch.chdir(game)
    text = deck.read_text("utf-8")
    first = _run(".", "-f", "json")
    assert "text (en)" not in first[1]
    long = "Move {steps} spaces. " + "Then move again, and again, and again. " * 60
    deck.write_text(text.replace("en: Move {steps} spaces.", f"en: {long}"), "utf-8")
    edited = _run(".", "-f", "json")
    small = [d["message"][:16] for d in json.loads(edited[1]) if d["code"] == "A004"]
    assert "sprint text (en)" in small, small
    assert edited == _run(".", "-f", "json", "--no-cache")
    deck.write_text(text, "utf-8")
    assert _run(".", "-f", "json") == first == _run(".", "-f", "json", "--no-cache")


def test_what_a_card_asked_of_its_file_is_asked_again_on_reuse():
    """A card's unit keeps whether the paths the check looked for were written in the file
    (a number filled from elsewhere is not said unprinted): a file written otherwise makes
    the kept share unusable (worked out again), one written alike does not."""
    from types import SimpleNamespace

    from toolkit.checks.card_units import Shape, same_shape
    from toolkit.diagnostics import Span

    def loaded(*paths: tuple) -> SimpleNamespace:
        return SimpleNamespace(doc=SimpleNamespace(spans={p: Span() for p in paths}))

    before = loaded(("cards", 3, "id"), ("cards", 3, "params", "steps"))
    shape = Shape(before, 3)
    assert shape.has(("cards", 3, "params", "steps"))
    assert not shape.has(("cards", 3, "points"))
    shape.check()
    same_shape(loaded(("cards", 5, "params", "steps")), 5, shape.asked)  # moved, same shape
    with pytest.raises(ValueError):
        same_shape(loaded(("cards", 3, "id")), 3, shape.asked)  # steps no longer written
    with pytest.raises(ValueError):
        same_shape(loaded(("cards", 3, "params", "steps"), ("cards", 3, "points")), 3, shape.asked)


def test_a_key_said_once_is_kept_only_when_json_gives_it_back():
    from toolkit.checks.card_units import read_key, stored_key
    from toolkit.content.unit_cache import NotKept

    key = ("problem", "plain", "P003", ("icon", "nosuch"))
    assert read_key(json.loads(json.dumps(stored_key(key)))) == key
    with pytest.raises(NotKept):
        stored_key(("game pixels", Path("art.png")))


def test_a_build_lang_gate_keeps_no_batch_of_a_file():
    """A file's batch holds every language's results: in the gate of a `build --lang`
    (some languages printed) it is neither read nor kept, and each card is a unit of its
    own (named with the languages printed); with every language printed it is named."""
    from types import SimpleNamespace

    from toolkit.checks.card_units import FileBatch
    from toolkit.content.printing import printing
    from toolkit.content.unit_cache import Units, activated

    units = Units()
    units.content = frozenset({"/game/decks/cards.yaml"})
    units.frame = SimpleNamespace(digest_but=lambda without, here: "frame")
    loaded = SimpleNamespace(doc=SimpleNamespace(path="/game/decks/cards.yaml"))
    with activated(units):
        assert FileBatch("card-print-fit", loaded, [], 1, True).name is not None
        with printing(["en"]):
            gated = FileBatch("card-print-fit", loaded, [], 1, True)
            assert gated.name is None
            assert gated.card(0, lambda: None, lambda: [1], lambda r: r, lambda v: v) == [1]
            gated.close()
    assert units.used == {}
