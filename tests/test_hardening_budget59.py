"""budget59: one game of at most 1 MB could spend every per-surface budget at once (probe 50
P50-15: ~9 s of a cold `validate`). The bounds that cost most per byte of input were trimmed
so that all of them together stay near 5 s; each test stands at a new edge, and counts work,
never time."""

from __future__ import annotations

from tests.test_hardening_probe9_content import _xlsx
from tests.test_hardening_xlsx53 import _scanned
from toolkit.content.sheets import archive, grid, workbook
from toolkit.content.source import game_repeats
from toolkit.render.layout_budget import LAYOUT_BUDGET
from toolkit.render.textfit import FIT_BUDGET


def _rows(size: int) -> str:
    """Rows of empty styled cells, each cell named (so they zip ~8 times, under the ratio
    bound), `size` characters at least."""
    rows, total, number = [], 0, 2
    while total < size:
        cells = "".join(f'<c r="{a}{b}{number}" s="1"/>' for a in "AB" for b in "ABCDEFGHIJ")
        rows.append(f'<row r="{number}">{cells}</row>')
        total += len(rows[-1])
        number += 1
    return "".join(rows)


def test_a_games_sheets_scan_at_most_8_mb_together(tmp_path, monkeypatch):
    # 63 workbooks of 1 MB of empty styled cells (each under the ratio floor, 5 kB zipped,
    # 330 kB in all) took validate 4 s at 64 MB; a sheet past 8 MB is refused before any scan
    data = _xlsx(_rows(8 * 1024 * 1024))
    assert archive.inspect(data, ".xlsx") is None  # within the file's own bounds
    sizes = _scanned(monkeypatch)
    path = tmp_path / "w.xlsx"
    path.write_bytes(data)
    with game_repeats():
        read = workbook.read_workbook(path, "decks/w.xlsx")
    assert isinstance(read, grid.Refused), read
    assert read.diagnostic.code == "Y013" and read.diagnostic.file == "decks/w.xlsx"
    assert "over 8,388,608 bytes of sheet data" in read.diagnostic.message
    assert "delete empty formatted rows" in read.diagnostic.message
    assert sizes == []  # refused by its sizes: nothing scanned


def _validate(*args: str) -> tuple[int, list[dict]]:
    import json

    from typer.testing import CliRunner

    from toolkit.cli import app

    result = CliRunner().invoke(app, ["validate", *args, "-f", "json"], catch_exceptions=False)
    return result.exit_code, json.loads(result.output)


def test_a_game_fits_at_most_3_million_letters(tmp_path, monkeypatch):
    # 300 cards whose text (3,900 letters, one YAML anchor: 40 kB) fits at no size, in two
    # languages: ~4.4 million letters counted, over the 4 million of before too
    from toolkit.scaffold.new import new_game

    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    game = tmp_path / "g"
    new_game(game, "g", ["en", "fr"])
    deck = game / "decks" / "cards.yaml"
    head, _, _ = deck.read_text("utf-8").partition("\ncards:\n")
    words = " ".join(f"mot{i}" for i in range(500))
    first = f"  - {{id: c0, name: {{en: N0, fr: N0}}, text: &t {{en: '{words}', fr: '{words}'}}}}\n"
    rest = "".join(
        f"  - {{id: c{i}, name: {{en: N{i}, fr: N{i}}}, text: *t}}\n" for i in range(1, 300)
    )
    deck.write_text(f"{head}\ncards:\n{first}{rest}", "utf-8")
    code, found = _validate(str(game), "--no-cache")
    stops = [d for d in found if d["message"].startswith("print fit stops at c")]
    assert code == 1 and len(stops) == 1, [d["message"][:80] for d in found[:5]]
    (stop,) = stops
    assert stop["code"] == "P001" and stop["file"].endswith("decks/cards.yaml")
    assert f"validate fits at most {FIT_BUDGET:,} characters of text a game" in stop["message"]
    assert "shorten the texts" in stop["message"]
    stopped = int(stop["message"].split()[4].removeprefix("c").rstrip(":"))
    assert 180 * FIT_BUDGET // 3_000_000 < stopped < 240 * FIT_BUDGET // 3_000_000, stop["message"]


def test_a_games_card_layouts_render_at_most_their_steps(tmp_path, monkeypatch):
    # 60 cards of a ~3,000-step text in two languages: ~360,000 steps, under the 400,000 of
    # before
    from tests.test_layout_budget import _hostile

    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    code, found = _validate(str(_hostile(tmp_path, cards=60)), "--no-cache")
    stops = [d for d in found if d["message"].startswith("layout work stops at ")]
    assert code == 1 and len(stops) == 1, [d["message"][:80] for d in found[:5]]
    (stop,) = stops
    assert stop["code"] == "P003" and stop["file"].endswith("layouts/example-card.yaml")
    assert f"validate renders at most {LAYOUT_BUDGET:,} steps of card layouts'" in stop["message"]
    assert "compute less in the layout's templates" in stop["message"]


def _icon_problems(tmp_path, texts: list[str]) -> list[tuple[str, str]]:
    """(name, message) of the icons `icon_set` refuses, `texts` written as icons ma, mb…"""
    from toolkit.render import icons as icons_module

    icons = tmp_path / "icons"
    icons.mkdir()
    for i, text in enumerate(texts):
        (icons / f"m{chr(97 + i)}.svg").write_text(text, encoding="utf-8")
    icons_module.icon_set.cache_clear()
    try:
        found = icons_module.icon_set(tmp_path)
    finally:
        icons_module.icon_set.cache_clear()
    return [(p.file.rsplit("/", 1)[-1], p.message) for p in found.problems]


HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'


def test_a_games_icons_hold_at_most_120_000_path_numbers(tmp_path):
    # three icons of 45,000 numbers each (under an icon's 50,000): the third is refused, where
    # all three were read under the game's 160,000 of before
    icon = HEAD + '<path d="M' + " 1 2" * 22_500 + '"/></svg>'
    found = _icon_problems(tmp_path, [icon] * 3)
    assert [name for name, _ in found] == ["mc.svg"], found
    assert "more than 120,000 together" in found[0][1]
    assert "remove the icons the game does not print" in found[0][1]


def test_a_games_icons_hold_at_most_30_000_characters_of_css(tmp_path):
    # three icons of 12,000 characters of <style> (under an icon's 20,000), 80,000 before
    icon = HEAD + "<style>" + "rect{fill:red}" * 857 + "</style><rect/></svg>"
    found = _icon_problems(tmp_path, [icon] * 3)
    assert [name for name, _ in found] == ["mc.svg"], found
    assert "more than 30,000 together" in found[0][1]


def test_a_game_lists_at_most_10_boards(tmp_path):
    # 85 boards of 100 spaces piled on one spot (449 kB) took validate 10 s when a game could
    # list 100: each board's layout may cost its own bounds (~0.25 s)
    from tests.test_content_files_bound import _game
    from toolkit.content.game import load_game

    root = _game(tmp_path, 1)
    manifest = root / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("    - boards/map.yaml\n", "    - boards/map.yaml\n" * 11))
    game = load_game(root)
    (found,) = [d for d in game.diagnostics if d.code == "Y019"]
    assert "11 board files" in found.message and "at most 10" in found.message
    assert game.boards == []
    manifest.write_text(text.replace("    - boards/map.yaml\n", "    - boards/map.yaml\n" * 10))
    assert not [d for d in load_game(root).diagnostics if d.code == "Y019"]


def test_laying_out_a_board_compares_at_most_100_000_pairs(monkeypatch):
    # the bundled map's 130 spaces piled on one spot: every round compares each with all,
    # and the spreading stopped at 400,000 comparisons (~0.6 s a board) before
    from tests.test_render_boards import _variant, game
    from toolkit.render.boards import board_look, graph

    model = _variant("one spot")
    look = board_look(game("whisky-game"), model, "en")
    spent: list[int] = []
    real = graph._Work.spend

    def counted(self, count: int) -> bool:
        spent.append(count)
        return real(self, count)

    monkeypatch.setattr(graph._Work, "spend", counted)
    plan, _arcs = graph._spaced(model, look)
    assert plan.crowded
    # past the bound by the space whose comparisons pass it, in the spreading and the nudging
    assert 100_000 < sum(spent) <= 100_000 + 2 * len(model.spaces), sum(spent)
    found = " ".join(message for _path, message, _error in graph.problems(model, look, True))
    assert "may touch" in found and "spread the spaces, or split the board" in found


def test_the_legibility_check_looks_at_most_half_a_million_steps(tmp_path, monkeypatch):
    # 70 cards whose faces differ (a box shown on every card but one), 70 boxes, 30 badges and
    # 6 texts a face (probe 51 P51-10's shape): ~1.2 million steps, under the 3 million of
    # before; past 500,000 (1 million until budget60) the check stops and says where
    from toolkit.scaffold.new import new_game

    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    game = tmp_path / "g"
    new_game(game, "g", ["en", "fr"])
    boxes = "".join(
        f"  - kind: box\n    when: \"card.id != 'c{i}'\"\n"
        f"    box: {{x: {i % 20}, y: {i % 30}, w: -{i % 20}, h: -{i % 25}}}\n"
        f'    fill: "#{i * 2654435761 % (1 << 24):06x}"\n'
        for i in range(70)
    )
    badges = "".join(
        f'  - kind: badge\n    box: {{x: {i}, y: {i}, w: 8, h: 8}}\n    text: "{i % 10}"\n'
        f'    fill: "#{i * 40503 % (1 << 24):06x}"\n    colour: "#{i * 9973 % (1 << 24):06x}"\n'
        "    size: 8\n"
        for i in range(30)
    )
    texts = "".join(
        f"  - kind: text\n    box: {{x: {i * 3}, y: {i * 4}, w: 20, h: 10}}\n"
        '    text: "{{ card.name }}"\n    size: {max: 8, min: 6}\n    colour: "#202020"\n'
        "    fit: false\n"
        for i in range(6)
    )
    (game / "layouts" / "varied.yaml").write_text(
        f'id: varied\nbackground: "#fbf8f1"\nelements:\n{boxes}{badges}{texts}', "utf-8"
    )
    deck = game / "decks" / "cards.yaml"
    head, _, _ = deck.read_text("utf-8").partition("\ncards:\n")
    entries = "".join(f"  - id: c{i}\n    name: {{en: N{i}, fr: Nom{i}}}\n" for i in range(70))
    deck.write_text(f"{head}\nlayout: varied\ncards:\n{entries}", "utf-8")
    _code, found = _validate(str(game), "--no-cache")
    stops = [d for d in found if "the legibility check stops here" in d["message"]]
    assert len(stops) == 1, [d["message"][:80] for d in found[:5]]
    (stop,) = stops
    assert stop["code"] == "A001" and stop["file"].endswith("decks/cards.yaml")
    assert "past the 500,000 a game's may" in stop["message"]
    stopped = int(stop["message"].split(":")[0].removeprefix("c"))
    assert 15 < stopped < 40, stop["message"]


def wordcounts_found(tmp_path, monkeypatch, count: int) -> list[dict]:
    """validate's findings for a three-language scaffold game whose English rulebook ends with
    `count` `s|wordcount` of a 99,000-character `s`."""
    from toolkit.scaffold.new import new_game

    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    game = tmp_path / "g"
    new_game(game, "g", ["en", "fr", "es"])
    loop = '{% set s = "ab " * 33000 %}{% for i in range(' + str(count) + ") %}"
    loop += "{{ s|wordcount }} {% endfor %}"
    rulebook = game / "rulebook" / "en.md"
    rulebook.write_text(rulebook.read_text("utf-8") + "\n" + loop + "\n", "utf-8")
    return _validate(str(game), "--no-cache")[1]


def test_a_rulebook_builds_and_reads_at_most_4_million_characters(tmp_path, monkeypatch):
    # 300 `s|wordcount` of a 99,000-character `s`: 3,700,000 units read (an eighth of each
    # text) in one language; 600 of them in each of 3 languages took validate 4.5 s, clean,
    # under the 64,000,000 of before (a third each)
    found = wordcounts_found(tmp_path, monkeypatch, 300)
    r010 = [d for d in found if d["code"] == "R010"]
    assert len(r010) == 1 and r010[0]["file"].endswith("rulebook/en.md"), found
    assert "more than 666,666 characters and items" in r010[0]["message"]  # budget60
