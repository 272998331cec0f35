"""Probe 21 H6 (each test red before its fix): a card layout's templates were bounded per
face only (toolkit.render.template_bounds LAYOUT), so a text just under those limits cost up
to ~0.1 s a face, and a deck of 1,000 cards in 3 languages minutes of `validate` and
`build`. A check's faces now cost at most LAYOUT_BUDGET a game run
(toolkit.render.layout_budget): past it no face is rendered, and one P003 says where it
stopped, with the validate cache as without, and the build, gated, renders no more."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolkit.cli import app
from toolkit.content.game import bundled_games
from toolkit.render import layout as layout_module
from toolkit.render import layout_budget, textfit

LOOP = (
    "{{ card.name }}{% set ns = namespace(n=0) %}"
    "{% for i in range(20 + (card.name|length) * 4) %}{% for j in range(40) %}"
    "{% set ns.n = ns.n + 1 %}{% endfor %}{% endfor %}"
)
"""A layout text well under one face's limits (~1,000 loop iterations, ~3,000 steps), its
cost growing with the card's name: a card renamed moves where the budget runs out."""
LIMIT = 60_000  # the budget made small here: about 20 faces of LOOP


def _hostile(tmp_path: Path, cards: int = 30, langs: tuple[str, ...] = ("en", "fr")) -> Path:
    """A game of `cards` cards whose layout has the LOOP text (made in `tmp_path`)."""
    from toolkit.scaffold.new import new_game

    game = tmp_path / "g"
    new_game(game, "g", list(langs))
    layout = game / "layouts" / "example-card.yaml"
    layout.write_text(
        layout.read_text("utf-8")
        + "  - kind: text\n"
        + "    box: {x: 3, y: 50, w: -3, h: -3}\n"
        + f'    text: "{LOOP}"\n'
        + "    size: {max: 8, min: 4}\n",
        "utf-8",
    )
    deck = game / "decks" / "cards.yaml"
    head, _, _ = deck.read_text("utf-8").partition("\ncards:\n")
    entries = "".join(
        f"  - {{id: c{i}, name: {{{', '.join(f'{lang}: N{i}' for lang in langs)}}}}}\n"
        for i in range(cards)
    )
    deck.write_text(f"{head}\nlayout: example-card\ncards:\n{entries}", "utf-8")
    return game


def _run(*args: str) -> tuple[int, list[dict]]:
    result = CliRunner().invoke(app, ["validate", *args, "-f", "json"], catch_exceptions=False)
    return result.exit_code, json.loads(result.output)


def _stops(found: list[dict]) -> list[dict]:
    return [d for d in found if d["message"].startswith("layout work stops at ")]


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The faces rendered (each `resolve` of a layout for a card), by card name."""
    done: list[str] = []
    real = layout_module.resolve

    def spy(layout, context, *args):
        done.append(str(context["card"]["name"]))
        return real(layout, context, *args)

    monkeypatch.setattr(layout_module, "resolve", spy)
    return done


def test_validate_renders_a_bounded_amount_of_layout_work_a_game(
    tmp_path, monkeypatch, renders
) -> None:
    """Past the budget no face is rendered, and one P003, at the layout's costly text,
    says at which card the check stopped (listed past the per-rule cap)."""
    game = _hostile(tmp_path, cards=200)
    monkeypatch.setattr(layout_budget, "LAYOUT_BUDGET", LIMIT)
    code, found = _run(str(game), "--no-cache")
    stops = _stops(found)
    assert len(stops) == 1, found
    (stop,) = stops
    assert stop["code"] == "P003" and code == 1
    assert stop["file"].endswith("layouts/example-card.yaml")
    assert stop["line"] == 35 and stop["col"] == 11, stop  # the LOOP text
    stopped = int(stop["message"].split()[4].removeprefix("c"))
    assert 5 < stopped < 40, stop["message"]
    assert f"cards.yaml:{10 + stopped})" in stop["message"]
    assert [d for d in found if d["code"] == "P003"] == [stop]  # no P003 a card after it
    # the faces before the stop (2 languages), its own first ones, the back and the
    # pieces of one face weighed for the place: was 200 cards' faces
    assert len(renders) <= 2 * stopped + 6, len(renders)
    assert not any(name in renders for name in (f"N{stopped + 1}", "N199"))


def test_the_stop_is_listed_past_the_cap() -> None:
    """A layout's file with more P003 than a rule is listed (each card a layout fails on
    says so at the layout's place when its message differs): the stop is still listed."""
    from toolkit.checks.printfit import P_LAYOUT
    from toolkit.diagnostics import Span
    from toolkit.diagnostics.capped import PER_FILE, capped

    many = [
        P_LAYOUT.at("layouts/x.yaml", Span(i + 1, 1), f"layout 'x' fails ({i})") for i in range(80)
    ]
    stop = P_LAYOUT.at("layouts/x.yaml", Span(99, 1), "layout work stops at c7 (en, …): …")
    kept = capped([*many, stop])
    assert stop in kept and len(kept) == PER_FILE + 2


def test_the_budget_runs_out_at_the_same_face_with_the_cache(
    tmp_path, monkeypatch, renders
) -> None:
    """Face units, card units and the in-run memo count what a face cost when worked out,
    so the same P003 is said with the validate cache as without, cold and warm, before and
    after edits that move where it stops, and a warm run renders no more than a cold one."""
    from toolkit.content import validate_cache

    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(validate_cache.StatCache, "RACY_NS", -(10**18))
    monkeypatch.setattr(layout_budget, "LAYOUT_BUDGET", LIMIT)
    game = _hostile(tmp_path)
    monkeypatch.chdir(game)
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text("utf-8")
    edits = [
        text,
        text.replace("{en: N2, fr: N2}", "{en: N2 longer name, fr: N2 longer name}"),  # sooner
        text,
        text.replace("{en: N25, fr: N25}", "{en: N25 x, fr: N25 x}"),  # past the stop
        text.replace("{en: N1, fr: N1}", "{en: N1 x, fr: N1 x}"),  # before it
        text,
    ]
    stops = []
    for edited in edits:
        deck.write_text(edited, "utf-8")
        textfit.fit.cache_clear()
        without = _run(".", "--no-cache")
        cold = len(renders)
        for _ in range(2):  # worked out, then read back
            textfit.fit.cache_clear()
            renders.clear()
            assert _run(".") == without
            assert len(renders) <= cold
        renders.clear()
        stops.append([d["message"].split(":")[0] for d in _stops(without[1])])
    assert all(len(stop) == 1 for stop in stops), stops
    assert len({stop[0] for stop in stops}) > 1, stops  # the edits move where it stops


def test_build_renders_no_more_than_the_gate_allowed(tmp_path, monkeypatch, renders) -> None:
    """`build` runs the gate, whose print-fit check holds the budget: a game past it is
    refused with the stop, having rendered what validate renders."""
    monkeypatch.setattr(layout_budget, "LAYOUT_BUDGET", LIMIT)
    game = _hostile(tmp_path, cards=100)
    _run(str(game), "--no-cache")
    validated = len(renders)
    renders.clear()
    result = CliRunner().invoke(
        app, ["build", str(game), "--out", str(tmp_path / "out"), "--no-cache"]
    )
    assert result.exit_code != 0
    assert "layout work stops at " in result.output
    assert len(renders) <= validated, (len(renders), validated)
    assert not (tmp_path / "out" / "g").exists()


@pytest.mark.parametrize("name", sorted(bundled_games()))
def test_bundled_games_spend_a_small_part_of_the_budget(name, monkeypatch) -> None:
    """The budget is well above what a bundled game's faces cost (LAYOUT_BUDGET's note): more
    than three times (whisky-game, the largest, spends ~56,000 of 200,000; the budgets were
    halved and more in budget59, so that all of a game's add up to ~5 s)."""
    from toolkit.checks import printfit
    from toolkit.content.game import load_game

    budgets: list[textfit.FitBudget] = []
    real = textfit.FitBudget.__init__

    def kept(self, *args, **kwargs):
        real(self, *args, **kwargs)
        budgets.append(self)

    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    monkeypatch.setattr(textfit.FitBudget, "__init__", kept)
    game = load_game(bundled_games()[name])
    list(printfit.check(game, _facts(game)))
    (budget,) = budgets
    assert 0 < budget.layouts.spent < layout_budget.LAYOUT_BUDGET // 3, budget.layouts.spent
    assert 0 < budget.spent < textfit.FIT_BUDGET // 3, budget.spent  # whisky-game: ~465,000
    assert not budget.layouts.refusals


def _facts(game):
    from toolkit.content.walk import collect

    return collect(game)


def _render_layout_text(source: str) -> str:
    from toolkit.render.layout import _cached

    return _cached().render(_cached().template(source, "layout"), {})


def test_a_comparison_counts_the_items_it_walks() -> None:
    """The budget counts a face's steps; a comparison was one step whatever its operands
    held, and weighing a 30,000-item list for it takes ~10 ms: 1,900 of them on one face,
    within its steps, ran ~0.2 s a face (seconds for 1,900 in 5 s). Now its items count."""
    from toolkit.render.template_bounds import TemplateStepError

    loop = "{% set a = range(30000)|list %}{% for i in range(50) %}{{ 5 in a }}{% endfor %}"
    with pytest.raises(TemplateStepError):
        _render_layout_text(loop)
    assert _render_layout_text("{{ 5 in [1, 2, 5] }}") == "True"  # a few items: as before


def test_a_slice_counts_what_it_copies() -> None:
    """`a[:]` copies a list: counted as a value built (it was not: a loop of copies of a
    99,000-item list cost ~0.3 ms each, out of any count)."""
    from toolkit.render.template_bounds import TemplateLimitError

    # (a text: the items of `range(90000)|list` are counted as gone over, probe 23 H3)
    copies = "{% set a = 'x' * 90000 %}{% for i in range(5) %}{% set b = a[1:] %}{% endfor %}"
    with pytest.raises(TemplateLimitError, match="builds more than"):
        _render_layout_text(copies)
    assert _render_layout_text("{{ [1, 2, 3][1:] }}") == "[2, 3]"
