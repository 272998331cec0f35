"""A style property svglib reads per shape is bounded where it is written (probe 52-1, 52-2):
a 37,000-number dash array on one `<g>` of 1,000 paths (95 kB) took validate 54 s and 1.9 GB,
the same list in a `<style>` class on 1,990 paths 31 s, both clean, because svglib looks the
property up again on every shape it reaches and converts it each time."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import diagnostics_json
from toolkit.render.svg_properties import MAX_PROPERTY


def _icon(shape_style: str, group: str = "", css: str = "") -> str:
    paths = "".join(f'<path d="M{i} 0V100"/>' for i in range(20))
    style = f"<style>{css}</style>\n" if css else ""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">\n'
        f"{style}"
        f'<g fill="none" stroke="#000" {group}>\n{paths.replace("<path", "<path " + shape_style)}\n'
        "</g>\n</svg>\n"
    )


def _dashes(characters: int) -> str:
    return ",".join(["1"] * ((characters + 1) // 2))[:characters]


def _findings(tmp_path: Path, run_cli, icon: str) -> list[dict]:
    result = run_cli("new", "g", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    root = tmp_path / "g"
    (root / "icons").mkdir(exist_ok=True)
    (root / "icons" / "token.svg").write_text(icon, encoding="utf-8")
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    return [d for d in diagnostics_json(result.output) if d["code"] == "P008"]


@pytest.mark.parametrize(
    ("where", "line", "column"),
    [
        ("group attribute", 2, 1),
        ("group style", 2, 1),
        ("style rule", 2, 1),
    ],
)
def test_a_long_dash_array_is_refused_where_it_is_written(tmp_path, run_cli, where, line, column):
    long = _dashes(MAX_PROPERTY + 1)
    icon = {
        "group attribute": _icon('class="d"', group=f'stroke-dasharray="{long}"'),
        "group style": _icon('class="d"', group=f'style="stroke-dasharray: {long}"'),
        "style rule": _icon('class="d"', css=f".d{{stroke-dasharray:{long}}}"),
    }[where]
    found = _findings(tmp_path, run_cli, icon)
    assert len(found) == 1, found
    (finding,) = found
    assert finding["file"].endswith("icons/token.svg"), finding
    assert (finding["line"], finding["col"]) == (line, column), finding
    assert f"stroke-dasharray is {MAX_PROPERTY + 1:,} characters long" in finding["message"]


def test_a_long_font_list_is_refused_and_short_values_are_not(tmp_path, run_cli):
    fonts = ", ".join(["Serif"] * 40)
    found = _findings(tmp_path, run_cli, _icon("", group=f'font-family="{fonts}"'))
    assert len(found) == 1 and "font-family" in found[0]["message"], found
    root = tmp_path / "ok"
    root.mkdir()
    short = _icon('class="d"', group=f'stroke-dasharray="{_dashes(MAX_PROPERTY)}"')
    assert _findings(root, run_cli, short) == []


def test_properties_svglib_does_not_read_per_shape_are_not_bounded(tmp_path, run_cli):
    # an editor's own attributes (Inkscape's node types run as long as the path)
    icon = _icon('nodetypes="' + "c" * 1_000 + '"', group='id="' + "g" * 400 + '"')
    assert _findings(tmp_path, run_cli, icon) == []


def test_a_style_rule_is_read_as_svglib_splits_it(tmp_path, run_cli):
    # probe 54-1: a `;` inside a CSS string hid the dash array from a reader of CSS's own
    # grammar (one declaration `x`); svglib splits the rule's text at every `;` and applies it
    long = _dashes(MAX_PROPERTY + 1)
    icon = _icon('class="d"', css=f'.d{{x:"a;stroke-dasharray:{long};"}}')
    found = _findings(tmp_path, run_cli, icon)
    assert len(found) == 1 and "stroke-dasharray is" in found[0]["message"], found


def test_a_style_rule_of_many_declarations_is_refused(tmp_path, run_cli):
    # probe 54-7: one rule of 2,400 declarations on 1,990 paths, each set onto each path
    from toolkit.render.svg_properties import MAX_RULE_DECLARATIONS

    many = ";".join(f"a{i}:1" for i in range(MAX_RULE_DECLARATIONS + 1))
    found = _findings(tmp_path, run_cli, _icon('class="d"', css=f".d{{{many}}}"))
    assert len(found) == 1, found
    assert f"holds {MAX_RULE_DECLARATIONS + 1} declarations" in found[0]["message"]
    root = tmp_path / "ok"
    root.mkdir()
    fine = ";".join(f"a{i}:1" for i in range(MAX_RULE_DECLARATIONS))
    assert _findings(root, run_cli, _icon('class="d"', css=f".d{{{fine}}}")) == []


def _nested(groups: int, paths: int) -> str:
    shapes = "".join(f'<path d="M{i % 100} 0V100" stroke="#000"/>' for i in range(paths))
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">\n'
        + "<g>" * groups
        + shapes
        + "</g>" * groups
        + "\n</svg>\n"
    )


def test_shapes_under_many_nested_groups_are_refused(tmp_path, run_cli):
    # probe 54-2: 1,700 paths under 250 nested groups, 6.6 s an icon: svglib looks each
    # shape's style up through every group above it
    from toolkit.render.svg_guard import MAX_NESTED

    assert 300 * 100 > MAX_NESTED > 300 * 11
    found = _findings(tmp_path, run_cli, _nested(100, 300))
    assert len(found) == 1 and "groups nested" in found[0]["message"], found
    assert f"more than {MAX_NESTED:,} levels" in found[0]["message"]
    root = tmp_path / "ok"
    root.mkdir()
    assert _findings(root, run_cli, _nested(10, 300)) == []


def test_nested_groups_are_bounded_over_the_game_s_icons(tmp_path, run_cli):
    # probe 60-1: 24 unused icons each just under the bound of one file took validate 6.1 s
    from toolkit.render.svg_guard import MAX_GAME_NESTED, MAX_NESTED

    each = 100 * 140 + sum(range(100))  # the paths 100 deep, and the groups themselves
    assert each <= MAX_NESTED and 2 * each <= MAX_GAME_NESTED < 3 * each
    result = run_cli("new", "g", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    root = tmp_path / "g"
    (root / "icons").mkdir(exist_ok=True)
    for name in ("deep_a", "deep_b", "deep_c"):
        (root / "icons" / f"{name}.svg").write_text(_nested(100, 140), encoding="utf-8")
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    found = [d for d in diagnostics_json(result.output) if d["code"] == "P008"]
    assert [d["file"].rsplit("/", 1)[-1] for d in found] == ["deep_c.svg"], found
    assert f"more than {MAX_GAME_NESTED:,} together" in found[0]["message"]
