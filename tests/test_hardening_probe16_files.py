"""Issue #33, the sixteenth probe's FILES findings H1, M2 and M4 (each test red before its
fix): a single output file (`--json`, `--pdf`, `i18n export --out`) in a folder another user
may move is refused, before the run and at the write; `build`/`export` refuse an output whose
`<out>/<id>` (or `<out>/<id>/<lang>`) is another game folder (a copy of the game); a plugin
element kind raising GeneratorExit while drawing is the BuildError naming it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from toolkit.scaffold.new import new_game


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def _shared(tmp_path: Path) -> Path:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)  # no sticky bit: anyone may rename what is in it
    return shared


# --- H1: `simulate --json/--pdf`, `sweep`, `tune`, `i18n export --out` wrote by path into a
# folder another user may exchange for a link to another folder of the user's --------------


@pytest.fixture(scope="module")
def engine_game(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("p16h1") / "demo"
    new_game(folder, "demo", ["en"], engine=True)
    return folder


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "{game}", "-n", "2", "--json", "{out}/r.json"),
        ("simulate", "{game}", "-n", "2", "--pdf", "{out}/r.pdf"),
        ("sweep", "{game}", "--vary", "hand_size=2,3", "-n", "2", "--json", "{out}/s.json"),
        ("i18n", "export", "{game}", "--template", "--out", "{out}/x.pot"),
    ],
    ids=["simulate-json", "simulate-pdf", "sweep-json", "i18n-export"],
)
def test_an_output_file_in_a_folder_others_may_move_is_refused_before_the_run(
    tmp_path, run_cli, engine_game, monkeypatch, args
):
    shared = _shared(tmp_path)
    played: list[object] = []
    import toolkit.sim.session as session

    real = session.prepare
    monkeypatch.setattr(session, "prepare", lambda *a, **k: played.append(a) or real(*a, **k))
    argv = [a.format(game=engine_game, out=shared / "v16") for a in args]
    result = run_cli(*argv)
    assert result.exit_code == 1, result.output
    assert "not yours alone" in result.output and "others may write" in result.output
    assert "Traceback" not in result.output
    assert played == []  # refused at the options, not after the games
    assert list(shared.iterdir()) == []


def test_write_output_refuses_a_folder_made_shared_during_the_run(tmp_path, capsys):
    import typer

    from toolkit.cli.common import write_output

    folder = tmp_path / "v16"
    folder.mkdir()
    target = folder / "r.json"
    folder.chmod(0o777)  # what the run found its own became another's to move
    with pytest.raises(typer.Exit) as stopped:
        write_output(target, lambda path: path.write_text("{}"))
    assert stopped.value.exit_code == 1
    assert "not yours alone" in capsys.readouterr().err
    assert not target.exists()


def test_an_output_file_in_tmp_or_ones_own_folder_is_written(tmp_path, run_cli, engine_game):
    sticky = tmp_path / "sticky"
    sticky.mkdir()
    sticky.chmod(0o1777)  # as /tmp: only an entry's owner renames it
    for out in (tmp_path / "mine" / "r.json", sticky / "r.json"):
        out.parent.mkdir(exist_ok=True)
        result = run_cli("simulate", str(engine_game), "-n", "2", "--json", str(out))
        assert result.exit_code == 0, result.output
        assert out.is_file()
    pot = tmp_path / "x.pot"
    assert (
        run_cli("i18n", "export", str(engine_game), "--template", "--out", str(pot)).exit_code == 0
    )
    assert pot.is_file()


# --- M2: `export png --out .` over another game folder with the same id (a copy: alpha and
# alpha-v2) deleted that game's pictures; build wrote its PDFs into it ------------------------


@pytest.mark.parametrize("command", [("export", "png"), ("build", "--no-cache")])
@pytest.mark.parametrize("where", ["id", "lang"])
def test_an_output_over_another_game_folder_is_refused(
    tmp_path, run_cli, monkeypatch, command, where
):
    older = tmp_path / "fixture-game"  # the older copy, named as the id: `--out .` lands on it
    shutil.copytree(FIXTURES / "base", older)
    if where == "lang":  # a game folder at <out>/<id>/<lang>
        shutil.move(older, tmp_path / "en")
        older.mkdir()
        shutil.move(tmp_path / "en", older / "en")
        older = older / "en"
    art = (older / "png") if where == "lang" else (older / "en" / "png")
    (art / "art").mkdir(parents=True)
    (art / "art" / "hero.png").write_bytes(b"HERO")
    (art / "map.png").write_bytes(b"MAP")
    game = tmp_path / "fixture-game-v2"
    shutil.copytree(FIXTURES / "base", game)
    before = _files(tmp_path / "fixture-game")
    monkeypatch.chdir(tmp_path)
    result = run_cli(*command, str(game), "--lang", "en", "--out", ".")
    assert result.exit_code == 1, result.output
    assert "is a game folder" in result.output, result.output
    assert "Traceback" not in result.output
    assert _files(tmp_path / "fixture-game") == before


# --- M4: a plugin element kind raising GeneratorExit while drawing ended build/export in a
# traceback (`_guarded` re-raised every GeneratorExit as its own closing) -----------------------

GEXIT_ELEMENT = '''
from typing import Literal
from toolkit.render.elements import Element

class ZapStripe(Element):
    """A plugin element kind whose drawing raises GeneratorExit."""

    kind: Literal["zapstripe"]

    def draw(self, c, item, x, y, job):
        raise {raised}

    def measure(self, item, job):
        return None
'''


@pytest.mark.parametrize(
    ("verb", "options"),
    [(("build",), ("--only", "cards", "--no-cache")), (("export", "png"), ("--dpi", "40"))],
    ids=["build", "export-png"],
)
@pytest.mark.parametrize(
    ("raised", "said"),
    [
        ('GeneratorExit("g draw")', "GeneratorExit: g draw"),
        ('RuntimeError("zap")', "RuntimeError: zap"),
    ],
    ids=["generator-exit", "runtime-error"],
)
def test_a_plugin_element_kind_raising_generator_exit_is_a_build_error(
    tmp_path, run_cli, verb, options, raised, said
):
    from tests.conftest import copy_game
    from tests.outside import installed
    from toolkit.render.elements import REGISTRY

    game = copy_game(FIXTURES / "base", tmp_path / "game")
    (game / "layouts").mkdir(exist_ok=True)
    layout = "id: zapped\nelements:\n  - kind: zapstripe\n    box: {x: 0, y: 30, w: -0, h: 10}\n"
    (game / "layouts" / "zapped.yaml").write_text(layout, encoding="utf-8")
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("size: poker\n", "size: poker\nlayout: zapped\n"), "utf-8")
    REGISTRY.load()
    points = {"zapstripe": "outside_zap_stripe:ZapStripe"}
    with installed(
        tmp_path,
        "outside_zap_stripe",
        GEXIT_ELEMENT.replace("{raised}", raised),
        "playset.elements",
        points,
        REGISTRY,
    ):
        out = tmp_path / "out"
        result = run_cli(*verb, str(game), *options, "--lang", "en", "--out", str(out))
        assert "Traceback" not in result.output, result.output
        assert result.exit_code == 1, result.output
        assert "the element kind 'zapstripe' (outside_zap_stripe" in result.output
        assert said in result.output, result.output
