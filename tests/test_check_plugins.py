"""An installed check (a `playset.checks` family, a game plugin's check) that raises, calls
sys.exit(), yields junk or fails to import is one E008 finding at its own line, exit 1, never
a traceback and never a silent exit 0; the other checks still run (probe 14 M1, issue #33)."""

from __future__ import annotations

import itertools
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from toolkit.checks import FAMILIES, run_checks
from toolkit.content.game import load_game
from toolkit.diagnostics import Span, rule
from toolkit.scaffold.new import new_game

_NAMES = itertools.count()

FAMILY_HEAD = """\
from toolkit.checks import CheckFamily
from toolkit.diagnostics import Span, rule

FINE = rule("G901", "fine-plugin-rule", "A test plugin's own finding.")


def fine(game, facts):
    yield FINE.at("game.yaml", Span(1, 1), "the healthy plugin ran")


def check(game, facts):
"""


@pytest.fixture(autouse=True)
def _no_rule_left_behind():
    """The test plugins' rules (G901, G902) are gone after each test: `playset reference`
    and the rule listings of later tests in this process must not show them."""
    from toolkit.diagnostics import REGISTRY

    yield
    for code in ("G901", "G902"):
        REGISTRY.unregister(code)


def _game(tmp_path: Path) -> Path:
    folder = tmp_path / "plug-game"
    new_game(folder, "plug-game", ["en"])
    return folder


def _installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str, tail: str = "") -> Path:
    """A module `broken_checks_N` on sys.path whose entry points `boomcheck` (the family of
    `check`, made of `body`) and `finecheck` (a family with one finding) are installed."""
    name = f"broken_checks_{next(_NAMES)}"
    source = (
        FAMILY_HEAD
        + body
        + tail
        + (
            '\nFAMILY = CheckFamily("boomcheck", "a broken family", check)\n'
            'FINE_FAMILY = CheckFamily("finecheck", "a healthy family", fine)\n'
        )
    )
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    points = [
        EntryPoint("boomcheck", f"{name}:FAMILY", "playset.checks"),
        EntryPoint("finecheck", f"{name}:FINE_FAMILY", "playset.checks"),
    ]
    # the built-in families register when their modules are first imported: loaded before the
    # copy, so that they are in what is put back (else they are lost for the tests after)
    FAMILIES.load()
    for attr in ("_entries", "_origin", "_seq", "_points"):
        monkeypatch.setattr(FAMILIES, attr, dict(getattr(FAMILIES, attr)))
    monkeypatch.setattr(FAMILIES, "_modules", list(FAMILIES._modules))
    monkeypatch.setattr(FAMILIES, "entry_points", lambda group: points)
    monkeypatch.setattr(FAMILIES, "_found", False)
    monkeypatch.setattr(FAMILIES, "broken", {})
    monkeypatch.setattr(FAMILIES, "broken_at", {}, raising=False)
    return path


def _line(path: Path, needle: str) -> int:
    text = path.read_text(encoding="utf-8")
    return text[: text.index(needle)].count("\n") + 1


def _e008(output: str) -> list[str]:
    return [line for line in output.splitlines() if " E008 " in line]


@pytest.mark.parametrize(
    ("body", "needle", "said"),
    [
        ("    raise RuntimeError('boom in plugin check')\n", "raise Runtime", "RuntimeError: boom"),
        ("    raise SystemExit(0)\n    yield\n", "raise SystemExit", "SystemExit"),
        ("    yield 'junk'\n", "def check", "yielded 'junk' (str), not a Diagnostic"),
    ],
    ids=["raises", "sys-exit", "junk"],
)
def test_a_failing_check_family_is_a_finding_at_its_line(
    run_cli, tmp_path, monkeypatch, body, needle, said
):
    folder = _game(tmp_path)
    plugin = _installed(tmp_path, monkeypatch, body)
    result = run_cli("validate", str(folder), "--no-cache")
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 1, result.output
    found = _e008(result.stdout)
    assert len(found) == 1, result.output
    assert f"{plugin.name}:{_line(plugin, needle)}:1: E008 [error]" in found[0], found
    assert "'boomcheck'" in found[0] and said in found[0], found
    assert "G901" in result.stdout  # the healthy family still ran


def test_a_check_family_calling_sys_exit_does_not_end_build_silently(
    run_cli, tmp_path, monkeypatch
):
    folder = _game(tmp_path)
    _installed(tmp_path, monkeypatch, "    raise SystemExit(0)\n    yield\n")
    out = tmp_path / "out"
    result = run_cli("build", str(folder), "--no-cache", "--out", str(out))
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 1, result.output
    assert _e008(result.output), result.output


def test_i18n_status_reports_a_failing_check_family(run_cli, tmp_path, monkeypatch):
    folder = _game(tmp_path)
    _installed(tmp_path, monkeypatch, "    raise RuntimeError('boom')\n")
    result = run_cli("i18n", "status", str(folder))
    assert "Traceback" not in result.output, result.output
    assert "E008" in result.output or result.exit_code != 0, result.output


def test_a_check_family_that_cannot_be_imported_is_a_finding_not_clean(
    run_cli, tmp_path, monkeypatch
):
    folder = _game(tmp_path)
    plugin = _installed(
        tmp_path, monkeypatch, "    yield from ()\n", "\nraise ImportError('plugin import fails')\n"
    )
    result = run_cli("validate", str(folder), "--no-cache")
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 1, result.output
    found = _e008(result.stdout)
    assert len(found) == 2, result.output  # both families of the module are missing
    line = _line(plugin, "raise ImportError")
    assert all(f"{plugin.name}:{line}:1: E008 [error]" in f for f in found), found
    assert "cannot be imported (ImportError: plugin import fails)" in found[0], found


def test_a_game_plugins_check_that_raises_is_a_finding(tmp_path, monkeypatch):
    folder = _game(tmp_path)
    game = load_game(folder)
    good = rule("G902", "fine-game-check", "A test game check's finding.")

    def boom(game):
        raise ValueError("bad game check")

    def fine(game):
        yield good.at("game.yaml", Span(1, 1), "ran")

    monkeypatch.setattr(game.plugin, "checks", (boom, fine))
    found = run_checks(game)
    codes = [d.code for d in found]
    assert "G902" in codes, found
    (failed,) = [d for d in found if d.code == "E008"]
    assert failed.file.endswith("test_check_plugins.py"), failed
    assert "'boom'" in failed.message and "ValueError: bad game check" in failed.message
    assert failed.line == _line(Path(__file__), 'raise ValueError("bad game check")')


def test_ctrl_c_in_a_check_still_stops(tmp_path, monkeypatch):
    folder = _game(tmp_path)
    game = load_game(folder)

    def stop(game):
        raise KeyboardInterrupt

    monkeypatch.setattr(game.plugin, "checks", (stop,))
    with pytest.raises(KeyboardInterrupt):
        run_checks(game)


def test_the_lsp_publishes_a_failing_family(tmp_path, monkeypatch):
    from toolkit.lsp.mirror import Mirror
    from toolkit.lsp.workspace import GameState

    folder = _game(tmp_path)
    plugin = _installed(tmp_path, monkeypatch, "    raise RuntimeError('boom')\n")
    state = GameState(Mirror(folder))
    by_file = state.check()
    assert any(d.code == "E008" for d in by_file.get(str(plugin), [])), by_file


def test_a_missing_check_module_is_a_finding_at_game_yaml(tmp_path, monkeypatch):
    folder = _game(tmp_path)
    _installed(tmp_path, monkeypatch, "    yield from ()\n")
    gone = EntryPoint("gonecheck", "no_such_check_module_here:FAMILY", "playset.checks")
    monkeypatch.setattr(FAMILIES, "entry_points", lambda group: [gone])
    found = [d for d in run_checks(load_game(folder)) if d.code == "E008"]
    assert len(found) == 1, found
    assert found[0].file.endswith("game.yaml") and found[0].line == 1, found
    assert "'gonecheck'" in found[0].message and "ModuleNotFoundError" in found[0].message
