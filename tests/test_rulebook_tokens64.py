"""A recorded render's reads are kept with what each found, looked up as it is first read
(toolkit.render.rulebook_reads.Log): the same reads, in the same order, finding the same as a
look-up of each from the context's root after the render, which is what the next run's
`read_digest` compares them with."""

from __future__ import annotations

import pytest

from tests.conftest import REPO
from tests.test_rulebook_reads import TEMPLATES, _context
from toolkit.content.game import load_game
from toolkit.render import rulebook_reads as reads
from toolkit.render import rulebook_source, template_bounds
from toolkit.render.jinja_cache import CachedSandbox


def _recorded(template: str, context: dict) -> reads.Log:
    sandbox = CachedSandbox(keep_trailing_newline=True)
    log = reads.Log()
    try:
        sandbox.render(sandbox.template(template, "rulebook"), reads.recording_copy(context, log))
    except Exception:  # noqa: BLE001 - an error is never kept: its reads do not matter
        return log
    return log


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_what_a_read_found_as_read_is_what_the_context_holds_there(name):
    context = _context()
    log = _recorded(TEMPLATES[name], context)
    try:
        made = reads.kept_reads(log)
    except reads.NotKept:
        return
    assert reads.kept_tokens(log) == reads.read_tokens(context, made)


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_the_whisky_rulebooks_reads_find_as_read_what_they_find_after(lang):
    game = load_game(REPO / "content" / "whisky-game")
    source = rulebook_source.read_rulebook(game.rulebook[lang], game.root)
    context = rulebook_source.rulebook_context(game, lang)
    log = reads.Log()
    sandbox = rulebook_source._sandbox()
    limits = template_bounds.rulebook_limits(len(game.manifest.languages))
    copied = reads.recording_copy(context, log)
    sandbox.render(sandbox.template(source, "rulebook"), copied, limits)
    made = reads.kept_reads(log)
    assert len(made) > 100
    assert len({repr(read) for read in made}) == len(made)  # each once
    assert reads.kept_tokens(log) == reads.read_tokens(context, made)


def _unhashable(recorded: dict) -> None:
    with pytest.raises(TypeError):  # the template gets dict's own error
        dict.__getitem__(recorded, "rules").get(["a"])


def test_a_key_json_cannot_keep_keeps_nothing():
    for read in (
        lambda r: dict.__getitem__(r, "rules").get(1.5),  # a float key
        lambda r: dict.__getitem__(r, "rules").get(("a",)),  # a tuple key
        _unhashable,
    ):
        log = reads.Log()
        read(reads.recording_copy(_context(), log))
        with pytest.raises(reads.NotKept):
            reads.kept_reads(log)
        with pytest.raises(reads.NotKept):
            reads.kept_tokens(log)
