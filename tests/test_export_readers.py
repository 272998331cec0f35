"""Exports as their readers take them: PNGs that print services and image editors read at the
asked dpi and size (Pillow), and a Tabletop Simulator save read by TTS's rules for the hidden
image (its API reference: `back_is_hidden` makes the back the hidden image, else it is the
last slot of the face sheet), where no hidden card shows a face or an answer."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image

from tests.conftest import FIXTURES
from toolkit.content.models.deck import NAMED_SIZES_MM
from toolkit.render.exports.tts import MAX_SHEET_PX, grid_limit, sheet_dpi
from toolkit.render.raster import pixels

SIZES = ("poker", "mini", "tarot")


def _game(tmp_path: Path, questions: int = 1) -> Path:
    """The fixture game with its deck in poker, mini and tarot sizes, and `questions`
    questions in its bank (each with its own right answer, so its own back)."""
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    deck = (game / "decks" / "cards.yaml").read_text(encoding="utf-8")
    for size in SIZES[1:]:
        text = deck.replace("id: cards", f"id: cards-{size}").replace(
            "size: poker", f"size: {size}"
        )
        text = text.replace("- id: sprint", f"- id: sprint-{size}")
        text = text.replace("- id: rest", f"- id: rest-{size}")
        (game / "decks" / f"cards-{size}.yaml").write_text(text, encoding="utf-8")
    manifest = game / "game.yaml"
    extra = "".join(f"    - decks/cards-{size}.yaml\n" for size in SIZES[1:])
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(
        text.replace("    - decks/cards.yaml\n", "    - decks/cards.yaml\n" + extra)
    )
    bank = game / "questions" / "bank.yaml"
    text = bank.read_text(encoding="utf-8")
    head, first = text.split("  - id: q1\n")
    more = []
    for n, right in zip(range(2, questions + 1), "acdacd", strict=False):
        item = first.replace("right: b", f"right: {right}").replace("[a, b]", f"[{right}, b]")
        for lang in ("fr", "es", "en"):
            item = item.replace(f"      {lang}: ", f"      {lang}: ({n}) ", 1)
        more.append(f"  - id: q{n}\n" + item)
    bank.write_text(head + "  - id: q1\n" + first + "".join(more), encoding="utf-8")
    return game


@pytest.mark.parametrize("bleed", [False, True])
def test_png_sizes_follow_the_formula_and_carry_the_dpi(run_cli, tmp_path, bleed):
    game, out = _game(tmp_path), tmp_path / "out"
    args = ["export", "png", str(game), "--lang", "en", "--dpi", "300", "--page-dpi", "30"]
    result = run_cli(*args, *(["--bleed"] if bleed else []), "--out", str(out))
    assert result.exit_code == 0, result.output
    folder = out / "fixture-game" / "en" / "png"
    extra = 6.0 if bleed else 0.0  # 3 mm of bleed a side
    for size in SIZES:
        deck = "cards" if size == "poker" else f"cards-{size}"
        w, h = NAMED_SIZES_MM[size]
        for side in ("front", "back"):
            card = "sprint" if size == "poker" else f"sprint-{size}"
            image = Image.open(folder / deck / f"{card}-{side}.png")
            expected = (round((w + extra) / 25.4 * 300), round((h + extra) / 25.4 * 300))
            assert image.size == expected, (size, side)
            assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    assert Image.open(folder / "board.png").info["dpi"] == pytest.approx((30, 30), abs=0.01)


def test_pixels_match_what_print_services_compute():
    mm = 72 / 25.4
    assert pixels(63 * mm, 300) == 744 and pixels(94 * mm, 300) == 1110
    assert pixels(88 * mm, 300) == 1039 and pixels(69 * mm, 300) == 815


def _read(url: str) -> Image.Image:
    parsed = urlparse(url)
    assert parsed.scheme == "file"
    return Image.open(Path(unquote(parsed.path))).convert("RGB")


def _cell(sheet: Image.Image, entry: dict, slot: int) -> bytes:
    cols, rows = entry["NumWidth"], entry["NumHeight"]
    w, h = sheet.size[0] // cols, sheet.size[1] // rows
    x, y = slot % cols, slot // cols
    return sheet.crop((x * w, y * h, (x + 1) * w, (y + 1) * h)).tobytes()


def _hidden(entry: dict, slot: int) -> bytes:
    """What TTS shows for a hidden card of `entry` at `slot`: with BackIsHidden the back (its
    own cell of the back sheet if UniqueBack), else the last slot of the face sheet."""
    if entry.get("BackIsHidden", False):
        back = _read(entry["BackURL"])
        return _cell(back, entry, slot) if entry.get("UniqueBack") else back.tobytes()
    last = entry["NumWidth"] * entry["NumHeight"] - 1
    return _cell(_read(entry["FaceURL"]), entry, last)


def _cards(obj: dict) -> list[dict]:
    return obj.get("ContainedObjects") or [obj]


def test_no_hidden_card_shows_a_face_or_an_answer(run_cli, tmp_path):
    game, out = _game(tmp_path, questions=5), tmp_path / "out"
    args = ["export", "tts", str(game), "--lang", "en", "--dpi", "40", "--out", str(out)]
    result = run_cli(*args)
    assert result.exit_code == 0, result.output
    save = json.loads((out / "fixture-game/en/tts/fixture-game-en.json").read_text("utf-8"))
    decks = [obj for obj in save["ObjectStates"] if obj["Name"] in ("Deck", "Card")]
    assert len(decks) == 4
    unique = 0
    for deck in decks:
        seen: set[bytes] = set()  # every face and every unique back of the deck
        for card in _cards(deck):
            key, slot = divmod(card["CardID"], 100)
            entry = card["CustomDeck"][str(key)]
            seen.add(_cell(_read(entry["FaceURL"]), entry, slot))
            if entry["UniqueBack"]:
                seen.add(_cell(_read(entry["BackURL"]), entry, slot))
        for card in _cards(deck):
            key, slot = divmod(card["CardID"], 100)
            entry = card["CustomDeck"][str(key)]
            unique += entry["UniqueBack"]
            assert _hidden(entry, slot) not in seen, (deck["Nickname"], card["Nickname"])
    assert unique == 5  # the five questions have their answers on their backs


def test_sheets_stay_within_4096_px_at_any_dpi():
    for w_mm, h_mm in NAMED_SIZES_MM.values():
        for dpi in (30, 150, 300, 600, 1200):
            lowered = sheet_dpi(dpi, (w_mm, h_mm))
            cell = (pixels(w_mm * 72 / 25.4, lowered), pixels(h_mm * 72 / 25.4, lowered))
            grid = grid_limit(cell)
            assert grid.cols * cell[0] <= MAX_SHEET_PX and grid.rows * cell[1] <= MAX_SHEET_PX
            assert grid.cols >= 2 and grid.rows >= 2
            asked = (pixels(w_mm * 72 / 25.4, dpi), pixels(h_mm * 72 / 25.4, dpi))
            if 2 * max(asked) < MAX_SHEET_PX - 2:
                assert lowered == dpi  # more sheets, not fewer pixels


def test_tts_at_300_dpi_makes_more_sheets_within_4096_px(run_cli, tmp_path):
    game, out = _game(tmp_path), tmp_path / "out"
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    head, cards = text.split("cards:\n")
    rest = cards[cards.index("  - id: rest") :]
    many = "".join(rest.replace("id: rest", f"id: rest-{n}") for n in range(16))
    deck.write_text(head + "cards:\n" + cards + many, encoding="utf-8")
    for other in SIZES[1:]:
        (game / "decks" / f"cards-{other}.yaml").unlink()
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text("".join(f for f in text.splitlines(True) if "cards-" not in f))
    args = ["export", "tts", str(game), "--lang", "en", "--dpi", "300", "--out", str(out)]
    assert run_cli(*args).exit_code == 0
    folder = out / "fixture-game/en/tts"
    for sheet in folder.glob("*.png"):
        assert max(Image.open(sheet).size) <= MAX_SHEET_PX, sheet.name
    save = json.loads((folder / "fixture-game-en.json").read_text("utf-8"))
    deck_obj = save["ObjectStates"][0]
    assert len(deck_obj["CustomDeck"]) == 2  # 18 cards: 14 and 4 on two sheets at 300 dpi
    cell = Image.open(folder / "cards-back.png").size
    assert cell == (744, 1039)  # the asked dpi, not a lowered one


def test_nicknames_are_distinct_and_descriptions_come_from_the_text(run_cli, tmp_path):
    game, out = _game(tmp_path), tmp_path / "out"
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    twin = text[text.index("  - id: sprint") : text.index("  - id: rest")]
    twin = twin.replace("id: sprint", "id: sprint-long").replace("steps: 3", "steps: 5")
    deck.write_text(text + twin, encoding="utf-8")
    args = ["export", "tts", str(game), "--lang", "en", "--dpi", "30", "--out", str(out)]
    args += ["--base-url", "https://example.org/my games/é"]
    assert run_cli(*args).exit_code == 0
    save = json.loads((out / "fixture-game/en/tts/fixture-game-en.json").read_text("utf-8"))
    deck_obj = save["ObjectStates"][0]
    names = {c["Nickname"]: c["Description"] for c in deck_obj["ContainedObjects"]}
    assert names == {"Dash (1)": "Move 3 spaces.", "Rest": "", "Dash (2)": "Move 5 spaces."}
    url = deck_obj["CustomDeck"]["1"]["FaceURL"]
    assert url == "https://example.org/my%20games/%C3%A9/fixture-game/en/tts/cards-1.png"
