"""The rulebook PDF: cover, contents, Markdown body, generated components and card reference."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4, letter

from toolkit.content.game import bundled_games, load_game
from toolkit.render.markdown_flow import fit_widths, make_sheet, markdown_flowables
from toolkit.render.rulebook import render_rulebook

FIXTURES = Path(__file__).parent / "fixtures"

RULEBOOK_FR = """# {{ game.title }}

## Présentation

Un jeu de <b>test</b> & d'essai : 1 < 2 et « guillemets » ; les {{ decks.cards.total }} cartes.
{% for i in range(50) %}collé{{ 'e' * (i % 7) }}\u202f: \
«\u202fvoilà{{ 'a' * (i % 5) }}\u202f» «\u00a0ainsi{{ 'i' * (i % 3) }}\u00a0» {% endfor %}

Anticonstitutionnellementanticonstitutionnellementanticonstitutionnellementanticonstitutionnellementanticonstitutionnellement.

> **Attention.** Une note en *italique* avec `du code`.

### Liste

1. Premier
2. Second
   - imbriqué *un*
   - imbriqué **deux**

---

| Colonne | Nombre | Remarque |
|---|---:|---|
| <i>brut</i> & co | 3 | une cellule assez longue pour devoir passer à la ligne dans sa colonne |
| Deux | 12 | courte |

```
code < brut & tel quel
```

## Fin

Texte final <span>html</span>.
"""

RULEBOOK_EN = "# {{ game.title }}\n\n## Overview\n\nA tiny game.\n"


@pytest.fixture(scope="module")
def fixture_game(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("rulebook") / "game"
    shutil.copytree(FIXTURES / "base", root)
    manifest = (root / "game.yaml").read_text(encoding="utf-8")
    manifest = manifest.replace(
        "players:",
        "summary:\n  fr: Un résumé & <court>.\n  es: Un resumen.\n  en: A summary.\n"
        "age: 10\nminutes: 30\nplayers:",
    )
    manifest += "  rulebook:\n    fr: rulebook/fr.md\n    en: rulebook/en.md\n"
    (root / "game.yaml").write_text(manifest, encoding="utf-8")
    deck = root / "decks" / "cards.yaml"
    deck.write_text(
        deck.read_text(encoding="utf-8").replace("fr: Sprint", "fr: Sprint <b>&</b> fils"),
        encoding="utf-8",
    )
    (root / "rulebook").mkdir()
    (root / "rulebook" / "fr.md").write_text(RULEBOOK_FR, encoding="utf-8")
    (root / "rulebook" / "en.md").write_text(RULEBOOK_EN, encoding="utf-8")
    game = load_game(root)
    assert game.manifest is not None, game.diagnostics
    return game


@pytest.fixture(scope="module")
def fixture_pdf(fixture_game) -> bytes:
    return render_rulebook(fixture_game, "fr")


def reader(data: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(data))


def all_text(pdf: PdfReader) -> str:
    return "\n".join(page.extract_text() for page in pdf.pages)


def test_pdf_pages_and_size(fixture_pdf: bytes) -> None:
    pdf = reader(fixture_pdf)
    assert fixture_pdf.startswith(b"%PDF-")
    assert len(pdf.pages) >= 3
    for page in pdf.pages:
        box = page.mediabox
        assert (round(float(box.width)), round(float(box.height))) == (round(A4[0]), round(A4[1]))


def test_cover_contents_and_footer(fixture_pdf: bytes) -> None:
    pdf = reader(fixture_pdf)
    cover = pdf.pages[0].extract_text()
    assert "Jeu témoin" in cover
    assert "Un résumé & <court>." in cover
    assert "Joueurs" in cover and "2–4" in cover
    assert "10+" in cover and "30" in cover and "Minutes" in cover
    contents = pdf.pages[1].extract_text()
    assert "Sommaire" in contents
    for entry in ("Présentation", "Liste", "Fin", "Liste du matériel", "Référence des cartes"):
        assert entry in contents
    for number, page in enumerate(pdf.pages[1:], start=2):
        text = page.extract_text()
        assert "Jeu témoin" in text
        assert str(number) in text.splitlines(), f"no page number on page {number}"
    assert "1" not in cover.splitlines()  # the cover has no footer


def test_markdown_body(fixture_pdf: bytes) -> None:
    text = all_text(reader(fixture_pdf))
    assert "les 5 cartes" in text  # Jinja facts filled before the Markdown is parsed
    for piece in ("Attention.", "du code", "Premier", "imbriqué", "Remarque", "Texte final"):
        assert piece in text


def test_content_is_never_markup(fixture_pdf: bytes) -> None:
    text = all_text(reader(fixture_pdf))
    assert "Un jeu de <b>test</b> & d'essai" in text
    assert "1 < 2" in text
    assert "<i>brut</i> & co" in text
    assert "code < brut & tel quel" in text
    assert "<span>html</span>" in text
    assert "Sprint <b>&</b> fils" in text  # a card name in the card reference


def test_generated_sections(fixture_pdf: bytes) -> None:
    text = all_text(reader(fixture_pdf))
    assert "Liste du matériel" in text and "Référence des cartes" in text
    assert "5 cartes (63 × 88 mm)" in text.replace("\u202f", " ")
    assert "Plan du jeu" in text
    assert "Avancez de 3 cases." in text  # the card text, filled from its parameters


def test_no_break_spaces_hold(fixture_pdf: bytes) -> None:
    lines = [line.strip() for line in all_text(reader(fixture_pdf)).splitlines()]
    body = [line for line in lines if "collé" in line or "ainsi" in line or "voilà" in line]
    assert len(body) > 3
    for line in body:
        assert not line.startswith((":", "»")), line
        assert not line.endswith(("«", "«\u00a0")), line


def test_fonts_are_embedded_noto(fixture_pdf: bytes) -> None:
    pdf = reader(fixture_pdf)
    names = set()
    for page in pdf.pages:
        fonts = page["/Resources"].get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            names.add(str(font["/BaseFont"]))
            descendants = font.get("/DescendantFonts")
            target = descendants[0].get_object() if descendants else font
            descriptor = target.get("/FontDescriptor")
            assert descriptor is not None, font
            descriptor = descriptor.get_object()
            assert any(k in descriptor for k in ("/FontFile2", "/FontFile", "/FontFile3"))
    assert names and all("NotoSans" in name for name in names), names
    assert any("bold" in name.lower() for name in names)


def test_deterministic(fixture_game, fixture_pdf: bytes) -> None:
    assert render_rulebook(fixture_game, "fr") == fixture_pdf


def test_letter_paper_and_errors(fixture_game) -> None:
    pdf = reader(render_rulebook(fixture_game, "en", paper="letter"))
    box = pdf.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (round(letter[0]), letter[1])
    assert "Contents" in pdf.pages[1].extract_text()
    with pytest.raises(ValueError):
        render_rulebook(fixture_game, "es")  # no Spanish rulebook in the fixture
    with pytest.raises(ValueError):
        render_rulebook(fixture_game, "fr", paper="a9")


@pytest.mark.parametrize(
    ("game_id", "lang", "words"),
    [
        ("tokaido", "fr", ("Sommaire", "Matériel", "Référence des cartes", "Voyageurs")),
        ("drinking-heroes", "es", ("Índice", "Componentes", "Referencia de cartas", "Hechizos")),
        ("whisky-game", "en", ("Contents", "Components", "Card reference", "Characters")),
        ("muckle-stoater", "fr", ("Sommaire", "Matériel", "Référence des cartes", "Mashie")),
    ],
)
def test_bundled_rulebooks(game_id: str, lang: str, words: tuple[str, ...]) -> None:
    game = load_game(bundled_games()[game_id])
    pdf = reader(render_rulebook(game, lang))
    assert len(pdf.pages) >= 5
    text = all_text(pdf)
    for word in words:
        assert word in text
    title = game.manifest.title[lang]
    assert title in pdf.pages[0].extract_text()


def test_first_heading_becomes_the_title() -> None:
    converted = markdown_flowables("# Title\n\n## Section\n\nText.\n", make_sheet("en"))
    assert converted.title == "Title"
    assert len(converted.flowables) == 2


def test_fit_widths() -> None:
    widths = fit_widths([30, 30, 40], [40, 50, 900], 400)
    assert sum(widths) == pytest.approx(400)
    assert widths[0] == pytest.approx(40) and widths[1] == pytest.approx(50)
    squeezed = fit_widths([100, 100, 100], [300, 300, 300], 240)
    assert sum(squeezed) == pytest.approx(240)
    roomy = fit_widths([10, 10], [20, 60], 400)
    assert sum(roomy) == pytest.approx(400) and roomy[1] > roomy[0]


def test_build_prints_the_rulebook_the_gate_rendered(run_cli, tmp_path, monkeypatch):
    """The validity gate renders the rulebook template of each language built (R010, its
    glyphs; `--lang en`: English alone); the build prints that very text instead of running
    the template a second time."""
    from toolkit.render import rulebook_source

    rendered: list[str] = []
    real = rulebook_source._context

    def counting(game, lang, later=False):
        rendered.append(lang)
        return real(game, lang, later)

    monkeypatch.setattr(rulebook_source, "_context", counting)
    out = tmp_path / "out"
    result = run_cli(
        "build", "muckle-stoater", "--only", "rulebook", "--lang", "en", "--out", str(out)
    )
    assert result.exit_code == 0, result.output
    assert (out / "muckle-stoater" / "en" / "rulebook.pdf").is_file()
    game = load_game(bundled_games()["muckle-stoater"])
    assert "en" in game.rulebook and len(game.rulebook) > 1
    assert rendered == ["en"]  # once: the gate's, of the language built


def test_a_paragraph_breaks_its_lines_once_per_width(monkeypatch) -> None:
    """A rulebook's paragraph is wrapped about three times at one width (its keep-with-next
    group, its frame, the second pass of multiBuild): its lines are broken once, and a wrap
    at another width breaks them for that width."""
    from reportlab.platypus.paragraph import Paragraph as Plain

    sheet = make_sheet("fr", "#8a2c2c")
    body = markdown_flowables("Une règle assez longue pour tenir sur plusieurs lignes. " * 8, sheet)
    para = body.flowables[0]
    broken: list[list[float]] = []
    real = Plain.breakLines

    def counting(self, widths):
        broken.append(list(widths))
        return real(self, widths)

    monkeypatch.setattr(Plain, "breakLines", counting)
    first = para.wrap(300, 800)
    lines = len(para.blPara.lines)
    assert para.wrap(300, 500) == first and len(broken) == 1
    narrow = para.wrap(150, 800)
    assert narrow[1] > first[1] and len(broken) == 2
    assert para.wrap(300, 800) == first and len(para.blPara.lines) == lines
    assert para.wrap(0, 800) == (0, 0x7FFFFFFF)  # too narrow to try, as reportlab says


def test_the_first_pass_lays_paragraphs_out_without_drawing_them(fixture_game, monkeypatch):
    """multiBuild's first pass only finds the contents' page numbers: its paragraphs are
    not drawn, and the PDF is byte for byte the one drawn on both passes."""
    from reportlab.platypus.paragraph import Paragraph as Plain

    from toolkit.render import markdown_flow

    drawn: list[bool] = []  # for each paragraph of the book drawn: whether on a sketch
    real = Plain.drawPara

    def counting(self, *args, **kwargs):
        if isinstance(self, markdown_flow.Paragraph):  # not the contents' own entries
            drawn.append(bool(getattr(self.canv, "sketch", False)))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Plain, "drawPara", counting)
    sketched = render_rulebook(fixture_game, "fr")
    once = len(drawn)
    assert not any(drawn)  # nothing drawn on a sketch
    monkeypatch.setattr(markdown_flow.SketchCanvas, "sketch", False)  # draw on both passes
    drawn.clear()
    assert render_rulebook(fixture_game, "fr") == sketched
    assert len(drawn) == 2 * once and not any(drawn)


def test_a_first_pass_that_settles_the_contents_is_drawn_in_full(fixture_game, monkeypatch):
    """Were the contents settled after the sketch, the book is laid out again and drawn: a
    sketch never becomes the PDF."""
    from toolkit.render import rulebook

    monkeypatch.setattr(rulebook._RulebookDoc, "_allSatisfied", lambda self: True)
    pdf = PdfReader(io.BytesIO(render_rulebook(fixture_game, "fr")))
    text = "".join(page.extract_text() for page in pdf.pages)
    assert "Présentation" in text and "Texte final" in text
