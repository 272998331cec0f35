"""Probe 30: the SVG icon check's own cost (H1) and CSS `:has()` (H2), each with its test."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'


def _icon(tmp_path: Path, body: str, tail: str = "") -> tuple[Path, Path]:
    icons = tmp_path / "game" / "icons"
    icons.mkdir(parents=True, exist_ok=True)
    (icons / "x.svg").write_text(f"{SVG_OPEN}{body}</svg>{tail}")
    return icons / "x.svg", icons


def test_the_depth_of_an_icon_is_found_once_however_many_style_elements(tmp_path, monkeypatch):
    # H1: the depth was found again at each <style>: 12,400 empty ones (99 kB) took 29 s
    from toolkit.render import svg_guard

    calls = []
    depth = svg_guard._depth
    monkeypatch.setattr(svg_guard, "_depth", lambda root: calls.append(1) or depth(root))
    body = "<style/>" * 300 + "<style>.a { fill: red }</style>" * 3 + '<rect width="1" height="1"/>'
    assert svg_guard.check(*_icon(tmp_path, body)) is None
    assert len(calls) == 1


def test_the_rules_of_several_style_elements_are_counted_together(tmp_path, monkeypatch):
    # each <style> was held to the bound alone, while svglib matches all their rules
    from toolkit.render import svg_guard

    monkeypatch.setattr(svg_guard, "MAX_MATCHING", 50)
    shapes = '<rect width="1" height="1"/>' * 6
    one = "<style>.a, .b, .c { fill: red }</style>"  # 3 steps on 8 elements: 24
    assert svg_guard.check(*_icon(tmp_path, one + shapes)) is None
    refusal = svg_guard.check(*_icon(tmp_path, one * 2 + shapes))  # 6 × 9 elements: 54
    assert refusal is not None and "more than 50 steps to match" in refusal.message
    assert (refusal.line, refusal.col) == (1, 1 + len(SVG_OPEN) + len(one))


def test_the_column_of_a_refusal_is_found_in_one_walk(tmp_path):
    # H1: a walk from the root for each <g> before it on its line: a one-line icon of 25,000
    # <g/> then a refused <g> took 6.8 s; 100,000 would take minutes, one walk milliseconds
    # (a generous limit, in a process of its own)
    import subprocess

    from toolkit.render import svg_guard

    many = "<g/>" * 1_900  # under MAX_EXPANDED: more are refused at their count (probe 44)
    path, icons = _icon(tmp_path, f'{many}<g transform="{"rotate(1) " * 120}"/>')
    text = path.read_text()
    where = svg_guard.column(text, svg_guard.parse(text.encode())[-1])
    assert where == (1, len(SVG_OPEN) + len(many) + 1)
    refusal = svg_guard.check(path, icons)
    assert refusal is not None and "a transform of 1,200 characters" in refusal.message
    assert (refusal.line, refusal.col) == where
    code = (
        "from toolkit.render import svg_guard\n"
        f"text = {SVG_OPEN!r} + '<g/>' * 100_000 + '<g id=\"x\"/></svg>'\n"
        "assert svg_guard.column(text, svg_guard.parse(text.encode())[-1])[1] > 400_000\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_the_column_counts_only_the_elements_of_its_tag_on_its_line(tmp_path):
    from toolkit.render import svg_guard

    text = f'{SVG_OPEN}<g/>\n<rect/><g/><g><g id="x"/></g></svg>'
    root = svg_guard.parse(text.encode())
    target = root.find('.//{http://www.w3.org/2000/svg}g[@id="x"]')
    assert svg_guard.column(text, target) == (2, 15)
    assert svg_guard.column(text, root) == (1, 1)


NESTED = "<g>" * 6 + '<rect width="1" height="1"/>' + "</g>" * 6


@pytest.mark.parametrize(
    "selector",
    [
        "g:has(g:has(x))",  # nested: each level walks every subtree again (985 B took 45 s)
        "rect:has(~rect:has(~x))",  # following siblings (8.5 kB took 21 s)
        "g:HAS(x)",
        r"g:h\61s(x)",  # an escape, read as `has` by tinycss2
        ".a, g:is(.b, :has(> x))",  # inside another pseudo-class
    ],
)
def test_a_style_selecting_with_has_is_refused_at_the_style(tmp_path, selector):
    # H2: svglib's cssselect2 walks each element's descendants (or following siblings) for
    # `:has()`, nested per level, while the bound counted it as one step
    from toolkit.render import svg_guard

    style = f"<style>\n{selector} {{ fill: red }}</style>"
    refusal = svg_guard.check(*_icon(tmp_path, NESTED + style))
    assert refusal is not None and "uses :has(…) in a selector" in refusal.message
    assert (refusal.line, refusal.col) == (1, 1 + len(SVG_OPEN) + len(NESTED))


@pytest.mark.parametrize(
    "css",
    [
        "g rect, .has, #has, [has] { fill: red }",
        "/* g:has(x) */ rect { fill: red }",  # a comment svglib skips
        "@media print { g:has(x) { fill: red } } rect { fill: red }",  # an at-rule it skips
        "rect { fill: red; content: ':has(x)' }",  # a value, not a selector
    ],
)
def test_a_style_without_has_in_a_selector_is_drawn(tmp_path, css):
    from toolkit.render.svg_icons import load_svg

    path, icons = _icon(tmp_path, f"<style>{css}</style>{NESTED}")
    icon, problem = load_svg(path, "icons/x.svg", icons)
    assert problem is None and icon is not None


def test_an_icon_using_has_is_a_finding_of_validate(tmp_path):
    from toolkit.render.svg_icons import load_svg

    # 120 nested <g> and three :has (985 bytes): validate clean after 45 s; 30 here
    style = "<style>g:has(g:has(g:has(x))) { fill: red }</style>"
    path, icons = _icon(tmp_path, style + "<g>" * 30 + "<rect/>" + "</g>" * 30)
    icon, problem = load_svg(path, "icons/x.svg", icons)
    assert icon is None and problem is not None
    assert ":has(…)" in problem.message and problem.span.line == 1


RECTS = '<rect width="1" height="1"/>' * 300


@pytest.mark.parametrize(
    ("selector", "said"),
    [
        ("x ~ rect ~ rect ~ rect", "the ~ combinator"),  # 8.5 kB: 19.4 s, accepted (probe 31)
        ("g:not(x ~ rect)", "the ~ combinator"),
        ("rect:nth-last-child(2n of rect:nth-last-child(2n of x))", ":nth-last-child(… of …)"),
        ("rect:NTH-CHILD(odd OF .a)", ":nth-child(… of …)"),
        (":nth-of-type(n):nth-of-type(n)", ":nth-of-type"),  # probe 32: 46 kB took 50 s
        ("rect:last-of-type", ":last-of-type"),
    ],
)
def test_a_style_walking_siblings_is_refused(tmp_path, selector, said):
    # probe 31 H1: cssselect2 walks every earlier sibling for `~`, and every sibling for
    # `:nth-…(… of S)`, nested per level, while the bound counted a combinator by depth
    from toolkit.render import svg_guard

    refusal = svg_guard.check(*_icon(tmp_path, f"<style>{selector} {{ fill: red }}</style>{RECTS}"))
    assert refusal is not None and f"uses {said} in a selector" in refusal.message


def test_a_selector_a_comment_hides_from_a_count_on_the_text_is_counted(tmp_path):
    # probe 31 H1: `/*{*/ x g g g g /*}*/` looked like a declaration block to the count
    from toolkit.render import svg_guard

    style = "<style>/*{*/ x g g g g /*}*/ { fill: red }</style>"
    refusal = svg_guard.check(*_icon(tmp_path, style + "<g>" * 120 + "<rect/>" + "</g>" * 120))
    assert refusal is not None and "steps to match" in refusal.message


def test_plain_sibling_and_nth_selectors_are_drawn(tmp_path):
    from toolkit.render.svg_icons import load_svg

    css = "rect + rect, rect:nth-child(2n+1), rect:nth-last-child(odd) { fill: red }"
    path, icons = _icon(tmp_path, f"<style>{css}</style>{RECTS[: 28 * 7]}")
    icon, problem = load_svg(path, "icons/x.svg", icons)
    assert problem is None and icon is not None


def test_a_selector_nested_past_its_limit_is_refused_not_a_fault(tmp_path):
    # probe 32 M1: 1,500 nested `:not(` made the count's serializing a RecursionError (E008)
    from toolkit.render import svg_guard

    selector = ":not(" * 1500 + "x" + ")" * 1500
    refusal = svg_guard.check(*_icon(tmp_path, f"<style>{selector} {{ fill: red }}</style>"))
    assert refusal is not None and "steps to match" in refusal.message


def _valued(
    tmp_path: Path, selector: str, count: int, value: str, rects: int, inside: str = ""
) -> tuple[Path, Path]:
    css = ", ".join([selector] * count)
    shapes = f'<rect a="{value}" width="1" height="1"/>' * rects
    if inside:
        shapes = f'<g a="{value}">{inside * rects}</g>'
    return _icon(tmp_path, f"<style>{css} {{ fill: red }}</style>{shapes}")


# Each took seconds for svglib to read before it was refused (main at fd9045b, CPU):
@pytest.mark.parametrize(
    ("selector", "count", "value", "rects", "inside"),
    [
        ("[a~=b]", 2_400, "a " * 4_000, 10, ""),  # probe 32 L1 (2,800 of them, 100 kB): 6.4 s
        ("rect[a~=b i]", 1_000, "a " * 15_000, 1, ""),  # 1.3 s
        ("[a|=b i]", 1_500, "É" * 200_000, 1, ""),  # lowered twice: 500,000 `É` took 7.8 s
        (":not([a~=b])", 300, "a " * 4_000, 60, ""),  # 5.8 s
        ("[a~=b] > rect", 50, "a " * 4_000, 200, "<rect/>"),  # the parent's value: 3.3 s
    ],
)
def test_attribute_selectors_count_the_values_they_read(
    tmp_path, selector, count, value, rects, inside
):
    # probe 32 L1: cssselect2 reads (and for `~=` splits) the attribute's whole value for
    # each selector at each element; the count took each selector as one step
    from toolkit.render import svg_guard

    path, icons = _valued(tmp_path, selector, count, value, rects, inside)
    refusal = svg_guard.check(path, icons)
    assert refusal is not None, selector
    if "steps to match" not in refusal.message:  # many selectors: refused by their count first
        assert "read long attribute values" in refusal.message
        assert f"(up to {len(value):,} characters)" in refusal.message
    assert (refusal.line, refusal.col) == (1, 1 + len(SVG_OPEN))


def test_attribute_selectors_on_short_values_are_drawn(tmp_path):
    from toolkit.render.svg_icons import load_svg

    css = '[a~=b], rect[a|=x], [a="a b"], g [a*=c] > rect, :not([a$=z]) { fill: red }'
    shapes = '<g a="c"><rect a="a b" width="1" height="1"/></g>' * 200
    path, icons = _icon(tmp_path, f"<style>{css}</style>{shapes}")
    icon, problem = load_svg(path, "icons/x.svg", icons)
    assert problem is None and icon is not None
