"""Probe 47: the fitting and layout budgets counted in units whose worst cost was ten times
what they were sized on (K6): 1,000 short texts a face, fitted from 96 pt down, took validate
12.4 s before the fitting budget stopped it; 1,400 short templated texts on 301 cards 10.6 s
before the layout budget did."""

from __future__ import annotations

from reportlab.lib.units import mm

from toolkit.render import textfit
from toolkit.render.face_units import WORDS_UNITS, printed_units


def test_each_wrap_counts_its_call_besides_its_letters():
    # a 6-letter word in a 60 x 85 mm box from 96 pt: wrapped at every size down to where
    # the word fits its width, each wrap going through 7 letters
    setting = textfit.Setting(96, 3, "regular", "en")
    found = textfit._fit("x0-a1b", 60 * mm, 85 * mm, setting)
    assert found.fits and found.size < 96
    wraps = round((96 - found.size) / textfit.STEP) + 1
    assert wraps > 100
    assert found.work >= len("x0-a1b") + wraps * textfit.WRAP_CALL


def test_a_size_passed_unwrapped_counts_too():
    # a long text in a small box: the large sizes are passed without a wrap, each counted
    setting = textfit.Setting(96, 90, "regular", "en")
    found = textfit._fit("word " * 200, 20 * mm, 10 * mm, setting)
    assert not found.fits
    assert found.work >= 1000 + 25 * textfit.PASSED_SIZE


class _Kind:
    prints: tuple[str, ...] = ()


class _Words(_Kind):
    prints = ("text",)


class _Item:
    def __init__(self, element: object) -> None:
        self.element = element


def test_an_element_printing_words_counts_more_layout_work_than_a_box():
    faces = [_Item(_Kind()), _Item(_Words()), _Item(_Words())]
    assert printed_units(faces) == 1 + 2 * WORDS_UNITS  # type: ignore[arg-type]
    assert WORDS_UNITS > 1


def test_a_game_prints_a_bounded_number_of_cards(tmp_path, run_cli):
    # K8: 300 cards of `copies: 1000` validated clean, and `build` drew 300,000 faces a
    # language (40 s, a 90 MB PDF)
    from tests.conftest import diagnostics_json
    from toolkit.checks.printed_cards import MAX_PRINTED_CARDS

    assert run_cli("new", "g", "--into", str(tmp_path)).exit_code == 0
    deck = tmp_path / "g" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    cards = "".join(
        f"  - id: many{i}\n    copies: 1000\n    name: {{fr: M{i}, es: M{i}, en: M{i}}}\n"
        for i in range(MAX_PRINTED_CARDS // 1000 + 1)
    )
    deck.write_text(text.rstrip("\n") + "\n" + cards, encoding="utf-8")
    result = run_cli("validate", str(tmp_path / "g"), "--format", "json", "--no-cache")
    found = [d for d in diagnostics_json(result.output) if d["code"] == "S004"]
    assert result.exit_code == 1 and len(found) == 1, result.output
    # the new game's own few cards and nine of a thousand stay under it: the tenth passes
    last = MAX_PRINTED_CARDS // 1000 - 1
    assert found[0]["message"].startswith(f"many{last}: with its 1,000"), found[0]
    written = deck.read_text(encoding="utf-8").splitlines()
    line = written.index(f"  - id: many{last}") + 2  # its `copies:`
    assert found[0]["file"].endswith("decks/cards.yaml"), found[0]
    assert (found[0]["line"], found[0]["col"]) == (line, 13), found[0]
    deck.write_text(text.rstrip("\n") + "\n" + cards.replace("copies: 1000", "copies: 900"))
    result = run_cli("validate", str(tmp_path / "g"), "--format", "json", "--no-cache")
    assert "S004" not in {d["code"] for d in diagnostics_json(result.output)}, result.output


def test_an_elements_place_in_its_layout_is_found_by_a_table_made_once(monkeypatch):
    # K12: each overflowing text of a face scanned the layout's elements for its place; 1,400
    # such texts after 3,500 boxes on 30 cards took validate 19.6 s
    from toolkit.checks import printfit
    from toolkit.render import layout as layouts

    standard, _ = layouts.load_layout("standard")
    assert standard is not None
    made: list[int] = []
    real = printfit._indexed
    monkeypatch.setattr(printfit, "_indexed", lambda layout: made.append(1) or real(layout))
    places = [printfit._element_index(standard, e) for e in standard.elements * 50]
    assert places == list(range(len(standard.elements))) * 50
    assert printfit._element_index(standard, object()) is None
    assert len(made) <= 1  # once a layout (none if an earlier check made it)


def test_each_break_of_a_word_counts_its_call():
    # probe 48 N3: texts that fit no 1 mm box, broken at every letter, cost ~110 µs a fit
    # while counted as their few letters
    assert textfit._hyphenation_work("maison", 3.0, 8.0, "regular", "fr") == (
        textfit.HYPHENATE_CALL
    )
    assert textfit._hyphenation_work("maison", 3.0, 8.0, "regular", "en") == 0  # no break
    assert textfit._hyphenation_work("mais", 3.0, 8.0, "regular", "fr") == 0  # too short
    setting = textfit.Setting(8, 8, "regular", "fr")
    found = textfit._fit("constitution", 1 * mm, 1 * mm, setting)
    assert not found.fits and found.work >= 5 * textfit.HYPHENATE_CALL
