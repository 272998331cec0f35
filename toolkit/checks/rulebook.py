"""Rulebook sources render: every Jinja expression names content that exists."""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.content.game import Game, display_path
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic, Span, rule
from toolkit.render.rulebook_source import RulebookError, render_markdown

R_RULEBOOK = rule(
    "R010", "rulebook-template", "A rulebook expression fails (unknown content or bad syntax)."
)


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    if game.manifest is None or any(f.model is None for f in game.files()):
        return
    for lang, path in game.rulebook.items():
        display = display_path(path)
        try:
            source = path.read_text(encoding="utf-8")
            render_markdown(game, lang, source)
        except UnicodeDecodeError:
            yield R_RULEBOOK.at(display, Span(), "the rulebook is not valid UTF-8")
        except RulebookError as exc:
            yield R_RULEBOOK.at(display, Span(exc.line, 1), str(exc))
