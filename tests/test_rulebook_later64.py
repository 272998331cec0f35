"""A rulebook's context holds each deck's cards as a `Later` (toolkit.render.context), made
when a render first reads them: a template that prints a deck's name and size makes none of
its cards' views. Whatever a template does with the deck, it prints what it prints over the
cards made at once, and its kept reads find the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.test_rulebook_reads import TEMPLATES, _context
from toolkit.content.game import load_game
from toolkit.render import rulebook_reads as reads
from toolkit.render import rulebook_source
from toolkit.render.context import Later, View
from toolkit.render.jinja_cache import CachedSandbox

MORE = {
    "deck": "{{ decks.d }}",
    "deck-total": "{{ decks.d.total }} {{ decks.d | length }} {{ 'cards' in decks.d }}",
    "deck-keys": "{{ decks.d | list }} {{ decks.d.keys() | list }}",
    "deck-items": "{% for k, v in decks.d.items() %}{{ k }}={{ v | length }};{% endfor %}",
    "deck-values": "{{ decks.d.values() | list | length }}",
    "deck-equal": "{{ decks.d == decks.d }} {{ decks.d != {'id': 'd'} }}",
    "deck-json": "{{ decks.d | tojson }}",
    "deck-dictsort": "{{ (decks.d | dictsort)[0][0] }} {{ decks.d | dictsort | length }}",
    "deck-pprint": "{{ decks.d | pprint }}",
    "deck-copy": "{{ decks.d.copy() | length }} {{ decks.d.copy().cards | length }}",
    "deck-or": "{{ (decks.d | list)[0] }} {{ decks.d.cards[0].name }}",
    "deck-get": "{{ decks.d.get('cards') | length }} {{ decks.d.get('nothing', 1) }}",
    "deck-pop": "{{ decks.d.pop('cards') | length }} {{ decks.d }}",
    "deck-set": "{% set _ = decks.d.update({'cards': []}) %}{{ decks.d.cards }}",
    "deck-setdefault": "{{ decks.d.setdefault('cards', 1) | length }}",
    "deck-popitem": "{{ decks.d.popitem() }}",
    "deck-in-list": "{{ decks.d in [decks.d] }} {{ [decks.d] == [decks.d] }}",
    "deck-string": "{{ decks.d | string | length }} {{ decks | string | length }}",
    "decks-values": "{% for d in decks.values() %}{{ d.cards | length }}{% endfor %}",
    "cards-selectattr": "{{ decks.d.cards | selectattr('copies', 'gt', 1) | list | length }}",
    "format": "{{ '{0}'.format(decks.d) }}",
}


def _later(context: dict[str, Any]) -> dict[str, Any]:
    """`context` with its deck's cards a `Later` (made once, as the context's)."""
    deck = context["decks"]["d"]
    cards = dict.__getitem__(deck, "cards")
    made: list[int] = []

    def make() -> Any:
        made.append(1)
        return cards

    lazy = View({k: (Later(make) if k == "cards" else v) for k, v in deck.items()})
    lazy.__dict__.update(deck.__dict__)
    context["decks"] = View(d=lazy).named("`decks`", "deck")
    return context


def _outcome(template: str, context: dict[str, Any], plain_too: bool = True) -> Any:
    """What a recorded render of `template` over `context` gives: its text (or error), its
    kept reads and what they found (or that none are kept), and a plain copy's render."""
    sandbox = CachedSandbox(keep_trailing_newline=True)
    compiled = sandbox.template(template, "rulebook")
    log = reads.Log()
    try:
        text = sandbox.render(compiled, reads.recording_copy(context, log))
    except Exception as exc:  # noqa: BLE001 - an error is an answer too
        text = f"error {type(exc).__name__}: {exc}"
    try:
        kept: Any = [reads.kept_reads(log), reads.kept_tokens(log)]
        kept.append(reads.read_digest(context, kept[0]))
    except reads.NotKept:
        kept = "not kept"
    if not plain_too:
        return text, kept
    try:
        plain = sandbox.render(compiled, rulebook_source._own_copy(context, {}))
    except Exception as exc:  # noqa: BLE001
        plain = f"error {type(exc).__name__}: {exc}"
    return text, kept, plain


@pytest.mark.parametrize("name", sorted({**TEMPLATES, **MORE}))
def test_a_deck_whose_cards_are_made_when_read_renders_and_reads_alike(name):
    template = {**TEMPLATES, **MORE}[name]
    assert _outcome(template, _later(_context())) == _outcome(template, _context())


def test_cards_no_render_reads_are_not_made():
    context = _later(_context())
    deck = dict.__getitem__(context["decks"], "d")
    text, kept = _outcome("{{ decks.d.total }} {{ decks.d | length }}", context, False)
    assert text == "6 3"
    assert type(dict.__getitem__(deck, "cards")) is Later  # not even for the reads' tokens
    assert kept != "not kept"


def test_the_whisky_rulebooks_context_makes_only_the_decks_it_reads(tmp_path: Path):
    game = load_game(Path(__file__).parent.parent / "content" / "whisky-game")
    source = rulebook_source.read_rulebook(game.rulebook["en"], game.root)
    eager = rulebook_source.rulebook_context(game, "en")
    lazy = rulebook_source._context(game, "en", later=True)
    recorded = _outcome(source, lazy, plain_too=False)
    left = {
        name
        for name, deck in lazy["decks"].items()
        if type(dict.__getitem__(deck, "cards")) is Later
    }
    assert left == {"bottles", "lost-bottles", "tokens"}  # the English rulebook prints
    # their names and sizes
    assert recorded == _outcome(source, eager, plain_too=False)
    assert _outcome(source, lazy) == _outcome(source, eager)
