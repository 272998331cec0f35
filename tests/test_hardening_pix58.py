"""Issue #33, probes 50 and 51 (helper pix58): what opening or drawing a picture, and the
legibility check, may cost.

P50-10: Pillow inflated every zTXt/iTXt chunk of a PNG into `im.info` each time it opened
it (1 MB a chunk, 64 MB a file): a 63 kB PNG in an icon's data: URI `<use>`d 490 times took
validate 14 s and 6 GB, as a card picture half a second per card face."""

from __future__ import annotations

import base64
import io
import struct
import zlib

import pytest
from PIL import Image, PngImagePlugin

from toolkit.render import pictures, svg_guard


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _png(*extra: bytes) -> bytes:
    """A 10×10 RGB PNG with the chunks `extra` after its header."""
    buffer = io.BytesIO()
    Image.new("RGB", (10, 10), "red").save(buffer, "PNG")
    data = buffer.getvalue()
    return data[:33] + b"".join(extra) + data[33:]


def _ztxt(size: int, key: bytes = b"k") -> bytes:
    return _chunk(b"zTXt", key + b"\0\0" + zlib.compress(b"\0" * size, 9))


@pytest.fixture
def small_text(monkeypatch):
    """`MAX_PNG_TEXT` of 4,000 bytes, Pillow's limits given back after the test."""
    monkeypatch.setattr(pictures, "MAX_PNG_TEXT", 4_000)
    monkeypatch.setattr(PngImagePlugin, "MAX_TEXT_CHUNK", PngImagePlugin.MAX_TEXT_CHUNK)
    monkeypatch.setattr(PngImagePlugin, "MAX_TEXT_MEMORY", PngImagePlugin.MAX_TEXT_MEMORY)


@pytest.mark.parametrize(
    "chunks",
    [
        [_ztxt(3_000), _ztxt(3_000, b"j")],  # each under the bound, not together
        [_ztxt(5_000, b"")],  # a chunk of no key: Pillow inflates it, counts nothing
        [_chunk(b"iCCP", b"p\0\0" + zlib.compress(b"\0" * 5_000))],
        [_chunk(b"iTXt", b"k\0\1\0en\0k\0" + zlib.compress(b"x" * 5_000))],
        [_chunk(b"tEXt", b"k\0" + b"x" * 5_000)],
    ],
)
def test_a_png_whose_text_inflates_past_the_bound_is_refused_before_pillow_opens_it(
    tmp_path, small_text, chunks
):
    path = tmp_path / "a.png"
    path.write_bytes(_png(*chunks))
    size, why = pictures.problem(path, tmp_path)
    assert size is None and why is not None
    assert "text and colour profile chunks (metadata) hold more than 4,000 bytes" in why
    data = io.BytesIO(path.read_bytes())
    with pytest.raises(ValueError, match="metadata"), pictures.opened(data):
        pass


def test_a_png_of_some_text_and_a_profile_is_a_picture(tmp_path, small_text):
    profile = _chunk(b"iCCP", b"p\0\0" + zlib.compress(b"\1" * 1_500))
    damaged = _chunk(b"zTXt", b"d\0\0" + zlib.compress(b"\0" * 1_000)[:-6] + b"junk")
    path = tmp_path / "a.png"
    path.write_bytes(_png(profile, _ztxt(1_000), damaged, _chunk(b"tEXt", b"t\0" + b"x" * 400)))
    assert pictures.problem(path, tmp_path) == ((10, 10), None)


def test_pillow_inflates_no_more_than_the_bound_for_whoever_opens_a_png(small_text):
    # reportlab and svglib open pictures without `pictures.opened` (svglib once per <use>)
    pictures.confine()
    assert PngImagePlugin.MAX_TEXT_CHUNK == PngImagePlugin.MAX_TEXT_MEMORY == 4_000
    with pytest.raises(ValueError):
        Image.open(io.BytesIO(_png(_ztxt(5_000)))).load()


def _icon(tmp_path, png: bytes, uses: int):
    icons = tmp_path / "icons"
    icons.mkdir()
    href = "data:image/png;base64," + base64.b64encode(png).decode()
    body = "".join('<use href="#i"/>' for _ in range(uses))
    (icons / "x.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        ' width="10" height="10">\n'
        f'<defs><image id="i" width="10" height="10" xlink:href="{href}"/></defs>{body}</svg>\n'
    )
    return icons


def test_an_icon_picture_s_text_weighs_per_use_as_its_pixels_do(tmp_path, monkeypatch):
    # svglib opens a data: URI's picture again for each <use>: 490 of 63 MB each took 6 GB
    from toolkit.render.svg_icons import load_svg

    monkeypatch.setattr(svg_guard, "MAX_PIXELS", 20_000)
    icons = _icon(tmp_path, _png(_ztxt(2_000)), 10)  # a short URI, 2 kB once inflated
    icon, problem = load_svg(icons / "x.svg", "icons/x.svg", icons)
    assert icon is None and problem is not None
    assert "more than 20,000 pixels together (a data: URI" in problem.message
    (icons / "x.svg").unlink()
    icons.rmdir()
    icons = _icon(tmp_path, _png(), 10)  # 10 × (100 pixels and its URI): drawn
    icon, problem = load_svg(icons / "x.svg", "icons/x.svg", icons)
    assert problem is None and icon is not None


def test_an_icon_svglib_runs_out_of_memory_on_says_so(tmp_path, monkeypatch):
    # the probe saw "P008 svglib cannot draw it: " (a MemoryError's message is empty)
    from toolkit.render import svg_icons

    def starved(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(svg_icons, "_read", starved)
    icons = _icon(tmp_path, _png(), 1)
    icon, problem = svg_icons.load_svg(icons / "x.svg", "icons/x.svg", icons)
    assert icon is None and problem is not None
    assert problem.message.endswith("needs more memory than the machine gives")


# P50-8: 16 full-card image elements of one 36 M-pixel picture: export png resampled the
# whole picture at each, 1.3 s a face. The pixels one face draws are bounded.


def _flat_png(size: tuple[int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 40, 40)).save(out, "PNG")
    return out.getvalue()


def test_a_face_drawing_more_picture_pixels_than_a_face_may_is_a_finding(
    tmp_path, run_cli, monkeypatch
):
    from tests.test_hardening_pics54 import _game_with_pictures

    monkeypatch.setattr(pictures, "MAX_FACE_PIXELS", 25_000)
    png = _flat_png((100, 100))
    folder = _game_with_pictures(tmp_path, {"a.png": png, "b.png": png, "c.png": png})
    result = run_cli("validate", str(folder), "--no-cache")
    said = " ".join(result.output.split())
    assert result.exit_code == 1, said
    assert (
        "the pictures layout 'dh-hero' draws on its face hold 30,000 pixels together (each"
        " image element its picture's), more than the 25,000 one face draws"
    ) in said
    assert said.count("30,000 pixels together") == said.count("P004")  # once a card
    (folder / "art" / "c.png").write_bytes(_flat_png((50, 100)))  # 25,000: the bound
    result = run_cli("validate", str(folder), "--no-cache")
    assert "pixels together" not in result.output


def test_a_face_draws_the_pictures_that_fit_and_leaves_the_others_blank(tmp_path, monkeypatch):
    from types import SimpleNamespace

    from reportlab.pdfgen.canvas import Canvas

    from toolkit.render.elements.base import Resolved
    from toolkit.render.elements.image import ImageElement

    (tmp_path / "a.png").write_bytes(_flat_png((100, 100)))
    element = ImageElement(kind="image", box={"x": 0, "y": 0, "w": 9, "h": 9}, path="a.png")
    item = Resolved(element, 0, 0, 9, 9, ("a.png",))
    job = SimpleNamespace(root=tmp_path, picture_dpi=None)  # a printed PDF
    drawn: list[object] = []
    monkeypatch.setattr(Canvas, "drawImage", lambda self, *args, **kw: drawn.append(args))
    monkeypatch.setattr(pictures, "MAX_FACE_PIXELS", 25_000)
    c = Canvas(str(tmp_path / "out.pdf"))
    with pictures.one_face(c):
        for _ in range(3):
            element.draw(c, item, 0, 0, job)  # type: ignore[arg-type]
    assert len(drawn) == 2
    element.draw(c, item, 0, 0, job)  # type: ignore[arg-type]  # outside a face: drawn
    assert len(drawn) == 3


# P51-10: the legibility check's `Beneath` of faces that differ card by card (200 boxes shown
# `when` it is not that card, 200 badges, texts): ~0.1 s a face, counted nowhere; validate
# 9.9 s from 80 kB. The different faces' steps are bounded for a game, each face once.


def _varied_game(tmp_path, cards: int = 10):
    """A scaffold game whose faces differ card by card: a box shown on every card but one."""
    from toolkit.scaffold.new import new_game

    game = tmp_path / "g"
    new_game(game, "g", ["en", "fr"])
    boxes = "".join(
        f"  - kind: box\n    when: \"card.id != 'c{i}'\"\n"
        f'    box: {{x: {i}, y: {i}, w: 30, h: 30}}\n    fill: "#{i:02d}{i:02d}ff"\n'
        for i in range(cards)
    )
    texts = "".join(
        f"  - kind: text\n    box: {{x: {i * 3}, y: {i * 4}, w: 20, h: 10}}\n"
        '    text: "{{ card.name }}"\n    size: {max: 8, min: 6}\n    colour: "#202020"\n'
        "    fit: false\n"
        for i in range(4)
    )
    (game / "layouts" / "varied.yaml").write_text(
        f'id: varied\nbackground: "#fbf8f1"\nelements:\n{boxes}{texts}', "utf-8"
    )
    deck = game / "decks" / "cards.yaml"
    head, _, _ = deck.read_text("utf-8").partition("\ncards:\n")
    entries = "".join(f"  - id: c{i}\n    name: {{en: N{i}, fr: Nom{i}}}\n" for i in range(cards))
    deck.write_text(f"{head}\nlayout: varied\ncards:\n{entries}", "utf-8")
    return game, deck


def _looked(monkeypatch) -> dict[str, int]:
    """Each face's steps, by its digest, as the check works them out."""
    from toolkit.checks.legibility import faces

    seen: dict[str, int] = {}
    real = faces._face_colours

    def spy(background, face):
        found = real(background, face)
        seen[found[1]] = found[2]
        return found

    spy.cache_clear = real.cache_clear  # type: ignore[attr-defined]
    monkeypatch.setattr(faces, "_face_colours", spy)
    return seen


def _stops(found: list[dict]) -> list[str]:
    return [d["message"] for d in found if "legibility check stops" in d["message"]]


def test_the_legibility_check_stops_past_the_games_work_and_says_where(tmp_path, monkeypatch):
    from tests.test_fit_budget import _validate
    from toolkit.checks.legibility import faces

    game, _ = _varied_game(tmp_path)
    looked = _looked(monkeypatch)
    assert not _stops(_validate(str(game), "--no-cache"))
    # a face a card (its box missing, the same in both languages), in card order; the back's
    steps = list(looked.values())
    assert len(steps) == 11 and min(steps) > 0
    monkeypatch.setattr(faces, "MAX_WORK", sum(steps[:3]))  # spent once c0, c1, c2 are
    found = _validate(str(game), "--no-cache")
    stops = _stops(found)
    assert len(stops) == 1 and stops[0].startswith("c3: the legibility check stops here"), stops
    stop = next(d for d in found if d["message"] == stops[0])
    assert stop["code"] == "A001" and stop["file"].endswith("cards.yaml"), stop


def test_the_legibility_work_is_the_same_with_the_validate_cache(tmp_path, monkeypatch):
    from tests.test_fit_budget import _validate
    from tests.test_validate_cache_units import cache  # noqa: F401
    from toolkit.checks.legibility import faces
    from toolkit.content import validate_cache

    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(validate_cache.StatCache, "RACY_NS", -(10**18))
    game, deck = _varied_game(tmp_path)
    looked = _looked(monkeypatch)
    _validate(str(game), "--no-cache")
    monkeypatch.setattr(faces, "MAX_WORK", sum(list(looked.values())[:4]))
    monkeypatch.chdir(game)
    text = deck.read_text("utf-8")
    edits = [
        text,
        text.replace("- id: c1\n", "- id: c0b\n"),  # c1 shows every box: another face
        text.replace("- id: c1\n", "- id: c1b\n").replace("- id: c2\n", "- id: c2b\n"),
        text.replace("{en: N6, fr: Nom6}", "{en: N6 x, fr: Nom6 x}"),  # past the stop
        text,
    ]
    stops = []
    for edited in edits:
        deck.write_text(edited, "utf-8")
        faces._face_colours.cache_clear()
        without = _validate(".", "--no-cache")
        for _ in range(2):  # worked out, then read back
            faces._face_colours.cache_clear()
            assert _validate(".") == without
        stops.append(_stops(without))
    assert all(len(stop) == 1 for stop in stops), stops
    assert len({stop[0].split(":")[0] for stop in stops}) > 1, stops  # the edits move it
