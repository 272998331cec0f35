"""What every translation check looks at: one localized text, its languages and positions."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import overload

from pydantic import BaseModel

from toolkit.content import templating
from toolkit.content.game import MANIFEST, Game, LoadedFile
from toolkit.content.models.deck import CardBase
from toolkit.content.templating import INLINE_ICON, PLACEHOLDER
from toolkit.content.walk import Facts, Text
from toolkit.diagnostics import Span


@dataclass(frozen=True)
class TextView:
    """A localized text ready for checks: values by language, source language first."""

    text: Text
    source: str
    languages: tuple[str, ...]

    @property
    def values(self) -> dict[str, str]:
        return self.text.value

    @property
    def field(self) -> str:
        """The field's name (`text`, `name`, `question`...)."""
        names = [p for p in self.text.path if isinstance(p, str)]
        return names[-1] if names else ""

    @property
    def owner(self) -> BaseModel | None:
        return self.text.owner

    @cached_property
    def parameters(self) -> dict[str, str]:
        """The names the text may use and what they print (`parameter_values` of its owner),
        worked out once for the checks that all ask (parity, plurals). Read only."""
        return templating.parameter_values(self.owner)

    @property
    def is_card_text(self) -> bool:
        """A card's rules text: numbers in it must come from its parameters."""
        return isinstance(self.owner, CardBase) and self.field == "text"

    @property
    def file(self) -> str:
        return self.text.file.rel

    def span(self, lang: str) -> Span:
        doc = self.text.file.doc
        assert doc is not None
        return doc.span((*self.text.path, lang))

    def position(self, lang: str, offset: int) -> Span:
        """Where character `offset` of the `lang` text is written (else the text's start)."""
        doc = self.text.file.doc
        assert doc is not None
        return doc.position_in((*self.text.path, lang), offset)

    def label(self) -> str:
        return entry_label(self.text.file, self.text.path)


_NOT_WORDS = re.compile(rf"{PLACEHOLDER.pattern}|{INLINE_ICON.pattern}")


def prose(text: str) -> str:
    """The words a reader reads in a text: `{placeholders}` and inline icons (`:doubloon:`)
    are names for the machine, not words of any language, so they are blanked out (a
    translation keeps them as they are, and an icon named like a glossary term is no use
    of the term)."""
    return _NOT_WORDS.sub(" ", text)


def entry_label(loaded: LoadedFile, path: tuple[object, ...]) -> str:
    """A place in a content file as a designer names it: each entry by its id, then the
    field (`cards/treasure/name` for the name of card `treasure` in deck `cards`), not by
    its position in a list (`cards.8.name`). The manifest's own id is left out: its fields
    are the game's."""
    doc = loaded.doc
    value = doc.data if doc is not None else None
    parts: list[str] = []
    root_id = value.get("id") if isinstance(value, dict) else None
    if isinstance(root_id, str) and doc is not None and doc.path.name != MANIFEST:
        parts.append(root_id)
    fields: list[str] = []
    for seg in path:
        if isinstance(value, dict) and seg in value:
            value = value[seg]
        elif isinstance(value, list) and isinstance(seg, int) and 0 <= seg < len(value):
            value = value[seg]
            ident = value.get("id") if isinstance(value, dict) else None
            if isinstance(ident, str):  # the entry's id stands for `cards.8`
                parts.append(ident)
                fields = []
                continue
        else:
            value = None
        fields.append(str(seg))
    if fields:
        parts.append(".".join(fields))
    return "/".join(parts)


def views(game: Game, facts: Facts) -> Views:
    manifest = game.manifest
    assert manifest is not None
    return Views(facts, manifest.source_language, tuple(manifest.languages))


class Views(Sequence[TextView]):
    """The game's texts as views, in order, each file's made when first asked for
    (`by_file`): a check that skips a file whole (toolkit.content.unit_cache.Clean by file)
    makes none of its views. After one card edit the ~1,100 views of a bundled game were
    made for the edited file's ~30 to be looked at."""

    def __init__(self, facts: Facts, source: str, languages: tuple[str, ...]) -> None:
        self._runs = facts.by_file()
        self._made: list[list[TextView] | None] = [None] * len(self._runs)
        self._count = sum(len(texts) for _, texts in self._runs)
        self.source = source
        self.languages = languages

    def run(self, index: int) -> list[TextView]:
        """The views of the `index`th file's texts (made once)."""
        made = self._made[index]
        if made is None:
            source, languages = self.source, self.languages
            made = [TextView(t, source, languages) for t in self._runs[index][1]]
            self._made[index] = made
        return made

    def by_file(self) -> Iterator[tuple[LoadedFile, Iterable[TextView]]]:
        """Each file with its views (made when first iterated), in order."""
        for index, (loaded, _) in enumerate(self._runs):
            yield loaded, _Later(self, index)

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[TextView]:
        for index in range(len(self._runs)):
            yield from self.run(index)

    @overload
    def __getitem__(self, at: int) -> TextView: ...
    @overload
    def __getitem__(self, at: slice) -> Sequence[TextView]: ...
    def __getitem__(self, at: int | slice) -> TextView | Sequence[TextView]:
        return list(self)[at]


class _Later(Iterable[TextView]):
    """One file's views, made when iterated."""

    __slots__ = ("_index", "_views")

    def __init__(self, views: Views, index: int) -> None:
        self._views, self._index = views, index

    def __iter__(self) -> Iterator[TextView]:
        return iter(self._views.run(self._index))


def by_file(texts: Sequence[TextView]) -> Iterator[tuple[LoadedFile, Iterable[TextView]]]:
    """The views of `texts` in order, cut into runs of one file each: those of `views`
    made only for the runs iterated; any other sequence's as it stands."""
    if isinstance(texts, Views):
        yield from texts.by_file()
        return
    run: list[TextView] = []
    for view in texts:
        if run and run[-1].text.file is not view.text.file:
            yield run[0].text.file, run
            run = []
        run.append(view)
    if run:
        yield run[0].text.file, run
