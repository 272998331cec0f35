"""A game's SVG icon is written once per PDF (once per colour where it takes the text's
colour) as a form XObject; each further use is one `Do` of that form. A card text printing
one 3.6 kB icon 1,800 times took 70 s of CPU and 800 MB to build when every use drew the
whole icon again (probe 21 H5)."""

from __future__ import annotations

import io
from pathlib import Path

from pypdf import PdfReader
from pypdf.generic import IndirectObject
from reportlab.pdfgen.canvas import Canvas

from toolkit.render.icons import BUILTIN, IconSet, draw_icon
from toolkit.render.raster import images_selected
from toolkit.render.svg_icons import load_svg

RECTS = 20
# Twenty squares in a row, in the colour the icon is printed in.
ROW = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">'
    + "".join(
        f'<rect x="{5 * i}" y="40" width="4" height="20" fill="currentColor"/>'
        for i in range(RECTS)
    )
    + "</svg>"
)
# Half-transparent, a gradient and a clip: what a form's resources must carry.
RICH = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">
  <defs>
    <linearGradient id="g"><stop offset="0" stop-color="#ff0000"/>
      <stop offset="1" stop-color="#ff0000"/></linearGradient>
    <clipPath id="c"><rect x="0" y="0" width="50" height="100"/></clipPath>
  </defs>
  <rect x="0" y="0" width="100" height="30" fill="url(#g)"/>
  <rect x="0" y="40" width="100" height="20" fill="#0000ff" fill-opacity="0.5"/>
  <rect x="0" y="70" width="100" height="30" fill="currentColor" clip-path="url(#c)"/>
</svg>
"""


def _icons(tmp_path: Path, **svgs: str) -> IconSet:
    drawers = dict(BUILTIN.drawers)
    for name, svg in svgs.items():
        path = tmp_path / f"{name}.svg"
        path.write_text(svg, encoding="utf-8")
        icon, problem = load_svg(path, f"icons/{name}.svg")
        assert icon is not None and problem is None, problem
        drawers[name] = icon
    return IconSet(drawers, frozenset(drawers))


def _operators(pdf: bytes, operator: bytes) -> int:
    """How many times `operator` is written in the PDF: its pages' contents and each form
    XObject they use, every form counted once."""
    reader = PdfReader(io.BytesIO(pdf))
    seen: set[int] = set()
    count = 0

    def count_in(data: bytes) -> int:
        return data.split().count(operator)  # (no text here holds it as a word)

    def walk(resources: object) -> None:
        nonlocal count
        xobjects = resources.get("/XObject") if resources else None  # type: ignore[attr-defined]
        for ref in (xobjects or {}).values():
            key = ref.idnum if isinstance(ref, IndirectObject) else id(ref)
            obj = ref.get_object()
            if key in seen or obj.get("/Subtype") != "/Form":
                continue
            seen.add(key)
            count += count_in(obj.get_data())
            walk(obj.get("/Resources"))

    for page in reader.pages:
        count += count_in(page.get_contents().get_data())
        walk(page.get("/Resources"))
    return count


def _page(icons: IconSet, draws: list[tuple[str, float, float, float, str]]) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(400, 400), invariant=1)
    for name, x, y, size, colour in draws:
        assert draw_icon(canvas, name, x, y, size, colour, icons)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_an_icon_drawn_fifty_times_is_written_once_per_colour(tmp_path):
    icons = _icons(tmp_path, row=ROW)
    colours = ("#cc0000", "#1144ee")
    draws = [("row", 10 + 7 * i, 10 + 7 * i, 20, colours[i % 2]) for i in range(50)]
    pdf = _page(icons, draws)
    assert _operators(pdf, b"re") == RECTS * len(colours)  # was 50 × 20
    assert _operators(pdf, b"Do") == 50
    image = images_selected(pdf, [0], 72)[0]
    colours_seen = {colour for _, colour in image.getcolors(1 << 16)}
    assert (204, 0, 0) in colours_seen and (17, 68, 238) in colours_seen


def test_forms_are_per_pdf_and_two_pdfs_are_the_same_bytes(tmp_path):
    icons = _icons(tmp_path, row=ROW)
    draws = [("row", 50, 50, 100, "#cc0000"), ("row", 200, 200, 100, "#cc0000")]
    first, second = _page(icons, draws), _page(icons, draws)
    assert first == second  # the second PDF writes its own form, as the first did
    image = images_selected(second, [0], 72)[0]
    assert image.getpixel((52, 400 - 100)) == (204, 0, 0)  # the first square of each use
    assert image.getpixel((202, 400 - 250)) == (204, 0, 0)


def test_a_forms_opacity_gradient_and_clip_print_as_drawn_inline(tmp_path):
    icons = _icons(tmp_path, rich=RICH)
    pdf = _page(icons, [("rich", 0, 0, 400, "#00aa00"), ("rich", 0, 0, 400, "#00aa00")])
    assert _operators(pdf, b"Do") == 2
    single = _page(icons, [("rich", 0, 0, 400, "#00aa00")])
    image = images_selected(single, [0], 72)[0]
    assert image.getpixel((200, 60)) == (255, 0, 0)  # the gradient (red to red)
    red, green, blue = image.getpixel((200, 200))  # blue at half opacity on white
    assert 120 <= red == green <= 135 and blue == 255
    assert image.getpixel((100, 340)) == (0, 170, 0)  # currentColor, inside the clip
    assert image.getpixel((300, 340)) == (255, 255, 255)  # clipped away


def test_a_card_text_printing_an_icon_sixty_times_writes_it_once(run_cli, tmp_path):
    result = run_cli("new", "rows", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    game = tmp_path / "rows"
    (game / "icons").mkdir(exist_ok=True)
    (game / "icons" / "row.svg").write_text(ROW, encoding="utf-8")
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    assert "en: Score {points} points." in text
    deck.write_text(text.replace("en: Score {points} points.", "en: '" + ":row: " * 60 + "'"))
    pdfs = []
    for out in (tmp_path / "one", tmp_path / "two"):
        result = run_cli(
            "build", str(game), "--out", str(out), "--only", "cards", "--no-cache", "--lang", "en"
        )
        assert result.exit_code == 0, result.output
        pdfs.append((out / "rows" / "en" / "cards.pdf").read_bytes())
    assert pdfs[0] == pdfs[1]
    assert _operators(pdfs[0], b"Do") >= 60  # a face draws 64 at most (P018)
    assert _operators(pdfs[0], b"re") < 5 * RECTS  # was 100 × 20 and more


def test_a_tinted_icon_is_drawn_once_per_pdf_whatever_its_colours(tmp_path, monkeypatch):
    # probe 23 H5: each colour deep-copied the drawing and drew it again, and kept the copy:
    # 500 colours of a 1,700-element icon took 83 s and 1.4 GB to build; each colour's form
    # is now the first one's operators, recoloured
    from toolkit.render import svg_icons

    drawn: list[int] = []
    renderer = svg_icons._picture_renderer()

    class Counting(renderer):  # type: ignore[misc,valid-type]
        def draw(self, *args, **kwargs):
            drawn.append(1)
            return super().draw(*args, **kwargs)

    icons = _icons(tmp_path, row=ROW, rich=RICH)  # (reading an icon may draw it: not counted)
    monkeypatch.setattr(svg_icons, "_picture_renderer", lambda: Counting)
    colours = [f"#{6 * i:02x}{255 - 5 * i:02x}{3 * i:02x}" for i in range(40)]
    draws = [("row", 5 + 9 * i, 5 + 9 * i, 20, colour) for i, colour in enumerate(colours)]
    pdf = _page(icons, [("rich", 0, 0, 400, "#00aa00"), ("rich", 0, 0, 400, "#aa0000")] + draws)
    assert len(drawn) == 2  # each icon once in this PDF (was once a colour: 42)
    assert _operators(pdf, b"re") == RECTS * len(colours) + 2 * 3  # a form a colour still
    image = images_selected(pdf, [0], 72)[0]
    seen = {colour for _, colour in image.getcolors(1 << 16)}
    assert (170, 0, 0) in seen and (0, 170, 0) not in seen  # the second rich over the first
    for colour in colours[::13]:
        assert tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5)) in seen, colour
    assert image.getpixel((200, 60)) == (255, 0, 0)  # the rich icon's own gradient kept
    # its half-transparent blue, twice: the second form (recoloured) named a state it lacked
    # and printed opaque (probe 24)
    red, green, blue = image.getpixel((300, 200))
    assert blue > 200 and 40 < red < 100 and 40 < green < 100, (red, green, blue)


# A circle larger than its viewBox: a browser shows the viewBox only.
HUGE = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">'
    '<circle cx="50" cy="50" r="200" fill="#cc0000"/></svg>'
)


def test_an_icon_draws_within_its_box_and_a_margin(tmp_path):
    # probe 47 K9: a form kept everything an icon drew, so a circle of radius 100,000 painted
    # the whole card, and 1,990 of them took `export png` 9.9 s for one 5 mm icon
    icons = _icons(tmp_path, huge=HUGE)
    pdf = _page(icons, [("huge", 150, 150, 100, "#000000")])
    image = images_selected(pdf, [0], 72)[0]
    assert image.getpixel((200, 400 - 200)) == (204, 0, 0)  # inside its box
    assert image.getpixel((140, 400 - 140)) == (204, 0, 0)  # a quarter of it beyond
    # inside the circle, but past the box's margin: not painted
    assert image.getpixel((200, 400 - 40)) == (255, 255, 255)
    assert image.getpixel((380, 400 - 200)) == (255, 255, 255)
