"""A live preview session: the game as shown, its diagnostics, and the work a save causes.

Every image is drawn when the page asks for it (`page`: the images it shows, with a few
of their neighbours), never all at start: a game of 6,000 cards in 3 languages drew its
18,003 faces in the background, ~67 s of CPU (probe 43 P1), a rulebook of 267 pages
7.6 s and 10 boards in 3 languages 12.9 s (probe 46 M3, M5). A card face is one image; a
board's or rulebook's PDF is made once for its inputs and its pages rasterised one by one
as they are asked for. Two threads work besides the requests. The worker reacts to saves:
it reloads the game, draws again the faces whose inputs changed (see `deps`) that the
page asked for last, marks the other drawn images stale (drawn again when asked for) and
checks the game. The document thread draws again the changed board and rulebook pages the
page asked for last, once saves pause, so a long rulebook never holds up the next card. A
file that does not load (YAML saved half-way, a schema error) keeps its last good models,
so its images stay on the page beside the diagnostic that says what is wrong.
"""

from __future__ import annotations

import dataclasses
import json
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.content.game import Game, LoadedFile, display_path, load_game
from toolkit.content.parse_units import Parses
from toolkit.diagnostics import Diagnostic
from toolkit.preview.cache import RenderCache, page_key
from toolkit.preview.draw import (
    DrawError,
    Refused,
    Result,
    document_pages,
    document_pdf,
    draw_targets,
    page_sizes,
)
from toolkit.preview.drawers import Drawers
from toolkit.preview.heap import give_back
from toolkit.preview.page import page_state
from toolkit.preview.store import ImageStore, open_store
from toolkit.render.deps import Snapshot, Target, builtin_layouts, snapshot

if TYPE_CHECKING:
    from toolkit.content.validate_cache import FindingsCache, Framed
    from toolkit.render.raster_weight import FaceLoad

Listener = Callable[[dict[str, Any]], None]


def forget_layouts() -> None:
    """Drop every cache that holds a parsed layout, so a saved layout is read again."""
    from toolkit.render import icons, layout

    icons.icon_set.cache_clear()  # a saved SVG of the game's icons/ is read again too
    layout.clear_layouts()  # what was worked out for a layout (its P002 findings) goes too


def keep_good(fresh: Game, last: Game | None) -> Game:
    """`fresh` with each file that failed to load replaced by its last good version (the
    whole last game when the manifest itself does not load)."""
    if last is None:
        return fresh
    if fresh.manifest is None:
        return last
    old = {f.rel: f for f in last.files()}

    def keep(group: list[LoadedFile]) -> list[LoadedFile]:
        out: list[LoadedFile] = []
        for loaded in group:
            before = old.get(loaded.rel)
            if loaded.model is None and before is not None and before.model is not None:
                out.append(before)  # keep the last good version of a file that broke
            else:
                out.append(loaded)
        return out

    glossary = keep([fresh.glossary])[0] if fresh.glossary else None
    return dataclasses.replace(
        fresh,
        decks=keep(fresh.decks),
        boards=keep(fresh.boards),
        questions=keep(fresh.questions),
        glossary=glossary,
    )


CHECK = "check"  # a queued job that is not a drawing: the game's checks
FINDINGS_OPTIONS = ("select", "ignore")  # `playset validate`'s own entry: no rule chosen
DOCUMENT_PAUSE = 2.0  # seconds without a save before boards and rulebooks are redrawn
PAGE_QUIET = 1.0  # seconds without an image request: the page has what it asked for
NO_PAGE = 3.0  # seconds after `load` with no image asked for: no page is coming yet
SAVE_FACES = 60  # a save draws this many faces of a deck and language at once (`_siblings`)
NEIGHBOURS = 60  # a face asked for is drawn with its undrawn neighbours, this many in all
# The same for boards (all of a language: ~0.6 s each) and a rulebook's pages (~20 ms
# each, once its PDF is made): what a screen shows of them, and a little more.
DOCUMENT_NEIGHBOURS = {"board": 2, "rulebook": 12}
SAVE_PAGES = {"board": 2, "rulebook": 12}  # drawn again after a save, of a language
STOP_SECONDS = 1.0  # a stopping preview waits this long for a drawing to end (see `stop`)


def _now_and_later(faces: list[Target], asked: dict[str, int]) -> tuple[list[Target], list[Target]]:
    """Of the drawn faces a save changed, those it draws before it returns and those left
    stale (drawn again when the page asks for them): at most SAVE_FACES of each deck and
    language, the ones the page asked for last first (what it shows), then in page order.
    A layout save changes every face that prints it: drawing them all at once was ~15 s
    on 3,003 faces of long texts (probe 42 H2), and drawing them all in the background
    after it is as much again, for faces no one may look at (probe 43 P1)."""
    keys = [face.key for face in faces]
    chosen = set(_asked_last(keys, asked, lambda i: (faces[i].lang, faces[i].deck), SAVE_FACES))
    now = [face for i, face in enumerate(faces) if i in chosen]
    later = [face for i, face in enumerate(faces) if i not in chosen]
    return now, later


def _asked_last(
    keys: list[str], asked: dict[str, int], group: Callable[[int], object], most: int
) -> list[int]:
    """The indexes of `keys` a save draws again: at most `most` of each group, the ones
    the page asked for last first, then in page order."""
    ranked = sorted(range(len(keys)), key=lambda i: (-asked.get(keys[i], 0), i))
    chosen: list[int] = []
    counts: dict[object, int] = {}
    for i in ranked:
        counts[group(i)] = counts.get(group(i), 0) + 1
        if counts[group(i)] <= most:
            chosen.append(i)
    return sorted(chosen)


@dataclasses.dataclass
class _Document:
    """A board's or rulebook's PDF as its inputs make it: the size of each page (its page
    count), the PDF itself once needed (its pages may all be in the image store), or why
    it cannot be made."""

    inputs: str
    sizes: list[tuple[float, float]]
    pdf: bytes | None = None
    error: DrawError | None = None
    icons: FaceLoad | None = None
    """What a board's drawings drew of icons (`look.IconTally.load`: its page budget's
    price), what it drew in the game's own fonts (`glyph_tally.glyphs_tallied`) and of
    styled lines (`line_tally.lines_tallied`), when its PDF was made this run."""


def _numbers(indexes: list[int]) -> str:
    """Page indexes (0-based) as a reader numbers them: '3', '3 to 14'."""
    first, last = min(indexes) + 1, max(indexes) + 1
    return str(first) if first == last else f"{first} to {last}"


def _sizes(entry: list[bytes] | None) -> list[tuple[float, float]] | None:
    """A document's page sizes as the image store keeps them (None: not kept, or not
    readable as such)."""
    if not entry or len(entry) != 1:
        return None
    try:
        sizes = json.loads(entry[0])
        return [(float(w), float(h)) for w, h in sizes]
    except (ValueError, TypeError):
        return None


def _index(key: str) -> int:
    """The 0-based page of a board's or rulebook's page key (`rulebook/fr/3` → 2)."""
    return int(key.rpartition("/")[2]) - 1


MAX_PAGE_DIGITS = 6
"""Digits of a page number a request may name: a rulebook holds 3,000 blocks at most."""


def _page_number(text: str) -> bool:
    """Whether `text` is a page number as the page writes them: ASCII digits, not too many
    (`²` is a digit to `str.isdigit`, and `int()` refuses it and 4,300 digits: HTTP 500)."""
    return 0 < len(text) <= MAX_PAGE_DIGITS and text.isascii() and text.isdigit()


def _rows(targets: Iterable[Target]) -> dict[tuple[str, str | None], list[Target]]:
    """The faces of each deck and language in the order the page shows them (the deck's
    shared back first, then each card's faces)."""
    rows: dict[tuple[str, str | None], list[Target]] = {}
    for target in targets:
        if target.kind == "face":
            rows.setdefault((target.lang, target.deck), []).append(target)
    for row in rows.values():
        row.sort(key=lambda t: t.card is not None)  # stable: the rest keep their order
    return rows


def _order(targets: Iterable[Target], first_lang: str | None) -> list[Target]:
    """Faces before boards before rulebooks; the language the page opens in first."""
    rank = {"face": 0, "board": 1, "rulebook": 2}
    return sorted(targets, key=lambda t: (t.lang != first_lang, rank[t.kind]))


class Preview:
    """The preview of one game folder; thread-safe readers, one writer (the worker)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cache = RenderCache(self._draw)
        self.store: ImageStore | None = None  # drawings kept between starts (set by load)
        self.shown: Game | None = None  # what the images are drawn from (last good)
        self.on_disk: Game | None = None  # what the files say now
        self.snap = Snapshot()
        self._parses = Parses()  # the files' parses, from one reload to the next
        self.diagnostics: list[Diagnostic] = []
        self.revision = 0
        self.last_update: dict[str, Any] = {}
        self._listeners: list[Listener] = []
        self._changes: queue.Queue[set[Path]] = queue.Queue()
        self._background: deque[list[str]] = deque()  # CHECK, once the page has its view
        self._asked: dict[str, int] = {}  # image key → when the page last asked for it
        self._asks = 0
        self._row_index: tuple[Snapshot, dict[tuple[str, str | None], list[Target]]] | None
        self._row_index = None
        self.checked = False
        self._findings: FindingsCache | None = None  # open from `load` to the first check
        self._recalled: list[Diagnostic] | None = None  # the findings kept for that game
        self._unit_cache: FindingsCache | None = None  # the units of the checks after it
        # the game `load` read, until the first check has told whether the findings kept
        # for it are its own (then dropped: a whole load held to the end of the preview
        # was a third game in memory after a save; probe70-7)
        self._loaded: Game | None = None
        self._read = False  # `load` has read the game: each reload after it keeps units
        # the game last read, with the code part and frame taken just before (`_reload`)
        self._framed: tuple[Game | None, Framed | None] = (None, None)
        self._unserved: set[str] = set()  # the first language's documents not asked for yet
        self._last_request = 0.0  # when an image was last asked for (or `load` ended)
        self._loaded_at = 0.0  # when `load` ended
        self._asking = 0  # image requests under way (the check waits for none)
        self._asking_lock = threading.Lock()
        self._docs: deque[str] = deque()  # board and rulebook pages to draw again (a save)
        self._pdfs: dict[str, _Document] = {}  # each document's PDF, for its inputs now
        self.stale: set[str] = set()  # images drawn once, to draw again (when asked for)
        self._faces = threading.Lock()  # one thread draws faces at a time (no double work)
        self._doc_lock = threading.Lock()
        self._publishing = threading.Lock()
        self._wake_docs = threading.Event()
        self._last_save = 0.0
        self._first_cards = threading.Event()  # the page's language's cards are drawn
        self._first_documents = threading.Event()  # … and its board and rulebook
        self._published = 0.0
        self._dirty = False
        self._stop = threading.Event()
        # set by a signal handler (see `stop_streams`): a plain attribute, no lock
        self._halted = False
        self.drawers = Drawers()  # the images requests ask for (never waited for at a stop)
        self._thread: threading.Thread | None = None
        self._doc_thread: threading.Thread | None = None

    # --- loading and drawing ------------------------------------------------------------

    def _draw(self, targets: list[Target]) -> list[Result]:
        """Each target's pages: from the image store when the same inputs drew them
        before (this start or an earlier one), else drawn now and stored."""
        with self.cache.lock:  # the game and its fingerprints as one pair
            game, fingerprints = self.shown, self.snap.fingerprints
        assert game is not None
        store = self.store
        if store is None:
            return draw_targets(game, targets)
        names = [store.name(target, fingerprints) for target in targets]
        found = [store.get(name) for name in names]
        missing = [t for t, pages in zip(targets, found, strict=True) if pages is None]
        drawn = iter(draw_targets(game, missing) if missing else [])
        out: list[Result] = []
        for name, pages in zip(names, found, strict=True):
            if pages is not None:
                out.append(pages)
                continue
            result = next(drawn)
            if not isinstance(result, DrawError):
                store.put(name, result)
            out.append(result)
        return out

    def load(self, check: bool = True) -> None:
        """Read the game (and, with `check`, its diagnostics); images are drawn when the
        page asks for them (`page`), none made yet.
        Without `check` the worker checks once the page has had its first images (no
        request for PAGE_QUIET seconds): the page shows its cards first, its findings a
        moment later. The findings
        `validate` (or an earlier preview) kept for the game as it is on disk are taken
        instead of checking it again (looked up before the game is read, so they are never
        older than what is shown; toolkit.content.validate_cache)."""
        self._recalled = self._recall_findings()
        self._reload()
        self._loaded = self.on_disk
        self._read = True
        self.store = open_store(self.root)
        self._recall(t for t in self.snap.targets.values() if t.lang == self.first_lang)
        if check:
            self._check()
            self._first_cards.set()
        if not check:
            self._background.append([CHECK])
        self._unserved = {
            t.key
            for t in self.snap.targets.values()
            if t.lang == self.first_lang and t.kind != "face"
        }
        self._last_request = self._loaded_at = time.monotonic()

    def _recall(self, targets: Iterable[Target]) -> None:
        """The targets the image store holds, into the render cache now (a few tens of
        milliseconds for a whole game's language): a warm start serves its first page,
        boards and rulebook included, without drawing or queueing. Misses are left to
        the requests and the worker, as on a first start."""
        store = self.store
        if store is None:
            return
        fingerprints = self.snap.fingerprints
        for target in targets:
            name = store.name(target, fingerprints)
            if target.kind != "face":  # its page count and sizes; its pages when asked for
                sizes = _sizes(store.get(store.part(name, "sizes")))
                if sizes is not None:
                    self.cache.keep_pages(target, sizes, {})
                continue
            pages = store.get(name)
            if pages is not None:
                self.cache.keep(target, pages)

    @property
    def first_lang(self) -> str | None:
        manifest = self.shown.manifest if self.shown else None
        return manifest.languages[0] if manifest else None

    def _reload(self) -> list[Target]:
        """Load the game from disk again; the targets whose inputs changed. After the first
        load, the game folder's frame is taken first, as `validate`'s lookup takes it: the
        check of this game names its units by it (`_check`)."""
        units = self._units() if self._read else None
        framed = units.framed(self.root) if units is not None else None
        with self._parses.kept():  # an unchanged file is not parsed again
            fresh = load_game(self.root)
        with self.cache.lock:
            self._framed = (fresh, framed)
            self.on_disk = fresh
            self.shown = keep_good(fresh, self.shown)
            before, self.snap = self.snap, snapshot(self.shown)
            self.cache.forget(set(self.snap.targets))
            # a face refused by the last revision's budget is drawn when asked for again
            self.cache.drop(set(self.cache.refused))
        return self.snap.changed_since(before)

    def _recall_findings(self) -> list[Diagnostic] | None:
        """The findings kept for the game in its folder as it is now (None: check it), with
        the findings cache kept open to save what the first check finds."""
        from toolkit.content.validate_cache import FindingsCache
        from toolkit.preview.store import cache_off

        self._findings = None if cache_off() else FindingsCache.open(lambda text: None)
        if self._findings is None:
            return None
        return self._findings.lookup(self.root, FINDINGS_OPTIONS)

    def _check(self) -> None:
        from toolkit.checks import run_checks

        game = self.on_disk
        if game is None:
            return
        cache, self._findings = self._findings, None  # only the game as `load` read it
        recalled, self._recalled = self._recalled, None
        if cache is not None and game is not self._loaded:
            cache = recalled = None  # saved since: what `load` looked up is not this game
        self._loaded = None  # asked once: no later check has a lookup to match
        if recalled is not None:
            self.diagnostics = recalled
        elif game.manifest is not None:
            units = cache or self._units()
            loaded, framed = self._framed
            framed = framed if units is not cache and loaded is game else None
            if units is None:
                self.diagnostics = run_checks(game)
            else:  # what the last check worked out, reused (one card's faces, not all)
                with units.units(self.root, framed):
                    self.diagnostics = run_checks(game)
            if cache is not None:  # kept only if no file changed since the lookup
                cache.save(self.root, FINDINGS_OPTIONS, self.diagnostics)
            if units is not None:
                units.close()
        else:
            self.diagnostics = game.diagnostics
        self.checked = True

    def _units(self) -> FindingsCache | None:
        """The cache whose units each check after the first reads and keeps, as `validate`
        does (toolkit.content.unit_cache): a save that changes one card checks that card's
        faces, not every face again up to the layout budget (probe 41 M1: ~2.4 s a save).
        None when the cache is off."""
        from toolkit.content.validate_cache import FindingsCache
        from toolkit.preview.store import cache_off

        if self._unit_cache is None and not cache_off():
            self._unit_cache = FindingsCache.open(lambda text: None)
        return self._unit_cache

    def target_of(self, key: str) -> Target | None:
        """The target a page key belongs to (None for a key the preview never made)."""
        snap = self.snap
        target = snap.targets.get(key)
        if target is not None and target.kind == "face":
            return target
        head, _, number = key.rpartition("/")
        target = snap.targets.get(head)
        if target is not None and target.kind != "face" and _page_number(number):
            return target
        return None

    def page(self, key: str) -> bytes | None:
        """A page's PNG, drawn now if it was not drawn yet; None if there is no such page."""
        target = self.target_of(key)
        if target is None:
            return None
        with self._asking_lock:
            self._asking += 1
            self._last_request = time.monotonic()
            self._asks += 1
            self._asked[key] = self._asks
        try:
            return self._page(key, target)
        finally:
            with self._asking_lock:
                self._asking -= 1
                self._last_request = time.monotonic()  # the check waits for a quiet page

    def _page(self, key: str, target: Target) -> bytes | None:
        self._unserved.discard(target.key)
        told = False
        if self._due(key, target):
            lock = self._faces if target.kind == "face" else self._doc_lock
            with lock:  # a page asks for many images at once: draw each once
                if self.stopping:  # the requests queued behind a drawing draw nothing
                    return None
                if self._due(key, target):
                    if target.kind != "face" and not self.cache.has(target):
                        told = self._draw_document(target, [])  # its pages: its neighbours
                    told = self._draw_images(self._siblings(key, target)) or told
        if told:  # a document's page count (or why it failed) is news to the page
            self.publish()
        page = self.cache.page(key)
        return page.png if page else None

    def _due(self, key: str, target: Target) -> bool:
        """Whether a request for the image `key` (of `target`) draws it: never drawn, or
        stale (a save changed it since)."""
        if key in self.stale or not self.cache.has(target):
            return True
        if target.kind == "face":
            return False
        return _index(key) < self.cache.counts[target.key] and self.cache.page(key) is None

    def _siblings(self, key: str, target: Target, most: int | None = None) -> list[str]:
        """`key` and the undrawn (or stale) images nearest it (at the same distance, the
        one after it first), NEIGHBOURS in all (DOCUMENT_NEIGHBOURS for boards and
        rulebook pages): faces of its deck and language, the boards of its language, the
        pages of its rulebook. A page asks for the images it shows at once, and one PDF
        draws them faster than one PDF each. Only neighbours: the first faces of a deck of
        6,000 are not what a page scrolled to its middle shows; and on both sides, as the
        newest request is served first (the lowest image on the screen, whose neighbours
        before it are the others shown)."""
        if target.kind == "face":
            most = NEIGHBOURS if most is None else most
            row = [t.key for t in self._row(target)]
        else:
            most = DOCUMENT_NEIGHBOURS[target.kind] if most is None else most
            row = self._pages_row(target)
        if key not in row:
            return [key]
        at = row.index(key)
        out = [key]
        for i in sorted(range(len(row)), key=lambda i: (abs(i - at), i < at))[1:]:
            if len(out) >= most:
                break
            near = self.target_of(row[i])
            if near is not None and self._due(row[i], near):
                out.append(row[i])
        return out

    def _pages_row(self, target: Target) -> list[str]:
        """The page keys of a rulebook, or of every board of `target`'s language (one page
        each until drawn), in page order."""
        if target.kind == "rulebook":
            documents = [target]
        else:
            documents = [
                t for t in self.snap.targets.values() if t.kind == "board" and t.lang == target.lang
            ]
        return [
            page_key(document, i)
            for document in documents
            for i in range(max(1, self.cache.counts.get(document.key, 1)))
        ]

    def _draw_images(self, keys: list[str]) -> bool:
        """Draw the images `keys` now (their lock held): faces as one PDF, each document's
        pages from its PDF. Whether the page must hear of it (a document's page count or
        error changed)."""
        targets = {key: t for key in keys if (t := self.target_of(key)) is not None}
        faces = [t for t in targets.values() if t.kind == "face"]
        if faces:
            self.cache.render(faces)
            self.stale.difference_update(t.key for t in faces)
        documents: dict[str, tuple[Target, list[int]]] = {}
        for key, target in targets.items():
            if target.kind != "face":
                documents.setdefault(target.key, (target, []))[1].append(_index(key))
        told = False
        for target, indexes in documents.values():
            told = self._draw_document(target, indexes) or told
        return told

    def _draw_document(self, target: Target, indexes: list[int]) -> bool:
        """The pages `indexes` of a board or rulebook, from the image store or its PDF (made
        once for its inputs); whether its page count, sizes or error changed."""
        cache = self.cache
        with cache.lock:  # the game and its fingerprints as one pair
            game, fingerprints = self.shown, self.snap.fingerprints
            before = (cache.counts.get(target.key), cache.sizes.get(target.key))
            error = cache.errors.get(target.key)
        assert game is not None
        store = self.store
        name = store.name(target, fingerprints) if store is not None else None
        document = self._document(game, target, fingerprints, name)
        keys = [page_key(target, i) for i in range(before[0] or 0)]
        wanted = sorted({i for i in indexes if 0 <= i < len(document.sizes)})
        pages: dict[int, bytes] = {}
        for i in wanted:
            found = store.get(store.part(name, f"p{i + 1}")) if store and name else None
            if found and len(found) == 1:
                pages[i] = found[0]
        missing = [i for i in wanted if i not in pages]
        pdf = self._pdf(game, target, document, name) if missing else b""
        if document.error is not None:
            cache.fail(target, document.error)
            self.stale.difference_update(keys)  # the last good pages stay, not asked again
            return error != str(document.error)
        if missing:
            refused = self._refused(game, target, document, missing)
            if refused is not None:  # the revision's page budget is spent
                cache.fail(target, refused)
                return error != str(refused)
            drawn = document_pages(pdf, target.kind, missing)
            for i, png in drawn.items():
                if store is not None and name is not None:
                    store.put(store.part(name, f"p{i + 1}"), [png])
            pages.update(drawn)
        cache.keep_pages(target, document.sizes, pages)
        if all(cache.page(page_key(target, i)) for i in range(len(document.sizes))):
            document.pdf = None  # every page drawn (a board's one): the PDF is not needed
        self.stale.difference_update(page_key(target, i) for i in pages)
        self.stale.difference_update(keys[len(document.sizes) :])  # pages it has no more
        return before != (len(document.sizes), document.sizes) or error is not None

    def _refused(
        self, game: Game, target: Target, document: _Document, missing: list[int]
    ) -> DrawError | None:
        """Why the pages `missing` of `document` are not drawn (a font validate refuses, or
        the revision's page budget spent: toolkit.preview.document_budget), else None (they
        are charged to it)."""
        from toolkit.preview.document_budget import page_budget
        from toolkit.preview.draw import DOCUMENT_DPI, font_refusal
        from toolkit.render.raster_weight import FaceLoad

        fonts = font_refusal(game)
        if fonts is not None:
            return Refused(fonts)

        share = len(missing) / max(1, len(document.sizes))  # a board's icons by its pages
        icons = (document.icons or FaceLoad()).share(share)
        sizes = [document.sizes[i] for i in missing]
        many = len(missing) > 1
        what = f"the {target.kind}'s page{'s' if many else ''} {_numbers(missing)}"
        what += " are" if many else " is"
        why = page_budget(game).charge(what, sizes, icons, DOCUMENT_DPI[target.kind])
        return Refused(why) if why is not None else None

    def _document(
        self, game: Game, target: Target, fingerprints: dict[str, str], name: str | None
    ) -> _Document:
        """The PDF of `target` for its inputs now: kept since it was made, or its page
        sizes from the image store, or made now."""
        inputs = name or "\n".join(f"{i}={fingerprints.get(i, '')}" for i in target.inputs)
        kept = self._pdfs.get(target.key)
        if kept is not None and kept.inputs == inputs:
            return kept
        store = self.store
        sizes = _sizes(store.get(store.part(name, "sizes"))) if store and name else None
        document = _Document(inputs, sizes or [])
        if sizes is None:
            self._pdf(game, target, document, name)
        self._pdfs[target.key] = document
        return document

    def _pdf(self, game: Game, target: Target, document: _Document, name: str | None) -> bytes:
        """The PDF of `document` (from the image store, or made now and kept there)."""
        if document.pdf is not None:
            return document.pdf
        store = self.store
        found = store.get(store.part(name, "pdf")) if store and name else None
        if found and len(found) == 1:
            document.pdf = found[0]
            return document.pdf
        from toolkit.render.boards.look import icons_tallied
        from toolkit.render.glyph_tally import glyphs_tallied
        from toolkit.render.line_tally import lines_tallied

        try:
            with (
                icons_tallied() as tally,
                glyphs_tallied(game) as glyphs,
                lines_tallied() as lines,
            ):
                pdf = document_pdf(game, target)
            sizes = page_sizes(pdf)
            why = glyphs.problem()
            if why is not None:
                raise Refused(f"it prints characters a game font cannot draw: {why}")
        except DrawError as exc:
            document.error = exc
            return b""
        document.pdf, document.sizes = pdf, sizes
        document.icons = tally.load() + glyphs.load() + lines.load()
        if store is not None and name is not None:
            if len(sizes) > 1:  # a later start draws the pages not stored from it
                store.put(store.part(name, "pdf"), [pdf])
            store.put(store.part(name, "sizes"), [json.dumps(sizes).encode()])
        return pdf

    def _row(self, target: Target) -> list[Target]:
        """The faces of `target`'s deck and language in page order (worked out once for
        each snapshot of the game)."""
        snap = self.snap
        index = self._row_index
        if index is None or index[0] is not snap:
            index = self._row_index = (snap, _rows(snap.targets.values()))
        return index[1].get((target.lang, target.deck), [target])

    # --- changes --------------------------------------------------------------------------

    def apply(self, paths: set[Path], saved_at: float | None = None) -> list[str]:
        """React to saved files: draw what they change, check, publish; the page keys whose
        image changed. Boards and rulebooks are queued for the background."""
        started = time.perf_counter()
        saved_at = saved_at or started
        if any(_is_layout(p) or p.parent.name == "icons" for p in paths):
            forget_layouts()
        affected = self._reload()
        ordered = _order(affected, self.first_lang)
        documents = [t for t in ordered if t.kind != "face"]
        with self._faces:
            # only faces drawn before: the others are drawn when the page asks for them
            shown = [t for t in ordered if t.kind == "face" and self.cache.has(t)]
            faces, stale_faces = _now_and_later(shown, self._asked)
            changed = self.cache.render(faces)
            self.stale.difference_update(t.key for t in faces)  # left by an earlier save
            self.stale.update(t.key for t in stale_faces)  # drawn again when asked for
            # a face that failed is asked for again once its message goes from the page
            self.cache.drop({t.key for t in stale_faces if self.cache.counts[t.key] == 0})
            self.stale.difference_update(t.key for t in stale_faces if not self.cache.has(t))
        drawn = time.perf_counter()
        self.last_update = {
            "files": sorted(display_path(p) for p in paths),
            "redrawn": [t.key for t in faces],
            "queued": len(stale_faces),
            "changed": changed,
            "seconds": round(drawn - saved_at, 3),
        }
        again = self._stale_documents(documents)
        self.publish()
        self._check()
        self.publish()
        give_back()  # the game this save replaced: its memory to the system (probe70-7)
        self._docs.extendleft(reversed(again))
        self._last_save = time.monotonic()
        self._wake_docs.set()
        return changed

    def _stale_documents(self, documents: list[Target]) -> list[str]:
        """The pages of `documents` (boards and rulebooks a save changed) drawn before
        become stale, drawn again when asked for; of those, the ones the document thread
        draws again once saves pause: at most SAVE_PAGES of each rulebook and of each
        language's boards, the ones the page asked for last first. A document that failed
        with no page is forgotten: the page asks for it again."""
        with self._doc_lock:
            drawn: list[str] = []
            for target in documents:
                count = self.cache.counts.get(target.key)
                if count == 0:
                    self.cache.drop({target.key})
                    continue
                keys = [page_key(target, i) for i in range(count or 0)]
                drawn += [key for key in keys if self.cache.page(key) is not None]
            self.stale.update(drawn)
            again: list[str] = []
            for kind, most in SAVE_PAGES.items():
                keys = [key for key in drawn if key.startswith(f"{kind}/")]
                # a rulebook's pages, or a language's boards (keys `board/<id>/<lang>/<n>`)
                group = [key.rsplit("/", 1)[0].rpartition("/")[2] for key in keys]
                again += [keys[i] for i in _asked_last(keys, self._asked, group.__getitem__, most)]
        return again

    def notify(self, paths: set[Path]) -> None:
        """Called by the watcher (any thread): files were saved."""
        self._changes.put(paths)

    def run(self) -> None:
        """The worker: saves first, then queued drawings, until `stop`."""
        while not self.stopping:
            try:
                paths = self._changes.get(timeout=0.05 if self._background else 0.5)
            except queue.Empty:
                if self._background and self._may_draw(self._background[0]):
                    self._draw_next()
                continue
            while True:  # a burst of saves is one reload
                try:
                    paths |= self._changes.get_nowait()
                except queue.Empty:
                    break
            try:
                self.apply(paths)
            except Exception as exc:  # keep the session alive; say what broke
                self.last_update = {"files": [str(p) for p in paths], "error": repr(exc)}
                self.publish()

    def _may_draw(self, group: list[str]) -> bool:
        """The check waits until the page has had its first images (no request for
        PAGE_QUIET seconds, or none at all for NO_PAGE); the other languages until the
        page's first full view (cards, board, rulebook in its language) is drawn and
        served: two threads would slow each other down, and a warm start, whose first view
        is in the image store, would draw the languages the store lacks while the page is
        asking for its images."""
        if group == [CHECK]:
            now = time.monotonic()
            asked = self._last_request > self._loaded_at  # a page asked for images
            quiet = not self._asking and now - self._last_request > PAGE_QUIET
            return quiet and (asked or now - self._loaded_at > NO_PAGE)
        target = self.snap.targets.get(group[0])
        if target is None or target.lang == self.first_lang:
            return True
        return self._first_documents.is_set() and self._first_view_served()

    def _first_view_served(self) -> bool:
        """The page asked for the board and rulebook pages of its first language (its
        cards are asked for as they are shown), or for no image for a while (no page is
        open, or it shows only some)."""
        return not self._unserved or time.monotonic() - self._last_request > PAGE_QUIET

    def _draw_next(self) -> None:
        """One queued drawing (skipped if a request drew it already and it is not stale);
        the page hears of it at most four times a second, and when the queue is empty."""
        group = self._background.popleft()
        if group == [CHECK]:
            self._first_cards.set()  # the document thread may start: the cards come first
            self._check()
            self.publish()
            return
        with self._faces:
            targets = [
                target
                for key in group
                if (target := self.snap.targets.get(key)) is not None
                and (key in self.stale or not self.cache.has(target))
            ]
            self.stale.difference_update(group)
            if targets:
                self.cache.render(targets)
                self._dirty = True
        if self._dirty and (not self._background or time.monotonic() - self._published > 0.25):
            self._dirty = False
            self.publish()

    def run_documents(self) -> None:
        """The document thread: the board and rulebook pages a save changed that the page
        asked for last (`_stale_documents`), the page's language first, drawn again once
        saves have paused for DOCUMENT_PAUSE seconds. It draws nothing at start: a
        document is drawn when the page asks for it."""
        while not self._first_cards.wait(0.5):
            if self.stopping:
                return
        self._note_first_documents()
        while not self.stopping:
            if not self._docs:
                self._wake_docs.wait(0.5)
                self._wake_docs.clear()
                continue
            pause = DOCUMENT_PAUSE - (time.monotonic() - self._last_save)
            if pause > 0:
                self._stop.wait(min(pause, 0.5))
                continue
            target = self.target_of(self._docs[0])
            if (
                target is not None
                and target.lang != self.first_lang
                and not self._first_view_served()
            ):
                self._stop.wait(0.1)  # the page's own images first (see `_may_draw`)
                continue
            key = self._docs.popleft()
            target = self.target_of(key)
            if target is None or key not in self.stale:
                continue  # drawn meanwhile (the page asked for it), or gone
            batch = [key]
            for other in list(self._docs):  # the same document's pages: one PDF for all
                if other.startswith(f"{target.key}/"):
                    self._docs.remove(other)
                    batch.append(other)
            with self._doc_lock:
                if self.stopping:
                    return
                self._draw_images([k for k in batch if self._due(k, target)])
            self._note_first_documents()
            self.publish()

    def _note_first_documents(self) -> None:
        first = self.first_lang
        if all(
            self.cache.has(t)
            for t in self.snap.targets.values()
            if t.kind != "face" and t.lang == first
        ):
            self._first_documents.set()

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name="preview-worker", daemon=True)
        self._thread.start()
        self._doc_thread = threading.Thread(
            target=self.run_documents, name="preview-documents", daemon=True
        )
        self._doc_thread.start()

    def stop_streams(self) -> None:
        """Ask the worker and every event stream to end: safe in a signal handler.

        It only sets a plain attribute. `threading.Event.set` takes the event's lock, which
        is not reentrant: a second SIGINT/SIGTERM arriving while the first handler held it
        ran a second handler on top of the first, in the same thread, and it waited for
        that lock for ever (the server stopped answering, the process never exited). Every
        reader polls `stopping`: the streams every PING_SECONDS, image requests every
        STOP_POLL_SECONDS, the worker and the document thread every half second; `stop`
        then sets the event, which wakes them at once."""
        self._halted = True

    def stop(self, timeout: float = STOP_SECONDS) -> None:
        """End the worker and the document thread, waiting at most `timeout` seconds in
        all: a drawing cannot be interrupted, and one that takes long (a huge board label)
        held `kill` or Ctrl-C for 5 s a thread. A thread still drawing then ends with the
        process (a daemon; the store's entries are renamed into place whole, and a
        temporary file left is removed by the next run). The drawings requests asked for
        are not waited for either (`Drawers`)."""
        self._stop.set()
        self.drawers.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + timeout
        for thread in (self._thread, self._doc_thread):
            if thread is not None:
                thread.join(timeout=max(0.0, deadline - time.monotonic()))
        if self.store is not None:
            self.store.prune()

    @property
    def stopping(self) -> bool:
        return self._halted or self._stop.is_set()

    # --- what the page shows ------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def publish(self) -> None:
        with self._publishing:
            self.revision += 1
            self._published = time.monotonic()
            state = self.state()
            for listener in list(self._listeners):
                listener(state)

    def state(self) -> dict[str, Any]:
        """Everything the page needs, as JSON-ready data (image URLs carry versions)."""
        with self.cache.lock:
            return page_state(self)


def _is_layout(path: Path) -> bool:
    try:
        path.resolve().relative_to(builtin_layouts().resolve())
    except ValueError:
        return path.parent.name == "layouts"
    return True
