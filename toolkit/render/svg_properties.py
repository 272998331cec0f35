"""The style properties svglib reads again for every shape they reach, bounded in length.

svglib styles each shape by looking up a dozen properties on the shape and then on each of its
ancestors (`findAttr`), and converts the value it finds (strips it, splits a dash array,
parses a colour or a length) once per shape. A property written once on a group, in a
`style=""` or in a `<style>` rule therefore costs its length times the shapes it reaches: a
37,000-number dash array on one `<g>` of 1,000 paths (95 kB) took validate 54 s and 1.9 GB,
the same list in a CSS class on 1,990 paths 31 s (probe 52). Real icons write a few
characters in each (a colour, a width, a dash of four numbers, a font list), so each value is
bounded where it is written, whatever reaches it.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any

MAX_PROPERTY = 128
"""Characters of one value of a property svglib looks up per shape (`INHERITED`): a dash
array of ~60 numbers, a font list of half a dozen names."""

INHERITED = frozenset(
    (
        "fill",
        "fill-opacity",
        "fill-rule",
        "stroke",
        "stroke-width",
        "stroke-opacity",
        "stroke-linejoin",
        "stroke-linecap",
        "stroke-dasharray",
        "stroke-dashoffset",
        "font-family",
        "font-weight",
        "font-style",
        "font-size",
        "text-anchor",
        "color",
        "visibility",
        "clip-rule",
        "opacity",
    )
)
"""What svglib looks up on a shape and its ancestors (`applyStyleOnShape`, text and clip
styling), each converted again for every shape."""


MAX_RULE_DECLARATIONS = 32
"""Declarations of one `<style>` rule: svglib writes each onto every element the rule
matches, and each write looks through the element's attributes so far, so a rule of 2,400
short declarations matched by 1,990 paths (80 kB) took validate 22.8 s (probe 54-7). An
exported icon's classes hold one to a few each."""


MAX_STYLE_DECLARATIONS = 96
"""Declarations of one `style=""`, each name once: svglib sets each as an attribute of the
element, and each set looks through the element's attributes so far, so one path of 50,000
short declarations (390 kB) took validate 22.3 s (probe 60-9). Inkscape writes up to ~60 on
a shape (the GNOME icons hold 59), an exporter a few."""

MAX_STYLE_NAMES = 64
"""Names the rules of one file's <style> elements set, each counted once, as svglib keys
them (case kept): svglib writes every declaration of every rule that matches an element
onto it, and each write looks through the element's attributes so far, so rules setting
6,240 names on 100 paths (two icons of 88 kB) took validate 11 s (probe 60-8). A real
stylesheet sets a few properties (fill, stroke, its width, an opacity, a font: < 20)."""


def style_declarations(style: str) -> int:
    """The attributes a `style=""` sets, as svglib's `parseMultiAttributes` splits it: the
    names of the pieces between semicolons that are not blank, each once (a name written
    again costs its piece, as its characters are counted, not a write)."""
    return len({piece.split(":", 1)[0].strip() for piece in style.split(";") if piece.strip()})


def property_problem(element: Any) -> str | None:
    """Why `element`'s style properties cost svglib too much, or None: the first property
    svglib looks up per shape (`INHERITED`) longer than `MAX_PROPERTY`, in its attributes,
    its `style=""` or, for a `<style>` element, its rules; or a rule of more than
    `MAX_RULE_DECLARATIONS` declarations; or a `style=""` svglib cannot read, or of more
    than `MAX_STYLE_DECLARATIONS`."""
    unread = _unread(element)
    if unread is not None:
        return (
            f"its style holds {unread!r}, which svglib cannot read: each declaration between"
            " semicolons is one name, a colon and its value (`fill: red`)"
        )
    style = element.get("style")
    if style and style_declarations(style) > MAX_STYLE_DECLARATIONS:
        return (
            f'its style="" sets {style_declarations(style):,} different properties (more than'
            f" {MAX_STYLE_DECLARATIONS}): svglib sets each as an attribute of the element;"
            " keep only the properties it draws with (fill, stroke, …)"
        )
    for name, value in _properties(element):
        if name in INHERITED and len(value) > MAX_PROPERTY:
            return (
                f"its {name} is {len(value):,} characters long (more than {MAX_PROPERTY:,}):"
                " svglib reads it again for every shape it reaches; shorten it"
            )
    tag = element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""
    if tag == "style" and element.text:
        # counted as svglib keys them: `a:;A:;` is two attributes written
        most = max((len(rule) for rule in rule_declarations(element.text)), default=0)
        if most > MAX_RULE_DECLARATIONS:
            return (
                f"a rule of its <style> holds {most:,} declarations (more than"
                f" {MAX_RULE_DECLARATIONS}): svglib writes each onto every element the rule"
                " matches; split it, or set fewer properties"
            )
    return None


def _unread(element: Any) -> str | None:
    """The first declaration of `element`'s `style=""` that is not one `name: value`
    (svglib splits each at its colons into exactly two, and fails on the whole icon
    otherwise: `fill:red:blue` said only "too many values to unpack", at the file's start)."""
    for key, value in element.attrib.items():
        if str(key).rsplit("}", 1)[-1].lower() != "style":
            continue
        for piece in str(value).split(";"):
            piece = piece.strip()
            if piece and piece.count(":") != 1:
                return piece if len(piece) <= 60 else piece[:57] + "..."
    return None


def _properties(element: Any) -> Iterator[tuple[str, str]]:
    for key, value in element.attrib.items():
        name = str(key).rsplit("}", 1)[-1].lower()
        if name == "style":
            yield from _declarations(str(value))
        else:
            yield name, str(value).strip()
    tag = element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""
    if tag == "style" and element.text:
        for rule in _rules(element.text):
            yield from rule.items()


def _declarations(style: str) -> Iterator[tuple[str, str]]:
    """A `style=""` read as svglib reads it: `name: value` pieces between semicolons."""
    for piece in style.split(";"):
        name, _, value = piece.partition(":")
        yield name.strip().lower(), value.strip()


@lru_cache(maxsize=8)
def stylesheet(css: str) -> tuple[Any, ...]:
    """A `<style>`'s rules as tinycss2 reads them (comments and whitespace left out), read
    once: the guard reads an icon's CSS for its selectors and for its declarations (five
    reads an icon, ~2/3 of its work on CSS at `MAX_GAME_STYLE`). Read only: callers copy
    what they keep."""
    import tinycss2

    return tuple(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True))


def _rules(css: str) -> list[dict[str, str]]:
    """The declarations of each rule of a `<style>` (`rule_declarations`), their names in
    lower case."""
    rules = rule_declarations(css)
    return [{name.lower(): value for name, value in rule.items()} for rule in rules]


def rule_declarations(css: str) -> list[dict[str, str]]:
    """The declarations of each rule of a `<style>`, read as svglib's `CSSMatcher` reads
    them: the rule's text split at every `;` and then `:`, whatever quotes or brackets hold
    them (read by CSS's own grammar, `x:"a;stroke-dasharray:…"` was one declaration `x`,
    where svglib applies the dash array: probe 54-1); each name once a rule, case kept, as
    svglib keys them."""
    import tinycss2

    found = []
    for rule in stylesheet(css):
        if not getattr(rule, "prelude", None) or rule.type == "at-rule":
            continue
        pieces = tinycss2.serialize(rule.content).split(";")
        found.append(
            {
                piece.split(":")[0].strip(): piece.split(":")[1].strip()
                for piece in pieces
                if ":" in piece
            }
        )
    return found
