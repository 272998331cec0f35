"""What templates see: content models turned into plain, localized, attribute-friendly views.

Rulebooks and card layouts share it, so `card.text` means the same thing in both: the card's
text in the language being printed, with its numbers filled in from its parameters.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from toolkit.content.templating import fill


class View(dict):
    """A dict whose keys also read as attributes (`card.name`), as Jinja users expect."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def _is_localized(value: dict[Any, Any]) -> bool:
    return (
        bool(value)
        and all(
            isinstance(k, str) and len(k) in (2, 3) and k.isalpha() and k.islower() for k in value
        )
        and all(isinstance(v, str) for v in value.values())
    )


def localize(value: Any, lang: str) -> Any:
    """Localized dicts become strings in `lang`; models become Views, texts filled."""
    if isinstance(value, dict):
        if _is_localized(value):
            return value.get(lang, "")
        return View({k: localize(v, lang) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return [localize(v, lang) for v in value]
    if isinstance(value, BaseModel):
        view = View({k: localize(getattr(value, k), lang) for k in type(value).model_fields})
        text = getattr(value, "text", None)
        if isinstance(text, dict) and lang in text:
            view["text"] = fill(text[lang], value, lang)
        return view
    return value


_MADE: dict[tuple[str, int, str], tuple[Any, Any]] = {}


def _once(what: str, owner: Any, lang: str, make: Callable[[], Any]) -> Any:
    """`make()` once per owner object and language (not once per card). Keyed by the owner's
    id, and kept only while that very object is the owner, so a reloaded game is made anew."""
    key = (what, id(owner), lang)
    cached = _MADE.get(key)
    if cached is None or cached[0] is not owner:
        cached = (owner, make())
        _MADE[key] = cached
    return cached[1]


def _rules(manifest: Any, lang: str) -> Any:
    """The game's rules as a View (a game's rules can be a large tree)."""
    return _once("rules", manifest, lang, lambda: localize(manifest.rules, lang))


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
    return {
        "card": localize(card, lang),
        "glossary": glossary_terms(game, lang),
        "deck": View(id=deck.id, kind=deck.kind, name=deck.name.get(lang, ""), size=str(deck.size)),
        "game": View(id=game.id, title=game.manifest.title.get(lang, "")),
        "rules": _rules(game.manifest, lang),
        "lang": lang,
    }
