"""The validity gate of a game of cards alone (what a cold `build` runs first) imports the
checks of what the game has: a family of something it lacks (question banks…) finds nothing
there, and its modules stay unloaded; a game that has them loads them and finds as ever."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import FIXTURES, build_case


def _cards_only(root: Path) -> Path:
    """A game of one deck and nothing else (as benchmarks/cards_100.py's)."""
    game = root / "g"
    (game / "decks").mkdir(parents=True)
    (game / "game.yaml").write_text(
        "id: g\ntitle: {fr: Jeu}\nlanguages: [fr]\nsource_language: fr\n"
        "players: {min: 2, max: 4}\nrules: {}\nfiles:\n  decks: [decks/cards.yaml]\n"
    )
    (game / "decks" / "cards.yaml").write_text(
        "id: cards\nkind: actions\nname: {fr: Actions}\nsize: poker\ncards:\n"
        "  - id: c1\n    name: {fr: Carte}\n    text: {fr: 'Avancez de {steps} cases.'}\n"
        "    params: {steps: 2}\n"
    )
    return game


def _gate(game: Path, prefixes: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """The modules starting with one of `prefixes` that the gate of `game` (errors only, fr
    printed: `build --lang fr`) imports in a fresh interpreter, and the codes it finds."""
    code = (
        "import sys; from pathlib import Path; from toolkit.checks import run_checks;"
        "from toolkit.content.game import load_game;"
        f"found = run_checks(load_game(Path({str(game)!r})), errors_only=True, printed=['fr']);"
        f"print(sorted(m for m in sys.modules if m.startswith({prefixes!r})));"
        "print(sorted(d.code for d in found))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    modules, codes = done.stdout.splitlines()
    return eval(modules), eval(codes)  # noqa: S307 - lists we printed


QUESTION_CHECKS = ("toolkit.checks.questions.",)


def test_the_gate_of_a_game_without_questions_loads_no_question_check(tmp_path: Path) -> None:
    """Only the family and its rules are loaded (`playset rules` lists them, a selection
    of `Q…` is known): counts, spread, duplicates and answers are not."""
    loaded, codes = _gate(_cards_only(tmp_path), QUESTION_CHECKS)
    assert loaded == ["toolkit.checks.questions.rules"]
    assert codes == []


def test_a_game_with_a_question_bank_still_loads_them_and_finds(tmp_path: Path) -> None:
    game = build_case(FIXTURES / "broken" / "duplicate-question", tmp_path / "game")
    loaded, codes = _gate(game, QUESTION_CHECKS)
    assert "toolkit.checks.questions.duplicates" in loaded
    assert "Q002" in codes


def test_question_needs_without_a_bank_are_still_counted(tmp_path: Path) -> None:
    """`questions:` in game.yaml with no question file listed: Q007 says the difficulty has
    none (the family's short cut is only for a game with neither)."""
    game = _cards_only(tmp_path)
    with (game / "game.yaml").open("a") as manifest:
        manifest.write("questions: {difficulties: [easy], minimum: 3}\n")
    loaded, codes = _gate(game, QUESTION_CHECKS)
    assert "toolkit.checks.questions.counts" in loaded
    assert codes == ["Q007"]


def test_the_gate_of_a_game_without_boards_loads_no_line_tally(tmp_path: Path) -> None:
    """The board checks ask the line tally (a board page's price) which caps paint past a
    dash only for a board's line styles: a game of cards never imports it."""
    loaded, codes = _gate(_cards_only(tmp_path), ("toolkit.render.line_tally",))
    assert loaded == []
    assert codes == []


BUILD = """
import sys
import toolkit.cli as cli
game, out, wanted = sys.argv[1:]
sys.argv = ["playset", "build", game, "--lang", "fr", "--no-cache", "--out", out]
try:
    cli.main()
except SystemExit as exc:
    print(exc.code)
print(sorted(m for m in sys.modules if m in wanted.split(",")))
"""


def test_a_build_without_a_duplex_offset_imports_no_printer_reader(tmp_path: Path) -> None:
    """The saved printers' reader is imported for `--back-offset` or `--printer`, the text
    formats of findings for a game the gate refuses, shlex for the message of a game an
    interrupted write left half changed, mmap where a picture file is read, the raster
    prices of elements for a picture of a face (export, preview), the hyphenation tables'
    reader for a word to break. A build of a valid game of text cards in short words loads
    none of them, and writes its PDF."""
    game, out = _cards_only(tmp_path), tmp_path / "out"
    wanted = "toolkit.render.printers,toolkit.diagnostics.formats,shlex,mmap"
    wanted += ",toolkit.render.raster_weight,toolkit.render.hyphenation"
    done = subprocess.run(
        [sys.executable, "-c", BUILD, str(game), str(out), wanted], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["0", "[]"]
    assert (out / "g" / "fr" / "cards.pdf").is_file()


def test_a_refused_game_still_shows_its_errors(tmp_path: Path) -> None:
    game, out = _cards_only(tmp_path), tmp_path / "out"
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("size: poker", "size: huge"))
    done = subprocess.run(
        [sys.executable, "-c", BUILD, str(game), str(out), "toolkit.diagnostics.formats"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["1", "['toolkit.diagnostics.formats']"]
    assert "decks/cards.yaml:4:7: S004 [error]" in done.stderr and "'huge'" in done.stderr


def test_the_gate_of_a_game_without_a_glossary_loads_no_term_search(tmp_path: Path) -> None:
    """The glossary's term search (its tables, the walk) is imported by the glossary check
    of a game with one, and by the presence check when a text may be a kept name: neither
    happens for a game of cards without a glossary."""
    loaded, codes = _gate(_cards_only(tmp_path), ("toolkit.checks.translation.term_search",))
    assert loaded == []
    assert codes == []
