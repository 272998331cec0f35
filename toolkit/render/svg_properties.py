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


def long_property(element: Any) -> tuple[str, int] | None:
    """The first property (name, length) of `element` longer than `MAX_PROPERTY`: in its
    attributes, its `style=""` or, for a `<style>` element, its rules; None if none is."""
    for name, value in _properties(element):
        if name in INHERITED and len(value) > MAX_PROPERTY:
            return name, len(value)
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
        yield from _rule_declarations(element.text)


def _declarations(style: str) -> Iterator[tuple[str, str]]:
    """A `style=""` read as svglib reads it: `name: value` pieces between semicolons."""
    for piece in style.split(";"):
        name, _, value = piece.partition(":")
        yield name.strip().lower(), value.strip()


def _rule_declarations(css: str) -> Iterator[tuple[str, str]]:
    """The declarations of every rule of a `<style>`, as tinycss2 reads them for svglib."""
    import tinycss2

    rules = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    for rule in rules:
        if rule.type != "qualified-rule":
            continue
        for item in tinycss2.parse_declaration_list(
            rule.content, skip_comments=True, skip_whitespace=True
        ):
            if item.type == "declaration":
                yield item.lower_name, tinycss2.serialize(item.value).strip()
