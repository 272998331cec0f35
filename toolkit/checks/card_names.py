"""R013: two cards of a deck that players cannot tell apart by their name.

Cards of a deck often share a name on purpose: the three sections of one panorama, a bottle
at each difficulty, the same place at several values. What confuses players is narrower,
and that is what is reported (a warning, once per card, at its name):
  - two cards named the same in one language but differently in another: a translation that
    turned two cards into one name (the players of that language read "Dash" twice for two
    different cards);
  - two cards the same in everything but their id: one card printed twice under two ids,
    which `copies:` says in one place (an edit to one would miss the other).
Names are compared as players read them: case ignored (not accents), runs of spaces as one,
an accent typed or composed alike (Unicode's canonical forms).
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterator
from typing import Any

from toolkit.checks import CheckFamily, errors_only, register, wanted
from toolkit.content.game import Game, LoadedFile
from toolkit.content.unit_cache import active
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic, Severity, rule

R_CARD_NAME = rule(
    "R013",
    "duplicate-card-name",
    "Two cards of a deck share a name in one language but not in another, or are one card"
    " under two ids.",
    Severity.WARNING,
)
_OWN = frozenset({"id", "copies"})  # what two copies of one card may differ by


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    if not wanted(R_CARD_NAME):  # it only warns: the validity gate's run leaves it out
        return
    for loaded in game.decks:
        if loaded.model is None or loaded.doc is None:
            continue
        yield from _kept_deck_findings(loaded)


KIND = "card-names"
"""The unit kind of one deck's R013 findings."""


def _kept_deck_findings(loaded: LoadedFile) -> list[Diagnostic]:
    """`_deck_findings`, kept between `validate` runs as a unit named by the game folder
    with the other content files left out (toolkit.content.unit_cache, as the card
    reference's): a deck's findings are worked out from its own cards alone, so an edit in
    another deck reads them back and its cards' names are not compared again."""
    units = active()
    name = None
    # (the validity gate's run, errors only: worked out, as without units)
    if units is not None and units.content is not None and not errors_only():
        assert loaded.doc is not None
        # (its place too: a file that held two decks would not name their units alike)
        here = os.path.abspath(loaded.doc.path)
        name = units.framed_name_but(f"{KIND}:{loaded.rel}", here)
    if units is None or name is None:
        return list(_deck_findings(loaded))
    kept = units.get(name, _read_found)
    if kept is not None:
        return kept
    found = list(_deck_findings(loaded))
    from toolkit.content.validate_cache import finding_record

    units.put(name, [finding_record(d) for d in found])
    units.framed.append(name)
    return found


def _read_found(kept: Any) -> list[Diagnostic]:
    """A deck's kept findings (ValueError for a value not so kept)."""
    from toolkit.content.validate_cache import finding_from_record

    if type(kept) is not list:
        raise ValueError("not findings")
    found = [finding_from_record(record) for record in kept]
    if any(d.code != R_CARD_NAME.code for d in found):
        raise ValueError("not a card name finding")
    return found


def _deck_findings(loaded: LoadedFile) -> Iterator[Diagnostic]:
    """R013 of one deck's cards, in card order."""
    assert loaded.model is not None and loaded.doc is not None
    cards = list(getattr(loaded.model, "cards", None) or [])
    first: dict[tuple[str, str], int] = {}
    for index, card in enumerate(cards):
        names = _names(card)
        shared: dict[int, list[str]] = {}  # an earlier card → the languages in common
        for lang, text in names.items():
            earlier = first.setdefault((lang, _flat(text)), index)
            if earlier != index:
                shared.setdefault(earlier, []).append(lang)
        for earlier, langs in shared.items():
            message = _said(cards[earlier], card, names, langs)
            if message is None:
                continue
            lang = langs[0]
            path = ("cards", index, "name") + ((lang,) if lang else ())
            at = loaded.doc.span(path)
            before = loaded.doc.span(("cards", earlier, "id"))
            where = f"{loaded.rel}:{before.cell or before.line}"
            yield R_CARD_NAME.at(loaded.rel, at, message.replace("{where}", where))
            break  # one finding per card: the first card it cannot be told from


def _said(other: Any, card: Any, names: dict[str, str], langs: list[str]) -> str | None:
    """What is wrong with `card` sharing its name in `langs` with the earlier `other`, or
    None when nothing is (the same name in every language, the cards differing otherwise)."""
    theirs = _names(other)
    differ = [lang for lang in names if lang not in langs and lang in theirs]
    if differ:
        lang, elsewhere = langs[0], differ[0]
        return (
            f"card {card.id!r} is named {names[lang]!r} in {lang}, as card {other.id!r}"
            f" ({{where}}) is, but not in {elsewhere} ({names[elsewhere]!r} and"
            f" {theirs[elsewhere]!r}): name them alike in every language, or apart in every"
            f" language (as it is, the players of {lang} cannot tell them apart)"
        )
    if _rest(card) == _rest(other):
        return (
            f"card {card.id!r} is card {other.id!r} ({{where}}) again under another id:"
            " give that card the sum of their copies and remove this one"
        )
    return None


def _names(card: Any) -> dict[str, str]:
    name = getattr(card, "name", None)
    if isinstance(name, dict):
        return {str(k): v for k, v in name.items() if isinstance(v, str) and v.strip()}
    return {"": name} if isinstance(name, str) and name.strip() else {}


def _flat(text: str) -> str:
    # canonical caseless: "Café" typed (é) and pasted (e + combining acute) are one name
    folded = unicodedata.normalize("NFC", unicodedata.normalize("NFD", text).casefold())
    return " ".join(folded.split())


def _rest(card: Any) -> Any:
    dump = getattr(card, "model_dump", None)
    return {k: v for k, v in dump().items() if k not in _OWN} if callable(dump) else card


register(
    CheckFamily("card-names", "Cards of a deck that players cannot tell apart by name.", check)
)
