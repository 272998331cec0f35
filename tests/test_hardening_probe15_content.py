"""Probe 15c (issue #33), content surface: what the long-lived processes (`playset lsp`, the
preview) kept of each version (suppression comments' lines, a game's rules and glossary), a
layout or font replaced by a file of the same size and mtime, and the Lows."""

from __future__ import annotations

import gc
import os
import tracemalloc
from pathlib import Path

from toolkit.diagnostics.diagnostic import Diagnostic, Span


def _finding(file: Path, line: int) -> Diagnostic:
    return Diagnostic(file=str(file), code="S002", message="unknown field", span=Span(line, 1))


# --- H1: suppression comments kept a copy of every version's lines -------------------------


def test_suppression_comments_keep_no_copy_of_each_version_of_a_file(tmp_path):
    # `_lines` was an lru_cache(256) by (path, mtime): each version of a file a finding names
    # kept all its lines (~20x its bytes when lines are short): the LSP grew ~90 MB per edit
    # of a 3.9 MB deck with one finding
    from toolkit.diagnostics.suppress import unsuppressed

    deck = tmp_path / "deck.yaml"
    body = "#a\n" * 70_000 + "id: x  # playset: ignore[S002]\nbogus: 1\n"
    deck.write_text(body, encoding="utf-8")
    silenced, kept = _finding(deck, 70_001), _finding(deck, 70_002)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for version in range(6):
            os.utime(deck, (1_000_000 + version, 1_000_000 + version))  # a new version
            assert unsuppressed([silenced, kept], inside=[tmp_path]) == [kept]
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held < 1_000_000, held  # it was 25 MB (6 versions of 70,000 lines)


# --- H2: every load of a game kept its rules and glossary for good --------------------------


def test_a_reloaded_game_leaves_its_old_rules_and_glossary_collectable(game):
    # `_MADE` kept (manifest, rules view) and (glossary, terms) by id(owner) for good: a
    # language server grew by the game's rules and glossary at each edit (~13 MB with a
    # 2 MB game.yaml)
    import weakref

    from toolkit.content.game import load_game
    from toolkit.render import context

    gone = []
    for _ in range(3):
        loaded = load_game(game)
        assert loaded.glossary is not None and loaded.glossary.model is not None
        for lang in ("en", "fr"):
            context._rules(loaded.manifest, lang)
            context.glossary_terms(loaded, lang)
        gone.append((weakref.ref(loaded.manifest), weakref.ref(loaded.glossary.model)))
        del loaded
        gc.collect()
    assert all(manifest() is None and glossary() is None for manifest, glossary in gone)
    assert len(context._MADE) <= 4, len(context._MADE)
