"""Messages a designer can act on: each finding on a `playset new` game names the place in
the designer's words (a card by its id, a key that looks mis-indented, a template name that
does not exist) at the line and column to edit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture
def game(run_cli, tmp_path) -> Path:
    """A fresh `playset new` game (validates clean)."""
    assert run_cli("new", "lanterns", "--into", str(tmp_path)).exit_code == 0
    return tmp_path / "lanterns"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def place(path: Path, needle: str, nth: int = 1) -> tuple[int, int]:
    """Line and column (1-based) of the nth occurrence of `needle` in the file."""
    text = path.read_text(encoding="utf-8")
    at = -1
    for _ in range(nth):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


def validate(run_cli, folder: Path) -> tuple[int, list[dict]]:
    result = run_cli("validate", str(folder), "--format", "json")
    return result.exit_code, json.loads(result.stdout) if result.stdout.strip() else []


def only(found: list[dict]) -> dict:
    assert len(found) == 1, found
    return found[0]


def test_missing_language_names_the_card_by_id(run_cli, game):
    deck = game / "decks" / "cards.yaml"
    edit(deck, "      es: Tesoro\n", "")
    code, found = validate(run_cli, game)
    diag = only(found)
    assert code == 1 and diag["code"] == "T001"
    assert diag["message"] == "cards/treasure/name has no es text"
    # the third `name:` (the deck's, advance's, then treasure's)
    assert (diag["line"], diag["col"]) == place(deck, "name:", 3)


def test_a_key_indented_into_a_text_says_it_looks_mis_indented(run_cli, game):
    deck = game / "decks" / "cards.yaml"
    edit(deck, "      en: Treasure\n", "      en: Treasure\n      copies: 4\n")
    code, found = validate(run_cli, game)
    diag = only(found)
    assert code == 1 and diag["code"] == "S004"
    assert (diag["line"], diag["col"]) == place(deck, "copies: 4")
    assert "'copies' is not a language code" in diag["message"]
    assert "indented too far" in diag["message"] and "column 5" in diag["message"]
    assert "should match pattern" not in diag["message"]


def test_a_bad_id_says_what_an_id_is(run_cli, game):
    deck = game / "decks" / "cards.yaml"
    edit(deck, "- id: rest", "- id: Rest")
    diag = only(validate(run_cli, game)[1])
    assert diag["code"] == "S004" and (diag["line"], diag["col"]) == place(deck, "Rest")
    assert diag["message"].startswith("'Rest' is not an id (lowercase letters and digits")


def test_an_outdented_key_says_it_looks_mis_indented(run_cli, game):
    deck = game / "decks" / "cards.yaml"
    edit(deck, "    copies: 2\n", "  copies: 2\n")
    diag = only(validate(run_cli, game)[1])
    assert diag["code"] == "Y001" and (diag["line"], diag["col"]) == place(deck, "copies: 2")
    assert "mis-indented" in diag["message"] and "<block end>" not in diag["message"]


def test_a_key_under_a_value_says_it_is_indented_too_far(run_cli, game):
    deck = game / "decks" / "cards.yaml"
    edit(deck, "    copies: 3\n", "    copies: 3\n      extra: 1\n")
    diag = only(validate(run_cli, game)[1])
    assert diag["code"] == "Y001" and (diag["line"], diag["col"]) == place(deck, "extra")
    assert "indented too far" in diag["message"]


def test_a_colon_in_a_plain_text_asks_for_quotes(run_cli, game):
    deck = game / "decks" / "cards.yaml"
    edit(deck, "en: Draw a card.", "en: Note: draw a card.")
    diag = only(validate(run_cli, game)[1])
    assert diag["code"] == "Y001" and (diag["line"], diag["col"]) == place(deck, ": draw")
    assert "needs quotes" in diag["message"]


@pytest.mark.parametrize(
    ("expression", "words"),
    [
        (
            "decks.cards.cards[0].nmae",
            "card 'advance' has no field 'nmae'; did you mean 'name'? It has: copies, id,",
        ),
        ("rules.hand_sise", "`rules` has no field 'hand_sise'; did you mean 'hand_size'?"),
        ("game.titel", "the game has no field 'titel'; did you mean 'title'?"),
        ("decks.card.total", "`decks` has no deck 'card'; did you mean 'cards'? It has: cards"),
        ("foo", "'foo' is not defined; a rulebook can use boards, decks, game, glossary,"),
    ],
)
def test_rulebook_names_the_missing_field_in_the_designers_words(run_cli, game, expression, words):
    rulebook = game / "rulebook" / "en.md"
    edit(rulebook, "## Goal", f"First: {{{{ {expression} }}}}.\n\n## Goal")
    diag = only(validate(run_cli, game)[1])
    assert diag["code"] == "R010"
    shown = expression.removesuffix(".total")
    assert diag["message"].startswith(f"`{shown}`: {words}"), diag["message"]
    assert "toolkit" not in diag["message"] and "View object" not in diag["message"]
    assert (diag["line"], diag["col"]) == place(rulebook, expression)


def test_attr_of_a_glossary_term_that_is_there_never_suggests_the_name_itself(run_cli, game):
    """`glossary|attr("card")` misses because `attr` reads attributes, not the term the
    glossary has: the message says so, not "no entry 'card'; did you mean 'card'?" (probe 25)."""
    rulebook = game / "rulebook" / "en.md"
    edit(rulebook, "## Goal", '{{ glossary|attr("card") }}\n\n## Goal')
    diag = only(validate(run_cli, game)[1])
    assert diag["code"] == "R010"
    assert "did you mean 'card'" not in diag["message"] and "no entry" not in diag["message"]
    assert "`attr('card')` reads attributes only" in diag["message"], diag["message"]
    assert "write `.card` or `['card']`" in diag["message"]


def test_layout_names_the_missing_card_field(run_cli, game):
    layouts = game / "layouts"
    layouts.mkdir(exist_ok=True)  # `playset new` gives it the standard layout to edit
    source = (Path(__file__).parent.parent / "templates" / "cards" / "standard.yaml").read_text()
    (layouts / "mine.yaml").write_text(
        source.replace("{{ card.name }}", "{{ card.nmae }}").replace("id: standard", "id: mine")
    )
    edit(game / "decks" / "cards.yaml", "size: poker\n", "size: poker\nlayout: mine\n")
    found = validate(run_cli, game)[1]
    assert {d["code"] for d in found} == {"P003"}
    assert "card 'advance' has no field 'nmae'; did you mean 'name'?" in found[0]["message"]
    assert "View object" not in found[0]["message"]
    # at the template's line in the layout, naming the card and where it is (lows 10)
    assert found[0]["file"].endswith("layouts/mine.yaml"), found[0]
    assert found[0]["message"].startswith("layout 'mine' fails on advance (fr, ")
    assert "decks/cards.yaml:" in found[0]["message"]
    assert "): card 'advance' has no field" in found[0]["message"]


def test_an_unknown_layout_is_one_finding_at_the_decks_layout_value(run_cli, game):
    deck = game / "decks" / "cards.yaml"
    edit(deck, "size: poker\n", "size: poker\nlayout: standrd\nback: nope\n")
    code, found = validate(run_cli, game)
    assert code == 1, found
    assert [(d["code"], d["line"], d["col"]) for d in found] == [
        ("P003", *place(deck, "standrd")),
        ("P003", *place(deck, "nope")),
    ]
    assert found[0]["message"].startswith("no layout 'standrd' in the game's layouts/ folder")
    assert found[0]["message"].endswith("did you mean 'standard'?")
    assert "templates/" not in found[0]["message"]
    assert "the toolkit has back," in found[1]["message"]
    built = run_cli("build", str(game), "--out", str(game.parent / "out"))
    assert built.exit_code == 1 and "standrd" in built.output


def test_french_spacing_points_at_the_mark_itself(run_cli, game):
    deck = game / "decks" / "cards.yaml"
    edit(deck, "fr: Avancez de {steps} cases.", "fr: Avancez de {steps} cases !")
    edit(deck, "fr: Marquez {points} points.", "fr: >-\n        Marquez {points}\n        points !")
    found = [d for d in validate(run_cli, game)[1] if d["code"] == "T010"]
    assert [(d["line"], d["col"]) for d in found] == [place(deck, "!"), place(deck, "!", 2)]


def test_a_schema_error_in_one_card_leaves_the_other_cards_checked(run_cli, game):
    deck = game / "decks" / "cards.yaml"
    edit(deck, "    copies: 3\n", "    copies: lots\n")  # advance: S001
    edit(deck, "es: Gana {points} puntos.", "es: Gana {pionts} puntos.")  # treasure: R006
    edit(deck, "      es: Descanso\n", "")  # rest: T001
    found = validate(run_cli, game)[1]
    assert [(d["code"], d["line"], d["col"]) for d in found] == [
        ("S001", *place(deck, "lots")),
        ("R006", *place(deck, "Gana {pionts}")),
        ("T001", *place(deck, "name:", 4)),
    ]
    assert found[2]["message"] == "cards/rest/name has no es text"


def test_references_to_an_entry_with_a_schema_error_are_not_unknown(run_cli, tmp_path):
    from tests.conftest import FIXTURES, build_case

    game = build_case(FIXTURES / "base", tmp_path / "game")
    board = game / "boards" / "map.yaml"
    edit(board, "    kind: port\n", "    kind: port\n    size: huge\n")  # harbour: S002
    edit(board, "    kind: city\n    region: north", "    kind: city\n    region: nort")
    edit(board, "    b: market\n", "    b: market\n  - a: harbour\n    b: nowhere\n")
    found = validate(run_cli, game)[1]
    assert [(d["code"], d["line"], d["col"]) for d in found] == [
        ("S002", *place(board, "size")),
        ("R004", *place(board, "nort\n")),
        ("R004", *place(board, "nowhere")),
    ]
    assert "'harbour'" not in found[1]["message"] + found[2]["message"]


def test_modelines_naming_missing_schemas_are_one_warning_per_game(run_cli, game):
    assert validate(run_cli, game) == (0, [])
    (game / "schemas").rename(game / "elsewhere")
    code, found = validate(run_cli, game)
    diag = only(found)
    assert code == 0 and (diag["code"], diag["severity"]) == ("R009", "warning")
    assert diag["file"].endswith("lanterns/game.yaml") and (diag["line"], diag["col"]) == (1, 33)
    assert diag["message"].startswith(
        "the editor modeline names 'schemas/generic/game.schema.json', which does not exist;"
        " so do 2 more file(s) of this game"
    )
    assert "playset schemas export --into" in diag["message"]
    built = run_cli("build", str(game), "--out", str(game.parent / "out"))
    assert built.exit_code == 0, built.output  # a warning: the gate lets the game through


def test_modelines_that_resolve_or_name_a_url_are_clean(run_cli, game):
    manifest = game / "game.yaml"
    edit(manifest, "$schema=schemas/", "$schema=https://example.org/schemas/")
    assert validate(run_cli, game) == (0, [])


def test_bundled_games_modelines_resolve_in_place(run_cli):
    result = run_cli("validate", "--select", "R009", "--format", "json")
    assert result.exit_code == 0 and json.loads(result.stdout or "[]") == []
