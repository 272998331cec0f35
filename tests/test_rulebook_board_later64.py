"""A rulebook's context holds each field of a board that is no scalar as a `Later`
(toolkit.render.context.later_view), made when a render first reads it: the Whisky English
rulebook reads the map's spaces and regions, not its links, routes and style. Whatever a
template does with a board, it prints and reads what it does over the board made at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_rulebook_later64 import _outcome
from toolkit.content.game import load_game
from toolkit.render import rulebook_reads as reads
from toolkit.render import rulebook_source
from toolkit.render.context import Later, later_view, localize

WHISKY = Path(__file__).parent.parent / "content" / "whisky-game"

BOARD_TEMPLATES = [
    "{{ boards.map.spaces | selectattr('kind', 'equalto', 'pub') | list | length }}",
    "{{ boards.map.links | length }} {{ boards.map.links[0] | dictsort | length }}",
    "{{ boards.map.name }} {{ boards.map.id }} {{ boards.map.kind }}",
    "{{ boards.map | dictsort | length }} {{ boards.map.keys() | list }}",
    "{{ boards.map.items() | list | length }} {{ boards.map.values() | list | length }}",
    "{{ boards.map == boards.map }} {{ boards.map != {} }} {{ boards.map in [boards.map] }}",
    "{{ boards.map.style | tojson | length }} {{ boards.map.routes | length }}",
    "{{ boards.map.pop('links') | length }} {{ boards.map | length }}",
    "{{ boards.map.copy().links | length }} {{ boards.map.get('routes') | length }}",
    "{{ boards.map | tojson | length }}",
    "{{ boards.map }}",
    "{{ boards | string | length }}",
    "{% for k, v in boards.map.items() %}{{ k }};{% endfor %}",
    "{{ boards.map.regions | map(attribute='name') | join(', ') }}",
]


@pytest.fixture(scope="module")
def whisky():
    return load_game(WHISKY)


@pytest.mark.parametrize("template", BOARD_TEMPLATES)
def test_a_board_made_when_read_renders_and_reads_alike(whisky, template):
    lazy = rulebook_source._context(whisky, "en", later=True)
    eager = rulebook_source.rulebook_context(whisky, "en")
    assert _outcome(template, lazy) == _outcome(template, eager)


def test_the_whisky_rulebook_leaves_the_maps_links_routes_and_style_unmade(whisky):
    source = rulebook_source.read_rulebook(whisky.rulebook["en"], whisky.root)
    lazy = rulebook_source._context(whisky, "en", later=True)
    recorded = _outcome(source, lazy, plain_too=False)
    board = lazy["boards"]["map"]
    left = {k for k in board if type(dict.__getitem__(board, k)) is Later}
    assert {"links", "routes", "style"} <= left
    assert "spaces" not in left and "regions" not in left
    assert recorded == _outcome(source, rulebook_source.rulebook_context(whisky, "en"), False)


def test_a_later_view_made_whole_is_the_view(whisky):
    for board in whisky.valid(whisky.boards):
        for lang in ("en", "fr"):
            lazy = later_view(board, lang)
            reads._all_made(lazy)
            assert lazy == localize(board, lang)
            assert lazy.__dict__ == localize(board, lang).__dict__
