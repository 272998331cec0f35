"""P017: a right-to-left text (Hebrew, Arabic) printed left to right reads backwards, and
validate said nothing when the font had the glyphs (probe 14, issue #33)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import diagnostics_json


def _findings(run_cli, game):
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    return [d for d in diagnostics_json(result.output) if d["code"] == "P017"]


@pytest.mark.parametrize(
    ("text", "script"),
    [("Dash שלום", "Hebrew"), ("نقاط", "Arabic"), ("ދިވެހި", "Thaana")],
)
def test_a_card_text_in_a_right_to_left_script_is_said_where_it_is(run_cli, game, text, script):
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("en: Dash", f"en: {text}"))
    found = _findings(run_cli, game)
    assert [(d["file"], d["line"], d["col"]) for d in found] == [(str(deck), 14, 11)]
    assert f"is {script} script" in found[0]["message"]


def test_a_rulebook_line_in_a_right_to_left_script_is_said_at_its_first_letter(run_cli, game):
    manifest = game / "game.yaml"
    (game / "rules.md").write_text("# Rules\n\nPlay.\n\nSee: קח קלף אחד\n", encoding="utf-8")
    yaml = manifest.read_text(encoding="utf-8")
    assert "files:\n" in yaml
    manifest.write_text(yaml.replace("files:\n", "files:\n  rulebook:\n    en: rules.md\n", 1))
    found = _findings(run_cli, game)
    assert [(d["line"], d["col"]) for d in found] == [(5, 6)], found


@pytest.mark.parametrize(
    "text",
    # digits, punctuation and marks take the direction around them; an LRM is no letter
    ["Dash 42 – ok", "Dash \u200e", "Dash \u05b0"],
)
def test_no_finding_without_right_to_left_letters(run_cli, game, text):
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("en: Dash", f"en: {text}"))
    assert _findings(run_cli, game) == []


# What prints, not what the source holds (probe 15c, M1 and M2): right-to-left text an
# expression computes, a card parameter or a layout's own words print reversed as well; a
# comment or a branch never taken prints nothing.


def _with_rulebook(game, body: str):
    manifest = game / "game.yaml"
    (game / "rules.md").write_text(body, encoding="utf-8")
    yaml = manifest.read_text(encoding="utf-8")
    manifest.write_text(yaml.replace("files:\n", "files:\n  rulebook:\n    en: rules.md\n", 1))


@pytest.mark.parametrize(
    "body",
    [
        "# Rules\n\nPlay.\n\nSee: {{ '\\u05e9\\u05dc\\u05d5\\u05dd' }}\n",
        "# Rules\n{% set w = ['\\u05e9', '\\u05dc']|join %}\nPlay.\n\nSee: {{ w }} now\n",
    ],
    ids=["escape", "variable"],
)
def test_a_rulebook_expression_that_prints_right_to_left_is_said_at_it(run_cli, game, body):
    _with_rulebook(game, body)
    found = _findings(run_cli, game)
    assert [(d["file"], d["line"], d["col"]) for d in found] == [(str(game / "rules.md"), 5, 6)], (
        found
    )
    assert "is Hebrew script" in found[0]["message"]


def test_a_rulebook_line_printed_from_a_loop_is_said_once(run_cli, game):
    _with_rulebook(game, "# Rules\n\n{% for i in range(3) %}\n- קח {{ i }}\n{% endfor %}\n")
    found = _findings(run_cli, game)
    assert [(d["line"], d["col"]) for d in found] == [(4, 3)], found


@pytest.mark.parametrize(
    "body",
    [
        "# Rules\n\nPlay.\n{# note to the Hebrew translator: שלום #}\n",
        "# Rules\n\nPlay. {% if false %}שלום{% endif %}\n",
        "# Rules\n\n{% set unused = 'שלום' %}Play.\n",
    ],
    ids=["comment", "false-branch", "unused-set"],
)
def test_right_to_left_text_the_rulebook_never_prints_is_no_finding(run_cli, game, body):
    _with_rulebook(game, body)
    assert _findings(run_cli, game) == []


@pytest.mark.parametrize(
    "body",
    [
        "# Rules\n\nSee [the wiki](https://he.wikipedia.org/wiki/\u05e9\u05dc\u05d5\u05dd) now.\n",
        '# Rules\n\nSee [the wiki](https://example.org/x "\u05e9\u05dc\u05d5\u05dd") now.\n',
        "# Rules\n\nSee [the wiki][w] now.\n\n[w]: https://he.wikipedia.org/wiki/\u05e9\u05dc\n",
    ],
    ids=["link-target", "link-title", "reference-definition"],
)
def test_right_to_left_text_markdown_never_prints_is_no_finding(run_cli, game, body):
    # probe 16c M3: a link's target or title and a reference definition print nothing, and
    # their right-to-left letters stopped the build
    _with_rulebook(game, body)
    assert _findings(run_cli, game) == []


def test_a_character_reference_printing_right_to_left_is_said(run_cli, game):
    # probe 16c M1: `&#1513;` prints a Hebrew letter (markdown decodes it): validate was clean
    _with_rulebook(game, "# Rules\n\nPlay.\n\nEntity: &#1513;&#1500;&#x5D5;&#1501;.\n")
    found = _findings(run_cli, game)
    assert len(found) == 1 and "is Hebrew script" in found[0]["message"], found


def test_a_card_parameter_printed_right_to_left_is_said_at_the_parameter(run_cli, game):
    deck = game / "decks" / "cards.yaml"
    yaml = deck.read_text(encoding="utf-8")
    yaml = yaml.replace(" cases.", " cases {word}.").replace(" casillas.", " casillas {word}.")
    yaml = yaml.replace(" spaces.", " spaces {word}.")
    yaml = yaml.replace("      steps: 3\n", '      steps: 3\n      word: "\\u05E9\\u05DC"\n')
    deck.write_text(yaml, encoding="utf-8")
    line = yaml.split("\n").index('      word: "\\u05E9\\u05DC"') + 1
    found = _findings(run_cli, game)
    assert [(d["file"], d["line"]) for d in found] == [(str(deck), line)], found
    assert "sprint" in found[0]["message"]


def _own_layout(game, title: str):
    builtin = Path(__file__).parents[1] / "templates" / "cards" / "standard.yaml"
    text = builtin.read_text(encoding="utf-8")
    assert text.count('text: "{{ card.name }}"') == 2
    (game / "layouts").mkdir()
    layout = game / "layouts" / "standard.yaml"
    layout.write_text(text.replace('text: "{{ card.name }}"', f"text: {title}", 1), "utf-8")
    return layout, text.split("\n").index('    text: "{{ card.name }}"') + 1


@pytest.mark.parametrize(
    "title",
    ['"{{ card.name }} שלום"', "\"{{ card.name ~ ' \\u05e9' }}\""],
    ids=["literal", "computed"],
)
def test_a_layout_that_prints_right_to_left_is_said_once_in_the_layout(run_cli, game, title):
    layout, line = _own_layout(game, title)
    found = _findings(run_cli, game)
    assert [(d["file"], d["line"]) for d in found] == [(str(layout), line)], found


def test_a_board_place_name_in_a_right_to_left_script_is_said_at_the_name(run_cli, game):
    board = game / "boards" / "map.yaml"
    board.write_text(board.read_text(encoding="utf-8").replace("name: Market", "name: שוק"))
    found = _findings(run_cli, game)
    assert [(d["file"], d["line"], d["col"]) for d in found] == [(str(board), 20, 11)], found
    assert "place name" in found[0]["message"]


def test_a_layout_printing_a_content_text_leaves_it_to_the_text(run_cli, game):
    """The game's title in Hebrew, printed by the layout: said once, where it is written."""
    _own_layout(game, '"{{ card.name }} {{ game.title }}"')
    manifest = game / "game.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8").replace("en: Fixture game", "en: שלום")
    )
    found = _findings(run_cli, game)
    assert [(d["file"], d["line"]) for d in found] == [(str(manifest), 6)], found


def test_the_words_of_a_back_layout_are_said_in_the_layout(run_cli, game):
    """A back is not printed card by card: its own words are searched where written."""
    builtin = Path(__file__).parents[1] / "templates" / "cards" / "back.yaml"
    text = builtin.read_text(encoding="utf-8")
    assert text.count('text: "{{ game.title }}"') == 1
    (game / "layouts").mkdir()
    back = game / "layouts" / "back.yaml"
    back.write_text(text.replace('"{{ game.title }}"', '"{{ game.title }} שלום"'), "utf-8")
    line = text.split("\n").index('    text: "{{ game.title }}"') + 1
    found = _findings(run_cli, game)
    assert [(d["file"], d["line"]) for d in found] == [(str(back), line)], found


# What a back and a question face print (probe 17, M2, M4, M5): their faces are resolved as
# the build draws them, so a letter they compute is said, and one they never print is not.


def _own_back(game, old: str, new: str, name: str = "back"):
    builtin = Path(__file__).parents[1] / "templates" / "cards" / f"{name}.yaml"
    text = builtin.read_text(encoding="utf-8")
    assert text.count(old) == 1
    (game / "layouts").mkdir(exist_ok=True)
    layout = game / "layouts" / f"{name}.yaml"
    layout.write_text(text.replace(old, new), "utf-8")
    return layout, text[: text.index(old)].count("\n") + 1


def test_a_back_that_computes_right_to_left_is_said_in_the_layout(run_cli, game):
    old = 'text: "{{ game.title }}"'
    back, line = _own_back(game, old, "text: \"{{ game.title ~ ' \\u05e9\\u05dc' }}\"")
    found = _findings(run_cli, game)
    assert [(d["file"], d["line"]) for d in found] == [(str(back), line)], found


def test_a_back_element_never_shown_is_no_finding(run_cli, game):
    # probe 17 M4: an element whose `when` is false for the card the back shows prints nothing
    old = '    colour: "#d5b657"\n'
    hidden = '  - kind: text\n    box: {x: 6, y: 6, w: -6, h: 6}\n    text: "שלום"\n'
    hidden += "    size: {max: 8, min: 5}\n    when: card.id == 'nobody'\n"
    back, _ = _own_back(game, old, old)
    back.write_text(back.read_text(encoding="utf-8") + hidden, encoding="utf-8")
    assert _findings(run_cli, game) == []


def test_a_question_source_printed_right_to_left_is_said_at_it(run_cli, game):
    old = '    text: "{{ card.fact }}"\n'
    _own_back(game, old, old.replace("card.fact", "card.fact ~ ' ' ~ card.source"), "question-back")
    bank = game / "questions" / "bank.yaml"
    yaml = bank.read_text(encoding="utf-8")
    assert "    source: a cube has six faces (geometry)\n" in yaml
    bank.write_text(yaml.replace("six faces (geometry)", "six faces (קובייה)"), "utf-8")
    line = yaml.split("\n").index("    source: a cube has six faces (geometry)") + 1
    found = _findings(run_cli, game)
    assert [(d["file"], d["line"]) for d in found] == [(str(bank), line)], found


def test_a_question_face_that_computes_right_to_left_is_said_in_the_layout(run_cli, game):
    old = 'text: "{{ card.question }}"'
    new = "text: \"{{ card.question ~ ' \\u05e9' }}\""
    face, line = _own_back(game, old, new, "question-front")
    found = _findings(run_cli, game)
    assert [(d["file"], d["line"]) for d in found] == [(str(face), line)], found


@pytest.mark.parametrize(
    "word",
    ["{{ \\u05E9\\u05DC }}", "{% \\u05E9\\u05DC %}", "{# \\u05E9 #}"],
    ids=["expression", "statement", "comment"],
)
def test_a_parameter_that_looks_like_template_code_is_searched_as_printed(run_cli, game, word):
    # probe 17 M5: a card's data is printed as written; masked as code, its letters passed
    deck = game / "decks" / "cards.yaml"
    yaml = deck.read_text(encoding="utf-8")
    yaml = yaml.replace(" cases.", " cases {word}.").replace(" casillas.", " casillas {word}.")
    yaml = yaml.replace(" spaces.", " spaces {word}.")
    yaml = yaml.replace("      steps: 3\n", f'      steps: 3\n      word: "{word}"\n')
    deck.write_text(yaml, encoding="utf-8")
    line = yaml.split("\n").index(f'      word: "{word}"') + 1
    found = _findings(run_cli, game)
    assert [(d["file"], d["line"]) for d in found] == [(str(deck), line)], found


def test_a_place_name_of_a_kind_never_named_is_no_finding(run_cli, game):
    # probe 17 M4: the map prints no name of a `named: false` kind
    board = game / "boards" / "map.yaml"
    yaml = board.read_text(encoding="utf-8").replace("name: Market", "name: שוק")
    board.write_text(yaml + "style:\n  spaces:\n    city: {named: false}\n", encoding="utf-8")
    assert _findings(run_cli, game) == []


def test_a_road_is_searched_for_the_stop_names_it_prints(run_cli, tmp_path):
    # probe 17 M4: a road prints a stage's name (an unnamed prefix or not) and no other stop's
    from tests.conftest import REPO, copy_game

    game = tmp_path / "tokaido"
    copy_game(REPO / "content" / "tokaido", game)
    road = game / "boards" / "road.yaml"
    yaml = road.read_text(encoding="utf-8")
    assert yaml.count("    name: Kyoto\n") == 1 and yaml.count("\nstyle:\n") == 1
    yaml = yaml.replace("    name: Kyoto\n", "    name: קיוטו\n")  # an inn: a stage
    village = "  - kind: village\n    double: true\n"
    yaml = yaml.replace(village, "  - kind: village\n    name: כפר\n    double: true\n", 1)
    road.write_text(yaml.replace("\nstyle:\n", "\nstyle:\n  unnamed_prefix: קי\n"), "utf-8")
    found = [d for d in _findings(run_cli, game) if d["file"] == str(road)]  # not the rulebook's
    line = yaml.split("\n").index("    name: קיוטו") + 1
    assert [d["line"] for d in found] == [line], found
