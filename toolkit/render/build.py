"""`playset build`: every registered artifact of a game in each language, written atomically
under --out.

The artifacts (`toolkit.render.artifacts`: cards.pdf, questions.pdf, board.pdf, rulebook.pdf
and whatever else is registered) each make their files for one language; nothing is written
outside `out`, and one language's files are replaced together once all of them rendered, so a
failure leaves the previous files of that language in place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from toolkit.content.game import Game
from toolkit.fileio import output_folder, write_many
from toolkit.render.artifacts import BuildError, BuildOptions, selected

__all__ = ["BuildError", "BuildOptions", "Written", "build_game"]


@dataclass
class Written:
    path: Path


def build_game(
    game: Game,
    out: Path,
    opts: BuildOptions,
    report: Callable[[Written], None] | None = None,
    keep: Callable[[str, str, bytes], None] | None = None,
) -> list[Written]:
    """Write the chosen artifacts of `game` for each language under out/<game>/<lang>/;
    `keep(lang, name, data)` sees each file written (the build cache keeps them)."""
    if opts.paper not in ("a4", "letter"):
        raise BuildError(f"paper must be a4 or letter, not {opts.paper!r}")
    chosen = selected(opts)
    written: list[Written] = []
    for lang in opts.langs:
        pending: dict[str, bytes] = {}
        for artifact in chosen:
            for name, data in artifact.files(game, lang, opts):
                if Path(name).name != name or name in (".", ".."):
                    raise BuildError(f"artifact {artifact.name!r}: {name!r} is not a file name")
                if name in pending:
                    raise BuildError(f"artifact {artifact.name!r}: {name} is written twice")
                pending[name] = data
        # one language's files are replaced together, once all of them rendered
        folder = output_folder(out, game.id, lang)
        write_many([(folder / name, data) for name, data in pending.items()], inside=out)
        for name in pending:
            if keep:
                keep(lang, name, pending[name])
            item = Written(out / game.id / lang / name)
            written.append(item)
            if report:
                report(item)
    return written
