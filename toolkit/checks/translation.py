"""T rules: every localized text exists, non-empty, in every language the game declares."""

from __future__ import annotations

from collections.abc import Iterator

from toolkit.content.game import Game
from toolkit.content.walk import Facts
from toolkit.diagnostics import Diagnostic, Severity, rule

T_MISSING = rule("T001", "missing-language", "A localized text lacks one of the game's languages.")
T_EMPTY = rule("T002", "empty-text", "A localized text is empty in some language.")
T_EXTRA = rule(
    "T003",
    "undeclared-language",
    "A localized text has a language the game does not declare.",
    Severity.WARNING,
)


def check(game: Game, facts: Facts) -> Iterator[Diagnostic]:
    if game.manifest is None:
        return
    languages = list(game.manifest.languages)
    for text in facts.texts:
        doc = text.file.doc
        assert doc is not None
        missing = [lang for lang in languages if lang not in text.value]
        if missing:
            field = ".".join(str(p) for p in text.path)
            yield T_MISSING.at(
                text.file.rel,
                doc.key_span(text.path),
                f"{field} has no {', '.join(missing)} text",
            )
        for lang, value in text.value.items():
            if lang not in languages:
                yield T_EXTRA.at(
                    text.file.rel,
                    doc.key_span((*text.path, lang)),
                    f"language {lang!r} is not in the game's languages ({', '.join(languages)})",
                )
            elif not value.strip():
                yield T_EMPTY.at(text.file.rel, doc.span((*text.path, lang)), f"empty {lang} text")
