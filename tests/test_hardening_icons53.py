"""Probe 36 H1: the 'did you mean' of an unknown icon name is searched once a name, only for
the findings said, and for a few names a run.

A layout's `icon` element naming an unknown icon searched the game's icons on every card and
language, before print-fit left out the repeated P003 (300 look-alike icons, 600 cards: 64 s);
600 cards each printing another unknown `:name:` searched 600 times (23.5 s). The searches are
counted, never timed: the tests are red before on the counts alone."""

from __future__ import annotations

import itertools
import json
import re
import string
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, build_case
from tests.suggest_calls import counted_searches
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.checks import icon_names
from toolkit.content import suggest
from toolkit.diagnostics import capped

SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>\n'
)
PAIRS = ["".join(p) for p in itertools.product(string.ascii_lowercase, repeat=2)]
TIPPED = suggest.MAX_TIPPED
"""The names a run suggests for (the old code had no such bound: the tests then use 20)."""


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names 'did you mean' is searched for from here on (every search goes through
    `suggest._search`), with the kept answers of earlier tests forgotten."""
    return counted_searches(monkeypatch, getattr(icon_names, "closest", None), icon_names.tip)


def _game(root: Path, cards: list[str], icon: str | None, texts: list[str] | None = None) -> Path:
    """The base fixture with icons gem_aa … gem_bz, a deck of `cards` (ids) on a layout with
    one `icon` element (`icon`, None: no element) and, with `texts`, each card's text."""
    game = build_case(FIXTURES / "base", root)
    (game / "icons").mkdir()
    for pair in PAIRS[:52]:
        (game / "icons" / f"gem_{pair}.svg").write_text(SVG, encoding="utf-8")
    text = ["  - kind: text", "    size: {max: 10, min: 6}"]
    elements = [*text, "    box: {x: 4, y: 4, w: -4, h: 10}", '    text: "{{ card.id }}"']
    if icon is not None:
        elements += ["  - kind: icon", "    box: {x: 4, y: 20, w: 10, h: 10}"]
        elements.append(f'    icon: "{icon}"')
    if texts is not None:
        elements += [*text, "    box: {x: 4, y: 34, w: -4, h: -4}", '    text: "{{ card.text }}"']
    (game / "layouts").mkdir()
    layout = ["id: plain", 'background: "#ffffff"', "elements:", *elements]
    (game / "layouts" / "plain.yaml").write_text("\n".join(layout) + "\n", encoding="utf-8")
    lines = ["id: cards", "kind: actions", "name: {fr: A, es: A, en: A}", "size: poker"]
    lines += ["layout: plain", "cards:"]
    for at, card in enumerate(cards):
        text = f", text: {{en: &t{at} '{texts[at]}', fr: *t{at}, es: *t{at}}}" if texts else ""
        lines.append(f"  - {{id: {card}, name: {{fr: {card}, es: {card}, en: {card}}}{text}}}")
    (game / "decks" / "cards.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return game


@pytest.fixture(autouse=True)
def every_finding_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each finding listed (a file's rule is listed 50 times, then counted)."""
    monkeypatch.setattr(capped, "PER_FILE", 1_000)


def _asked(diag: dict) -> str:
    """The unknown icon name a P003 or P007 names."""
    found = re.search(r"(?:asks for icon|no icon) '([a-z_0-9]+)'", diag["message"])
    assert found is not None, diag
    return found.group(1)


def _findings(*args: str) -> list[dict]:
    _, output = _run(*args, "--format", "json")
    return json.loads(output)


def test_one_unknown_icon_of_a_layout_is_searched_once(tmp_path: Path, searches: list[str]):
    """One literal unknown icon, 60 cards in 3 languages: one P003, one search (was 180)."""
    game = _game(tmp_path / "g", [f"c{i}" for i in range(60)], "gem_ab_")
    found = [d for d in _findings(str(game), "--no-cache") if d["code"] == "P003"]
    assert len(found) == 1, found
    assert "did you mean 'gem_ab'? icons: arrow, " in found[0]["message"]
    assert searches.count("gem_ab_") == 1, len(searches)


def test_distinct_unknown_icons_are_searched_for_a_few_names(tmp_path: Path, searches: list[str]):
    """40 cards each printing another unknown icon (`icon: "{{ card.id }}"`): every P003 is
    said, the first MAX_TIPPED (in card order) with their 'did you mean', the rest without;
    at most MAX_TIPPED searches (was one per card and language: 120)."""
    cards = [f"gem_{pair}9" for pair in PAIRS[:40]]
    game = _game(tmp_path / "g", cards, "{{ card.id }}")
    found = [d for d in _findings(str(game), "--no-cache") if d["code"] == "P003"]
    assert len(searches) <= TIPPED, len(searches)
    assert [_asked(d) for d in found] == cards
    tipped = [d for d in found if "did you mean" in d["message"]]
    assert tipped == found[:TIPPED]
    assert (
        "asks for icon 'gem_aa9', which does not exist; did you mean 'gem_aa'? "
        in (found[0]["message"])
    )


def test_distinct_unknown_inline_icons_are_searched_for_a_few_names(
    tmp_path: Path, searches: list[str]
):
    """40 cards whose texts each name another unknown inline icon: 40 × 3 P007 said where
    the texts are written (none again on the faces), at most MAX_TIPPED searches (was 40)."""
    cards = [f"c{i}" for i in range(40)]
    texts = [f"take :gem_{pair}_:" for pair in PAIRS[:40]]
    game = _game(tmp_path / "g", cards, None, texts)
    found = [d for d in _findings(str(game), "--no-cache") if d["code"] == "P007"]
    assert len(searches) <= TIPPED, len(searches)
    assert len(found) == 40 * 3, len(found)
    tipped = {_asked(d) for d in found if "did you mean" in d["message"]}
    assert tipped == {f"gem_{pair}_" for pair in PAIRS[:TIPPED]}


def test_a_layouts_printed_icons_get_their_tip_where_said(tmp_path: Path, searches: list[str]):
    """A face printing an unknown inline icon its layout computes (`:{{ card.id … }}:`): P007
    at the layout, once a name, its 'did you mean' added where it is said."""
    cards = [f"gem_{pair}9" for pair in PAIRS[:3]]
    game = _game(tmp_path / "g", cards, None)
    layout = game / "layouts" / "plain.yaml"
    printed = "\":{{ card.id | replace('9', '_') }}:\""  # gem_aa9 prints :gem_aa_:
    text = layout.read_text(encoding="utf-8").replace('"{{ card.id }}"', printed)
    layout.write_text(text, encoding="utf-8")
    found = [d for d in _findings(str(game), "--no-cache") if d["code"] == "P007"]
    assert len(found) == 3, found
    assert "it prints as written; did you mean ':gem_aa:'?" in found[0]["message"]
    assert len(searches) == 3


def test_kept_cards_give_the_tips_of_a_run_without_the_cache(cache, tmp_path: Path):  # noqa: F811
    """A card's findings kept between runs hold no tip: after the first cards are taken
    out, the cached run suggests for the first MAX_TIPPED names left, as a run without the
    cache does."""
    cards = [f"gem_{pair}9" for pair in PAIRS[:40]]
    game = _game(tmp_path / "g", cards, "{{ card.id }}")
    first = _findings(str(game))
    assert first == _findings(str(game)) == _findings(str(game), "--no-cache")
    deck = game / "decks" / "cards.yaml"
    lines = deck.read_text(encoding="utf-8").split("\n")
    deck.write_text("\n".join(lines[:6] + lines[16:]), encoding="utf-8")  # c0 … c9 out
    kept = _findings(str(game))
    assert kept == _findings(str(game), "--no-cache")
    tipped = [_asked(d) for d in kept if "did you mean" in d["message"]]
    assert tipped == cards[10 : 10 + TIPPED]


def test_tips_search_each_name_once_and_a_few_names(searches: list[str]):
    from toolkit.render.icons import IconSet

    icons = IconSet({}, frozenset(f"gem_{pair}" for pair in PAIRS[:52]))
    tips = icon_names.Tips(icons)
    said = [tips.tip(f"gem_{pair}_") for pair in PAIRS[: TIPPED + 5] for _ in range(3)]
    assert said[0] == "; did you mean ':gem_aa:'?"
    assert all(said[:-15]) and not any(said[-15:])
    assert len(searches) == TIPPED
