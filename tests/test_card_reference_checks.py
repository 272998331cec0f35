"""`validate` checks what the rulebook's card reference prints, where the deck holds it: a
labelled parameter no card face prints, a value a card's text is filled with, each for
right-to-left letters (P017) and glyphs the font lacks (P002)."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from toolkit.checks import run_checks
from toolkit.content.game import load_game
from toolkit.render.card_reference import deck_reference

DECK = "decks/cards.yaml"
NAME_ONLY = """\
id: name-only
elements:
  - kind: text
    box: {x: 5, y: 5, w: -5, h: 10}
    text: "{{ card.name }}"
"""


def _game(run_cli, tmp_path: Path, labels: str, params: dict[str, str]) -> Path:
    """The starter game in English with `labels` on its deck and `params` added to its
    first card (`advance`)."""
    result = run_cli("new", "g", "--into", str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "g"
    deck = folder / DECK
    text = deck.read_text(encoding="utf-8")
    text = text.replace("size: poker\n", f"size: poker\n{labels}", 1)
    added = "".join(f"      {k}: {v}\n" for k, v in params.items())
    text = text.replace("      steps: 2\n", "      steps: 2\n" + added, 1)
    deck.write_text(text, encoding="utf-8")
    return folder


def _place(folder: Path, written: str) -> tuple[int, int]:
    """Line and column (1-based) where `written` starts in the deck file."""
    for number, line in enumerate((folder / DECK).read_text(encoding="utf-8").split("\n"), 1):
        if written in line:
            return number, line.index(written) + 1
    raise AssertionError(written)


def _found(folder: Path, code: str) -> list[tuple[str, int, int, str]]:
    found = run_checks(load_game(folder))
    return [
        (Path(d.file).relative_to(folder).as_posix(), d.span.line, d.span.col, d.message)
        for d in found
        if d.code == code
    ]


SUIT = "labels:\n  suit: {en: Suit}\n"


def test_a_right_to_left_letter_of_a_labelled_param_is_found_where_written(run_cli, tmp_path):
    folder = _game(run_cli, tmp_path, SUIT, {"suit": "שלום"})
    line, col = _place(folder, "שלום")
    rtl = _found(folder, "P017")
    assert [(f, li, c) for f, li, c, _ in rtl] == [(DECK, line, col)]
    assert "card reference prints it for advance, en" in rtl[0][3]
    glyphs = _found(folder, "P002")  # Noto Sans has no Hebrew: each letter, said once
    assert [(f, li, c) for f, li, c, _ in glyphs] == [(DECK, line, col)]
    assert all(f"U+{ord(ch):04X}" in glyphs[0][3] for ch in "שלום")


def test_a_glyph_the_font_lacks_in_a_labelled_param_is_found_where_written(run_cli, tmp_path):
    folder = _game(run_cli, tmp_path, SUIT, {"suit": "漢字"})
    line, col = _place(folder, "漢字")
    glyphs = _found(folder, "P002")
    assert [(f, li, c) for f, li, c, _ in glyphs] == [(DECK, line, col)]
    assert "U+6F22 '漢', U+5B57 '字'" in glyphs[0][3]
    assert "card reference" in glyphs[0][3]
    assert _found(folder, "P017") == []


def test_a_value_a_text_is_filled_with_is_found_where_written(run_cli, tmp_path):
    """The card faces print only names: the text, filled with `where`, prints only in the
    rulebook's card reference."""
    folder = _game(run_cli, tmp_path, "layout: name-only\n", {"where": "ש"})
    (folder / "layouts" / "name-only.yaml").write_text(NAME_ONLY, encoding="utf-8")
    deck = folder / DECK
    deck.write_text(
        deck.read_text(encoding="utf-8").replace("en: Move {steps} spaces.", "en: Go {where}."),
        encoding="utf-8",
    )
    line, col = _place(folder, "ש")
    assert [(f, li, c) for f, li, c, _ in _found(folder, "P017")] == [(DECK, line, col)]


def test_a_letter_a_face_and_the_reference_both_print_is_said_once(run_cli, tmp_path):
    folder = _game(run_cli, tmp_path, "labels:\n  steps: {en: Steps}\n", {})
    deck = folder / DECK
    deck.write_text(
        deck.read_text(encoding="utf-8").replace("steps: 2", "steps: ש"), encoding="utf-8"
    )
    line, col = _place(folder, "ש")
    rtl = _found(folder, "P017")
    assert [(f, li, c) for f, li, c, _ in rtl] == [(DECK, line, col)]


def test_a_game_without_a_rulebook_prints_no_card_reference(run_cli, tmp_path):
    folder = _game(run_cli, tmp_path, SUIT, {"suit": "שלום"})
    for path in (folder / "rulebook").iterdir():
        path.unlink()
    (folder / "rulebook").rmdir()
    assert [d for d in run_checks(load_game(folder)) if d.code in ("P002", "P017")] == []


def test_validate_exits_1_at_the_param_and_the_build_prints_what_it_checked(run_cli, tmp_path):
    folder = _game(run_cli, tmp_path, SUIT, {"suit": "ħ"})  # a letter Noto Sans has
    result = run_cli("validate", str(folder))
    assert result.exit_code == 0, result.output
    out = tmp_path / "out"
    result = run_cli("build", str(folder), "--out", str(out), "--only", "rulebook")
    assert result.exit_code == 0, result.output
    pages = PdfReader(out / "g" / "en" / "rulebook.pdf").pages
    printed = "\n".join(page.extract_text() for page in pages).split("Card reference")[-1]
    game = load_game(folder)
    table = deck_reference(game, game.decks[0].model, "en")
    assert table is not None
    every = [p.text for p in table.printed() if p.text]
    assert "ħ" in every and "Suit" in every
    assert all(text in printed for text in every), (every, printed)
    deck = folder / DECK
    deck.write_text(deck.read_text(encoding="utf-8").replace("ħ", "ש"), encoding="utf-8")
    result = run_cli("validate", str(folder))
    assert result.exit_code == 1
    line, col = _place(folder, "ש")
    assert f"{DECK}:{line}:{col}: P017" in result.output
    assert "Traceback" not in result.output


def test_an_edit_of_one_deck_reads_the_other_decks_reference_back(run_cli, tmp_path, monkeypatch):
    """The card reference's findings of a deck are kept between `validate` runs, named by
    that deck in the game folder: after an edit of another deck they are read back (not
    worked out), at their places, and the output is that of a run without the cache."""
    from tests.test_validate_cache_units import _count, _run
    from toolkit.checks import card_reference
    from toolkit.content import validate_cache

    folder = _game(run_cli, tmp_path, SUIT, {"suit": "שלום"})
    deck = folder / DECK
    other = deck.read_text(encoding="utf-8").replace("id: cards", "id: more")
    other = other.replace("  - id: ", "  - id: more-").replace("suit: שלום", "suit: ok")
    (folder / "decks" / "more.yaml").write_text(other, encoding="utf-8")
    manifest = folder / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(
        text.replace("    - decks/cards.yaml\n", "    - decks/more.yaml\n    - decks/cards.yaml\n"),
        encoding="utf-8",
    )
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(validate_cache.StatCache, "RACY_NS", -(10**18))
    code, before = _run(str(folder), "-f", "json")
    assert code == 1 and '"P017"' in before
    worked = _count(monkeypatch, card_reference, "_deck_findings")
    more = folder / "decks" / "more.yaml"
    more.write_text(more.read_text("utf-8").replace("suit: ok", "suit: fine"), "utf-8")
    assert _run(str(folder), "-f", "json") == (code, before)  # cards.yaml's P017 read back
    assert worked[0] == 1  # more.yaml's alone
    assert _run(str(folder), "-f", "json", "--no-cache") == (code, before)
    assert worked[0] == 3


def test_the_texts_are_gone_over_once_for_every_deck(run_cli, tmp_path):
    """Each deck's content texts are looked up in the texts indexed by file once: going
    over every text of the game for each deck was O(files x texts), 1.3 s of a game of
    2,000 one-card decks (probe 42 N1)."""
    from toolkit.checks import card_reference
    from toolkit.content.walk import collect

    folder = _game(run_cli, tmp_path, "", {})
    listed = ""
    for i in range(6):
        (folder / "decks" / f"d{i}.yaml").write_text(
            f"id: d{i}\nkind: actions\nname: {{en: D{i}}}\nsize: poker\n"
            f"cards:\n  - {{id: k{i}, name: {{en: A{i}}}, text: {{en: Go.}}}}\n",
            encoding="utf-8",
        )
        listed += f"    - decks/d{i}.yaml\n"
    manifest = folder / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    text = text.replace("    - decks/cards.yaml\n", listed + "    - decks/cards.yaml\n")
    manifest.write_text(text, encoding="utf-8")
    game = load_game(folder)
    assert len(game.decks) == 7 and game.rulebook
    facts = collect(game)
    passes = [0]

    class Counted(list):
        def __iter__(self):
            passes[0] += 1
            return super().__iter__()

    facts.texts = Counted(facts.texts)
    list(card_reference.check(game, facts, set()))
    assert passes[0] == 1
