"""What a game's SVG icon may reach and cost, checked before svglib draws it.

svglib follows `href`s to other files (`<image href="x.png">`, `<use href="y.svg#s">`) and
expands `<use>` without a bound on the work; an SVG comes from a game folder, which may be
someone else's. So an icon is read only if it is a regular file of at most `MAX_BYTES`, every
file it references (and every file those reference) resolves inside the game's `icons/`
folder, and its `<use>` elements expand to at most `MAX_EXPANDED` elements. A data: URI and
a same-document `#id` are fine. Each refusal is positioned at the element (line, column).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from toolkit.fileio import read_bounded, real_path
from toolkit.render.svg_properties import (
    MAX_STYLE_NAMES,
    property_problem,
    rule_declarations,
    stylesheet,
)

if TYPE_CHECKING:
    from lxml.etree import _Element

MAX_BYTES = 2 * 1024 * 1024
"""A drawn icon is a few kB; 2 MB leaves room for a detailed one (a 50 MB SVG took 3 GB)."""
MAX_EXPANDED = 2_000
"""Elements an icon draws once every <use> is expanded (a 1.6 kB file of nested <use>
otherwise costs seconds: svglib takes one to two milliseconds per element, and drawing the
icon on each card a quarter of that again: 9,000 rectangles took 14 s to read)."""
MAX_ATTRIBUTES = 64
"""Attributes of one element as written: libxml2 finds an attribute by walking the
element's list, so every walk over them, svglib's and this guard's, costs their square (one
path of 50,000 attributes, 440 kB, took validate 9 s; a group of 20,000 over 1,990 paths 4
s: probe 60-10). A real element has fewer than 20 (the GNOME icons: 21 at most)."""
MAX_USES = 500
"""<use> elements drawn once expanded: svglib's cost grows faster than their number
(1,000 uses of one rectangle take seconds)."""
MAX_FILES = 64
"""Files one icon may pull in, itself included."""
MAX_NUMBERS = 50_000
"""Numbers in the `d` and `points` of an icon's paths and polygons, its files together (a
2 MB path of 400,000 segments took 18 s to read)."""
MAX_STYLE = 20_000
"""Characters of CSS in an icon's <style> elements, its files together (90,000 rules took
34 s to read)."""
MAX_MATCHING = 20_000
"""Selector steps times elements in one file: svglib matches every selector against every
element, 1.5 to 15 µs a step (1,000 rules on 2,000 rectangles took 19 s), and each icon a
game lists is loaded at each check, used or not: at 100,000, a hundred icons of 6 kB took
15 s (probe 38 M2). A real icon has a few rules over tens of shapes. A selector of k
combinators (`g g rect`) may walk depth**k ancestor chains on a failed match, so it counts
that many steps: two selectors of 24 descendant parts on 1,800 rectangles inside 100 nested
groups ran past 2 minutes."""
DECLARATIONS_PER_STEP = 16
"""Declarations of a file's <style> rules that count one matching step for each element
(`MAX_MATCHING`): svglib writes every declaration of a rule onto each element it matches,
0.4 to 0.8 µs a write where a step takes 3 to 10 µs (its first declaration's write
included), so rules of 32 declarations on the elements `MAX_MATCHING` allows took twice to
three times as long to read (probe 60-8). Counted past each rule's first; an exported
icon's classes hold one to five each (at most a quarter of a step more a rule)."""
MAX_NESTED = 20_000
"""Levels of the groups above each element of one file, added up: svglib styles a shape by
looking up a dozen properties on it and on each group above it, ~15 µs a shape a level, so
1,700 paths under 250 nested groups took validate 6.6 s an icon (probe 54-2). 2,000 shapes
8 levels deep (an editor's layers and groups) count 16,000. Counted once every <use> is
expanded, each copy as deep as its <use> (and a clip path's shapes at each reference): 55
<use> of 31 shapes 140 groups deep, a 6 kB file, took validate 3.9 s (probe 60-11)."""
MAX_GAME_NESTED = 50_000
"""Levels of the groups above each element of the icons one game reads, added up
(`MAX_NESTED`, their files together): each icon in icons/ is read at every check, used or
not, so 24 unused icons each just under the bound of one file took validate 6.1 s (probe
60-1), ~0.8 s at this bound. 6,000 elements (`MAX_GAME_ELEMENTS`) 8 levels deep count
48,000."""
SPLIT_CHARS = 256
"""Characters of attribute values that count one matching step for each `[name~=word]`
selector naming them: cssselect2 splits the whole value into words at each match, ~40 ns a
character (2,800 `[a~=b]` on 10 attributes of 8 kB, a 100 kB icon, took 9.2 s to read)."""
READ_CHARS = 1_024
"""The same for the other value selectors (`[name=…]`, `|=`, `^=`, `$=`, `*=`): cssselect2
copies the value out of lxml at each match, and lowers it for `i`, 1 to 10 ns a character
(1,500 `[a|=b i]` on one attribute of 500,000 `É` took 7.8 s to read)."""
MAX_READING = 10_000
"""Steps (SPLIT_CHARS, READ_CHARS) the attribute selectors of one file may spend reading its
attribute values, about 0.1 s: each icon a game lists is loaded at each check, used or not,
and at the whole of `MAX_MATCHING` (~1 s) eleven icons of 85 kB took 9.2 s (probe 37 M3).
The bound is the file's own (an icon's cached verdict depends on it alone)."""
MAX_TRANSFORM = 1_000
"""Characters of one `transform` (or gradient or pattern transform): svglib rebuilds the
whole text at every `(…)` it parses, so a long one costs the square of its length (100,000
`rotate(1)`, 1 MB, took 106 s to read). A real one is a `matrix(…)` or a few steps."""
CLIP_SQUARE = 50
"""A `clip-path` reference costs its clip path's elements, and their square over this: svglib
merges the shapes one at a time into a point list reportlab validates whole at each step
(200 shapes cost 1.2 s a reference, 1,900 about 100 s), so that 300 shapes used once, or
100 used four times, reach `MAX_EXPANDED`."""
POSITIONS = ("x", "y", "dx", "dy")
"""A `<text>` or `<tspan>` attribute that, holding more than one number, makes svglib draw its
text one character at a time: a shape per character, styled on its own (a 1 MB `<text
x="0 1">` would take ~9 minutes and ~1.5 GB to read; 80,000 characters took 43 s)."""
_CLIP_URL = re.compile(r"url\(#([^)]*)\)")  # as svglib reads a clip-path
_SELECTOR_PART = re.compile(r"[^\s{}>+~,]+")
MAX_PIXELS = 16_000_000
"""Pixels of one picture an icon embeds (a data: URI or a PNG/JPEG in icons/), 4000×4000:
a 23 kB SVG with a 12000×12000 palette PNG in a data: URI took 1.6 GB and 6 s to read."""
MAX_UNPAID_PIXELS = 1_000_000
"""Pixels of one picture an icon embeds that its stored bytes do not pay for (beyond
toolkit.render.pictures.PAID_PIXELS_PER_BYTE a byte): an icon prints at most a few cm wide,
and 1000×1000 pixels of flat colour cost 3 MB decoded, whatever the file; a 2.9 kB icon
embedding a 16 M-pixel one-bit PNG (5,500 pixels a byte) took 120 MB to build per icon."""
MAX_PICTURE_BYTES = 64 * 1024 * 1024
"""Bytes of one picture file an icon embeds (its pixels are bounded by `MAX_PIXELS`)."""
MAX_PICTURES_BYTES = 64 * 1024 * 1024
"""Bytes of the picture files one icon embeds, its files together, each file counted once
however many `<image>` name it: each is read whole to be drawn (a 56 kB icon naming one
63 MB picture 1,000 times read it 1,000 times: 128 s of validate)."""

Cost = tuple[int, int, int]
"""Elements drawn, <use> elements expanded and pixels of the pictures embedded: svglib and
reportlab decode a picture again at every <image> and every <use> of one (a 2 kB PNG of
16 M pixels drawn 200 times from a 13 kB icon took minutes to read), so the pixels of all
the pictures one icon draws, once expanded, stay within `MAX_PIXELS` together."""

Levels = tuple[int, int, int, int]
"""Elements an element draws (itself included) once every <use> is expanded and the levels
of their groups below it, added up; and the same for what it draws besides its children (a
<use>'s copies, a clip path's shapes, an other file's elements, a text's pieces): svglib
styles each copy through every group above its <use> (`MAX_NESTED`)."""

HREFS = ("{http://www.w3.org/1999/xlink}href", "href")
_DATA_IMAGE = re.compile(r"^data:image/(jpe?g|png);base64")  # what svglib decodes
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")


@dataclass(frozen=True)
class Refusal:
    """Why an SVG is not drawn, at which file, line and column."""

    path: Path
    line: int
    col: int
    message: str


def parse(data: bytes) -> _Element:
    """The root element: no entities resolved, no network, no DTD (raises XMLSyntaxError)."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    return etree.fromstring(data, parser=parser)


def read(path: Path, icons: Path | None = None) -> bytes:
    """The file's bytes; raises OSError for a file that is not regular (or, with `icons`,
    not inside that folder once opened), ValueError for one over `MAX_BYTES`."""
    data = read_bounded(path, MAX_BYTES, inside=icons)
    if len(data) > MAX_BYTES:
        raise ValueError(f"the file is larger than the limit of {MAX_BYTES:,} bytes for an SVG")
    return data


def column(text: str, element: _Element) -> tuple[int, int]:
    """Line and column of the element's start tag (lxml knows only the line)."""
    from lxml import etree

    line = element.sourceline or 1
    name = etree.QName(element).localname
    tag = f"{element.prefix}:{name}" if element.prefix else name
    # the elements of its tag on its line before it, in one walk up to it (a walk from the
    # root for each such element took 6.8 s for a one-line icon of 25,000 <g>)
    before = 0
    for other in element.getroottree().iter(str(element.tag)):
        if other is element:
            break
        before += other.sourceline == line
    lines = text.split("\n")
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    start = re.compile(rf"<{re.escape(tag)}(?=[\s/>])")
    at = -1
    for _ in range(before + 1):
        found = start.search(source, at + 1)
        if found is None:
            return line, 1
        at = found.start()
    return line, at + 1


def href(element: _Element) -> str | None:
    """The reference svglib follows: `xlink:href`, or `href` when that is missing or empty
    (svglib reads `xlink:href or href`, so an empty one must not hide the other)."""
    for name in HREFS:
        value = element.get(name)
        if value:
            return value.strip()
    return None


def _target(value: str, base: Path, icons: Path) -> tuple[Path | None, str]:
    """The file an href names (None for a data: URI or a `#id`), or why it is refused."""
    if not value or value.startswith("#") or value.lower().startswith("data:"):
        return None, ""
    iri = value.split("#", 1)[0]
    if _SCHEME.match(iri) or iri.startswith(("/", "\\", "~")) or os.path.isabs(iri):
        return None, f"href {value!r} is not a file in the icons/ folder"
    for written in dict.fromkeys((iri, unquote(iri))):  # svglib joins it as written
        path = Path(os.path.normpath(os.path.join(base.parent, written)))
        if not real_path(path).is_relative_to(icons):
            return None, f"href {value!r} leads outside the icons/ folder"
    return Path(os.path.normpath(os.path.join(base.parent, iri))), ""


def _reference(value: str, base: Path, icons: Path) -> tuple[Path | None, str]:
    """`_target` of an href, or why the file it names is refused: not a regular file, or
    none at all."""
    target, reason = _target(value, base, icons)
    if not reason and target is not None and target.exists() and not target.is_file():
        # svglib opens whatever it can access: a FIFO blocks it for ever
        reason = f"href {value!r} is not a regular file"
    elif not reason and target is not None and not target.exists():
        # svglib leaves it out without a word: the icon printed with a hole in it
        reason = f"href {value!r} names no file of the icons/ folder"
    return target, reason


MAX_LISTED = 5
"""Bad references of one file named in its refusal besides the first (then a count)."""
MAX_COUNTED = 1_000
"""Bad references of one file counted at most (each is looked up on the disk)."""


def _with_others(reason: str, first: _Element, root: _Element, base: Path, icons: Path) -> str:
    """`reason`, the first bad reference's, and the file's other bad references at their
    lines (the first MAX_LISTED, then how many more): fixing one at a time, a designer met
    the next only at the next validate."""
    others = []
    after = False
    for element in root.iter():
        if element is first:
            after = True
            continue
        value = href(element) if after and isinstance(element.tag, str) else None
        if value is not None:
            why = _reference(value, base, icons)[1]
            if why:
                others.append(f"line {element.sourceline or 1}: {why}")
            if len(others) > MAX_COUNTED:  # each costs a look at the disk
                break
    if not others:
        return reason
    listed = "; ".join(others[:MAX_LISTED])
    left = len(others) - MAX_LISTED
    more = f"; and {'at least ' if len(others) > MAX_COUNTED else ''}{left:,} more"
    more = more if left > 0 else ""
    return f"{reason} (the file's other bad references: {listed}{more})"


@dataclass
class _Spent:
    """What an icon's files hold, together: numbers of shapes and characters of CSS, bytes
    of the picture files they embed; and what each picture file named was found to be (by
    its real path: a picture named 1,000 times is looked at once)."""

    numbers: int = 0
    style: int = 0
    picture_bytes: int = 0
    pictures: dict[Path, tuple[str, int]] = field(default_factory=dict)
    matching: int = 0
    """Steps of the <style> rules of its files, each file's counted as `MAX_MATCHING` counts
    them (svglib styles each file it reads with that file's own rules)."""
    nested: int = 0
    """Levels of the groups above each element of its files, added up, every <use> expanded
    (`MAX_NESTED`)."""
    styled: tuple[Path, str, _Element] | None = None
    """The first <style> that counts steps: its file, the file's text and the element (its
    column found only for a refusal)."""
    elements: int = 0
    """Elements of its files as written (before any <use> is expanded), those the rest of
    the guard walked (a file refused at its count is only counted)."""
    bytes: int = 0
    """Bytes of the SVG files the guard read itself (the icon's own when not given)."""
    room: int = sys.maxsize
    """Elements the game's icons may still draw (`MAX_GAME_ELEMENTS`): past it as written,
    the icon is refused without the rest of the guard's work."""


_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)")
_TOKEN = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)|[A-Za-z]")
"""A number or a command letter of a path: svglib reads each (`z` takes no number, but ~1 µs
to read and close, probe 50 P50-4)."""
_SHAPE_DATA = ("d", "points", "stroke-dasharray")
"""The attributes that hold lists of numbers svglib reads one by one, again for each <use>."""


MAX_GAME_MATCHING = 60_000
"""Matching steps (`MAX_MATCHING`) of the icons one game loads, together: each icon a game's
icons/ lists is read at each check, used or not, and svglib styles it at about 3 µs a step
(100 unused icons of 3 kB just under `MAX_MATCHING` took 6.5 s of validate: probe 39 M3),
~0.2 s at the bound (200,000 until budget59: the icons' four game bounds added up to ~4 s,
and one game may spend every other surface's budget as well). Three icons at the bound of
one. The bundled games have no SVG icon (0 steps), nor has the test
fixture's (tests/fixtures/own-look) a <style>; an exported icon's classes (`.st0{…}`, ten of
them on 100 shapes: 1,000 steps) leave room for 60 such icons. Charged in the order the
icons are loaded, by name, only for an icon read (one refused costs svglib nothing), so a
game gives the same findings at each run, the validate cache's or not."""


MAX_GAME_ELEMENTS = 6_000
"""Elements the icons one game reads draw together, each icon's counted once its <use> are
expanded (`MAX_EXPANDED`): svglib reads an element in 0.2 to 0.3 ms, and each icon in icons/
is read at every check, used or not, so 50 unused icons of 1,990 circles took validate 18 s,
and 999 of 100 paths 29 s (probe 44 I1): about 1 to 1.5 s at the bound, 60 icons of 100
shapes or 600 of 10 (8,000 until budget59: 40 unused icons of 195 circles, 129 kB, took
1.4 s, on top of every other surface's budget). The bundled games have no SVG icon (0
elements); the test fixture's (tests/fixtures/own-look) draws 7. An icon the guard refuses
for a reason of its own is charged the elements the guard walked (one refused at its count of
elements is not)."""
MAX_GAME_NUMBERS = 120_000
"""Numbers and commands of the paths and polygons of the icons one game reads, together
(`MAX_NUMBERS`, `_TOKEN`):
svglib reads about 4 µs a number (an icon of one path of 40,000 numbers took 0.17 s), ~0.5 s
at the bound: 60 icons of 2,000 numbers, as many as an icon pack's detailed glyph holds
(160,000 until budget59)."""
MAX_GAME_STYLE = 30_000
"""Characters of CSS in the <style> elements of the icons one game reads, together
(`MAX_STYLE`): svglib parses ~5 µs a character (an icon of 20,000 took 0.11 s), ~0.15 s at
the bound (80,000 until budget59); an exported icon's classes take a few hundred."""
MAX_GAME_BYTES = 8 * 1024 * 1024
"""Bytes of the SVG files the icons of one game read, together, refused ones included (each
is parsed twice, ~15 ms a 2 MB file): past it an icon is refused without being read (1,000
files of `MAX_BYTES` would take ~30 s and 2 GB of reads)."""


MAX_GAME_PICTURE_PIXELS = 48_000_000
"""Pixels the picture files a game's icons embed may hold together, each file once (each is
decoded whole, and embedded in every PDF that draws it); looked at from the files' headers
before any is decoded: ten icons of 16 M pixels took validate to 694 MB before the bound
refused the fourth (probe 62-4). `icons.icon_set` holds the decoded pictures to it too
(a data: URI's picture among them): three at the bound of one icon's (`MAX_PIXELS`), each
about a second per 16 million pixels in every PDF that draws it."""


def pictures_together() -> str:
    """The refusal of an icon whose pictures take the game's past `MAX_GAME_PICTURE_PIXELS`."""
    return (
        f"the pictures the game's icons embed hold more than {MAX_GAME_PICTURE_PIXELS:,}"
        " pixels together with this one's (each is embedded in every PDF that draws it);"
        " embed smaller pictures, or fewer"
    )


@dataclass
class Budget:
    """What the icons one game loaded so far spent together: the matching steps of their
    <style> rules (`MAX_GAME_MATCHING`), the elements they draw (`MAX_GAME_ELEMENTS`), the
    numbers of their shapes (`MAX_GAME_NUMBERS`), their CSS (`MAX_GAME_STYLE`), the levels
    of their nested groups (`MAX_GAME_NESTED`) and the bytes of the files read
    (`MAX_GAME_BYTES`). Charged in the order the icons are loaded (by
    name), so a game gives the same findings at each run."""

    matching: int = 0
    elements: int = 0
    numbers: int = 0
    style: int = 0
    bytes: int = 0
    nested: int = 0
    pictures: dict[Path, int] = field(default_factory=dict)
    """The picture files the icons read so far embed, each once: their pixels."""

    def spent(self) -> str:
        """Why no further icon is read ('' while one may be): the bytes or the elements of
        the icons read before it are at their bound (an icon draws at least one element)."""
        if self.bytes >= MAX_GAME_BYTES:
            return _game_message("the icons read before it hold", MAX_GAME_BYTES, "bytes")
        if self.elements >= MAX_GAME_ELEMENTS:
            return _game_message("the icons read before it draw", MAX_GAME_ELEMENTS, "elements")
        return ""


def _game_message(what: str, limit: int, noun: str) -> str:
    """A refusal for the game's bound on its icons together."""
    return (
        f"not read: {what} more than {limit:,}{f' {noun}' if noun else ''} together, the"
        " bound of a game's icons"
        " (each icon in icons/ is read at every check, used or not, in the order of their"
        " names); remove the icons the game does not print, or simplify them"
    )


def check(
    path: Path, icons: Path, data: bytes | None = None, budget: Budget | None = None
) -> Refusal | None:
    """The first reason the SVG in `path` (its bytes `data` if read already: what is
    checked is then what is drawn), or a file it references, may not be drawn. With
    `budget` (the game's), an icon that takes the game's icons past one of their bounds
    together is refused; one that does not is charged to it. A refused icon is charged the
    bytes read and the elements the guard walked (not what svglib would have read)."""
    icons = real_path(icons)
    seen: dict[Path, Cost] = {}
    room = MAX_GAME_ELEMENTS - budget.elements if budget is not None else sys.maxsize
    spent = _Spent(room=room)
    refusal = _check(path, icons, seen, data, spent)
    if budget is None:
        return refusal
    budget.bytes += spent.bytes  # the files read, whatever the verdict
    refusal = refusal or _over_budget(path, seen[real_path(path)][0], spent, budget)
    if refusal is not None:
        budget.elements += spent.elements  # the guard walked them; svglib reads none
        return refusal
    budget.elements += seen[real_path(path)][0]
    budget.pictures.update((real, pixels) for real, (_, pixels) in spent.pictures.items())
    budget.numbers += spent.numbers
    budget.style += spent.style
    budget.matching += spent.matching
    budget.nested += spent.nested
    return None


def _over_budget(path: Path, drawn: int, spent: _Spent, budget: Budget) -> Refusal | None:
    """Why an icon the guard lets through takes the game's icons past a bound together."""
    new = sum(n for real, (_, n) in spent.pictures.items() if real not in budget.pictures)
    if new and sum(budget.pictures.values()) + new > MAX_GAME_PICTURE_PIXELS:
        return Refusal(path, 1, 1, pictures_together())
    for own, together, limit, noun in (
        (drawn, budget.elements, MAX_GAME_ELEMENTS, "elements"),
        (spent.numbers, budget.numbers, MAX_GAME_NUMBERS, "numbers and commands of paths"),
        (spent.style, budget.style, MAX_GAME_STYLE, "characters of CSS"),
        (spent.nested, budget.nested, MAX_GAME_NESTED, "levels of nested groups"),
    ):
        if together + own > limit:
            message = _game_message(f"with its {own:,} {noun}, the game's icons hold", limit, "")
            return Refusal(path, 1, 1, message.removeprefix("not read: "))
    if not spent.matching or budget.matching + spent.matching <= MAX_GAME_MATCHING:
        return None
    where = (path, 1, 1)
    if spent.styled is not None:
        where = (spent.styled[0], *column(spent.styled[1], spent.styled[2]))
    message = (
        f"its <style> rules take {spent.matching:,} steps to match, and with them the"
        f" game's icons take more than {MAX_GAME_MATCHING:,} together (each icon in"
        " icons/ is read at every check, used or not); remove the icons the game does"
        " not print, or use fewer rules and simpler selectors (.class)"
    )
    return Refusal(where[0], where[1], where[2], message)


def _heavy(root: _Element, text: str, path: Path, spent: _Spent) -> Refusal | None:
    """A refusal at the element that takes the icon's numbers or CSS past its limit."""
    elements = sum(1 for e in root.iter() if isinstance(e.tag, str))
    depth = 0  # how deep the elements nest: found once, at the first <style> with text (found
    # at each <style>, 12,400 empty ones in 99 kB took 29 s before their refusal)
    matching = 0  # steps of the file's <style> elements together: svglib matches all their rules
    reading = 0  # steps of their attribute selectors reading the file's attribute values
    values: _Values | None = None  # found at the first <style> with a value selector
    levels: dict[_Element, int] = {}  # each element's groups above it (the root's none)
    names: set[str] = set()  # the names the file's rules set (`MAX_STYLE_NAMES`)
    declared = 0  # the declarations of its rules past each rule's first, its names once
    nested = 0  # their sum over the elements so far (`MAX_NESTED`)
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        parent = element.getparent()
        level = levels[element] = 0 if parent is None else levels.get(parent, 0) + 1
        nested += level
        if nested > MAX_NESTED:
            message = (
                f"its elements lie in groups nested {level} deep here, more than"
                f" {MAX_NESTED:,} levels over all its elements: svglib looks up each shape's"
                " style through every group above it; use fewer nested groups"
            )
            return Refusal(path, *column(text, element), message)
        name = element.tag.rsplit("}", 1)[-1]
        if name == "style":
            css = element.text or ""
            spent.style += len(css)
            depth = _depth(root) if css and not depth else depth
            matching += _matching(css, depth) if css and spent.style <= MAX_STYLE else 0
            if matching and spent.styled is None:
                spent.styled = (path, text, element)
            for rule in rule_declarations(css) if css and spent.style <= MAX_STYLE else []:
                names.update(rule)
                declared += max(len(rule) - 1, 0)  # a step writes one (as calibrated)
            if len(names) > MAX_STYLE_NAMES:
                message = (
                    f"its <style> rules set {len(names):,} different properties (more than"
                    f" {MAX_STYLE_NAMES}): svglib writes each declaration of a rule onto every"
                    " element the rule matches; set only the properties the icon draws with"
                    " (fill, stroke, …)"
                )
                return Refusal(path, *column(text, element), message)
            reads = _reads(css, depth) if css and spent.style <= MAX_STYLE else []
            if reads and matching * elements <= MAX_MATCHING:
                values = values or _values(root)
                reading += _reading(reads, values, elements)
            if reading > MAX_READING:
                message = (
                    "its <style> rules read long attribute values (up to"
                    f" {values.longest if values else 0:,} characters) again for each"
                    " attribute selector ([name~=…], [name*=…], …): more than"
                    f" {MAX_READING:,} steps to match; use a class (.name) instead, or"
                    " shorter attribute values"
                )
                return Refusal(path, *column(text, element), message)
            writes = declared * elements // DECLARATIONS_PER_STEP
            if matching * elements + reading + writes > MAX_MATCHING:
                message = (
                    f"its <style> rules on its {elements:,} elements take more than"
                    f" {MAX_MATCHING:,} steps to match and apply; use fewer rules, fewer"
                    " declarations, simpler selectors (.class) or fewer nested groups"
                )
                return Refusal(path, *column(text, element), message)
            walking = _walking(css) if css and spent.style <= MAX_STYLE else None
            if walking is not None:
                message = (
                    f"its <style> uses {walking} in a selector, which svglib matches by"
                    " walking other elements again for each element (a 1 kB icon took 45 s"
                    " to read); use a class (.name) instead"
                )
                return Refusal(path, *column(text, element), message)
        for attribute, steps in element.attrib.items():
            if str(attribute).lower().endswith("transform") and len(steps) > MAX_TRANSFORM:
                message = (
                    f"a transform of {len(steps):,} characters (more than {MAX_TRANSFORM:,});"
                    " combine its steps into one matrix(…)"
                )
                return Refusal(path, *column(text, element), message)
        costly = property_problem(element) if spent.style <= MAX_STYLE else None
        if costly is not None:
            return Refusal(path, *column(text, element), costly)
        for attribute in _SHAPE_DATA:
            value = element.get(attribute)
            if value:
                spent.numbers += len(_TOKEN.findall(value))
        if spent.numbers > MAX_NUMBERS:
            message = (
                f"its paths, polygons and dash arrays hold more than {MAX_NUMBERS:,} numbers and"
                " commands; simplify the drawing (fewer nodes)"
            )
            return Refusal(path, *column(text, element), message)
        if spent.style > MAX_STYLE:
            message = f"its <style> holds more than {MAX_STYLE:,} characters of CSS"
            return Refusal(path, *column(text, element), message)
    spent.matching += matching * elements + reading + declared * elements // DECLARATIONS_PER_STEP
    return None


def _depth(root: _Element) -> int:
    """How deep the elements nest (the root is 1)."""
    depth = {root: 1}
    for element in root.iter():
        parent = element.getparent()
        if parent is not None:
            depth[element] = depth.get(parent, 1) + 1
    return max(depth.values())


def _walking(css: str) -> str | None:
    """What a rule of `css`, read as svglib reads it (tinycss2, then cssselect2), has in a
    selector that makes cssselect2 walk other elements for each element it matches: `:has(…)`
    (descendants or siblings), the `~` combinator (every earlier sibling), an `:nth-…(… of
    S)` (every sibling, matched against S), a `:…-of-type` (the siblings of its tag, ×1,200
    in a 46 kB icon: 50 s); in any case, escaped, or inside another
    pseudo-class. None when it has none of them."""
    tokens = [token for prelude in _preludes(css) for token in prelude]
    while tokens:  # a stack, not a recursion: blocks may nest thousands deep
        token = tokens.pop()
        kind = getattr(token, "type", "")
        if kind == "function" and token.lower_name == "has":
            return ":has(…)"
        if kind == "function" and token.lower_name.startswith("nth-"):
            words = {getattr(t, "lower_value", None) for t in token.arguments}
            if "of" in words:
                return f":{token.lower_name}(… of …)"
        if kind == "literal" and token.value == "~":
            return "the ~ combinator"
        name = getattr(token, "lower_name", None) or getattr(token, "lower_value", None) or ""
        if kind in ("function", "ident") and name.endswith("-of-type"):
            return f":{name}"  # counts the earlier (or later) siblings of its tag (probe 32)
        if kind == "function":
            tokens.extend(token.arguments)
        elif kind.endswith(" block"):
            tokens.extend(token.content)
    return None


MAX_SELECTOR_NESTING = 32
"""Brackets and pseudo-classes nested in one selector (`:not(:is(…))`)."""


def _nesting(prelude: list[Any]) -> int:
    """How deep functions and blocks nest in a selector, found with a stack."""
    deepest = 0
    stack = [(token, 1) for token in prelude]
    while stack:
        token, depth = stack.pop()
        kind = getattr(token, "type", "")
        if kind == "function" or kind.endswith(" block"):
            deepest = max(deepest, depth)
            if deepest > MAX_SELECTOR_NESTING:
                return deepest
            inner = token.arguments if kind == "function" else token.content
            stack.extend((child, depth + 1) for child in inner)
    return deepest


def _preludes(css: str) -> list[list[Any]]:
    """The selector part of each rule of `css`, as tinycss2 reads it (comments left out: a
    `/*{*/` in a comment hid a selector from a count made on the raw text, probe 31)."""
    return [list(r.prelude) for r in stylesheet(css) if getattr(r, "type", "") == "qualified-rule"]


@dataclass
class _Values:
    """The characters of a file's attribute values by the attribute's name (lower case,
    without its namespace: a bound for the names a selector may mean): in all its elements
    together, and in the one that holds the most; and the longest value of any name."""

    total: dict[str, int]
    most: dict[str, int]
    longest: int


def _values(root: _Element) -> _Values:
    total: dict[str, int] = {}
    most: dict[str, int] = {}
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for attribute, value in element.attrib.items():
            name = str(attribute).rsplit("}", 1)[-1].lower()
            total[name] = total.get(name, 0) + len(value)
            most[name] = max(most.get(name, 0), len(value))
    return _Values(total, most, max(most.values(), default=0))


_VALUE_OPERATORS = ("=", "~=", "|=", "^=", "$=", "*=")


def _is_combinator(token: Any) -> bool:
    kind = getattr(token, "type", "")
    return kind == "whitespace" or (kind == "literal" and token.value in (">", "+", "~"))


def _reads(css: str, depth: int) -> list[tuple[str, bool, int]]:
    """The attribute selectors of `css` that read an attribute's value (`[a=…]`, `~=`,
    `|=`, `^=`, `$=`, `*=`), each as: the attribute's name (lower case, '' when not found),
    whether cssselect2 splits the value into words (`~=`), and 0 when it reads only the
    matched element's own value (it stands in the selector's last compound), or else how many
    other elements it may read for each element (depth**combinators: ancestors, siblings)."""
    found: list[tuple[str, bool, int]] = []
    for prelude in _preludes(css):
        selectors: list[list[Any]] = [[]]
        for token in prelude:
            if getattr(token, "type", "") == "literal" and token.value == ",":
                selectors.append([])
            else:
                selectors[-1].append(token)
        for selector in selectors:
            compounds, last, between = 0, 0, True
            for index, token in enumerate(selector):
                if _is_combinator(token):
                    between = True
                elif between:
                    compounds, last, between = compounds + 1, index, False
            walks = depth ** min(max(compounds - 1, 0), 8)
            stack = [(token, index >= last) for index, token in enumerate(selector)]
            while stack:  # blocks and functions may nest (at most MAX_SELECTOR_NESTING deep)
                token, own = stack.pop()
                kind = getattr(token, "type", "")
                if kind == "[] block":
                    read = _read(token.content)
                    if read is not None:
                        found.append((read[0], read[1], 0 if own else walks))
                elif kind == "function":
                    stack.extend((child, False) for child in token.arguments)
                elif kind.endswith(" block"):
                    stack.extend((child, False) for child in token.content)
    return found


def _read(content: list[Any]) -> tuple[str, bool] | None:
    """The attribute's name and whether its value is split (`~=`), for an attribute
    selector's `[…]` that compares the value; None for `[name]` alone."""
    name = ""
    for token in content:
        kind = getattr(token, "type", "")
        if kind == "ident":
            name = token.lower_value
        elif kind == "literal" and token.value in _VALUE_OPERATORS:
            return name, token.value == "~="
    return None


def _reading(reads: list[tuple[str, bool, int]], values: _Values, elements: int) -> int:
    """Matching steps of attribute selectors reading the values of a file of `elements`
    elements: one read of each element's own value, or for a selector that reads other
    elements' values, the largest value of that name `walks` times for each element."""
    steps = 0
    for name, split, walks in reads:
        if walks:
            characters = (values.most.get(name, 0) if name else values.longest) * elements * walks
        else:
            characters = values.total.get(name, 0) if name else sum(values.total.values())
        steps += characters // (SPLIT_CHARS if split else READ_CHARS)
        if steps > MAX_READING:
            return MAX_READING + 1
    return steps


def _matching(css: str, depth: int) -> int:
    """Steps one element's match against every selector of `css` may take, at most (capped
    just above the limit): a selector of k combinators counts depth**k."""
    import tinycss2

    steps = 0
    for prelude in _preludes(css):
        if _nesting(prelude) > MAX_SELECTOR_NESTING:  # serializing recurses per level:
            return MAX_MATCHING + 1  # 1,500 nested `:not(` was a RecursionError (probe 32)
        for selector in tinycss2.serialize(prelude).split(","):
            parts = len(_SELECTOR_PART.findall(selector))
            if parts:
                steps += depth ** min(parts - 1, 8)
            if steps > MAX_MATCHING:
                return MAX_MATCHING + 1
    return steps


def _check(
    path: Path,
    icons: Path,
    seen: dict[Path, Cost],
    data: bytes | None,
    spent: _Spent,
) -> Refusal | None:
    """Check one file (and, depth first, the SVGs it references); `seen` gets each file's
    expanded cost, so a file referenced twice is read once."""
    from lxml import etree

    seen[real_path(path)] = (0, 0, 0)  # a reference cycle costs nothing; svglib skips it
    try:
        if data is None:
            data = read(path, icons)
            spent.bytes += len(data)
        root = parse(data)
    except (OSError, ValueError, etree.XMLSyntaxError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return Refusal(path, 1, 1, f"cannot read it: {reason}")
    text = data.decode("utf-8", "replace")
    # counted before any other work: its elements as written are at most what it draws, and
    # the rest of the guard takes ~9 µs an element (2 MB of <g/> took 4.4 s to refuse)
    count = 0
    for element in root.iter(etree.Element):
        count += 1
        if count > MAX_EXPANDED:
            message = (
                f"it holds more than {MAX_EXPANDED:,} elements, which svglib reads one at a"
                " time; simplify the drawing (fewer shapes)"
            )
            return Refusal(path, *column(text, element), message)
        attributes = len(element.attrib)  # counted in one walk, before any other reads them
        if attributes > MAX_ATTRIBUTES:
            message = (
                f"its <{etree.QName(element).localname}> has {attributes:,} attributes (more"
                f" than {MAX_ATTRIBUTES}): each is looked for through all the others; keep only"
                " the attributes it draws with"
            )
            return Refusal(path, *column(text, element), message)
    if spent.elements + count > spent.room:  # not charged: only counted
        mine = spent.elements + count
        message = _game_message(
            f"with its {mine:,} elements, the game's icons hold", MAX_GAME_ELEMENTS, ""
        )
        return Refusal(path, 1, 1, message.removeprefix("not read: "))
    spent.elements += count
    refusal = _heavy(root, text, path, spent)
    if refusal is not None:
        return refusal
    external: dict[etree._Element, Cost] = {}
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        value = href(element)
        if value is None:
            continue
        target, reason = _reference(value, path, icons)
        if reason:
            return Refusal(
                path, *column(text, element), _with_others(reason, element, root, path, icons)
            )
        pixels = 0
        if not reason:
            reason, pixels = _picture(element, target, icons, spent)
        if reason:
            return Refusal(path, *column(text, element), reason)
        if pixels:
            external[element] = (0, 0, pixels + _data_bytes(value))
        if target is None or target.suffix.lower() != ".svg" or not target.is_file():
            continue
        real = real_path(target)
        if real not in seen:
            if len(seen) >= MAX_FILES:
                message = f"it references more than {MAX_FILES} SVG files"
                return Refusal(path, *column(text, element), message)
            refusal = _check(target, icons, seen, None, spent)
            if refusal is not None:
                return refusal
        external[element] = seen[real]
    entity = _entity(root)
    if entity is not None:
        holder, name = entity
        message = (
            f"its <{etree.QName(holder).localname}> uses the entity {name} (declared in its"
            " DOCTYPE), which an icon does not expand: svglib leaves out the entity and"
            " the text after it; write the characters themselves (or a character reference"
            " such as &#8364;)"
        )
        return Refusal(path, *column(text, holder), message)
    first_text, pieces = None, 0
    for element, strings in _texts(root):
        first_text, pieces = first_text if first_text is not None else element, pieces + strings
        if strings > MAX_EXPANDED:
            message = (
                f"its text draws {strings:,} pieces (more than {MAX_EXPANDED:,}): each"
                " <tspan>, and each character of a text placed by a list of x, y, dx or dy,"
                " is drawn on its own; use fewer pieces, or convert the text to paths"
            )
            return Refusal(path, *column(text, element), message)
        lacking = _unprintable(element)
        if lacking:
            message = (
                f"its text holds {lacking}, which the standard PDF fonts an icon's text"
                " prints in (Helvetica, Times, Courier) lack: it would print as a box;"
                " convert the text to paths"
            )
            return Refusal(path, *column(text, element), message)
        known = external.get(element, (0, 0, 0))
        external[element] = (known[0] + strings, known[1], known[2])
    nested: dict[etree._Element, Levels] = {}
    total, heavy = _expanded(root, external, nested)
    seen[real_path(path)] = total
    if total[2] > MAX_PIXELS:
        where = column(text, heavy) if heavy is not None else (root.sourceline or 1, 1)
        message = (
            f"the pictures it draws (each <image> and each <use> of one counted) hold more"
            f" than {MAX_PIXELS:,} pixels together (a data: URI's characters, and a byte"
            " of a picture's text or profile, counted as pixels); embed a smaller picture, or"
            " fewer"
        )
        return Refusal(path, *where, message)
    if _over(total):
        where = column(text, heavy) if heavy is not None else (root.sourceline or 1, 1)
        message = (
            f"it draws more than {MAX_EXPANDED:,} elements or {MAX_USES:,} <use> once each"
            " <use> is expanded; draw the shapes once instead of nesting <use>"
        )
        if heavy is None and first_text is not None and pieces:
            where = column(text, first_text)
            message = (
                f"it draws more than {MAX_EXPANDED:,} elements, its {pieces:,} pieces of text"
                " counted (each <tspan>, and each character of a text placed by a list of x,"
                " y, dx or dy, is drawn on its own); use fewer, or convert the text to paths"
            )
        if heavy is not None and not _is_use(heavy):
            message = (
                f"its clip-path references cost more than drawing {MAX_EXPANDED:,} elements"
                " (a clip path's shapes are merged again for each, at a cost that grows with"
                " their square); clip with fewer shapes, or clip a group once"
            )
        return Refusal(path, *where, message)
    deep = _too_deep(root, nested)
    if deep is not None:
        element, level = deep
        message = (
            f"its elements lie in groups nested {level} deep here, more than {MAX_NESTED:,}"
            " levels over all its elements once each <use> is expanded (each copy lies as"
            " deep as its <use>): svglib looks up each shape's style through every group"
            " above it; use fewer nested groups, or put the <use> less deep"
        )
        return Refusal(path, *column(text, element), message)
    spent.nested += nested[root][1]
    return None


def _entity(root: _Element) -> tuple[_Element, str] | None:
    """The first entity reference in the content of an element (`<text>&x;</text>`, `x`
    declared in the DOCTYPE) and the `<text>` holding it (else its element), or None. Both
    parsers keep such a reference unexpanded (entities in attribute values are expanded):
    svglib skips it, and the text after it, so `€漢` declared as an entity printed nothing,
    with validate clean (the check of the characters a text prints saw `&x;`)."""
    from lxml import etree

    for node in root.iter(etree.Entity):
        holder = node.getparent()
        if holder is None:
            continue
        text = next((e for e in holder.iterancestors() if etree.QName(e).localname == "text"), None)
        if etree.QName(holder).localname == "text" or text is None:
            text = holder
        return text, str(node.text)
    return None


def _unprintable(element: _Element) -> str:
    """The characters of a `<text>` (its own and its `<tspan>`s') that the standard PDF
    fonts cannot print, said as code points ("" for none): svglib draws an icon's text in
    them (toolkit.render.svg_fonts), in their Windows-1252 encoding, and a character outside
    it printed as a black box (`東京`) with validate clean."""
    from toolkit.diagnostics.printable import code_points

    lacking: list[str] = []
    for piece in element.itertext():
        for ch in piece:
            if ch in lacking:
                continue
            try:
                ch.encode("cp1252")
            except UnicodeEncodeError:
                lacking.append(ch)
    return code_points(lacking) if lacking else ""


def _texts(root: _Element) -> Iterator[tuple[_Element, int]]:
    """Each `<text>` and how many shapes svglib makes of it: one per piece of text (its own,
    and each `<tspan>`'s text and tail), or one per character once a position holds a list
    (svglib keeps the last list it read for the pieces that follow)."""
    for element in root.iter():
        if not isinstance(element.tag, str) or element.tag.rsplit("}", 1)[-1] != "text":
            continue
        pieces = [element.text or ""]
        listed = False
        for inner in element.iter():
            if not isinstance(inner.tag, str):
                continue
            if inner is not element:
                pieces += [inner.text or "", inner.tail or ""]
            for name in POSITIONS:
                listed = listed or len(_NUMBER.findall(inner.get(name) or "")) > 1
        yield element, sum(len(p) for p in pieces) if listed else sum(1 for p in pieces if p)


def _data_bytes(value: str) -> int:
    """Characters of a picture embedded as a data: URI, which each `<use>` of it costs again:
    svglib copies the `<image>` for each use and decodes its text again, and Pillow keeps
    each copy's metadata (a 10×10 JPEG padded to 1.4 MB, used 490 times: validate 2.4 GB,
    probe 50 P50-13). They count as pixels of the icon (`MAX_PIXELS`)."""
    return len(value) if _DATA_IMAGE.match(value) else 0


def _picture(element: _Element, target: Path | None, icons: Path, spent: _Spent) -> tuple[str, int]:
    """`_picture_too_large` of an element, a picture file looked at once per icon (by its
    real path) and first as a file: not sparse, at most `MAX_PICTURE_BYTES`, and the icon's
    picture files together at most `MAX_PICTURES_BYTES`."""
    if target is None or target.suffix.lower() == ".svg" or not target.is_file():
        return _picture_too_large(element, target)
    real = real_path(target)
    known = spent.pictures.get(real)
    if known is None:
        reason, size = _picture_file(target, icons)
        if reason:
            known = (reason, 0)
        elif spent.picture_bytes + size > MAX_PICTURES_BYTES:
            return (
                f"with the picture {target.name!r} ({size:,} bytes), the pictures it embeds"
                f" are more than {MAX_PICTURES_BYTES:,} bytes together; embed smaller"
                " pictures, or fewer"
            ), 0
        else:
            known = _picture_too_large(element, target)
            spent.picture_bytes += 0 if known[0] else size
        spent.pictures[real] = known
    return known


def _picture_file(target: Path, icons: Path) -> tuple[str, int]:
    """Why the picture file at `target` is not read (a sparse file, or one over
    `MAX_PICTURE_BYTES`), or ''; and its size. Opened once, looked at, not read."""
    from toolkit.fileio import open_regular, sparse, sparse_refusal

    try:
        with open_regular(target, inside=icons) as (fd, info):
            if sparse(fd, info):
                why = sparse_refusal(info, "picture saved by a program")
                return f"the picture it embeds, {target.name!r}, is {why}", 0
            if info.st_size > MAX_PICTURE_BYTES:
                return (
                    f"the picture it embeds, {target.name!r}, is {info.st_size:,} bytes, more"
                    f" than the {MAX_PICTURE_BYTES:,} bytes a picture of an icon may have"
                ), 0
            return "", info.st_size
    except OSError:
        return "", 0  # as before: Pillow, then svglib, cannot read it either


def _picture_too_large(element: _Element, target: Path | None) -> tuple[str, int]:
    """Why the picture an element embeds is refused: more than `MAX_PIXELS` (svglib decodes
    a data: URI's PNG or JPEG, and reportlab a referenced file's, whole); '' otherwise; and
    its pixels (0 when it embeds none)."""
    import base64
    import binascii
    import io

    from PIL import Image

    from toolkit.render import pictures

    pictures.confine()  # svglib hands the picture to Pillow: never to Ghostscript (EPS)
    raw = element.get(HREFS[0]) or element.get(HREFS[1]) or ""
    found = _DATA_IMAGE.match(raw)
    if found:
        try:
            decoded = base64.decodebytes(raw[found.end() + 1 :].encode("ascii"))
        except (ValueError, binascii.Error):
            return "", 0  # svglib cannot decode it either, and draws nothing
        source: Path | io.BytesIO = io.BytesIO(decoded)
        stored = pictures.paid_bytes(decoded)
    elif target is not None and target.suffix.lower() != ".svg" and target.is_file():
        source = target
        stored = -1  # its pixel data, read only if its pixels may be more than it pays for
    else:
        return "", 0
    too_large = f"the picture it embeds has more than the {MAX_PIXELS:,} pixels an icon may hold"
    try:
        with pictures.opened(source) as picture:
            width, height = picture.size
            kept = _metadata(picture.info)
    except Image.DecompressionBombError:
        return too_large, 0
    except ValueError as exc:
        if str(exc).startswith("it is a "):  # pictures.opened: too costly to open or decode
            return f"the picture it embeds: {exc}", 0
        return "the picture it embeds is not a PNG, JPEG, GIF or WebP picture", 0
    except OSError:
        # Pillow, as svglib calls it, cannot read it either: say so at the element
        return "the picture it embeds is not a PNG, JPEG, GIF or WebP picture", 0
    if width * height > MAX_PIXELS:
        return too_large + f" ({width}×{height})", 0
    if stored < 0 and target is not None and width * height > MAX_UNPAID_PIXELS:
        stored = pictures.paid_file_bytes(target)  # (a picture of fewer pixels is paid)
    if pictures.unpaid_pixels(width * height, max(stored, 0)) > MAX_UNPAID_PIXELS:
        return (
            f"the picture it embeds holds {width}×{height} pixels in {stored:,} bytes of pixel"
            f" data: more than {MAX_UNPAID_PIXELS:,} beyond {pictures.PAID_PIXELS_PER_BYTE} a"
            " stored byte"
            " (it is decoded whole in every PDF that draws it); embed it at the size it prints"
            " at"
        ), 0
    return "", width * height + kept


def _metadata(info: dict[Any, Any]) -> int:
    """Bytes of text and profile Pillow inflated into a picture's `info` when it opened it
    (at most `pictures.MAX_PNG_TEXT`): svglib opens a data: URI's picture again for each
    `<use>`, so they weigh as pixels, one a byte."""
    return sum(len(value) for value in info.values() if isinstance(value, str | bytes))


def _expanded(
    root: _Element, external: dict[_Element, Cost], nested: dict[_Element, Levels]
) -> tuple[Cost, _Element | None]:
    """What the drawing costs once each `<use href="#id">` is replaced by its target (and
    each reference to another file by that file's cost), each count capped just above its
    limit; and the first <use> that alone goes past a limit (else the first <use>). Fills
    `nested` with each element's `Levels`."""
    ids = {e.get("id"): e for e in root.iter() if isinstance(e.tag, str) and e.get("id")}
    weight: dict[_Element, Cost] = {}
    cap = MAX_NESTED + 1  # past it the file is refused: its levels are at least its elements
    open_: set[_Element] = set()

    def clip(element: _Element) -> _Element | None:
        found = _CLIP_URL.match(element.get("clip-path") or "")
        return ids.get(found.group(1)) if found else None

    def parts(element: _Element) -> Iterator[_Element]:
        yield from (child for child in element if isinstance(child.tag, str))
        value = href(element) or ""
        if value.startswith("#") and value[1:] in ids and not _is_gradient(element):
            yield ids[value[1:]]
        clipping = clip(element)
        if clipping is not None:
            yield clipping

    stack: list[tuple[_Element, bool]] = [(root, False)]
    while stack:
        element, done = stack.pop()
        if done:
            open_.discard(element)
            elements, uses, pixels = external.get(element, (0, 0, 0))
            # an other file's elements, or a text's pieces, drawn one level below it
            count, levels, more_count, more_levels = 1 + elements, elements, elements, elements
            elements, uses = elements + 1 + _numbers_weight(element), uses + _is_use(element)
            children = sum(1 for child in element if isinstance(child.tag, str))
            for index, part in enumerate(parts(element)):
                more = weight.get(part, (0, 0, 0))
                elements, uses, pixels = elements + more[0], uses + more[1], pixels + more[2]
                below = nested.get(part, (0, 0, 0, 0))  # one level deeper than this one
                count, levels = count + below[0], levels + below[1] + below[0]
                if index >= children:  # a <use>'s target, a clip path (after the children)
                    more_count += below[0]
                    more_levels += below[1] + below[0]
            nested[element] = (
                min(count, cap),
                min(levels, cap),
                min(more_count, cap),
                min(more_levels, cap),
            )
            clipping = clip(element)
            if clipping is not None:
                shapes = weight.get(clipping, (0, 0, 0))[0]
                elements += shapes * shapes // CLIP_SQUARE
            weight[element] = (
                min(elements, MAX_EXPANDED + 1),
                min(uses, MAX_USES + 1),
                min(pixels, MAX_PIXELS + 1),
            )
            continue
        if element in weight or element in open_:
            continue  # computed, or a cycle (svglib refuses those itself)
        open_.add(element)
        stack.append((element, True))
        stack.extend((p, False) for p in parts(element) if p not in weight and p not in open_)
    found = [e for e in root.iter() if _is_use(e) or clip(e) is not None]
    heavy = next((e for e in found if _over(weight.get(e, (0, 0, 0)))), None)
    if heavy is None:  # else the first element that takes the pictures past their limit
        pictures = (e for e in root.iter() if weight.get(e, (0, 0, 0))[2] > MAX_PIXELS)
        heavy = next((e for e in pictures if e is not root), found[0] if found else None)
    return weight[root], heavy


NUMBERS_PER_ELEMENT = 50
"""Numbers and commands of a path or polygon that count as one more element drawn, each
`<use>` of it counted again (`_expanded`): a rasteriser traces every segment of every copy,
so one path of 24,000 segments used 500 times took validate past 60 s and 1.1 GB, and 20 uses
of it on 32 icons of one face `export png` past 150 s (probe 49 S2, S3); svglib reads a path
again for each `<use>` of it, so 400 uses of a path of 50,000 `z` took validate 18.8 s (probe
50 P50-4)."""
DATA_CHARS_PER_ELEMENT = 300
"""Characters of an element's attributes that count as one more element, each `<use>` of it
counted again: svglib reads them again for each use (~0.16 µs a character of a path's data),
so 490 uses of a path padded with 300,000 spaces took validate 30 s, 400 of one dashed by a
list of 50,000 numbers 29 s (probe 50 P50-4, P50-6)."""
TEXT_CHARS_PER_ELEMENT = 50
"""Characters of a `<text>` (its `<tspan>`s' too) that count as one more element, each
`<use>` of it counted again: svglib converts the text again for each use and a rasteriser
draws each glyph, so 490 uses of a 300,000-character text took validate 56 s and 752 MB
(probe 50 P50-4)."""


def _numbers_weight(element: _Element) -> int:
    """The elements an element's data counts for: the numbers and commands of its path,
    polygon or dash array (`NUMBERS_PER_ELEMENT`), its attributes' characters
    (`DATA_CHARS_PER_ELEMENT`), a text's characters (`TEXT_CHARS_PER_ELEMENT`)."""
    tokens = 0
    for attribute in _SHAPE_DATA:
        value = element.get(attribute)
        if value:
            tokens += len(_TOKEN.findall(value))
    characters = sum(len(v) for k, v in element.attrib.items() if k not in HREFS)  # a
    # picture's data: URI counts as its pixels (`_data_bytes`)
    weight = tokens // NUMBERS_PER_ELEMENT + characters // DATA_CHARS_PER_ELEMENT
    if isinstance(element.tag, str) and element.tag.rsplit("}", 1)[-1] == "text":
        weight += sum(len(piece) for piece in element.itertext()) // TEXT_CHARS_PER_ELEMENT
    return weight


def _too_deep(root: _Element, nested: dict[_Element, Levels]) -> tuple[_Element, int] | None:
    """The element at which the levels of the groups above each element, every <use>
    expanded, go past `MAX_NESTED` (in the order they are written, each copy counted at its
    <use>), and the level it lies at; None if they do not."""
    levels: dict[_Element, int] = {}
    total = 0
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        parent = element.getparent()
        level = levels[element] = 0 if parent is None else levels.get(parent, 0) + 1
        _, _, more_count, more_levels = nested.get(element, (1, 0, 0, 0))
        # itself, and what it draws besides its children, at their levels below it
        total += level + more_levels + more_count * level
        if total > MAX_NESTED:
            return element, level
    return None


def _over(cost: Cost) -> bool:
    return cost[0] > MAX_EXPANDED or cost[1] > MAX_USES or cost[2] > MAX_PIXELS


def _is_gradient(element: _Element) -> bool:
    """A gradient's `href` names the gradient it takes its stops and settings from: nothing
    is drawn again, so the one it names is counted once, where it is (a chain of 60
    gradients counted each link's whole chain again, ~1,800 elements, and was refused). The
    stops a chain passes on are counted on the drawing, per shape filled (svg_icons)."""
    return isinstance(element.tag, str) and element.tag.rsplit("}", 1)[-1] in _GRADIENTS


_GRADIENTS = frozenset(("linearGradient", "radialGradient"))


def _is_use(element: _Element) -> bool:
    return isinstance(element.tag, str) and element.tag.rsplit("}", 1)[-1] == "use"
