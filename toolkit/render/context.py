"""What templates see: content models turned into plain, localized, attribute-friendly views.

Rulebooks and card layouts share it, so `card.text` means the same thing in both: the card's
text in the language being printed, with its numbers filled in from its parameters.
"""

from __future__ import annotations

import re
import types
import weakref
from collections.abc import Callable, Collection
from functools import partial
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel

from toolkit.content.models.base import LangCode, Localized
from toolkit.content.templating import field_names, fill


class View(dict):
    """A dict whose keys also read as attributes (`card.name`), as Jinja users expect.

    `_what` says what it stands for (`card 'advance'`, `the rules`), so that a template
    naming a field it lacks is told so in those words (toolkit.render.undefined); templates
    cannot read it (the sandbox refuses names that start with '_')."""

    _what = ""
    _item = "field"
    _items_as_attributes = True  # the sandbox reads `card.name` as the item (jinja_cache)

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def named(self, what: str, item: str = "field") -> View:
        """This view, saying what it stands for and what its keys are."""
        self._what, self._item = what, item
        return self


def named(value: Any, what: str) -> Any:
    """`value` saying what it stands for, if it is a View."""
    return value.named(what) if isinstance(value, View) else value


def describe(model: BaseModel) -> str:
    """What a model is, as a designer says it: its kind of thing and its id
    (`card 'advance'`, `deck 'cards'`, `the game`)."""
    noun = _NOUNS.get(type(model))
    if noun is None:
        noun = _NOUNS[type(model)] = _noun(type(model))
    if not noun:
        return "the game"
    ident = model_attribute(model, "id")
    return f"{noun} {ident!r}" if isinstance(ident, str) else f"the {noun}"


def model_attribute(model: BaseModel, name: str) -> Any:
    """`getattr(model, name, None)`, answered None at once where it can only be: a name that
    is no field of the model's class, nothing its classes define, not in the model's own
    `__dict__`, of a class that takes no extra fields. pydantic's `__getattr__` raised and
    caught an AttributeError for it: ~580 times a rulebook context (a board's spaces and
    links have no `id`, most models no `text`), ~0.6 ms."""
    kind = type(model)
    lacks = _LACKS.get((kind, name))
    if lacks is None:
        lacks = _LACKS[(kind, name)] = (
            name not in kind.__pydantic_fields__
            and not any(name in vars(c) for c in kind.__mro__)
            and kind.model_config.get("extra") != "allow"
        )
    if lacks and name not in model.__dict__:
        return None
    return getattr(model, name, None)


_LACKS: dict[tuple[type, str], bool] = {}
"""(model class, name) → whether `model_attribute` answers None without asking the model."""


_NOUNS: dict[type, str] = {}
"""A model class → the noun `describe` says for it ("" for the game's manifest): worked out
once per class, not once per card and language."""


def _noun(kind: type) -> str:
    from toolkit.content.models.deck import CardBase, DeckBase
    from toolkit.content.models.manifest import ManifestBase

    if issubclass(kind, ManifestBase):
        return ""
    if issubclass(kind, CardBase):
        return "card"
    if issubclass(kind, DeckBase):
        return "deck"
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", kind.__name__).lower()


def _is_localized(value: dict[Any, Any], langs: frozenset[str] | None = None) -> bool:
    """A dict of texts by language code ({"fr": …, "en": …}): one plain loop, this runs for
    every dict field of every card in every language. With `langs` (the game's languages),
    one key at least must be one of them: a free tree's `dice: {red: d6, blu: d8}` is no
    text."""
    if not value:
        return False
    if langs is not None and not any(key in langs for key in value):
        return False
    for key, text in value.items():
        if not (
            isinstance(key, str)
            and isinstance(text, str)
            and len(key) in (2, 3)
            and key.isalpha()
            and key.islower()
        ):
            return False
    return True


def localize(value: Any, lang: str, langs: frozenset[str] | None = None) -> Any:
    """Localized dicts become strings in `lang`; models become Views, texts filled. With
    `langs` (the game's languages), a dict is a text only if it names one of them."""
    if type(value) in _AS_THEY_ARE:  # most of a game's values: no (slower) ABC check asked
        return value
    if isinstance(value, dict):
        if _is_localized(value, langs):
            return value.get(lang, "")
        return View({k: localize(v, lang, langs) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return [localize(v, lang, langs) for v in value]
    if isinstance(value, BaseModel):
        return _model_view(value, lang, {}, langs)
    return value


_AS_THEY_ARE = frozenset({str, int, float, bool, type(None)})
"""The exact types `localize` gives back as they are (no dict, list, tuple or model)."""


def game_languages(game: Any) -> frozenset[str] | None:
    """The game's languages (`localize`'s `langs`), None without a manifest."""
    languages = getattr(getattr(game, "manifest", None), "languages", None)
    return frozenset(languages) if isinstance(languages, list) else None


def _model_view(
    value: BaseModel, lang: str, given: dict[str, Any], langs: frozenset[str] | None = None
) -> View:
    """`localize` of a model, with the views of the fields in `given` as they are given."""
    plain = _plain_dicts(type(value))
    by_language = _by_language(type(value))
    view = View(
        {
            k: given[k]
            if k in given
            else _in_language(getattr(value, k), lang)
            if k in by_language
            else _entries(getattr(value, k), lang, langs)
            if k in plain
            else localize(getattr(value, k), lang, langs)
            for k in field_names(value)
        }
    )
    view.named(describe(value))
    text = model_attribute(value, "text")
    if isinstance(text, dict) and lang in text:
        view["text"] = fill(text[lang], value, lang)
    return view


def _entries(value: Any, lang: str, langs: frozenset[str] | None = None) -> Any:
    """`localize` of a field that is never a text by language: a dict of it is a View of its
    entries, whatever its keys look like (`params: {die: d6}`)."""
    if isinstance(value, dict):
        return View({k: localize(v, lang, langs) for k, v in value.items()})
    return localize(value, lang, langs)


_PLAIN: dict[type, frozenset[str]] = {}


def _plain_dicts(kind: type[BaseModel]) -> frozenset[str]:
    """The fields of a model class that never hold a text by language: not marked
    `Localized` and not free (`Any`). `localize` tells a text from other dicts by its keys
    (two or three lower-case letters) only where the model does not say (a free tree of
    rules); a card's `params: {die: d6}` looked like one."""
    kept = _PLAIN.get(kind)
    if kept is None:
        kept = _PLAIN[kind] = frozenset(
            name
            for name, info in kind.model_fields.items()
            if not _may_be_text(info.annotation, tuple(info.metadata))
        )
    return kept


_BY_LANGUAGE: dict[type, frozenset[str]] = {}


def _by_language(kind: type[BaseModel]) -> frozenset[str]:
    """The fields of a model class that hold one string per language code but are no text
    to translate (`files.rulebook: {en: rulebook/en.md}`): a template reads the one of the
    language it prints, as it did before `_plain_dicts` (it printed the whole dict)."""
    kept = _BY_LANGUAGE.get(kind)
    if kept is None:
        kept = _BY_LANGUAGE[kind] = frozenset(
            name
            for name, info in kind.model_fields.items()
            if get_origin(info.annotation) is dict
            and (args := get_args(info.annotation))
            and args[0] == LangCode
            and _is_str(args[1])
        )
    return kept


def _is_str(ann: Any) -> bool:
    if get_origin(ann) is Annotated:
        return _is_str(get_args(ann)[0])
    return ann is str


def _in_language(value: Any, lang: str) -> Any:
    return value.get(lang, "") if isinstance(value, dict) else value


def _may_be_text(ann: Any, meta: tuple[Any, ...] = ()) -> bool:
    """Whether a field of annotation `ann` (with pydantic's `meta`) may hold a text by
    language."""
    if any(isinstance(m, Localized) for m in meta):
        return True
    if ann is Any or ann is object or ann is dict:
        return True
    origin, args = get_origin(ann), get_args(ann)
    if origin is Annotated:
        return _may_be_text(args[0], tuple(args[1:]))
    if origin in (Union, types.UnionType):
        return any(_may_be_text(arg) for arg in args)
    if origin is dict:
        return not args or args[1] is Any or args[1] is object
    return origin is None and isinstance(ann, type) and issubclass(ann, dict)


def localized_card(game: Any, card: Any, lang: str) -> Any:
    """`localize(card, lang)`, made once per loaded game, card and language
    (`game.print_memo`): a card's context and the rulebook's deck read the same view (each
    reader leaves it as it is: `resolve` and the rulebook copy what they add to)."""
    memo = getattr(game, "print_memo", None)
    key = ("card-view", id(card), lang)
    kept = memo.get(key) if memo is not None else None
    # the card is kept with its view: an id is never taken by another object
    if kept is not None and kept[0] is card:
        return kept[1]
    view = localize(card, lang, game_languages(game))
    if memo is not None:
        memo[key] = (card, view)
    return view


def card_entries(game: Any, card: BaseModel, lang: str, names: Collection[str]) -> dict[str, Any]:
    """The entries `names` of `localized_card(game, card, lang)` (those the card has), each
    worked out as that view works it out, the card's other fields left alone: the view
    itself when it is made already. The card reference's budgets (toolkit.checks.
    card_reference_bounds) read a few strings of every card of every deck in every rulebook
    language; making whole views of them (each field, each nested effect) was most of their
    work after a card edit (~20 µs a card and language), and nothing else used the views."""
    memo = getattr(game, "print_memo", None)
    kept = memo.get(("card-view", id(card), lang)) if memo is not None else None
    if kept is not None and kept[0] is card:
        view = kept[1]
        return {k: view[k] for k in names if k in view}
    langs = game_languages(game)
    plain, by_language = _plain_dicts(type(card)), _by_language(type(card))
    fields = field_names(card)
    entries = {
        k: _in_language(getattr(card, k), lang)
        if k in by_language
        else _entries(getattr(card, k), lang, langs)
        if k in plain
        else localize(getattr(card, k), lang, langs)
        for k in fields
        if k in names
    }
    text = getattr(card, "text", None)
    if "text" in names and isinstance(text, dict) and lang in text:
        entries["text"] = fill(text[lang], card, lang)
    return entries


def localized_deck(game: Any, deck: Any, lang: str, later: bool = False) -> View:
    """`localize(deck, lang)`, its cards' views those of `localized_card`; with `later`, its
    `cards` a `Later` that makes them (a rulebook's context: see `Later`)."""
    cards = getattr(deck, "cards", None)
    if not isinstance(cards, list) or not all(isinstance(c, BaseModel) for c in cards):
        return localize(deck, lang, game_languages(game))

    def views() -> list[Any]:
        return [localized_card(game, c, lang) for c in cards]

    given = {"cards": Later(views) if later else views()}
    return _model_view(deck, lang, given, game_languages(game))


def later_view(value: BaseModel, lang: str, langs: frozenset[str] | None = None) -> View:
    """`localize(value, lang, langs)` of a model, each field that is no scalar a `Later` that
    makes its view (a rulebook's board: a bundled game's English rulebook reads its spaces' kinds
    and its regions' names, not its links, routes and style, ~0.35 ms of views)."""
    plain, by_language = _plain_dicts(type(value)), _by_language(type(value))
    given = {
        k: Later(partial(_field_view, value, k, lang, langs, k in plain, k in by_language))
        for k in field_names(value)
        if type(getattr(value, k)) not in _AS_THEY_ARE
    }
    return _model_view(value, lang, given, langs)


def _field_view(
    value: BaseModel,
    k: str,
    lang: str,
    langs: frozenset[str] | None,
    plain: bool,
    by_language: bool,
) -> Any:
    """The view of field `k` of `value`, as `_model_view` makes it."""
    if by_language:
        return _in_language(getattr(value, k), lang)
    if plain:
        return _entries(getattr(value, k), lang, langs)
    return localize(getattr(value, k), lang, langs)


class Later:
    """A value of a rulebook's context made when a render first reads it
    (toolkit.render.rulebook_reads, which alone holds such a context): a deck's cards, each
    card's view made (~16 µs a card and language), where a rulebook may print only the
    deck's name and size (a bundled game's prints those of three decks of its five: 87
    cards' views, ~1.4 ms of a card edit's `validate`)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


_MADE: dict[tuple[str, int, str], tuple[weakref.ref[Any], Any]] = {}
"""(what, id(owner), language) → (a weak reference to the owner, what was made of it). The
owner is not kept alive by it, and goes from it with the owner: keeping the owner itself
kept every loaded game's rules and glossary for good (a language server grew by them at
each edit: ~13 MB with a 2 MB game.yaml)."""

MAX_MADE = 64
"""Entries kept at most (the oldest goes first), should an owner outlive its use."""


def _once(what: str, owner: Any, lang: str, make: Callable[[], Any]) -> Any:
    """`make()` once per owner object and language (not once per card). Keyed by the owner's
    id, and kept only while that very object lives, so a reloaded game is made anew."""
    key = (what, id(owner), lang)
    cached = _MADE.get(key)
    if cached is not None and cached[0]() is owner:
        return cached[1]
    made = make()
    try:
        ref = weakref.ref(owner, partial(_forget, key))
    except TypeError:  # an owner that takes no weak reference: made at each call
        return made
    _MADE.pop(key, None)
    while len(_MADE) >= MAX_MADE:
        _MADE.pop(next(iter(_MADE)), None)
    _MADE[key] = (ref, made)
    return made


def _forget(key: tuple[str, int, str], ref: weakref.ref[Any]) -> None:
    """The owner of `key` is gone: what was made of it goes (unless a newer owner, which
    took its id, replaced the entry)."""
    cached = _MADE.get(key)
    if cached is not None and cached[0] is ref:
        _MADE.pop(key, None)


def _rules(manifest: Any, lang: str) -> Any:
    """The game's rules as a View (a game's rules can be a large tree)."""
    langs = frozenset(manifest.languages)
    return _once(
        "rules", manifest, lang, lambda: named(localize(manifest.rules, lang, langs), "`rules`")
    )


def glossary_terms(game: Any, lang: str) -> dict[str, str]:
    """The game's glossary as term id → text in `lang` ({} without a glossary): layouts,
    boards and rulebooks print a term as the translator fixed it."""
    model = game.glossary.model if game.glossary else None
    if model is None:
        return {}
    return _once("glossary", model, lang, lambda: {t.id: t.text.get(lang, "") for t in model.terms})


def card_context(game: Any, deck: Any, card: Any, lang: str) -> dict[str, Any]:
    """The names a card layout's texts, icons, paths and `when` tests can use.

    - `card`: the card's fields (`name`, `text`, `copies`, `params`, its kind's own fields)
      with texts in `lang` and the text's {placeholders} filled
    - `deck`: the deck's `id`, `kind`, `name` in `lang` and `size`
    - `game`: the game's `id` and `title` in `lang`
    - `rules`: the manifest's rules parameters
    - `glossary`: term id → text in `lang`
    - `label`: the layout's own `labels` in `lang`
    - `lang`: the language code
    """
    # made once per loaded game, deck, card and language (`game.print_memo`): a card's front
    # and back, and the checks that resolve them, read the same context (`resolve` copies it
    # before adding to it, and layouts are rendered in the immutable sandbox)
    memo = getattr(game, "print_memo", None)
    key = ("card-context", id(deck), id(card), lang)
    kept = memo.get(key) if memo is not None else None
    # the objects are kept with the context: an id is never taken by another object
    if kept is not None and kept[0] is deck and kept[1] is card:
        return kept[2]
    context = _card_context(game, deck, card, lang)
    if memo is not None:
        memo[key] = (deck, card, context)
    return context


def _card_context(game: Any, deck: Any, card: Any, lang: str) -> dict[str, Any]:
    return {
        "card": localized_card(game, card, lang),
        "glossary": glossary_terms(game, lang),
        "deck": View(
            id=deck.id, kind=deck.kind, name=deck.name.get(lang, ""), size=str(deck.size)
        ).named(f"deck {deck.id!r}"),
        "game": View(id=game.id, title=game.manifest.title.get(lang, "")).named("the game"),
        "rules": _rules(game.manifest, lang),
        "lang": lang,
    }
