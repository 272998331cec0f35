"""A board's look in one language: the board's own `style:` over the toolkit's generic one.

Every word a board prints goes through `Look.word`: the style's label, else the game's
glossary (`<kind>-space`, `<kind>`), else the toolkit's generic words, else the key in words.
A space kind the style leaves out gets a colour of its own from a palette, and its label's
initial in the build language; a link kind gets a plain line.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from toolkit.content.models.board import BoardStyle, LineStyle, SpaceStyle
from toolkit.content.templating import MAX_FILLED, filled_size, substitute
from toolkit.render.context import glossary_terms
from toolkit.render.raster_weight import FaceLoad
from toolkit.render.tallies import tallying

Glyph = Callable[[Canvas, float, float, float], None]
"""A board glyph a game plugin supplies: `glyph(canvas, x, y, radius)` draws inside a space."""


PALETTE = (
    "#4e79a7",
    "#f28e2b",
    "#59a14f",
    "#b07aa1",
    "#e15759",
    "#76b7b2",
    "#edc948",
    "#9c755f",
    "#ff9da7",
    "#2f4b7c",
    "#a05195",
    "#665191",
)
"""Colours for the space kinds a style leaves out, one each in order of first use."""

GENERIC = BoardStyle(
    links={
        "link": LineStyle(
            label={"fr": "Liaison", "es": "Conexión", "en": "Link"},
            colour="#4d4d4d",
            width=1.8,
            cap="round",
        ),
        "ferry": LineStyle(
            label={"fr": "Ferry", "es": "Ferri", "en": "Ferry"},
            colour="#1f5fa8",
            width=1.6,
            dash=[5, 3],
            cap="butt",
        ),
        "bridge": LineStyle(
            label={"fr": "Pont", "es": "Puente", "en": "Bridge"},
            colour="#4d4d4d",
            width=4.0,
            cap="keep",
            inner_colour="#ffffff",
            inner_width=1.6,
        ),
        "flight": LineStyle(
            label={"fr": "Vol", "es": "Vuelo", "en": "Flight"},
            colour="#6a5acd",
            width=1.0,
            dash=[0.1, 3],
            cap="round",
            shape="arc",
            marker="plane",
        ),
    },
    labels={
        "start": {"fr": "Départ", "es": "Salida", "en": "Start"},
        "start-hole": {"fr": "Trou de départ", "es": "Agujero de salida", "en": "Start hole"},
        "entrance": {"fr": "Entrée", "es": "Entrada", "en": "Entrance"},
    },
)
"""The toolkit's own look: the route kinds every graph board may use, the start mark, and a
track's start hole and entrance."""

UNSTYLED_DASHES = ([6.0, 2.0], [2.0, 2.0], [8.0, 2.0, 2.0, 2.0], [4.0, 4.0])
"""Dashes for the link kinds no style names (picked by the kind's name, so stable)."""

PLAIN_LINE = LineStyle(colour="#4d4d4d", width=1.8, dash=[], cap="round", shape="straight")


def merged(base: Any, over: Any) -> Any:
    """`over`'s fields that were set, on top of `base` (same model)."""
    return base.model_copy(update={k: getattr(over, k) for k in over.model_fields_set})


def line_of(style: BoardStyle, kind: str) -> LineStyle:
    """A link or route kind's line in `style`, every field set: board, toolkit, plain line.
    A kind neither styles gets a dash and colour of its own, so the legend tells it apart."""
    base = GENERIC.links.get(kind)
    if base is None:
        k = zlib.crc32(kind.encode()) % len(UNSTYLED_DASHES)
        base = LineStyle(colour=PALETTE[k], width=1.6, dash=UNSTYLED_DASHES[k], cap="butt")
    return merged(merged(PLAIN_LINE, base), style.links.get(kind, LineStyle()))


def luminance(colour: str) -> float:
    v = int(colour[1:], 16)
    r, g, b = ((v >> s) & 255 for s in (16, 8, 0))
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


@dataclass(frozen=True)
class Space:
    """A space kind's look, every field settled."""

    kind: str
    label: str
    colour: str
    text_colour: str
    outline: str | None
    icon: str | None
    radius_mm: float
    font: str
    font_size: float
    name_colour: str | None
    named: bool
    stage: bool
    slots: int

    @property
    def initial(self) -> str:
        return self.label[:1].upper()


class PhraseTooLong(ValueError):
    """A drawer's phrase that would print more than MAX_FILLED characters once filled (one
    phrase inside another): the board's check reports it at its label, the build refuses it
    with this message, the preview draws whatever the findings say."""

    def __init__(self, key: str) -> None:
        super().__init__(
            f"the board phrase {key!r} would print more than {MAX_FILLED:,} characters"
        )
        self.key = key


@dataclass
class Look:
    """What a board drawer asks: words, space and line looks, glyphs and icons."""

    game: Any
    lang: str
    style: BoardStyle
    kinds: list[str] = field(default_factory=list)  # the board's space kinds, in order
    default_radius_mm: float = 3.6
    phrases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The names each of the drawer's phrases fills (its kind's `BoardKind.phrases`)."""

    def __post_init__(self) -> None:
        self.terms = glossary_terms(self.game, self.lang)
        unstyled = [k for k in self.kinds if k not in self.style.spaces]
        self._palette = {k: PALETTE[i % len(PALETTE)] for i, k in enumerate(unstyled)}
        self._icons: Any = None
        self._fonts: Any = None

    # ------------------------------------------------------------ words

    def text(self, label: Any) -> str:
        """A label's words: a glossary term's text, or the text in this language."""
        if isinstance(label, str):
            return _capital(self.terms.get(label) or label.replace("-", " ").replace("_", " "))
        return label.get(self.lang) or next(iter(label.values()), "")

    def word(self, key: str, label: Any = None) -> str:
        """Name `key` in this language: `label`, then the glossary, then the generic words."""
        if label is not None:
            return self.text(label)
        dashed = key.replace("_", "-")
        for term in (f"{dashed}-space", key, dashed):
            found = self.terms.get(term)
            if found:
                return _capital(found)
        generic = GENERIC.labels.get(key) or _generic_line_label(key)
        if generic is not None:
            return self.text(generic)
        return _capital(key.replace("_", " ").replace("-", " "))

    def label(self, key: str) -> str:
        """One of the board's other words (`start`, `entrance`): style, glossary, generic."""
        return self.word(key, self.style.labels.get(key))

    def label_path(self, key: str) -> tuple[str, ...] | None:
        """Where the board's style writes the label `key` in this language (its text, or the
        glossary id it names); None when the style leaves it to the glossary or the drawer."""
        own = self.style.labels.get(key)
        if own is None:
            return None
        return ("style", "labels", key, *(() if isinstance(own, str) else (self.lang,)))

    def phrase_words(self, key: str, table: dict[str, dict[str, str]]) -> str:
        """A drawer's phrase unfilled: the style's `labels[key]`, else the drawer's own words
        in this language (English for a language it has no words for)."""
        own = self.style.labels.get(key)
        return self.text(own) if own is not None else table.get(self.lang, table["en"])[key]

    def phrase(self, key: str, table: dict[str, dict[str, str]], **values: object) -> str:
        """A drawer's phrase (`Leg {n}`, `phrase_words`) filled with `values`. Only the names
        the kind gives the phrase are filled, by plain substitution: a format spec in a
        designer's or translator's words prints as written, never runs."""
        words = self.phrase_words(key, table)
        names = self.phrases.get(key, ())
        filling = {name: str(values[name]) for name in names if name in values}
        if filled_size(words, filling) > MAX_FILLED:  # one phrase inside another: the
            raise PhraseTooLong(key)  # drawer's check says it at the label (P016)
        return substitute(words, filling)

    # ------------------------------------------------------------ spaces and lines

    def space(self, kind: str) -> Space:
        own = self.style.spaces.get(kind, SpaceStyle())
        colour = own.colour or self._palette.get(kind) or PALETTE[0]
        text_colour = own.text_colour or ("#1e1e1e" if luminance(colour) > 0.6 else "#ffffff")
        return Space(
            kind,
            self.word(kind, own.label),
            colour,
            text_colour,
            own.outline,
            own.icon,
            own.size if own.size is not None else self.default_radius_mm,
            own.font,
            own.font_size,
            own.name_colour,
            own.named,
            own.stage,
            own.slots,
        )

    def line(self, kind: str) -> LineStyle:
        """A link or route kind's line, every field set (`line_of`)."""
        return line_of(self.style, kind)

    def line_word(self, kind: str) -> str:
        own = self.style.links.get(kind)
        return self.word(kind, own.label if own is not None and own.label is not None else None)

    def line_order(self) -> list[str]:
        """Line kinds in legend order: the toolkit's, then the board's own."""
        return list(dict.fromkeys([*GENERIC.links, *self.style.links]))

    # ------------------------------------------------------------ fonts, glyphs and icons

    def face(self, style: str = "regular") -> str:
        """The face (toolkit.render.fonts) the board's words print in, in `style`: the
        style's `font`, else the game's."""
        if self._fonts is None:  # read once per look: a board asks for a face per word
            from toolkit.render.printjob import game_fonts

            self._fonts = game_fonts(self.game)
        return self._fonts.face(self.style.font, style)

    def font(self, style: str = "regular") -> str:
        """The reportlab name of `face(style)`."""
        from toolkit.render.fonts import font_name

        return font_name(self.face(style))

    def glyph(self, name: str) -> Glyph | None:
        return plugin_glyphs(self.game).get(name)

    def icon_set(self) -> Any:
        """The game's icons (toolkit.render.icons.IconSet), read once per look."""
        if self._icons is None:
            from toolkit.render.icons import icon_set

            self._icons = icon_set(getattr(self.game, "root", None))
        return self._icons

    def icon_weight(self, name: str) -> int:
        """What drawing `name` once weighs (toolkit.render.icons.icon_weight): a game glyph
        as a built-in icon; 0 for a name there is no icon for."""
        from toolkit.render.icons import BUILTIN_WEIGHT, icon_weight

        if self.glyph(name) is not None:
            return BUILTIN_WEIGHT
        return icon_weight(name, self.icon_set())

    def icon_paint(self, name: str) -> float:
        """How many times over drawing `name` paints its box (toolkit.render.icons.
        icon_paint): a game glyph once, as a built-in icon; 0 for a name there is no icon
        for."""
        from toolkit.render.icons import icon_paint

        if self.glyph(name) is not None:
            return 1.0
        return icon_paint(name, self.icon_set())

    def icon_outline(self, name: str) -> float:
        """How many times over `name`'s stroked outlines run across its box (toolkit.render.
        icons.icon_outline): 0 for a game glyph, a built-in or a name there is no icon for."""
        from toolkit.render.icons import icon_outline

        if self.glyph(name) is not None:
            return 0.0
        return icon_outline(name, self.icon_set())

    def icon_points(self, name: str) -> float:
        """The points of `name`'s outlines a rasteriser reads at each use (toolkit.render.
        icons.icon_points): 0 for a game glyph, a built-in or a name there is no icon for."""
        from toolkit.render.icons import icon_points

        if self.glyph(name) is not None:
            return 0.0
        return icon_points(name, self.icon_set())

    def draw_icon(self, c: Canvas, name: str, x: float, y: float, r: float, colour: str) -> bool:
        """A game glyph, else an icon of the game folder or the toolkit, in a space of
        radius `r` centred on (x, y); False when there is no such icon, or when drawing it
        would take the drawing's icons past `MAX_DRAWING_ICON_WEIGHT` or
        `MAX_DRAWING_ICON_PAINT` (nothing drawn). Drawn, it is counted in the tally
        `icons_tallied` holds open, if any."""
        weight = self.icon_weight(name)
        size = r * ICON_SIDE
        paint = self.icon_paint(name) * size * size
        if not weight or not _spend(c, weight, paint):
            return False
        tally = _TALLY.get()
        if tally is not None:
            tally.add(weight, paint, self.icon_outline(name) * size, self.icon_points(name))
        glyph = self.glyph(name)
        if glyph is not None:
            glyph(c, x, y, r)
            return True
        from toolkit.render.icons import draw_icon

        return draw_icon(c, name, x - size / 2, y - size / 2, size, colour, self.icon_set())


ICON_SIDE = 1.25
"""An icon's box side, in the radius of the space it is drawn in."""


MAX_DRAWING_ICON_WEIGHT = 64_000
"""What the icons one board drawing draws may weigh together, in drawn elements
(toolkit.render.icons.icon_weight: an SVG icon's shapes, pictures and dashes, a built-in's
few operations), each icon counted at every place it is drawn: a space kind's `icon` on every
space of the kind, a line's `marker` on every arc, a numbered square's icon. The PDF holds an
icon once, as a form, but a rasteriser (`export png`, `export tts`, the preview) draws every
use of it whole: a map of 2,000 spaces drawing a 1,990-circle icon took `export png` 20 s and
2.8 GB, the preview 53 s (probe 47 K7). 32 icons at the bound of one (svg_guard.MAX_EXPANDED),
or 6,400 built-in ones. `validate` says P016 at the style key of a board past it
(BoardKind.icon_uses); a drawing draws each icon while it stays within it, and past it a
space shows its initial instead."""

MAX_GAME_ICON_WEIGHT = 128_000
"""What the icons of all a game's boards may weigh together, as `MAX_DRAWING_ICON_WEIGHT`
weighs one drawing's: two drawings at that bound. Each board is drawn in every language
(`export png` at 150 dpi, `export tts`, the preview), and a board's icon shape costs a
rasteriser ~6.5 µs a use at 150 dpi: 10 maps each at the drawing's bound (637,000 shapes, a
217 kB game) took `export png` 6.6 s of CPU a language, 2.4 s without their icons (probe
54-3): two drawings at the bound are some 0.8 s a language. The bundled games'
boards weigh 1,080 together at most; a map of 200 spaces of a 100-shape icon, a score
track and player boards some 25,000. `validate` says P016 at the board whose icons take the
game past it (`game_icon_problem`)."""

MAX_DRAWING_ICON_PAINT = 30_000_000
"""Square points the icons one board drawing draws may paint together: each use its box's
area times how many times over its shapes paint the box (toolkit.render.icons.icon_paint, a
built-in's or a glyph's once): some sixty A4 pages painted over, about a second of a
picture's raster at 300 dpi. 31 spaces of radius 50 mm drawing an icon of 1,990 translucent
circles (under the weight bound) took `export png` 108 s (probe 48 N5)."""


@dataclass
class IconTally:
    """What board drawings drew of icons, each use counted (`icons_tallied`): their weight
    (drawn elements), the square points they paint, the points (1/72 inch) of their
    outlines and the outlines' own points, as `raster_weight.FaceLoad` counts a face's, to
    price their pictures."""

    shapes: int = 0
    paint: float = 0.0
    outline: float = 0.0
    points: float = 0.0

    def add(self, shapes: int, paint: float, outline: float, points: float = 0.0) -> None:
        self.shapes += shapes
        self.paint += paint
        self.outline += outline
        self.points += points

    def load(self) -> FaceLoad:
        """The tally as a face's load (`raster_weight.load_price` prices it)."""
        return FaceLoad(self.shapes, self.paint, 0, self.outline, self.points)


_TALLY: ContextVar[IconTally | None] = ContextVar("board icon tally", default=None)


@contextmanager
def icons_tallied() -> Iterator[IconTally]:
    """A tally of the icons the board drawings drawn inside draw (in this thread): an
    export prices a board's pictures from it before rasterising any (a PDF holds an icon
    once, a rasteriser draws each use whole)."""
    with tallying(_TALLY, IconTally()) as tally:
        yield tally


_ICON_ROOM = "_playset_board_icon_room"
"""The canvas attribute holding what the drawing on it may still weigh in icons."""
_PAINT_ROOM = "_playset_board_icon_paint_room"
"""The canvas attribute holding the square points the drawing on it may still paint."""


@contextmanager
def one_drawing(c: Canvas) -> Iterator[None]:
    """Draw one board drawing on `c`: its icons may weigh `MAX_DRAWING_ICON_WEIGHT`
    together. A canvas no drawing was started on counts all it draws as one drawing."""
    before = getattr(c, _ICON_ROOM, None), getattr(c, _PAINT_ROOM, None)
    setattr(c, _ICON_ROOM, MAX_DRAWING_ICON_WEIGHT)
    setattr(c, _PAINT_ROOM, float(MAX_DRAWING_ICON_PAINT))
    try:
        yield
    finally:
        for name, value in zip((_ICON_ROOM, _PAINT_ROOM), before, strict=True):
            if value is None:
                delattr(c, name)
            else:
                setattr(c, name, value)


def _spend(c: Canvas, weight: int, paint: float = 0.0) -> bool:
    """Whether the drawing on `c` may draw an icon of `weight` painting `paint` square
    points, charged to it if so."""
    room = getattr(c, _ICON_ROOM, MAX_DRAWING_ICON_WEIGHT)
    paint_room = getattr(c, _PAINT_ROOM, float(MAX_DRAWING_ICON_PAINT))
    if weight > room or paint > paint_room:
        return False
    setattr(c, _ICON_ROOM, room - weight)
    setattr(c, _PAINT_ROOM, paint_room - paint)
    return True


def icon_bound_problem(
    uses: Iterable[tuple[Any, ...]], look: Look
) -> tuple[tuple[str | int, ...], str] | None:
    """(field path, message) when the icons a board drawing draws (`uses`: the field that
    names an icon, the icon, how many places draw it, and optionally the side of its box in
    points) paint more than `MAX_DRAWING_ICON_PAINT` or weigh more than
    `MAX_DRAWING_ICON_WEIGHT` together: said at the field whose icon paints, or weighs, most
    there."""
    uses = list(uses)
    painted = [
        (path, name, count, look.icon_paint(name) * (use[3] if len(use) > 3 else 0.0) ** 2)
        for use in uses
        for path, name, count in [use[:3]]
    ]
    area = sum(count * each for _, _, count, each in painted)
    if area > MAX_DRAWING_ICON_PAINT:
        path, name, count, each = max(painted, key=lambda item: item[2] * item[3])
        message = (
            f"the board's icons paint {area:,.0f} square points, more than the"
            f" {MAX_DRAWING_ICON_PAINT:,} one board drawing paints: {name!r} paints its box"
            f" {look.icon_paint(name):,.1f} times over and is drawn at {count:,}"
            f" place{'' if count == 1 else 's'} here, {each:,.0f} square points each. A picture"
            " of the board (export png, the preview) fills each shape's pixels; past the"
            " bound spaces are drawn without their icon. Draw it smaller, or use an icon of"
            " fewer or smaller shapes"
        )
        return path, message
    weighed = icons_weight(uses, look)
    total = sum(w for *_, w in weighed)
    if total <= MAX_DRAWING_ICON_WEIGHT:
        return None
    path, name, count, most = max(weighed, key=lambda item: item[3])
    each = most // count if count else 0
    message = (
        f"the board's icons weigh {total:,} drawn elements, more than the"
        f" {MAX_DRAWING_ICON_WEIGHT:,} one board drawing draws: {name!r} weighs {each:,}"
        f" (its shapes, its pictures' pixels and its dashes) and is drawn at {count:,}"
        f" place{'' if count == 1 else 's'} here, {most:,} together. The PDF holds an icon"
        " once, but a picture of the board (export png, the preview) draws each use whole;"
        " past the bound spaces are drawn without their icon. Use a simpler icon, or draw it"
        " on fewer spaces"
    )
    return path, message


def icons_weight(uses: Iterable[tuple[Any, ...]], look: Look) -> list[tuple[Any, str, int, int]]:
    """(field path, icon, places, weight there) of each use `icon_bound_problem` weighs."""
    return [
        (path, name, count, look.icon_weight(name) * count)
        for use in uses
        for path, name, count in [use[:3]]
    ]


def game_icon_problem(
    before: int, uses: Iterable[tuple[Any, ...]], look: Look
) -> tuple[int, tuple[tuple[str | int, ...], str] | None]:
    """The weight of a board's icons (`uses`, as `icon_bound_problem` takes them), and
    (field path, message) when they take the game's boards, `before` weighing the boards
    before it, past `MAX_GAME_ICON_WEIGHT` (once: not when those were past it already),
    said at the field whose icon weighs most on this board."""
    weighed = icons_weight(uses, look)
    total = sum(w for *_, w in weighed)
    if before + total <= MAX_GAME_ICON_WEIGHT or before > MAX_GAME_ICON_WEIGHT or not weighed:
        return total, None
    path, name, count, most = max(weighed, key=lambda item: item[3])
    message = (
        f"the game's boards' icons weigh {before + total:,} drawn elements together with"
        f" this board's, more than the {MAX_GAME_ICON_WEIGHT:,} a game's boards draw: this"
        f" board's weigh {total:,}, the boards' before it {before:,}; {name!r} weighs"
        f" {most // count if count else 0:,} and is drawn at {count:,}"
        f" place{'' if count == 1 else 's'} here. Each board is drawn whole in every"
        " language by export png, export tts and the preview, each use of an icon on its"
        " own. Use simpler icons, or draw them on fewer spaces or boards"
    )
    return total, (path, message)


def plugin_glyphs(game: Any) -> dict[str, Glyph]:
    """The board glyphs the game's plugin hands over, by name ({} for most games)."""
    hand_over = getattr(getattr(game, "plugin", None), "board_glyphs", None)
    if hand_over is None:
        return {}
    from toolkit.render.fonts import font_name

    return dict(hand_over(font_name))  # the renderer's fonts, so the game imports no render


QUOTED = 60
"""Characters of a board's words a finding quotes (a label may be hundreds long)."""


def quoted(text: str) -> str:
    """`text` quoted for a finding: its first QUOTED characters, and its length past them."""
    if len(text) <= QUOTED:
        return repr(text)
    return f"{text[:QUOTED]!r}… ({len(text):,} characters)"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _generic_line_label(key: str) -> Any:
    line = GENERIC.links.get(key)
    return line.label if line is not None else None


def look_for(
    game: Any,
    board: Any,
    lang: str,
    kinds: Iterable[str] = (),
    phrases: dict[str, tuple[str, ...]] | None = None,
) -> Look:
    """The look of `board` (a model with a `style`) in `lang`; `phrases`: the names each of
    its drawer's phrases fills."""
    style = getattr(board, "style", None) or BoardStyle()
    return Look(game, lang, style, list(kinds), phrases=dict(phrases or {}))
