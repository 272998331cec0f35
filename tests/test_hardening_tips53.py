"""Probe 37 H1 and H2: the 'did you mean' of an unknown layout name and of a missing name a
layout's template asks is searched once a name, and for a few names a run.

H1: each deck naming an unknown `layout:`/`back:` searched the game's layout names again and
listed every one of them (1,000 look-alike layout files, 370 decks: 32 s, 46 MB of output).
H2: `{{ rules.<missing> }}` searched the 1,000 keys of `rules` on every card face that
failed, before print-fit kept one P003 (300 cards: 43 s). The searches are counted, never
timed: the tests are red before on the counts alone."""

from __future__ import annotations

import itertools
import json
import re
import string
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, build_case
from tests.suggest_calls import counted_searches
from tests.test_validate_cache_units import _run
from toolkit.content import suggest
from toolkit.diagnostics import capped
from toolkit.render import undefined

PAIRS = ["".join(p) for p in itertools.product(string.ascii_lowercase, repeat=2)]
TIPPED = suggest.MAX_TIPPED
"""The names a run suggests for (the old code had no such bound: the tests then use 20)."""


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names 'did you mean' is searched for from here on (every search goes through
    `suggest._search`), with the kept answers of earlier tests forgotten."""
    return counted_searches(monkeypatch, getattr(undefined, "closest", None))


@pytest.fixture(autouse=True)
def every_finding_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each finding listed (a file's rule is listed 50 times, then counted)."""
    monkeypatch.setattr(capped, "PER_FILE", 1_000)


def _findings(*args: str) -> list[dict]:
    _, output = _run(*args, "--format", "json")
    return json.loads(output)


PLAIN = """id: plain
background: "#ffffff"
elements:
  - kind: text
    size: {max: 10, min: 6}
    box: {x: 4, y: 4, w: -4, h: 10}
    text: "TEXT"
"""


def _layouts_game(root: Path, asked: list[tuple[str, str]]) -> Path:
    """The base fixture with 30 layouts lay_aa … lay_bd and one deck of a card for each
    (layout, back) of `asked`."""
    game = build_case(FIXTURES / "base", root)
    (game / "layouts").mkdir()
    for pair in PAIRS[:30]:
        text = PLAIN.replace("id: plain", f"id: lay_{pair}").replace("TEXT", "{{ card.id }}")
        (game / "layouts" / f"lay_{pair}.yaml").write_text(text, encoding="utf-8")
    listed = []
    for at, (layout, back) in enumerate(asked):
        lines = [f"id: d{at}", "kind: actions", "name: {fr: A, es: A, en: A}", "size: poker"]
        lines += [f"layout: {layout}", f"back: {back}", "cards:"]
        lines.append(f"  - {{id: c{at}, name: {{fr: N, es: N, en: N}}}}")
        (game / "decks" / f"d{at}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
        listed.append(f"    - decks/d{at}.yaml")
    (game / "decks" / "cards.yaml").unlink()
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("    - decks/cards.yaml", "\n".join(listed)), "utf-8")
    return game


def _unknown_layouts(game: Path) -> list[str]:
    found = [d for d in _findings(str(game), "--no-cache") if d["code"] == "P003"]
    asked = [re.search(r"no layout '([a-z_0-9]+)'", d["message"]) for d in found]
    assert all(asked), found
    return [d["message"] for d in found]


def test_one_unknown_layout_of_many_decks_is_searched_once(tmp_path: Path, searches: list[str]):
    """40 decks naming the same unknown layout and back: 80 P003, one search a name (was 80),
    each still with its 'did you mean'."""
    game = _layouts_game(tmp_path / "g", [("lay_ab9", "lay_ac9")] * 40)
    messages = _unknown_layouts(game)
    assert len(messages) == 80
    assert searches.count("lay_ab9") == 1 and searches.count("lay_ac9") == 1, len(searches)
    assert all(m.endswith(("did you mean 'lay_ab'?", "did you mean 'lay_ac'?")) for m in messages)


def test_distinct_unknown_layouts_are_searched_for_a_few_names(tmp_path: Path, searches: list[str]):
    """40 decks each naming another unknown layout and back: every P003 said, the first
    MAX_TIPPED names (in the decks' order) with their 'did you mean', at most MAX_TIPPED
    searches (was 80); each lists the first 10 of the game's 30 layouts and how many more."""
    asked = [(f"lay_{pair}9", f"lay_{pair}8") for pair in PAIRS[:40]]
    game = _layouts_game(tmp_path / "g", asked)
    messages = _unknown_layouts(game)
    assert len(messages) == 80
    assert len(searches) <= TIPPED, len(searches)
    tipped = {re.findall(r"no layout '([a-z_0-9]+)'", m)[0] for m in messages if "did you" in m}
    assert tipped == {name for pair in asked[: TIPPED // 2] for name in pair}  # decks' order
    assert "no layout 'lay_aa9' " in messages[0] and "did you mean 'lay_aa'?" in messages[0]
    shown = "the game has lay_aa, lay_ab, lay_ac, lay_ad, lay_ae, lay_af, lay_ag, lay_ah"
    assert all(f"{shown}, lay_ai, lay_aj … and 20 more;" in m for m in messages), messages[0]


def _rules_game(root: Path, cards: list[str], text: str) -> Path:
    """The base fixture with `rules` keys key_aa … key_bd and a deck of `cards` (ids) on a
    layout printing `text`."""
    game = build_case(FIXTURES / "base", root)
    manifest = game / "game.yaml"
    keys = "".join(f"  key_{pair}: 1\n" for pair in PAIRS[:30])
    manifest.write_text(manifest.read_text("utf-8").replace("rules:\n", f"rules:\n{keys}"), "utf-8")
    (game / "layouts").mkdir()
    (game / "layouts" / "plain.yaml").write_text(PLAIN.replace("TEXT", text), encoding="utf-8")
    lines = ["id: cards", "kind: actions", "name: {fr: A, es: A, en: A}", "size: poker"]
    lines += ["layout: plain", "cards:"]
    lines += [f"  - {{id: {card}, name: {{fr: N, es: N, en: N}}}}" for card in cards]
    (game / "decks" / "cards.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return game


def test_a_missing_rule_of_every_face_is_searched_once(tmp_path: Path, searches: list[str]):
    """`{{ rules.key_ab_ }}` on 30 cards in 3 languages: one P003, still with its 'did you
    mean', and one search (was one for each face that failed, and again where the failing
    template is looked for)."""
    game = _rules_game(tmp_path / "g", [f"c{i}" for i in range(30)], "{{ rules.key_ab_ }}")
    found = [d for d in _findings(str(game), "--no-cache") if d["code"] == "P003"]
    assert len(found) == 1, found
    assert "`rules` has no field 'key_ab_'; did you mean 'key_ab'? It has:" in found[0]["message"]
    assert searches.count("key_ab_") == 1, len(searches)


def test_distinct_missing_rules_are_searched_for_a_few_names(tmp_path: Path, searches: list[str]):
    """40 cards each asking `rules` for another missing key: every P003 said, the first
    MAX_TIPPED (in card order) with their 'did you mean', at most MAX_TIPPED searches (was one
    per card, language and look for the failing template)."""
    cards = [f"key_{pair}9" for pair in PAIRS[:30]] + [f"key_{pair}8" for pair in PAIRS[:10]]
    game = _rules_game(tmp_path / "g", cards, "{{ rules[card.id] }}")
    found = [d for d in _findings(str(game), "--no-cache") if d["code"] == "P003"]
    assert len(searches) <= TIPPED, len(searches)
    asked = [re.search(r"has no field '([a-z_0-9]+)'", d["message"]) for d in found]
    assert [a.group(1) for a in asked if a] == cards
    tipped = [d for d in found if "did you mean" in d["message"]]
    assert tipped == found[:TIPPED]
    assert "has no field 'key_aa9'; did you mean 'key_aa'?" in found[0]["message"]


def test_name_tips_search_each_name_once_and_a_few_names(searches: list[str]):
    """`NameTips`: one search a (name, keys), none past MAX_TIPPED distinct ones; outside a
    run, each (name, keys) once (`closest` is pure and kept)."""
    keys = tuple(f"key_{pair}" for pair in PAIRS[:30])
    tips = undefined.NameTips()
    assert [tips.close("key_ab_", keys) for _ in range(5)] == ["key_ab"] * 5
    for pair in PAIRS[:40]:
        tips.close(f"key_{pair}9", keys)
    assert len(searches) == TIPPED
    assert tips.close("key_zz9", keys) is None and tips.close("key_ab_", keys) == "key_ab"
    assert len(searches) == TIPPED


def test_faces_drawn_outside_a_check_search_no_name(tmp_path: Path, searches: list[str]):
    """The preview draws faces outside any check run: 40 cards each asking `rules` for
    another missing key searched each name on each face (and the 64-name memo thrashed past
    64 names: ~11 s at each save, probe 39 H4). Outside a run a face's message has no 'did
    you mean' (its check's finding has it) and no search is made."""
    from toolkit.preview.draw import draw_targets
    from toolkit.preview.live import Preview

    cards = [f"key_{pair}9" for pair in PAIRS[:40]]
    game = _rules_game(tmp_path / "g", cards, "{{ rules[card.id] }}")
    preview = Preview(game)
    preview.load(check=False)
    faces = [t for t in preview.snap.targets.values() if t.kind == "face"]
    assert len(faces) >= 40
    results = draw_targets(preview.shown, faces)
    assert len(results) == len(faces)
    assert searches == [], len(searches)


def test_the_preview_s_faces_share_a_layout_budget(tmp_path: Path, monkeypatch):
    """`validate` stops at a game's layout budget, but the preview drew every face past it
    (3,000 costly faces: ~41 s at start and at each save, probe 40 H2). Its faces now share
    one budget a revision: past it a face is not drawn, and says why; the faces drawn before
    it stay drawn."""
    from toolkit.preview.draw import draw_targets
    from toolkit.preview.live import Preview
    from toolkit.render import layout_budget

    monkeypatch.setattr(layout_budget, "LAYOUT_BUDGET", 40)
    game = _rules_game(tmp_path / "g", [f"c{i}" for i in range(20)], "{{ card.id ~ card.id }}")
    preview = Preview(game)
    preview.load(check=False)
    faces = [t for t in preview.snap.targets.values() if t.kind == "face"]
    results = draw_targets(preview.shown, faces)
    refused = [r for r in results if not isinstance(r, list)]
    assert refused and len(refused) < len(faces), (len(refused), len(faces))
    assert all("layout budget" in str(r) for r in refused), refused[0]
