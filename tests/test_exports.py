"""`export png` and `export tts`: images cut from build's press pages, deterministic bytes,
and a Tabletop Simulator save whose every card points at a cell of its sheet."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image

from tests.conftest import FIXTURES
from toolkit.render.exports import exports
from toolkit.render.exports.tts import PER_SHEET, grid_for, sheet_dpi


def _game(tmp_path):
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    return game


def _size(path: Path) -> tuple[int, int]:
    return Image.open(path).size


def _about(size: tuple[int, int], mm: tuple[float, float], dpi: float) -> bool:
    """A page rendered at `dpi` is its size in pixels to within one (PDFium rounds up)."""
    return all(abs(px - v / 25.4 * dpi) <= 1 for px, v in zip(size, mm, strict=True))


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.png"))}


def test_png_export_writes_one_image_per_card_face_and_back(run_cli, tmp_path):
    game, out = _game(tmp_path), tmp_path / "out"
    result = run_cli("export", "png", str(game), "--lang", "en", "--dpi", "100", "--out", str(out))
    assert result.exit_code == 0, result.output
    folder = out / "fixture-game" / "en" / "png"
    # Two cards (five copies) and one question: each once, front and back; and the board.
    assert sorted(_files(folder)) == [
        "bank/q1-back.png",
        "bank/q1-front.png",
        "board.png",
        "cards/rest-back.png",
        "cards/rest-front.png",
        "cards/sprint-back.png",
        "cards/sprint-front.png",
    ]
    assert _about(_size(folder / "cards" / "sprint-front.png"), (63, 88), 100)  # trimmed
    assert _about(_size(folder / "bank" / "q1-back.png"), (63, 88), 100)
    front = Image.open(folder / "cards" / "sprint-front.png").convert("L")
    assert front.getextrema()[1] - front.getextrema()[0] > 100  # drawn, not blank
    fronts = {_files(folder)[k] for k in ("cards/rest-front.png", "cards/sprint-front.png")}
    assert len(fronts) == 2  # two different cards, two different images
    assert _files(folder)["cards/rest-back.png"] == _files(folder)["cards/sprint-back.png"]
    # Same content, same bytes; and with --bleed each image grows by 3 mm a side.
    first = _files(folder)
    assert run_cli("export", "png", str(game), "--lang", "en", "--dpi", "100", "--out", str(out))
    assert _files(folder) == first
    bleed = tmp_path / "bleed"
    args = ["export", "png", str(game), "--lang", "en", "--dpi", "100", "--bleed"]
    assert run_cli(*args, "--out", str(bleed)).exit_code == 0
    size = _size(bleed / "fixture-game" / "en" / "png" / "cards" / "sprint-front.png")
    assert _about(size, (69, 94), 100)


def test_png_count_matches_the_faces_of_a_bundled_game(run_cli, tmp_path):
    from toolkit.content.game import bundled_games, load_game
    from toolkit.render.exports.faces import printed_decks

    out = tmp_path / "out"
    args = ["export", "png", "drinking-heroes", "--lang", "es", "--dpi", "40", "--out", str(out)]
    assert run_cli(*args, "--page-dpi", "40").exit_code == 0
    game = load_game(bundled_games()["drinking-heroes"])
    folder = out / "drinking-heroes" / "es" / "png"
    for printed in printed_decks(game):
        images = sorted(p.name for p in (folder / printed.id).glob("*.png"))
        ids = [card.id for card in printed.cards]
        assert images == sorted(f"{i}-{side}.png" for i in ids for side in ("front", "back"))
    pages = sorted((folder / "rulebook").glob("page-*.png"))
    assert pages and pages[0].name == "page-01.png"


def _tts(run_cli, game: str, out: Path, *extra: str) -> tuple[dict, Path]:
    result = run_cli(
        "export", "tts", game, "--lang", "en", "--dpi", "60", "--out", str(out), *extra
    )
    assert result.exit_code == 0, result.output
    name = Path(game).name if "/" in game else game
    folder = next((out).glob("*/en/tts"))
    files = list(folder.glob("*.json"))
    assert len(files) == 1, name
    return json.loads(files[0].read_text(encoding="utf-8")), folder


def _local(url: str) -> Path:
    parsed = urlparse(url)
    assert parsed.scheme == "file"
    return Path(unquote(parsed.path))


def _check_custom_deck(entry: dict, sheet_cards: set[int]) -> None:
    cols, rows = entry["NumWidth"], entry["NumHeight"]
    assert 2 <= cols <= 10 and 2 <= rows <= 7
    face, back = _local(entry["FaceURL"]), _local(entry["BackURL"])
    cell = _size(face)[0] // cols, _size(face)[1] // rows
    assert _size(face) == (cols * cell[0], rows * cell[1])
    if entry["UniqueBack"]:
        assert _size(back) == _size(face)
    else:
        assert _size(back) == cell
    # Every card points at a cell of the sheet, never at the hidden last slot.
    assert sheet_cards and all(0 <= slot < cols * rows - 1 for slot in sheet_cards)


def test_tts_save_structure_and_sheets(run_cli, tmp_path):
    save, folder = _tts(run_cli, str(_game(tmp_path)), tmp_path / "out")
    assert {"SaveName", "ObjectStates"} <= set(save) and save["SaveName"] == "Fixture game"
    kinds = [obj["Name"] for obj in save["ObjectStates"]]
    assert kinds == ["Deck", "Card", "Custom_Board"]
    deck, lone, board = save["ObjectStates"]
    assert deck["Nickname"] == "Action cards"
    assert deck["DeckIDs"] == [c["CardID"] for c in deck["ContainedObjects"]]
    assert [c["Nickname"] for c in deck["ContainedObjects"]] == ["Dash"] * 3 + ["Rest"] * 2
    assert deck["DeckIDs"] == [100, 100, 100, 101, 101]
    slots: dict[str, set[int]] = {}
    for card in [*deck["ContainedObjects"], lone]:
        key = str(card["CardID"] // 100)
        assert key in card["CustomDeck"]
        slots.setdefault(key, set()).add(card["CardID"] % 100)
    entries = deck["CustomDeck"] | lone["CustomDeck"]
    assert sorted(entries) == sorted(slots) == ["1", "2"]
    for key, entry in entries.items():
        _check_custom_deck(entry, slots[key])
    assert not entries["1"]["UniqueBack"] and entries["2"]["UniqueBack"]  # trivia answers
    assert _local(board["CustomImage"]["ImageURL"]).is_file()
    # The hidden slot shows the deck's back.
    sheet = Image.open(_local(entries["1"]["FaceURL"])).convert("RGB")
    cols, rows = entries["1"]["NumWidth"], entries["1"]["NumHeight"]
    w, h = sheet.size[0] // cols, sheet.size[1] // rows
    hidden = sheet.crop(((cols - 1) * w, (rows - 1) * h, cols * w, rows * h))
    back = Image.open(_local(entries["1"]["BackURL"])).convert("RGB")
    assert hidden.tobytes() == back.tobytes()


def test_tts_export_is_deterministic_and_takes_a_base_url(run_cli, tmp_path):
    game = str(_game(tmp_path))
    _tts(run_cli, game, tmp_path / "a")
    _tts(run_cli, game, tmp_path / "b")
    a = tmp_path / "a" / "fixture-game" / "en" / "tts"
    b = tmp_path / "b" / "fixture-game" / "en" / "tts"
    assert _files(a) == _files(b)
    save, _ = _tts(run_cli, game, tmp_path / "c", "--base-url", "https://example.org/play set/")
    entry = save["ObjectStates"][0]["CustomDeck"]["1"]
    assert entry["FaceURL"] == "https://example.org/play%20set/fixture-game/en/tts/cards-1.png"


@pytest.mark.parametrize("game", ["tokaido", "drinking-heroes", "whisky-game"])
def test_bundled_games_reach_the_table(run_cli, tmp_path, game):
    from toolkit.content.game import bundled_games, load_game

    save, folder = _tts(run_cli, game, tmp_path / "out")
    decks = [obj for obj in save["ObjectStates"] if obj["Name"] == "Deck"]
    loaded = load_game(bundled_games()[game])
    names = [d.name["en"] for d in loaded.valid(loaded.decks)]
    names += [bank.name["en"] for bank in loaded.valid(loaded.questions)]  # trivia cards too
    assert sorted(d["Nickname"] for d in decks) == sorted(names)
    boards = [obj["Nickname"] for obj in save["ObjectStates"] if obj["Name"] == "Custom_Board"]
    assert boards == [b.name["en"] for b in loaded.valid(loaded.boards)]
    if game == "whisky-game":  # 72 bottles: a full 10 × 7 sheet and a second one
        bottles = next(d for d in decks if len(d["CustomDeck"]) == 2)
        sizes = [(e["NumWidth"], e["NumHeight"]) for e in bottles["CustomDeck"].values()]
        assert sizes == [(10, 7), (2, 2)]
    for deck in decks:
        slots: dict[str, set[int]] = {}
        for card in deck["ContainedObjects"]:
            slots.setdefault(str(card["CardID"] // 100), set()).add(card["CardID"] % 100)
        assert sorted(slots) == sorted(deck["CustomDeck"])
        for key, entry in deck["CustomDeck"].items():
            _check_custom_deck(entry, slots[key])


def test_sheet_grids():
    assert (grid_for(1).cols, grid_for(1).rows) == (2, 2)
    assert (grid_for(8).cols, grid_for(8).rows) == (5, 2)
    assert (grid_for(PER_SHEET).cols, grid_for(PER_SHEET).rows) == (10, 7)
    for n in range(1, PER_SHEET + 1):
        grid = grid_for(n)
        assert n <= grid.hidden and grid.cols <= 10 and grid.rows <= 7
    with pytest.raises(ValueError):
        grid_for(70)
    assert sheet_dpi(150, (63, 88)) == 150 and sheet_dpi(300, (63, 88)) == 300
    assert sheet_dpi(1200, (70, 120)) * 2 * 120 / 25.4 <= 4096


def test_exports_are_registered_and_bad_options_exit_2(run_cli, tmp_path):
    assert {"png", "tts"} <= set(exports())
    game = str(_game(tmp_path))
    assert run_cli("export", "png", game, "--dpi", "5", "--out", str(tmp_path)).exit_code == 2
    result = run_cli("export", "tts", game, "--base-url", "ftp://x", "--out", str(tmp_path))
    assert result.exit_code == 2
    result = run_cli("export", "png", game, "--lang", "de", "--out", str(tmp_path))
    assert result.exit_code == 2 and not (tmp_path / "fixture-game").exists()


def test_broken_content_exports_nothing(run_cli, tmp_path):
    game = _game(tmp_path)
    (game / "decks" / "cards.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    out = tmp_path / "out"
    result = run_cli("export", "tts", str(game), "--out", str(out))
    assert result.exit_code == 1 and not out.exists()
    assert "cards.yaml:2:1: Y001" in result.output


def test_a_card_removed_from_the_content_leaves_no_image_behind(run_cli, tmp_path):
    game, out = _game(tmp_path), tmp_path / "out"
    args = ["export", "png", str(game), "--lang", "en", "--dpi", "40", "--out", str(out)]
    assert run_cli(*args).exit_code == 0
    folder = out / "fixture-game" / "en" / "png"
    notes = folder / "notes.txt"
    notes.write_text("mine", encoding="utf-8")
    cards = game / "decks" / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text[: text.index("  - id: rest")], encoding="utf-8")
    assert run_cli(*args).exit_code == 0
    assert sorted(p.name for p in (folder / "cards").iterdir()) == [
        "sprint-back.png",
        "sprint-front.png",
    ]
    assert notes.read_text(encoding="utf-8") == "mine"  # not an export's file: kept
