"""Units from the localized fields of the game's YAML (cards, decks, manifest, glossary),
applied back in place by `yaml_edit` (only the changed scalars move)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from toolkit.checks.printfit import capacities
from toolkit.content.board_phrases import MAX_LABEL, phrase_problems, phrases, style_labels
from toolkit.content.game import Game
from toolkit.content.models.deck import CardBase
from toolkit.content.templating import (
    escaped_message,
    escaped_names,
    lone_brace_message,
    lone_braces,
    parameter_values,
    placeholders,
)
from toolkit.content.walk import Facts, Text, collect
from toolkit.i18n.fields import Field, fields
from toolkit.i18n.units import Applied, Change, Unit, register
from toolkit.i18n.yaml_edit import Edit


class FieldUnits:
    name = "field"

    def units(self, game: Game, lang: str) -> list[Unit]:
        source = game.checked_manifest.source_language
        out = []
        room = capacities(game, lang) if lang != source else None
        for entry in fields(game):
            values = entry.text.value
            if not values.get(source):
                continue
            out.append(
                Unit(
                    self.name,
                    entry.name,
                    values[source],
                    values.get(lang, "") if lang != source else "",
                    _file(entry),
                    _line(entry),
                    tuple(_notes(game, entry, lang, room)),
                    brace_format=bool(placeholders(values[source])),
                )
            )
        return out

    def apply(self, game: Game, lang: str, changes: list[Change]) -> Applied:
        facts = collect(game)
        by_name = {f.name: f for f in fields(game, facts)}
        refused = _board_words(facts, lang)
        done = Applied()
        for change in changes:
            target = by_name[change.unit.key]
            why = refused(target.text, change.text)
            if why is not None:
                done.refused.append((change, why))
                continue
            doc = target.text.file.doc
            assert doc is not None
            edit = Edit((*target.text.path, lang), change.text)
            done.edit(doc, edit, change)
        return done

    def inputs(self, game: Game, lang: str | None) -> list[Path]:
        return [f.doc.path for f in game.files() if f.doc is not None]


def _board_words(facts: Facts, lang: str) -> Callable[[Text, str], str | None]:
    """Why a translation cannot be a board's words, as validate would say it (R006 for a
    phrase's braces, P016 for a label's length), or None: checked at the PO line, as a
    placeholder the msgid lacks is, not left for validate to find in the YAML."""
    phrase_of, is_label = phrases(facts), style_labels(facts)

    def why(text: Text, words: str) -> str | None:
        phrase = phrase_of(text)
        problems = phrase_problems(words, lang, phrase) if phrase is not None else []
        if problems:
            return problems[0]
        escaped = escaped_names(words) if phrase is None else []
        if escaped:  # `{{points}}` prints "{points}" (R006): refused here, not applied
            return escaped_message(escaped[0], lang)
        lone = lone_braces(words) if phrase is None else []
        if lone:  # `{n:{n}}`, a brace alone: R006 too
            return lone_brace_message(lone[0], lang)
        if len(words) > MAX_LABEL and is_label(text):
            return (
                f"the board label would be {len(words):,} characters; a label prints at most"
                f" {MAX_LABEL} (the board puts labels inside one another's phrases)"
            )
        return None

    return why


def _file(entry: Field) -> str:
    """The file the text is written in, relative to the game folder: for a sheet deck's own
    keys (its name), the keys file beside the sheet."""
    rel = entry.name.split(":", 1)[0]
    doc = entry.text.file.doc
    beside = doc.span(entry.text.path).file if doc else None
    return (Path(rel).parent / Path(beside).name).as_posix() if beside else rel


def _line(entry: Field) -> int:
    doc = entry.text.file.doc
    return doc.span(entry.text.path).line if doc else 0


def _notes(
    game: Game, entry: Field, lang: str, room: Callable[[object, str], int | None] | None
) -> list[str]:
    """What a translator needs beside the text: the card, the room on the card (`room`,
    none in the source language), the values its placeholders print."""
    source = game.checked_manifest.source_language
    values = entry.text.value
    owner = entry.text.owner
    notes = []
    name = getattr(owner, "name", None)
    if isinstance(name, dict) and name.get(source) and entry.name.endswith(".text"):
        notes.append(f"card: {name.get(source)}")
    field = entry.name.rsplit(".", 1)[-1]
    if isinstance(owner, CardBase) and field in ("text", "name") and room is not None:
        fits = room(owner, field)
        if fits:
            notes.append(
                f"fits about {fits} characters at the smallest print size "
                f"(source: {len(values[source])})"
            )
    used = placeholders(values[source])
    if used:
        known = parameter_values(owner)
        notes.append("placeholders: " + ", ".join(f"{{{p}}}={known.get(p, '?')}" for p in used))
    return notes


register(FieldUnits())
