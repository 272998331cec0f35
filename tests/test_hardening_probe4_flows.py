"""Fourth probe of issue 33, the command flows end to end: output over the game's own files,
hostile file names in findings, engines that exit, loop or return the wrong types."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.starter_games import edit_engine as _engine_edit
from toolkit.scaffold.new import new_game

INJECTED = "tok\n::error::INJ\x1b[31m"


def _new_game(tmp_path: Path, engine: bool = False) -> Path:
    new_game(tmp_path / "demo", "demo", ["en"], engine=engine)
    return tmp_path / "demo"


def test_a_hostile_file_name_stays_one_escaped_line_in_text_and_github_output(tmp_path, run_cli):
    # an icon named "tok\n::error::INJ\x1b[31m.svg" printed its finding's place raw: a line
    # starting `::error::` (a GitHub workflow command) and an ESC sequence for the terminal
    game = _new_game(tmp_path)
    shutil.move(game / "icons" / "token.svg", game / "icons" / f"{INJECTED}.svg")
    for fmt in ("text", "github"):
        result = run_cli("validate", str(game), "-f", fmt)
        lines = result.stdout.splitlines()
        assert lines and all(not line.startswith("::error::INJ") for line in lines), fmt
        assert "\x1b" not in result.stdout, fmt
        assert any("INJ" in line for line in lines), fmt
    assert "tok\\n::error::INJ\\x1b[31m" in run_cli("validate", str(game)).stdout


APPLY = "    def apply(self, action: int) -> None:\n"


def test_an_engine_calling_sys_exit_is_a_finding_not_a_silent_exit(tmp_path, run_cli):
    # SystemExit is no Exception: sys.exit(0) at import ended `check` with 0 and no output
    # (a CI pass), sys.exit(3) in apply ended simulate with 3 and no output
    at_import = _new_game(tmp_path / "a", engine=True)
    _engine_edit(at_import, "import random\n", "import random\nimport sys\n\nsys.exit(0)\n")
    result = run_cli("simulate", str(at_import), "-n", "3")
    assert result.exit_code == 1 and "E001" in result.output
    assert "importing the engine raised SystemExit" in result.output
    in_apply = _new_game(tmp_path / "b", engine=True)
    _engine_edit(in_apply, APPLY, APPLY + "        raise SystemExit(3)\n")
    result = run_cli("simulate", str(in_apply), "-n", "3")
    assert result.exit_code == 1 and "E004" in result.output
    assert "raised SystemExit: 3" in result.output


def test_an_installed_plugin_calling_sys_exit_is_a_finding(tmp_path, run_cli, monkeypatch):
    from importlib.metadata import EntryPoint

    import toolkit.content.plugin as plugin

    site = tmp_path / "site"
    site.mkdir()
    (site / "exiting_plugin.py").write_text("import sys\nsys.exit(0)\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    game = _new_game(tmp_path)
    point = EntryPoint("demo", "exiting_plugin:PLUGIN", "playset.games")
    monkeypatch.setattr(plugin.REGISTRY, "entry_points", lambda group: [point])
    monkeypatch.setattr(plugin.REGISTRY, "_found", False)
    monkeypatch.setattr(plugin.REGISTRY, "broken", {})
    result = run_cli("validate", str(game))
    assert result.exit_code == 1
    assert "E007" in result.stdout and "SystemExit" in result.stdout


def test_a_report_or_po_file_never_replaces_one_of_the_games_own_files(
    tmp_path, run_cli, monkeypatch
):
    # `simulate --json game.yaml` wrote the report over the manifest (the game was gone);
    # the same for --pdf over a deck, sweep's --json and `i18n export --out`
    game = _new_game(tmp_path, engine=True)
    monkeypatch.chdir(game)
    before = {p: p.read_bytes() for p in game.rglob("*") if p.is_file()}
    runs = [
        ("simulate", ".", "-n", "3", "--json", "game.yaml"),
        ("simulate", ".", "-n", "3", "--pdf", "decks/cards.yaml"),
        ("simulate", ".", "-n", "3", "--json", str(game / "engine.py")),
        ("sweep", ".", "--vary", "hand_size=2,3", "-n", "3", "--json", "rulebook/en.md"),
        ("i18n", "export", ".", "--template", "--out", "glossary.yaml"),
        ("reference", "--out", "rulebook/en.md"),
    ]
    for args in runs:
        result = run_cli(*args)
        assert result.exit_code == 2, (args, result.output)
        assert "the game's own file" in result.output, args
    assert {p: p.read_bytes() for p in game.rglob("*") if p.is_file()} == before
    assert run_cli("simulate", ".", "-n", "3", "--json", "report.json").exit_code == 0
    assert (game / "report.json").is_file()


RETURNS = (
    "        return [1.0 / len(winners) if s in winners else 0.0"
    " for s in range(len(self.points))]\n"
)
FIGURES = '        return {"winning_margin": float(ranked[0] - ranked[1])}\n'


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (RETURNS, '        return ["a"] * len(self.points)\n', "returns() holds str 'a'"),
        (FIGURES, '        return {"margin": object()}\n', "figures()['margin'] is object"),
        (FIGURES, "        return [1.0]\n", "figures() returned list"),
    ],
)
def test_an_engine_result_of_the_wrong_type_is_a_finding_at_its_method(
    tmp_path, run_cli, old, new, said
):
    # a str among returns() or an object as a figure: a TypeError traceback in the report
    game = _new_game(tmp_path, engine=True)
    _engine_edit(game, old, new)
    result = run_cli("simulate", str(game), "-n", "3")
    assert result.exit_code == 1, result.output
    assert "E004" in result.output and said in result.output
    line = (game / "engine.py").read_text().splitlines().index(new.rstrip("\n"))
    method = (game / "engine.py").read_text().splitlines()[: line + 1]
    defs = [i + 1 for i, text in enumerate(method) if text.lstrip().startswith("def ")]
    assert f"engine.py:{defs[-1]}:1: E004" in result.output


def test_a_pool_worker_ended_by_the_engine_is_a_finding_not_a_traceback(tmp_path, run_cli):
    # os._exit() in apply under --workers 2: BrokenProcessPool's traceback, no word of where.
    # os._exit() is now a finding of its own (toolkit.sim.exits, probe 6); a worker killed
    # outright still meets the dead-worker path
    game = _new_game(tmp_path, engine=True)
    kill = (
        "        import os\n        import signal\n\n        os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    _engine_edit(game, APPLY, APPLY + kill)
    result = run_cli("simulate", str(game), "-n", "4", "--workers", "2")
    assert result.exit_code == 1, result.output
    assert "game.yaml:1:1: E004" in result.output
    assert "a worker process ended abruptly" in result.output


LEGAL = '        """An action is the index (in card_names) of a card in the hand to play."""\n'


def test_an_engine_that_loops_for_ever_is_stopped_with_a_finding_at_its_line(
    tmp_path, run_cli, monkeypatch
):
    # `while True: pass` in legal_actions hung simulate, check and replay for ever: max_turns
    # bounds the moves, nothing bounded one move
    import toolkit.sim.deadline as deadline

    monkeypatch.setattr(deadline, "GAME_SECONDS", 0.5)
    game = _new_game(tmp_path, engine=True)
    _engine_edit(game, LEGAL, LEGAL + "        while True:\n            pass\n")
    loop = (game / "engine.py").read_text().splitlines().index("            pass") + 1
    for args in (("simulate", "-n", "3"), ("replay",), ("check", "-n", "10")):
        result = run_cli(*args[:1], str(game), *args[1:])
        assert result.exit_code == 1, (args, result.output)
        at = (f"engine.py:{loop - 1}:1: E005", f"engine.py:{loop}:1: E005")  # while or pass
        assert any(place in result.output for place in at), (args, result.output)
        assert "still not over after 0.5 s" in result.output
    result = run_cli("check", str(game), "--contract", "-n", "60")
    assert result.exit_code == 1 and "still not over after 0.5 s" in result.output


def test_export_png_refuses_a_page_of_too_many_pixels_before_drawing_it(
    tmp_path, run_cli, monkeypatch
):
    # --page-dpi 1200 (within 30–1200) on the Whisky Game's A2 board: 557 M pixels, 3.9 GB,
    # then a MemoryError traceback after 107 s; here the bound is lowered to the new game's
    # rulebook page at 600 dpi (36 M pixels) to meet it in a second
    import toolkit.render.exports.png as png

    monkeypatch.setattr(png, "MAX_PAGE_PIXELS", 20_000_000, raising=False)
    drawn: list[float] = []
    monkeypatch.setattr(png, "png_selected", lambda pdf, i, dpi, **k: drawn.append(dpi) or [])
    game = _new_game(tmp_path)
    out = tmp_path / "out"
    result = run_cli(
        "export", "png", str(game), "--dpi", "30", "--page-dpi", "600", "--out", str(out)
    )
    assert result.exit_code == 1, result.output
    assert "the rulebook at --page-dpi 600 would be" in result.output
    assert "use --page-dpi" in result.output
    assert 600 not in drawn
