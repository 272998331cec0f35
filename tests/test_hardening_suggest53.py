"""Probe 33 H2, H3, M2: the 'did you mean' searches bounded in their work (one helper,
toolkit.content.suggest), and a route stop that names no space drawn around, not crashed on.

The searches' work is counted (difflib's ratios, weighed as the helper weighs them), never
timed: the fixes are red before on the counts alone."""

from __future__ import annotations

import difflib
import itertools
import random
import string
from pathlib import Path

import pytest

from tests.conftest import diagnostics_json
from toolkit.checks import references
from toolkit.content import suggest
from toolkit.content.game import load_game
from toolkit.content.suggest import Budget, Pool, close_match
from toolkit.content.walk import collect

SMALL_RUN = 200_000
"""The run budget the tests give (the real one is 100 times larger: seconds of old work)."""


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The work difflib's comparisons do from here on: [total], weighed as the helper's
    budget weighs it (a quick ratio by the names' lengths, a ratio by their product)."""
    done = [0]
    quick, ratio = difflib.SequenceMatcher.quick_ratio, difflib.SequenceMatcher.ratio

    def counted_quick(self: difflib.SequenceMatcher) -> float:
        done[0] += len(self.a) + len(self.b)
        return quick(self)

    def counted_ratio(self: difflib.SequenceMatcher) -> float:
        done[0] += len(self.a) * len(self.b)
        return ratio(self)

    monkeypatch.setattr(difflib.SequenceMatcher, "quick_ratio", counted_quick)
    monkeypatch.setattr(difflib.SequenceMatcher, "ratio", counted_ratio)
    monkeypatch.setattr(suggest, "MAX_RUN_WORK", SMALL_RUN)
    return done


def _look_alike(count: int, prefix: str, letters: str = string.ascii_lowercase) -> list[str]:
    return [prefix + "".join(p) for p in itertools.product(letters, repeat=3)][:count]


def test_close_match_picks_what_get_close_matches_picks() -> None:
    rng = random.Random(33)
    for _ in range(3_000):
        pool = ["".join(rng.choice("abcde_") for _ in range(rng.randint(0, 8))) for _ in range(8)]
        name = "".join(rng.choice("abcde_") for _ in range(rng.randint(0, 8)))
        cutoff = rng.choice([0.6, 0.75])
        expected = difflib.get_close_matches(name, pool, n=1, cutoff=cutoff)
        assert close_match(name, pool, cutoff=cutoff) == (expected[0] if expected else None)


def test_a_search_past_its_bounds_suggests_nothing_and_stops(work: list[int]) -> None:
    pool = _look_alike(2_000, "a" * 57)  # 60 letters each, every one passing the quick ratios
    assert close_match("a" * 57 + "zzz", pool) is None
    assert work[0] <= suggest.MAX_CALL_WORK
    budget = Budget()
    shared = Pool(["hand_size", "target"], budget)
    budget.left = 0
    assert shared.close("hand_sise") is None  # the run's budget is spent: no 'did you mean'
    assert Pool(["hand_size", "target"], Budget()).close("hand_sise") == "hand_size"


def _board(root: Path, spaces: list[str], stops: list[str]) -> None:
    lines = ["kind: graph", "id: map", "name: {fr: Plan, es: Mapa, en: Map}", "spaces:"]
    lines += [f"  - {{id: {s}, name: S, kind: city}}" for s in spaces]
    lines += ["routes:", "  - id: r", "    kind: ferry", f"    stops: [{', '.join(stops)}]"]
    (root / "boards" / "map.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_unknown_references_share_one_bounded_search(game: Path, work: list[int]) -> None:
    """H2: 150 unknown route stops against 150 look-alike space ids were 22,500 full
    comparisons (800 × 500 with 60-letter ids: killed after 116 s of CPU)."""
    spaces = _look_alike(150, "s" * 12)
    stops = [s + "z" for s in _look_alike(150, "s" * 12, string.ascii_lowercase[::-1])]
    _board(game, spaces, stops)
    loaded = load_game(game)
    facts = collect(loaded)
    found = [d for d in references.check(loaded, facts) if d.code == "R004"]
    assert len(found) == 150
    assert work[0] <= SMALL_RUN + suggest.MAX_CALL_WORK
    assert "did you mean" in found[0].message  # the first ones still say it
    assert "did you mean" not in found[-1].message  # past the budget: the finding alone
    again = [d.message for d in references.check(loaded, collect(loaded)) if d.code == "R004"]
    assert again == [d.message for d in found]  # the same content, the same messages


def test_unknown_placeholders_share_one_bounded_search(game: Path, work: list[int]) -> None:
    """H3: each unknown {placeholder} of each language of each card searched all the card's
    params, the params sorted again each time (ten aliased cards of 2,000 params and 400
    unknown placeholders: 77 s)."""
    params = _look_alike(300, "p" * 6)
    unknown = [p + "z" for p in _look_alike(100, "p" * 6, string.ascii_lowercase[::-1])]
    text = " ".join("{" + u + "}" for u in unknown)
    deck = [
        "id: cards",
        "kind: actions",
        "name: {fr: Cartes, es: Cartas, en: Cards}",
        "size: poker",
        "cards:",
        "  - id: c0",
        "    name: {fr: A, es: A, en: A}",
        "    params: &p {" + ", ".join(f"{p}: 1" for p in params) + "}",
        f"    text: &t {{fr: '{text}', es: '{text}', en: '{text}'}}",
    ]
    deck += [
        f"  - {{id: c{i}, name: {{fr: A, es: A, en: A}}, params: *p, text: *t}}" for i in (1, 2)
    ]
    (game / "decks" / "cards.yaml").write_text("\n".join(deck) + "\n", encoding="utf-8")
    loaded = load_game(game)
    found = [d for d in references.check(loaded, collect(loaded)) if d.code == "R006"]
    assert len(found) == 3 * 3 * 100  # every unknown name is still said, in each language
    assert work[0] <= SMALL_RUN + suggest.MAX_CALL_WORK
    assert "; did you mean {pppppp" in found[0].message
    assert "did you mean" not in found[99].message


def test_a_route_stop_that_names_no_space_is_left_out_of_the_drawing(game: Path, run_cli) -> None:
    """M2: on a board large enough for the title and legend to be placed around the roads,
    a route's unknown stop was a KeyError (E008, 'a fault of Playset's') beside its R004."""
    spaces = _look_alike(200, "x")
    _board(game, spaces, [spaces[0], "nowhere", spaces[1], spaces[2], "elsewhere"])
    result = run_cli("validate", str(game), "--format", "json")
    codes = [d["code"] for d in diagnostics_json(result.stdout)]
    assert "E008" not in codes, result.stdout
    assert codes.count("R004") == 2


LOOK_ALIKE = _look_alike(1_000, "a" * 57)
"""A thousand 60-letter names that all pass difflib's quick ratios against `ASKED`: one full
search of them is 1,000 ratios of 3,600 steps each, past `MAX_CALL_WORK`."""
ASKED = "a" * 57 + "zzz"


def _icon_tip() -> object:
    from toolkit.checks.icon_names import tip
    from toolkit.render.icons import IconSet

    return tip(ASKED, IconSet({}, frozenset(LOOK_ALIKE)))


def _icon_element() -> object:
    from types import SimpleNamespace

    from toolkit.render.elements.icon import IconElement
    from toolkit.render.icons import IconSet

    element = IconElement.model_construct(kind="icon", icon=ASKED)
    job = SimpleNamespace(icons=IconSet({}, frozenset(LOOK_ALIKE)))
    item = SimpleNamespace(text=ASKED, w=10.0, h=10.0)
    return list(element.problems(item, job))  # type: ignore[arg-type]


def _unknown_layout(root: Path) -> object:
    from toolkit.checks.printfit import unknown_layout

    (root / "layouts").mkdir(exist_ok=True)
    for name in LOOK_ALIKE:
        (root / "layouts" / f"{name}.yaml").write_text("elements: []\n", encoding="utf-8")
    return unknown_layout(ASKED, root)


def _difficulties() -> object:
    from types import SimpleNamespace

    from toolkit.checks.questions import counts
    from toolkit.diagnostics import Span

    needs = SimpleNamespace(difficulties=LOOK_ALIKE, minimum=0)
    game = SimpleNamespace(manifest=SimpleNamespace(questions=needs), broken_lists={"questions"})
    items = [
        SimpleNamespace(
            question=SimpleNamespace(difficulty=f"{ASKED}{i}"),
            rel="q.yaml",
            id=f"q{i}",
            span=lambda *_: Span(),
        )
        for i in range(20)
    ]
    return list(counts.check(game, items))  # type: ignore[arg-type]


def _close_field() -> object:
    from pydantic import TypeAdapter, create_model

    from toolkit.content.validation import _close_field

    model = create_model("Many", **{name: (int, 0) for name in LOOK_ALIKE})  # type: ignore[call-overload]
    return _close_field(TypeAdapter(model), ASKED)


def _drop_renamed() -> object:
    from toolkit.content.validation import _drop_renamed

    errors = [{"type": "extra_forbidden", "loc": ("card", name)} for name in LOOK_ALIKE]
    errors += [{"type": "missing", "loc": ("card", f"{ASKED}{i}")} for i in range(3)]
    return _drop_renamed(errors)


def _sheet_header() -> object:
    from types import SimpleNamespace

    from toolkit.content.sheets.model import HeaderCheck

    check = HeaderCheck.__new__(HeaderCheck)
    check.defs, check.near = {}, set()
    check.rows = [{"properties": {n: {} for n in LOOK_ALIKE}, "additionalProperties": False}]
    return check(SimpleNamespace(text=ASKED, path=(ASKED,)))  # type: ignore[arg-type]


def _sweep_path() -> object:
    from types import SimpleNamespace

    from toolkit.sim.variants import _unknown

    doc = SimpleNamespace(key_spans={})
    return _unknown(doc, "game.yaml", f"rules.{ASKED}", ("rules",), LOOK_ALIKE, "rules value")  # type: ignore[arg-type]


def _template_name() -> object:
    from toolkit.render.undefined import missing_words

    return missing_words({name: 1 for name in LOOK_ALIKE}, ASKED)


@pytest.mark.parametrize(
    "search",
    [
        _icon_tip,
        _icon_element,
        _difficulties,
        _close_field,
        _drop_renamed,
        _sheet_header,
        _sweep_path,
        _template_name,
    ],
)
def test_every_did_you_mean_search_is_bounded(search, work: list[int]) -> None:
    """The other `get_close_matches` call sites, each over a pool a game folder (or a
    template, or a --vary path) can make large: one search stays within `MAX_CALL_WORK`
    (twenty unknown difficulties share one run budget)."""
    search()
    assert work[0] <= suggest.MAX_CALL_WORK + SMALL_RUN


def test_the_unknown_layout_search_is_bounded(tmp_path: Path, work: list[int]) -> None:
    # a game lists at most `assets.most_files(LAYOUTS)` of its 1,000 look-alike layouts
    # (100): the search over them all fits the budget (over 1,000, it stopped unfound)
    from toolkit.content import assets

    assert assets.most_files(assets.LAYOUTS) < len(LOOK_ALIKE)
    _unknown_layout(tmp_path)
    assert work[0] <= suggest.MAX_CALL_WORK
