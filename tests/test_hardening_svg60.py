"""Probe 60-8 … 60-11: what svglib writes onto an element, and where a `<use>` draws, bounded.

libxml2 finds an attribute by walking the element's list, and svglib writes every
declaration of every `<style>` rule that matches an element onto it, and every piece of its
`style=""`: n names on one element cost ~n²/2. Each was unbounded: rules setting 6,240 names
on 100 paths took validate 11 s (60-8), one `style=""` of 50,000 names 22 s (60-9), one path
of 50,000 plain attributes 9 s in the guard's own walks (60-10). And `MAX_NESTED` counted
the file as written, so 55 `<use>` of 31 shapes 140 groups deep cost 240,000 shape-levels
in a 6 kB icon (60-11). Each is now refused (P008) at its element. Counted, never timed."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import diagnostics_json
from toolkit.render import svg_guard, svg_properties

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
HEAD += ' viewBox="0 0 100 100">\n'


def _check(tmp_path: Path, body: str, budget: svg_guard.Budget | None = None):
    icons = tmp_path / "icons"
    icons.mkdir(exist_ok=True)
    icon = icons / "x.svg"
    icon.write_text(HEAD + body + "</svg>\n", encoding="utf-8")
    return svg_guard.check(icon, icons, budget=budget)


def _names(count: int) -> list[str]:
    return [f"n{i}" for i in range(count)]


# 60-10: an element's own attributes


def test_an_element_of_too_many_attributes_is_refused_at_it(tmp_path):
    many = " ".join(f'{name}=""' for name in _names(svg_guard.MAX_ATTRIBUTES))
    refusal = _check(tmp_path, f'<g>\n  <path d="M0 0V9" {many}/>\n</g>\n')
    assert refusal is not None
    assert (refusal.line, refusal.col) == (3, 3)
    assert f"its <path> has {svg_guard.MAX_ATTRIBUTES + 1} attributes" in refusal.message
    assert "keep only the attributes it draws with" in refusal.message
    fewer = " ".join(f'{name}=""' for name in _names(svg_guard.MAX_ATTRIBUTES - 1))
    assert _check(tmp_path, f'<path d="M0 0V9" {fewer}/>\n') is None


def test_a_group_of_too_many_attributes_is_refused_before_its_shapes_are_walked(tmp_path):
    many = " ".join(f'{name}=""' for name in _names(200))
    paths = '<path d="M0 0V9"/>' * 50
    refusal = _check(tmp_path, f"<g {many}>{paths}</g>\n")
    assert refusal is not None and (refusal.line, refusal.col) == (2, 1)
    assert "its <g> has 200 attributes" in refusal.message


# 60-9: a style="" of many declarations


def test_a_style_attribute_of_too_many_properties_is_refused_at_its_element(tmp_path):
    limit = svg_properties.MAX_STYLE_DECLARATIONS
    style = ";".join(f"{name}:1" for name in _names(limit + 1))
    refusal = _check(tmp_path, f'<g>\n<rect width="9" height="9" style="{style}"/></g>\n')
    assert refusal is not None and (refusal.line, refusal.col) == (3, 1)
    assert f'its style="" sets {limit + 1} different properties' in refusal.message
    style = ";".join(f"{name}:1" for name in _names(limit))
    assert _check(tmp_path, f'<rect width="9" height="9" style="{style}"/>\n') is None
    # a name written again is one attribute written (its characters count elsewhere)
    style = "fill:red;" * (limit * 3)
    assert _check(tmp_path, f'<rect width="9" height="9" style="{style}"/>\n') is None


def test_an_inkscape_style_passes(tmp_path):
    # the longest style="" of the GNOME icons (Inkscape's, 59 declarations)
    style = (
        "color:#000000;font-style:normal;font-variant:normal;font-weight:normal;"
        "font-stretch:normal;font-size:medium;line-height:normal;font-family:sans-serif;"
        "font-variant-ligatures:normal;font-variant-position:normal;"
        "font-variant-caps:normal;font-variant-numeric:normal;"
        "font-variant-alternates:normal;font-feature-settings:normal;text-indent:0;"
        "text-align:start;text-decoration:none;text-decoration-line:none;"
        "text-decoration-style:solid;text-decoration-color:#000000;letter-spacing:normal;"
        "word-spacing:normal;text-transform:none;writing-mode:lr-tb;direction:ltr;"
        "text-orientation:mixed;dominant-baseline:auto;baseline-shift:baseline;"
        "text-anchor:start;white-space:normal;shape-padding:0;clip-rule:nonzero;"
        "display:inline;overflow:visible;visibility:visible;opacity:1;isolation:auto;"
        "mix-blend-mode:normal;color-interpolation:sRGB;"
        "color-interpolation-filters:linearRGB;solid-color:#000000;solid-opacity:1;"
        "vector-effect:none;fill:#2e3436;fill-opacity:1;fill-rule:evenodd;stroke:none;"
        "stroke-width:2;stroke-linecap:round;stroke-linejoin:miter;stroke-miterlimit:4;"
        "stroke-dasharray:none;stroke-dashoffset:0;stroke-opacity:1;color-rendering:auto;"
        "image-rendering:auto;shape-rendering:auto;text-rendering:auto;"
        "enable-background:accumulate"
    )
    assert svg_properties.style_declarations(style) == 59
    assert _check(tmp_path, f'<path d="M0 0V9" style="{style}"/>\n') is None


# 60-8: the declarations the rules of a <style> write


def test_rules_setting_too_many_properties_are_refused_at_the_style(tmp_path):
    limit = svg_properties.MAX_STYLE_NAMES
    names = _names(limit + 1)
    rules = "".join(
        "path{" + "".join(f"{n}:1;" for n in names[i : i + 8]) + "}"
        for i in range(0, len(names), 8)
    )
    refusal = _check(tmp_path, f'<path d="M0 0V9"/>\n<style>{rules}</style>\n')
    assert refusal is not None and (refusal.line, refusal.col) == (3, 1)
    assert f"its <style> rules set {limit + 1} different properties" in refusal.message
    # names are counted as svglib keys them: in their case
    cased = "".join(f"{n}:1;{n.upper()}:1;" for n in _names(limit // 2 + 1))
    refusal = _check(tmp_path, f'<path d="M0 0V9"/>\n<style>path{{{cased}}}</style>\n')
    assert refusal is not None and "different properties" in refusal.message


def test_a_rule_is_counted_in_its_case_kept_declarations(tmp_path):
    # `a:;A:;` writes two attributes: a rule of 20 names in two cases is 40 declarations
    cased = "".join(f"{n}:1;{n.upper()}:1;" for n in _names(20))
    refusal = _check(tmp_path, f'<path d="M0 0V9"/>\n<style>path{{{cased}}}</style>\n')
    assert refusal is not None
    assert "a rule of its <style> holds 40 declarations" in refusal.message


def test_a_rules_declarations_count_as_matching_steps(tmp_path, monkeypatch):
    monkeypatch.setattr(svg_guard, "MAX_MATCHING", 400)
    paths = '<path d="M0 0V9" class="a"/>' * 8  # 10 elements with the <svg> and <style>
    # 20 rules of 32 declarations: 200 steps to match, and 31 more writes a rule an element
    big = "".join(f".r{r}{{" + "".join(f"{n}:1;" for n in _names(32)) + "}" for r in range(20))
    refusal = _check(tmp_path, f"<style>{big}</style>\n{paths}\n")
    assert refusal is not None and (refusal.line, refusal.col) == (2, 1)
    assert "steps to match and apply" in refusal.message
    # an exported icon's classes (a few declarations each) on the same shapes pass
    small = "".join(
        f".st{r}{{fill:#FFF;stroke:#000;stroke-width:2;stroke-miterlimit:10}}" for r in range(20)
    )
    budget = svg_guard.Budget()
    assert _check(tmp_path, f"<style>{small}</style>\n{paths}\n", budget) is None
    assert budget.matching == 20 * 10 + 20 * 3 * 10 // svg_guard.DECLARATIONS_PER_STEP


# 60-11: the levels of a <use>'s copies


def _deep_uses(depth: int, uses: int, shapes: int) -> str:
    defs = '<defs><g id="s">' + '<path d="M0 0V9"/>' * shapes + "</g></defs>\n"
    return defs + "<g>" * depth + "\n" + '<use xlink:href="#s"/>' * uses + "</g>" * depth + "\n"


def test_uses_deep_in_groups_count_their_copies_levels(tmp_path):
    # 40 groups, 30 <use> of 20 shapes: ~2,200 levels as written, ~26,000 once expanded
    refusal = _check(tmp_path, _deep_uses(40, 30, 20))
    assert refusal is not None
    assert "once each <use> is expanded" in refusal.message
    assert "nested 41 deep here" in refusal.message
    # at the <use> that takes them past the bound: 883 levels before the first (the
    # groups' 820, the definitions' 63), and a <use> 41 deep counts itself and its copy of
    # 21 elements, each 41 deep and its own levels below the <use> (21 + 20)
    assert refusal.line == 4
    written = 820 + 1 + 2 + 20 * 3
    passing = (svg_guard.MAX_NESTED - written) // (41 + 21 * 41 + 21 + 20) + 1
    assert refusal.col == 1 + len('<use xlink:href="#s"/>') * (passing - 1)
    # the same uses two groups deep pass, charged to the game at their copies' levels
    budget = svg_guard.Budget()
    assert _check(tmp_path, _deep_uses(2, 30, 20), budget) is None
    assert budget.nested == (1 + 2) + 1 + 2 + 20 * 3 + 30 * (3 + 21 * 3 + 21 + 20)


def test_the_game_bound_counts_the_copies_levels(tmp_path, monkeypatch):
    monkeypatch.setattr(svg_guard, "MAX_GAME_NESTED", 5_000)
    budget = svg_guard.Budget()
    # 3,276 levels once expanded, 156 as written: the second is refused
    assert _check(tmp_path, _deep_uses(2, 30, 20), budget) is None
    refusal = _check(tmp_path, _deep_uses(2, 30, 20), budget)
    assert refusal is not None and "levels of nested groups" in refusal.message


def test_a_deep_use_is_a_finding_at_its_place(tmp_path, run_cli):
    result = run_cli("new", "g", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    root = tmp_path / "g"
    (root / "icons").mkdir(exist_ok=True)
    (root / "icons" / "deep.svg").write_text(HEAD + _deep_uses(40, 30, 20) + "</svg>\n")
    result = run_cli("validate", str(root), "--no-cache", "--format", "json")
    found = [d for d in diagnostics_json(result.output) if d["code"] == "P008"]
    assert len(found) == 1, found
    assert found[0]["file"].endswith("icons/deep.svg") and found[0]["line"] == 4, found
    assert "once each <use> is expanded" in found[0]["message"]
    assert result.exit_code == 1
