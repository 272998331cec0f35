"""A recorded render is kept (rulebook_source._rendered) as it is made, without `_json_own`
looking at each of its reads (unit_cache.Units.put_own): what it keeps is what JSON gives
back by how it is made, which this checks for every template form of test_rulebook_reads
and the Whisky Game's three rulebooks."""

from __future__ import annotations

import pytest

from tests.conftest import REPO
from tests.test_rulebook_reads import TEMPLATES, _context
from tests.test_rulebook_tokens64 import _recorded
from toolkit.content import unit_cache
from toolkit.content.game import load_game
from toolkit.content.unit_cache import Units
from toolkit.render import rulebook_reads as reads
from toolkit.render.rulebook_source import read_rulebook, render_markdown


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_a_template_form_s_kept_reads_are_what_json_gives_back(name) -> None:
    context = _context()
    log = _recorded(TEMPLATES[name], context)
    try:
        made = reads.kept_reads(log)
    except reads.NotKept:
        return
    tokens = reads.kept_tokens(log)
    parts = {
        part: ["frame", reads.tokens_digest([tokens[i] for i in at]), at]
        for part, at in reads.part_indexes(made, {"cards"}).items()
    }
    value = {"reads": made, "digest": "", "text": "", "parts": parts}
    assert unit_cache._json_own(value)


def test_the_whisky_renders_are_kept_unlooked_at_as_json_gives_them_back(monkeypatch) -> None:
    looked: list[object] = []
    real = unit_cache._json_own

    def spied(value, depth=0):
        if depth == 0:
            looked.append(value)
        return real(value, depth)

    monkeypatch.setattr(unit_cache, "_json_own", spied)
    game = load_game(REPO / "content" / "whisky-game")
    units = Units()
    with unit_cache.activated(units):
        for lang, path in game.rulebook.items():
            render_markdown(game, lang, read_rulebook(path, game.root))
    kept = [v for v in units.used.values() if type(v) is dict and "reads" in v]
    assert len(kept) == 3
    assert not [v for v in looked if type(v) is dict and "reads" in v], "looked at"
    assert all(real(v) for v in kept)
