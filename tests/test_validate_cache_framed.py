"""A check family that reads no content file keeps its findings whole between `validate`
runs (toolkit.checks.framed): after a card edit it is not run again, and the output is the
very output of a run without the cache; an edit to any other file of the game (the board, an
icon) runs it again. A family that reads a deck through the game it is given is run on the
game itself, and nothing is kept."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, relink_modelines
from tests.test_validate_cache_units import _count, _run, cache  # noqa: F401 (a fixture)
from toolkit.checks import board_styles, content_paths, framed
from toolkit.content import validate_cache
from toolkit.content.game import load_game
from toolkit.content.unit_cache import Units, activated
from toolkit.diagnostics import Diagnostic
from toolkit.render.icons import icon_set

STYLE = """style:
  spaces:
    port: {icon: lampp}
"""


def _game(tmp_path: Path) -> Path:
    """The base fixture with a board style that names a missing icon (P015)."""
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    relink_modelines(game)
    board = game / "boards" / "map.yaml"
    board.write_text(board.read_text("utf-8") + STYLE, "utf-8")
    return game


def _same_as_without_cache(game: Path) -> str:
    code, said = _run(str(game), "-f", "json", "-v")
    assert "unit result(s) kept" in said
    kept = "".join(line for line in said.splitlines(True) if not line.startswith("cache: "))
    assert (code, kept) == _run(str(game), "-f", "json", "--no-cache")
    return kept


def _edit_card(game: Path, new: str) -> None:
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text("utf-8")
    assert text.count("en: Move {steps} spaces.") == 1
    deck.write_text(text.replace("en: Move {steps} spaces.", f"en: {new}"), "utf-8")


@pytest.mark.usefixtures("cache")
def test_a_card_edit_does_not_run_the_board_checks_again(tmp_path, monkeypatch):
    game = _game(tmp_path)
    assert '"P015"' in _run(str(game), "-f", "json")[1]
    calls = _count(monkeypatch, board_styles, "_fit")
    _edit_card(game, "Move {steps} spaces at once.")
    assert '"P015"' in _same_as_without_cache(game)
    assert calls[0] == 1  # the run without the cache; the run from the units: none
    _edit_card_back = (game / "decks" / "cards.yaml").read_text("utf-8")
    (game / "decks" / "cards.yaml").write_text(
        _edit_card_back.replace("Move {steps} spaces at once.", "Move {steps} squares."), "utf-8"
    )
    calls[0] = 0
    _same_as_without_cache(game)
    assert calls[0] == 1


@pytest.mark.usefixtures("cache")
def test_any_other_file_edited_runs_the_board_checks_again(tmp_path, monkeypatch):
    game = _game(tmp_path)
    _run(str(game), "-f", "json")
    calls = _count(monkeypatch, board_styles, "_fit")
    board = game / "boards" / "map.yaml"
    board.write_text("# a comment: every line moves\n" + board.read_text("utf-8"), "utf-8")
    found = _same_as_without_cache(game)
    assert '"P015"' in found  # at its new line: the output of a run without the cache
    assert calls[0] == 2
    (game / "icons").mkdir()  # the icon now exists: no finding
    (game / "icons" / "lampp.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
        '<circle cx="5" cy="5" r="4"/></svg>',
        "utf-8",
    )
    icon_set.cache_clear()  # one process per run outside tests
    assert '"P015"' not in _same_as_without_cache(game)
    assert calls[0] == 4


def _frame_units(game: Path) -> Units:
    frames: list[validate_cache.Frame] = []
    validate_cache.inputs_digest(game, (), validate_cache.StatCache(), None, frames)
    units = Units()
    units.frame = frames[0]
    units.content = content_paths(load_game(game))
    return units


def test_a_family_that_reads_a_deck_runs_on_the_game_and_is_not_kept(tmp_path):
    game_folder = _game(tmp_path)
    game = load_game(game_folder)
    seen: list[object] = []

    def reads_decks(g):
        yield Diagnostic("x", "P015", "first")
        seen.append(type(g).__name__)
        yield Diagnostic("x", "P015", f"{len(getattr(g, 'decks', []))} deck(s)")

    units = _frame_units(game_folder)
    with activated(units):
        found = list(framed.framed("test", reads_decks, game))
    assert [d.message for d in found] == ["first", "1 deck(s)"]
    assert seen == ["_WithoutContent", "Game"] and not units.used  # gave up on the view

    def reads_boards(g):
        yield Diagnostic("x", "P015", f"{len(g.boards)} board(s)")

    with activated(units):
        assert [d.message for d in framed.framed("test", reads_boards, game)] == ["1 board(s)"]
    assert len(units.used) == 1 and units.framed == list(units.used)
    again = _frame_units(game_folder)
    again.known = dict(units.used)
    with activated(again):
        kept = list(framed.framed("test", lambda g: iter(()), game))
    assert [d.message for d in kept] == ["1 board(s)"]


def test_a_family_that_fails_gives_its_items_then_its_error_and_is_not_kept(tmp_path):
    game_folder = _game(tmp_path)
    game = load_game(game_folder)

    def fails(g):
        yield Diagnostic("x", "P015", "before")
        raise RuntimeError("broken")

    units = _frame_units(game_folder)
    got: list[str] = []
    with activated(units), pytest.raises(RuntimeError, match="broken"):
        for d in framed.framed("test", fails, game):
            got.append(d.message)
    assert got == ["before"] and not units.used


@pytest.mark.usefixtures("cache")
def test_a_game_edited_while_checked_keeps_no_framed_unit(tmp_path, monkeypatch):
    game = _game(tmp_path)
    real = board_styles._check

    def edits_meanwhile(g):
        yield from real(g)
        icon = game / "icons" / "extra.svg"
        icon.parent.mkdir(exist_ok=True)
        icon.write_text('<svg xmlns="http://www.w3.org/2000/svg"/>', "utf-8")

    monkeypatch.setattr(board_styles, "_check", edits_meanwhile)
    _run(str(game), "-f", "json")
    monkeypatch.setattr(board_styles, "_check", real)
    (game / "icons" / "extra.svg").unlink()  # back as the frame of that run said
    calls = _count(monkeypatch, board_styles, "_fit")
    _edit_card(game, "Move {steps} spaces at once.")
    _same_as_without_cache(game)
    assert calls[0] == 2  # not kept by the run that saw the game change


def _digested(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """The files whose texts parity and typography digest (to look them up as clean)."""
    from toolkit.checks.translation import parity, typography

    files: dict[str, list[str]] = {"parity": [], "typography": []}
    real = parity._digest

    def digest(view):
        files["parity"].append(Path(view.file).name)
        return real(view)

    monkeypatch.setattr(parity, "_digest", digest)
    real_check = typography.check

    def check(texts):
        noted = list(texts)
        real_text_digest = typography.text_digest

        def text_digest(lang, value):
            where = next(v for v in noted if v.values.get(lang) == value)
            files["typography"].append(Path(where.file).name)
            return real_text_digest(lang, value)

        monkeypatch.setattr(typography, "text_digest", text_digest)
        try:
            yield from real_check(texts)
        finally:
            monkeypatch.setattr(typography, "text_digest", real_text_digest)

    monkeypatch.setattr(typography, "check", check)
    from toolkit.checks import translation

    monkeypatch.setattr(translation, "typography", typography)
    return files


@pytest.mark.usefixtures("cache")
def test_after_a_card_edit_only_the_edited_files_texts_are_digested(tmp_path, monkeypatch):
    """Parity and typography skip a content file whole when every text of it was clean and
    nothing it is read from changed: after a card edit only the deck's texts are digested;
    a file with a finding is digested again (its finding said again); a glossary edit
    digests every file's texts again. The output is that of a run without the cache."""
    game = _game(tmp_path)
    bank = game / "questions" / "bank.yaml"
    lines = bank.read_text("utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("en: "))
    lines[at] = lines[at].replace("en: ", "en: Two  spaces ", 1)  # T015 in the bank
    bank.write_text("\n".join(lines), "utf-8")
    cold = _run(str(game), "-f", "json")
    assert '"T015"' in cold[1]
    files = _digested(monkeypatch)
    _edit_card(game, "Move {steps} spaces at once.")
    assert '"T015"' in _same_as_without_cache(game)
    kept = {name: [f for f in found] for name, found in files.items()}
    for found in files.values():
        found.clear()
    # the bank's T015 is typography's: parity found its texts clean, and skips them
    assert set(kept["typography"]) == {"cards.yaml", "bank.yaml"}, kept
    assert set(kept["parity"]) == {"cards.yaml"}, kept
    _edit_card_text = (game / "decks" / "cards.yaml").read_text("utf-8")
    (game / "decks" / "cards.yaml").write_text(
        _edit_card_text.replace("spaces at once.", "squares."), "utf-8"
    )
    _same_as_without_cache(game)
    assert set(files["parity"]) == {"cards.yaml"}, files
    for found in files.values():
        found.clear()
    glossary = game / "glossary.yaml"
    glossary.write_text("# edited\n" + glossary.read_text("utf-8"), "utf-8")
    _same_as_without_cache(game)
    assert {"glossary.yaml", "game.yaml", "map.yaml"} <= set(files["parity"]), files


@pytest.mark.usefixtures("cache")
def test_after_a_card_edit_question_banks_are_read_back_whole(tmp_path, monkeypatch):
    """A bank's print-fit findings are kept whole, named by the bank in the frame: after a
    card edit no question's faces are named, and its P001 comes back at its place; after an
    edit of the bank (every line moved) they are worked out again. Each output is that of a
    run without the cache."""
    from tests.conftest import build_case
    from toolkit.checks import printfit

    game = build_case(FIXTURES / "broken" / "question-overflow", tmp_path / "game")
    assert '"P001"' in _run(str(game), "-f", "json")[1]
    named = _count(monkeypatch, printfit, "_question_args")
    _edit_card(game, "Move {steps} spaces at once.")
    assert '"P001"' in _same_as_without_cache(game)
    assert named[0] == 0
    bank = next((game / "questions").glob("*.yaml"))
    bank.write_text("# moved\n" + bank.read_text("utf-8"), "utf-8")
    assert '"P001"' in _same_as_without_cache(game)
    assert named[0] > 0


@pytest.mark.usefixtures("cache")
def test_a_bank_read_back_whole_keeps_its_questions_own_units(tmp_path, monkeypatch):
    """After a run that read a bank back whole, an edit of one of its questions faces that
    question alone: each question's own unit was kept with the bank's."""
    from tests.conftest import build_case
    from toolkit.checks import printfit

    game = build_case(FIXTURES / "broken" / "question-overflow", tmp_path / "game")
    bank = game / "questions" / "bank.yaml"
    text = bank.read_text("utf-8")
    second = text[text.index("  - id: q1") :].replace("id: q1", "id: q2")
    bank.write_text(text.rstrip("\n") + "\n" + second.replace("common die", "usual die"), "utf-8")
    _run(str(game), "-f", "json")
    _edit_card(game, "Move {steps} spaces at once.")
    _same_as_without_cache(game)  # the bank read back whole
    faced: list[int] = []
    real = printfit._question_face

    def counted(loaded, index, *args):
        faced.append(index)
        return real(loaded, index, *args)

    monkeypatch.setattr(printfit, "_question_face", counted)
    edited = bank.read_text("utf-8").replace("usual die", "ordinary die")
    bank.write_text(edited, "utf-8")
    code, said = _run(str(game), "-f", "json")
    assert set(faced) == {1}, faced
    assert (code, said) == _run(str(game), "-f", "json", "--no-cache")


PLAIN = """id: plain
background: "#ffffff"
elements:
  - {kind: box, box: {x: 3, y: 3, w: -3, h: -3}, fill: "#eeeeee"}
  - kind: text
    box: {x: 5, y: 5, w: -5, h: 10}
    text: "{{ card.name }}"
    size: {max: 12, min: 6}
  - kind: text
    box: {x: 5, y: 20, w: -5, h: 30}
    text: "{{ card.text }}"
    size: {max: 10, min: 6}
"""


def _two_decks(tmp_path: Path) -> Path:
    """The base fixture with a second deck, `more` (the first's cards, other ids), both
    on a layout of texts and boxes alone (whose cards' faces are named: the standard
    layout's picture is not)."""
    game = _game(tmp_path)
    (game / "layouts").mkdir()
    (game / "layouts" / "plain.yaml").write_text(PLAIN, "utf-8")
    deck = game / "decks" / "cards.yaml"
    plain = deck.read_text("utf-8").replace("size: poker\n", "size: poker\nlayout: plain\n")
    deck.write_text(plain, "utf-8")
    first = deck.read_text("utf-8")
    assert "layout: plain" in first
    more = first.replace("id: cards", "id: more").replace("  - id: ", "  - id: more-")
    (game / "decks" / "more.yaml").write_text(more, "utf-8")
    manifest = game / "game.yaml"
    text = manifest.read_text("utf-8")
    manifest.write_text(
        text.replace("    - decks/cards.yaml\n", "    - decks/cards.yaml\n    - decks/more.yaml\n"),
        "utf-8",
    )
    return game


@pytest.mark.usefixtures("cache")
def test_after_a_card_edit_only_the_edited_decks_cards_are_named(tmp_path, monkeypatch):
    """Print fit and legibility read a deck's card units back as one batch, named by the
    deck in the frame: after a card edit only the edited deck's cards have their faces
    named; a deck read back as a batch keeps its cards' own units, so an edit of one of its
    cards then works out that card alone. Each output is that of a run without the cache."""
    from toolkit.checks import printfit
    from toolkit.checks.legibility import faces

    game = _two_decks(tmp_path)
    _run(str(game), "-f", "json")
    named: list[str] = []
    for module in (printfit, faces):
        real = module.card_args

        def counted(jobs, layout, card, _real=real):
            named.append(jobs[0].deck.id)
            return _real(jobs, layout, card)

        monkeypatch.setattr(module, "card_args", counted)
    _edit_card(game, "Move {steps} spaces at once.")
    _same_as_without_cache(game)
    assert named and set(named) == {"cards"}, named
    worked: list[tuple[str, int]] = []
    real_work = printfit._card_work

    def counted_work(loaded, index, *args):
        worked.append((Path(loaded.rel).name, index))
        return real_work(loaded, index, *args)

    monkeypatch.setattr(printfit, "_card_work", counted_work)
    more = game / "decks" / "more.yaml"
    more.write_text(more.read_text("utf-8").replace("en: Move {steps} spaces.", "en: Go."), "utf-8")
    code, said = _run(str(game), "-f", "json")
    assert worked == [("more.yaml", 0)], worked
    assert (code, said) == _run(str(game), "-f", "json", "--no-cache")


@pytest.mark.usefixtures("cache")
@pytest.mark.parametrize("case", ["deutan-kinds", "grey-kinds"])
def test_a_card_edit_does_not_run_the_boards_legibility_again(case, tmp_path, monkeypatch):
    """The boards' share of the legibility checks (colours that mean, what a space prints)
    reads no deck: after a card edit it is read back, its finding in its place."""
    from tests.conftest import build_case
    from toolkit.checks.legibility import meaning, printed

    game = build_case(FIXTURES / "broken" / case, tmp_path / "game")
    cold = _run(str(game), "-f", "json")[1]
    assert '"A00' in cold
    groups = _count(monkeypatch, meaning, "_board_groups")
    spaces = _count(monkeypatch, printed, "_boards")
    _edit_card(game, "Move {steps} spaces at once.")
    assert '"A00' in _same_as_without_cache(game)
    assert (groups[0], spaces[0]) == (1, 1)  # the run without the cache alone


@pytest.mark.usefixtures("cache")
def test_a_deck_not_edited_is_read_back_as_one_value(tmp_path, monkeypatch):
    """After a card edit in one deck, the other deck's print-fit and legibility shares are
    read from its batch's one value, decoded once for the file: no card's own unit is looked
    up, in either deck (the edited deck's cards are found by their names in its batch's
    last value). The output is that of a run without the cache."""
    from toolkit.content.unit_cache import Units

    cards: set[str] = set()  # the names of the cards' own units
    real_name = Units.name

    def name(kind, args):
        made = real_name(kind, args)
        if kind in ("card-print-fit", "card-legibility"):
            cards.add(made)
        return made

    monkeypatch.setattr(Units, "name", staticmethod(name))
    game = _two_decks(tmp_path)
    _run(str(game), "-f", "json")
    assert len(cards) >= 4  # two decks' cards, two checks
    looked_up: list[str] = []
    real_get = Units.get

    def get(self, name, read):
        looked_up.append(name)
        return real_get(self, name, read)

    monkeypatch.setattr(Units, "get", get)
    _edit_card(game, "Move {steps} spaces at once.")
    _same_as_without_cache(game)
    assert looked_up
    one_by_one = cards.intersection(looked_up)
    assert not one_by_one, f"{len(one_by_one)} card unit(s) looked up one by one"


@pytest.mark.usefixtures("cache")
def test_a_card_added_to_a_deck_is_the_only_card_worked_out(tmp_path, monkeypatch):
    """A card added to a deck changes its batch's length: the deck's other cards are still
    found by their names in the batch's last value, and the new card alone is worked out."""
    from toolkit.checks import printfit

    game = _two_decks(tmp_path)
    _run(str(game), "-f", "json")
    worked: list[tuple[str, int]] = []
    real_work = printfit._card_work

    def counted_work(loaded, index, *args):
        worked.append((Path(loaded.rel).name, index))
        return real_work(loaded, index, *args)

    monkeypatch.setattr(printfit, "_card_work", counted_work)
    more = game / "decks" / "more.yaml"
    text = more.read_text("utf-8")
    first = text.index("  - id: more-")
    second = text.index("  - id: more-", first + 1)
    card = text[first:second].replace("  - id: more-", "  - id: added-", 1)
    more.write_text(text[:second] + card + text[second:], "utf-8")
    code, said = _run(str(game), "-f", "json")
    assert worked == [("more.yaml", 1)], worked
    assert (code, said) == _run(str(game), "-f", "json", "--no-cache")


@pytest.mark.usefixtures("cache")
def test_legibility_reads_a_deck_not_edited_in_its_deck_loop(tmp_path, monkeypatch):
    """Legibility's deck loop reads a card of a file not edited from the file's batch itself,
    as print-fit's does: after a card edit `_card` (its closures, its Shape) is called for
    the edited deck's cards alone, and the output is that of a run without the cache."""
    from toolkit.checks.legibility import faces

    game = _two_decks(tmp_path)
    _run(str(game), "-f", "json")
    carded: list[str] = []
    real = faces._card

    def counted(loaded, *args, **kwargs):
        carded.append(Path(loaded.rel).name)
        return real(loaded, *args, **kwargs)

    monkeypatch.setattr(faces, "_card", counted)
    _edit_card(game, "Move {steps} spaces at once.")
    cached_run = _run(str(game), "-f", "json")
    assert carded and set(carded) == {"cards.yaml"}, carded
    assert cached_run == _run(str(game), "-f", "json", "--no-cache")
