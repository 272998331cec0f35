"""The dependency map: what the preview can draw, and which inputs each drawing reads (and
from which files: `build` keeps each file it writes by them, toolkit.render.build_reads).

A *target* is one thing drawn on its own: a card face in one language, a deck's shared back,
a board or a rulebook in one language. Each names its *inputs* (the manifest, a deck's own
fields, one card, a layout file, the glossary, a rulebook source, the icons); a snapshot
fingerprints every input of a loaded game. When a file is saved, the targets to draw again
are exactly those with an input whose fingerprint changed: one card's text → that card in
each language; a layout → the decks that use it; the glossary → the layouts, boards and
rulebooks that print it. Saving a file unchanged redraws nothing.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from toolkit.content import assets
from toolkit.content.game import Game, repo_root
from toolkit.content.models.deck import size_mm
from toolkit.fileio import InputError, files_under, read_bounded, read_text, real_path
from toolkit.render.artifacts.questions import question_deck
from toolkit.render.layout_names import DEFAULT_BACK, DEFAULT_FRONT

ICON_SUFFIXES = (".svg", ".png")


@dataclass(frozen=True)
class DeckSpec:
    """A deck as the preview draws it: its layouts, trim size and whether backs differ."""

    deck: Any
    file: str  # the deck's file as diagnostics name it
    front: str
    back: str
    card_mm: tuple[float, float]
    per_card_back: bool  # each back shows its own card (a question bank's answers)
    paths: tuple[Path, ...] = ()  # the files the deck is read from (a sheet and its keys)

    @property
    def id(self) -> str:
        return str(self.deck.id)

    @property
    def input(self) -> str:
        """The name of the deck's own fields among the snapshot's inputs."""
        return f"deck:{self.file}:{self.id}"


def source_files(loaded: Any) -> tuple[Path, ...]:
    """The files a loaded content file was read from: the file, and a sheet's keys file."""
    from toolkit.content.sheets import is_sheet, keys_file

    path = loaded.doc.path if loaded.doc is not None else None
    if path is None:
        return ()
    return (path, keys_file(path)) if is_sheet(path) else (path,)


def deck_specs(game: Game) -> list[DeckSpec]:
    """Every deck and question bank, in the order `build` prints them."""
    specs = []
    printed = [(loaded, loaded.model) for loaded in game.decks]
    printed += [(loaded, loaded.model and question_deck(loaded.model)) for loaded in game.questions]
    for loaded, deck in printed:
        if deck is None:
            continue
        front, back = deck.layout or DEFAULT_FRONT, deck.back or DEFAULT_BACK
        size = size_mm(deck.size)
        paths = source_files(loaded)
        specs.append(DeckSpec(deck, loaded.rel, front, back, size, deck.back_per_card, paths))
    return specs


@dataclass(frozen=True)
class Target:
    """One drawing. `key` names it in URLs and the render cache (never a file path)."""

    key: str
    kind: str  # "face", "board" or "rulebook"
    lang: str
    inputs: tuple[str, ...]
    deck: str | None = None
    card: str | None = None  # None for a deck's shared back
    side: str = "front"
    board: str | None = None


@dataclass
class Snapshot:
    """A loaded game's targets in page order, the fingerprint of every input, and the files
    each input is read from (what `build` keys each file it keeps by)."""

    targets: dict[str, Target] = field(default_factory=dict)
    fingerprints: dict[str, str] = field(default_factory=dict)
    files: dict[str, tuple[Path, ...]] = field(default_factory=dict)

    def changed_since(self, before: Snapshot) -> list[Target]:
        """Targets to draw again: new ones, and those with an input that changed."""
        moved = {
            name
            for name in self.fingerprints.keys() | before.fingerprints.keys()
            if self.fingerprints.get(name) != before.fingerprints.get(name)
        }
        return [
            target
            for key, target in self.targets.items()
            if key not in before.targets or moved.intersection(target.inputs)
        ]


def _digest(data: bytes | str) -> str:
    # surrogateescape: the paths fingerprinted may be named in bytes that are no UTF-8
    raw = data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data
    return hashlib.blake2b(raw, digest_size=12).hexdigest()


def _no_digest(value: Any, **kw: Any) -> str:
    return ""


def _model_digest(value: Any, **kw: Any) -> str:
    return _digest(value.model_dump_json(**kw)) if hasattr(value, "model_dump_json") else ""


MAX_READ_BYTES = 8 * 1024 * 1024
"""Beyond every input's own limit (a layout 4 MB, an SVG or a rulebook 2 MB): a larger file
is refused when drawn, so its size and time stand for it (a 3 GB sparse icon was read whole)."""


def _file(path: Path) -> str:
    """The fingerprint of one input file; never blocks on a FIFO or reads without bound."""
    try:
        data = read_bounded(path, MAX_READ_BYTES)
        if len(data) > MAX_READ_BYTES:
            info = path.stat()
            return f"large:{info.st_size}:{info.st_mtime_ns}"
    except OSError:
        return "missing"
    return _digest(data)


def builtin_layouts() -> Path:
    """The toolkit's own layouts folder (a game's `layouts/` is inside the watched game)."""
    return repo_root().joinpath(*assets.LAYOUTS.builtin or ())


def icon_files(game: Game) -> list[Path]:
    """The game's own icon files (`icons/` in its folder), sorted: none that leads outside
    the game folder (nor any when `icons/` does), as the icons themselves are read."""
    folder = game.root / "icons"
    if not folder.is_dir() or assets.folder_outside(assets.ICONS, game.root):
        return []
    root = real_path(game.root)
    names = sorted(p for p in files_under(folder) if p.suffix.lower() in ICON_SUFFIXES)
    # no more than the icons read (assets.MAX_FILES): each one listed is read here
    inside = (p for p in names if real_path(p).is_relative_to(root))
    return list(islice(inside, assets.MAX_FILES))


def reads(path: Path, name: str) -> bool:
    """Whether a layout's templates use `name` (`glossary.meal`, `card.name`); comments
    do not count. Unreadable: assume it does."""
    try:
        lines = read_text(path, MAX_READ_BYTES).splitlines()
    except InputError:
        return True
    text = "\n".join(line for line in lines if not line.lstrip().startswith("#"))
    return re.search(rf"\b{re.escape(name)}\b\s*[.\[]", text) is not None


def card_keys(cards: Iterable[Any]) -> Iterator[tuple[str, Any]]:
    """(key part, card) for each card: its id, made unique if a deck repeats one."""
    seen: dict[str, int] = {}
    for card in cards:
        ident = str(getattr(card, "id", "card"))
        seen[ident] = seen.get(ident, 0) + 1
        yield (ident if seen[ident] == 1 else f"{ident}~{seen[ident]}"), card


def snapshot(game: Game, fingerprint: bool = True) -> Snapshot:
    """Targets and input fingerprints of `game` (every model in it must be valid or None);
    without `fingerprint`, the models' fingerprints are left empty (what `build` asks: the
    targets, their inputs and the files they are read from)."""
    snap = Snapshot()
    _model = _model_digest if fingerprint else _no_digest
    manifest = game.manifest
    if manifest is None:
        return snap
    fp, files = snap.fingerprints, snap.files
    fp["manifest"] = _model(manifest)
    files["manifest"] = source_files(game.manifest_file)
    fp["glossary"] = _model(game.glossary.model) if game.glossary else ""
    files["glossary"] = source_files(game.glossary) if game.glossary else ()
    icons = icon_files(game)
    fp["icons"] = _digest("".join(f"{p}:{_file(p)}" for p in icons))
    files["icons"] = tuple(icons)
    langs = list(manifest.languages)
    specs = deck_specs(game)
    glossary_layouts: set[str] = set()  # layouts that print glossary terms
    card_backs: set[str] = set()  # back layouts that print something of the card
    names = dict.fromkeys(name for spec in specs for name in (spec.front, spec.back))
    for name in names:  # each layout once, not once a deck (1,000 decks name a few)
        found = assets.expected(assets.LAYOUTS, name, game.root)
        if found.outside or found.unread:  # never read; validate reports it
            fp[f"layout:{name}"] = "outside"
            continue
        fp[f"layout:{name}"] = _file(found.path)
        files[f"layout:{name}"] = (found.path,)
        if reads(found.path, "glossary"):
            glossary_layouts.add(name)
        if reads(found.path, "card"):
            card_backs.add(name)
    every_deck: list[str] = []
    for spec in specs:
        deck_input = spec.input
        fp[deck_input] = _model(spec.deck, exclude={"cards"})
        files[deck_input] = spec.paths
        every_deck.append(deck_input)
        common = ("manifest", "icons", deck_input)

        def face_inputs(
            layout: str, card_input: str, common: tuple[str, ...] = common
        ) -> tuple[str, ...]:
            extra = ("glossary",) if layout in glossary_layouts else ()
            return (*common, f"layout:{layout}", card_input, *extra)

        cards = list(card_keys(spec.deck.cards))
        for part, card in cards:
            card_input = f"card:{spec.file}:{spec.id}:{part}"
            fp[card_input] = _model(card)
            files[card_input] = spec.paths
            every_deck.append(card_input)
        for lang in langs:
            for part, _card in cards:
                card_input = f"card:{spec.file}:{spec.id}:{part}"
                key = f"card/{spec.id}/{part}/{lang}"
                snap.targets[f"{key}/front"] = Target(
                    f"{key}/front", "face", lang, face_inputs(spec.front, card_input), spec.id, part
                )
                if spec.per_card_back:
                    snap.targets[f"{key}/back"] = Target(
                        f"{key}/back",
                        "face",
                        lang,
                        face_inputs(spec.back, card_input),
                        spec.id,
                        part,
                        "back",
                    )
            if cards and not spec.per_card_back:
                # The shared back is drawn from the deck's first card, as `build` draws it;
                # it depends on that card only if its layout prints some of it.
                first = f"card:{spec.file}:{spec.id}:{cards[0][0]}"
                inputs = face_inputs(spec.back, first if spec.back in card_backs else "")
                key = f"back/{spec.id}/{lang}"
                snap.targets[key] = Target(key, "face", lang, inputs, spec.id, None, "back")
    boards: list[str] = []
    for loaded in game.boards:
        if loaded.model is None:
            continue
        board_input = f"board:{loaded.rel}"
        fp[board_input] = _model(loaded.model)
        files[board_input] = source_files(loaded)
        boards.append(board_input)
        for lang in langs:
            key = f"board/{loaded.model.id}/{lang}"
            inputs = ("manifest", "glossary", "icons", board_input)
            snap.targets[key] = Target(key, "board", lang, inputs, board=loaded.model.id)
    for lang, path in game.rulebook.items():
        source = f"rulebook:{lang}"
        fp[source] = _file(path)
        files[source] = (path,)
        # A rulebook prints facts from all the content: counts, a card reference, terms.
        inputs = ("manifest", "glossary", "icons", source, *every_deck, *boards)
        key = f"rulebook/{lang}"
        snap.targets[key] = Target(key, "rulebook", lang, inputs)
    return snap
