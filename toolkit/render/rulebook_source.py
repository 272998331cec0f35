"""Rulebook sources: Markdown with Jinja expressions that print facts from the content.

`{{ rules.goal_points }}` in a rulebook prints the number the engine and the cards use, so
the rulebook cannot disagree with the data. Rendering is sandboxed: a rulebook can read the
content but not call into Python.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import FileSystemBytecodeCache, FunctionLoader, StrictUndefined
from jinja2.sandbox import SandboxedEnvironment

from toolkit.content.game import Game
from toolkit.render.context import localize


class RulebookError(Exception):
    """A template error, with the line in the Markdown source where it happened."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


def rulebook_context(game: Game, lang: str) -> dict[str, Any]:
    """What a rulebook template can use.

    - `game`: the manifest (title, players, options, variants…) with texts in `lang`
    - `rules`: the manifest's rules parameters
    - `decks`: decks by id; each has `name`, `cards` (with `copies`, `name`, `text`…) and
      `total` (cards counting copies)
    - `boards`: boards by id
    - `glossary`: term id → text in `lang`
    - `lang`: the language code
    """
    manifest = game.manifest
    decks = {}
    for deck in game.valid(game.decks):
        view = localize(deck, lang)
        view["total"] = sum(card.copies for card in deck.cards)
        decks[deck.id] = view
    boards = {board.id: localize(board, lang) for board in game.valid(game.boards)}
    glossary = {}
    if game.glossary and game.glossary.model:
        glossary = {t.id: t.text.get(lang, "") for t in game.glossary.model.terms}
    return {
        "game": localize(manifest, lang),
        "rules": localize(manifest.rules, lang),
        "decks": decks,
        "boards": boards,
        "glossary": glossary,
        "lang": lang,
    }


def _cache_dir() -> Path | None:
    """Where compiled rulebook templates are kept between runs (None: no cache)."""
    base = os.environ.get("PLAYSET_CACHE") or os.environ.get("XDG_CACHE_HOME")
    folder = Path(base) / "playset" if base else Path.home() / ".cache" / "playset"
    folder = folder / "jinja"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK) else None


_SOURCES: dict[str, str] = {}


@cache
def _environment() -> SandboxedEnvironment:
    """One sandboxed environment; compiling a long rulebook costs ~0.1 s, so the compiled
    code is cached on disk by source checksum (Jinja's bytecode cache)."""
    folder = _cache_dir()
    return SandboxedEnvironment(
        loader=FunctionLoader(lambda name: (_SOURCES[name], None, lambda: True)),
        bytecode_cache=FileSystemBytecodeCache(str(folder)) if folder else None,
        undefined=StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        cache_size=0,
    )


def render_markdown(game: Game, lang: str, source: str) -> str:
    """Render a rulebook's Markdown source for `lang` (raises RulebookError)."""
    name = "rulebook-" + hashlib.sha256(source.encode()).hexdigest()[:32]
    _SOURCES[name] = source
    try:
        template = _environment().get_template(name)
        return template.render(**rulebook_context(game, lang))
    except Exception as exc:  # jinja raises many kinds; all become one positioned error
        line = getattr(exc, "lineno", None) or _traceback_line(exc) or 1
        raise RulebookError(f"{type(exc).__name__}: {exc}", line) from exc


def _traceback_line(exc: BaseException) -> int | None:
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.startswith(("<template>", "rulebook-")):
            line = tb.tb_lineno
        tb = tb.tb_next
    return line
