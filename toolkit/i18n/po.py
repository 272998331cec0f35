"""PO and POT files for translators (polib), from every unit kind (`toolkit.i18n.units`).

Export: one entry per unit; msgctxt = the unit's stable key (`decks/x.yaml:cards[id].text`,
`layouts/x.yaml:labels.draw`, `rulebook/fr.md:setup.3`), msgid = the source text, msgstr =
the current translation; `#.` comments carry what a translator needs (the card, its room,
placeholder values), `#:` the source's file and line, and texts with `{placeholders}` carry
`#, python-brace-format` so that `msgfmt -c` and PO editors check them.

Import follows gettext's meaning: fuzzy and obsolete entries are not ready and are skipped;
an entry whose source changed since export, that names no unit, or whose msgstr breaks a
placeholder or Jinja code is refused at its PO line, and every other entry still applies.

Dates are the content's: the newest modification time of the files the entries are read from
(or SOURCE_DATE_EPOCH, as reproducible builds set it), so exporting the same content twice
gives the same bytes and the date says how recent the texts in the file are.
"""

from __future__ import annotations

import functools
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polib
from babel.messages.catalog import PYTHON_FORMAT
from babel.messages.plurals import get_plural

from toolkit.build_date import source_date_epoch
from toolkit.content.game import Game
from toolkit.content.sheets.load import SheetDocument
from toolkit.i18n.placeholders import brace_problem, jinja_problem
from toolkit.i18n.sheet_edit import apply_sheet_edits
from toolkit.i18n.units import KINDS, Applied, Change, Unit, all_units, kind_call
from toolkit.i18n.yaml_edit import Edit, apply_edits

BRACE_FLAG = "python-brace-format"
NO_PYTHON_FLAG = "no-python-format"


class SourceLanguageError(ValueError):
    """A PO file for the source language: its texts are the msgids."""


def _date(game: Game, lang: str | None) -> str:
    try:
        epoch = source_date_epoch()
    except ValueError:  # refused by the command line; ignored by a caller in-process
        epoch = None
    if epoch is not None:
        stamp = epoch
    else:
        times = [
            path.stat().st_mtime
            for name in KINDS
            for path in kind_call(name, lambda kind: list(kind.inputs(game, lang)))
            if path.is_file()
        ]
        stamp = int(max(times, default=0))
    return time.strftime("%Y-%m-%d %H:%M+0000", time.gmtime(stamp))


def _plural_forms(lang: str) -> str | None:
    try:
        count, expr = get_plural(lang)
    except Exception:  # an unknown language simply gets no header
        return None
    return f"nplurals={count}; plural={expr};"


def _flags(unit: Unit, msgstr: str) -> list[str]:
    """`python-brace-format` for texts with {placeholders}; `no-python-format` for texts a
    percent sign makes look like C/Python %-formats (`30 % du`, `30% of`): game texts never
    are, and the flag stops tools that guess (xgettext, msgmerge, PO editors) from checking
    them as such. (Babel 2.19 still guesses over the flag: python-babel/babel#35.)"""
    flags = [BRACE_FLAG] if unit.brace_format else []
    if any(PYTHON_FORMAT.search(text) for text in (unit.source, msgstr)):
        flags.append(NO_PYTHON_FLAG)
    return flags


def _entry(unit: Unit, msgstr: str) -> polib.POEntry:
    return polib.POEntry(
        msgctxt=unit.key,
        msgid=unit.source,
        msgstr=msgstr,
        comment="\n".join(unit.notes),
        occurrences=[(unit.file, str(unit.line))],
        flags=_flags(unit, msgstr),
    )


def export_po(game: Game, lang: str) -> polib.POFile:
    """The PO file for translating `game` into `lang` (raises SourceLanguageError for the
    source language: export a template instead)."""
    manifest = game.manifest
    assert manifest is not None
    source = manifest.source_language
    if lang == source:
        raise SourceLanguageError(
            f"{lang} is the source language of {game.id}: its texts are the msgids; export "
            "the template (POT) instead"
        )
    po = polib.POFile(wrapwidth=0)
    po.header = f"{game.id}: translation into {lang} (playset i18n export)"
    po.metadata = {
        "Project-Id-Version": game.id,
        "Report-Msgid-Bugs-To": "",
        "POT-Creation-Date": _date(game, None),
        "PO-Revision-Date": _date(game, lang),
        "Last-Translator": "",
        "Language-Team": "",
        "Language": lang,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
    }
    plural = _plural_forms(lang)
    if plural:
        po.metadata["Plural-Forms"] = plural
    po.metadata["X-Source-Language"] = source
    for unit in all_units(game, lang):
        po.append(_entry(unit, unit.target))
    return po


def export_pot(game: Game) -> polib.POFile:
    """The template: every unit with an empty msgstr and the header PO tools fill in
    (`msginit` makes a language's PO file from it)."""
    manifest = game.manifest
    assert manifest is not None
    pot = polib.POFile(wrapwidth=0)
    pot.header = f"{game.id}: translation template (playset i18n export --template)"
    pot.metadata_is_fuzzy = True
    pot.metadata = {
        "Project-Id-Version": game.id,
        "Report-Msgid-Bugs-To": "",
        "POT-Creation-Date": _date(game, None),
        "PO-Revision-Date": "YEAR-MO-DA HO:MI+ZONE",
        "Last-Translator": "FULL NAME <EMAIL@ADDRESS>",
        "Language-Team": "LANGUAGE <LL@li.org>",
        "Language": "",
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "X-Source-Language": manifest.source_language,
    }
    for unit in all_units(game, manifest.source_language):
        pot.append(_entry(unit, ""))
    return pot


@dataclass(frozen=True)
class Outcome:
    """One entry's fate, at its PO line."""

    line: int
    key: str
    what: str  # applied, fuzzy, obsolete, stale, unknown, placeholder, duplicate, refused, held
    why: str = ""


SKIPPED = ("fuzzy", "obsolete")


@dataclass
class ImportResult:
    outcomes: list[Outcome] = field(default_factory=list)
    unchanged: int = 0
    untranslated: int = 0
    notes: list[str] = field(default_factory=list)

    def of(self, *what: str) -> list[Outcome]:
        return [o for o in self.outcomes if o.what in what]

    @property
    def applied(self) -> list[str]:
        return [o.key for o in self.of("applied")]

    @property
    def skipped(self) -> list[Outcome]:
        return self.of(*SKIPPED)

    @property
    def refused(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.what not in ("applied", "held", *SKIPPED)]

    @property
    def held(self) -> list[Outcome]:
        return self.of("held")

    @property
    def stale(self) -> list[str]:
        return [o.key for o in self.of("stale")]

    @property
    def unknown(self) -> list[str]:
        return [o.key for o in self.of("unknown")]


def _written(entry: polib.POEntry) -> bool:
    """The entry holds a translation: its msgstr, or any msgstr[n] (plural forms the import
    refuses at their line; they were counted as untranslated, the translator's work lost)."""
    return bool(entry.msgstr) or any(entry.msgstr_plural.values())


def _msgstr_lines(po: polib.POFile, text: str | None) -> dict[int, int]:
    """Entry start line → its msgstr line, found in the PO text polib parsed (a refusal is
    shown where the translator wrote, as msgfmt shows it); none without the text."""
    if text is None:
        return {}
    lines = text.split("\n")
    found: dict[int, int] = {}
    for entry in po:
        start = getattr(entry, "linenum", 0) or 0
        for number in range(max(start, 1), len(lines) + 1):
            text = lines[number - 1].lstrip("#~ ")
            if text.startswith("msgstr"):
                found[start] = number
                break
    return found


def import_po(
    game: Game, po: polib.POFile, lang: str, text: str | None = None
) -> tuple[ImportResult, dict[Path, str | bytes]]:
    """Plan the import: the new text of each file to change, and what happened per entry
    (`text`: the PO text `po` was parsed from, for the lines of refusals)."""
    units = {unit.key: unit for unit in all_units(game, lang)}
    result = ImportResult()
    where = _msgstr_lines(po, text)
    changes: dict[str, list[Change]] = defaultdict(list)
    seen: set[str] = set()

    def line(entry: polib.POEntry) -> int:
        start = getattr(entry, "linenum", 0) or 0
        return where.get(start, start)

    for entry in po:
        key = entry.msgctxt or ""
        shown = key or entry.msgid[:40]
        if entry.obsolete:
            result.outcomes.append(Outcome(line(entry), shown, "obsolete", "obsolete entry (#~)"))
            continue
        if "fuzzy" in entry.flags:
            if _written(entry):
                why = "fuzzy: not ready (remove the fuzzy flag once it is checked)"
                result.outcomes.append(Outcome(line(entry), shown, "fuzzy", why))
            continue
        if not _written(entry):
            result.untranslated += 1
            continue
        if key in seen:
            why = "the PO file repeats this msgctxt"
            result.outcomes.append(Outcome(line(entry), shown, "duplicate", why))
            continue
        seen.add(key)
        unit = units.get(key)
        if unit is None:
            why = "unknown entry: the game has no such text (renamed or removed since export?)"
            result.outcomes.append(Outcome(line(entry), shown, "unknown", why))
            continue
        if entry.msgid != unit.source:
            why = "the source text changed since export; export again and translate the new text"
            result.outcomes.append(Outcome(line(entry), key, "stale", why))
            continue
        if entry.msgid_plural or entry.msgstr_plural:
            why = (
                "msgid_plural and msgstr[n] are not read: this text has one form (the PO file"
                ' `playset i18n export` writes has no plurals); write it as one msgstr "…"'
            )
            result.outcomes.append(Outcome(line(entry), key, "refused", why))
            continue
        if entry.msgstr == unit.target:
            result.unchanged += 1
            continue
        # rulebook units are Jinja templates: {% … %} is code there, not a {placeholder}
        check = jinja_problem if unit.kind == "rulebook" else brace_problem
        problem = check(unit.source, entry.msgstr)
        if problem is not None:
            result.outcomes.append(Outcome(line(entry), key, "placeholder", problem))
            continue
        changes[unit.kind].append(Change(unit, entry.msgstr, line(entry)))
    texts = _apply(game, lang, changes, result)
    result.outcomes.sort(key=lambda o: o.line)
    return result, texts


def _apply_kind(game: Game, lang: str, changes: list[Change], kind: Any) -> Applied:
    return kind.apply(game, lang, changes)


def _apply(
    game: Game, lang: str, changes: dict[str, list[Change]], result: ImportResult
) -> dict[Path, str | bytes]:
    """Let each kind apply its changes; make every file's YAML edits together."""
    texts: dict[Path, str | bytes] = {}
    by_file: dict[Path, list[tuple[Edit, Change | None]]] = defaultdict(list)
    docs = {}
    applied: list[Change] = []
    for name in KINDS:
        if not changes.get(name):
            continue
        done = kind_call(name, functools.partial(_apply_kind, game, lang, changes[name]))
        result.notes += done.notes
        for change, why in done.refused:
            result.outcomes.append(Outcome(change.po_line, change.unit.key, "refused", why))
        for change in done.held:
            why = "kept in the PO file until the rulebook can be written"
            result.outcomes.append(Outcome(change.po_line, change.unit.key, "held", why))
        for doc, edit, edit_change in done.edits:
            by_file[doc.path].append((edit, edit_change))
            docs[doc.path] = doc
        texts.update(done.texts)
        applied += done.applied
    failed: set[int] = set()
    for path, planned in by_file.items():
        try:
            doc = docs[path]
            if isinstance(doc, SheetDocument):  # cells of a sheet, keys beside it
                texts.update(apply_sheet_edits(doc, [e for e, _ in planned], inside=game.root))
            else:
                texts[path] = apply_edits(path, doc, [e for e, _ in planned], inside=game.root)
        except (ValueError, OSError) as exc:  # the file changed, or YAML would not keep it
            for _, edited in planned:
                if edited is not None:
                    failed.add(id(edited))
                    why = f"no edit made in this file: {exc}"
                    result.outcomes.append(Outcome(edited.po_line, edited.unit.key, "refused", why))
    for change in applied:
        if id(change) not in failed:
            result.outcomes.append(Outcome(change.po_line, change.unit.key, "applied"))
    return texts
