"""Build artifacts are a registry: one registered from outside the toolkit (here, in this
test file) is built by `playset build`, chosen with `--only`, gets its own command-line
setting, and shares the all-or-nothing write of a language's files."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import FIXTURES, copy_game
from tests.outside import reference_text
from toolkit.cli import build as build_cli
from toolkit.registry import package_modules
from toolkit.render.artifacts import (
    REGISTRY,
    Artifact,
    BuildError,
    BuildOptions,
    Setting,
    artifacts,
    register,
)


def _game(tmp_path):
    game = tmp_path / "game"
    copy_game(FIXTURES / "base", game)
    return game


@pytest.fixture
def extra() -> Iterator[list[tuple[str, BuildOptions]]]:
    """A `notes` artifact with a `notes_style` setting: one text file per language."""
    calls: list[tuple[str, BuildOptions]] = []

    def files(game, lang: str, opts: BuildOptions) -> list[tuple[str, bytes]]:
        calls.append((lang, opts))
        if opts.setting("notes_style") == "broken":
            raise BuildError("the notes cannot be drawn")
        style = opts.setting("notes_style") or "plain"
        return [(f"notes-{lang}.txt", f"{game.id} {lang} {style}".encode())]

    style = Setting("notes_style", "How the notes look.", ("plain", "fancy", "broken"))
    register(Artifact("notes", "`notes-<lang>.txt`: a test's own artifact.", files, (style,)))
    build_cli._with_settings(build_cli.build)
    yield calls
    REGISTRY.unregister("notes")
    build_cli._with_settings(build_cli.build)


def test_every_module_of_the_package_is_an_artifact_in_build_order():
    """No list to keep: each module of `toolkit.render.artifacts` registers what it makes,
    and they are built in the order they declare (cards before the rulebook that lists
    them)."""
    found = artifacts()
    assert {REGISTRY.origin(name) for name in found} == set(
        package_modules("toolkit.render.artifacts")
    )
    assert list(found) == sorted(found, key=lambda name: found[name].order)
    assert list(found).index("cards") < list(found).index("rulebook")


def test_an_outside_artifact_is_built_with_the_others(run_cli, tmp_path, extra):
    game, out = _game(tmp_path), tmp_path / "out"
    result = run_cli("build", str(game), "--out", str(out), "--lang", "en,fr")
    assert result.exit_code == 0, result.output
    folder = out / "fixture-game"
    assert (folder / "en" / "notes-en.txt").read_bytes() == b"fixture-game en plain"
    assert (folder / "fr" / "notes-fr.txt").read_bytes() == b"fixture-game fr plain"
    assert (folder / "en" / "cards.pdf").is_file()
    assert [lang for lang, _ in extra] == ["en", "fr"]


def test_only_builds_the_chosen_artifacts_and_settings_reach_them(run_cli, tmp_path, extra):
    game, out = _game(tmp_path), tmp_path / "out"
    result = run_cli(
        "build", str(game), "--out", str(out), "--lang", "es", "--only", "notes",
        "--notes-style", "fancy",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    folder = out / "fixture-game" / "es"
    assert sorted(p.name for p in folder.iterdir()) == ["notes-es.txt"]
    assert (folder / "notes-es.txt").read_bytes() == b"fixture-game es fancy"
    assert extra[0][1].only == ("notes",)


def test_unknown_artifact_or_setting_value_is_a_usage_error(run_cli, tmp_path, extra):
    game = _game(tmp_path)
    result = run_cli("build", str(game), "--only", "cards,poster")
    assert result.exit_code == 2
    assert "poster" in result.output and ", ".join(artifacts()) in result.output
    assert ", ".join(artifacts()).endswith(", notes")
    assert run_cli("build", str(game), "--notes-style", "loud").exit_code == 2


def test_a_failing_artifact_leaves_the_languages_files_alone(run_cli, tmp_path, extra):
    game, out = _game(tmp_path), tmp_path / "out"
    assert run_cli("build", str(game), "--out", str(out), "--lang", "en").exit_code == 0
    folder = out / "fixture-game" / "en"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    (game / "decks" / "cards.yaml").write_text(
        (game / "decks" / "cards.yaml").read_text().replace("copies: 3", "copies: 2")
    )
    result = run_cli(
        "build", str(game), "--out", str(out), "--lang", "en", "--notes-style", "broken"
    )
    assert result.exit_code == 1
    assert "the notes cannot be drawn" in result.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_an_artifact_file_name_must_stay_in_the_language_folder(tmp_path):
    from toolkit.content.game import load_game
    from toolkit.render.build import build_game

    register(Artifact("escape", "writes outside", lambda g, lang, o: [("../x.pdf", b"x")]))
    try:
        with pytest.raises(BuildError, match="not a file name"):
            build_game(load_game(_game(tmp_path)), tmp_path / "out", BuildOptions(["en"]))
    finally:
        REGISTRY.unregister("escape")
    assert not (tmp_path / "out" / "fixture-game" / "x.pdf").exists()


def test_the_same_name_registered_twice_is_refused():
    first = Artifact("twice", "one", lambda g, lang, o: [])
    register(first)
    try:
        register(first)  # the same module imported again
        with pytest.raises(ValueError, match="registered twice"):
            register(Artifact("twice", "another", lambda g, lang, o: []))
    finally:
        REGISTRY.unregister("twice")


def test_the_reference_lists_every_artifact_and_export(extra):
    from toolkit.render.exports import exports

    text = reference_text()
    assert "notes" in artifacts()
    for name in artifacts():
        assert f"| `{name}` | {artifacts()[name].summary}" in text
    assert "| `board` | " in text and "`--board-page` (a3/a2/a1)" in text
    assert "`--notes-style` (plain/fancy/broken)" in text
    for name in exports():
        assert f"| `{name}` | " in text
