"""A newcomer's game (issue 32): mistakes give one finding at the line to edit, in the
designer's words, and a clean game with its own icon and glossary gives none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import REPO, copy_game

DOUBLOON_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">\n'
    '  <circle cx="50" cy="50" r="40" fill="currentColor"/>\n'
    "</svg>\n"
)


@pytest.fixture
def harbour(run_cli, tmp_path) -> Path:
    """A `playset new` game with its own icon, used inline in every language, and a
    glossary term of the same name."""
    assert run_cli("new", "harbour-market", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "harbour-market"
    (game / "icons").mkdir(exist_ok=True)
    (game / "icons" / "doubloon.svg").write_text(DOUBLOON_SVG, encoding="utf-8")
    deck = game / "decks" / "cards.yaml"
    edit(deck, "fr: Marquez {points} points.", "fr: '+{points} :doubloon:'")
    edit(deck, "es: Gana {points} puntos.", "es: '+{points} :doubloon:'")
    edit(deck, "en: Score {points} points.", "en: '+{points} :doubloon:'")
    edit(deck, "fr: Piochez une carte.", "fr: 'Piochez une carte et prenez un :doubloon:.'")
    edit(deck, "es: Roba una carta.", "es: 'Roba una carta y toma un :doubloon:.'")
    edit(deck, "en: Draw a card.", "en: 'Draw a card and take a :doubloon:.'")
    glossary = game / "glossary.yaml"
    with glossary.open("a", encoding="utf-8") as out:
        out.write(
            "  - id: doubloon\n    text:\n      fr: doublon\n      es: doblón\n      en: doubloon\n"
        )
    return game


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def place(path: Path, needle: str) -> tuple[int, int]:
    """Line and column (1-based) of the first occurrence of `needle` in the file."""
    text = path.read_text(encoding="utf-8")
    at = text.index(needle)
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def findings(run_cli, folder: Path) -> list[dict]:
    result = run_cli("validate", str(folder), "--format", "json")
    return json.loads(result.stdout) if result.stdout.strip() else []


def test_icon_names_and_placeholders_are_not_words_to_translate(run_cli, harbour):
    """`:doubloon:` is no use of the glossary's 'doubloon' (T008), `{points}` none of
    'point', and `'+{points} :doubloon:'` has nothing to translate (T004)."""
    assert findings(run_cli, harbour) == []


def test_a_kept_name_holding_a_term_is_not_a_use_of_the_term(run_cli, harbour):
    glossary = harbour / "glossary.yaml"
    text = glossary.read_text(encoding="utf-8").replace("Harbour market", "Harbour Market")
    glossary.write_text(
        text + "  - id: market\n    text:\n      fr: marché\n      es: mercado\n      en: market\n",
        encoding="utf-8",
    )
    manifest = harbour / "game.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8").replace("Harbour market", "Harbour Market"),
        encoding="utf-8",
    )
    assert findings(run_cli, harbour) == []


HARBOUR_CARD = """id: harbour-card
background: "#f4ecd8"
elements:
  - kind: text
    box: {x: 5, y: 5, w: -5, h: 10}
    text: "{{ card.name }}"
    size: {max: 13, min: 8}
  - kind: icon
    box: {x: 16, y: 18, w: 31, h: 31}
    icon: doubloon
  - kind: text
    box: {x: 6, y: 54, w: -6, h: -14}
    text: "{{ card.text }}"
    size: {max: 10, min: 6.5}
"""


def use_layout(game: Path) -> Path:
    (game / "layouts").mkdir(exist_ok=True)
    layout = game / "layouts" / "harbour-card.yaml"
    layout.write_text(HARBOUR_CARD, encoding="utf-8")
    edit(game / "decks" / "cards.yaml", "size: poker\n", "size: poker\nlayout: harbour-card\n")
    return layout


def test_an_unknown_inline_icon_gets_a_did_you_mean(run_cli, harbour):
    deck = harbour / "decks" / "cards.yaml"
    edit(deck, "take a :doubloon:", "take a :dubloon:")
    (diag,) = findings(run_cli, harbour)
    assert diag["code"] == "P007"
    assert "did you mean ':doubloon:'?" in diag["message"]
    assert (diag["line"], diag["col"]) == place(deck, "'Draw a card and take")


def test_a_layouts_missing_icon_is_one_finding_at_the_layouts_line(run_cli, harbour):
    layout = use_layout(harbour)
    edit(layout, "icon: doubloon", "icon: dubloon")
    (diag,) = findings(run_cli, harbour)
    assert diag["code"] == "P003" and diag["file"].endswith("layouts/harbour-card.yaml")
    assert (diag["line"], diag["col"]) == place(layout, "dubloon")
    assert "did you mean 'doubloon'?" in diag["message"]


def test_a_broken_svg_is_one_finding_at_the_svg(run_cli, harbour):
    """The layout's icon and the inline ones name a file that is there but cannot be read:
    no knock-on P003 or P007 listing every icon."""
    use_layout(harbour)
    (harbour / "icons" / "doubloon.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg">\n  <rect\n', encoding="utf-8"
    )
    (diag,) = findings(run_cli, harbour)
    assert diag["code"] == "P008" and diag["file"].endswith("icons/doubloon.svg")


@pytest.mark.parametrize("indent", ["     en: ", "    en: "])
def test_one_bad_glossary_line_is_its_own_finding_and_hides_no_other(run_cli, tmp_path, indent):
    """Tokaido's layouts print glossary terms and its names stay untranslated by the
    glossary's say-so: with a mis-indented glossary line (a YAML error, or a key pushed into
    a text: a schema error) those cannot be judged, so they wait (no knock-on T004, P003 or
    R004), and a placeholder typo elsewhere is still reported."""
    game = copy_game(REPO / "content" / "tokaido", tmp_path / "tokaido")
    glossary = game / "glossary.yaml"
    edit(glossary, "      en: traveller\n", indent + "traveller\n")
    deck = game / "decks" / "achievements.yaml"
    edit(deck, "Arrozal: {points} puntos", "Arrozal: {pionts} puntos")
    found = sorted((d["file"].rsplit("/", 1)[-1], d["code"]) for d in findings(run_cli, game))
    assert found[0] == ("achievements.yaml", "R006")
    assert found[1][0] == "glossary.yaml" and found[1][1][0] in "YS"
    assert len(found) == 2, found


def test_a_schema_error_in_a_deck_hides_no_rulebook_finding(run_cli, harbour):
    """The deck with an S002 is unchecked content: what the rulebook reads of it prints
    nothing (no knock-on R010), and a typo elsewhere in the rulebook is still an R010."""
    deck = harbour / "decks" / "cards.yaml"
    edit(deck, "    copies: 3\n", "    copies: 3\n    colour: red\n")
    rulebook = harbour / "rulebook" / "en.md"
    edit(rulebook, "{{ rules.hand_size }}", "{{ rules.hand_sise }}")
    found = findings(run_cli, harbour)
    assert [d["code"] for d in found] == ["S002", "R010"], found
    assert "did you mean 'hand_size'?" in found[1]["message"]
    assert (found[1]["line"], found[1]["col"]) == place(rulebook, "rules.hand_sise")


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        (
            "    copies: 3\n",
            '    copies: 3\n    price: "3"\n',
            "price should be a whole number, not a text: write 3 without quotes",
        ),
        ("    copies: 1\n", "    copies: 1.5\n", "copies should be a whole number, not 1.5"),
        ("      points: 3\n", '      points: "3"\n', "(write 3 without quotes)"),
    ],
)
def test_a_quoted_number_says_the_field_and_to_drop_the_quotes(run_cli, harbour, old, new, words):
    deck = harbour / "decks" / "cards.yaml"
    edit(deck, old, new)
    (diag,) = findings(run_cli, harbour)
    assert diag["code"] in ("S001", "S005") and words in diag["message"], diag
    assert diag["line"] == place(deck, new.strip().split("\n")[-1].strip())[0]


def test_i18n_export_in_a_game_folder_exports_that_game(run_cli, harbour, monkeypatch):
    monkeypatch.chdir(harbour / "decks")
    result = run_cli("i18n", "export", "--lang", "fr")
    assert result.exit_code == 0, result.output
    assert '"Project-Id-Version: harbour-market\\n"' in result.stdout
    assert 'msgid "Draw a card and take a :doubloon:."' in result.stdout
