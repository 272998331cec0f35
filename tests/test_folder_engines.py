"""An engine beside the game (`engine: engine.py` in game.yaml), without packaging: it plays
through simulate/check/sweep, is never imported by the commands that only read content, and
its mistakes are positioned findings (file:line, seed, game index), exit 1, no traceback."""

from __future__ import annotations

import re
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from toolkit.scaffold.new import new_game
from toolkit.scaffold.starter_engine import __file__ as STARTER_FILE

STARTER = Path(STARTER_FILE).read_text(encoding="utf-8")


def game_with(tmp_path: Path, engine: str | None = None, name: str = "tiny-run") -> Path:
    """A scaffold game (English only) whose engine.py holds `engine` (default: the starter)."""
    folder = tmp_path / name
    new_game(folder, name, ["en"], engine=True)
    if engine is not None:
        (folder / "engine.py").write_text(engine, encoding="utf-8")
    return folder


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def edited(old: str, new: str) -> str:
    assert old in STARTER, old
    return STARTER.replace(old, new, 1)


def no_traceback(result) -> None:
    assert "Traceback" not in result.output, result.output


# --- the tutorial's first steps, exactly as a new user types them -------------------------


# Slow (about 8-10 s on CPU): issue 25's literal chain (simulate -n 2000, check, sweep) is what
# a new user runs; a smaller simulate -n would test another command. The issue names no count
# for sweep: 200 games a point show the swept value reaching the engine (medians 16 and 24
# turns, as with the default 1,000), at a quarter of the cost.
@pytest.mark.slow
def test_new_engine_then_simulate_check_and_sweep(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_cli("new", "my-game", "--engine").exit_code == 0
    monkeypatch.chdir(tmp_path / "my-game")
    simulated = run_cli("simulate", "-n", "2000", "-p", "3")
    assert simulated.exit_code == 0, simulated.output
    assert "my-game — 2000 games (players=3" in simulated.stdout
    assert "winning_margin" in simulated.stdout  # the engine's own figure is reported
    checked = run_cli("check")
    assert checked.exit_code == 0, checked.output
    swept = run_cli("sweep", "--vary", "target_points=8,12", "-n", "200")
    assert swept.exit_code == 0, swept.output
    assert "target_points" in swept.stdout
    rows = [line for line in swept.stdout.splitlines() if "turns, median" in line]
    assert rows, swept.stdout  # a longer target makes longer games: the value reached the engine
    cells = [cell.split()[0] for cell in rows[0].split("│")[2:4]]
    assert float(cells[0]) < float(cells[1]), rows[0]


# --- trust: only the commands that play import a game folder's code ----------------------

PLANT = 'open(__file__ + ".imported", "w").write("ran")\n'


def test_content_commands_never_import_the_engine(run_cli, tmp_path):
    folder = game_with(tmp_path, edited("import random\n", "import random\n" + PLANT))
    marker = folder / "engine.py.imported"
    assert run_cli("validate", str(folder)).exit_code == 0
    assert run_cli("build", str(folder), "--lang", "en").exit_code == 0
    out = tmp_path / "png"
    exported = run_cli(
        "export", "png", str(folder), "--lang", "en", "--dpi", "30", "--out", str(out)
    )
    assert exported.exit_code == 0, exported.output
    assert run_cli("export", "tts", str(folder), "--out", str(tmp_path / "tts")).exit_code == 0
    assert run_cli("i18n", "status", str(folder)).exit_code in (0, 1)
    preview = pytest.importorskip("toolkit.preview.live")
    from starlette.testclient import TestClient

    from toolkit.preview.app import make_app
    from toolkit.preview.hosts import AllowedHosts

    session = preview.Preview(folder)
    session.load()
    with TestClient(
        make_app(session, AllowedHosts.for_server("127.0.0.1", None)),
        base_url="http://127.0.0.1:8765",
    ) as client:
        assert client.get("/").status_code == 200
    assert not marker.exists()
    # the plant does run when a command plays
    assert run_cli("simulate", str(folder), "-n", "5").exit_code == 0
    assert marker.read_text() == "ran"


# --- mistakes while loading: one positioned finding, exit 1, validate unaffected ----------


def expect_finding(run_cli, folder: Path, code: str, file: str, line: int, words: str) -> None:
    result = run_cli("simulate", str(folder), "-n", "20")
    no_traceback(result)
    assert result.exit_code == 1, result.output
    found = re.search(rf"(\S*{re.escape(file)}):(\d+):\d+: {code} \[error\] (.*)", result.stdout)
    assert found, result.output
    assert int(found.group(2)) == line, result.stdout
    assert words in found.group(3), found.group(3)
    checked = run_cli("check", str(folder))
    no_traceback(checked)
    assert checked.exit_code == 1 and f"{code} " in checked.stdout, checked.output
    assert run_cli("validate", str(folder)).exit_code == 0


def test_a_syntax_error(run_cli, tmp_path):
    text = edited("    def current_player(self) -> int:", "    def current_player(self) -> int")
    folder = game_with(tmp_path, text)
    line = line_of(text, "    def current_player(self) -> int\n")
    expect_finding(run_cli, folder, "E001", "engine.py", line, "syntax error")


def test_an_import_error(run_cli, tmp_path):
    text = edited("import random\n", "import random\nimport no_such_module_here\n")
    folder = game_with(tmp_path, text)
    line = line_of(text, "import no_such_module_here")
    expect_finding(run_cli, folder, "E001", "engine.py", line, "ModuleNotFoundError")


def test_no_compile_game(run_cli, tmp_path):
    folder = game_with(tmp_path, edited("def compile_game(", "def make_game("))
    expect_finding(run_cli, folder, "E001", "engine.py", 1, "no compile_game(content)")


def test_a_state_missing_a_contract_method(run_cli, tmp_path):
    text = edited("    def clone(self) -> PlayState:", "    def copy(self) -> PlayState:")
    folder = game_with(tmp_path, text)
    line = line_of(text, "return PlayState(self, setup.players, seed)")
    expect_finding(run_cli, folder, "E002", "engine.py", line, "clone")


def test_compile_game_returning_something_else(run_cli, tmp_path):
    text = edited("    return Game(content)", "    return None")
    folder = game_with(tmp_path, text)
    line = line_of(text, "def compile_game(")
    expect_finding(run_cli, folder, "E002", "engine.py", line, "not a CompiledGame")


@pytest.mark.parametrize(
    ("engine", "words"),
    [("missing.py", "no engine file 'missing.py'")],
)
def test_an_engine_file_that_is_not_there(run_cli, tmp_path, engine, words):
    folder = game_with(tmp_path)
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text().replace("engine: engine.py", f"engine: {engine}"))
    line = line_of(manifest.read_text(), "engine: ")
    expect_finding(run_cli, folder, "E001", "game.yaml", line, words)


def test_an_engine_outside_the_game_is_said_by_the_content_checks(run_cli, tmp_path):
    # R002 as a deck's path (validate said nothing, simulate E001: probe 51 L5); not imported
    folder = game_with(tmp_path)
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text().replace("engine: engine.py", "engine: ../outside.py"))
    (tmp_path / "outside.py").write_text("raise SystemExit('imported')\n")
    line = line_of(manifest.read_text(), "engine: ")
    for command in ("simulate", "validate"):
        result = run_cli(command, str(folder))
        no_traceback(result)
        assert result.exit_code == 1, result.output
        found = re.search(
            r"game\.yaml:(\d+):9: R002 \[error\] engine '\.\./outside\.py' leaves", result.output
        )
        assert found and int(found.group(1)) == line, result.output


# --- mistakes while playing: the game stops, the run goes on, the report says so ----------


def test_an_exception_in_apply_stops_that_game_only(run_cli, tmp_path):
    text = edited(
        "        seat, game = self.seat, self.game\n",
        "        seat, game = self.seat, self.game\n"
        "        if self.turns == 4 and self.points[0] % 2:\n"
        "            raise RuntimeError('odd points')\n",
    )
    folder = game_with(tmp_path, text)
    result = run_cli("simulate", str(folder), "-n", "60", "--seed", "3")
    no_traceback(result)
    assert result.exit_code == 1
    failed = int(re.search(r"(\d+) of 60 game\(s\) failed", result.output).group(1))
    assert 0 < failed < 60, result.output
    assert f"— {60 - failed} games" in result.stdout  # the report covers the others
    assert f"failed={failed} of 60 games" in result.stdout
    line = line_of(text, "raise RuntimeError")
    found = re.findall(
        r"engine\.py:(\d+):1: E004 \[error\] game (\d+) \(--seed 3, game seed \d+\)", result.stdout
    )
    assert found and all(int(at) == line for at, _ in found), result.stdout
    assert "RuntimeError: odd points" in result.stdout
    assert "playset replay --seed 3 -g " + found[0][1] in result.stdout


def test_an_illegal_move_from_the_engines_bot(run_cli, tmp_path):
    bot = (
        "\n\nclass Stubborn:\n"
        "    name = 'stubborn'\n\n"
        "    def choose(self, state, rng):\n"
        "        return 99\n\n\n"
        "BOTS = {'stubborn': lambda seat: Stubborn()}\n"
    )
    text = STARTER + bot
    folder = game_with(tmp_path, text)
    result = run_cli("simulate", str(folder), "-n", "7", "--bots", "stubborn")
    no_traceback(result)
    assert result.exit_code == 1
    line = line_of(text, "    def choose(self, state, rng):")
    assert f"engine.py:{line}:1: E003 [error] game 0 " in result.stdout, result.stdout
    assert "bot stubborn (seat 0) chose 99, not one of the legal actions" in result.stdout
    assert "7 of 7 game(s) failed" in result.output


def test_a_game_that_never_ends(run_cli, tmp_path):
    text = edited("        if self.seat:\n            return False\n", "        return False\n")
    folder = game_with(tmp_path, text)
    result = run_cli("simulate", str(folder), "-n", "3", "--bots", "random")
    no_traceback(result)
    assert result.exit_code == 1
    line = line_of(text, "    def is_terminal(self) -> bool:")
    assert f"engine.py:{line}:1: E005 [error] game 0 " in result.stdout, result.stdout
    assert "did not end within max_turns=400 moves" in result.stdout


def test_greedy_without_a_score_estimate_says_how_to_add_it(run_cli, tmp_path):
    folder = game_with(tmp_path, edited("def score_estimate(", "def estimate("))
    result = run_cli("simulate", str(folder), "-n", "5")
    assert result.exit_code == 2
    assert "PlayState.score_estimate(seat) -> float" in result.output
    assert run_cli("simulate", str(folder), "-n", "5", "--bots", "random").exit_code == 0


# --- what the engine returns, named at its line (probe 17b L7) -------------------------


def test_a_nan_score_estimate_is_named_not_an_empty_randrange(run_cli, tmp_path):
    text = edited(
        "        return self.worth(seat) - max(others, default=0)", '        return float("nan")'
    )
    line = line_of(text, "    def score_estimate(self, seat: int) -> float:")
    expect_finding(
        run_cli, game_with(tmp_path, text), "E004", "engine.py", line, "returned float nan"
    )


@pytest.mark.parametrize("value", ['"100"', "2.5", "True", "0"])
def test_max_turns_that_is_no_whole_number_is_an_e002(run_cli, tmp_path, value):
    text = edited(
        "        self.max_turns = ROUND_CAP * self.max_players", f"        self.max_turns = {value}"
    )
    line = line_of(text, "class Game(CompiledGame):")
    words = "max_turns is " + {'"100"': "str '100'"}.get(value, "")
    expect_finding(run_cli, game_with(tmp_path, text), "E002", "engine.py", line, words)
    result = run_cli("simulate", str(tmp_path / "tiny-run"), "-n", "2")
    assert "must be a whole number of moves, 1 or more" in result.stdout


def test_legal_actions_holding_a_bool_is_no_action(run_cli, tmp_path):
    text = edited(
        "        return playable or [0]  # an empty hand", "        return [True]  # an empty hand"
    )
    line = line_of(text, "    def legal_actions(self) -> list[int]:")
    words = "legal_actions() holds bool True, not an action (an int"
    expect_finding(run_cli, game_with(tmp_path, text), "E004", "engine.py", line, words)


# --- an installed plugin that cannot be imported -----------------------------------------


def test_a_broken_installed_plugin_is_a_finding_not_a_traceback(run_cli, tmp_path, monkeypatch):
    import toolkit.content.plugin as plugin

    folder = game_with(tmp_path, name="broken-plugin")
    broken = EntryPoint("broken-plugin", "no_such_plugin_module:PLUGIN", "playset.games")
    monkeypatch.setattr(plugin.REGISTRY, "entry_points", lambda group: [broken])
    monkeypatch.setattr(plugin.REGISTRY, "_found", False)
    monkeypatch.setattr(plugin.REGISTRY, "broken", {})
    result = run_cli("validate", str(folder))
    no_traceback(result)
    assert result.exit_code == 1
    line = line_of((folder / "game.yaml").read_text(), "id: broken-plugin")
    assert re.search(rf"game\.yaml:{line}:\d+: E007 .*ModuleNotFoundError", result.stdout), (
        result.output
    )


def test_replay_shows_the_failed_game_up_to_its_mistake(run_cli, tmp_path):
    text = edited(
        "        seat, game = self.seat, self.game\n",
        "        seat, game = self.seat, self.game\n"
        "        if self.turns == 4:\n"
        "            raise RuntimeError('turn four')\n",
    )
    folder = game_with(tmp_path, text)
    result = run_cli("replay", str(folder), "--seed", "3", "-g", "2")
    no_traceback(result)
    assert result.exit_code == 1
    line = line_of(text, "raise RuntimeError")
    assert f"engine.py:{line}:1: E004 [error] game 2 (--seed 3," in result.stdout, result.stdout
    assert "move 4: raised RuntimeError: turn four" in result.stdout


def test_a_sweep_point_whose_games_all_fail(run_cli, tmp_path):
    text = edited(
        "        seat, game = self.seat, self.game\n",
        "        seat, game = self.seat, self.game\n"
        "        if game.target == 12:\n"
        "            raise ValueError('twelve')\n",
    )
    folder = game_with(tmp_path, text)
    result = run_cli("sweep", str(folder), "--vary", "target_points=8,12", "-n", "20")
    no_traceback(result)
    assert result.exit_code == 1
    assert "20 of 40 game(s) failed" in result.output
    assert "E004 [error] game 0 (--seed 0," in result.stdout
    assert "ValueError: twelve" in result.stdout


def test_an_engine_package_folder_with_relative_imports(run_cli, tmp_path):
    folder = game_with(tmp_path)
    (folder / "engine.py").unlink()
    package = folder / "rules"
    package.mkdir()
    (package / "play.py").write_text(STARTER)
    (package / "__init__.py").write_text("from .play import compile_game\n\nBOTS = {}\n")
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text().replace("engine: engine.py", "engine: rules"))
    assert run_cli("validate", str(folder)).exit_code == 0
    result = run_cli("simulate", str(folder), "-n", "50")
    assert result.exit_code == 0, result.output
    assert "tiny-run — 50 games" in result.stdout
    (package / "__init__.py").unlink()
    result = run_cli("simulate", str(folder), "-n", "5")
    assert result.exit_code == 1 and "engine folder 'rules' has no __init__.py" in result.stdout


def test_a_game_without_engine_is_told_how_to_add_one(run_cli, tmp_path):
    folder = tmp_path / "no-engine"
    new_game(folder, "no-engine", ["en"])
    simulated = run_cli("simulate", str(folder), "-n", "5")
    assert simulated.exit_code == 2
    checked = run_cli("check", str(folder))
    assert checked.exit_code == 0
    for said in (simulated.output, checked.output):
        flat = " ".join(said.split())
        assert "no simulation engine" in flat and "docs/engines.md" in flat, said
        assert "playset new GAME --engine" in flat and "engine: engine.py" in flat, said
