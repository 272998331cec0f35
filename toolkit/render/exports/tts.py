"""`export tts`: a game on Tabletop Simulator's table, as a saved object and its images.

Tabletop Simulator takes a custom deck as sheets of at most 10 × 7 card faces whose last slot
is the image shown for a hidden card, plus one back image (or a sheet of backs when each card
has its own, as trivia answers do). Files go to <out>/<game>/<lang>/tts/: `<deck>-<n>.png`
face sheets, `<deck>-back.png` (or `<deck>-backs-<n>.png`), `board….png`, and
`<game>-<lang>.json`, a saved object in TTS's save format (ObjectStates: a Deck per deck with
CustomDeck, DeckIDs and ContainedObjects, a Custom_Board per board picture). Copy the JSON
into TTS's "Saves/Saved Objects" folder; images are referenced by file:// URLs (or under
`--base-url` once hosted), so the PNGs stay where they were written.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from toolkit.fileio import atomic_write_bytes, atomic_write_text, output_folder
from toolkit.render.exports import Export, ExportOptions, Progress, Report, prune, register
from toolkit.render.exports.faces import PrintedDeck, card_label, deck_images, printed_decks
from toolkit.render.exports.png import board_pngs
from toolkit.render.raster import png_bytes

MAX_COLS, MAX_ROWS = 10, 7
MAX_SHEET_PX = 8192  # larger textures fail to load on many graphics cards
PER_SHEET = MAX_COLS * MAX_ROWS - 1  # the last slot holds the hidden face
POKER_MM = (63.5, 88.9)  # the size of a TTS card at scale 1


@dataclass(frozen=True)
class SheetGrid:
    cols: int
    rows: int

    @property
    def hidden(self) -> int:
        """Index of the slot TTS shows for a hidden card: the last one."""
        return self.cols * self.rows - 1


def grid_for(count: int) -> SheetGrid:
    """The smallest grid of at least 2 × 2 (TTS's minimum) holding `count` faces and the
    hidden slot, rows filled first up to 10 columns."""
    if not 1 <= count <= PER_SHEET:
        raise ValueError(f"a sheet holds 1 to {PER_SHEET} faces, not {count}")
    rows = max(2, math.ceil((count + 1) / MAX_COLS))
    cols = max(2, math.ceil((count + 1) / rows))
    return SheetGrid(cols, rows)


def sheet_png(faces: list[Any], hidden: Any, grid: SheetGrid) -> tuple[bytes, tuple[int, int]]:
    """The faces (PIL images) in reading order and `hidden` in the last slot, as one PNG;
    (PNG, cell px)."""
    from PIL import Image

    width, height = faces[0].size
    sheet = Image.new("RGB", (grid.cols * width, grid.rows * height), (255, 255, 255))
    for index, cell in enumerate(faces):
        if cell.size != (width, height):
            cell = cell.resize((width, height), Image.Resampling.LANCZOS)
        sheet.paste(cell, ((index % grid.cols) * width, (index // grid.cols) * height))
    last = hidden if hidden.size == (width, height) else hidden.resize((width, height))
    sheet.paste(last, ((grid.hidden % grid.cols) * width, (grid.hidden // grid.cols) * height))
    out = io.BytesIO()
    sheet.save(out, format="PNG", optimize=False)
    return out.getvalue(), (width, height)


def sheet_dpi(dpi: float, card_mm: tuple[float, float]) -> float:
    """`dpi`, lowered if a full 10 × 7 sheet of this card would exceed MAX_SHEET_PX."""
    w_in, h_in = card_mm[0] / 25.4, card_mm[1] / 25.4
    return min(dpi, MAX_SHEET_PX / (MAX_COLS * w_in), MAX_SHEET_PX / (MAX_ROWS * h_in))


def _url(path: Path, root: Path, base_url: str | None) -> str:
    if base_url:
        rel = path.relative_to(root).as_posix()
        return base_url.rstrip("/") + "/" + quote(rel)
    return path.resolve().as_uri()


def _guid(*parts: object) -> str:
    """A stable 6-hex-digit GUID (TTS renews any that clash on load)."""
    return hashlib.sha1("/".join(map(str, parts)).encode(), usedforsecurity=False).hexdigest()[:6]


def _transform(x: float, z: float, scale: tuple[float, float], face_down: bool) -> dict:
    return {
        "posX": round(x, 3),
        "posY": 1.0,
        "posZ": round(z, 3),
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0 if face_down else 0.0,
        "scaleX": round(scale[0], 4),
        "scaleY": 1.0,
        "scaleZ": round(scale[1], 4),
    }


def deck_object(
    printed: PrintedDeck,
    lang: str,
    sheets: list[tuple[dict[str, Any], list[int]]],
    first_key: int,
    x: float,
    game_id: str,
) -> dict[str, Any]:
    """A TTS Deck (or a lone Card) for one deck: `sheets` are (CustomDeck entry, indexes of
    `printed.cards` on that sheet); every physical copy is a contained Card."""
    w, h = printed.size_mm
    scale = (w / POKER_MM[0], h / POKER_MM[1])
    where: dict[int, tuple[int, int]] = {}  # card index → (deck key, slot)
    custom: dict[str, Any] = {}
    for offset, (entry, indexes) in enumerate(sheets):
        key = first_key + offset
        custom[str(key)] = entry
        for slot, index in enumerate(indexes):
            where[index] = (key, slot)
    cards = []
    for copy, index in enumerate(printed.copies()):
        key, slot = where[index]
        card = printed.cards[index]
        cards.append(
            {
                "GUID": _guid(game_id, lang, printed.id, copy),
                "Name": "Card",
                "Nickname": card_label(card, lang),
                "Description": "",
                "CardID": key * 100 + slot,
                "CustomDeck": {str(key): custom[str(key)]},
                "Transform": _transform(x, 0.0, scale, True),
            }
        )
    if len(cards) == 1:
        return cards[0]
    return {
        "GUID": _guid(game_id, lang, printed.id),
        "Name": "Deck",
        "Nickname": printed.name(lang),
        "Description": "",
        "DeckIDs": [card["CardID"] for card in cards],
        "CustomDeck": custom,
        "ContainedObjects": cards,
        "Transform": _transform(x, 0.0, scale, True),
    }


def board_object(name: str, url: str, x: float, z: float, index: int, game_id: str) -> dict:
    return {
        "GUID": _guid(game_id, "board", name, index),
        "Name": "Custom_Board",
        "Nickname": name,
        "Description": "",
        "CustomImage": {"ImageURL": url, "ImageSecondaryURL": "", "WidthScale": 0.0},
        "Transform": _transform(x, z, (1.0, 1.0), False),
    }


def save_file(name: str, objects: list[dict]) -> str:
    """A saved-object file as TTS writes one (its top-level keys, then ObjectStates)."""
    save = {
        "SaveName": name,
        "GameMode": "",
        "Date": "",
        "VersionNumber": "",
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": objects,
        "TabStates": {},
    }
    return json.dumps(save, indent=2, ensure_ascii=False) + "\n"


def run(
    game: Any, out: Path, opts: ExportOptions, report: Report, progress: Progress
) -> list[Path]:
    written: list[Path] = []
    decks = printed_decks(game)
    total, done = (len(decks) + 1) * len(opts.langs), 0

    def emit(path: Path, data: bytes) -> None:
        output_folder(out, *path.relative_to(out).parent.parts)  # folders inside --out only
        atomic_write_bytes(path, data, inside=out)
        written.append(path)
        report(path)

    def step() -> None:
        nonlocal done
        done += 1
        progress(done, total)

    for lang in opts.langs:
        folder = out / game.id / lang / "tts"
        objects: list[dict] = []
        key, x = 1, 0.0
        for printed in decks:
            dpi = sheet_dpi(opts.dpi, printed.size_mm)
            images = deck_images(game, printed, lang, dpi, bleed=False, encode=False)
            shared_back = None
            if not printed.trivia:
                shared_back = folder / f"{printed.id}-back.png"
                emit(shared_back, png_bytes(images.backs[0]))
            sheets: list[tuple[dict[str, Any], list[int]]] = []
            for n, start in enumerate(range(0, len(printed.cards), PER_SHEET), 1):
                indexes = list(range(start, min(start + PER_SHEET, len(printed.cards))))
                grid = grid_for(len(indexes))
                faces = [images.fronts[i] for i in indexes]
                hidden = images.backs[0]
                face_path = folder / f"{printed.id}-{n}.png"
                emit(face_path, sheet_png(faces, hidden, grid)[0])
                if shared_back is None:
                    back_path = folder / f"{printed.id}-backs-{n}.png"
                    backs = [images.backs[i] for i in indexes]
                    emit(back_path, sheet_png(backs, hidden, grid)[0])
                else:
                    back_path = shared_back
                entry = {
                    "FaceURL": _url(face_path, out, opts.base_url),
                    "BackURL": _url(back_path, out, opts.base_url),
                    "NumWidth": grid.cols,
                    "NumHeight": grid.rows,
                    "BackIsHidden": True,
                    "UniqueBack": shared_back is None,
                    "Type": 0,
                }
                sheets.append((entry, indexes))
            objects.append(deck_object(printed, lang, sheets, key, x, game.id))
            key += len(sheets)
            x += printed.size_mm[0] / POKER_MM[0] * 2.5 + 1.0
            step()
        boards = board_pngs(game, lang, opts.page_dpi, False)
        for index, (stem, title, image) in enumerate(boards):
            path = folder / f"{stem}.png"
            emit(path, image)
            url = _url(path, out, opts.base_url)
            objects.append(board_object(title, url, x / 2, 12.0 + 20.0 * index, index, game.id))
        step()
        title = game.manifest.title.get(lang, "") or game.id
        name = f"{game.id}-{lang}.json"
        output_folder(out, *(folder / name).relative_to(out).parent.parts)
        atomic_write_text(folder / name, save_file(title, objects), inside=out)
        written.append(folder / name)
        report(folder / name)
        prune(folder, written)
    return written


TTS = register(
    Export(
        "tts",
        "Tabletop Simulator: deck sheets (10 × 7 at most), board images, a saved-object JSON.",
        run,
    )
)
