"""Every extension point guards an installed plugin's code (probe 15 M1–M5, issue #33): a
check family's GeneratorExit or own BaseException, a malformed Diagnostic, a `__wrapped__`
loop, a name a built-in already has, an artifact, metric or i18n unit kind that raises: one
clear finding or error naming the plugin, never a traceback; its print() never reaches a
JSON report, and its os.chdir never moves `build --out`. Ctrl-C still stops."""

from __future__ import annotations

import importlib
import json
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from tests.outside import installed
from tests.test_check_plugins import _e008, _game, _installed, _line
from toolkit.checks import FAMILIES, iter_rules, run_checks
from toolkit.content.game import load_game
from toolkit.registry import Registry


@pytest.fixture(autouse=True)
def _no_rule_left_behind():
    from toolkit.diagnostics import REGISTRY

    yield
    for code in ("G901", "G902"):
        REGISTRY.unregister(code)


OWN_BASE = "\nclass Own(BaseException):\n    pass\n"


# ------------------------------------------------------------------ M1: BaseException


@pytest.mark.parametrize(
    ("body", "needle", "said"),
    [
        (
            "    raise GeneratorExit('gen exit')\n    yield\n",
            "raise Gen",
            "GeneratorExit: gen exit",
        ),
        ("    raise Own('mine')\n    yield\n", "raise Own", "Own: mine"),
    ],
    ids=["generator-exit", "own-base-exception"],
)
def test_a_check_raising_a_base_exception_is_e008(
    run_cli, tmp_path, monkeypatch, body, needle, said
):
    folder = _game(tmp_path)
    plugin = _installed(tmp_path, monkeypatch, body, OWN_BASE)
    result = run_cli("validate", str(folder), "--no-cache")
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 1, result.output
    (found,) = _e008(result.stdout)
    assert f"{plugin.name}:{_line(plugin, needle)}:1: E008 [error]" in found, found
    assert said in found, found
    assert "G901" in result.stdout  # the healthy family still ran


def test_a_base_exception_at_import_is_e008(run_cli, tmp_path, monkeypatch):
    folder = _game(tmp_path)
    plugin = _installed(
        tmp_path, monkeypatch, "    yield from ()\n", OWN_BASE + "raise Own('at import')\n"
    )
    result = run_cli("validate", str(folder), "--no-cache")
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 1, result.output
    found = _e008(result.stdout)
    assert found and all("cannot be imported (Own: at import)" in f for f in found), found
    assert f"{plugin.name}:{_line(plugin, 'raise Own')}:1:" in found[0], found


def test_ctrl_c_at_a_plugins_import_still_stops(tmp_path, monkeypatch):
    folder = _game(tmp_path)
    _installed(tmp_path, monkeypatch, "    yield from ()\n", "\nraise KeyboardInterrupt\n")
    with pytest.raises(KeyboardInterrupt):
        run_checks(load_game(folder))


# ------------------------------------------------------------------ M2: odd objects

MALFORMED = "    from toolkit.diagnostics import Diagnostic\n    yield Diagnostic({args})\n"


@pytest.mark.parametrize(
    ("args", "why"),
    [
        ("None, None, None", "its file is NoneType, not str"),
        ("3, 'G901', 'x'", "its file is int, not str"),
        ("'game.yaml', 'G901', 'x', 'fatal'", "its severity is 'fatal'"),
        ("'game.yaml', 'G901', 'x', 'error', 'here'", "its span is str, not Span"),
        ("'game.yaml', 'G901', 'x', 'error', Span('1', 1)", "its span's line is str, not int"),
    ],
    ids=["file-none", "file-int", "severity-fatal", "span-str", "line-str"],
)
def test_a_malformed_diagnostic_is_e008_in_every_format(run_cli, tmp_path, monkeypatch, args, why):
    folder = _game(tmp_path)
    _installed(tmp_path, monkeypatch, MALFORMED.format(args=args))
    for fmt in ("text", "json", "sarif"):
        result = run_cli("validate", str(folder), "--no-cache", "-f", fmt)
        assert "Traceback" not in result.output, result.output
        assert result.exit_code == 1, result.output
        assert "E008" in result.stdout and "malformed Diagnostic" in result.stdout, result.output
        assert why in result.stdout, result.stdout


def test_a_severity_given_as_its_text_is_taken(run_cli, tmp_path, monkeypatch):
    folder = _game(tmp_path)
    _installed(tmp_path, monkeypatch, MALFORMED.format(args="'game.yaml', 'G901', 'hm', 'warning'"))
    result = run_cli("validate", str(folder), "--no-cache", "-f", "json")
    assert "Traceback" not in result.output, result.output
    found = json.loads(result.stdout)
    assert [d["severity"] for d in found if d["message"] == "hm"] == ["warning"], found
    assert not [d for d in found if d["code"] == "E008"], found


def test_a_check_whose_wrapped_loops_is_e008_at_game_yaml(run_cli, tmp_path, monkeypatch):
    folder = _game(tmp_path)
    tail = (
        "\nclass Looped:\n"
        "    def __init__(self):\n"
        "        self.__wrapped__ = self\n"
        "    def __call__(self, game, facts):\n"
        "        raise RuntimeError('wrapped boom')\n"
        "check = Looped()\n"
    )
    _installed(tmp_path, monkeypatch, "    yield from ()\n", tail)
    result = run_cli("validate", str(folder), "--no-cache")
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 1, result.output
    (found,) = _e008(result.stdout)
    assert "game.yaml:1:1: E008" in found and "RuntimeError: wrapped boom" in found, found


# ------------------------------------------------------------------ M4, M5: process state


def test_a_checks_chdir_does_not_move_build_out(run_cli, tmp_path, monkeypatch):
    folder = _game(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    here = tmp_path / "here"
    here.mkdir()
    body = f"    import os\n    os.chdir({str(elsewhere)!r})\n    yield from ()\n"
    plugin = _installed(tmp_path, monkeypatch, body)
    only = EntryPoint("boomcheck", f"{plugin.stem}:FAMILY", "playset.checks")  # no G901 error
    monkeypatch.setattr(FAMILIES, "entry_points", lambda group: [only])
    monkeypatch.chdir(here)
    result = run_cli("build", str(folder), "--no-cache", "--out", "relout", "--only", "cards")
    assert result.exit_code == 0, result.output
    assert Path.cwd() == here
    assert (here / "relout" / "plug-game" / "en" / "cards.pdf").is_file()
    assert not (elsewhere / "relout").exists()


def test_a_checks_print_does_not_reach_a_json_report(run_cli, tmp_path, monkeypatch):
    folder = _game(tmp_path)
    _installed(tmp_path, monkeypatch, "    print('PLUGIN NOISE')\n    yield from ()\n")
    for fmt in ("json", "sarif"):
        result = run_cli("validate", str(folder), "--no-cache", "-f", fmt)
        json.loads(result.stdout)  # the report alone
        assert "PLUGIN NOISE" in result.stderr


# ------------------------------------------------------------------ M3: every registry


@pytest.fixture
def thing_registry():
    made: Registry = Registry(
        "thing", group="playset.test-things", accepts=lambda obj: hasattr(obj, "name")
    )
    builtin = {"__name__": "toolkit.fake_builtin"}  # registered from a module of Playset's own
    exec("def add(made, entry):\n    return made.register(entry)\n", builtin)
    return made, builtin["add"]


def test_an_entry_point_taking_a_builtins_name_is_left_out_with_a_warning(
    tmp_path, capsys, thing_registry
):
    from tests.test_registry import Entry

    made, add_builtin = thing_registry
    add_builtin(made, Entry("cards", 1))
    source = "from tests.test_registry import Entry\nENTRY = Entry('cards', 2)\n"
    with installed(
        tmp_path,
        "clashing_things",
        source,
        "playset.test-things",
        {"clash": "clashing_things:ENTRY"},
        made,
    ):
        assert made.load()["cards"] == Entry("cards", 1)  # the built-in stays
        assert "registered twice" in made.broken["clash"]
        warned = capsys.readouterr().err
    assert "warning: the installed thing 'clash'" in warned, warned
    assert "clashing_things:ENTRY" in warned and "registered twice" in warned, warned


def test_a_builtin_registered_after_a_plugin_of_its_name_wins(tmp_path, capsys, thing_registry):
    from tests.test_registry import Entry

    made, add_builtin = thing_registry
    source = "from tests.test_registry import Entry\nENTRY = Entry('E001', 2)\n"
    with installed(
        tmp_path,
        "early_things",
        source,
        "playset.test-things",
        {"early": "early_things:ENTRY"},
        made,
    ):
        assert made.load()["E001"] == Entry("E001", 2)
        assert not made.is_builtin("E001")
        add_builtin(made, Entry("E001", 1))  # a module of Playset's imported later
        assert made.load()["E001"] == Entry("E001", 1) and made.is_builtin("E001")
        assert "built-in" in made.broken["early"]
    assert "warning: the installed thing 'early'" in capsys.readouterr().err


def test_an_entry_points_base_exception_at_import_is_noted_and_ctrl_c_passes(
    tmp_path, capsys, thing_registry
):
    made, _ = thing_registry
    source = "class Own(BaseException):\n    pass\nprint('IMPORT NOISE')\nraise Own('mine')\n"
    with installed(
        tmp_path, "own_base_things", source, "playset.test-things", {"own": "own_base_things"}, made
    ):
        assert made.broken["own"] == "Own: mine"
    captured = capsys.readouterr()
    assert "IMPORT NOISE" not in captured.out and "IMPORT NOISE" in captured.err
    with (
        pytest.raises(KeyboardInterrupt),
        installed(
            tmp_path / "b",
            "ctrl_c_things",
            "raise KeyboardInterrupt\n",
            "playset.test-things",
            {"stop": "ctrl_c_things"},
            made,
        ),
    ):
        pass


def test_a_rule_taking_a_builtin_code_leaves_rules_and_reference_working(tmp_path, run_cli, capsys):
    from tests.outside import reference_text
    from toolkit.diagnostics import REGISTRY as RULES

    source = (
        "from toolkit.diagnostics import Rule, Severity\n"
        "RULE = Rule('E001', 'mine', 'a clash', Severity.ERROR)\n"
    )
    for module in iter_rules():  # every built-in rule declared first
        importlib.import_module(module)
    builtin = RULES.get("E001")
    with installed(
        tmp_path, "clashing_rule", source, "playset.rules", {"clash": "clashing_rule:RULE"}, RULES
    ):
        assert "rule code 'E001' registered twice" in capsys.readouterr().err
        result = run_cli("rules")
        assert result.exit_code == 0 and "Traceback" not in result.output, result.output
        assert RULES.get("E001") is builtin
        assert "a clash" not in reference_text()


ARTIFACTS = """
from toolkit.render.artifacts import Artifact

def boom(game, lang, options):
    raise {raised}

def text(game, lang, options):
    return [("odd.pdf", "not bytes")]

CLASH = Artifact("cards", "takes the built-in's name", boom)
BOOM = Artifact("boomart", "raises", boom)
TEXT = Artifact("textart", "gives text", text)
"""


@pytest.mark.parametrize(
    ("only", "said"),
    [
        (
            "boomart",
            "the artifact 'boomart' (outside_art, entry point `boom = outside_art:BOOM`) "
            "failed: Own: art",
        ),
        ("textart", "gave a str name and str data, not a file name and bytes"),
    ],
    ids=["raises", "not-bytes"],
)
def test_a_failing_artifact_is_a_build_error_naming_it(tmp_path, run_cli, only, said):
    from toolkit.render.artifacts import REGISTRY

    folder = _game(tmp_path)
    REGISTRY.load()  # the built-ins found first (`installed` forgets what came after)
    source = OWN_BASE + ARTIFACTS.format(raised="Own('art')")
    points = {"clash": "outside_art:CLASH", "boom": "outside_art:BOOM", "text": "outside_art:TEXT"}
    with installed(tmp_path, "outside_art", source, "playset.artifacts", points, REGISTRY):
        assert REGISTRY.origin("cards") == "toolkit.render.artifacts.cards"
        out = tmp_path / "out"
        result = run_cli("build", str(folder), "--no-cache", "--out", str(out), "--only", only)
        assert "Traceback" not in result.output, result.output
        assert result.exit_code == 1, result.output
        assert said in result.output, result.output
        good = run_cli("build", str(folder), "--no-cache", "--out", str(out), "--only", "cards")
        assert good.exit_code == 0, good.output  # the built-in cards, not the plugin's


METRIC = """
from toolkit.sim.metrics import Metric

def boom(report):
    raise RuntimeError("metric boom")

BOOM = Metric("boom_metric", "boom", "p15", boom)
CLASH = Metric("turns_mean", "clash", "p15", boom)
"""


def test_a_failing_metric_is_e008_in_check_and_a_warning_in_simulate(tmp_path, run_cli):
    from toolkit.sim.metrics import METRICS

    METRICS.load()  # the built-ins found first (`installed` forgets what came after)
    points = {"boom": "outside_metric_boom:BOOM", "clash": "outside_metric_boom:CLASH"}
    with installed(tmp_path, "outside_metric_boom", METRIC, "playset.metrics", points, METRICS):
        assert METRICS.is_builtin("turns_mean") and "clash" in METRICS.broken
        result = run_cli("check", "muckle-stoater", "-n", "10")
        assert "Traceback" not in result.output, result.output
        assert result.exit_code == 1, result.output
        assert "E008" in result.stdout and "'boom_metric'" in result.stdout, result.output
        assert "RuntimeError: metric boom" in result.stdout, result.output
        assert "the installed metric 'clash'" in result.stdout, result.output
        report = tmp_path / "r.json"
        result = run_cli("simulate", "muckle-stoater", "-n", "10", "--json", str(report))
        assert result.exit_code == 0 and "Traceback" not in result.output, result.output
        json.loads(report.read_text())


UNITS = """
class Units:
    name = "boomunits"

    def units(self, game, lang):
        raise RuntimeError("unit boom")

    def apply(self, game, lang, changes):
        raise RuntimeError("unit boom")

class NoInputs:
    name = "noinputs"

    def units(self, game, lang):
        return []

UNITS = Units()
NO_INPUTS = NoInputs()
"""


@pytest.mark.parametrize(
    ("point", "args", "said"),
    [
        ("outside_units_boom:UNITS", ("status",), "RuntimeError: unit boom"),
        ("outside_units_boom:NO_INPUTS", ("export", "--lang", "es"), "has no attribute 'inputs'"),
    ],
    ids=["status-raises", "export-no-inputs"],
)
def test_a_failing_i18n_unit_kind_is_an_error_naming_it(tmp_path, run_cli, point, args, said):
    from toolkit.i18n.units import KINDS

    folder = tmp_path / "game"
    from toolkit.scaffold.new import new_game

    new_game(folder, "unit-game", ["en", "es"])
    with installed(
        tmp_path, "outside_units_boom", UNITS, "playset.i18n_units", {"kind": point}, KINDS
    ):
        result = run_cli("i18n", args[0], str(folder), *args[1:])
        assert "Traceback" not in result.output, result.output
        assert result.exit_code == 1, result.output
        assert "i18n unit kind" in result.output and said in result.output, result.output
        assert point in result.output, result.output


# ------------------------------------------------------------------ Low: the reference


def test_the_reference_documents_playsets_own_entries_unless_asked(tmp_path):
    import typer

    from toolkit import reference
    from toolkit.cli import make_app
    from toolkit.diagnostics import REGISTRY as RULES

    source = (
        "from toolkit.diagnostics import Rule\n"
        "RULE = Rule('G977', 'outside-rule', 'An outside rule.')\n"
    )
    with installed(
        tmp_path,
        "outside_rule_ref",
        source,
        "playset.rules",
        {"g977": "outside_rule_ref:RULE"},
        RULES,
    ):
        cli = typer.main.get_command(make_app())
        assert "G977" not in reference.render(cli)  # docs/reference.md: Playset's own
        assert "`G977`" in reference.render(cli, plugins=True)


EXPORT = """
from toolkit.render.exports import Export

class Own(BaseException):
    pass

def run(game, out, options, report, progress):
    print("EXPORT NOISE")
    raise Own("export boom")

BOOM = Export("boomexport", "raises", run)
"""


def test_a_failing_export_is_an_error_naming_it(tmp_path, run_cli):
    from toolkit.render.exports import REGISTRY

    folder = _game(tmp_path)
    REGISTRY.load()
    with installed(
        tmp_path,
        "outside_export_boom",
        EXPORT,
        "playset.exports",
        {"boom": "outside_export_boom:BOOM"},
        REGISTRY,
    ):
        out = tmp_path / "out"
        result = run_cli("export", "boomexport", str(folder), "--out", str(out))
        assert "Traceback" not in result.output, result.output
        assert result.exit_code == 1, result.output
        assert "the export 'boomexport' (outside_export_boom" in result.stderr, result.output
        assert "Own: export boom" in result.stderr and "EXPORT NOISE" not in result.stdout


@pytest.mark.parametrize("raised", ["GeneratorExit('gen exit')", "Own('mine')"])
def test_the_lsp_publishes_a_check_raising_a_base_exception(tmp_path, monkeypatch, raised):
    from toolkit.lsp.mirror import Mirror
    from toolkit.lsp.workspace import GameState

    folder = _game(tmp_path)
    plugin = _installed(tmp_path, monkeypatch, f"    raise {raised}\n    yield\n", OWN_BASE)
    by_file = GameState(Mirror(folder)).check()
    assert any(d.code == "E008" for d in by_file.get(str(plugin), [])), by_file
    assert any(d.code == "G901" for found in by_file.values() for d in found), by_file


BROKEN_ELEMENT = '''
from typing import Literal
from toolkit.render.elements import Element

class BrokenStripe(Element):
    """A plugin element kind whose drawing fails."""

    kind: Literal["brokenstripe"]

    def draw(self, c, item, x, y, job):
        raise RuntimeError("stripe boom")

    def measure(self, item, job):
        return None
'''


def test_a_plugin_element_kind_failing_to_draw_is_a_build_error_naming_it(tmp_path, run_cli):
    from tests.conftest import FIXTURES, copy_game
    from toolkit.render.elements import REGISTRY

    game = copy_game(FIXTURES / "base", tmp_path / "game")
    (game / "layouts").mkdir(exist_ok=True)
    layout = (
        "id: striped\nelements:\n  - kind: brokenstripe\n    box: {x: 0, y: 30, w: -0, h: 10}\n"
    )
    (game / "layouts" / "striped.yaml").write_text(layout, encoding="utf-8")
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("size: poker\n", "size: poker\nlayout: striped\n"), "utf-8")
    REGISTRY.load()
    points = {"brokenstripe": "outside_broken_stripe:BrokenStripe"}
    with installed(
        tmp_path, "outside_broken_stripe", BROKEN_ELEMENT, "playset.elements", points, REGISTRY
    ):
        out = tmp_path / "out"
        result = run_cli(
            "build", str(game), "--only", "cards", "--lang", "en", "--out", str(out), "--no-cache"
        )
        assert "Traceback" not in result.output, result.output
        assert result.exit_code == 1, result.output
        assert "the element kind 'brokenstripe' (outside_broken_stripe" in result.output
        assert "RuntimeError: stripe boom" in result.output, result.output


CLASHING_ARTIFACT = """
from toolkit.render.artifacts import Artifact

CLASH = Artifact("cards", "takes the built-in's name", lambda game, lang, options: [])
"""


def test_build_of_every_artifact_fails_when_an_installed_one_is_left_out(tmp_path, run_cli, capsys):
    from toolkit.render.artifacts import REGISTRY

    folder = _game(tmp_path)
    REGISTRY.load()
    points = {"clash": "outside_art_clash:CLASH"}
    with installed(
        tmp_path, "outside_art_clash", CLASHING_ARTIFACT, "playset.artifacts", points, REGISTRY
    ):
        warned = capsys.readouterr().err
        assert "the installed artifact 'clash'" in warned and "registered twice" in warned
        out = tmp_path / "out"
        result = run_cli("build", str(folder), "--no-cache", "--out", str(out))
        assert "Traceback" not in result.output, result.output
        assert result.exit_code == 1, result.output
        assert (out / "plug-game" / "en" / "cards.pdf").is_file()  # the built-in's cards
        only = run_cli("build", str(folder), "--no-cache", "--out", str(out), "--only", "cards")
        assert only.exit_code == 0, only.output


def test_playsets_own_entry_points_bring_builtins():
    """The bundled games are also `playset.games` entry points (pyproject.toml): loaded
    through one first (`plugin_for`), a game is still Playset's own, and the reference
    lists it."""
    from toolkit.content.plugin import GamePlugin
    from toolkit.registry import Point

    made: Registry[GamePlugin] = Registry(
        "game plugin",
        group="playset.games",
        key=lambda plugin: plugin.game_id,
        accepts=lambda obj: isinstance(obj, GamePlugin),
    )
    point = Point("muckle-stoater", "toolkit.games.muckle_stoater:PLUGIN", "playset.games")
    made.entry_points = lambda group: [point]
    made.discover_one("muckle-stoater")
    assert list(made.registered()) == ["muckle-stoater"]
    assert made.is_builtin("muckle-stoater") and list(made.builtins()) == ["muckle-stoater"]
