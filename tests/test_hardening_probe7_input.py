"""Findings of the seventh hostile-input probe (issue #33), on content parsing and rendering:
templates, SVG icons and rulebook text (/work/notes/probe7b.md, G1–G5 and two Lows)."""

from __future__ import annotations

import pytest

from tests.starter_games import rulebook_game as _rulebook_game
from toolkit.render import jinja_cache, template_bounds

LIMIT = jinja_cache.TemplateLimitError
M = 2**61 - 1  # Python hashes an integer as its value modulo this number


def _render(source: str) -> str:
    sandbox = jinja_cache.CachedSandbox(keep_trailing_newline=False)
    return sandbox.render(sandbox.template(source, "probe7"), {})


@pytest.mark.parametrize(
    "call",
    [
        "s.strip(c)",
        "s.lstrip(c)",
        "s.rstrip(c)",
        "s|trim(c)",
        "s|trim(chars=c)",
        "s.rfind(n)",
        "s.rindex(n)",
        "s.rsplit(n)",
        "s.rsplit(sep=n)",
        "s.rpartition(n)",
        "s.encode().rfind(n.encode())",
    ],
)
def test_calls_that_compare_a_text_with_every_character_of_another_are_sized(call):
    # G1: `strip(chars)` looks every character up in `chars` (10⁶ by 10⁶: 64 s in validate);
    # G2: reverse searches have no linear fallback (400,000 by 200,000: 1:42)
    source = (
        '{% set s = "a"*40000 %}{% set c = "y"*999 ~ "a" %}{% set n = "ab" ~ "a"*998 %}'
        f"{{{{ ({call})|length }}}}"
    )
    with pytest.raises(LIMIT, match="steps"):
        _render(source)


def test_ordinary_strips_and_reverse_searches_still_work():
    source = (
        '{% set s = " a-b-c " %}{{ s.strip() }}|{{ s.strip(" a") }}|{{ s|trim }}|'
        '{{ s|trim(" c") }}|{{ s.rfind("-") }}|{{ s.rsplit("-", 1) }}|{{ s.rpartition("b") }}'
    )
    assert _render(source) == ("a-b-c|-b-c|a-b-c|a-b-|4|[' a-b', 'c ']|(' a-', 'b', '-c ')")


@pytest.mark.parametrize(
    "source",
    [
        "{{ r|unique|list|length }}",
        "{{ r|list|unique|list|length }}",
        "{{ ks|unique(attribute='k')|list|length }}",
        "{{ {}.fromkeys(r)|length }}",
        "{{ dict(r|batch(2))|length }}",
        "{% set d = {} %}{{ d.update(r|batch(2)) }}",
        "{% set d = {} %}{{ d.update(dict.fromkeys(r)) if false }}{{ dict.fromkeys(r) }}",
        "{% set d = {}.fromkeys(r|list|batch(30)|first) %}{{ (d.keys() - r)|length }}",
    ],
)
def test_sets_and_dicts_of_values_with_one_hash_are_refused(source):
    # G3: multiples of 2**61 - 1 hash alike; `|unique` over 20,000 of them took 98 s and
    # `{}.fromkeys` 19 s (n² comparisons in C, out of the deadline's reach)
    prelude = (
        f"{{% set r = range(0, 80*{M}, {M}) %}}{{% set ks = [] %}}"
        "{% for x in r %}{% if ks.append({'k': x}) %}{% endif %}{% endfor %}"
    )
    with pytest.raises(LIMIT, match="one hash"):
        _render(prelude + source)


def test_sets_and_dicts_of_ordinary_values_still_work():
    source = (
        "{{ [3, 1, 3, 2, 1]|unique|list }} {{ ['a', 'A', 'b']|unique|list }}"
        " {{ [{'k': 1}, {'k': 1}, {'k': 2}]|unique(attribute='k')|list|length }}"
        " {{ dict([[1, 2]]) }} {{ dict({1: 2}) }} {{ dict(a=1) }} {{ {}.fromkeys('ab') }}"
        " {{ ({'a': 1, 'b': 2}.keys() - ['a'])|list }} {{ 5 - 3 }} {{ 2.5 - 1 }}"
        f" {{{{ range(0, 32*{M}, {M})|unique|list|length }}}}"
        " {{ ([7] * 50000)|unique|list }}"
    )
    assert _render(source) == (
        "[3, 1, 2] ['a', 'b'] 2 {1: 2} {1: 2} {'a': 1} {'a': None, 'b': None} ['b'] 2 1.5 32 [7]"
    )


def test_the_hash_guard_counts_different_values_only():
    template_bounds.guard_hashed([M] * 1000 + [0] * 1000)  # equal values: found at once
    with pytest.raises(LIMIT):
        template_bounds.guard_hashed([k * M for k in range(template_bounds.MAX_SAME_HASH + 1)])


@pytest.mark.parametrize("sign", ["&", "< ", "a >"])
def test_ampersands_and_angle_brackets_count_as_inline_markup(run_cli, tmp_path, sign):
    # G5: reportlab's parser starts a fragment at each escaped `&`, `<` or `>`: 20 paragraphs
    # of 12,000 `&#x ` (960 kB) ran past 88 s of CPU and 983 MB in build, validate clean
    paragraph = f"{sign}x " * 2600
    game = _rulebook_game(run_cli, tmp_path, f"# T\n\n{paragraph}\n\n{paragraph}\n")
    result = run_cli("validate", str(game), "--no-cache", "--select", "R010")
    assert result.exit_code == 1
    assert "rulebook/en.md:5:" in result.output and "R010" in result.output
    assert "inline markup" in result.output


def test_a_few_ampersands_and_quotes_are_fine(run_cli, tmp_path):
    text = "# T\n\n> A quote & more.\n>\n> > Nested, 2 < 3 > 1.\n\nA & B, <x> and a -> b.\n"
    game = _rulebook_game(run_cli, tmp_path, text)
    result = run_cli("validate", str(game), "--no-cache", "--select", "R010")
    assert result.exit_code == 0, result.output


SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">'


def _icon(tmp_path, body: str):
    icons = tmp_path / "icons"
    icons.mkdir(exist_ok=True)
    icon = icons / "x.svg"
    icon.write_text(f"{SVG_OPEN}\n{body}</svg>\n")
    return icon, icons


@pytest.mark.parametrize("position", ['x="0 1"', 'y="1,2"', 'dx="1 1 1"', 'dy="0 0"'])
def test_a_text_placed_character_by_character_is_counted_by_its_characters(tmp_path, position):
    # G4: a position holding a list makes svglib draw (and style) a shape per character:
    # 80,000 characters took 43 s to read, a 1 MB icon would take minutes and 1.5 GB
    from toolkit.render import svg_guard

    icon, icons = _icon(tmp_path, f"<text {position}>{'a' * 5000}</text>")
    refusal = svg_guard.check(icon, icons)
    assert refusal is not None and "5,000 pieces" in refusal.message
    assert (refusal.line, refusal.col) == (2, 1)
    inner = f'<text x="0" y="50">{"a" * 5000}<tspan {position}>b</tspan></text>'
    icon, icons = _icon(tmp_path, inner)
    assert svg_guard.check(icon, icons) is not None


def test_many_tspans_count_as_the_pieces_they_draw(tmp_path):
    # probe 6, L5: 1,990 `<tspan dx="1">` (under the element bound) took 5.4 s to read
    from toolkit.render import svg_guard

    spans = '<tspan dx="1">a</tspan>' * 1990
    icon, icons = _icon(tmp_path, f'<rect width="1" height="1"/>\n<text y="50">{spans}</text>')
    refusal = svg_guard.check(icon, icons)
    assert refusal is not None and "pieces of text" in refusal.message
    assert (refusal.line, refusal.col) == (3, 1)


def test_ordinary_texts_in_icons_are_fine(tmp_path):
    from toolkit.render import svg_guard

    body = (
        '<text x="0 10 20" y="50">abc</text>'
        f'<text x="5" y="9">{"long text " * 500}<tspan dx="2">world</tspan> !</text>'
    )
    icon, icons = _icon(tmp_path, body)
    assert svg_guard.check(icon, icons) is None


@pytest.mark.parametrize(
    ("opening", "closing", "depth"),
    [
        ("{% for a in [1] %}", "{% endfor %}", template_bounds.MAX_LOOPS_NESTED),
        ("{% if true %}", "{% endif %}", template_bounds.MAX_BLOCKS_NESTED),
        ("{% with %}", "{% endwith %}", template_bounds.MAX_BLOCKS_NESTED),
    ],
)
def test_tags_nested_deeper_than_python_compiles_are_a_limit_at_their_line(opening, closing, depth):
    # probe 6, L2: 25 nested `for` were a SyntaxError, 200 nested `if` an IndentationError,
    # at a line of the generated Python code
    def nested(n: int) -> str:
        return "\n".join([opening] * n) + "x" + closing * n

    assert _render(nested(depth)) == "\n" * (depth - 1) + "x"
    for n in (depth + 1, 200):
        with pytest.raises(LIMIT, match="nested too deep") as caught:
            _render(nested(n))
        assert caught.value.lineno == depth + 1


def test_a_rulebook_nesting_too_deep_is_r010_at_its_line(run_cli, tmp_path):
    loops = "\n".join(["{% for a in [1] %}"] * 25) + "x" + "{% endfor %}" * 25
    game = _rulebook_game(run_cli, tmp_path, f"# T\n\n{loops}\n")
    result = run_cli("validate", str(game), "--no-cache", "--select", "R010")
    assert result.exit_code == 1
    assert "rulebook/en.md:19:1: R010" in result.output and "nested too deep" in result.output
