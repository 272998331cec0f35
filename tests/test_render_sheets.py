"""Card sheets: geometry, crop marks, mirrored backs, text, fonts, boxes, escaping, bytes."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm

from tests.conftest import FIXTURES, REPO
from toolkit.content.game import bundled_games, load_game
from toolkit.render import sheets
from toolkit.render.artifacts.cards import cards_pdf
from toolkit.render.build import BuildOptions, build_game
from toolkit.render.layout import load_layout

SNAPSHOTS = Path(__file__).parent / "snapshots"


def test_poker_cards_fit_three_by_three_on_a4():
    geo = sheets.geometry(A4, (63, 88))
    assert (geo.cols, geo.rows) == (3, 3)
    left, bottom, right, top = geo.grid
    margin = 5 * mm - 1e-6
    assert left >= margin and bottom >= margin
    assert A4[0] - right >= margin and A4[1] - top >= margin


def test_small_cards_keep_their_own_bleed():
    geo = sheets.geometry(A4, (44, 63))
    assert geo.gutter == pytest.approx(6 * mm)
    assert geo.per_page >= 8


class _Recorder:
    """Stands in for a canvas: records lines, ignores everything else."""

    def __init__(self) -> None:
        self.lines: list[tuple[float, float, float, float]] = []

    def line(self, x1, y1, x2, y2):
        self.lines.append((x1, y1, x2, y2))

    def beginPath(self):  # noqa: N802 - reportlab's name
        return _Recorder()

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def test_crop_marks_stay_in_the_margins():
    geo = sheets.geometry(A4, (63, 88))
    recorder = _Recorder()
    sheets.draw_crop_marks(recorder, geo)
    left, bottom, right, top = geo.grid
    lines_x = geo.cols + 1 if geo.gutter == 0 else 2 * geo.cols
    lines_y = geo.rows + 1 if geo.gutter == 0 else 2 * geo.rows
    assert len(recorder.lines) == 2 * lines_x + 2 * lines_y
    for x1, y1, x2, y2 in recorder.lines:
        for x, y in ((x1, y1), (x2, y2)):
            assert 0 <= x <= A4[0] and 0 <= y <= A4[1]
            inside = left < x < right and bottom < y < top
            assert not inside, "a crop mark crosses the printed grid"


def test_backs_are_mirrored_for_long_edge_duplex(monkeypatch):
    game = load_game(bundled_games()["whisky-game"])
    deck = game.valid(game.decks)[0]
    placed: list[tuple[str, str, float, float]] = []

    def record(c, job, layout, card, at, *args, **kwargs):
        placed.append((layout.id, card.id, round(at[0], 2), round(at[1], 2)))

    monkeypatch.setattr(sheets, "draw_face", record)
    front, back = load_layout("standard")[0], load_layout("back")[0]
    job = sheets.PrintJob(game, deck, front, back, "en", (63, 88), A4, "t", back_per_card=True)
    sheets.draw_deck(_Recorder(), job)
    geo = sheets.geometry(A4, (63, 88))
    fronts = [p for p in placed if p[0] == "standard"][: geo.per_page]
    backs = [p for p in placed if p[0] == "back"][: geo.per_page]
    for (_, card_f, xf, yf), (_, card_b, xb, yb) in zip(fronts, backs, strict=True):
        assert card_f == card_b and yf == yb
        assert xf + xb == pytest.approx(
            2 * geo.left + (geo.cols - 1) * (geo.card_w + geo.gutter), abs=0.02
        )


@pytest.fixture(scope="module")
def whisky_pdf() -> bytes:
    game = load_game(bundled_games()["whisky-game"])
    return cards_pdf(game, game.valid(game.decks), "es", BuildOptions(["es"]))


def test_sheet_pages_sizes_and_text(whisky_pdf, tmp_path):
    path = tmp_path / "cards.pdf"
    path.write_bytes(whisky_pdf)
    reader = PdfReader(path)
    # 15 characters → 2 sheets; 45 specials → 5; 72 mini bottles → 5 (16 a sheet); 12 lost
    # bottles → 1; 75 tokens → 1 (77 a sheet); each sheet a fronts and a backs page
    assert len(reader.pages) == 2 * (2 + 5 + 5 + 1 + 1)
    for page in reader.pages:
        assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (595, 842)
    text = reader.pages[0].extract_text()
    assert "Alan Winchester" in text and "botella" in text.lower()


def test_fonts_are_embedded(whisky_pdf, tmp_path):
    path = tmp_path / "cards.pdf"
    path.write_bytes(whisky_pdf)
    fonts = PdfReader(path).pages[0]["/Resources"]["/Font"]
    for ref in fonts.values():
        font = ref.get_object()
        descendant = (
            font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        )
        descriptor = descendant["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor, f"{font['/BaseFont']} is not embedded"


def test_every_language_prints_its_own_text():
    game = load_game(bundled_games()["tokaido"])
    decks = [d for d in game.valid(game.decks) if d.id == "travellers"]
    for lang, word in (("fr", "En arrivant"), ("es", "Al llegar"), ("en", "On arriving")):
        data = cards_pdf(game, decks, lang, BuildOptions([lang]))
        reader = PdfReader(__import__("io").BytesIO(data))
        assert word in reader.pages[0].extract_text()


def test_same_content_gives_identical_bytes(whisky_pdf):
    game = load_game(bundled_games()["whisky-game"])
    again = cards_pdf(game, game.valid(game.decks), "es", BuildOptions(["es"]))
    assert again == whisky_pdf


def test_per_card_pages_have_trim_and_bleed_boxes(tmp_path):
    game = load_game(bundled_games()["muckle-stoater"])
    data = cards_pdf(game, game.valid(game.decks), "en", BuildOptions(["en"], per_card=True))
    reader = PdfReader(__import__("io").BytesIO(data))
    assert len(reader.pages) == 2 * 54
    page = reader.pages[0]
    bleed, w, h = 3 * mm, 63 * mm, 88 * mm
    assert [float(v) for v in page.trimbox] == pytest.approx(
        [bleed, bleed, bleed + w, bleed + h], abs=0.01
    )
    assert [float(v) for v in page.bleedbox] == pytest.approx(
        [0, 0, w + 2 * bleed, h + 2 * bleed], abs=0.01
    )


def test_markup_characters_print_as_written(tmp_path, monkeypatch):
    game_dir = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game_dir)
    deck = game_dir / "decks" / "cards.yaml"
    deck.write_text(
        deck.read_text().replace("en: Move {steps} spaces.", 'en: "Use <b> & <i>{steps}</i>."')
    )
    game = load_game(game_dir)
    data = cards_pdf(game, game.valid(game.decks), "en", BuildOptions(["en"]))
    text = PdfReader(__import__("io").BytesIO(data)).pages[0].extract_text()
    assert "Use <b> & <i>3</i>." in text


def test_build_writes_only_under_out(tmp_path):
    game = load_game(FIXTURES / "base")
    written = build_game(game, tmp_path / "out", BuildOptions(["fr", "en"]))
    names = sorted(w.path.relative_to(tmp_path / "out").as_posix() for w in written)
    assert "fixture-game/fr/cards.pdf" in names and "fixture-game/en/questions.pdf" in names
    assert all((tmp_path / "out") in w.path.parents for w in written)
    assert not list(tmp_path.glob("out/**/*.tmp"))


def _thumbnail(pdf: Path, tmp: Path) -> list[int]:
    """Page 1 at 8 dpi, grey levels: a low-resolution snapshot that tolerates small changes."""
    from PIL import Image

    subprocess.run(
        [
            "pdftoppm",
            "-r",
            "12",
            "-gray",
            "-png",
            "-f",
            "1",
            "-l",
            "1",
            str(pdf),
            str(tmp / "thumb"),
        ],
        check=True,
    )
    image = Image.open(next(tmp.glob("thumb*.png"))).convert("L")
    return list(image.tobytes())


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler-utils' pdftoppm")
@pytest.mark.parametrize("game_id", sorted(bundled_games()))
def test_sheet_matches_its_snapshot(game_id, tmp_path):
    game = load_game(bundled_games()[game_id])
    pdf = tmp_path / "cards.pdf"
    pdf.write_bytes(cards_pdf(game, game.valid(game.decks)[:1], "en", BuildOptions(["en"])))
    pixels = _thumbnail(pdf, tmp_path)
    reference = SNAPSHOTS / f"{game_id}.json"
    if not reference.exists():  # written once by a developer, then committed
        pytest.skip(f"no snapshot yet: {reference}")
    expected = json.loads(reference.read_text())
    assert len(pixels) == len(expected)
    mean_diff = sum(abs(a - b) for a, b in zip(pixels, expected, strict=True)) / len(pixels)
    assert mean_diff < 6, f"sheet differs from its snapshot by {mean_diff:.1f} grey levels"


def write_snapshots() -> None:  # pragma: no cover - run by hand: python -m tests.test_render_sheets
    import tempfile

    for game_id, folder in bundled_games().items():
        game = load_game(folder)
        with tempfile.TemporaryDirectory() as tmp:
            pdf = Path(tmp) / "cards.pdf"
            pdf.write_bytes(cards_pdf(game, game.valid(game.decks)[:1], "en", BuildOptions(["en"])))
            (SNAPSHOTS / f"{game_id}.json").write_text(json.dumps(_thumbnail(pdf, Path(tmp))))


if __name__ == "__main__":
    write_snapshots()
    print("snapshots written under", SNAPSHOTS, REPO)


def test_one_render_per_card_gives_what_each_element_gives_alone() -> None:
    """The combined layout template must resolve exactly like rendering element by element."""
    from toolkit.content.game import bundled_games, load_game
    from toolkit.content.models.deck import size_mm
    from toolkit.render.context import card_context
    from toolkit.render.layout import DEFAULT_FRONT, _resolve_each, load_layout, resolve

    compared = 0
    for path in bundled_games().values():
        game = load_game(path)
        for deck in game.valid(game.decks):
            for name in (deck.layout or DEFAULT_FRONT, deck.back or "back"):
                layout, _ = load_layout(name, game.root)
                assert layout is not None
                for card in deck.cards:
                    for lang in game.manifest.languages:
                        context = card_context(game, deck, card, lang)
                        label = {k: v.get(lang, k) for k, v in layout.labels.items()}
                        each = _resolve_each(
                            layout, {**context, "label": label}, *size_mm(deck.size)
                        )
                        assert resolve(layout, context, *size_mm(deck.size)) == each
                        compared += 1
    assert compared > 500


def _bundled_languages() -> list[tuple[str, str]]:
    """(game, language) for every bundled game, from the manifests alone (collection stays
    quick: no game is loaded to name the tests)."""
    from ruamel.yaml import YAML

    from toolkit.content.game import bundled_games

    yaml = YAML(typ="safe")
    return [
        (game_id, lang)
        for game_id, path in sorted(bundled_games().items())
        for lang in yaml.load((path / "game.yaml").read_text(encoding="utf-8"))["languages"]
    ]


# One game and language a test (every bundled PDF in all): the whole build in one test took
# longer than any other test, and parallel workers can share its parts.
@pytest.mark.parametrize(("game_id", "lang"), _bundled_languages())
def test_every_character_printed_in_every_bundled_pdf_has_a_glyph(
    game_id, lang, tmp_path, monkeypatch
):
    """What the PDFs draw, not only what content holds: a layout's own words and computed
    values once printed as boxes (U+2192, U+2605) while every content check was clean."""
    from reportlab.pdfbase import ttfonts

    from toolkit.content.game import bundled_games, load_game
    from toolkit.render.build import BuildOptions, build_game

    missing: dict[str, set[str]] = {}
    original = ttfonts.TTFont.splitString

    def spy(self, text, doc, encoding="utf-8"):
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        for ch in text:
            if ord(ch) >= 32 and ord(ch) not in self.face.charToGlyph:
                missing.setdefault(ch, set()).add(self.fontName)
        return original(self, text, doc, encoding)

    monkeypatch.setattr(ttfonts.TTFont, "splitString", spy)
    game = load_game(bundled_games()[game_id])
    written = build_game(game, tmp_path, BuildOptions([lang]))
    assert written and missing == {}


def test_poker_cards_on_letter_lie_sideways_and_backs_register():
    """Letter fits 6 upright poker cards (3 rows need 270 mm, it has 269.4 mm inside the
    margins) or 8 sideways; fronts turn their top to the left, backs to the right, so after a
    long-edge flip (columns mirrored) each back's top lies under its front's top."""
    import io

    from reportlab.lib.pagesizes import LETTER
    from reportlab.pdfgen.canvas import Canvas

    geo = sheets.geometry(LETTER, (63, 88))
    assert geo.turned and (geo.cols, geo.rows) == (2, 4)
    assert (geo.card_w, geo.card_h) == pytest.approx((88 * mm, 63 * mm))
    assert not sheets.geometry(A4, (63, 88)).turned
    canvas = Canvas(io.BytesIO(), pagesize=LETTER)
    w, h = 63 * mm, 88 * mm
    for back, top_side in ((False, "left"), (True, "right")):
        x, y = geo.trim_origin(0, 0)
        with sheets._slot_frame(canvas, geo, x, y, back=back) as (u0, v0):
            assert (u0, v0) == (0, 0)
            corners = [canvas.absolutePosition(u, v) for u, v in ((0, 0), (w, 0), (0, h), (w, h))]
            top = canvas.absolutePosition(w / 2, h)
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        assert (min(xs), max(xs)) == pytest.approx((x, x + geo.card_w))
        assert (min(ys), max(ys)) == pytest.approx((y, y + geo.card_h))
        assert top[0] == pytest.approx(x if top_side == "left" else x + geo.card_w)


def test_cards_sharing_cut_lines_never_bleed_over_a_neighbour():
    """Poker cards 3×3 on A4 share cut lines: each card is clipped to its trim on every side
    that touches another card, and keeps its bleed only on the grid's outside."""
    import re

    game = load_game(bundled_games()["whisky-game"])
    deck = next(d for d in game.valid(game.decks) if d.id == "characters")
    pdf = cards_pdf(game, [deck], "en", BuildOptions(["en"]))
    from io import BytesIO

    page = PdfReader(BytesIO(pdf)).pages[0]
    stream = page.get_contents().get_data().decode("latin-1")
    clips = [
        tuple(float(v) for v in m.groups())
        for m in re.finditer(r"n ([\d.-]+) ([\d.-]+) ([\d.-]+) ([\d.-]+) re W\*? n", stream)
    ]
    geo = sheets.geometry(A4, (63, 88))
    assert geo.gutter == 0 and len(clips) == geo.per_page
    widths = sorted(round(w / mm, 1) for _, _, w, _ in clips)
    heights = sorted(round(h / mm, 1) for _, _, _, h in clips)
    # edge columns/rows: trim + one bleed; the middle column/row: the trim alone
    assert widths == [63.0] * 3 + [66.0] * 6
    assert heights == [88.0] * 3 + [91.0] * 6
