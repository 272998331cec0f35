"""Build artifacts: the files `playset build` writes for a game in one language.

Each artifact is one module of this package that declares itself with `register` beside the
code that makes it, as diagnostic rules do: cards, questions, board and rulebook ship with the
toolkit, and a package outside it adds one through the `playset.artifacts` entry point group
(or by registering before the command runs); the registry finds both (`toolkit.registry`).
An artifact turns (game, language, options) into named PDF files, or none when the game
has nothing of its kind; `build_game` writes one language's files together. An artifact's own
settings (`--board-page`) are declared with it: the CLI offers them as options and
`BuildOptions.settings` carries them, so a new artifact edits neither.

Artifact modules import only this package at load time (the CLI lists them at start-up);
what they draw with is imported when they run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from toolkit.registry import Registry, say


class BuildError(Exception):
    """Something the user must fix (a layout, a paper name); exit 1 with this message."""


@dataclass(frozen=True)
class Setting:
    """An option of one artifact: `board_page` is `--board-page` on the command line and
    `BuildOptions.settings["board_page"]`; None (the default) leaves it unset."""

    name: str
    help: str
    choices: tuple[str, ...]

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


@dataclass
class BuildOptions:
    """What every artifact is printed with (languages, paper, profile, duplex shift), which
    artifacts to build, and the artifacts' own settings by name."""

    langs: list[str]
    paper: str = "a4"
    per_card: bool = False
    press: bool = False  # boards and rulebooks with bleed, TrimBox and BleedBox too
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm, right and up on every backs page
    only: tuple[str, ...] | None = None  # artifact names; None: every registered artifact
    settings: dict[str, str | None] = field(default_factory=dict)

    def setting(self, name: str) -> str | None:
        return self.settings.get(name)


Files = list[tuple[str, bytes]]  # (file name in the language folder, PDF bytes)


@dataclass(frozen=True)
class Shows:
    """What a built file prints of the game, besides the manifest, glossary and icons: decks
    (as they are printed: a question bank's deck too), a board, the rulebook in its language.
    The build cache turns it into the files it reads (toolkit.render.build_reads)."""

    decks: tuple[Any, ...] = ()
    board: Any = None
    rulebook: bool = False


@dataclass(frozen=True)
class Part:
    """One file of an artifact in one language, named but not drawn yet (`draw()` is called
    only when needed): `build` keeps each file by what it reads and draws again only those
    whose inputs changed. `shows` None: the file may print anything in the game."""

    name: str
    draw: Callable[[], bytes]
    shows: Shows | None = None


Parts = list[Part]


@dataclass(frozen=True)
class Artifact:
    """A registered artifact: `files(game, lang, options)` → its files for that language."""

    name: str
    summary: str
    files: Callable[[Any, str, BuildOptions], Files]
    settings: tuple[Setting, ...] = ()
    order: int = 100
    """Where it is built among the others (lower first); ties go in the order found."""
    parts: Callable[[Any, str, BuildOptions], Parts] | None = None
    """Its files one by one, each with what it reads (see Part); without it, `build` keeps
    the artifact's files as one, read from anything in the game."""


def drawn(
    parts: Callable[[Any, str, BuildOptions], Parts],
) -> Callable[[Any, str, BuildOptions], Files]:
    """An artifact's `files` from its `parts`: each part drawn, in order."""

    def files(game: Any, lang: str, opts: BuildOptions) -> Files:
        return [(part.name, part.draw()) for part in parts(game, lang, opts)]

    return files


REGISTRY: Registry[Artifact] = Registry(
    "artifact",
    package=__name__,
    group="playset.artifacts",
    rank=lambda artifact: artifact.order,
    accepts=lambda obj: isinstance(obj, Artifact),
)
register = REGISTRY.register


def artifacts() -> dict[str, Artifact]:
    """Every registered artifact by name, in build order."""
    return REGISTRY.load()


def settings() -> dict[str, Setting]:
    """Every artifact's settings by name (two artifacts may share one they declare alike).
    An installed plugin's artifact declaring a built-in's setting differently loses it (a
    warning), the built-ins' settings being read first."""
    out: dict[str, Setting] = {}
    found = sorted(artifacts().items(), key=lambda item: not REGISTRY.is_builtin(item[0]))
    for name, artifact in found:
        for setting in artifact.settings:
            if out.get(setting.name, setting) != setting:
                if REGISTRY.is_builtin(name):
                    raise ValueError(f"setting {setting.name!r} is declared twice, differently")
                if (name, setting.name) not in _CLASHED:
                    _CLASHED.add((name, setting.name))
                    say(
                        f"warning: {REGISTRY.plugin_name(name)} declares the setting "
                        f"{setting.name!r} another artifact declares differently: it is left "
                        "out (fix or uninstall the plugin)"
                    )
                continue
            out[setting.name] = setting
    return out


_CLASHED: set[tuple[str, str]] = set()


def selected(options: BuildOptions) -> list[Artifact]:
    """The artifacts `options` asks for, in build order; an unknown name or setting value is
    a BuildError."""
    known = artifacts()
    names = options.only if options.only is not None else tuple(known)
    unknown = [name for name in names if name not in known]
    if unknown:
        raise BuildError(f"unknown artifact {unknown[0]!r} (known: {', '.join(known)})")
    declared = settings()
    for name, value in options.settings.items():
        setting = declared.get(name)
        if setting is None:
            raise BuildError(f"unknown build setting {name!r}")
        if value is not None and value not in setting.choices:
            raise BuildError(f"{setting.flag} must be one of {', '.join(setting.choices)}")
    return [artifact for name, artifact in known.items() if name in names]
