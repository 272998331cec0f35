"""A game's content files share one work budget (Y018, `MAX_WORK`): a card is one unit in
each language, a question two, a board's entry (space, link, region…) one in each language
(budget59: one whatever the languages before), and each content file `FILE_WORK` and one in
each language. The kinds were bounded one by one before, and
their corners added up: 999 deck files of 6 cards took a cold `validate` 8 s, 900 one-card
decks in 20 languages 8 s, and a board's size was not bounded at all: one board of 15,000
spaces took 6.7 s, 100 boards of 1,000 spaces more than 2 minutes (probe 43 Y1; budget56).
The file that takes the game past the budget is refused at its first row past it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import FIXTURES, REPO, copy_game
from toolkit.content import game as game_module
from toolkit.content.game import load_game
from toolkit.render.layout_budget import LAYOUT_BUDGET

# the base fixture, in 3 languages: a deck of 2 cards (5 + 6 units), a board of 1 region,
# 2 spaces and 1 link (5 + 4 × 3: drawn in each language) and a bank of 1 question (5 + 6):
# 39 units, in that order (31 until budget59, when a board's entry was one unit)
BASE_WORK = 39


def _game(tmp_path: Path, decks: int = 1) -> Path:
    root = copy_game(FIXTURES / "base", tmp_path / "game")
    manifest = root / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    text = text.replace("    - decks/cards.yaml\n", "    - decks/cards.yaml\n" * decks)
    manifest.write_text(text, encoding="utf-8")
    return root


def _found(root: Path) -> list:
    return [d for d in load_game(root).diagnostics if d.code == "Y018"]


def test_the_base_game_is_exactly_its_units(tmp_path, monkeypatch):
    root = _game(tmp_path)
    monkeypatch.setattr(game_module, "MAX_WORK", BASE_WORK)
    assert not _found(root)
    monkeypatch.setattr(game_module, "MAX_WORK", BASE_WORK - 1)
    (found,) = _found(root)
    assert found.file.endswith("questions/bank.yaml")  # the last file read


def test_a_boards_entries_count_and_it_is_refused_at_its_first_entry_past_the_budget(
    tmp_path, monkeypatch
):
    root = _game(tmp_path)
    # the deck's 11 units, the board's 5, and room for 2 of its entries (3 units each, one
    # a language): its region and its first space
    monkeypatch.setattr(game_module, "MAX_WORK", 11 + 5 + 2 * 3)
    game = load_game(root)
    (found,) = [d for d in game.diagnostics if d.code == "Y018"]
    assert found.severity == "error" and found.file.endswith("boards/map.yaml")
    board = game.boards[0]
    assert board.model is None  # not read
    assert board.doc is not None and found.span == board.doc.span(("spaces", 1))
    assert "1 regions, 2 spaces, 1 links here" in found.message
    # nor is the bank after it read
    assert found.message.endswith("; nor are the 1 content files listed after it")
    assert game.questions[0].doc is None


def test_each_file_counts_besides_its_rows(tmp_path, monkeypatch):
    """Five one-deck files' worth of files: 25 units for the files, 18 for the cards."""
    root = _game(tmp_path, decks=3)  # the deck listed three times
    monkeypatch.setattr(game_module, "MAX_WORK", 3 * 11 + 17 + 11)  # the board 5 + 4 × 3
    assert not [d for d in _found(root)]
    monkeypatch.setattr(game_module, "MAX_WORK", 3 * 11 + 17 + 11 - 1)
    game = load_game(root)
    (found,) = [d for d in game.diagnostics if d.code == "Y018"]
    assert found.file.endswith("questions/bank.yaml")
    bank = game.questions[0]
    assert bank.doc is not None and found.span == bank.doc.span(("questions", 0))
    assert "takes it to 61 units, at most 60" in found.message
    assert "files 25, cards 18, board entries 12, questions 6" in found.message
    assert "put small files together in fewer, smaller files" in found.message


def test_a_file_costs_one_more_unit_in_each_language(tmp_path, monkeypatch):
    root = _game(tmp_path)
    manifest = root / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("languages: [fr, es, en]", "languages: [fr, es, en, de]"))
    # in 4 languages: the deck 6 + 8, the board 6 + 16, the bank 6 + 8
    monkeypatch.setattr(game_module, "MAX_WORK", 50)
    assert not _found(root)
    monkeypatch.setattr(game_module, "MAX_WORK", 49)
    (found,) = _found(root)
    assert "a card is 4 units, a question 8, a board's entry 4 and a file 6" in found.message
    assert "or keep fewer languages" in found.message


@pytest.mark.parametrize("name", ["drinking-heroes", "muckle-stoater", "tokaido", "whisky-game"])
def test_the_bundled_games_take_less_than_a_third_of_the_budget(name, monkeypatch):
    # whisky-game takes 2,412 units (a quarter until its map counted in each language)
    monkeypatch.setattr(game_module, "MAX_WORK", game_module.MAX_WORK // 3)
    assert not _found(REPO / "content" / name)


def test_a_rulebook_shares_half_a_million_steps_between_its_languages(tmp_path, run_cli):
    """A rulebook near its old bound (1,000,000 steps) cost a cold `validate` 1.6 s in three
    languages, a third of what the content may take at `MAX_WORK`: a loop of 62,000 sums in
    each language (~190,000 steps) passed before, and is past its share of 500,000 now."""
    import json
    import shutil

    root = tmp_path / "dh"
    shutil.copytree(REPO / "content" / "drinking-heroes", root)
    loop = (
        "{% set ns = namespace(n=0) %}{% for i in range(62000) %}{% set ns.n = ns.n + i %}"
        "{% endfor %}{{ ns.n }}"
    )
    for path in (root / "rulebook").glob("*.md"):
        path.write_text(path.read_text(encoding="utf-8") + "\n" + loop + "\n", "utf-8")
    result = run_cli("validate", str(root), "--format", "json", "--select", "R010", "--no-cache")
    found = [d for d in json.loads(result.stdout) if d["code"] == "R010"]
    assert found and all("more than 83,333 steps" in d["message"] for d in found), found


def test_a_games_fonts_are_looked_at_once_in_a_run_of_the_checks(tmp_path, monkeypatch):
    """The font set's look (the `fonts/` listing, a stat of each font, a real path) was
    taken for every print job: 12,000 times in a cold `validate` of 999 one-card decks,
    ~10 % of it. In a run of the checks it is taken once; outside one, at every ask."""
    from toolkit.content.assets import steady
    from toolkit.render import game_fonts

    looked: list[Path] = []
    listing = game_fonts._font_names

    def spy(folder: Path) -> list[str]:
        looked.append(folder)
        return listing(folder)

    monkeypatch.setattr(game_fonts, "_font_names", spy)
    with steady():
        first = game_fonts.font_set(tmp_path)
        assert all(game_fonts.font_set(tmp_path) is first for _ in range(3))
    assert len(looked) == 1
    game_fonts.font_set(tmp_path)
    game_fonts.font_set(tmp_path)
    assert len(looked) == 3


def test_a_file_whose_bytes_pass_the_budget_is_not_read_and_nor_are_those_after_it(
    tmp_path, monkeypatch
):
    """A file's reading costs its bytes whatever it holds: one board of 1.9 MB, refused for
    its 15,000 spaces, still took 2.6 s to read, and every file after the first refused
    was read too (a game past the budget by 700 files took 6.8 s). A file whose bytes
    alone pass the budget is refused at its entry in game.yaml, unread, and no content
    file listed after the one that passes the budget is read."""
    root = _game(tmp_path, decks=2)
    board = root / "boards" / "map.yaml"
    junk = "#" * 1_200 * game_module.BYTES_PER_UNIT  # more than `READ_PAST` past the budget
    board.write_text(board.read_text(encoding="utf-8") + junk + "\n", "utf-8")
    monkeypatch.setattr(game_module, "MAX_WORK", 2 * 11 + 100)
    read: list[str] = []
    load = game_module.load_document

    def spy(path, *args, **kwargs):
        read.append(Path(path).name)
        return load(path, *args, **kwargs)

    monkeypatch.setattr(game_module, "load_document", spy)
    game = load_game(root)
    (found,) = [d for d in game.diagnostics if d.code == "Y018"]
    assert found.file == "game.yaml" or found.file.endswith("/game.yaml")
    lines = (root / "game.yaml").read_text("utf-8").splitlines()
    assert found.span.line == lines.index("    - boards/map.yaml") + 1
    assert "the file 'boards/map.yaml' takes it to " in found.message
    units = board.stat().st_size // game_module.BYTES_PER_UNIT
    assert f" bytes are {units:,} units (22 units in the files read before it)" in found.message
    assert "; it is not read (" in found.message
    assert found.message.endswith("; nor are the 1 content files listed after it")
    assert "map.yaml" not in read and "bank.yaml" not in read
    assert game.boards[0].model is None and game.questions[0].doc is None


def test_the_card_layouts_of_a_game_share_a_bounded_number_of_steps(tmp_path, run_cli):
    """A layout just under its per-face steps on every face spent the game's layout budget
    (1,000,000 steps, 2-4 µs each) on top of content at `MAX_WORK`: a cold `validate` took
    5.4 s (budget56). 100 faces of ~5,700 steps each pass the 200,000 now (P003; 400,000
    until budget59)."""
    import json

    root = _game(tmp_path)
    layout = (REPO / "toolkit" / "bundled" / "templates" / "cards" / "standard.yaml").read_text(
        encoding="utf-8"
    )
    spin = (
        "{% set ns = namespace(n=0) %}{% for i in range(1900) %}{% set ns.n = ns.n + i %}"
        "{% endfor %}{{ card.name }}"
    )
    assert layout.count('text: "{{ card.name }}"') >= 1
    layout = layout.replace('text: "{{ card.name }}"', f'text: "{spin}"')
    (root / "layouts").mkdir(exist_ok=True)
    (root / "layouts" / "standard.yaml").write_text(layout, encoding="utf-8")
    deck = root / "decks" / "cards.yaml"
    more = "".join(
        f"  - {{id: more{i}, name: {{fr: a{i}, es: b{i}, en: c{i}}}}}\n" for i in range(32)
    )
    deck.write_text(deck.read_text(encoding="utf-8") + more, encoding="utf-8")
    result = run_cli("validate", str(root), "--format", "json", "--no-cache")
    found = [d for d in json.loads(result.stdout) if d["code"] == "P003"]
    assert found and f"at most {LAYOUT_BUDGET:,} steps" in found[0]["message"], found
