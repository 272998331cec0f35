"""Load a whole game folder: manifest, then every file it lists, each validated in place.

A bundled game is found by id under the repository's `content/`; any other folder holding a
`game.yaml` works the same way, so a designer's own game needs no Python.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import TypeAdapter, ValidationError

from toolkit.content.folders import (  # noqa: F401 (re-exported: where callers look)
    MANIFEST,
    GameNotFound,
    bundled_games,
    display_path,
    game_folder_around,
    resolve_game,
)
from toolkit.content.model_units import keep_model, kept_model
from toolkit.content.models.manifest import ManifestBase
from toolkit.content.plugin import (
    E_PLUGIN,
    GamePlugin,
    adapter,
    board_shape,
    broken_plugin,
    plugin_for,
)
from toolkit.content.sheets import ROWS_KEY, is_sheet, keys_file
from toolkit.content.source import MAX_FILE_BYTES, Document, game_repeats, load_document
from toolkit.content.suggest import tips_run
from toolkit.content.validation import Partial, validate_document, validate_entries
from toolkit.diagnostics import Diagnostic, Span, rule
from toolkit.fileio import IN_TOOL_FOLDER, in_tool_folder, not_regular, real_path
from toolkit.home import repo_root  # noqa: F401 (re-exported)

R_MISSING_FILE = rule("R001", "missing-file", "A file named in game.yaml does not exist.")
R_OUTSIDE = rule("R002", "path-outside-game", "A path leaves the game folder.")
R_NO_MANIFEST = rule("R007", "no-manifest", "A game folder has no game.yaml.")
Y_TOO_MUCH_CONTENT = rule(
    "Y018",
    "too-much-content",
    "A game's decks, question banks and boards are more work than its checks may go through.",
)
MAX_WORK = 9_000
"""Work units a game's content files may take the checks, all kinds counted in one unit
(`Work`): a card is one unit in each language, a question two (its question and its
answer), a board's space, link or other entry one in each language too (`build` and the
preview lay a board out and draw it in each language: 5 boards of 1,600 spaces piled on one
spot took `build` 7.3 s in 3 languages when an entry was one unit whatever the languages,
budget59), and a content file `FILE_WORK` plus one in each language. A unit is about what
one card face costs a cold `validate` (~0.3 ms): it is resolved, fitted and read by every
check, and kept in the findings cache; so the content of a game costs at most ~3 s, and with
a rulebook at its bound (`template_bounds.RULEBOOK_STEPS`) a cold `validate` stays under 5 s.
The kinds were bounded one by one before (18,000 faces; 1,000 files; 100 boards of any size)
and their corners added up: 999 deck files of 6 cards took a cold `validate` 8 s, 900
one-card decks in 20 languages 8 s, one board of 15,000 spaces 6.7 s (probe 43 Y1;
budget56). The bundled games take at most 2,412 units (the largest's map is 810 of them
in 3 languages). A file counts at least its bytes (`BYTES_PER_UNIT`). The file that passes
the budget is not read, nor is any content file listed after it."""
BYTES_PER_UNIT = 128
"""Bytes of a content file that count one work unit when its bytes count more than its rows
(`Work`): reading a file costs what it holds whatever its rows (one board of 1.9 MB, its
15,000 spaces refused, still took 2.6 s to read; 818 one-card decks each with a 1.5 kB list
of numbers, counted a unit a 256 bytes, took a cold `validate` 5.7 s, at 128 4.2 s), and a
file whose bytes alone take the game more than `READ_PAST` units past the budget is not read
at all."""
READ_PAST = 1_000
"""Units past `MAX_WORK` the bytes of the file that passes it may take and still be read
(128 kB, ~0.3 s): read, its finding is at its first row past the budget."""
FILE_WORK = 2
"""Work units of a content file besides one in each language (`MAX_WORK`): each file costs
the checks its own units, in each language, and its share of the findings cache's frame."""
Y_TOO_MANY_FILES = rule(
    "Y019",
    "too-many-content-files",
    "A game lists more deck files, question banks or boards than its checks may work through.",
)
MAX_BOARD_FILES = 10
"""Board files a game may list (Y019): a board is drawn whole in each language, ~9 ms a
small one, and placing its names costs more: 1,000 tiny boards took `build --only board`
28 s (probe 43 B1), and laying a board out may take ~0.25 s whatever its size
(toolkit.render.boards.graph `MAX_PAIRS`, `MAX_LABEL_WORK`): 85 boards of 100 spaces piled
on one spot took a cold `validate` 10 s when this was 100, and 10 boards of 800 such spaces
~2.5 s of a game's ~6 s at every other budget as well (budget59, which proposed 5; a game of
a map, a score track and player boards lists more). The bundled games list one at most."""
MAX_CONTENT_FILES = 1_000
"""Deck files and question banks a game may list together (999 of each made a preview save
cost 11.7 s, probe 43 S1): each content file costs the checks its own units and its share
of the game's frame in the findings cache (~3 ms a one-card deck with a cold cache, whatever
its size): 1,000 one-card decks took `validate` 3 s, 2,000 took 6 s (probe 42 N1). Y018's
work budget counts the files read as well (`FILE_WORK`); this bound refuses a list before
any of it is read. The bundled games list fewer than 30. A list past the bound is not
read."""
R_HALF_WRITTEN = rule(
    "R011",
    "interrupted-write",
    "A killed `playset i18n import` or `convert` left the game half changed (`playset i18n"
    " recover` ends it).",
)

M = TypeVar("M")


@dataclass
class LoadedFile:
    """A content file, parsed and validated: `model` is None when validation failed, and
    then `partial` holds the entries that did validate, if the errors lie in some entries
    only (the reference and translation rules check those)."""

    rel: str
    doc: Document | None
    model: Any | None
    partial: Partial | None = None


@dataclass
class ValidFile(LoadedFile, Generic[M]):
    """A file whose model validated, with the model's type: what a G check reads once the
    schema checks passed (they run on valid content only)."""

    model: M

    @classmethod
    def of(cls, file: LoadedFile | None, kind: type[M]) -> ValidFile[M] | None:
        """`file` as holding a `kind` model; None when it is missing, invalid or another kind."""
        if file is None or not isinstance(file.model, kind):
            return None
        return cls(file.rel, file.doc, file.model)


@dataclass
class Game:
    """A game folder as loaded: models where valid, and every diagnostic found on the way."""

    root: Path
    display_root: str
    plugin: GamePlugin
    manifest_file: LoadedFile | None = None
    decks: list[LoadedFile] = field(default_factory=list)
    boards: list[LoadedFile] = field(default_factory=list)
    questions: list[LoadedFile] = field(default_factory=list)
    glossary: LoadedFile | None = None
    rulebook: dict[str, Path] = field(default_factory=dict)
    listed: set[Path] = field(default_factory=set)
    broken_lists: set[str] = field(default_factory=set)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # What printing works out for this loaded game, kept with it: card faces resolved, the
    # question banks as decks, rulebooks rendered. The validity gate's checks work each out
    # once and the build that follows prints the same (toolkit.render.printjob,
    # rulebook_source). Not an init field: a variant (`dataclasses.replace`, other rules)
    # starts with none.
    print_memo: dict[tuple[object, ...], Any] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @property
    def manifest(self) -> ManifestBase | None:
        return self.manifest_file.model if self.manifest_file else None

    @property
    def checked_manifest(self) -> ManifestBase:
        """The manifest of a game past the validity gate (commands that consume content only
        ever see such games); a ValueError names the game otherwise."""
        if self.manifest is None:
            raise ValueError(f"{self.root.name} has no valid game.yaml")
        return self.manifest

    @property
    def id(self) -> str:
        if self.manifest:
            return self.manifest.id
        # a game given as "." or ".." is named after the folder they stand for
        return os.path.basename(os.path.abspath(self.root))

    @property
    def glossary_failed(self) -> bool:
        """The game lists a glossary that did not validate: what depends on its terms (names
        kept untranslated, terms a layout prints, references to terms) cannot be judged, so
        those checks wait for the glossary's own Y/S finding to be fixed instead of flooding
        the designer with its consequences."""
        return self.glossary is not None and self.glossary.model is None

    def files(self) -> list[LoadedFile]:
        out = [self.manifest_file] if self.manifest_file else []
        out += self.decks + self.boards + self.questions
        if self.glossary:
            out.append(self.glossary)
        return out

    def valid(self, group: list[LoadedFile]) -> list[Any]:
        return [f.model for f in group if f.model is not None]


def _inside(root: Path, rel: str) -> Path | None:
    """The file `rel` names, or None if it leaves `root` (absolute, `..`, or a symlink out)."""
    if os.path.isabs(rel) or rel.startswith("~"):
        return None
    target = real_path(root / rel)
    try:
        target.relative_to(real_path(root))
    except ValueError:
        return None
    return target


def load_game(root: Path, written: Path | None = None) -> Game:
    """Load and validate every file of the game in `root`. `written`: the folder whose
    interrupted writes count (R011), when `root` is a copy of it (the language server's
    mirror); by default `root` itself. What its content files build by repetition (YAML
    aliases, a sheet's shared strings and repeated cells) is bounded over all of them, in
    the order they are read (`source.GameRepeats`); their findings' 'did you mean's are
    searched for a few names in all (`suggest.tips_run`). Its layouts, read later, count
    against the same bound (`source.repeats_of`)."""
    with game_repeats(root), tips_run():
        return _load_game(root, written)


def _load_game(root: Path, written: Path | None) -> Game:
    display_root = display_path(root)
    half = _half_written(written or root)
    if half is not None:
        game = Game(root, display_root, plugin_for(None))
        game.diagnostics.append(half)
        return game
    manifest_path = root / MANIFEST
    manifest_display = display_path(manifest_path)
    if not manifest_path.is_file():
        game = Game(root, display_root, plugin_for(None))
        game.diagnostics.append(
            R_NO_MANIFEST.at(manifest_display, Span(), "no game.yaml in this folder")
        )
        return game
    doc, diags = load_document(manifest_path, manifest_display, inside=root)
    raw_id = None
    if doc is not None and isinstance(doc.data, dict):
        raw_id = doc.data.get("plugin") or doc.data.get("id")
    plugin = plugin_for(raw_id if isinstance(raw_id, str) else None)
    game = Game(root, display_root, plugin)
    game.diagnostics += diags
    if doc is None:
        return game
    why = broken_plugin(raw_id) if isinstance(raw_id, str) else None
    if why is not None:
        key = "plugin" if isinstance(doc.data, dict) and doc.data.get("plugin") else "id"
        message = f"the installed plugin {raw_id!r} cannot be imported ({why})"
        game.diagnostics.append(E_PLUGIN.at(manifest_display, doc.span((key,)), message))
    manifest = kept_model("manifest", plugin, doc, lambda m: type(m) is plugin.manifest_model)
    if manifest is None:
        manifest = plugin.plain_manifest(doc.data)
        if manifest is None:
            manifest, diags = validate_document(doc, plugin.manifest_adapter)
            game.diagnostics += diags
        keep_model("manifest", plugin, doc, manifest)
    game.manifest_file = LoadedFile(manifest_display, doc, manifest)
    if manifest is None:
        return game
    files = manifest.files
    work = Work(len(manifest.languages))  # the content files' together
    game.decks = _load_group(
        game,
        doc,
        ("files", "decks"),
        files.decks,
        lambda: plugin.deck_adapter,
        plugin.deck_shape,
        work,
        "deck files",
        kept="decks",
    )
    game.boards = _load_group(
        game,
        doc,
        ("files", "boards"),
        files.boards,
        lambda: adapter("board"),
        board_shape,
        work,
        files="board files",
        most=MAX_BOARD_FILES,
        kept="boards",
    )
    game.questions = _load_group(
        game,
        doc,
        ("files", "questions"),
        files.questions,
        lambda: adapter("questions"),
        work=work,
        files="question banks",
        most=MAX_CONTENT_FILES - min(len(files.decks), MAX_CONTENT_FILES),
        shared=f", with its {len(files.decks):,} deck files: {MAX_CONTENT_FILES:,} in all",
        kept="questions",
    )
    work.close(game)
    if files.glossary:
        loaded = _load_group(
            game,
            doc,
            ("files",),
            {"glossary": files.glossary},
            lambda: adapter("glossary"),
            kept="glossary",
        )
        game.glossary = loaded[0] if loaded else None
    for lang, rel in files.rulebook.items():
        target = _check_path(game, doc, ("files", "rulebook", lang), rel)
        if target is not None:
            game.rulebook[lang] = target
    if manifest.engine is not None and _inside(game.root, manifest.engine) is None:
        # said up front, as a deck's path is: only `simulate` said it (E001; probe 51 L5)
        message = f"engine {manifest.engine!r} leaves the game folder; it is never imported"
        game.diagnostics.append(R_OUTSIDE.at(doc.display, doc.span(("engine",)), message))
    return game


def _half_written(root: Path) -> Diagnostic | None:
    """R011 when a killed run left a change of the game's files half done (the journal of
    toolkit.journal names files still to put in place). Its mix of old and new files is no
    state of the game anyone wrote, so nothing else is read: the finding says what to run.
    A command that only reads never finishes the change itself (see toolkit.journal)."""
    from toolkit.journal import JOURNAL, pending_of

    found = pending_of(root)
    left, listed = found if found is not None else ([], 0)
    if not left:
        return None
    shown = ", ".join(sorted(_relative(root, target) for target in left)[:3])
    more = f" and {len(left) - 3} more" if len(left) > 3 else ""
    if len(left) < listed:
        state = f"left this game half changed: {len(left)} file(s) ({shown}{more}) still hold"
        state += " their old text, the others the new"
    else:  # killed before its first file was put in place (probe 51 L6: "the others")
        state = f"was stopped before it changed any file: its {len(left)} file(s) ({shown}"
        state += f"{more}) all still hold their old text"
    import shlex  # for this message only

    message = (
        f"an interrupted write (a killed `playset i18n import` or `convert`) {state}; "
        f"run `playset i18n recover {shlex.quote(display_path(root))}` to finish it "
        "(nothing else is read until then)"
    )
    return R_HALF_WRITTEN.at(display_path(root / JOURNAL), Span(), message)


def _relative(root: Path, target: Path) -> str:
    try:
        return os.path.relpath(target, os.path.realpath(root))
    except ValueError:
        return str(target)


def _check_path(game: Game, doc: Document, where: tuple[Any, ...], rel: str) -> Path | None:
    target = _inside(game.root, rel)
    span = doc.span(where)
    if target is None or not target.is_file():
        game.broken_lists.add(str(where[1]) if len(where) > 1 else "")
    if target is None:
        game.diagnostics.append(
            R_OUTSIDE.at(doc.display, span, f"path {rel!r} leaves the game folder")
        )
        return None
    tool = in_tool_folder(target, real_path(game.root))
    if tool is not None:  # said whether the file is there or not: the cache never looks
        game.broken_lists.add(str(where[1]) if len(where) > 1 else "")
        message = f"path {rel!r}: {IN_TOOL_FOLDER.format(tool)}"
        game.diagnostics.append(R_OUTSIDE.at(doc.display, span, message))
        return None
    if not target.is_file():
        message = f"no file {rel!r}{_near_name(target)}"
        with suppress(OSError):  # there, but not a file to read: say what it is
            message = f"{rel!r} cannot be read: {not_regular(target.stat().st_mode)}"
        game.diagnostics.append(R_MISSING_FILE.at(doc.display, span, message))
        return None
    game.listed.add(target)
    return target


def _near_name(target: Path) -> str:
    """A hint when the folder holds a file whose name differs from `target`'s only in case
    or in Unicode form (`café` with its accent as a separate character, as macOS names files):
    a game made on macOS or Windows, whose file systems match those names, unpacked on Linux."""
    import unicodedata

    def key(name: str) -> str:
        return unicodedata.normalize("NFC", name).casefold()

    try:
        names = sorted(os.listdir(target.parent))
    except OSError:
        return ""
    wanted = key(target.name)
    near = [name for name in names if name != target.name and key(name) == wanted]
    if not near:
        return ""
    return (
        f"; {near[0]!r} is there, its name written with other letters (case, or accents"
        " written apart as macOS writes them): rename the file, or write its name in"
        " game.yaml exactly as the file has it"
    )


FACES_PER_ROW = {"cards": 1, "questions": 2}
"""Faces a row of a content file prints in each language: a card's face; a question's
question and its answer."""

_KINDS = {"cards": "cards", "questions": "questions"}


def _text_size(data: Any) -> int:
    """The characters of the texts a parsed sheet holds: what its checks read, counted as a
    YAML file's bytes are (a 15.6 MB CSV of 1,300 cards of long texts counted its rows only,
    and took validate 6.6 s; the same texts in YAML were refused at 1.15 MB)."""
    total, stack = 0, [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            total += len(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return total


@dataclass
class Work:
    """The work units (`MAX_WORK`) of a game's content files read so far, in the order the
    game lists them: decks, boards, then question banks. Once a file passes the budget, it
    and every content file listed after it are not read (`passed`)."""

    languages: int
    spent: int = 0
    parts: dict[str, int] = field(default_factory=dict)  # units by what they count
    passed: Diagnostic | None = None
    """The finding of the file that passed the budget (then no later file is read)."""
    unread: int = 0
    """Content files listed after it, not read."""

    def file_work(self) -> int:
        return FILE_WORK + max(self.languages, 1)

    def _rows(self, doc: Document, rows_key: str | None) -> list[tuple[str, int, int]]:
        """(key, rows, units a row) of the lists of `doc` the budget counts: a deck's cards
        and a bank's questions in each language, every top-level list of a board in each
        language too (`MAX_WORK`)."""
        lists = doc.top_lists() or []  # a kept parse's, without decoding its data
        languages = max(self.languages, 1)
        if rows_key is None:  # a board: its spaces, links, regions… drawn in each language
            return [(key, count, languages) for key, count in lists]
        count = next((count for key, count in lists if key == rows_key), 0)
        return [(rows_key, count, FACES_PER_ROW.get(rows_key, 1) * languages)]

    def too_large(self, size: int, display: str, span: Span, rel: str) -> Diagnostic | None:
        """Y018, before it is read, for a file whose bytes alone (`BYTES_PER_UNIT`) take
        the game more than `READ_PAST` units past the budget (at its entry in game.yaml),
        else None: a file a little past it is read, so that its finding is at its first
        row past the budget, and reading it costs at most `READ_PAST` units more."""
        if size > MAX_FILE_BYTES:  # not read: its reader says so (Y006)
            return None
        units = self.file_work() + size // BYTES_PER_UNIT
        if self.spent + units <= MAX_WORK + READ_PAST:
            return None
        here = f"its {size:,} bytes are {size // BYTES_PER_UNIT:,} units"
        message = self._message([], units, here, "it is not read", f"the file {rel!r}")
        return self._passed(Y_TOO_MUCH_CONTENT.at(display, span, message))

    def refused(
        self, doc: Document, display: str, rows_key: str | None, size: int
    ) -> Diagnostic | None:
        """Y018 for a file that takes the game past `MAX_WORK` (at its first row past it),
        else None (its units counted). A file is at least its bytes' units: reading it
        costs that much whatever it holds."""
        lists = self._rows(doc, rows_key)
        rows = sum(count * weight for _, count, weight in lists)
        units = self.file_work() + max(rows, size // BYTES_PER_UNIT)
        if self.spent + units <= MAX_WORK:
            self.spent += units
            self._count("files", units - rows)
            for key, count, weight in lists:
                self._count(_KINDS.get(key, "board entries"), count * weight)
            return None
        where: tuple[Any, ...] = ()
        room = MAX_WORK - self.spent - self.file_work()
        for key, count, weight in lists:
            if count * weight > room:
                where = (key, max(room, 0) // weight)  # the first row past the bound
                break
            room -= count * weight
        here = ", ".join(f"{count:,} {key}" for key, count, _ in lists if count) or "no rows"
        message = self._message(lists, units, f"{here} here", "this file is not read", "this file")
        return self._passed(Y_TOO_MUCH_CONTENT.at(display, doc.span(where), message))

    def unparsed(self, size: int) -> None:
        """Count a file that could not be parsed: reading it cost its bytes (none when it
        was too large to read, Y006)."""
        units = self.file_work() + (size // BYTES_PER_UNIT if size <= MAX_FILE_BYTES else 0)
        self.spent += units
        self._count("files", units)

    def _passed(self, found: Diagnostic) -> Diagnostic:
        self.passed = found
        return found

    def _count(self, part: str, units: int) -> None:
        self.parts[part] = self.parts.get(part, 0) + units

    def _message(
        self, lists: list[tuple[str, int, int]], units: int, here: str, unread: str, which: str
    ) -> str:
        languages = max(self.languages, 1)
        langs = f"{languages} language{'s' if languages != 1 else ''}"
        parts = dict(self.parts)
        for key, count, weight in lists:
            part = _KINDS.get(key, "board entries")
            parts[part] = parts.get(part, 0) + count * weight
        rows = sum(count * weight for _, count, weight in lists)
        parts["files"] = parts.get("files", 0) + units - rows
        ranked = sorted(parts.items(), key=lambda item: -item[1])
        shares = ", ".join(f"{part} {used:,}" for part, used in ranked if used)
        cut = {
            "cards": "keep the cards the game needs",
            "questions": "keep the questions the game needs",
            "board entries": "make the boards smaller",
            "files": "put small files together in fewer, smaller files",
        }[ranked[0][0]]
        fewer = ", or keep fewer languages" if languages > 3 else ""
        return (
            f"the game's content is more work than its checks may go through: {which} takes"
            f" it to {self.spent + units:,} units, at most {MAX_WORK:,} (in {langs}, a card"
            f" is {languages} unit{'s' if languages != 1 else ''}, a question {2 * languages},"
            f" a board's entry {languages} and a file {self.file_work()}, or one a {BYTES_PER_UNIT}"
            f" bytes if more: {shares}); {here} ({self.spent:,} units in the files read before"
            f" it); {unread} ({cut}{fewer}, or split the game)"
        )

    def close(self, game: Game) -> None:
        """Say, in the finding of the file that passed the budget, how many files listed
        after it were not read either."""
        if self.passed is None or not self.unread:
            return
        at = next((i for i, d in enumerate(game.diagnostics) if d is self.passed), None)
        if at is None:
            return
        found = self.passed
        extra = f"; nor are the {self.unread:,} content files listed after it"
        game.diagnostics[at] = replace(found, message=found.message + extra)


def _load_group(
    game: Game,
    manifest_doc: Document,
    where: tuple[Any, ...],
    rels: list[str] | dict[str, str],
    kind_adapter: Callable[[], TypeAdapter[Any]],
    member: Callable[[Any], TypeAdapter[Any] | None] | None = None,
    work: Work | None = None,
    files: str = "",
    most: int | None = None,
    shared: str = "",
    kept: str = "",
) -> list[LoadedFile]:
    """The files a manifest lists under `where`, read and validated. The validator is
    asked for only when a file is there: a game without boards or question banks does not
    import their models (~7 ms of every command that loads it). `member(data)`, for a
    tagged union's files, gives the validator of the one member the file's tag chooses:
    a file it takes is not validated by the union (whose schema is not built); any other
    is validated by the union as ever, and its messages are the union's. `work` counts a
    file's units (its cards, questions or board entries): a file that takes the game past
    `MAX_WORK` is not validated (Y018).
    `files`, what the listed files are (deck files, board files, question banks), bounds the
    list to `most`, by default `MAX_CONTENT_FILES` (Y019: none read past it; `shared` says
    what else the bound counts). `kept`: what the files are (`decks`...): a YAML file's
    model is kept by its bytes between `validate` runs (toolkit.content.model_units), so an
    unchanged file is not validated again."""
    most = MAX_CONTENT_FILES if most is None else most
    if files and len(rels) > most:
        message = (
            f"the game lists {len(rels):,} {files}, a game may list at most {most:,}{shared}"
            " (the checks work through each file on its own, whatever its size); none of"
            f" these is read (put small {files} together, or split the game)"
        )
        span = manifest_doc.span((*where, most))
        game.diagnostics.append(Y_TOO_MANY_FILES.at(manifest_doc.display, span, message))
        game.broken_lists.add(str(where[1]))  # what its files declare is not known
        for rel in rels:  # listed, not read: no file of it is unlisted (R008)
            target = _inside(game.root, rel) if isinstance(rel, str) else None
            if target is not None:
                game.listed.add(target)
        return []
    rows_key = ROWS_KEY.get(str(where[-1]), "cards")  # what a file of this list holds rows under
    counted = None if where[-1] == "boards" else rows_key  # a board: all its lists
    items = rels.items() if isinstance(rels, dict) else enumerate(rels)
    loaded: list[LoadedFile] = []
    for key, rel in items:
        target = _check_path(game, manifest_doc, (*where, key), rel)
        if target is None:
            continue
        display = display_path(target)
        sheet = is_sheet(target) and where[-1] in ROWS_KEY
        size = 0  # a sheet's: counted once read, by its texts (`_text_size`), not its bytes
        if work is not None:
            if work.passed is not None:  # past the budget: not read
                work.unread += 1
                loaded.append(LoadedFile(display, None, None))
                continue
            with suppress(OSError):
                size = 0 if sheet else target.stat().st_size
            span = manifest_doc.span((*where, key))
            early = work.too_large(size, manifest_doc.display, span, rel)
            if early is not None:
                game.diagnostics.append(early)
                loaded.append(LoadedFile(display, None, None))
                continue
        if sheet:
            # the spreadsheet readers load with the first sheet (~20 ms: most games have none)
            from toolkit.content.sheets.load import load_sheet

            game.listed.add(real_path(keys_file(target)))  # as R008 compares it
            doc, diags = load_sheet(target, display, rows_key, kind_adapter(), inside=game.root)
        else:
            doc, diags = load_document(target, display, inside=game.root)
        game.diagnostics += diags
        refused = None
        if work is not None and doc is None:
            work.unparsed(size)
        elif work is not None and doc is not None:
            if sheet:  # its cells' texts count as a YAML file's bytes (probe 46 K2)
                size = _text_size(doc.data)
            refused = work.refused(doc, display, counted, size)
        if refused is not None:
            game.diagnostics.append(refused)
            loaded.append(LoadedFile(display, doc, None))
            continue
        model = partial = None
        if kept and doc is not None and not sheet:
            model = kept_model(kept, game.plugin, doc, _made_by(kept, game.plugin))
            if model is not None:
                loaded.append(LoadedFile(display, doc, model, partial))
                continue
        chosen = member(doc.data) if member and doc is not None and not sheet else None
        if chosen is not None and doc is not None:
            with suppress(ValidationError):  # else validated by the union, as ever
                model = chosen.validate_python(doc.data)
        if doc is not None and model is None:
            adapter = kind_adapter()
            model, diags = validate_document(doc, adapter)
            if sheet:
                from toolkit.content.sheets.load import quiet

                diags = quiet(doc, diags)
            game.diagnostics += diags
            if model is None:
                partial = validate_entries(doc, adapter)
        if kept and doc is not None and not sheet:
            keep_model(kept, game.plugin, doc, model)
        loaded.append(LoadedFile(display, doc, model, partial))
    return loaded


def _made_by(what: str, plugin: GamePlugin) -> Callable[[Any], bool]:
    """Whether a model read back is of a class the validator of a `what` file makes."""
    made: set[type]
    if what == "decks":
        if not plugin.generic:
            made = set(plugin.deck_models.values())
        else:
            from toolkit.content.models.generic_deck import GenericDeck

            made = {GenericDeck}
    elif what == "boards":  # a built-in kind's told without importing every kind
        from toolkit.content.models.board import made_by_a_kind

        return made_by_a_kind
    elif what == "questions":
        from toolkit.content.models.questions import QuestionBank

        made = {QuestionBank}
    else:
        from toolkit.content.models.glossary import Glossary

        made = {Glossary}
    return lambda model: type(model) in made
