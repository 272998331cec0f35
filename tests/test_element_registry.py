"""Layout element kinds are a registry: a kind registered from outside the toolkit (here, in
this file) is accepted in a game folder's layout, drawn by `build`, measured by `validate`
and listed by the reference; unregistered, the same layout is a schema error."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Literal

import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm

from tests.outside import reference_text
from toolkit.render.elements import REGISTRY, Element, Measure, Problem, register_element
from toolkit.render.textfit import Fit

STRIPE = "#123456"  # no built-in layout uses this colour
STRIPE_OPERATOR = ".070588 .203922 .337255 rg"  # how reportlab writes it as a fill


class StripeElement(Element):
    """A band of colour across its box, with a label whose length must stay short."""

    kind: Literal["stripe"]
    colour: str = STRIPE
    label: str = ""

    templates = ("label",)
    prints = ("label",)

    def draw(self, c, item, x, y, job):
        c.saveState()
        c.setFillColor(self.colour)
        c.rect(x, y, item.w * mm, item.h * mm, stroke=0, fill=1)
        c.restoreState()

    def measure(self, item, job):
        fits = len(item.text) <= 12
        return Measure(Fit(fits, 8, (item.text,)), self.label, 8)

    def problems(self, item, job) -> Iterator[Problem]:
        if item.text == "forbidden":
            yield Problem("P003", f"stripe label {item.text!r} ({job.lang})")


LAYOUT = """\
id: striped
elements:
  - kind: stripe
    box: {x: 0, y: 30, w: -0, h: 10}
    label: "{{ card.params.tag | default('') }}"
  - kind: text
    box: {x: 4, y: 4, w: -4, h: 20}
    text: "{{ card.name }}"
    size: {max: 12, min: 7}
  - kind: text
    box: {x: 4, y: 44, w: -4, h: -4}
    text: "{{ card.text }}"
    size: {max: 10, min: 6}
"""


@pytest.fixture
def stripe() -> Iterator[type[Element]]:
    register_element(StripeElement)
    try:
        yield StripeElement
    finally:
        REGISTRY.remove("stripe")


@pytest.fixture
def striped_game(tmp_path, run_cli, monkeypatch):
    assert run_cli("new", "striped", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "striped"
    (game / "layouts").mkdir(exist_ok=True)
    (game / "layouts" / "striped.yaml").write_text(LAYOUT, encoding="utf-8")
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8").replace(
        "size: poker\n", "size: poker\nlayout: striped\n"
    )
    deck.write_text(text, encoding="utf-8")
    monkeypatch.chdir(game)
    return game


def _codes(run_cli) -> list[str]:
    result = run_cli("validate", "--format", "json")
    return sorted(d["code"] for d in json.loads(result.stdout or "[]"))


def test_a_kind_registered_outside_the_toolkit_is_drawn_by_build(stripe, striped_game, run_cli):
    assert _codes(run_cli) == []
    result = run_cli("build", "--lang", "en", "--out", str(striped_game / "out"))
    assert result.exit_code == 0, result.output
    pdf = PdfReader(striped_game / "out" / "striped" / "en" / "cards.pdf")
    page = pdf.pages[0]
    fronts = page.get_contents().get_data().decode("latin-1")
    # a card of several copies is drawn once, as a form each copy places
    forms = {n: x.get_object().get_data() for n, x in page["/Resources"]["/XObject"].items()}
    placed = sum(
        fronts.count(f"{name} Do") * form.decode("latin-1").count(STRIPE_OPERATOR)
        for name, form in forms.items()
    )
    # one stripe per card face: six physical cards on the first fronts page
    assert fronts.count(STRIPE_OPERATOR) + placed == 6
    assert "Forward" in pdf.pages[0].extract_text()


def test_the_registered_kind_is_measured_and_checked_by_validate(stripe, striped_game, run_cli):
    deck = striped_game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    text = text.replace("      steps: 2\n", "      steps: 2\n      tag: much-too-long-a-tag\n")
    text = text.replace("      points: 3\n", "      points: 3\n      tag: forbidden\n")
    deck.write_text(text, encoding="utf-8")
    found = json.loads(run_cli("validate", "--format", "json").stdout)
    overflow = [d["message"] for d in found if d["code"] == "P001"]
    checked = [d["message"] for d in found if d["code"] == "P003"]
    assert len(overflow) == 3 and all(m.startswith("advance id (") for m in overflow)
    assert "layout striped" in overflow[0]
    assert len(checked) == 3  # once per language: the message names it
    assert checked[0] == "treasure, layout 'striped': stripe label 'forbidden' (fr)"
    assert {d["code"] for d in found} == {"P001", "P003"}


def test_the_reference_lists_the_registered_kind(stripe):
    text = reference_text()
    row = next(line for line in text.splitlines() if line.startswith("| `stripe` |"))
    assert "[StripeElement](#layout-stripeelement)" in row
    assert "`label`" in row and "measured" in row and "A band of colour" in row
    assert '<a id="layout-stripeelement"></a>' in text


def test_without_registration_the_layout_is_a_schema_error(striped_game, run_cli):
    assert "stripe" not in [m.model_fields["kind"].annotation.__args__[0] for m in REGISTRY.kinds()]
    assert "S" in {code[0] for code in _codes(run_cli)}
    assert "stripe" not in reference_text()


def test_a_kind_must_declare_its_kind_and_cannot_take_a_taken_name():
    class Nameless(Element):
        pass

    class Box2(Element):
        kind: Literal["box"]

    with pytest.raises(TypeError):
        register_element(Nameless)
    with pytest.raises(ValueError, match="registered twice"):
        register_element(Box2)


def test_a_package_registers_its_kinds_through_the_entry_point_group(monkeypatch):
    """`playset.elements` entry points are loaded the first time the kinds are asked for."""
    from toolkit.render.elements import registry as module

    class Point:
        def load(self):
            return StripeElement

    groups: list[str] = []

    def points(group: str):
        groups.append(group)
        return [Point()]

    fresh = module.ElementRegistry()
    fresh.entry_points = points
    assert [module.kind_of(m) for m in fresh.kinds()] == ["stripe"]
    assert groups == ["playset.elements"]
    fresh.kinds()
    assert groups == ["playset.elements"]  # once per process
