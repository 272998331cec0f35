"""`rulebook_reads.read_tokens` looks each path of a kept render's reads up once (the reads
at one path share its list, and `marshal` gives a kept render's back shared): what each
read finds is what a walk from the context's root for each read finds."""

from __future__ import annotations

import json
import marshal
from typing import Any

import pytest

from tests.conftest import REPO
from tests.test_rulebook_reads import TEMPLATES, _context
from tests.test_rulebook_tokens64 import _recorded
from toolkit.content.game import load_game
from toolkit.render import rulebook_reads as reads
from toolkit.render import rulebook_source, template_bounds


def _walked(context: dict[str, Any], made: list[Any]) -> list[Any]:
    """Each read looked up from the root on its own (as read_tokens did)."""
    return [
        reads._read(reads._at(context, tuple(map(tuple, path))), op, key) for path, op, key in made
    ]


def _as_kept(made: list[Any]) -> list[list[Any]]:
    """The reads as recorded, as the next run reads them back, and without shared lists."""
    return [made, marshal.loads(marshal.dumps(made)), json.loads(json.dumps(made))]


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_a_template_form_s_reads_find_what_each_walk_finds(name) -> None:
    log = _recorded(TEMPLATES[name], _context())
    try:
        made = reads.kept_reads(log)
    except reads.NotKept:
        return
    for kept in _as_kept(made):
        context = _context()
        try:
            walked = _walked(context, kept)
        except reads.NotKept:
            with pytest.raises(reads.NotKept):
                reads.read_tokens(_context(), kept)
            continue
        assert reads.read_tokens(_context(), kept) == walked


def _whisky(lang: str) -> tuple[Any, list[Any]]:
    game = load_game(REPO / "content" / "whisky-game")
    source = rulebook_source.read_rulebook(game.rulebook[lang], game.root)
    log = reads.Log()
    sandbox = rulebook_source._sandbox()
    copied = reads.recording_copy(rulebook_source._context(game, lang, later=True), log)
    sandbox.render(sandbox.template(source, "rulebook"), copied, template_bounds.rulebook_limits(3))
    return game, reads.kept_reads(log)


def test_the_whisky_reads_look_each_path_up_once(monkeypatch) -> None:
    game, made = _whisky("en")
    for kept in _as_kept(made):
        assert reads.read_tokens(rulebook_source._context(game, "en", later=True), kept) == _walked(
            rulebook_source._context(game, "en", later=True), kept
        )
    walks: list[Any] = []
    real = reads._at

    def counted(context: Any, path: Any) -> Any:
        walks.append(path)
        return real(context, path)

    monkeypatch.setattr(reads, "_at", counted)
    kept = marshal.loads(marshal.dumps(made))
    reads.read_tokens(rulebook_source._context(game, "en", later=True), kept)
    paths = {tuple(map(tuple, path)) for path, _, _ in made}
    assert len(walks) == len(paths) < len(made) / 2
