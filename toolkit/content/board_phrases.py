"""Which `{names}` a board's words may write, for the references check (R006) and the PO
import alike.

A style's `labels` entry that replaces a drawer's phrase (`count` on a track, `leg` on a
road) fills the phrase's names (`BoardKind.phrases`) by plain substitution. A label may be a
glossary term's id (`count: pcount`): the term's words are then the phrase, so they are
checked as the phrase is (its names, each at most MAX_FILLS times), not as a card's. A term
several labels print writes only the names all of them fill (a label that is no phrase
fills none); the rulebook and layouts print a term as written.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeGuard

from toolkit.content.templating import (
    MAX_FILLS,
    escaped_names,
    placeholders,
    repeated_names,
    stray_braces,
)
from toolkit.content.walk import Facts, Reference, Text

if TYPE_CHECKING:
    from toolkit.content.models.glossary import GlossaryTerm

MAX_LABEL = 200
"""Characters a board's label may print (a style's `labels`, in each language): a drawer puts
one label inside another's phrase (a track's `or` in its `count`, that in its `title`), so
their lengths multiply; a page holds a few words (probe 18: 360 M characters from 30 kB)."""


def _is_term(owner: object) -> TypeGuard[GlossaryTerm]:
    """Whether `owner` is a glossary term. The glossary model is imported when a game's
    glossary is read (toolkit.content.models loads it on first use): before that no object
    can be one of its terms, and the checks of a game without a glossary import none of it."""
    glossary: Any = sys.modules.get("toolkit.content.models.glossary")
    return glossary is not None and isinstance(owner, glossary.GlossaryTerm)


@dataclass(frozen=True)
class Phrase:
    """What a text printed as a board phrase may write, and how a finding names it."""

    names: tuple[str, ...]
    what: str  # "the board phrase 'count'", "the glossary term 'pcount'"
    printed_as: str = ""  # for a term: the labels that print it
    shared: bool = False  # a term more than one label prints


def _board_kind(model: object) -> Any:
    """The board kind entry of a board file's model; None for any other model."""
    from toolkit.content.models.board import board_kinds

    entry = board_kinds().get(getattr(model, "kind", None) or "")
    return entry if entry is not None and isinstance(model, entry.model) else None


def label_phrase(board: object, path: tuple[object, ...]) -> tuple[str, ...] | None:
    """The names the phrase at `path` of `board` fills (`style.labels.leg` on a road: `n`);
    None when `path` is no phrase of its board's kind."""
    if not _at_labels(path):
        return None  # the board models are not imported for a game without boards
    entry = _board_kind(board)
    return entry.phrases.get(str(path[-1])) if entry is not None else None


def _at_labels(path: tuple[object, ...]) -> bool:
    return len(path) >= 3 and tuple(path[-3:-1]) == ("style", "labels")


def _uses(refs: Iterable[Reference]) -> dict[str, list[tuple[Reference, tuple[str, ...] | None]]]:
    """Term id → each board label naming it, with the names it fills (None: no phrase)."""
    found: dict[str, list[tuple[Reference, tuple[str, ...] | None]]] = defaultdict(list)
    for ref in refs:
        if ref.namespace == "term":
            found[ref.id].append((ref, label_phrase(ref.file.model, ref.path)))
    return found


def _printed_as(uses: list[tuple[Reference, tuple[str, ...] | None]]) -> str:
    """'it prints as the board phrase 'count' of boards/b.yaml', each label naming a term."""

    def one(ref: Reference, names: tuple[str, ...] | None) -> str:
        key = ref.path[-1] if ref.path and isinstance(ref.path[-1], str) else "label"
        what = f"the board phrase {key!r}" if names is not None else f"the label {key!r}"
        return f"{what} of {ref.file.rel}"

    shown = [one(ref, names) for ref, names in uses[:3]]
    more = f" and {len(uses) - 3} more" if len(uses) > 3 else ""
    return "it prints as " + " and ".join(shown) + more


def _fills(names: tuple[str, ...]) -> str:
    return ", ".join(f"{{{n}}}" for n in names) if names else "no name"


def phrases(facts: Facts) -> Callable[[Text], Phrase | None]:
    """A function telling, for a text of the game, the phrase it is printed as: a style
    label's own words, or a glossary term that a phrase label names; None for any other."""
    uses = _uses(facts.refs)

    def of(text: Text) -> Phrase | None:
        owner = text.owner
        if _is_term(owner):
            named = uses.get(owner.id, [])
            if not any(names is not None for _, names in named):
                return None  # no phrase prints it: checked as any other text
            common = set.intersection(*(set(names or ()) for _, names in named))
            kept = tuple(n for n in (named[0][1] or ()) if n in common)
            what = f"the glossary term {owner.id!r}"
            return Phrase(kept, what, _printed_as(named), len(named) > 1)
        names = label_phrase(text.file.model, text.path)
        return None if names is None else Phrase(names, f"the board phrase {text.path[-1]!r}")

    return of


Unfilled = dict[str, tuple[tuple[str, str], ...]]


def unfilled_terms(facts: Facts) -> Unfilled:
    """Language → each glossary term a board phrase prints whose words there write one of
    the phrase's names (`{n} players`), with those words. The rulebook and layouts print a
    term as written, with nothing to fill its names: wherever they print one of these, its
    `{n}` prints (R006 there, as the term itself is checked as the phrase).

    Worked out once a run (`Facts.derived`: print-fit and the rulebook both ask), and
    without going through the texts when no board phrase prints a term (then no term has
    a phrase, so none is here): after one card edit of a bundled game each walked its
    ~1,100 texts for nothing."""
    return facts.derived(_unfilled_terms)


def _unfilled_terms(facts: Facts) -> Unfilled:
    uses = _uses(facts.refs)
    if not any(names is not None for named in uses.values() for _, names in named):
        return {}  # no term is a phrase (`phrases`): none writes names a board fills
    phrase_of = phrases(facts)
    found: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for text in facts.texts:
        owner = text.owner
        if not _is_term(owner):
            continue
        phrase = phrase_of(text)
        if phrase is None or not phrase.names:
            continue
        for lang, value in text.value.items():
            if set(placeholders(value)) & set(phrase.names):
                found[lang].append((owner.id, value))
    return {lang: tuple(terms) for lang, terms in sorted(found.items())}


def printed_at(text: str, words: str) -> int:
    """Where `text` (rendered) prints a term's `words` as written, or what is left of them
    after a filter (`|upper` prints `{N} PLAYERS`, `[:3]` prints `{n}`): the words, else the
    first of their `{names}`, case aside; -1 if neither."""
    at = text.find(words)
    if at >= 0 or "{" not in text:
        return at
    folded = text.casefold()
    found = [folded.find("{" + name.casefold() + "}") for name in placeholders(words)]
    return min((i for i in found if i >= 0), default=-1)


def unfilled_message(printer: str, term: str, lang: str, words: str, times: int = 1) -> str:
    """R006's words where the rulebook or a layout prints a term only a board fills."""
    shown = words if len(words) <= 60 else words[:59] + "…"
    names = ", ".join(f"{{{n}}}" for n in dict.fromkeys(placeholders(words)))
    return (
        f"{printer} prints the glossary term {term!r} ({lang}) as written"
        + (f" ({times:,} times)" if times > 1 else "")
        + f", {shown!r}: its"
        f" {names} is filled only where a board prints the term as a phrase; write the words"
        " here, or give the board a term of its own"
    )


def _may_write(phrase: Phrase) -> str:
    fills = _fills(phrase.names)
    if not phrase.printed_as:
        return f"it fills {fills}"
    if not phrase.shared:
        return f"{phrase.printed_as}, which fills {fills}"
    return (
        f"{phrase.printed_as}, and a term several labels print writes only the names all of"
        f" them fill (a label that is no phrase fills none): {fills}"
    )


def style_labels(facts: Facts) -> Callable[[Text], bool]:
    """A function telling whether a text prints as a board style's label (its own words at
    `style.labels`, or a glossary term a label there names): at most MAX_LABEL characters."""
    named = {ref.id for ref in facts.refs if ref.namespace == "term" and _at_labels(ref.path)}

    def of(text: Text) -> bool:
        if _is_term(text.owner):
            return text.owner.id in named
        return _at_labels(text.path) and _board_kind(text.file.model) is not None

    return of


def phrase_problems(value: str, lang: str, phrase: Phrase) -> list[str]:
    """Why `value`, the phrase's words in `lang`, cannot be printed as it: a name written
    more than MAX_FILLS times, braces that hold no name of the phrase."""
    problems = []
    why = f" ({phrase.printed_as})" if phrase.printed_as else ""
    repeated = repeated_names(value, phrase.names)
    if repeated:
        problems.append(
            f"{phrase.what} ({lang}) writes {{{repeated[0]}}} more than {MAX_FILLS} times:"
            " the board puts phrases inside one another, so each repeat multiplies the text"
            f" printed{why}"
        )
    for written in escaped_names(value, phrase.names):
        shown = written.replace("{{", "{", 1).replace("}}", "}", 1).replace(" ", "")
        problems.append(
            f"{phrase.what} ({lang}) writes {written}, which prints {shown!r} as written:"
            f" `{{{{` and `}}}}` print a brace; write {shown} for the board to fill it{why}"
        )
    stray = stray_braces(value, phrase.names)
    if stray:
        shown = ", ".join(repr(s) for s in stray)
        problems.append(
            f"{phrase.what} ({lang}) writes {shown}: {_may_write(phrase)}, nothing else (no"
            " format spec or conversion); `{{` and `}}` print a brace"
        )
    return problems
