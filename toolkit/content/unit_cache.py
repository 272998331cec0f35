"""Results of the checks' pure computations, kept between `validate` runs of one game: after
one card edit only what that card touches is worked out again (its faces resolved, its texts
fitted and searched for glossary terms), every other result is read back.

A unit is one call of a pure function (`kind`) with its arguments, named by the SHA-256 of
the kind and the arguments written out as JSON: every argument the result depends on. The
kinds: `fit` (toolkit.render.textfit: text, box, sizes, face, language, icon names), `face`
(toolkit.render.face_units: card, deck, manifest, glossary, layout, language, card size),
`glossary` (toolkit.checks.translation.glossary: a text's values and the glossary's terms),
`or-list` (toolkit.content.templating: the items and the language), `plural-category`
(toolkit.checks.translation.plurals: the language and the number) and `question-fit`
(toolkit.checks.printfit: one question's print-fit findings, named by its faces' inputs and
the icon names, kept as the data paths they point at and placed at their lines again when
read back, so lines shifted by an edit elsewhere do not make them stale), `card-print-fit` and
`card-legibility` (toolkit.checks.card_units: one deck card's share of those checks, named by
its faces' inputs, merged in card order after reading back; kept in its file's `card-file:*`
value, see below) and `parse`
(toolkit.content.parse_units: a YAML file's data and spans, named by its bytes, each kept
in an entry of its own: `FileUnits`, not in the game's units entry), `rulebook`
(toolkit.render.rulebook_reads: a rulebook's text, named by its language and source, kept
with what the render read of its context and reused while those reads find the same, and
those reads by part, see below). A
kind's `store`
raises NotKept for a result it cannot keep. What every unit of
the game depends on besides (the toolkit's code, the templates and fonts it ships, the
interpreter and installed packages, the game's `fonts/` folder and the modules the checks
loaded from elsewhere) is the entry's head (toolkit.content.validate_cache.FindingsCache.
units): a change to any of them drops every unit. A value read back is checked for its shape
by the kind's reader; one that is not what the kind stores is worked out afresh, as a
missing one is.

Units named by the frame (`Units.framed_name`): the game folder as this run's lookup hashed
it (the preview's: just before each reload, validate_cache.FindingsCache.framed), a file at
a time (toolkit.content.validate_cache.Frame), with the bytes of some content
files (decks, question banks) left out. A result that is worked out from one content file
and the game's other files only is named by that file in the frame (the other content
files left out): `question-bank-fit` (a bank's print-fit findings), `card-reference`
(toolkit.checks.card_reference: a deck's part of the card reference's findings), `card-names`
(toolkit.checks.card_names: a deck's R013 findings), the `:files` half of a
`Clean` (a file whose texts were all clean) and a kept rulebook render's parts. A result
worked out from no content file is named by the frame with every content file left out:
`family:*` (toolkit.checks.framed: a check family's findings whole). Such a unit is dropped
when the game folder is not as the frame says once the checks are done; so is `card-file:*`
(toolkit.checks.card_units.FileBatch: the card units of a deck's cards kept as one value,
named by the file's path, holding the file's name in the frame: read back whole while that
name is the same, else card by card by the cards' own names; the cards of a layout holding
an image, which get no name of their own, read back only with the frame's name, as are the
letters a deck's back prints, `card-back-letters`).

Only `validate` and the preview's checks turn units on (`active()` is None otherwise, and
with `--no-cache`): a
unit changes no result, it only skips work. Light on purpose: no third-party import.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, TypeVar

T = TypeVar("T")
Reader = Callable[[Any], T]
"""Turns a stored value back into the result; raises ValueError (or TypeError, KeyError)
when the value is not what its kind stores."""


to_json = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
"""JSON as `json.dumps` writes it, without making an encoder per call (units are many)."""


class NotKept(Exception):
    """Raised by a kind's `store` for a result it cannot keep (worked out again next run)."""


class Units:
    """Unit results by name: those an earlier run kept (`known`) and those this run used or
    worked out (`used`, what is kept for the next run). A value of `known` may be `bytes`:
    its `marshal` data as the entry held it (toolkit.content.validate_cache.FindingsCache.
    units), decoded when first asked for, and kept in `used` as those bytes, so a result read
    back is written again as it was read, never encoded again (a JSON value is never bytes).
    One card edit reads back ~400 of a bundled game's ~530 units: decoding the entry whole and
    encoding it again was ~6 ms of the run."""

    def __init__(self, known: dict[str, Any] | None = None) -> None:
        self.known = known or {}
        self.used: dict[str, Any] = {}
        self.worked_out = 0
        self.frame: Any = None
        """The game folder as this run's lookup hashed it, a file at a time (toolkit.content.
        validate_cache.Frame), or None: what `framed_name` names a unit by."""
        self.framed: list[str] = []
        """The units put under a `framed_name` in this run (dropped if the game folder is
        not as the frame says once the checks are done)."""
        self.content: frozenset[str] | None = None
        """The paths (made absolute) of the game's content files (decks, question banks)
        while its checks run, or None (one has no path: no unit is named by the frame)."""
        self.files: FileUnits | None = None
        """Where the results kept one per entry live (a file's parse), or None: not kept."""

    def framed_name(self, kind: str, without: set[str] | frozenset[str]) -> str | None:
        """A unit's name for a result that depends on the game folder's files but those at
        `without` (their bytes; absolute paths), or None (no frame)."""
        if self.frame is None:
            return None
        return self.name(kind, [self.frame.digest(without)])

    def framed_name_but(self, kind: str, here: str) -> str | None:
        """A unit's name for a result that depends on the game folder's files but the
        content files other than `here` (an absolute path), or None (no frame or content
        paths): what `framed_name(kind, content - {here})` tells apart, in constant work a
        name (validate_cache.Frame.digest_but)."""
        if self.frame is None or self.content is None:
            return None
        return self.name(kind, [self.frame.digest_but(self.content, here)])

    @staticmethod
    def name(kind: str, args: list[Any]) -> str:
        """The unit's name: a digest of its kind and arguments (JSON, floats exact)."""
        text = to_json([kind, *args])
        return hashlib.sha256(text.encode()).hexdigest()[:40]

    def get(self, name: str, read: Reader[T]) -> T | None:
        """The result kept under `name`, or None (missing, or not what `read` accepts)."""
        if name not in self.known:
            return None
        value = self.known[name]
        try:
            result = read(marshal.loads(value) if type(value) is bytes else value)
        except (ValueError, TypeError, KeyError, IndexError, EOFError):
            return None
        self.used[name] = value
        return result

    def put(self, name: str, value: Any) -> None:
        """Keep a result worked out in this run (a JSON value), as JSON gives it back: the
        entry is written by `marshal`, which keeps a tuple a tuple and an integer key an
        integer; a reader sees what a JSON entry gave it. A value JSON cannot write is not
        kept."""
        try:
            value = json_value(value)
        except (TypeError, ValueError):
            return
        self.used[name] = value
        self.worked_out += 1

    def put_own(self, name: str, value: Any) -> None:
        """`put` of a value its kind builds of what JSON gives back alone, whatever it holds
        (texts, integers, booleans, nothing, lists, text-keyed mappings; the caller says
        why): kept as it is, not looked at item by item (`_json_own` over a kept rulebook
        render's ~600 reads was ~0.4 ms of a card edit's run)."""
        self.used[name] = value
        self.worked_out += 1

    def put_texts(self, name: str, value: list[str] | dict[str, list[str]]) -> None:
        """`put` of a list of texts, or a mapping of texts to such lists (`Clean`'s digests):
        kept as it is when every item is a text, told in C (`_json_own` looks at each item
        in Python: ~0.3 ms for the ~2,800 digests of one `Clean` after a card edit); any
        other value as `put` keeps it."""
        if type(value) is list:
            whole = set(map(type, value)) <= _TEXTS
        elif type(value) is dict:
            whole = all(
                type(key) is str and type(texts) is list and set(map(type, texts)) <= _TEXTS
                for key, texts in value.items()
            )
        else:
            whole = False
        if not whole:
            self.put(name, value)
            return
        self.used[name] = value
        self.worked_out += 1

    def changed(self) -> bool:
        """Whether the next run would read anything other than what this one read."""
        return self.worked_out > 0 or len(self.used) != len(self.known)


def json_value(value: Any) -> Any:
    """`value` as JSON gives it back (itself when it is already: `_json_own`); TypeError
    or ValueError for a value JSON cannot write."""
    return value if _json_own(value) else json.loads(to_json(value))


def _json_own(value: Any, depth: int = 0) -> bool:
    """Whether `value` is what JSON gives back: texts, finite and infinite numbers, booleans,
    nothing, lists and text-keyed mappings of them (a float's value aside: JSON writes
    every float exactly)."""
    kind = type(value)
    if kind in _JSON_SCALARS:
        return True
    if depth > 100:
        return False
    # loops, not all() over generators, and the scalars told here without a call: a cold
    # run of a bundled game keeps ~5,700 units of ~140,000 values (~20 ms that way, ~7 ms so)
    if kind is list:
        for item in value:
            if type(item) not in _JSON_SCALARS and not _json_own(item, depth + 1):
                return False
        return True
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str:
                return False
            if type(item) not in _JSON_SCALARS and not _json_own(item, depth + 1):
                return False
        return True
    return False


_JSON_SCALARS = frozenset({str, int, float, bool, type(None)})


class FileUnits:
    """Results kept one per entry, in a signed store of their own (`store`: a toolkit.
    usercache.SignedStore, pruned to its size), named by their kind, their name and the
    units' head (`head`): a YAML file's parse (toolkit.content.parse_units), named by the
    file's bytes. An unchanged file's entry is read, never written again; an entry another
    folder's game wrote for the same bytes serves this one too. A missing, unsigned or
    unreadable entry is worked out afresh."""

    def __init__(self, store: Any, head: str) -> None:
        self.store = store
        self.head = head

    def entry(self, kind: str, name: str) -> str:
        key = f"{self.head}\0{kind}\0{name}".encode("utf-8", "surrogateescape")
        return f"{kind}-{hashlib.sha256(key).hexdigest()[:40]}"

    def get(self, kind: str, name: str, read: Reader[T]) -> T | None:
        """The result kept as `name`, or None (missing, or not what `read` accepts)."""
        payload = self.store.read(self.entry(kind, name))
        if payload is None:
            return None
        try:
            return read(payload)
        except (ValueError, TypeError, KeyError, IndexError):
            return None

    def put(self, kind: str, name: str, payload: bytes) -> bool:
        """Keep a result worked out in this run (its bytes); whether it was kept."""
        return bool(self.store.write(self.entry(kind, name), payload))


class _Active(threading.local):
    """The units activated in this thread (`activated`): the preview checks a game in its
    worker while other threads draw; those draw as without the cache."""

    def __init__(self) -> None:
        self.stack: list[Units] = []


_ACTIVE = _Active()
_FRESH: list[Callable[[], None]] = []


def fresh_each_run(forget: Callable[[], None]) -> None:
    """Call `forget` when a game's units are taken out and when they are put away: an
    in-process memo in front of a unit (an lru_cache) would answer without the unit being
    used, so it would not be kept for the next run; a memo holding the run's objects to
    name its units is of no use to the next game."""
    _FRESH.append(forget)


def active() -> Units | None:
    """The units of the game this thread checks, or None (no cache: work everything out)."""
    stack = _ACTIVE.stack
    return stack[-1] if stack else None


@contextmanager
def activated(units: Units) -> Iterator[Units]:
    """Make `units` what the checks of this thread consult while the block runs."""
    for forget in _FRESH:
        forget()
    _ACTIVE.stack.append(units)
    try:
        yield units
    finally:
        _ACTIVE.stack.remove(units)
        for forget in _FRESH:
            forget()


def cached(
    kind: str, args: list[Any], work: Callable[[], T], store: Callable[[T], Any], read: Reader[T]
) -> T:
    """`work()`, or its result kept under (`kind`, `args`) when units are active."""
    units = active()
    if units is None:
        return work()
    try:
        name = Units.name(kind, args)
    except (TypeError, ValueError):  # an argument JSON cannot write: worked out, not kept
        return work()
    return cached_as(name, work, store, read)


def cached_as(name: str, work: Callable[[], T], store: Callable[[T], Any], read: Reader[T]) -> T:
    """`cached` of a unit whose name is known (`Units.name` of its kind and arguments)."""
    units = active()
    if units is None:
        return work()
    kept = units.get(name, read)
    if kept is not None:
        return kept
    result = work()
    with suppress(NotKept):
        units.put(name, store(result))
    return result


_TEXTS = frozenset({str})


def _file_digests(kept: Any) -> dict[str, list[str]]:
    # (the types of a list told in C: ~3,000 digests are read back by each user each run)
    if type(kept) is not dict or not all(
        type(d) is list and set(map(type, d)) <= _TEXTS for d in kept.values()
    ):
        raise ValueError("not digests by file")
    return kept


def _digests(kept: Any) -> set[str]:
    if type(kept) is not list or not set(map(type, kept)) <= _TEXTS:
        raise ValueError("not digests")
    return set(kept)


class Clean:
    """The inputs in which a pure per-input check found nothing in this game's last run
    (their digests): an input found there is clean now too (the check's code is in the
    units' head), so the check skips it; any other input is checked as without the cache.
    After one card edit the texts of every other card are not checked again. Off (every
    input checked) without active units.

    And by file (`file_seen`, `noted`): the digests of a file's inputs when every one was
    clean, under the file's name in the frame (the game folder with the other content
    files' bytes left out: what the file's inputs are read from), one unit of kind
    `kind:files` for them all. A file named so in the last run is skipped whole, its
    inputs not even digested: after one card edit only the edited file's texts are.

    The unit of kind `kind` holds the digests of the inputs checked (not skipped with their
    file) and found clean in the last run; with the files' they are that run's clean
    inputs (`seen` asks them all, put together when it is first asked). It held them all:
    after one card edit ~2,800 digests (typography's) were read, gathered again from every
    skipped file, sorted and written again for the edited deck's ~90 to change."""

    __slots__ = (
        "_files",
        "_files_kept",
        "_files_name",
        "_kept",
        "_loose",
        "_name",
        "_names",
        "_now",
        "_seen_files",
        "_units",
        "on",
    )

    def __init__(self, kind: str) -> None:
        self._units = active()
        self.on = self._units is not None
        """Whether units are active (else every input is checked): a plain attribute, asked
        for each text by each check that keeps clean inputs (~9,000 times a card edit)."""
        self._name = Units.name(kind, []) if self._units is not None else ""
        kept = self._units.get(self._name, _digests) if self._units is not None else None
        self._loose: set[str] = kept or set()  # the inputs the last run checked, clean
        self._kept: set[str] | None = None  # and those of its files: `seen` puts them together
        self._now: set[str] = set()  # the inputs this run checks (or reads back), clean
        framed = self._units is not None and self._units.frame is not None
        framed = framed and self._units.content is not None  # type: ignore[union-attr]
        self._files_name = Units.name(kind + ":files", []) if framed else ""
        files = self._units.get(self._files_name, _file_digests) if framed else None  # type: ignore[union-attr]
        self._files_kept: dict[str, list[str]] = files or {}
        self._files: dict[str, list[str] | None] = {}  # this run's, by file name; None: not clean
        self._names: dict[int, tuple[Any, str | None]] = {}  # file object → its name
        self._seen_files: dict[int, tuple[Any, bool]] = {}  # file object → `file_seen`

    def seen(self, digest: str) -> bool:
        """Whether the input of `digest` was clean in the last run (then it is now)."""
        kept = self._kept
        if kept is None:  # the last run's clean inputs: those it checked, and its files'
            kept = self._kept = set(self._loose)
            for digests in self._files_kept.values():
                kept.update(digests)
        if digest in kept:
            self._now.add(digest)
            return True
        return False

    def found_clean(self, digest: str) -> None:
        """The input of `digest` was checked now and nothing was found in it."""
        self._now.add(digest)

    def _file_name(self, loaded: Any) -> str | None:
        """The name of the content file `loaded` (a LoadedFile) in the frame, or None."""
        known = self._names.get(id(loaded))
        if known is not None and known[0] is loaded:
            return known[1]
        name = None
        units, content = self._units, self._units.content if self._units is not None else None
        doc = getattr(loaded, "doc", None)
        path = getattr(doc, "path", None)
        if self._files_name and units is not None and content is not None and path is not None:
            import os

            here = os.path.abspath(path)
            name = units.framed_name_but(self._files_name, here)
        self._names[id(loaded)] = (loaded, name)  # the file kept with its name: ids stay apart
        return name

    def file_seen(self, loaded: Any) -> bool:
        """Whether every input of the file `loaded` was clean in the last run and nothing
        they are read from changed since (then the file's inputs are clean now). Asked for
        each input, answered once a file: its name and the last run's files do not change
        while the check runs (~1,100 texts asked by each user each run)."""
        known = self._seen_files.get(id(loaded))
        if known is not None and known[0] is loaded:
            return known[1]
        name = self._file_name(loaded)
        seen = name is not None and name in self._files_kept
        if seen and name not in self._files:
            assert name is not None
            self._files[name] = self._files_kept[name]  # (its digests: kept by file alone)
        self._seen_files[id(loaded)] = (loaded, seen)  # the file kept with it: ids stay apart
        return seen

    def noted(self, loaded: Any, digest: str | None, clean: bool) -> None:
        """An input of the file `loaded` checked now (or read back by `seen`): clean or
        not; `digest` None: an input that has no digest (the file is then not kept)."""
        name = self._file_name(loaded)
        if name is None:
            return
        kept = self._files.get(name, [])
        if kept is None:
            return
        if not clean or digest is None:
            self._files[name] = None
        else:
            kept.append(digest)
            self._files[name] = kept

    def close(self) -> None:
        """Keep the clean inputs of this run for the next (those of this run only): those
        checked, and by file those of each file whose every input is clean. The files' are
        every clean input of a file skipped, and the checked ones of a file kept whole,
        which this run's checked ones hold: so the kept units name this run's clean
        inputs, no more (a file's stale version is not kept) and no fewer."""
        if self._units is not None and self._now != self._loose:
            self._units.put_texts(self._name, sorted(self._now))
        if self._files_name and self._units is not None:
            files = {}
            for name, digests in self._files.items():
                if digests is None:
                    continue
                # a file checked now: each digest once (typography noted 3,303 of a bundled
                # game's texts, 3,048 of them apart; a check that notes "" noted 1,101 for
                # its 9 files); one skipped keeps the list it was read with
                kept = self._files_kept.get(name)
                files[name] = digests if digests is kept else list(dict.fromkeys(digests))
            if files != self._files_kept:
                self._units.put_texts(self._files_name, files)
                self._units.framed.append(self._files_name)  # named by the frame


def text_digest(*parts: str) -> str:
    """A digest of texts, each told from the next by its length (no two lists of texts
    share one)."""
    joined = "".join(f"{len(p)}:{p}" for p in parts)
    return hashlib.blake2b(joined.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
