"""`export tts`: a game on Tabletop Simulator's table, as a saved object and its images.

Tabletop Simulator takes a custom deck as sheets of at most 10 × 7 card faces plus one back
image (or a sheet of backs when each card has its own, as questions' answers do). What a hidden
card (in another player's hand) shows is, per TTS's API reference, the last slot of the face
sheet unless `BackIsHidden` is set, when it is the back: so decks here set it false and put in
that slot the deck's shared back, or for decks with unique backs (whose back is the answer) a
neutral card with the deck's name, so a hidden card never shows a face or an answer. Sheets
stay within 4096 px a side (TTS's advice) at any dpi: fewer cards a sheet, more sheets.

Files go to <out>/<game>/<lang>/tts/: `<deck>-<n>.png` face sheets, `<deck>-back.png` (or
`<deck>-backs-<n>.png`), `board….png`, and `<game>-<lang>.json`, a saved object in TTS's save
format (ObjectStates: a Deck per deck with CustomDeck, DeckIDs and ContainedObjects, a
Custom_Board per board picture). Copy the JSON into TTS's "Saves/Saved Objects" folder; images
are referenced by file:// URLs (or under `--base-url` once hosted, percent-encoded), so the
PNGs stay where they were written.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from toolkit.fileio import HeldFolder
from toolkit.journal import JournaledSet
from toolkit.render.exports import (
    Export,
    ExportOptions,
    Progress,
    Report,
    check_dpi,
    once,
    option,
    prune,
    register,
)
from toolkit.render.exports.faces import (
    DeckPages,
    PrintedDeck,
    card_label,
    check_export_cost,
    check_export_pixels,
    deck_load,
    face_images,
    face_paint,
    language_pages,
    printed_decks,
)
from toolkit.render.exports.pages import priced_pages
from toolkit.render.exports.png import board_pngs, within_pixels
from toolkit.render.raster import pixels, png_bytes
from toolkit.render.raster_weight import load_price

MAX_COLS, MAX_ROWS = 10, 7
MAX_SHEET_PX = 4096  # TTS's advice: larger textures fail to load on many graphics cards
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


def grid_for(count: int, limit: SheetGrid = SheetGrid(MAX_COLS, MAX_ROWS)) -> SheetGrid:
    """The smallest grid of at least 2 × 2 (TTS's minimum) holding `count` faces and the
    hidden slot, rows filled first up to `limit`'s columns."""
    most = limit.cols * limit.rows - 1
    if not 1 <= count <= most:
        raise ValueError(f"a sheet holds 1 to {most} faces, not {count}")
    rows = max(2, math.ceil((count + 1) / limit.cols))
    cols = max(2, math.ceil((count + 1) / rows))
    return SheetGrid(cols, rows)


def grid_limit(cell: tuple[int, int]) -> SheetGrid:
    """The largest grid of cells of `cell` px that stays within MAX_SHEET_PX a side (and
    TTS's 10 × 7); at least 2 × 2, which `sheet_dpi` keeps within the limit."""
    cols = max(2, min(MAX_COLS, MAX_SHEET_PX // cell[0]))
    rows = max(2, min(MAX_ROWS, MAX_SHEET_PX // cell[1]))
    return SheetGrid(cols, rows)


def sheet_png(faces: Iterable[Any], hidden: Any, grid: SheetGrid) -> tuple[bytes, tuple[int, int]]:
    """The faces (PIL images, at least one) in reading order and `hidden` in the last slot,
    as one PNG; (PNG, cell px). Each face is pasted as it comes, so a sheet's faces need
    not all be drawn first: the first one's size is the cell's."""
    from PIL import Image

    each = iter(faces)
    first = next(each)
    width, height = first.size
    sheet = Image.new("RGB", (grid.cols * width, grid.rows * height), (255, 255, 255))
    for index, cell in enumerate(itertools.chain([first], each)):
        if cell.size != (width, height):
            cell = cell.resize((width, height), Image.Resampling.LANCZOS)
        sheet.paste(cell, ((index % grid.cols) * width, (index // grid.cols) * height))
    last = hidden if hidden.size == (width, height) else hidden.resize((width, height))
    sheet.paste(last, ((grid.hidden % grid.cols) * width, (grid.hidden // grid.cols) * height))
    return png_bytes(sheet), (width, height)


def _sheet(
    pages: DeckPages,
    faces: list[int],
    hidden: Any,
    grid: SheetGrid,
    last: dict[tuple[str, ...], bytes],
) -> bytes:
    """`sheet_png` of those pages of the deck (`hidden` in the last slot, the same for all
    its sheets), or the sheet before it again when its pages draw the same (`last`): a deck
    of cards alike has sheets alike."""
    key = (f"{grid.cols}x{grid.rows}", *(pages.key(page) for page in faces))
    if key not in last:
        last.clear()
        last[key] = sheet_png(pages.images(faces), hidden, grid)[0]
    return last[key]


def sheet_dpi(dpi: float, card_mm: tuple[float, float]) -> float:
    """`dpi`, lowered only if even a 2 × 2 sheet of this card would exceed MAX_SHEET_PX (a
    large card at a high dpi); otherwise sheets hold fewer cards instead."""
    w_in, h_in = card_mm[0] / 25.4, card_mm[1] / 25.4
    cell = MAX_SHEET_PX // 2 - 1  # a pixel short of half, whatever rounding does
    return min(dpi, cell / w_in, cell / h_in)


def encoded_pixels(printed: PrintedDeck, dpi: float) -> int:
    """The pixels `run` draws and encodes for the deck at `dpi`, from its size: each face
    rasterised (`face_images`, and the neutral hidden card of a deck with unique backs),
    every cell of each sheet it encodes (`grid_for`: a one-card deck's sheet is 2 × 2; a
    deck with unique backs has a sheet of backs beside each), and its back image. Faces
    alike are counted each time, though drawn once."""
    from reportlab.lib.units import mm

    at = sheet_dpi(dpi, printed.size_mm)
    cell = (pixels(printed.size_mm[0] * mm, at), pixels(printed.size_mm[1] * mm, at))
    limit = grid_limit(cell)
    per_sheet, count = limit.cols * limit.rows - 1, len(printed.cards)
    cells = 0
    for start in range(0, count, per_sheet):
        grid = grid_for(min(per_sheet, count - start), limit)
        cells += grid.cols * grid.rows
    if printed.back_per_card:  # a sheet of backs beside each; the hidden card drawn
        images = face_images(printed) + 1 + 2 * cells
    else:  # the deck's one back, drawn then encoded
        images = face_images(printed) + cells + 1
    return cell[0] * cell[1] * images


def _url(path: Path, root: Path | HeldFolder, base_url: str | None) -> str:
    """The image's URL: under `base_url`, percent-encoded (a space is %20, an existing
    %XX escape is kept), else a file:// URL."""
    if base_url:
        parts = urlsplit(base_url)
        base = urlunsplit(parts._replace(path=quote(parts.path, safe=URL_SAFE)))
        rel = path.relative_to(root).as_posix()
        return base.rstrip("/") + "/" + quote(rel)
    return path.resolve().as_uri()


URL_SAFE = "/%:@!$&'()*+,;=~"  # a URL path's reserved characters and escapes stay as they are


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
    names = nicknames(printed, lang)
    for copy, index in enumerate(printed.copies()):
        key, slot = where[index]
        card = printed.cards[index]
        cards.append(
            {
                "GUID": _guid(game_id, lang, printed.id, copy),
                "Name": "Card",
                "Nickname": names[index],
                "Description": description(card, lang),
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


def nicknames(printed: PrintedDeck, lang: str) -> list[str]:
    """Each card's name in `lang`, told apart where cards of the deck share one (panorama
    sections, numbered cards): by the first number field that differs among them, with its
    rulebook heading ("Paddy (Section 2)"), else by their order ("Paddy (2)")."""
    from toolkit.render.card_reference import _field_label

    labels = [card_label(card, lang) for card in printed.cards]
    groups: dict[str, list[int]] = {}
    for index, label in enumerate(labels):
        groups.setdefault(label, []).append(index)
    out = list(labels)
    for label, indexes in groups.items():
        if len(indexes) < 2:
            continue
        cards = [printed.cards[i] for i in indexes]
        field = _telling_field(cards)
        for order, (index, card) in enumerate(zip(indexes, cards, strict=True), 1):
            if field is None:
                out[index] = f"{label} ({order})"
            else:
                heading = _field_label(printed.deck, field, lang)
                out[index] = f"{label} ({heading} {getattr(card, field)})"
    return out


def _telling_field(cards: list[Any]) -> str | None:
    """The first whole-number field, in model order, whose values tell `cards` apart."""
    for name in getattr(type(cards[0]), "model_fields", {}):
        values = [getattr(card, name, None) for card in cards]
        numbers = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
        if numbers and name != "copies" and len(set(values)) == len(values):
            return name
    return None


def description(card: Any, lang: str) -> str:
    """A card's text in `lang`, its numbers filled in (TTS shows it under the name); empty
    for a card without one (a question's back, its answer, is never described)."""
    from toolkit.render.context import localize

    text = getattr(card, "text", None)
    if not isinstance(text, dict) or not text.get(lang):
        return ""
    return str(localize(card, lang).get("text") or "").strip()


def board_object(name: str, url: str, x: float, z: float, index: int, game_id: str) -> dict:
    return {
        "GUID": _guid(game_id, "board", name, index),
        "Name": "Custom_Board",
        "Nickname": name,
        "Description": "",
        "CustomImage": {"ImageURL": url, "ImageSecondaryURL": "", "WidthScale": 0.0},
        "Transform": _transform(x, z, (1.0, 1.0), False),
    }


def hidden_card(printed: PrintedDeck, lang: str, dpi: float) -> Any:
    """A neutral card, the deck's name on a plain ground, at the size and `dpi` of its faces:
    what a hidden card shows when its back is an answer. Drawn as a PDF page, as every card
    image is, then rasterised."""
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    from toolkit.render.fonts import font_name, register
    from toolkit.render.raster import images_selected

    register()
    width, height = printed.size_mm[0] * mm, printed.size_mm[1] * mm
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(width, height), invariant=1, pageCompression=1)
    canvas.setFillColorRGB(0.93, 0.93, 0.94)
    canvas.rect(0, 0, width, height, stroke=0, fill=1)
    canvas.setStrokeColorRGB(0.55, 0.56, 0.6)
    canvas.setLineWidth(1.2)
    canvas.roundRect(3 * mm, 3 * mm, width - 6 * mm, height - 6 * mm, 3 * mm, stroke=1, fill=0)
    canvas.setFillColorRGB(0.3, 0.31, 0.35)
    name, size = printed.name(lang), 14.0
    while size > 6 and canvas.stringWidth(name, font_name("bold"), size) > width - 10 * mm:
        size -= 0.5
    canvas.setFont(font_name("bold"), size)
    canvas.drawCentredString(width / 2, height / 2 - size / 3, name)
    canvas.showPage()
    canvas.save()
    return images_selected(buffer.getvalue(), [0], dpi)[0]


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


SAVED_OBJECTS = (
    "copy each <game>-<lang>.json into Tabletop Simulator's Saved Objects folder "
    "(Windows: Documents\\My Games\\Tabletop Simulator\\Saves\\Saved Objects; macOS: "
    "~/Library/Tabletop Simulator/Saves/Saved Objects; Linux: ~/.local/share/Tabletop "
    "Simulator/Saves/Saved Objects), then Objects → Saved Objects in the game"
)


@dataclass(frozen=True)
class TtsOptions(ExportOptions):
    dpi: float = option(150.0, "Card resolution on the sheets.")
    base_url: str | None = option(
        None, "Where the images will be hosted (default: file:// URLs).", flag="--base-url"
    )
    page_dpi: float = 100.0  # board images (not an option)

    def __post_init__(self) -> None:
        url = self.base_url
        if url is not None and not url.startswith(("https://", "http://")):
            raise ValueError(f"--base-url must start with https:// or http://, not {url!r}")
        check_dpi("dpi", self.dpi)


def run(
    game: Any, out: Path | HeldFolder, opts: TtsOptions, report: Report, progress: Progress
) -> list[Path]:
    written: list[Path] = []
    seen: set[Path] = set()  # the same files, for `once`
    decks = printed_decks(game)
    total, done = (len(decks) + 1) * len(opts.langs), 0

    def drawn(dpi: float) -> int:
        return sum(encoded_pixels(printed, dpi) for printed in decks)

    loads = [deck_load(game, printed, opts.langs) for printed in decks]  # resolved once

    def painted(dpi: float) -> int:  # each face rasterised at its sheet's dpi
        faces = sum(face_paint(p, sheet_dpi(dpi, p.size_mm), game.root) for p in decks)
        pairs = zip(decks, loads, strict=True)
        return faces + sum(load_price(load, sheet_dpi(dpi, p.size_mm)) for p, load in pairs)

    check_export_pixels(drawn, opts.dpi, opts.langs)  # before any language is drawn
    check_export_cost(drawn, painted, opts.dpi, opts.langs)
    # every language's boards, made and priced before any image is drawn
    documents = priced_pages(game, opts.langs, opts.page_dpi, None, None, within_pixels)

    def emit(path: Path, data: bytes) -> None:
        once(seen, path)
        staged.add(path, data)  # the language's JournaledSet, making folders inside --out only
        written.append(path)
        seen.add(path)
        report(path)

    def step() -> None:
        nonlocal done
        done += 1
        progress(done, total)

    dpis = [sheet_dpi(opts.dpi, printed.size_mm) for printed in decks]
    for lang, made in zip(opts.langs, documents, strict=True):
        folder = out / game.id / lang / "tts"
        # the sheets and the save that names them all new or all old: a run that fails
        # half-way (a full disk, Ctrl-C) leaves no new sheet beside the old save
        every_deck = language_pages(game, decks, lang, dpis, bleed=False)  # one PDF
        with JournaledSet(out, folder) as staged, every_deck as every:
            objects: list[dict] = []
            key, x = 1, 0.0
            # drawn a sheet at a time: a deck's bitmaps held together were 600 MB
            for printed, dpi, pages in zip(decks, dpis, every, strict=True):
                shared_back = None
                if not printed.back_per_card:
                    shared_back = folder / f"{printed.id}-back.png"
                    (hidden,) = pages.images(pages.backs)
                    emit(shared_back, png_bytes(hidden))
                else:  # each back is an answer: a hidden card shows neither it nor a question
                    hidden = hidden_card(printed, lang, dpi)
                limit = grid_limit(hidden.size)
                per_sheet = limit.cols * limit.rows - 1
                sheets: list[tuple[dict[str, Any], list[int]]] = []
                last: dict[tuple[str, ...], bytes] = {}  # the deck's sheet just encoded
                for n, start in enumerate(range(0, len(printed.cards), per_sheet), 1):
                    indexes = list(range(start, min(start + per_sheet, len(printed.cards))))
                    grid = grid_for(len(indexes), limit)
                    face_path = folder / f"{printed.id}-{n}.png"
                    fronts = [pages.fronts[i] for i in indexes]
                    emit(face_path, _sheet(pages, fronts, hidden, grid, last))
                    if shared_back is None:
                        back_path = folder / f"{printed.id}-backs-{n}.png"
                        backs = [pages.backs[i] for i in indexes]
                        emit(back_path, _sheet(pages, backs, hidden, grid, last))
                    else:
                        back_path = shared_back
                    entry = {
                        "FaceURL": _url(face_path, out, opts.base_url),
                        "BackURL": _url(back_path, out, opts.base_url),
                        "NumWidth": grid.cols,
                        "NumHeight": grid.rows,
                        "BackIsHidden": False,  # hidden cards show the face sheet's last slot
                        "UniqueBack": shared_back is None,
                        "Type": 0,
                    }
                    sheets.append((entry, indexes))
                objects.append(deck_object(printed, lang, sheets, key, x, game.id))
                key += len(sheets)
                x += printed.size_mm[0] / POKER_MM[0] * 2.5 + 1.0
                step()
            boards = board_pngs(game, lang, opts.page_dpi, False, made.boards)
            for index, (stem, title, image) in enumerate(boards):
                path = folder / f"{stem}.png"
                emit(path, image)
                url = _url(path, out, opts.base_url)
                objects.append(board_object(title, url, x / 2, 12.0 + 20.0 * index, index, game.id))
            step()
            title = game.manifest.title.get(lang, "") or game.id
            emit(folder / f"{game.id}-{lang}.json", save_file(title, objects).encode())
        prune(folder, written, out)
    return written


TTS = register(
    Export(
        "tts",
        "Tabletop Simulator: deck sheets (10 × 7 at most), board images, a saved-object JSON.",
        run,
        TtsOptions,
        "Tabletop Simulator: deck sheets (at most 10 × 7, last slot the hidden face), board "
        "images and a saved-object JSON to copy into TTS's Saves/Saved Objects folder.",
        SAVED_OBJECTS,
    )
)
