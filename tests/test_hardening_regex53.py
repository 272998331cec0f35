"""Patterns run on content that scanned the same characters again from each start (probe 36
H3 and M1, and the ones like them): each scan is linear now, and finds what it found."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.checks import rulebook
from toolkit.checks.translation import typography
from toolkit.content import source
from toolkit.content.sheets import workbook
from toolkit.i18n import markdown_units
from toolkit.render import markdown_flow, rulebook_source, template_bounds

LIMIT = 0.3  # CPU seconds; each input took seconds before (noted at each)


def _cpu(call, *args):
    start = time.process_time()
    result = call(*args)
    return time.process_time() - start, result


def test_an_unfinished_string_literal_is_scanned_once():
    # probe 36 H3: `{% set x = '\'\'…⏎' %}` (88 kB) took `i18n status` 52 s; 12,000 pairs 2.5 s
    text = "Intro.\n\n{% set x = '" + "\\'" * 12_000 + "\n' %}\n\nThe end.\n"
    spent, units = _cpu(markdown_units.segment, text)
    assert spent < LIMIT
    assert [u.text for u in units] == ["Intro.", "The end."]


def test_string_literals_are_still_found():
    text = '{% set m = {\'a\': \'le plus de cartes\', "b": "l\'autre \\"c\\" d"} %}\n\nText.\n'
    strings = [(u.text, u.quote) for u in markdown_units.segment(text) if u.kind == "string"]
    assert strings == [("le plus de cartes", "'"), ('l\'autre "c" d', '"')]


_OLD_STRING = re.compile(r"'((?:[^'\\\n]|\\.)*)'|\"((?:[^\"\\\n]|\\.)*)\"")


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="'\"\\\na é", max_size=40))
def test_the_literal_finder_finds_what_the_pattern_found(code):
    old = [
        (m.start(), m.group()[0], m.group(1) if m.group(1) is not None else m.group(2))
        for m in _OLD_STRING.finditer(code)
    ]
    assert list(markdown_units._literals(code)) == old


@pytest.mark.parametrize(
    "line",
    [
        "![a](" + " " * 20_000 + "x",  # probe 36 M1: 96 kB took validate 12 s; this 1 s
        "![a]( " * 8_000 + "x",  # each unclosed image scanned to the line's end: 3 s
    ],
    ids=["spaces", "many"],
)
def test_unclosed_images_are_scanned_in_linear_time(line):
    text = f"# Rules\n\n{line}\n\n![b](b.png)\n"
    spent, found = _cpu(lambda: list(rulebook._images("rulebook/en.md", text)))
    assert spent < LIMIT
    assert [d.span.line for d in found] == [5]


_OLD_IMAGE = re.compile(r"!\[((?:(?!!\[)[^\]\n])*)\]\(\s*<?([^)\s>]*+)>?[^)\n]*\)")


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(["![", "!", "[", "]", "(", ")", "<", ">", " ", "a", "\t"])))
def test_the_image_pattern_finds_what_it_found(parts):
    line = "".join(parts)
    old = [(m.span(), m.groups()) for m in _OLD_IMAGE.finditer(line)]
    new = [(m.span(), m.groups()) for m in rulebook._IMAGE.finditer(line, 0, line.rfind(")") + 1)]
    assert new == old
    assert [(m.span(), m.groups()) for m in rulebook._IMAGE.finditer(line)] == old


def test_a_long_run_of_spaces_is_counted_as_markup_in_linear_time():
    # 20 lines of 48,000 spaces (966 kB) and 5,400 `*` in six words: validate 26 s; this 1.8 s
    text = ("\n\n" + " " * 40_000 + "x\n") * 2 + "\n\n" + ("x" + "*" * 900 + "x ") * 6 + "\n"
    spent, _ = _cpu(rulebook_source._refuse_much_markup, text)
    assert spent < LIMIT
    with pytest.raises(rulebook_source.RulebookError, match="hard line breaks"):
        rulebook_source._refuse_much_markup("a" + "  \nb" * 201 + "&" * 5_000)


@pytest.mark.parametrize(
    ("check", "text"),
    [
        (typography.english_fixes, " " * 30_000 + "x;"),  # 4 s
        (typography.spanish_fixes, " " * 30_000 + "x?"),  # 5 s
    ],
    ids=["english", "spanish"],
)
def test_spaces_before_a_mark_are_found_in_linear_time(check, text):
    spent, fixes = _cpu(check, text)
    assert spent < LIMIT
    assert fixes == []
    assert [
        (f.start, f.end) for f in check("a  ; b" if check is typography.english_fixes else "a  ? b")
    ] == [(1, 3)]


def test_a_cell_that_is_not_all_figures_is_told_in_linear_time():
    spent, found = _cpu(markdown_flow.NUMBERISH.match, "1 " * 20_000 + "a")  # 3.7 s
    assert spent < LIMIT and found is None
    assert markdown_flow.NUMBERISH.match("1 – 2,5 %") and not markdown_flow.NUMBERISH.match("– %")


def test_a_table_rule_with_a_long_run_of_spaces_is_told_in_linear_time():
    spent, found = _cpu(rulebook_source._TABLE_RULE.search, "|-" + " " * 30_000 + "x|")  # 2.5 s
    assert spent < LIMIT and found is None
    assert rulebook_source._TABLE_RULE.search("a\n| :-- | --: |  \nb").group() == "| :-- | --: |  "


def test_a_long_attribute_name_without_a_value_is_read_in_linear_time():
    spent, found = _cpu(lambda: list(workbook._ATTR.finditer(b"a" * 20_000)))  # 2.9 s
    assert spent < LIMIT and found == []
    found = [m.group(1) for m in workbook._ATTR.finditer(b"Id=\"rId1\" x:Target = 'a.xml'")]
    assert found == [b"Id", b"x:Target"]


def test_unclosed_percent_names_are_read_in_linear_time():
    # `'%(' * 15000` scanned the rest of the template from each `%(`: 2 s (1 MB: hours);
    # no `(` is balanced: CPython fails on the first key, having printed nothing
    start = time.process_time()
    template_bounds.check_percent("%(" * 15_000, {})
    assert time.process_time() - start < LIMIT
    with pytest.raises(ValueError, match="incomplete format key"):
        ("%(" * 15_000) % {}  # noqa: B018
    fields = [f.name for f in template_bounds._percent_fields("%(a)s %(" * 3)]
    assert fields == ["a"]  # then "incomplete format key"


class _Keys(dict):  # type: ignore[type-arg]
    """A mapping that answers every key with "" and notes the keys asked, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def __getitem__(self, key: str) -> str:
        self.asked.append(key)
        return ""


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="%()a5.-* \n", max_size=30))
def test_the_percent_fields_name_the_keys_cpython_reads(template):
    """Probe 37 H3: `%((a))s` names the key `(a)` (its parentheses balanced); a pattern
    reading to the first `)` named `(a`, which the mapping lacked."""
    names = [f.name for f in template_bounds._percent_fields(template) if f.name is not None]
    keys = _Keys()
    try:
        template % keys  # noqa: B018
    except (ValueError, TypeError):  # the failing field's key may be read; none after it
        common = min(len(keys.asked), len(names))
        assert keys.asked[:common] == names[:common] and len(keys.asked) <= len(names) + 1
    else:
        assert keys.asked == names


def test_a_key_in_parentheses_is_weighed_as_its_value():
    with pytest.raises(template_bounds.TemplateLimitError):
        template_bounds.check_percent("%((a))s" * 40, {"(a)": "x" * 100_000})
    with pytest.raises(template_bounds.TemplateLimitError):  # a key the mapping lacks: all
        template_bounds.check_percent("%(b)s" * 40, {"a": "x" * 100_000})
    template_bounds.check_percent("%((a))s and %(b)s", {"(a)": "x", "b": "y" * 1_000})


def test_a_field_of_no_name_beside_named_ones_is_weighed_as_the_whole_mapping():
    # probe 38 H1: `'%a%(a)s' % {'a': 1, 'b': [s] * 200}` printed the mapping at `%a`,
    # counted nowhere: 104 bytes of rulebook reached 4 GB
    with pytest.raises(template_bounds.TemplateLimitError):
        template_bounds.check_percent("%a%(a)s", {"a": 1, "b": ["x" * 10_000] * 200})
    template_bounds.check_percent("%%%(a)s", {"a": 1, "b": ["x" * 10_000] * 200})


def test_an_escaping_conversion_is_weighed_as_it_prints():
    # probe 37 L1: `%a` writes 😀 as `\U0001f600`, ten characters for one
    with pytest.raises(template_bounds.TemplateLimitError):
        template_bounds.check_percent("%a", ("😀" * 200_000,))
    with pytest.raises(template_bounds.TemplateLimitError):
        template_bounds.check_percent("%(x)r", {"x": "😀" * 200_000})
    template_bounds.check_percent("%s", ("😀" * 200_000,))


def test_line_breaks_in_comments_are_blanked_in_linear_time(tmp_path: Path):
    # a NEL in the file and a line of 20,000 ` #` without one: 4 s
    path = tmp_path / "deck.yaml"
    path.write_text("a: 1  # x\x85y\nb: 2" + " #" * 20_000 + "\n", encoding="utf-8")
    spent, (document, problems) = _cpu(source.load_document, path, "deck.yaml")
    assert spent < 2 * LIMIT  # reading and parsing the 40 kB included
    assert problems == [] and document is not None


_OLD_COMMENT_BREAK = re.compile("(?:^|(?<=[ \t]))#[^\n]*[\x85\u2028\u2029][^\n]*", re.MULTILINE)


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="# \t\n\x85\u2028\u2029a", max_size=30))
def test_comment_breaks_are_blanked_where_they_were(text):
    old = _OLD_COMMENT_BREAK.sub(lambda m: re.sub("[\x85\u2028\u2029]", " ", m.group()), text)
    assert source._blank_comment_breaks(text) == old
