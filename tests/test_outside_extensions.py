"""Every extension point takes one module from outside the toolkit and nothing else: an
installed package (a module and its entry point, `tests/outside.py`) shows up in the command
line, in `playset reference` and in a run."""

from __future__ import annotations

import pytest

from tests.conftest import FIXTURES, copy_game
from tests.outside import installed


@pytest.fixture
def game(tmp_path):
    return copy_game(FIXTURES / "base", tmp_path / "game")


ARTIFACT = """
from toolkit.render.artifacts import Artifact, Setting, register

def files(game, lang, options):
    tone = options.setting("poster_tone") or "calm"
    return [(f"poster-{lang}.txt", f"{game.id} {lang} {tone}".encode())]

register(Artifact("poster", "`poster-<lang>.txt`: an outside package's artifact.", files,
                  (Setting("poster_tone", "How loud the poster is.", ("calm", "loud")),)))
"""


def test_an_outside_artifact(tmp_path, run_cli, game):
    from toolkit.cli import build as build_cli
    from toolkit.reference import render
    from toolkit.render.artifacts import REGISTRY

    with installed(tmp_path, "poster_artifact", ARTIFACT, "playset.artifacts",
                   {"poster": "poster_artifact"}, REGISTRY):  # fmt: skip
        build_cli._with_settings(build_cli.build)
        helped = run_cli("build", "--help")
        assert "--poster-tone" in helped.output
        assert "| `poster` | `poster-<lang>.txt`" in render()
        out = tmp_path / "out"
        result = run_cli("build", str(game), "--only", "poster", "--poster-tone", "loud",
                         "--out", str(out), "--lang", "en")  # fmt: skip
        assert result.exit_code == 0, result.output
        text = (out / "fixture-game" / "en" / "poster-en.txt").read_text()
        assert text == "fixture-game en loud"
    build_cli._with_settings(build_cli.build)
    assert "--poster-tone" not in run_cli("build", "--help").output


EXPORT = """
from dataclasses import dataclass
from toolkit.render.exports import Export, ExportOptions, option, register
from toolkit.fileio import atomic_write_text, output_folder

@dataclass(frozen=True)
class ListOptions(ExportOptions):
    sep: str = option(",", "What separates the card names.")

    def __post_init__(self):
        if not self.sep:
            raise ValueError("--sep must not be empty")

def run(game, out, options, report, progress):
    written = []
    for lang in options.langs:
        path = output_folder(out, game.id) / lang / "list.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        names = [card.id for loaded in game.decks for card in loaded.model.cards]
        atomic_write_text(path, options.sep.join(names))
        report(path)
        written.append(path)
    return written

LIST = Export("cardlist", "A text file of every card's id.", run, ListOptions,
              hint="the list is plain text")
"""


def test_an_outside_export(tmp_path, run_cli, game):
    from toolkit.reference import render
    from toolkit.render.exports import REGISTRY

    with installed(tmp_path, "cardlist_export", EXPORT, "playset.exports",
                   {"cardlist": "cardlist_export:LIST"}, REGISTRY):  # fmt: skip
        assert "cardlist" in run_cli("export", "--help").output
        helped = run_cli("export", "cardlist", "--help")
        assert helped.exit_code == 0 and "--sep" in helped.output
        assert "| `cardlist` | A text file of every card's id." in render()
        assert run_cli("export", "cardlist", str(game), "--sep", "").exit_code == 2
        out = tmp_path / "out"
        result = run_cli("export", "cardlist", str(game), "--sep", ";", "--out", str(out),
                         "--lang", "en")  # fmt: skip
        assert result.exit_code == 0, result.output
        assert "the list is plain text" in result.stderr
        text = (out / "fixture-game" / "en" / "list.txt").read_text()
        assert ";" in text and text.split(";")[0]
    assert "cardlist" not in run_cli("export", "--help").output
