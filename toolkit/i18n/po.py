"""PO export and import for translators (polib).

Export: one entry per localized field; msgctxt = the field's stable name, msgid = the source
language text, msgstr = the current translation; comments carry the card's name, its
placeholders and their values. Import: each entry goes back to its field, only if the source
text is unchanged since export (otherwise it is reported, never applied silently).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import polib
from babel.messages.plurals import get_plural

from toolkit.checks.printfit import capacity
from toolkit.content.game import Game
from toolkit.content.models.deck import CardBase
from toolkit.content.templating import parameter_values, placeholders
from toolkit.i18n.fields import fields
from toolkit.i18n.yaml_edit import Edit, apply_edits, refusal


def export_po(game: Game, lang: str) -> polib.POFile:
    manifest = game.manifest
    assert manifest is not None
    source = manifest.source_language
    po = polib.POFile(wrapwidth=0)
    po.metadata = {
        "Project-Id-Version": f"{game.id}",
        "PO-Revision-Date": "YEAR-MO-DA HO:MI+ZONE",
        "Last-Translator": "",
        "Language-Team": "",
        "Language": lang,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "X-Source-Language": source,
    }
    plural = _plural_forms(lang)
    if plural:
        po.metadata["Plural-Forms"] = plural
    for entry_field in fields(game):
        values = entry_field.text.value
        if not values.get(source):
            continue
        owner = entry_field.text.owner
        notes = []
        name = getattr(owner, "name", None)
        if isinstance(name, dict) and name.get(source) and entry_field.name.endswith(".text"):
            notes.append(f"card: {name.get(source)}")
        field = entry_field.name.rsplit(".", 1)[-1]
        if isinstance(owner, CardBase) and field in ("text", "name"):
            room = capacity(game, owner, field, lang)
            if room:
                notes.append(
                    f"fits about {room} characters at the smallest print size "
                    f"(source: {len(values[source])})"
                )
        used = placeholders(values[source])
        if used:
            known = parameter_values(owner)
            notes.append("placeholders: " + ", ".join(f"{{{p}}}={known.get(p, '?')}" for p in used))
        po.append(
            polib.POEntry(
                msgctxt=entry_field.name,
                msgid=values[source],
                msgstr=values.get(lang, ""),
                comment="\n".join(notes),
                occurrences=[(entry_field.rel, str(_line(entry_field)))],
            )
        )
    return po


def _plural_forms(lang: str) -> str | None:
    try:
        count, expr = get_plural(lang)
    except Exception:  # an unknown language simply gets no header
        return None
    return f"nplurals={count}; plural={expr};"


def _line(entry_field) -> int:
    doc = entry_field.text.file.doc
    return doc.span(entry_field.text.path).line if doc else 0


@dataclass
class ImportResult:
    applied: list[str] = field(default_factory=list)
    unchanged: int = 0
    stale: list[str] = field(default_factory=list)  # source changed since export
    unknown: list[str] = field(default_factory=list)  # no such field any more
    refused: list[tuple[str, str]] = field(default_factory=list)  # (field, why)
    written: list[Path] = field(default_factory=list)


def import_po(game: Game, po: polib.POFile, lang: str) -> tuple[ImportResult, dict[Path, str]]:
    """Plan the import: the new text of each file to change, and what happened per entry."""
    manifest = game.manifest
    assert manifest is not None
    source = manifest.source_language
    by_name = {f.name: f for f in fields(game)}
    result = ImportResult()
    edits: dict[int, list[Edit]] = defaultdict(list)
    files = {}
    seen: set[str] = set()
    for entry in po:
        if entry.obsolete or not entry.msgstr:
            continue
        if entry.msgctxt in seen:
            result.refused.append((entry.msgctxt, "the PO file repeats this msgctxt"))
            continue
        seen.add(entry.msgctxt or "")
        target = by_name.get(entry.msgctxt or "")
        if target is None:
            result.unknown.append(entry.msgctxt or entry.msgid[:40])
            continue
        values = target.text.value
        if values.get(source) != entry.msgid:
            result.stale.append(target.name)
            continue
        if values.get(lang) == entry.msgstr:
            result.unchanged += 1
            continue
        edit = Edit((*target.text.path, lang), entry.msgstr)
        assert target.text.file.doc is not None
        why = refusal(target.text.file.doc, edit)
        if why is not None:
            result.refused.append((target.name, why))
            continue
        key = id(target.text.file)
        files[key] = target.text.file
        edits[key].append(edit)
        result.applied.append(target.name)
    texts: dict[Path, str] = {}
    for key, file_edits in edits.items():
        loaded = files[key]
        assert loaded.doc is not None
        try:
            texts[loaded.doc.path] = apply_edits(loaded.doc.path, loaded.doc, file_edits)
        except (ValueError, OSError) as exc:  # the file changed, or YAML would not keep it
            names = {n for n, f in by_name.items() if f.text.file is loaded}
            result.applied = [n for n in result.applied if n not in names]
            result.refused.append((loaded.rel, f"no edit made in this file: {exc}"))
    return result, texts
