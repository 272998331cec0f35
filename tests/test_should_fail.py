"""Tests that go red when the code is broken in ways the rest of the suite let pass (issue 31):
the Holm correction replaced by raw p, a runner that ignores its seed, a preview serving more
static files than its list, ignore-comment prefixes, and the lines of a text that does not fit.
(The sixth hole, rule coverage by text search, is closed by tests/test_rule_coverage.py.)"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from toolkit.content.game import bundled_games
from toolkit.diagnostics import Diagnostic
from toolkit.diagnostics.diagnostic import Severity, Span
from toolkit.diagnostics.suppress import unsuppressed
from toolkit.render.textfit import Setting, fit, text_width
from toolkit.sim.engine import GameSetup
from toolkit.sim.metrics.report import _flagged
from toolkit.sim.play import run
from toolkit.sim.prepared import SimConfig
from toolkit.sim.stats import holm, proportion_p_value, wilson

# --- the unfairness flag uses Holm-adjusted p, not raw p ----------------------------------


def test_unfair_flags_use_holm_adjusted_p_values():
    """Four seats, one of them off its fair share with a raw p under 0.05 that Holm's
    correction (× 4 for the smallest of four) lifts over it: not flagged."""
    n, fair = 400, 0.25
    k = next(k for k in range(100, 0, -1) if 0.0125 < proportion_p_value(k, n, fair) < 0.05)
    rates = [wilson(k, n)] + [wilson(100, n)] * 3
    rows = [(f"seat {s}", s, None, rate) for s, rate in enumerate(rates)]
    raw = [proportion_p_value(r.k, r.n, fair) for r in rates]
    assert raw[0] < 0.05  # raw p would flag it
    flagged = _flagged(rows, fair)
    assert [row.p_adjusted for row in flagged] == holm(raw)
    assert [row.unfair for row in flagged] == [False] * 4
    # and a seat far enough off stays flagged after the correction
    far = _flagged([("seat 0", 0, None, wilson(60, n))] + rows[1:], fair)
    assert far[0].unfair and far[0].p_adjusted is not None and far[0].p_adjusted < 0.05


# --- the runner plays the seed it is given --------------------------------------------------


@pytest.mark.parametrize("pooled", [False, True], ids=["in-process", "executor"])
def test_runner_results_depend_on_the_seed(pooled):
    folder = bundled_games()["drinking-heroes"]

    def play(seed: int):
        config = SimConfig(folder, GameSetup(3), ("random",), seed=seed, games=12, batch=4)
        if not pooled:
            return run(config)
        with ThreadPoolExecutor(1) as pool:
            return run(config, executor=pool)

    one, again, other = play(1), play(1), play(2)
    assert one == again
    assert [r.seed for r in one] != [r.seed for r in other]
    assert [(r.turns, r.returns) for r in one] != [(r.turns, r.returns) for r in other]


# --- the preview serves exactly its static list ---------------------------------------------


def test_preview_static_files_are_exactly_the_list():
    from starlette.testclient import TestClient

    from toolkit.preview import app as preview_app
    from toolkit.preview.hosts import AllowedHosts

    assert preview_app.STATIC == {
        "app.js": ("app.js", "text/javascript; charset=utf-8"),
        "style.css": ("style.css", "text/css; charset=utf-8"),
    }
    shipped = sorted(p.name for p in (Path(preview_app.__file__).parent / "static").iterdir())
    assert shipped == ["app.js", "index.html", "style.css"]
    allowed = AllowedHosts.for_server("127.0.0.1", None)
    made = preview_app.make_app(None, allowed)  # type: ignore[arg-type]  # static needs none
    with TestClient(made, base_url="http://127.0.0.1:8765") as client:
        for name in shipped:
            response = client.get(f"/static/{name}")
            if name in preview_app.STATIC:
                assert response.status_code == 200
                assert response.headers["content-type"] == preview_app.STATIC[name][1]
            else:  # shipped beside them, served only as the page at /
                assert response.status_code == 404, name
        for name in ("__init__.py", "app.py", "APP.JS", "app.js.map", "static"):
            assert client.get(f"/static/{name}").status_code == 404, name


# --- `# playset: ignore[...]` takes codes and prefixes -------------------------------------


@pytest.mark.parametrize(
    ("comment", "kept"),
    [
        ("", ["T015", "R004"]),
        ("# playset: ignore[T015]", ["R004"]),
        ("# playset: ignore[T]", ["R004"]),
        ("# playset: ignore[T01]", ["R004"]),
        ("# playset: ignore[T016]", ["T015", "R004"]),
        ("# playset: ignore[R, T]", []),
        ("# playset: ignore[S]", ["T015", "R004"]),
    ],
)
def test_ignore_comment_silences_codes_and_prefixes(tmp_path, comment, kept):
    deck = tmp_path / "cards.yaml"
    deck.write_text(f"id: cards\ntext: Move  on  {comment}\n", encoding="utf-8")
    found = [
        Diagnostic(str(deck), code, "finding", Severity.WARNING, Span(2, 7))
        for code in ("T015", "R004")
    ]
    assert [d.code for d in unsuppressed(found, inside=[tmp_path])] == kept


# --- a text that does not fit keeps every line ----------------------------------------------


def test_a_text_that_does_not_fit_keeps_all_its_lines_wrapped():
    """The overflowing text is drawn (and reported) as its lines at the smallest size: every
    word, each line within the width, not the text in one unwrapped line."""
    text = " ".join(f"word{i}" for i in range(60))
    setting = Setting(max_size=10.0, min_size=6.0, lang="en")
    width, height = 80.0, 20.0
    result = fit(text, width, height, setting)
    assert not result.fits and result.size == 6.0
    assert len(result.lines) > 2
    assert " ".join(result.lines).split() == text.split()
    assert all(text_width(line, 6.0, "regular") <= width for line in result.lines)
