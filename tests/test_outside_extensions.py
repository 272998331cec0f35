"""Every extension point takes one module from outside the toolkit and nothing else: an
installed package (a module and its entry point, `tests/outside.py`) shows up in the command
line, in `playset reference` and in a run."""

from __future__ import annotations

import pypdf
import pytest

from tests.conftest import FIXTURES, copy_game
from tests.outside import installed, reference_text


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
    from toolkit.render.artifacts import REGISTRY

    with installed(tmp_path, "poster_artifact", ARTIFACT, "playset.artifacts",
                   {"poster": "poster_artifact"}, REGISTRY):  # fmt: skip
        build_cli._with_settings(build_cli.build)
        helped = run_cli("build", "--help")
        assert "--poster-tone" in helped.output
        assert "| `poster` | `poster-<lang>.txt`" in reference_text()
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
    from toolkit.render.exports import REGISTRY

    with installed(tmp_path, "cardlist_export", EXPORT, "playset.exports",
                   {"cardlist": "cardlist_export:LIST"}, REGISTRY):  # fmt: skip
        assert "cardlist" in run_cli("export", "--help").output
        helped = run_cli("export", "cardlist", "--help")
        assert helped.exit_code == 0 and "--sep" in helped.output
        assert "| `cardlist` | A text file of every card's id." in reference_text()
        assert run_cli("export", "cardlist", str(game), "--sep", "").exit_code == 2
        out = tmp_path / "out"
        result = run_cli("export", "cardlist", str(game), "--sep", ";", "--out", str(out),
                         "--lang", "en")  # fmt: skip
        assert result.exit_code == 0, result.output
        assert "the list is plain text" in result.stderr
        text = (out / "fixture-game" / "en" / "list.txt").read_text()
        assert ";" in text and text.split(";")[0]
    assert "cardlist" not in run_cli("export", "--help").output


CHECK_FAMILY = """
from toolkit.checks import CheckFamily, register
from toolkit.diagnostics import Severity, Span, rule

R_HOUSE = rule("R950", "house-style", "An outside package's own check.", Severity.WARNING)

def check(game, facts):
    if game.manifest_file is not None:
        yield R_HOUSE.at(game.manifest_file.rel, Span(1, 1), "house style says hello")

register(CheckFamily("house", "An outside package's checks.", check))
"""


def test_an_outside_check_family_and_its_rule(tmp_path, run_cli, game):
    from toolkit.checks import FAMILIES
    from toolkit.diagnostics import REGISTRY

    with installed(tmp_path, "house_checks", CHECK_FAMILY, "playset.checks",
                   {"house": "house_checks"}, FAMILIES, REGISTRY):  # fmt: skip
        assert "R950" in run_cli("rules").output
        text = reference_text()
        assert "| `R950` | house-style |" in text and "`house`" in text
        result = run_cli("validate", str(game))
        assert "R950" in result.output and "house style says hello" in result.output
    assert "R950" not in REGISTRY and "house" not in FAMILIES.registered()
    assert "R950" not in run_cli("validate", str(game)).output


ELEMENT = '''
from typing import Literal
from reportlab.lib.units import mm
from toolkit.render.elements import Element, Measure
from toolkit.render.textfit import Fit

class StripeElement(Element):
    """A band of colour across its box (an outside package's element kind)."""

    kind: Literal["stripe"]
    colour: str = "#123456"

    def draw(self, c, item, x, y, job):
        c.saveState()
        c.setFillColor(self.colour)
        c.rect(x, y, item.w * mm, item.h * mm, stroke=0, fill=1)
        c.restoreState()

    def measure(self, item, job):
        return None
'''

STRIPED = """\
id: striped
elements:
  - kind: stripe
    box: {x: 0, y: 30, w: -0, h: 10}
  - kind: text
    box: {x: 4, y: 4, w: -4, h: 20}
    text: "{{ card.name }}"
    size: {max: 12, min: 7}
"""


def test_an_outside_element_kind(tmp_path, run_cli, game):
    from toolkit.render.elements import REGISTRY

    (game / "layouts").mkdir(exist_ok=True)
    (game / "layouts" / "striped.yaml").write_text(STRIPED, encoding="utf-8")
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("size: poker\n", "size: poker\nlayout: striped\n"), "utf-8")
    assert "size: poker\nlayout: striped" in deck.read_text(encoding="utf-8")
    with installed(tmp_path, "outside_stripe", ELEMENT, "playset.elements",
                   {"stripe": "outside_stripe:StripeElement"}, REGISTRY):  # fmt: skip
        assert "| `stripe` |" in reference_text()
        result = run_cli("validate", str(game))
        assert result.exit_code == 0, result.output
        out = tmp_path / "out"
        result = run_cli("build", str(game), "--only", "cards", "--lang", "en",
                         "--out", str(out))  # fmt: skip
        assert result.exit_code == 0, result.output
        page = pypdf.PdfReader(out / "fixture-game" / "en" / "cards.pdf").pages[0]
        drawn = [page.get_contents().get_data()]  # and the forms it places (a card's copies)
        drawn += [x.get_object().get_data() for x in page["/Resources"]["/XObject"].values()]
        assert ".070588 .203922 .337255 rg" in b"".join(drawn).decode("latin-1")
    assert run_cli("validate", str(game)).exit_code == 1  # `stripe` is unknown again


BOARD = '''
from typing import Literal
from pydantic import Field
from reportlab.lib.units import mm
from toolkit.content.models.base import LocalizedText, Slug, StrictModel
from toolkit.content.models.board import BoardKind, register_board_kind
from toolkit.render.tiling import Drawing

class DotsBoard(StrictModel):
    """A grid of dots (an outside package's board kind)."""

    kind: Literal["dots"]
    id: Slug
    name: LocalizedText
    dots: int = Field(ge=1, le=50)

def draw(board, look):
    def paint(c):
        c.setFont("Helvetica", 14)
        c.drawString(20 * mm, 20 * mm, f"{look.text(board.name)}: {board.dots} dots")
    return [Drawing(200 * mm, 150 * mm, look.text(board.name), paint)]

DOTS = register_board_kind(BoardKind("dots", DotsBoard, draw, lambda b: f"{b.dots} dots"))
'''


def test_an_outside_board_kind(tmp_path, run_cli, game):
    from toolkit.content.models.board import BOARD_KINDS

    (game / "boards" / "map.yaml").write_text(
        "kind: dots\nid: dots\nname: {fr: Points, es: Puntos, en: Dots}\ndots: 7\n",
        encoding="utf-8",
    )
    with installed(tmp_path, "outside_dots", BOARD, "playset.boards",
                   {"dots": "outside_dots"}, BOARD_KINDS):  # fmt: skip
        assert "7 dots" in run_cli("list", str(game)).output
        assert "| `dots` | [DotsBoard]" in reference_text()
        out = tmp_path / "out"
        result = run_cli("build", str(game), "--only", "board", "--lang", "en",
                         "--out", str(out))  # fmt: skip
        assert result.exit_code == 0, result.output
        pdf = pypdf.PdfReader(out / "fixture-game" / "en" / "board.pdf")
        assert "Dots: 7 dots" in "".join(page.extract_text() for page in pdf.pages)
    assert run_cli("validate", str(game)).exit_code == 1  # `dots` is unknown again


METRIC = """
from toolkit.sim.metrics import Metric, MetricValue

def values(report):
    yield MetricValue("longest_game", "longest game", "headline", "count", report.turns.max)

LONGEST = Metric("longest_game", "longest game", "headline", values)
"""


def test_an_outside_metric(tmp_path, run_cli):
    import json

    from toolkit.sim.metrics import METRICS

    with installed(tmp_path, "outside_metric", METRIC, "playset.metrics",
                   {"longest": "outside_metric:LONGEST"}, METRICS):  # fmt: skip
        assert "`longest_game`" in reference_text()
        report = tmp_path / "report.json"
        result = run_cli("simulate", "muckle-stoater", "-n", "10", "--json", str(report))
        assert result.exit_code == 0, result.output
        assert "longest game" in result.output
        keys = [m["key"] for m in json.loads(report.read_text())["metrics"]]
        assert "longest_game" in keys
    assert "longest_game" not in METRICS.registered()


EXECUTOR = """
import contextlib
from toolkit.sim.executors import ExecutorKind
from toolkit.sim.executors.inline import InlineExecutor

OPENED = []

@contextlib.contextmanager
def _open(arg, workers, idle):
    OPENED.append(arg)
    yield InlineExecutor()

BACKROOM = ExecutorKind("backroom", "an outside package's executor, in this process", _open)
"""


def test_an_outside_executor(tmp_path, run_cli):
    from toolkit.sim.executors import EXECUTORS

    argv = ["simulate", "muckle-stoater", "-n", "6", "-p", "3", "--seed", "3", "--json"]
    outs = [tmp_path / "backroom.json", tmp_path / "inline.json"]
    with installed(tmp_path, "backroom_executor", EXECUTOR, "playset.executors",
                   {"backroom": "backroom_executor:BACKROOM"}, EXECUTORS):  # fmt: skip
        assert "backroom:" in run_cli("simulate", "--help").output
        assert "`backroom`" in reference_text()
        result = run_cli(*argv, str(outs[0]), "--executor", "backroom:here")
        assert result.exit_code == 0, result.output
        import backroom_executor  # type: ignore[import-not-found]

        assert backroom_executor.OPENED == ["here"]
    assert run_cli(*argv, str(outs[1])).exit_code == 0
    assert outs[0].read_bytes() == outs[1].read_bytes()  # the same games, played elsewhere
    assert "backroom" not in run_cli("simulate", "--help").output
    assert run_cli(*argv, str(outs[1]), "--executor", "backroom").exit_code == 2


UNITS = """
from toolkit.i18n.units import Applied, Unit, register

class NoteUnits:
    name = "note"

    def units(self, game, lang):
        return [Unit("note", "game.yaml:outside-note", "An outside note", "", "game.yaml", 1)]

    def apply(self, game, lang, changes):
        return Applied()

    def inputs(self, game, lang):
        return [game.root / "game.yaml"]

register(NoteUnits())
"""


def test_an_outside_i18n_unit_kind(tmp_path, run_cli, game):
    from toolkit.i18n.units import KINDS

    with installed(tmp_path, "outside_units", UNITS, "playset.i18n_units",
                   {"note": "outside_units"}, KINDS):  # fmt: skip
        assert "`note`" in reference_text()
        po = tmp_path / "es.po"
        result = run_cli("i18n", "export", str(game), "--lang", "es", "--out", str(po))
        assert result.exit_code == 0, result.output
        text = po.read_text(encoding="utf-8")
        assert 'msgctxt "game.yaml:outside-note"' in text and "An outside note" in text
    assert "note" not in KINDS.registered()


PLUGIN = """
from toolkit.content.plugin import GamePlugin
from toolkit.diagnostics import Severity, Span, rule

G_OUTSIDE = rule("G950", "outside-game-rule", "An outside game's own rule.", Severity.WARNING)

def check(game):
    yield G_OUTSIDE.at(game.manifest_file.rel, Span(1, 1), "the outside game checked this")

PLUGIN = GamePlugin("fixture-game", checks=(check,))
"""


def test_an_outside_game_plugin(tmp_path, run_cli, game):
    from toolkit.content.plugin import REGISTRY
    from toolkit.diagnostics import REGISTRY as RULES

    with installed(tmp_path, "outside_game", PLUGIN, "playset.games",
                   {"fixture-game": "outside_game:PLUGIN"}, REGISTRY, RULES):  # fmt: skip
        assert "G950" in run_cli("rules").output
        assert "`fixture-game`" in reference_text()
        result = run_cli("validate", str(game))
        assert "G950" in result.output and "the outside game checked this" in result.output
    assert "fixture-game" not in REGISTRY.registered()
    assert "G950" not in run_cli("validate", str(game)).output
