"""Probe 50 P50-3: a layout of 200 boxes and 200 badges (each kind's own bound) on 10 cards of
`copies: 1000` (the printed-card bound) validated clean in 0.64 s, since the checks resolve
each distinct face once, but `build --lang en` ran past 120 s and 1.6 GB. What the printed
faces weigh to draw (each element's kind's `draw_cost`, every copy, front and back) is
bounded at validate (S004), and `build` refuses a game past it before drawing anything."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import REPO, diagnostics_json
from toolkit.checks import printed_cards
from toolkit.checks.printed_cards import printed_weight
from toolkit.content.game import load_game
from toolkit.render import drawn_weight

BOUND = 5_000
"""The bound in these tests: the P50-3 game's shape at a small scale."""


def _heavy(tmp_path: Path, run_cli, cards: int, copies: int) -> Path:
    """The `new` scaffold with a layout of 10 boxes, 10 badges and the card's name (62 units
    a face) and a deck of `cards` cards of `copies` each on it."""
    assert run_cli("new", "g", "--into", str(tmp_path)).exit_code == 0
    root = tmp_path / "g"
    elements = "".join(
        f"  - kind: box\n    box: {{x: {i}, y: {i}, w: 20, h: 20}}\n"
        f'    fill: "#000080"\n    stroke: "#000000"\n    radius_mm: 3\n'
        f'  - kind: badge\n    box: {{x: {i}, y: 30, w: 8, h: 8}}\n    text: "{i}"\n'
        for i in range(10)
    )
    elements += "  - kind: text\n    box: {x: 2, y: 40, w: 55, h: 40}\n"
    elements += '    text: "{{ card.name }}"\n    size: {max: 8, min: 6}\n'
    (root / "layouts" / "heavy.yaml").write_text(f"id: heavy\nelements:\n{elements}")
    deck = "id: cards\nkind: actions\nname: {fr: C, es: C, en: C}\nsize: poker\nlayout: heavy\n"
    deck += "cards:\n" + "".join(
        f"  - id: c{i}\n    name: {{fr: N{i}, es: N{i}, en: N{i}}}\n    copies: {copies}\n"
        for i in range(cards)
    )
    (root / "decks" / "cards.yaml").write_text(deck, encoding="utf-8")
    return root


def _weight_errors(result) -> list[dict]:
    return [d for d in diagnostics_json(result.output) if "to draw" in d["message"]]


def test_copies_of_a_heavy_face_past_the_bound_are_an_error_and_build_refuses(
    tmp_path, run_cli, monkeypatch
):
    monkeypatch.setattr(drawn_weight, "MAX_DRAWN", BOUND)
    root = _heavy(tmp_path, run_cli, cards=3, copies=40)  # 120 printed × (60 + the back)
    assert printed_weight(load_game(root)) > BOUND
    result = run_cli("validate", str(root), "--format", "json", "--no-cache")
    found = _weight_errors(result)
    assert result.exit_code == 1 and len(found) == 1, result.output
    diag = found[0]
    assert diag["code"] == "S004" and diag["severity"] == "error", diag
    assert diag["file"].endswith("decks/cards.yaml"), diag
    lines = (root / "decks" / "cards.yaml").read_text(encoding="utf-8").splitlines()
    assert (diag["line"], diag["col"]) == (lines.index("  - id: c0") + 3, 13), diag  # copies
    message = diag["message"]
    assert message.startswith("c0: each of its 40 copies weighs"), message
    assert f"{BOUND:,}" in message and "10 box, 10 badge, 1 text" in message, message
    assert "print fewer copies" in message, message

    out = tmp_path / "out"
    built = run_cli("build", str(root), "--lang", "en", "--no-cache", "--out", str(out))
    assert built.exit_code == 1, built.output
    assert "to draw" in built.output, built.output
    assert not list(out.rglob("*.pdf")), list(out.rglob("*"))


def test_many_distinct_heavy_cards_are_an_error_at_the_deck_s_layout(
    tmp_path, run_cli, monkeypatch
):
    monkeypatch.setattr(drawn_weight, "MAX_DRAWN", BOUND)
    root = _heavy(tmp_path, run_cli, cards=80, copies=1)
    result = run_cli("validate", str(root), "--format", "json", "--no-cache")
    found = _weight_errors(result)
    assert result.exit_code == 1 and len(found) == 1, result.output
    lines = (root / "decks" / "cards.yaml").read_text(encoding="utf-8").splitlines()
    assert (found[0]["line"], found[0]["col"]) == (lines.index("layout: heavy") + 1, 9)
    assert found[0]["message"].startswith("cards: its 80 printed cards weigh"), found[0]
    assert "put fewer elements on layout 'heavy'" in found[0]["message"], found[0]


def test_a_game_under_the_bound_is_clean(tmp_path, run_cli, monkeypatch):
    monkeypatch.setattr(drawn_weight, "MAX_DRAWN", BOUND)
    root = _heavy(tmp_path, run_cli, cards=3, copies=10)
    assert printed_weight(load_game(root)) <= BOUND
    result = run_cli("validate", str(root), "--format", "json", "--no-cache")
    assert not _weight_errors(result), result.output


@pytest.mark.parametrize("name", sorted(p.name for p in (REPO / "content").iterdir()))
def test_the_bundled_games_weigh_under_a_tenth_of_the_bound(name):
    game = load_game(REPO / "content" / name)
    assert 0 < printed_weight(game) < drawn_weight.MAX_DRAWN / 10
    # at most, by their layouts alone, too: validate then resolves no face to weigh them
    decks = printed_cards.printed_decks(game)
    at_most = sum(printed_cards._total(deck, deck.weights(None)) for deck in decks)
    assert at_most < drawn_weight.MAX_DRAWN / 10


def test_the_weight_is_the_same_with_the_validate_cache(tmp_path, run_cli, monkeypatch):
    # with the cache, print fit reads its cards' findings back without resolving their
    # faces: the weight is then of the faces read back, the same as without it
    from toolkit.content import validate_cache

    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(validate_cache.StatCache, "RACY_NS", -(10**18))
    monkeypatch.setattr(drawn_weight, "MAX_DRAWN", BOUND)
    root = _heavy(tmp_path, run_cli, cards=3, copies=40)
    deck = root / "decks" / "cards.yaml"
    said, first = [], deck.read_text(encoding="utf-8")
    for step in range(3):  # the first run fills the cache, the next read from it
        if step:  # a longer English name: c1's face weighs more there
            deck.write_text(first.replace("en: N1}", f"en: N1 {'x' * 80 * step}}}"))
        fresh = run_cli("validate", str(root), "--format", "json", "--no-cache")
        cached = run_cli("validate", str(root), "--format", "json")
        assert _weight_errors(cached) == _weight_errors(fresh) != [], cached.output
        said.append(_weight_errors(cached)[0]["message"])
    assert len(set(said)) == 3, said


def test_a_card_s_copies_place_one_drawing_of_it(tmp_path, run_cli, monkeypatch):
    # each copy drew its face's every element again (~14 ms and ~40 kB of PDF a copy of 400
    # elements): a card printed more than once is drawn once, as a form each copy places
    from toolkit.render.artifacts.cards import cards_pdf
    from toolkit.render.build import BuildOptions
    from toolkit.render.elements.badge import BadgeElement

    root = _heavy(tmp_path, run_cli, cards=2, copies=12)
    game = load_game(root)
    drawn: list[str] = []
    real = BadgeElement.draw

    def counted(self, c, item, x, y, job):
        drawn.append(item.text)
        real(self, c, item, x, y, job)

    monkeypatch.setattr(BadgeElement, "draw", counted)
    first = cards_pdf(game, game.valid(game.decks), "en", BuildOptions(["en"]))
    assert len(drawn) == 2 * 10, len(drawn)  # each card's 10 badges, once
    assert cards_pdf(game, game.valid(game.decks), "en", BuildOptions(["en"])) == first
    pdf = tmp_path / "cards.pdf"
    pdf.write_bytes(first)
    from pypdf import PdfReader

    fronts = PdfReader(pdf).pages[0].extract_text()  # a sheet of 9: its copies all show
    assert fronts.count("N0") == 9, fronts


def test_the_printed_faces_of_every_language_count_together(tmp_path, run_cli, monkeypatch):
    # probe 62-9: the bounds held one language, and a game may have 20: 10 cards of 59
    # copies of 200 boxes in 20 languages took `build --profile press` past 120 s
    monkeypatch.setattr(drawn_weight, "MAX_DRAWN", 10**9)
    root = _heavy(tmp_path, run_cli, cards=3, copies=10)
    one = printed_weight(load_game(root))  # the heaviest language's
    monkeypatch.setattr(drawn_weight, "MAX_DRAWN_LANGUAGES", 2 * one)  # under 3 languages'
    result = run_cli("validate", str(root), "--format", "json", "--no-cache")
    found = _weight_errors(result)
    assert result.exit_code == 1 and len(found) == 1, result.output
    assert "in its 3 languages together, more than the" in found[0]["message"], found[0]
    out = tmp_path / "out"
    built = run_cli("build", str(root), "--lang", "en", "--no-cache", "--out", str(out))
    assert built.exit_code == 0, built.output  # one language's faces are within it


def test_the_cards_printed_in_every_language_count_together(tmp_path, run_cli, monkeypatch):
    monkeypatch.setattr(printed_cards, "MAX_PRINTED_FACES", 60)
    root = _heavy(tmp_path, run_cli, cards=3, copies=10)  # 30 cards in 3 languages
    result = run_cli("validate", str(root), "--format", "json", "--no-cache")
    found = [d for d in diagnostics_json(result.output) if "a game prints in all" in d["message"]]
    assert result.exit_code == 1 and len(found) == 1, result.output
    assert found[0]["message"].startswith("c2: with its 10 copies the game's decks print 30")
    assert "90 in its 3 languages" in found[0]["message"], found[0]
    out = tmp_path / "out"
    built = run_cli("build", str(root), "--lang", "en", "--no-cache", "--out", str(out))
    assert built.exit_code == 0, built.output
