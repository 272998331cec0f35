"""Print checks on hand-made content: images (inside the game, enough dpi) and overflow."""

from __future__ import annotations

import json
import shutil

import pytest
from PIL import Image

from tests.conftest import FIXTURES, REPO, build_case, copy_game, relink_modelines


def _game(tmp_path, monkeypatch):
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game, dirs_exist_ok=True)
    relink_modelines(game)
    monkeypatch.chdir(game)
    return game


def _found(run_cli):
    result = run_cli("validate", ".", "--format", "json")
    return [(d["code"], d["line"], d["col"]) for d in json.loads(result.stdout or "[]")]


def _add_image(game, card_line: str, image: str):
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text().replace(card_line, f"{card_line}\n    image: {image}", 1)
    deck.write_text(text)
    lines = text.split("\n")
    return next(i for i, line in enumerate(lines, 1) if line.startswith("    image:"))


def test_low_resolution_image_is_a_warning(run_cli, tmp_path, monkeypatch):
    game = _game(tmp_path, monkeypatch)
    Image.new("RGB", (200, 120), "red").save(game / "decks" / "low.png")
    line = _add_image(game, "    copies: 2", "decks/low.png")
    assert _found(run_cli) == [("P005", line, 12)]


def test_sharp_image_is_clean(run_cli, tmp_path, monkeypatch):
    game = _game(tmp_path, monkeypatch)
    Image.new("RGB", (700, 400), "blue").save(game / "decks" / "sharp.png")
    _add_image(game, "    copies: 2", "decks/sharp.png")
    assert _found(run_cli) == []
    assert run_cli("build", ".", "--lang", "en", "--out", str(tmp_path / "out")).exit_code == 0


def test_image_outside_the_game_is_refused(run_cli, tmp_path, monkeypatch):
    game = _game(tmp_path, monkeypatch)
    Image.new("RGB", (700, 400), "blue").save(tmp_path / "outside.png")
    line = _add_image(game, "    copies: 2", "../outside.png")
    assert _found(run_cli) == [("P004", line, 12)]


def test_missing_image_is_an_error(run_cli, tmp_path, monkeypatch):
    game = _game(tmp_path, monkeypatch)
    line = _add_image(game, "    copies: 2", "decks/none.png")
    assert _found(run_cli) == [("P004", line, 12)]


def test_a_glyph_missing_from_a_layout_is_found_at_its_line(tmp_path, monkeypatch):
    """Words a layout prints itself are checked too: Noto Sans has no U+2192 arrow, which
    once printed as a blank between each die face and its sips."""
    from toolkit.checks import printfit
    from toolkit.render import layout

    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "arrows.yaml").write_text(
        "id: arrows\n"
        "labels:\n"
        "  next: {fr: 'Suite →', en: Next}\n"
        "elements:\n"
        "  - kind: text\n"
        "    box: {x: 1, y: 1, w: -1, h: 5}\n"
        "    text: \"{{ card.name }} → :die: {{ '→' }}\"\n"
        "    size: {max: 9, min: 7}\n"
    )
    monkeypatch.chdir(tmp_path)
    layout.clear_layouts()
    try:
        found = [
            (d.file, d.line, d.col, d.message) for d in printfit.layout_glyphs("arrows", tmp_path)
        ]
    finally:
        layout.clear_layouts()
    arrows = "layouts/arrows.yaml"
    assert [f[:3] for f in found] == [(arrows, 3, 14), (arrows, 7, 11)]
    assert "U+2192" in found[0][3] and "label next, fr" in found[0][3]


def _glyph_findings(run_cli, game):
    from tests.conftest import diagnostics_json

    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    return [d for d in diagnostics_json(result.output) if d["code"] == "P002"]


def _own(game, name: str, old: str, new: str) -> None:
    text = (REPO / "templates" / "cards" / f"{name}.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1
    (game / "layouts").mkdir(exist_ok=True)
    (game / "layouts" / f"{name}.yaml").write_text(text.replace(old, new), "utf-8")


@pytest.mark.parametrize(
    ("name", "old", "new"),
    [
        ("back", "{{ game.title }}", "{{ game.title ~ ' \\u2603' }}"),
        ("question-front", "{{ card.question }}", "{{ card.question ~ ' \\u2603' }}"),
        ("question-back", "{{ card.fact }}", "{{ card.fact }} {{ card.source }}"),
    ],
    ids=["back", "question-front", "question-source"],
)
def test_a_glyph_a_back_or_a_question_face_prints_is_found(run_cli, game, name, old, new):
    # probe 17 M2: these faces were never resolved, so what they compute went unchecked
    bank = game / "questions" / "bank.yaml"
    bank.write_text(bank.read_text(encoding="utf-8").replace("(geometry)", "(\u2603)"), "utf-8")
    _own(game, name, old, new)
    found = _glyph_findings(run_cli, game)
    assert len(found) == 1 and "U+2603" in found[0]["message"], found
    assert f"layout {name!r} prints" in found[0]["message"]


@pytest.mark.parametrize("when", ["card.id == 'sprint'", "card.id == 'nobody'"])
def test_a_back_s_own_words_are_checked_where_they_print(run_cli, game, when):
    # probe 17 M4: an element the back never shows prints nothing; one it shows is said once,
    # at its line in the layout
    old = '    colour: "#d5b657"\n'
    _own(game, "back", old, old)
    back = game / "layouts" / "back.yaml"
    text = back.read_text(encoding="utf-8")
    element = '  - kind: text\n    box: {x: 6, y: 6, w: -6, h: 6}\n    text: "\u2603"\n'
    back.write_text(text + element + f"    size: {{max: 8, min: 5}}\n    when: {when}\n", "utf-8")
    found = [(d["file"], d["line"]) for d in _glyph_findings(run_cli, game)]
    line = text.count("\n") + 3
    assert found == ([(str(back), line)] if "sprint" in when else []), found


def test_a_parameter_that_looks_like_template_code_is_searched_for_glyphs(run_cli, game):
    # probe 17 M5: a card's data prints as written: `{{ … }}` in it is no code to leave out
    deck = game / "decks" / "cards.yaml"
    yaml = deck.read_text(encoding="utf-8")
    yaml = yaml.replace(" cases.", " cases {word}.").replace(" casillas.", " casillas {word}.")
    yaml = yaml.replace(" spaces.", " spaces {word}.")
    deck.write_text(
        yaml.replace("      steps: 3\n", '      steps: 3\n      word: "{{ \u2603 }}"\n')
    )
    found = _glyph_findings(run_cli, game)
    assert len(found) == 1 and "U+2603" in found[0]["message"], found


def test_a_rulebook_character_missing_from_the_font_is_found_at_its_line(run_cli, tmp_path):
    """One finding per source line, listing every character; the arrow the renderer draws as
    a look-alike is not a finding."""
    from tests.conftest import REPO

    game = tmp_path / "tokaido"
    copy_game(REPO / "content" / "tokaido", game)
    rulebook = game / "rulebook" / "fr.md"
    text = rulebook.read_text(encoding="utf-8")
    rulebook.write_text(text + "\nAllez à Kyoto → Edo.\n\nLe mot hébreu שלום.\n", encoding="utf-8")
    line = text.count("\n") + 4
    result = run_cli("validate", str(game), "--format", "json")
    found = [d for d in json.loads(result.stdout) if d["code"] == "P002"]
    assert [(d["line"], d["col"]) for d in found] == [(line, 15)]
    assert "U+05E9" in found[0]["message"] and "U+05DD" in found[0]["message"]
    assert result.exit_code == 1


@pytest.fixture
def own_layouts(tmp_path):
    """The test game's own layouts/ folder (game folder first, then the toolkit's)."""
    layouts = tmp_path / "game" / "layouts"
    layouts.mkdir(parents=True)
    return layouts


def _use_layout(game, name: str):
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("size: poker\n", f"size: poker\nlayout: {name}\n"))
    return deck


def test_a_layout_asking_for_an_unknown_icon_is_found_at_the_card(
    run_cli, tmp_path, monkeypatch, own_layouts
):
    """An icon name no drawer knows would print nothing: P003 at the first card it fails on,
    once per layout and name."""
    game = _game(tmp_path, monkeypatch)
    (own_layouts / "odd.yaml").write_text(
        "id: odd\n"
        "elements:\n"
        "  - kind: icon\n"
        "    box: {x: 5, y: 5, w: 10, h: 10}\n"
        "    icon: \"{{ 'die' if card.id == 'sprint' else 'dice' }}\"\n"
    )
    deck = _use_layout(game, "odd")
    result = run_cli("validate", ".", "--format", "json")
    found = [d for d in json.loads(result.stdout) if d["code"] == "P003"]
    rest_line = deck.read_text().split("\n").index("  - id: rest") + 1
    assert [(d["line"], d["col"]) for d in found] == [(rest_line, 9)]
    assert "'dice'" in found[0]["message"] and "rest" in found[0]["message"]
    assert result.exit_code == 1


def test_a_layout_label_missing_a_game_language_is_found_at_the_label(
    run_cli, tmp_path, monkeypatch, own_layouts
):
    """The label would print its key on the Spanish cards: T001 at the layout's label."""
    game = _game(tmp_path, monkeypatch)
    (own_layouts / "half.yaml").write_text(
        "id: half\n"
        "labels:\n"
        "  go: {fr: Allez, en: Go}\n"
        "elements:\n"
        "  - kind: text\n"
        "    box: {x: 5, y: 5, w: -5, h: 10}\n"
        '    text: "{{ label.go }} {{ card.name }}"\n'
        "    size: {max: 9, min: 7}\n"
    )
    _use_layout(game, "half")
    result = run_cli("validate", ".", "--format", "json")
    found = [d for d in json.loads(result.stdout) if d["code"] == "T001"]
    assert [(d["file"], d["line"], d["col"]) for d in found] == [("layouts/half.yaml", 3, 7)]
    assert "has no es" in found[0]["message"]
    assert result.exit_code == 1


def test_a_number_no_face_prints_is_a_warning_at_its_value(run_cli, tmp_path):
    """Heroes once printed 'add her bonus' and no number: on the plain layout, every bonus is
    a P006 warning at the bonus itself; on the hero layout none is."""
    from tests.conftest import REPO

    game = tmp_path / "drinking-heroes"
    copy_game(REPO / "content" / "drinking-heroes", game)
    deck = game / "decks" / "heroes.yaml"
    lines = deck.read_text(encoding="utf-8").split("\n")
    fire = next(i for i, line in enumerate(lines, 1) if line.strip() == "fire: 2")
    assert run_cli("validate", str(game)).exit_code == 0
    deck.write_text("\n".join(lines).replace("layout: dh-hero", "layout: standard"), "utf-8")
    result = run_cli("validate", str(game), "--format", "json")
    found = [d for d in json.loads(result.stdout) if d["code"] == "P006"]
    assert len(found) == 9  # 3 heroes with one bonus, 3 with two
    assert (found[0]["line"], found[0]["col"]) == (fire, 13)
    assert found[0]["severity"] == "warning" and "bonuses.fire is 2" in found[0]["message"]


def test_build_draws_the_faces_and_fits_the_gate_measured(run_cli, tmp_path, monkeypatch):
    """Measure once, use twice: `build` runs the validity gate, which resolves every card
    front and question face and fits its texts in every language; the build then draws from
    those very results. Nothing the gate worked out is resolved or measured again (the gate
    asks for errors only and so leaves out legibility's warnings: a deck's back, which no
    error check reads, is worked out by the build, once)."""
    from toolkit.render import build, layout, textfit
    from toolkit.render.elements import text

    _game(tmp_path, monkeypatch)  # the fixture game, as the working folder
    phase = ["gate"]
    faces: dict[str, list[tuple[object, ...]]] = {"gate": [], "build": []}
    fits: dict[str, list[tuple[object, ...]]] = {"gate": [], "build": []}
    real_resolve, real_build, real_fit = layout._resolve, build.build_game, text.fit

    def resolve(lay, context, width, height):
        card = (context["deck"]["id"], context["card"]["id"])
        faces[phase[0]].append((lay.id, card, context["lang"]))
        return real_resolve(lay, context, width, height)

    def fit(*args):
        before = textfit.fit.cache_info().misses
        found = real_fit(*args)
        if textfit.fit.cache_info().misses > before:  # worked out now, not kept
            fits[phase[0]].append(args)
        return found

    def build_game(*args, **kwargs):
        phase[0] = "build"
        return real_build(*args, **kwargs)

    monkeypatch.setattr(layout, "_resolve", resolve)
    monkeypatch.setattr(text, "fit", fit)
    monkeypatch.setattr(build, "build_game", build_game)
    textfit.fit.cache_clear()
    result = run_cli("build", ".", "--out", str(tmp_path / "out"), "--only", "cards,questions")
    assert result.exit_code == 0, result.output
    assert phase == ["build"] and faces["gate"] and fits["gate"]
    assert {f[0] for f in faces["gate"]} >= {"standard"}  # the fronts
    assert {f[0] for f in faces["gate"] + faces["build"]} >= {"standard", "back"}
    assert not set(faces["gate"]) & set(faces["build"]), "a face resolved twice"
    assert not set(fits["gate"]) & set(fits["build"]), "a text measured twice"


def test_an_overflow_says_whether_height_or_one_word_s_width_is_short(
    run_cli, tmp_path, monkeypatch
):
    """A long text lacks height; one word wider than its box at the minimum size lacks
    width, and the message says so (it spoke of a height the box had to spare)."""
    game = _game(tmp_path, monkeypatch)
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("Move {steps} spaces.", "W" * 200, 1))
    found = json.loads(run_cli("validate", ".", "--format", "json").stdout)
    message = next(d["message"] for d in found if d["code"] == "P001")
    assert "holds a word wider than the box's" in message, message
    assert "mm high" not in message
    long_text = build_case(FIXTURES / "broken" / "text-overflow", tmp_path / "long")
    long = json.loads(run_cli("validate", str(long_text), "-f", "json").stdout)
    message = next(d["message"] for d in long if d["code"] == "P001")
    assert "mm high" in message and "wider" not in message, message


def _unprinted_params(run_cli, tmp_path, count: int, ignored: int = 0) -> list[dict]:
    """The P006 findings of a starter game whose first card has `count` more params that no
    face prints, the first `ignored` of them silenced by a `playset: ignore` comment."""
    assert run_cli("new", "demo", "--into", str(tmp_path)).exit_code == 0
    deck = tmp_path / "demo" / "decks" / "cards.yaml"
    extra = "".join(
        f"      p{n}: {n + 10}" + ("  # playset: ignore[P006]" if n < ignored else "") + "\n"
        for n in range(count)
    )
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("      steps: 2\n", "      steps: 2\n" + extra, 1), "utf-8")
    result = run_cli("validate", str(tmp_path / "demo"), "--format", "json")
    assert "Traceback" not in result.output
    return [d for d in json.loads(result.stdout) if d["code"] == "P006"]


def test_p006_lists_50_findings_a_file_then_one_for_the_rest(run_cli, tmp_path):
    """Probe 19b H2: one P006 per number no face prints gave 994,000 lines (3.2 GB of JSON)
    for a large sheet: the first 50 of a file are listed, the 51st says how many follow;
    what a comment silences is not counted."""
    found = _unprinted_params(run_cli, tmp_path / "a", 51)
    assert len(found) == 51 and all("more P006" not in d["message"] for d in found)
    found = _unprinted_params(run_cli, tmp_path / "b", 80)
    assert len(found) == 51 and "p50 is 60" in found[50]["message"]
    assert found[50]["message"].endswith(
        "; and 29 more P006 findings in this file after this one, not listed"
        " (P006 is listed 50 times a file at most)"
    )
    found = _unprinted_params(run_cli, tmp_path / "c", 80, ignored=5)
    assert len(found) == 51 and "p5 is 15" in found[0]["message"]
    assert "and 24 more P006" in found[50]["message"]
