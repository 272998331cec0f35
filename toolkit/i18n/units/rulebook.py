"""Units from the source language's rulebook Markdown: headings, paragraphs, list items and
table cells (`toolkit.i18n.markdown_units`), keyed by section so that keys survive edits
elsewhere in the book.

A translation that follows the source's structure is edited in place: only the changed units
move, its own line endings and bytes elsewhere stay. Any other is rebuilt from the source's
skeleton, and only once every unit has a translation (from the PO file or the current file),
so a half-translated PO never leaves a rulebook that mixes two languages. A language whose
rulebook the game does not list yet gets `<lang>.md` beside the source's, listed in
game.yaml.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from toolkit.content.game import Game
from toolkit.fileio import real_path
from toolkit.i18n.markdown_units import Segment, SegmentError, rebuild, segment, skeleton, slug
from toolkit.i18n.placeholders import code_problem, jinja_code
from toolkit.i18n.units import Applied, Change, Unit, register
from toolkit.i18n.yaml_edit import Edit, refusal
from toolkit.render.rulebook_source import RulebookError, read_rulebook

JINJA_NOTE = "keep every {{ … }} and {% … %} exactly as written: they print the game's data"


@dataclass
class Book:
    """The source rulebook cut into units, and the current translation where it aligns."""

    path: Path
    rel: str
    text: str
    segments: list[Segment]
    keys: list[str | None]  # per segment; None for what is not translated
    current: list[str | None]  # the target's text per segment, when it follows the source
    target: Path
    newline: str
    listed: bool
    aligned_note: str | None = None
    aligned: tuple[str, list[Segment]] | None = None  # the target, when it follows the source


def _read(path: Path, root: Path) -> tuple[str, str]:
    try:
        raw = read_rulebook(path, root)
    except RulebookError as exc:  # too big, not UTF-8: one kind of error for the callers
        raise SegmentError(f"{path.name}:{exc.line}: {exc}") from None
    newline = "\r\n" if "\r\n" in raw else "\n"
    return raw.replace("\r\n", "\n"), newline


def _unlisted(target: Path, root: Path) -> tuple[str, str] | SegmentError | None:
    """A translation game.yaml does not list, read as `_read` does (None: no file there);
    one that cannot be read is a reason, not an error (the import writes nothing over an
    unlisted file: a 3 GB file there was a SegmentError traceback), and one that leads
    outside the game folder is not read."""
    if not target.is_file():
        return None
    if not real_path(target).is_relative_to(real_path(root)):
        return SegmentError(f"{target.name}: it leads outside the game folder")
    try:
        return _read(target, root)
    except SegmentError as exc:
        return exc


def _keys(segments: list[Segment], rel: str) -> list[str | None]:
    keys: list[str | None] = []
    section, index, used = "start", 0, {"start": 1}
    for seg in segments:
        if not seg.translatable:
            keys.append(None)
            continue
        if seg.kind == "heading":
            name = slug(seg.text) or "section"
            used[name] = used.get(name, 0) + 1
            section = name if used[name] == 1 else f"{name}-{used[name]}"
            index = 0
        else:
            index += 1
        keys.append(f"{rel}:{section}.{index}")
    return keys


def book(game: Game, lang: str) -> Book | None:
    """The source rulebook for translating into `lang`, or None when the game has none
    (raises SegmentError for a file that cannot be read or cut)."""
    source = game.checked_manifest.source_language
    path = game.rulebook.get(source)
    if path is None:
        return None
    text, newline = _read(path, game.root)
    segments = segment(text)
    rel = real_path(path).relative_to(real_path(game.root)).as_posix()
    listed = lang in game.rulebook
    target = game.rulebook.get(lang) or real_path(path).with_name(f"{lang}{path.suffix}")
    current: list[str | None] = [None] * len(segments)
    note = None
    aligned = None
    read: tuple[str, str] | SegmentError | None = None
    if lang != source:
        listed_file = listed and target.is_file()
        if listed_file:
            read = _read(target, game.root)
        else:
            read = None if listed else _unlisted(target, game.root)
    if isinstance(read, SegmentError):  # the import will not write over it either
        note = f"{target.name} is not read ({read}); the import leaves it as it is"
    elif read is not None:
        other, newline = read
        theirs = segment(other)
        same_kinds = [s.kind for s in theirs] == [s.kind for s in segments]
        if same_kinds and skeleton(other, theirs) == skeleton(text, segments):
            current = [
                t.text if s.translatable else None for s, t in zip(segments, theirs, strict=True)
            ]
            aligned = (other, theirs)
        else:
            note = (
                f"{target.name} does not follow {path.name}'s structure: its text is not in "
                f"the PO file, and the import rebuilds it from {path.name} and the PO file"
            )
    keys = _keys(segments, rel)
    return Book(path, rel, text, segments, keys, current, target, newline, listed, note, aligned)


def _structure_problem(found: Book, new: str) -> tuple[int, str] | None:
    """Where the rebuilt translation stops following the source's structure, or None: a
    msgstr with a blank line, a heading, a list, a table row or a code fence adds blocks (an
    unclosed fence turned the rest of a rulebook into code), and a translation that no
    longer follows its source drops out of every later PO file."""
    try:
        theirs = segment(new)
        same = [s.kind for s in theirs] == [s.kind for s in found.segments] and skeleton(
            new, theirs
        ) == skeleton(found.text, found.segments)
    except SegmentError:
        theirs, same = [], False
    if same:
        return None
    pairs = zip(theirs, found.segments, strict=False)
    first = next((t for t, s in pairs if t.kind != s.kind), theirs[-1] if theirs else None)
    line = first.line if first is not None else 1
    return line, (
        "the entries together change the rulebook's structure (a msgstr holds a blank line,"
        " a heading, a list, a table row or a code fence)"
    )


class RulebookUnits:
    name = "rulebook"

    def units(self, game: Game, lang: str) -> list[Unit]:
        found = book(game, lang)
        if found is None:
            return []
        out = []
        for seg, key, current in zip(found.segments, found.keys, found.current, strict=True):
            if key is None:
                continue
            jinja = bool(jinja_code(seg.text))
            what = "text inside Jinja code" if seg.kind == "string" else seg.kind
            notes = [f"rulebook {what}"] + ([JINJA_NOTE] if jinja else [])
            out.append(
                Unit(
                    self.name,
                    key,
                    seg.text,
                    current or "",
                    found.rel,
                    seg.line,
                    tuple(notes),
                    jinja=jinja,
                )
            )
        return out

    def apply(self, game: Game, lang: str, changes: list[Change]) -> Applied:
        done = Applied()
        found = book(game, lang)
        if found is None:
            return done
        by_key = {c.unit.key: c for c in changes}
        texts: list[str | None] = []
        missing: list[int] = []
        accepted: list[Change] = []
        for index, (seg, key) in enumerate(zip(found.segments, found.keys, strict=True)):
            change = by_key.get(key) if key else None
            if change is not None and "\n" in change.text and seg.kind != "paragraph":
                done.refused.append((change, f"a rulebook {seg.kind} holds a single line"))
                change = None
            if change is not None:
                accepted.append(change)
            text = change.text if change is not None else found.current[index]
            if key is not None and text is None:
                missing.append(seg.line)
            texts.append(text if key is not None else None)
        if found.aligned_note:
            done.notes.append(found.aligned_note)
        shown = found.target.name
        if not found.listed and found.target.exists():
            done.held += accepted
            done.notes.append(
                f"{shown} not written: it exists but game.yaml does not list it as the {lang} "
                "rulebook; list it there or move it away"
            )
            return done
        if missing:
            done.held += accepted
            total = sum(1 for k in found.keys if k)
            done.notes.append(
                f"{shown} not written: {len(missing)} of {total} rulebook units have no "
                f"translation yet (the first at {found.rel}:{missing[0]})"
            )
            return done
        try:
            if found.aligned is not None:  # only the changed units move in the translation
                changed = [by_key.get(k) if k else None for k in found.keys]
                # by identity, in a set: a list's `in` made n units × n changes (12,000
                # paragraphs, 26.9 s; probe 66-6)
                taken = {id(c) for c in accepted}
                picked = [c.text if c is not None and id(c) in taken else None for c in changed]
                base, replaced = found.aligned[0], list(zip(found.current, picked, strict=True))
                new = rebuild(*found.aligned, picked)
            else:
                pairs = zip(found.segments, found.keys, strict=True)
                sources = [seg.text if key else None for seg, key in pairs]
                base, replaced = found.text, list(zip(sources, texts, strict=True))
                new = rebuild(found.text, found.segments, texts)
        except SegmentError as exc:  # a unit cannot hold what was given
            done.held += accepted
            done.notes.append(f"{shown} not written: {exc}")
            return done
        segments = found.aligned[1] if found.aligned is not None else found.segments
        base, replaced = _with_strings(base, segments, replaced)
        problem = code_problem(base, replaced, new) or _structure_problem(found, new)
        if problem is not None:  # entries that pass one by one made code together
            line, reason = problem
            where = real_path(found.target).relative_to(real_path(game.root)).as_posix()
            for change in accepted:
                done.refused.append((change, f"{where}:{line}: {reason}; {shown} not written"))
            return done
        new = new.replace("\n", found.newline)
        try:  # bounded and inside the game, as book() read it: it may have changed since
            old = read_rulebook(found.target, game.root) if found.target.is_file() else None
        except RulebookError as exc:
            done.held += accepted
            done.notes.append(f"{shown} not written: it cannot be read now ({exc})")
            return done
        if new != old:
            done.texts[found.target] = new
        done.applied += accepted
        if not found.listed:
            manifest = game.manifest_file
            assert manifest is not None and manifest.doc is not None
            rel_target = found.target.relative_to(real_path(game.root)).as_posix()
            edit = Edit(("files", "rulebook", lang), rel_target)
            why = refusal(manifest.doc, edit)
            if why is None:
                done.edits.append((manifest.doc, edit, None))
                done.notes.append(f"{rel_target} listed in game.yaml as the {lang} rulebook")
            else:
                done.notes.append(f"add {rel_target} to game.yaml's files.rulebook: {why}")
        return done

    def inputs(self, game: Game, lang: str | None) -> list[Path]:
        source = game.checked_manifest.source_language
        wanted = [source] + ([lang] if lang and lang != source else [])
        return [game.rulebook[w] for w in wanted if w in game.rulebook]


__all__ = ["RulebookError", "RulebookUnits", "book"]

register(RulebookUnits())


def _with_strings(
    base: str, segments: list[Segment], replaced: list[tuple[str | None, str | None]]
) -> tuple[str, list[tuple[str | None, str | None]]]:
    """The base the rebuilt file's Jinja code is compared with, holding the new texts of
    the strings inside Jinja code (escaped as `rebuild` writes them: data, never code), and
    the other units' (old, new) texts: a translated string of a `{% set %}` made code no
    entry holds, and every entry of the rulebook was refused."""
    strings = [
        new if seg.kind == "string" else None
        for seg, (_, new) in zip(segments, replaced, strict=True)
    ]
    if not any(strings):
        return base, replaced
    others = [
        (None, None) if seg.kind == "string" else pair
        for seg, pair in zip(segments, replaced, strict=True)
    ]
    return rebuild(base, segments, strings), others
