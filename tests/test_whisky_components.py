"""The Whisky Game's printed bottles, lost bottles and tokens: counts from the rules, decks
in step with their generator, the G13x checks at their exact positions, and the faces."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, diagnostics_json
from toolkit.checks import run_checks
from toolkit.content.game import bundled_games, load_game
from toolkit.games.whisky_game import componentgen
from toolkit.render.context import card_context
from toolkit.render.layout import load_layout, resolve

GAME_DIR = bundled_games()["whisky-game"]
CASES = sorted(p for p in (FIXTURES / "whisky-components").iterdir() if p.is_dir())
OURS = ("G131", "G132", "G133", "G134")


@pytest.fixture(scope="module")
def game():
    return load_game(GAME_DIR)


def _deck(game, kind):
    return next(d for d in game.valid(game.decks) if d.kind == kind)


def _board(game):
    return game.valid(game.boards)[0]


def test_bundled_components_pass_their_checks(game):
    assert [d for d in run_checks(game) if d.code in OURS] == []


def test_bottles_are_three_per_distillery_with_the_rules_values(game):
    rules, board = game.manifest.rules, _board(game)
    distilleries = [s for s in board.spaces if s.kind == "distillery"]
    bottles = _deck(game, "bottles").cards
    assert len(bottles) == len(distilleries) * rules.bottles_per_distillery == 72
    per = Counter((b.distillery, rules.bottle_values[b.difficulty]) for b in bottles)
    assert set(per.values()) == {1}
    assert {v for _, v in per} == {1, 3, 5}
    names = {s.id: s.name for s in distilleries}
    assert all(set(b.name.values()) == {names[b.distillery]} for b in bottles)


def test_lost_pile_is_the_rules_values_three_per_lost_distillery(game):
    rules, board = game.manifest.rules, _board(game)
    lost = _deck(game, "lost_bottles").cards
    assert sorted(c.value for c in lost) == sorted(rules.lost_values)
    per = Counter(c.distillery for c in lost)
    assert per == {s.id: 3 for s in board.spaces if s.kind == "lost_distillery"}


def test_tokens_are_the_bag(game):
    tokens = _deck(game, "tokens").cards
    assert {t.resource: t.copies for t in tokens} == dict(game.manifest.rules.bag)
    assert sum(t.copies for t in tokens) == 75


def test_committed_decks_are_what_the_generator_writes():
    for path, text in componentgen.render_all(GAME_DIR).items():
        assert path.read_text(encoding="utf-8") == text, f"{path.name}: rerun componentgen"


def _faces(game, deck, layout_name, lang):
    layout = load_layout(layout_name, game.root)[0]
    out = []
    for card in deck.cards:
        items = resolve(layout, card_context(game, deck, card, lang), 44, 63)
        out.append([(type(i.element).__name__, i.x, i.y, i.text) for i in items])
    return out


@pytest.mark.parametrize("lang", ["fr", "es", "en"])
def test_lost_backs_are_alike_and_fronts_show_the_value(game, lang):
    deck = _deck(game, "lost_bottles")
    backs = _faces(game, deck, deck.back, lang)
    assert all(face == backs[0] for face in backs)
    for card, face in zip(deck.cards, _faces(game, deck, deck.layout, lang), strict=True):
        assert str(card.value) in [text for kind, _, _, text in face if kind == "BadgeElement"]


def test_bottle_face_prints_points_from_rules_and_region_colour(game):
    deck, board = _deck(game, "bottles"), _board(game)
    colours = {r.id: r.colour for r in board.regions}
    layout = load_layout(deck.layout, game.root)[0]
    for card in deck.cards:
        context = card_context(game, deck, card, "en")
        items = resolve(layout, context, 44, 63)
        fills = {i.element.fill for i in items if type(i.element).__name__ == "BoxElement"}
        assert colours[card.region] in fills, card.id
        badge = next(i.text for i in items if type(i.element).__name__ == "BadgeElement")
        assert badge == str(game.manifest.rules.bottle_values[card.difficulty])


def test_every_case_has_a_distinct_break():
    assert {json.loads((c / "expect.json").read_text())["code"] for c in CASES} == set(OURS)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_broken_component_case(case: Path, run_cli, tmp_path, monkeypatch):
    expect = json.loads((case / "expect.json").read_text())
    root = tmp_path / "whisky-game"
    shutil.copytree(GAME_DIR, root)
    for path in case.rglob("*"):
        if path.is_file() and path.name != "expect.json":
            shutil.copyfile(path, root / path.relative_to(case))
    monkeypatch.chdir(root)
    result = run_cli("validate", ".", "--format", "json")
    assert result.exit_code == 1, result.output
    found = [d for d in diagnostics_json(result.stdout) if d["code"] in OURS]
    assert len(found) == 1, found
    got = {k: found[0][k] for k in ("code", "file", "line", "col")}
    assert got == {k: expect[k] for k in ("code", "file", "line", "col")}, found[0]["message"]


def _rulebooks(game):
    from toolkit.render.rulebook_source import render_markdown

    return {
        lang: render_markdown(game, lang, path.read_text(encoding="utf-8"))
        for lang, path in game.rulebook.items()
    }


def test_rulebooks_share_one_outline_and_count_the_printed_pieces(game):
    books = _rulebooks(game)
    assert set(books) == {"fr", "es", "en"}
    outlines = {
        lang: [line.split(" ", 1)[0] for line in text.splitlines() if line.startswith("#")]
        for lang, text in books.items()
    }
    assert outlines["fr"] == outlines["es"] == outlines["en"]
    decks = {d.kind: d for d in game.valid(game.decks)}
    totals = [sum(c.copies for c in decks[k].cards) for k in ("bottles", "lost_bottles", "tokens")]
    prohibition = next(c for c in decks["specials"].cards if c.id == "prohibition").effect
    for lang, text in books.items():
        for deck in decks.values():
            assert deck.name[lang] in text, (lang, deck.id)
        for number in (*totals, game.manifest.rules.round_limit, prohibition.rolls):
            assert f" {number} " in text, (lang, number)


@pytest.mark.parametrize(
    ("lang", "words"), [("fr", "75 jetons"), ("es", "75 fichas"), ("en", "75 tokens")]
)
def test_component_list_calls_tokens_tokens(game, lang, words):
    """A deck declares what its pieces are (`pieces: tokens`): the generated component list
    counts 75 tokens, not 75 cards."""
    from toolkit.render.markdown_flow import make_sheet
    from toolkit.render.rulebook import components

    table = components(game, lang, make_sheet(lang))[-1]
    rows = {row[0].plain: row[1].plain for row in table.rows}
    tokens = next(d for d in game.valid(game.decks) if d.kind == "tokens")
    assert rows[tokens.name[lang]].startswith(words), rows
