"""`playset build`: every registered artifact of a game in each language, written atomically
under --out.

The artifacts (`toolkit.render.artifacts`: cards.pdf, questions.pdf, board.pdf, rulebook.pdf
and whatever else is registered) each make their files for one language; nothing is written
outside `out`, and one language's files are replaced together once all of them rendered, so a
failure leaves the previous files of that language in place.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from toolkit.content.game import Game
from toolkit.fileio import HeldFolder, open_folder_inside
from toolkit.journal import finish_output, write_language
from toolkit.registry import PluginError
from toolkit.render.artifacts import REGISTRY, Artifact, BuildError, BuildOptions, selected

if TYPE_CHECKING:
    from toolkit.render.build_cache import Reuse

__all__ = ["BuildError", "BuildOptions", "Written", "build_game"]


@dataclass
class Written:
    path: Path
    drawn: bool = True  # False: written as the build cache kept it


def build_game(
    game: Game,
    out: Path | HeldFolder,
    opts: BuildOptions,
    report: Callable[[Written], None] | None = None,
    keep: Callable[[str, str, bytes], None] | None = None,
    reuse: Reuse | None = None,
) -> list[Written]:
    """Write the chosen artifacts of `game` for each language under out/<game>/<lang>/;
    `keep(lang, name, data)` sees each file written; `reuse` (the build cache) gives the
    files whose inputs are unchanged, which are then not drawn, and hears of each file."""
    if opts.paper not in ("a4", "letter"):
        raise BuildError(f"paper must be a4 or letter, not {opts.paper!r}")
    chosen = selected(opts)
    for lang in opts.langs:  # a killed build's set first, whatever this one then fails on
        folder = out / game.id / lang
        # opened from `out` without following a link (a link: the write below refuses it)
        opened = open_folder_inside(out, folder)
        if opened is not None:
            try:
                finish_output(opened, folder)
            finally:
                os.close(opened)
    written: list[Written] = []
    for lang in opts.langs:
        pending: dict[str, tuple[bytes, bool]] = {}
        for artifact in chosen:
            for name, data, drawn in _guarded(_files(artifact, game, lang, opts, reuse)):
                if Path(name).name != name or name in (".", ".."):
                    raise BuildError(f"artifact {artifact.name!r}: {name!r} is not a file name")
                if name in pending:
                    raise BuildError(f"artifact {artifact.name!r}: {name} is written twice")
                pending[name] = (data, drawn)
                if reuse is not None:
                    reuse.made_file(lang, artifact.name, name, drawn)
        # one language's files are replaced together, once all of them rendered; a build
        # killed between the renames is finished by the next one (toolkit.journal)
        write_language(out, game.id, lang, [(name, data) for name, (data, _) in pending.items()])
        for name, (data, drawn) in pending.items():
            if keep:
                keep(lang, name, data)
            item = Written(out / game.id / lang / name, drawn)
            written.append(item)
            if report:
                report(item)
    return written


def _files(
    artifact: Artifact, game: Game, lang: str, opts: BuildOptions, reuse: Reuse | None
) -> Iterator[tuple[str, bytes, bool]]:
    """(name, bytes, drawn) of each file of `artifact` in `lang`: those the cache kept for
    their inputs as they are now are not drawn again."""
    if not REGISTRY.is_builtin(artifact.name):
        yield from _plugin_files(artifact, game, lang, opts)
        return
    if reuse is None or artifact.parts is None:
        for name, data in artifact.files(game, lang, opts):
            yield name, data, True
        return
    for part in artifact.parts(game, lang, opts):
        kept = reuse.kept(lang, artifact.name, part.name, part.shows)
        yield (part.name, kept, False) if kept is not None else (part.name, part.draw(), True)


def _plugin_files(
    artifact: Artifact, game: Game, lang: str, opts: BuildOptions
) -> list[tuple[str, bytes, bool]]:
    """The files of an installed plugin's artifact, all drawn: whatever it raises (any
    BaseException but Ctrl-C) or gives that is not (file name, bytes) is a BuildError naming
    it, never a traceback; its print() goes to stderr and the working folder is kept."""

    def files() -> list[tuple[object, object]]:
        return [(name, data) for name, data in artifact.files(game, lang, opts)]

    try:
        made = REGISTRY.call(artifact.name, files)
    except PluginError as exc:
        raise BuildError(str(exc)) from None
    checked: list[tuple[str, bytes, bool]] = []
    for name, data in made:
        if not isinstance(name, str) or not isinstance(data, bytes | bytearray):
            raise BuildError(
                f"{REGISTRY.plugin_name(artifact.name)} gave a {type(name).__name__} name and "
                f"{type(data).__name__} data, not a file name and bytes (fix or uninstall the "
                "plugin)"
            )
        checked.append((name, bytes(data), True))
    return checked


def _guarded(files: Iterator[tuple[str, bytes, bool]]) -> Iterator[tuple[str, bytes, bool]]:
    """The files of a built-in artifact, drawn with the installed plugins' element and board
    kinds it meets: a plugin kind whose code raises (anything but Ctrl-C) is a BuildError
    naming it, not a traceback. Playset's own errors pass as they are."""
    while True:
        try:
            item = next(files)
        except StopIteration:
            return
        except (BuildError, KeyboardInterrupt):
            raise
        except BaseException as exc:  # noqa: BLE001 - a plugin must not end the command
            if (failure := plugin_failure(exc)) is not None:
                raise failure from None
            raise
        try:
            yield item
        except GeneratorExit:  # this generator closed (not a plugin's): the files' too
            close = getattr(files, "close", None)
            if close is not None:
                close()
            raise


def plugin_failure(exc: BaseException) -> BuildError | None:
    """The BuildError naming the installed plugin element or board kind whose code raised
    `exc` (a GeneratorExit too: only one closing `_guarded` itself passes), or None when
    no plugin's code is on its traceback (Playset's own error passes as it is)."""
    from toolkit.content.models.board import BOARD_KINDS
    from toolkit.registry import culprit, describe
    from toolkit.render.elements.registry import REGISTRY as ELEMENTS

    found = culprit(exc, ELEMENTS, BOARD_KINDS)
    if found is None:
        return None
    return BuildError(f"{found} failed: {describe(exc)} (fix or uninstall the plugin)")
