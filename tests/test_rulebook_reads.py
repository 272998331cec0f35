"""A rulebook's render is kept between `validate` runs with what it read of its context
(toolkit.render.rulebook_reads): the kept text is reused only while every read finds what it
found, so a change the render could see renders again, and the findings are those of a run
without the cache."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES
from tests.test_validate_cache_units import _run, cache  # noqa: F401 (a fixture)
from toolkit.content.unit_cache import NotKept
from toolkit.render import rulebook_reads as reads
from toolkit.render import rulebook_source
from toolkit.render.context import View
from toolkit.render.jinja_cache import CachedSandbox


def _context() -> dict[str, Any]:
    card = View(id="a", name="Alpha", text="Go {x}.", copies=2, tags=["red", 1, 1.5, True, None])
    other = View(id="b", name="Beta", text="Stop.", copies=1, tags=[], extra=View(k=1, j="2"))
    third = View(id="c", name="Gamma", text="Go {x}.", copies=3, tags=[[1, 2], [View(z=0)]])
    deck = View(id="d", cards=[card, other, third], total=6).named("deck 'd'", "card")
    return {
        "decks": View(d=deck).named("`decks`", "deck"),
        "rules": View(goal=10, ratio=0.5, on=True, none=None, by={1: "one", "1": "un"}),
        "twins": [View(k=1, j=[2]), View(k=1, j=[2])],
        "glossary": {"meal": "Meal", "drink": "Drink"},
        "lang": "en",
    }


TEMPLATES = {
    "attribute": "{{ decks.d.cards[0].name }}",
    "item": "{{ decks['d']['cards'][1]['text'] }}",
    "get": "{{ glossary.get('meal') }} {{ glossary.get('none', 'x') }}",
    "in": "{{ 'meal' in glossary }} {{ 'x' in rules }}",
    "missing": "{{ rules.nothing | default('?') }} {{ rules.nothing is defined }}",
    "length": "{{ decks.d.cards[1] | length }} {{ glossary | count }}",
    "truth": "{% if decks.d.cards[1].extra %}yes{% endif %}",
    "keys": "{{ rules.keys() | list }}",
    "values": "{% for v in glossary.values() %}{{ v }}{% endfor %}",
    "items": "{% for k, v in rules.by.items() %}{{ k }}={{ v }};{% endfor %}",
    "loop": "{% for k in decks.d.cards[1] %}{{ k }},{% endfor %}",
    "dictsort": "{{ glossary | dictsort }}",
    "tojson": "{{ decks.d.cards[1] | tojson }} {{ glossary | tojson }}",
    "string": "{{ glossary | string }} {{ glossary }}",
    "pprint": "{{ rules.by | pprint }}",
    "equal": "{{ decks.d.cards[0].tags == ['red', 1, 1.5, True, None] }}"
    " {{ decks.d.cards[1].extra == {'k': 1, 'j': '2'} }}",
    "equal-two": "{{ decks.d.cards[0] == decks.d.cards[2] }} {{ twins[0] == twins[1] }}",
    "not-equal": "{{ twins[1] != twins[0] }}",
    "in-list": "{{ twins[1] in [twins[0]] }}",
    "selectattr": "{{ decks.d.cards | selectattr('text', 'equalto', 'Go {x}.')"
    " | map(attribute='id') | join(',') }}",
    "sum": "{{ decks.d.cards | sum(attribute='copies') }} {{ decks.d.total }}",
    "sort": "{{ decks.d.cards | sort(attribute='name') | map(attribute='id') | list }}",
    "groupby": "{% for g in decks.d.cards | groupby('text') %}{{ g.grouper }}:"
    "{{ g.list | length }};{% endfor %}",
    "first": "{{ (decks.d.cards | first).id }} {{ decks.d.cards | last | length }}",
    "list": "{{ decks.d.cards[0].tags }} {{ decks.d.cards[2].tags[1][0].z }}",
    "nested-list": "{{ decks.d.cards[2].tags | length }} {{ decks.d.cards[2].tags[0] | sum }}",
    "dict-call": "{{ dict(glossary, more=1) | length }} {{ dict(**rules.by) if false }}",
    "int-keys": "{{ rules.by[1] }} {{ rules.by['1'] }}",
    "types": "{{ rules.goal * 2 }} {{ rules.ratio }} {{ rules.on }} {{ rules.none }}",
    "unique": "{{ decks.d.cards | map(attribute='text') | unique | list }}",
    "changed": "{{ glossary.update({'meal': 'x'}) or glossary.meal }}",
    "namespace": "{% set ns = namespace(n=0) %}{% for c in decks.d.cards %}"
    "{% set ns.n = ns.n + c.copies %}{% endfor %}{{ ns.n }}",
    "format": "{{ '%s' % glossary }} {{ '{}'.format(rules.by) }}",
    "lang": "{{ lang }}",
}


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths of every value in `value` (mapping keys, list indexes)."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _leaves(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _leaves(item, (*path, i))
    return found


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _variants(context: dict[str, Any]) -> list[dict[str, Any]]:
    """Contexts that differ from `context` in one place: a value changed (same type, another
    type), a key added or taken out, keys reordered, a list grown or shortened."""
    made = []
    for path in _leaves(context)[1:]:
        parent_path, last = path[:-1], path[-1]
        value = _at(context, path)
        replacements: list[Any] = ["changed", 7, 7.0, None, True, [], View()]
        if isinstance(value, str):
            replacements.append(value + " ")
        if isinstance(value, bool):
            replacements.append(not value)
        if isinstance(value, int | float) and not isinstance(value, bool):
            replacements += [value + 1, float(value), int(value) if value == int(value) else 0]
        for new in replacements:
            if type(new) is type(value) and new == value:
                continue
            variant = copy.deepcopy(context)
            _at(variant, parent_path)[last] = new
            made.append(variant)
        variant = copy.deepcopy(context)
        parent = _at(variant, parent_path)
        del parent[last]
        made.append(variant)
        if isinstance(value, dict):
            variant = copy.deepcopy(context)
            _at(variant, path)["added"] = 1
            made.append(variant)
            if len(value) > 1:
                variant = copy.deepcopy(context)
                target = _at(variant, path)
                items = list(target.items())[::-1]
                target.clear()
                target.update(items)
                made.append(variant)
        if isinstance(value, list):
            variant = copy.deepcopy(context)
            _at(variant, path).append("more")
            made.append(variant)
    return made


def _render(template: Any, context: dict[str, Any], log: reads.Log | None = None) -> str:
    """The text (or the error) of a render on the plain copy of `context`, or on the
    recording copy with `log`."""
    copied = rulebook_source._own_copy(context, {}) if log is None else None
    try:
        if log is not None:
            copied = reads.recording_copy(context, log)
        return CachedSandbox(keep_trailing_newline=True).render(template, copied)
    except Exception as exc:  # an error is an answer too: the same error, the same finding
        return f"error {type(exc).__name__}: {exc}"


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_a_kept_render_is_reused_only_when_the_render_would_be_the_same(name):
    """For every context that differs in one place, the kept reads find what they found only
    if rendering that context prints the very same text; and the recording copy renders what
    the plain copy renders."""
    sandbox = CachedSandbox(keep_trailing_newline=True)
    template = sandbox.template(TEMPLATES[name], "rulebook")
    context = _context()
    log = reads.Log()
    recorded = _render(template, context, log)
    assert recorded == _render(template, context)
    if recorded.startswith("error "):
        return  # an error is never kept
    try:
        kept = json.loads(json.dumps(reads.kept_reads(log)))  # as the unit gives them back
    except NotKept:
        assert name == "changed", f"{name}: not kept"
        return
    assert name != "changed", "a render that changed its context was kept"
    digest = reads.read_digest(context, kept)
    reused = 0
    for variant in _variants(context):
        try:
            same = reads.read_digest(variant, kept) == digest
        except NotKept:
            continue
        if same:
            reused += 1
            assert _render(template, variant) == recorded, f"{name}: a stale text reused"
    assert reused, f"{name}: no variant reuses the text (the reads are not narrow)"


def test_every_template_form_reads_what_it_uses():
    """The recorded reads of a card-text lookup name that text, and the reads of a template
    that prints only a card's name do not (an edit of the text reuses the render)."""
    sandbox = CachedSandbox(keep_trailing_newline=True)
    log = reads.Log()
    template = sandbox.template("{{ decks.d.cards[0].name }}", "rulebook")
    sandbox.render(template, reads.recording_copy(_context(), log))
    kept = reads.kept_reads(log)
    context = _context()
    digest = reads.read_digest(context, kept)
    context["decks"]["d"]["cards"][0]["text"] = "Edited."
    assert reads.read_digest(context, kept) == digest
    context["decks"]["d"]["cards"][0]["name"] = "Edited"
    assert reads.read_digest(context, kept) != digest


def test_a_render_of_too_many_reads_is_not_kept(monkeypatch):
    sandbox = CachedSandbox(keep_trailing_newline=True)
    template = sandbox.template("{% for i in range(50) %}{{ glossary.get(i) }}{% endfor %}", "x")
    log = reads.Log()
    sandbox.render(template, reads.recording_copy(_context(), log))
    assert len(reads.kept_reads(log)) > 50
    monkeypatch.setattr(reads, "MAX_READS", 50)
    with pytest.raises(NotKept):
        reads.kept_reads(log)


RULEBOOK = """# {{ game.title }}

{% for c in decks.cards.cards %}- {{ c.name }}: {{ c.text }}
{% endfor %}
"""
SNOWMAN = "\u2603"  # no glyph in the bundled fonts: P002 in the rulebook that prints it


def _game(tmp_path: Path) -> Path:
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    (game / "rules").mkdir()
    for lang in ("fr", "en"):
        (game / "rules" / f"{lang}.md").write_text(RULEBOOK, "utf-8")
    manifest = (game / "game.yaml").read_text("utf-8")
    manifest += "  rulebook:\n    fr: rules/fr.md\n    en: rules/en.md\n"
    (game / "game.yaml").write_text(manifest, "utf-8")
    return game


def _renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The `lang` of each rulebook render from now on."""
    done: list[str] = []
    render = CachedSandbox.render

    def counted(
        self: CachedSandbox, template: Any, context: dict[str, Any], limits: Any = None
    ) -> str:
        if template.name.startswith("rulebook-"):
            done.append(dict.get(context, "lang"))
        return render(self, template, context, limits)

    monkeypatch.setattr(CachedSandbox, "render", counted)
    return done


@pytest.mark.usefixtures("cache")
def test_an_edit_renders_again_only_the_rulebooks_that_read_it(tmp_path, monkeypatch):
    """After one card's English text is edited, the English rulebook (it prints that text)
    is rendered again, the French one is read back; its findings are those of a run
    without the cache, and a glyph the edit brings is found in the English rulebook."""
    game = _game(tmp_path)
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text("utf-8")
    before = "en: Move {steps} spaces."
    assert text.count(before) == 1
    renders = _renders(monkeypatch)
    assert _run(str(game), "-f", "json")[0] == 0
    assert sorted(renders) == ["en", "fr"]
    for edited, finding in ((f"en: Move {{steps}} spaces {SNOWMAN}.", True), (before, False)):
        deck.write_text(text.replace(before, edited), "utf-8")
        renders.clear()
        cached = _run(str(game), "-f", "json")
        assert renders == ["en"], "the French rulebook was rendered again"
        renders.clear()
        assert cached == _run(str(game), "-f", "json", "--no-cache")
        said = json.loads(cached[1])
        in_rulebook = [d for d in said if d["code"] == "P002" and "rules/en.md" in d["file"]]
        assert bool(in_rulebook) is finding, said


def _contexts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The `lang` of each rulebook context built from now on."""
    built: list[str] = []
    real = rulebook_source._context

    def counted(game: Any, lang: str, later: bool = False) -> dict[str, Any]:
        built.append(lang)
        return real(game, lang, later)

    monkeypatch.setattr(rulebook_source, "_context", counted)
    return built


@pytest.mark.usefixtures("cache")
def test_a_kept_render_is_checked_by_part_without_building_its_context(tmp_path, monkeypatch):
    """A kept render's reads are kept by part (each deck, the rest): after a card edit, the
    French rulebook's reads of the edited deck are looked up in that deck's view alone, its
    other reads known unchanged from their files, and no context of it is built; an edit of
    the French text renders it again; a manifest edit (the rest) builds its context. Each
    output is that of a run without the cache."""
    game = _game(tmp_path)
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text("utf-8")
    assert _run(str(game), "-f", "json")[0] == 0
    contexts, renders = _contexts(monkeypatch), _renders(monkeypatch)
    edits = (
        ("en: Move {steps} spaces.", "en: Move {steps} squares.", ["en"], ["en"]),
        ("fr: Avancez de {steps} cases.", "fr: Avancez de {steps} pas.", ["fr"], ["fr"]),
    )
    for before, after, built, rendered in edits:
        assert text.count(before) == 1
        text = text.replace(before, after)  # the edits add up
        deck.write_text(text, "utf-8")
        contexts.clear()
        renders.clear()
        cached = _run(str(game), "-f", "json")
        assert (contexts, renders) == (built, rendered), before
        assert cached == _run(str(game), "-f", "json", "--no-cache")
    manifest = game / "game.yaml"
    manifest.write_text("# a comment\n" + manifest.read_text("utf-8"), "utf-8")
    contexts.clear()
    renders.clear()
    cached = _run(str(game), "-f", "json")
    assert sorted(contexts) == ["en", "fr"] and renders == [], (contexts, renders)
    assert cached == _run(str(game), "-f", "json", "--no-cache")


def test_reads_are_parted_by_what_they_find_depends_on():
    made = [
        [[], "o", None],
        [[], "k", "decks"],
        [[], "d", None],
        [[["k", "decks"]], "k", "cards"],
        [[["k", "decks"]], "k", "gone"],
        [[["k", "decks"]], "o", None],
        [[["k", "decks"], ["k", "cards"], ["k", "cards"]], "o", None],
        [[["k", "boards"], ["k", "map"]], "k", "spaces"],
        [[["k", "decks"], ["k", "other"]], "k", "name"],
    ]
    assert reads.parts(made, {"cards"}) == {
        reads.REST: [made[0], made[1], made[7]],
        reads.WHOLE: [made[2], made[4], made[5], made[8]],
        "cards": [made[3], made[6]],
    }


@pytest.mark.parametrize(
    ("source", "pure"),
    [
        ("Draw a card at random, {{ game.title }}.", True),
        ("{# a comment #}No code says it: random, lipsum, sameas.", True),
        ("{% raw %}{{ x | random }}{% endraw %}", True),
        ("{{ decks | random }}", False),
        ("{{ [1, 2] | map('random') | list }}", False),
        ("{{ {'a': {'b': 1}} | random }}", False),  # the first `}}` is the dict's
        ("{% if x is sameas y %}{% endif %}", False),
        ("{{ lipsum(1) }}", False),
        ("{# random #}", False),
        ("{{ random", False),  # Jinja cannot split it: its render fails
    ],
)
def test_only_template_code_that_names_an_impure_word_is_not_kept(source, pure):
    assert rulebook_source._pure(source) is pure


@pytest.mark.usefixtures("cache")
def test_a_rulebook_whose_prose_says_random_is_kept(tmp_path, monkeypatch):
    """A rulebook whose prose says "at random" (the Whisky Game's English one) is read back
    after a card edit that it does not print, as any other; one whose code names `sameas`
    is rendered every run. The findings are those of a run without the cache."""
    game = _game(tmp_path)
    prose = "# {{ game.title }}\n\nDraw a card at random.\n"
    (game / "rules" / "fr.md").write_text(prose, "utf-8")
    same = "# {{ game.title }}\n\n{% if decks.cards is sameas decks.cards %}Same.{% endif %}\n"
    (game / "rules" / "en.md").write_text(same, "utf-8")
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text("utf-8")
    before, after = "en: Move {steps} spaces.", "en: Move {steps} squares."
    assert text.count(before) == 1
    renders = _renders(monkeypatch)
    assert _run(str(game), "-f", "json")[0] == 0
    assert sorted(renders) == ["en", "fr"]
    for edited in (after, before):
        deck.write_text(text.replace(before, edited), "utf-8")
        renders.clear()
        cached = _run(str(game), "-f", "json")
        assert renders == ["en"], "the French rulebook was rendered again"
        renders.clear()
        assert cached == _run(str(game), "-f", "json", "--no-cache")


def test_reads_are_told_apart_as_json_tells_them_and_parted_by_index():
    """`kept_reads` keeps each distinct read once, in the order first read, a key's type
    with it (`1`, `True` and `"1"` are three reads), and the digest of a part's reads is
    that of what those reads find, looked up once for the whole."""
    log = reads.Log()
    context = _context()
    context["glossary"] = {1: "one", "1": "text one", "a": "A"}
    recorded = reads.recording_copy(context, log)
    glossary = dict.__getitem__(recorded, "glossary")  # not read: as the sandbox's own
    for key in (1, True, "1", 1, None, "a"):
        glossary.get(key)
    list(recorded)
    _ = dict.__getitem__(dict.__getitem__(recorded, "decks"), "d")["cards"]
    made = reads.kept_reads(log)
    assert made == [
        [[["k", "glossary"]], "k", 1],
        [[["k", "glossary"]], "k", True],
        [[["k", "glossary"]], "k", "1"],
        [[["k", "glossary"]], "k", None],
        [[["k", "glossary"]], "k", "a"],
        [[], "o", None],
        [[["k", "decks"], ["k", "d"]], "k", "cards"],
    ]
    tokens = reads.read_tokens(context, made)
    assert reads.kept_tokens(log) == tokens  # what each found as it was read
    assert reads.tokens_digest(tokens) == reads.read_digest(context, made)
    indexed = reads.part_indexes(made, {"d"})
    by_part = reads.parts(made, {"d"})
    assert set(indexed) == set(by_part) == {reads.REST, "d"}
    for part, at in indexed.items():
        part_tokens = [tokens[i] for i in at]
        assert reads.tokens_digest(part_tokens) == reads.read_digest(context, by_part[part])


@pytest.mark.usefixtures("cache")
def test_a_changed_decks_reads_finding_otherwise_skip_the_whole_renders_digest(
    tmp_path, monkeypatch
):
    """After an edit of a text the English rulebook prints, its edited deck's reads find
    something else: so do the whole render's (they are among them), and the render is done
    again without first looking every read up in the whole context (~2.5 ms a run of a
    bundled game). A manifest edit (no deck's part changed) still looks the whole up: the
    French render is read back from it. Each output is that of a run without the cache."""
    game = _game(tmp_path)
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text("utf-8")
    assert _run(str(game), "-f", "json")[0] == 0
    wholes: list[int] = []
    real = reads.read_tokens

    def counted(context: dict[str, Any], made: list[Any]) -> list[Any]:
        if "lang" in context:  # the whole context, not one deck's part of it
            wholes.append(len(made))
        return real(context, made)

    monkeypatch.setattr(reads, "read_tokens", counted)
    renders = _renders(monkeypatch)
    deck.write_text(text.replace("en: Move {steps} spaces.", "en: Move {steps} squares."), "utf-8")
    cached = _run(str(game), "-f", "json")
    assert renders == ["en"] and wholes == [], (renders, wholes)
    renders.clear()
    assert cached == _run(str(game), "-f", "json", "--no-cache")
    manifest = game / "game.yaml"
    manifest.write_text("# a comment\n" + manifest.read_text("utf-8"), "utf-8")
    renders.clear()
    cached = _run(str(game), "-f", "json")
    assert renders == [] and len(wholes) == 2, (renders, wholes)
    assert cached == _run(str(game), "-f", "json", "--no-cache")


PROSE = "\nLose -2 points. Ready ?\n\n![the map](map.png)\n"
"""A minus written as a hyphen (T016), a space before `?` in English (T012), an image (R012)."""


@pytest.mark.usefixtures("cache")
def test_the_sources_own_findings_are_kept_until_the_source_changes(tmp_path, monkeypatch):
    """What the Markdown as written says (spacing, minus signs, images) is kept as a unit
    named by the source: a card edit searches no source again, an edit of the English
    source searches that one alone; the findings are those of a run without the cache."""
    from toolkit.checks import rulebook

    game = _game(tmp_path)
    for lang in ("fr", "en"):
        (game / "rules" / f"{lang}.md").write_text(RULEBOOK + PROSE, "utf-8")
    searched: list[str] = []
    real = rulebook._typography

    def counted(display: str, lang: str, source: str) -> Any:
        searched.append(lang)
        return real(display, lang, source)

    monkeypatch.setattr(rulebook, "_typography", counted)
    first = _run(str(game), "-f", "json")
    assert sorted(searched) == ["en", "fr"]
    codes = {(d["code"], Path(d["file"]).name) for d in json.loads(first[1])}
    assert {("T016", "en.md"), ("T012", "en.md"), ("R012", "fr.md")} <= codes, codes
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text("utf-8")
    deck.write_text(text.replace("en: Move {steps} spaces.", "en: Go {steps} spaces."), "utf-8")
    searched.clear()
    cached = _run(str(game), "-f", "json")
    assert searched == [], "a source was searched again after a card edit"
    assert cached == _run(str(game), "-f", "json", "--no-cache")
    searched.clear()
    (game / "rules" / "en.md").write_text(RULEBOOK + "\n" + PROSE, "utf-8")  # a line lower
    cached = _run(str(game), "-f", "json")
    assert searched == ["en"]
    assert cached == _run(str(game), "-f", "json", "--no-cache")
    assert cached != first  # the English findings moved down a line


def _compiled_and_bounded(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    """From now on: the rulebook sources compiled (their first line) and the rendered texts
    searched for the bounds of what a rulebook may hold (their first line)."""
    compiled: list[str] = []
    bounded: list[str] = []
    template = CachedSandbox.template
    too_long = rulebook_source._refuse_too_long

    def counted(self: CachedSandbox, source: str, prefix: str) -> Any:
        if prefix == "rulebook":
            compiled.append(source.split("\n", 1)[0])
        return template(self, source, prefix)

    def searched(text: str) -> None:
        bounded.append(text.split("\n", 1)[0])
        too_long(text)

    monkeypatch.setattr(CachedSandbox, "template", counted)
    monkeypatch.setattr(rulebook_source, "_refuse_too_long", searched)
    return compiled, bounded


@pytest.mark.usefixtures("cache")
def test_an_edit_compiles_and_bounds_only_the_rulebook_it_renders_again(tmp_path, monkeypatch):
    """After one card's English text is edited, the French rulebook's kept text is read
    back without compiling its source, nor searching its text for the rulebook bounds
    again (it passed them last run); the English one is compiled and searched. The output
    is that of a run without the cache."""
    game = _game(tmp_path)
    for lang in ("fr", "en"):
        (game / "rules" / f"{lang}.md").write_text(f"# {lang}\n\n{RULEBOOK}", "utf-8")
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text("utf-8")
    assert _run(str(game), "-f", "json")[0] == 0
    compiled, bounded = _compiled_and_bounded(monkeypatch)
    deck.write_text(text.replace("en: Move {steps} spaces.", "en: Move {steps} squares."), "utf-8")
    cached = _run(str(game), "-f", "json")
    assert compiled == ["# en"], compiled
    assert bounded == ["# en"], bounded
    assert cached == _run(str(game), "-f", "json", "--no-cache")


@pytest.mark.usefixtures("cache")
def test_a_rulebook_past_a_bound_is_said_every_run(tmp_path, monkeypatch):
    """A rendered text that passes a bound (here a table too wide) is never kept as
    bounded: each run says R010 again, as a run without the cache does."""
    game = _game(tmp_path)
    columns = rulebook_source.MAX_TABLE_COLUMNS + 1
    table = "|" + " a |" * columns + "\n|" + " --- |" * columns + "\n"
    (game / "rules" / "en.md").write_text(f"# en\n\n{table}", "utf-8")
    expected = _run(str(game), "-f", "json", "--no-cache")
    assert any(d["code"] == "R010" for d in json.loads(expected[1])), expected
    deck = game / "decks" / "cards.yaml"
    _, bounded = _compiled_and_bounded(monkeypatch)
    for run in range(3):  # the deck changed each run (a comment): the game's findings not kept
        with deck.open("a", encoding="utf-8") as out:
            out.write(f"# run {run}\n")
        bounded.clear()
        assert _run(str(game), "-f", "json") == expected
        assert "# en" in bounded, bounded  # never kept as bounded: searched again
