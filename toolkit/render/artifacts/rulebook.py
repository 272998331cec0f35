"""rulebook.pdf: the game's rulebook in the language, with cover, contents, a component list
and a card reference generated from the decks."""

from __future__ import annotations

from typing import Any

from toolkit.render.artifacts import (
    Artifact,
    BuildError,
    BuildOptions,
    Part,
    Parts,
    Shows,
    drawn,
    register,
)


def rulebook_pdf(
    game: Any, lang: str, paper: str, bleed: float, picture_dpi: float | None = None
) -> bytes:
    """The rulebook PDF, or a BuildError naming the source line a template failed at
    (`picture_dpi`: see `render_rulebook`)."""
    from toolkit.content.game import display_path
    from toolkit.render.rulebook import RulebookTooLarge, render_rulebook
    from toolkit.render.rulebook_source import RulebookError

    try:
        return render_rulebook(game, lang, paper, bleed, picture_dpi)
    except RulebookError as exc:
        where = f"{display_path(game.rulebook[lang])}:{exc.line}"
        raise BuildError(f"{where}: {exc} (run `playset validate`)") from exc
    except RulebookTooLarge as exc:
        raise BuildError(f"{display_path(game.rulebook[lang])}: {exc}") from exc


def parts(game: Any, lang: str, opts: BuildOptions) -> Parts:
    if lang not in game.rulebook:
        return []

    def draw() -> bytes:
        from reportlab.lib.units import mm

        from toolkit.render.sheets import BLEED_MM

        return rulebook_pdf(game, lang, opts.paper, BLEED_MM * mm if opts.press else 0)

    return [Part("rulebook.pdf", draw, Shows(rulebook=True))]


RULEBOOK = register(
    Artifact(
        "rulebook",
        "`rulebook.pdf`: the rulebook with cover, contents, component list and card reference.",
        drawn(parts),
        order=40,
        parts=parts,
    )
)
