"""Hardening, probe 23: what a template computes is computed when it renders, within its
bounds (not while compiling, not uncounted inside a filter); a card's place in a deck is
looked up, not searched; doubled braces around anything print as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolkit.render.jinja_cache import CachedSandbox
from toolkit.render.template_bounds import TemplateLimitError


def test_an_autoescape_expression_is_not_worked_out_at_compile_time(monkeypatch):
    # probe 23 H1: `{% autoescape EXPR %}` ran EXPR's filters while compiling, outside every
    # bound: 60 s of `|urlize` from 1 kB, before the render's deadline was even set
    sandbox = CachedSandbox(keep_trailing_newline=True)
    calls: list[str] = []
    upper = sandbox.env.filters["upper"]

    def counted(value: str) -> str:
        calls.append(value)
        return upper(value)

    monkeypatch.setitem(sandbox.env.filters, "upper", counted)
    source = "{% autoescape ('ab'|upper) is none %}x{% endautoescape %}"
    template = sandbox.template(source, "rulebook-probe23")
    assert calls == []  # compiled: nothing of the expression ran
    assert sandbox.render(template, {}) == "x" and calls == ["ab"]  # it runs when rendered


def test_an_autoescape_expression_is_bounded_when_rendered():
    sandbox = CachedSandbox(keep_trailing_newline=True)
    source = "{% autoescape ('a' * 10**8) is none %}x{% endautoescape %}"
    with pytest.raises(TemplateLimitError, match="would build more than"):
        sandbox.render(sandbox.template(source, "rulebook-probe23b"), {})


def test_a_long_text_through_a_filter_looks_at_the_clock_at_once(monkeypatch):
    # probe 23 H2: the deadline was looked at every 64th step, and a filter step over a long
    # text can take a second (`|urlize` of 800,000 characters): 32 of them ran past it
    from toolkit.render import template_bounds

    sandbox = CachedSandbox(keep_trailing_newline=True)
    calls: list[int] = []
    urlize = sandbox.env.filters["urlize"]

    def counted(*args, **kwargs):
        calls.append(1)
        return urlize(*args, **kwargs)

    counted.jinja_pass_arg = urlize.jinja_pass_arg  # type: ignore[attr-defined]
    monkeypatch.setitem(sandbox.env.filters, "urlize", counted)
    monkeypatch.setattr(template_bounds, "MAX_SECONDS", -1.0)  # the deadline has passed
    source = "{{ text|urlize|urlize|urlize|urlize|urlize|urlize|urlize|urlize|length }}"
    template = sandbox.template(source, "rulebook-probe23c")
    with pytest.raises(template_bounds.TemplateTimeError):
        sandbox.render(template, {"text": "a " * 10_000})
    assert len(calls) == 1  # stopped after the first long step, not 32 steps later


@pytest.mark.parametrize(
    "source",
    [
        "{{ range(100000)|select('odd')|max }}",  # a range's items, gone over by `select`
        "{{ range(100000)|reject('number')|first }}",
        "{{ range(100000)|unique|first }}",
        "{{ (range(1500)|list + range(1500)|list)|map('string')|join|length }}",
    ],
)
def test_the_items_a_filter_goes_over_count_on_a_card_face(source):
    # probe 23 H3: a card face's limits counted the template's own loops, not the items a
    # filter iterates in Python: a few steps spent ~100 ms a face, 43 s for 8 cards
    from toolkit.render.template_bounds import LAYOUT, TemplateStepError

    sandbox = CachedSandbox(keep_trailing_newline=False, limits=LAYOUT)
    template = sandbox.template(source, "layout-probe23")
    with pytest.raises(TemplateStepError, match="filters go over more than 2,000 items"):
        sandbox.render(template, {})
    assert sandbox.render(sandbox.template("{{ range(500)|select('odd')|max }}", "l"), {}) == "499"


class _Counted(tuple):
    """A deck string's path that counts the times it is compared (its head cut off)."""

    looks = 0

    def __getitem__(self, index):  # type: ignore[override]
        _Counted.looks += 1
        return super().__getitem__(index)


@pytest.mark.parametrize("value", ["x", "':a:'"])  # probe 24: parameters holding `:a:` too
def test_an_unknown_icons_place_is_looked_up_not_searched_in_every_string(
    tmp_path, run_cli, monkeypatch, value
):
    # probe 23 H4: each `:a:` a card's text printed went over every string of its card: 45
    # cards of 4,000 parameters and 1,333 `:a:` took 63 s of validate
    from toolkit.checks import card_reference

    assert run_cli("new", "icons", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "icons"
    text = ":a:" * 100
    params = ", ".join(f"p{i}: {value}" for i in range(200))
    lines = ["id: cards", "kind: actions", "name: {fr: A, es: A, en: A}", "size: poker", "cards:"]
    for i in range(3):
        lines.append(
            f"  - {{id: c{i}, name: {{fr: N, es: N, en: N}},"
            f" text: {{fr: '{text}', es: '{text}', en: '{text}'}}, params: {{{params}}}}}"
        )
    (game / "decks" / "cards.yaml").write_text("\n".join(lines) + "\n")
    leaves = card_reference.string_leaves
    monkeypatch.setattr(
        card_reference, "string_leaves", lambda deck: [(_Counted(p), t) for p, t in leaves(deck)]
    )
    _Counted.looks = 0
    result = run_cli("validate", str(game), "--no-cache", "--select", "P007")
    assert result.exit_code == 1 and "P007" in result.output, result.output
    # each of 3 × 3 × 100 icons looked at its card's 203 strings: 182,700 looks
    assert _Counted.looks < 20_000, _Counted.looks


@pytest.mark.parametrize(
    "written",
    [
        "{{points.x}}",
        "{{points[0]}}",
        "{{0}}",
        "{{pointé}}",
        "{{points}}}",
        "{{-points}}",
        "{{points:>40000000000000000000000}}",
        "{{{{points}}}}",  # probe 24: prints "{{points}}"
        "{{{{{{points}}}}}}",  # probe 25: prints "{{{points}}}"
        "{{{{points}}",  # probe 25: prints "{{points}"
        "{{}}",  # prints "{}"
    ],
)
def test_anything_in_doubled_braces_in_a_card_text_is_r006(run_cli, tmp_path, written):
    # probe 23 M1: doubled braces print their inside as written, whatever it is; only a bare
    # name, a spec or a conversion were R006, and these printed "{points.x}", validate clean
    import json

    assert run_cli("new", "braces", "--into", str(tmp_path)).exit_code == 0
    deck = tmp_path / "braces" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("en: Score {points} points.", f"en: Score {written} pts."))
    result = run_cli("validate", str(tmp_path / "braces"), "--no-cache", "--format", "json")
    found = [d for d in json.loads(result.stdout) if d["code"] == "R006"]
    assert len(found) == 1 and "as written: `{{` and `}}` print a brace" in found[0]["message"]


def test_braces_are_read_left_to_right_as_str_format_reads_them():
    # probe 25 L1: `{{{points}}}` is a brace, the value, a brace (it printed "{{points}}" as
    # written, validate clean); six braces and `{{{{points}}` print as written, and are R006
    from toolkit.content.templating import escaped_names, placeholders, substitute

    values = {"points": "3"}
    assert substitute("Score {{{points}}} pts.", values) == "Score {3} pts."
    assert substitute("{{{{{points}}}}}", values) == "{{3}}"
    assert placeholders("{{{points}}}") == ["points"] and escaped_names("{{{points}}}") == []
    assert substitute("{{{{{{points}}}}}}", values) == "{{{points}}}"
    assert escaped_names("a {{{{{{points}}}}}} b {{{{points}} c") == [
        "{{{{{{points}}}}}}",
        "{{{{points}}",
    ]


def test_compiled_templates_are_keyed_by_the_code_that_guards_them(tmp_path, monkeypatch):
    # two checkouts that both called their code "bounded-10" shared compiled templates in
    # one user cache: one ran the other's code, which called a guard it did not have
    from toolkit.render import jinja_cache, template_bounds

    name = jinja_cache.CODE_VERSION.rsplit("-", 1)[0]  # "bounded-11"
    one = jinja_cache._code_version(name)
    assert one == jinja_cache._code_version(name) == jinja_cache.CODE_VERSION
    changed = tmp_path / "template_bounds.py"
    source = Path(template_bounds.__file__).read_bytes()
    changed.write_bytes(source + b"\n# another guard\n")
    monkeypatch.setattr(template_bounds, "__file__", str(changed))
    assert jinja_cache._code_version(name) != one


TRACK = """kind: track
id: t
name: {fr: Piste, es: Pista, en: Track}
segment_name: {fr: S, es: S, en: S}
segments_in_box: 4
segments_by_players: {4: 4}
holes_per_segment: 7
start_offset: 1
entrance_offset: 1
pen_holes: 4
home_holes: 4
pen_name: {fr: P, es: P, en: P}
home_name: {fr: H, es: H, en: H}
style:
  labels:
    count: pcount
"""
PCOUNT = """  - id: pcount
    text:
      fr: "{n} joueurs"
      es: "{n} jugadores"
      en: "{n} players"
"""


def _term_game(run_cli, tmp_path: Path) -> Path:
    """A new game whose track prints the glossary term `pcount` ("{n} players") as its
    count label: a term only the board fills."""
    assert run_cli("new", "terms", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "terms"
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("  decks:\n", "  boards:\n    - boards/t.yaml\n  decks:\n"))
    (game / "boards").mkdir()
    (game / "boards" / "t.yaml").write_text(TRACK, encoding="utf-8")
    glossary = game / "glossary.yaml"
    glossary.write_text(glossary.read_text(encoding="utf-8").rstrip("\n") + "\n" + PCOUNT)
    return game


def _r006(run_cli, game: Path) -> list[dict]:
    import json

    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    return [d for d in json.loads(result.stdout) if d["code"] == "R006"]


@pytest.mark.parametrize(
    "code",
    [
        "{{ glossary.pcount[1:] }}",
        "{{ glossary.pcount|replace('n', 'm') }}",
        "{{ glossary.pcount }}",
    ],
)
def test_a_rulebook_reading_a_term_only_a_board_fills_is_r006_whatever_it_makes_of_it(
    run_cli, tmp_path, code
):
    # probe 23 M3: the printed text was searched for the term's words or its `{n}`; a slice
    # or a filter printed "n} players" or "{m} players", validate clean
    game = _term_game(run_cli, tmp_path)
    rulebook = game / "rulebook" / "en.md"
    before = rulebook.read_text(encoding="utf-8")
    rulebook.write_text(before + f"\nX {code} Y\n", encoding="utf-8")
    found = _r006(run_cli, game)
    assert len(found) == 1, found
    assert found[0]["file"].endswith("rulebook/en.md") and found[0]["col"] == 3, found
    assert found[0]["line"] == before.count("\n") + 2, found
    assert "the glossary term 'pcount' (en)" in found[0]["message"]


def test_a_layout_slicing_a_term_only_a_board_fills_is_r006_at_its_text(run_cli, tmp_path):
    game = _term_game(run_cli, tmp_path)
    layout = game / "layouts" / "example-card.yaml"
    text = layout.read_text(encoding="utf-8")
    assert 'text: "{{ card.name }}"' in text
    layout.write_text(text.replace("{{ card.name }}", "{{ card.name }} {{ glossary.pcount[1:] }}"))
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("size: poker", "size: poker\nlayout: example-card"))
    found = _r006(run_cli, game)
    assert len(found) == 3 and all(d["file"].endswith("example-card.yaml") for d in found), found
    assert {d["message"].split("(")[1][:2] for d in found} == {"fr", "es", "en"}, found


def test_an_unknown_fields_close_name_is_worked_out_once_per_key(tmp_path, monkeypatch):
    # probe 23 H6: each "unknown field" built the model's whole JSON schema again: a layout
    # naming one element of 100 unknown keys 1,000 times by alias took 364 s of validate
    from pydantic import TypeAdapter

    from toolkit.content import validation

    built: list[int] = []
    schema = TypeAdapter.json_schema

    def counted(self, *args, **kwargs):
        built.append(1)
        return schema(self, *args, **kwargs)

    monkeypatch.setattr(TypeAdapter, "json_schema", counted)
    keys = ", ".join(f"q{i}: 1" for i in range(30))
    element = f"&e {{kind: text, box: {{x: 1, y: 1, w: 1, h: 1}}, text: a, {keys}}}"
    layout = f"id: x0\nz: {element}\nelements: [{', '.join(['*e'] * 40)}]\n"
    doc = tmp_path / "x0.yaml"
    doc.write_text(layout, encoding="utf-8")
    from toolkit.content.source import load_document
    from toolkit.render.layout import layout_adapter

    document, problems = load_document(doc, "layouts/x0.yaml")
    assert document is not None and not problems, problems
    model, found = validation.validate_document(document, layout_adapter())
    # 40 aliases of one element of 30 unknown keys: each finding said once at its place
    # (the anchor's), as validation dedupes them
    assert model is None and len(found) >= 30, len(found)
    assert len(built) <= 1, len(built)  # was once per unknown key: 1,200


class _Part(str):
    """A path's key that counts the times it is compared."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        _Part.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def test_a_missing_key_is_matched_with_the_unknown_keys_of_its_own_mapping():
    # each missing field was compared with every unknown key of the file (90 s of the 364)
    from toolkit.content.validation import _drop_renamed

    errors = []
    for i in range(300):
        errors.append({"type": "extra_forbidden", "loc": (_Part("e"), i, "txet")})
        errors.append({"type": "missing", "loc": (_Part("e"), i, "text")})
    _Part.compared = 0
    kept = _drop_renamed(errors)
    assert len(kept) == 300 and all(e["type"] == "extra_forbidden" for e in kept)
    assert _Part.compared < 3_000, _Part.compared  # was 300 × 300


def test_the_letters_a_filter_goes_over_count_on_a_card_face():
    # probe 24 H1: a text's letters were not counted: `s|select('number')` tested 4,000
    # letters for no item drawn, 400 times a face in a few counted steps (1.5 s a face)
    from toolkit.render.template_bounds import LAYOUT, TemplateStepError

    sandbox = CachedSandbox(keep_trailing_newline=False, limits=LAYOUT)
    source = "{% set s = 'ab' * 2000 %}{{ s|select('number')|list|length }}"
    with pytest.raises(TemplateStepError, match="filters go over more than 2,000 items"):
        sandbox.render(sandbox.template(source, "layout-probe24"), {})
    # a text filter's work is what it builds (counted as built), not its letters
    words = "{{ ('ab' * 2000)|upper|replace('A', 'c')|length }}"
    assert sandbox.render(sandbox.template(words, "layout-probe24b"), {}) == "4000"


def test_a_layout_text_written_again_is_parsed_once(monkeypatch):
    # probe 24 H2: a layout element repeated 1,100 times by YAML alias had its texts parsed
    # 1,100 times (17 s a layout, before the combined template was refused for its size)
    sandbox = CachedSandbox(keep_trailing_newline=False)
    parsed: list[str] = []
    real = sandbox.parse

    def counted(source: str):
        parsed.append(source)
        return real(source)

    monkeypatch.setattr(sandbox, "parse", counted)
    monkeypatch.setattr(sandbox.env, "bytecode_cache", None)  # parsed, not read back
    sources = ["{{ card.name }}", "{{ card.text }}"] * 50
    trees = sandbox.parse_all(sources)
    assert len(trees) == 100 and trees[0] is trees[2] and trees[1] is trees[99]
    assert sorted(parsed) == ["{{ card.name }}", "{{ card.text }}"]  # was 100 parses


@pytest.mark.parametrize(
    "line",
    [
        "{% set pcount = 4 %}Up to {{ pcount }} players.",
        "{# pcount: the board's label #}Nothing here.",
        "{{ 'pcount' }} is a word.",
        "The board's `pcount` label says it.",
    ],
)
def test_template_code_naming_a_board_only_terms_id_otherwise_is_no_r006(run_cli, tmp_path, line):
    # probe 24 M3: any template code holding the id as a word was R006 (a comment, a string,
    # a variable of that name), and the game could not be built
    game = _term_game(run_cli, tmp_path)
    rulebook = game / "rulebook" / "en.md"
    rulebook.write_text(rulebook.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")
    assert _r006(run_cli, game) == []
