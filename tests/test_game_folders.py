"""A game folder's own `layouts/` and `icons/`: read before the toolkit's, printed by build,
known to validate, and bad files reported at their line, never as a traceback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from tests.conftest import FIXTURES, REPO

OWN_LOOK = FIXTURES / "own-look"
LANTERN_ORANGE = (232, 98, 28)  # the SVG's body colour: no built-in icon or layout uses it
NIGHT_BLUE = (29, 43, 74)  # the game layout's background


@pytest.fixture
def lantern(tmp_path, monkeypatch, run_cli) -> Path:
    """A `playset new` game whose deck uses its own layout, with its own icon on the face
    and inline in every language's text; the current folder is the game's."""
    assert run_cli("new", "lantern", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "lantern"
    shutil.copytree(OWN_LOOK / "layouts", game / "layouts", dirs_exist_ok=True)
    shutil.copytree(OWN_LOOK / "icons", game / "icons", dirs_exist_ok=True)
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8").replace(
        "size: poker\n", "size: poker\nlayout: lantern-card\n"
    )
    for lang, line in (
        ("fr", "Avancez de {steps} cases."),
        ("es", "Avanza {steps} casillas."),
        ("en", "Move {steps} spaces."),
    ):
        assert f"{lang}: {line}" in text
        text = text.replace(f"{lang}: {line}", f'{lang}: "{line[:-1]} :lantern:."')
    deck.write_text(text, encoding="utf-8")
    monkeypatch.chdir(game)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    return game


def _first_page(pdf: Path) -> tuple[list[tuple[int, int, int]], str]:
    """The first page's pixels (72 dpi) and its text."""
    document = pdfium.PdfDocument(str(pdf))
    try:
        page = document[0]
        data = page.render(scale=1).to_pil().convert("RGB").tobytes()
        text = page.get_textpage().get_text_range()
    finally:
        document.close()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)], text


def _near(pixels: list[tuple[int, int, int]], colour: tuple[int, int, int]) -> int:
    return sum(1 for p in pixels if all(abs(a - b) <= 6 for a, b in zip(p, colour, strict=True)))


def test_a_game_folder_prints_its_own_face_and_svg_icon_in_three_languages(lantern, run_cli):
    """From inside the folder, with no arguments: validate is clean and build's cards show
    the game's night-blue face and its orange lantern, drawn from the SVG, in fr, es, en."""
    assert run_cli("validate").exit_code == 0
    assert run_cli("build").exit_code == 0
    words = {"fr": "Avancez de 2 cases", "es": "Avanza 2 casillas", "en": "Move 2 spaces"}
    for lang, opening in words.items():
        pixels, text = _first_page(lantern / "output" / "lantern" / lang / "cards.pdf")
        assert _near(pixels, NIGHT_BLUE) > 20_000, lang  # six faces of the game's layout
        assert _near(pixels, LANTERN_ORANGE) > 3_000, lang  # six large lanterns and inline ones
        assert opening in text, lang
        assert ":lantern:" not in text, lang  # the inline icon is drawn, not printed as words


def test_without_its_svg_the_game_icon_is_unknown_to_validate(lantern, run_cli):
    """The icon comes from the game folder only: remove the file and the layout's icon
    (P003), the inline one in each language (P007) and the one in the layout's own words
    (P007, at the layout) are findings."""
    (lantern / "icons" / "lantern.svg").unlink()
    result = run_cli("validate", "--format", "json")
    found = json.loads(result.stdout)
    assert sorted(d["code"] for d in found) == ["P003", "P007", "P007", "P007", "P007"]
    assert sum(d["file"].endswith(".yaml") and "layouts" in d["file"] for d in found) == 2
    assert result.exit_code == 1


def test_a_game_layout_shadows_the_builtin_of_the_same_name(tmp_path):
    from toolkit.render.layout import load_layout

    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "standard.yaml").write_text('id: standard\nbackground: "#102030"\n')
    own, diags = load_layout("standard", tmp_path)
    builtin, _ = load_layout("standard")
    assert own is not None and not diags and own.background == "#102030"
    assert builtin is not None and builtin.background != "#102030" and builtin.elements


@pytest.mark.parametrize("command", ["validate", "build"])
def test_an_svg_svglib_cannot_read_is_a_finding_at_its_line(lantern, run_cli, command):
    (lantern / "icons" / "lantern.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n'
        '  <rect x="1" y="1" width="5"\n'
        "</svg>\n"
    )
    result = run_cli(command, "--format", "json") if command == "validate" else run_cli(command)
    assert result.exit_code == 1
    if command == "build":  # the validity gate's refusal, on stderr
        assert "icons/lantern.svg:3:1: P008" in result.stderr
    else:
        assert any(
            (d["code"], d["file"], d["line"], d["col"]) == ("P008", "icons/lantern.svg", 3, 1)
            for d in json.loads(result.stdout)
        )
    assert not (lantern / "output").exists()


@pytest.mark.parametrize("command", ["validate", "build"])
def test_a_game_layout_with_a_yaml_error_is_a_finding_at_its_line(lantern, run_cli, command):
    (lantern / "layouts" / "lantern-card.yaml").write_text(
        "id: lantern-card\nelements:\n  - kind: box\n    box: {x: 1, y: 1, w: -1, h: -1\n"
    )
    result = run_cli(command)
    assert result.exit_code == 1
    assert "layouts/lantern-card.yaml:5:1: Y001" in result.stdout + result.stderr
    assert not (lantern / "output").exists()


def test_an_svg_that_is_not_svg_and_a_bad_icon_name_are_findings(lantern, run_cli):
    (lantern / "icons" / "note.svg").write_text("<html><body/></html>\n")
    (lantern / "icons" / "Big-Lamp.svg").write_text(
        (OWN_LOOK / "icons" / "lantern.svg").read_text()
    )
    result = run_cli("validate", "--format", "json")
    found = {(d["file"], d["code"]) for d in json.loads(result.stdout)}
    assert found == {("icons/note.svg", "P008"), ("icons/Big-Lamp.svg", "P008")}
    assert result.exit_code == 1


def test_the_toolkit_keeps_only_generic_layouts_and_each_game_its_own():
    """No bundled game's layout sits in the toolkit; every layout a bundled deck names is
    in its own folder or generic, so the wheel (content/**) carries them with the game."""
    builtin = sorted(p.stem for p in (REPO / "templates" / "cards").glob("*.yaml"))
    assert builtin == ["back", "question-back", "question-front", "standard"]
    for game in sorted((REPO / "content").iterdir()):
        own = {p.stem for p in (game / "layouts").glob("*.yaml")}
        for deck in (game / "decks").glob("*.yaml"):
            for line in deck.read_text(encoding="utf-8").splitlines():
                key, _, value = line.partition(":")
                if key in ("layout", "back") and value.strip():
                    assert value.strip() in own | set(builtin), (deck, line)
