"""A long-lived process (`playset lsp`, `playset preview`) reads a layout again at each edit:
it keeps the last version of each layout file only, and what it worked out for a layout goes
with the layout (probe 14 H2: every version stayed, ~29 MB per edit of a 300 kB layout)."""

from __future__ import annotations

import gc
import tracemalloc
import weakref
from pathlib import Path
from typing import Any

from tests.conftest import FIXTURES
from toolkit.render import jinja_cache
from toolkit.render import layout as layouts
from toolkit.render.context import View

LAYOUT = """\
id: own
let:
  named: "card.name is defined"
elements:
  - kind: box
    box: {x: 0, y: 0, w: -0, h: 10}
  - kind: text
    box: {x: 1, y: 1, w: -1, h: 9}
    text: "{{ card.name }} {{ label.hp }}"
    size: {max: 9, min: 6}
    when: named
  - kind: text
    box: {x: 1, y: 12, w: -1, h: 9}
    text: "{{ card.text | upper }}"
    size: {max: 9, min: 6}
labels:
  hp: {en: HP}
"""


def _context() -> dict[str, Any]:
    return {
        "card": View(id="c", name="Name", text="text").named("card 'c'"),
        "deck": View(id="d", name="Deck").named("deck 'd'"),
        "game": View(id="g", title="Game").named("the game"),
        "rules": View(),
        "glossary": {},
        "lang": "en",
    }


def _game(tmp_path: Path) -> Path:
    (tmp_path / "layouts").mkdir()
    return tmp_path / "layouts" / "own.yaml"


def test_an_edited_layout_is_kept_in_its_last_version_only(tmp_path):
    path = _game(tmp_path)
    read: list[weakref.ref[Any]] = []
    for edit in range(50):
        # each version one line longer: a new stamp even where mtimes are coarse
        path.write_text(f"{'#' * (edit + 1)}\n{LAYOUT}")
        layout, diags = layouts.load_layout("own", tmp_path)
        assert layout is not None and not diags
        doc, _ = layouts.layout_document("own", tmp_path)
        assert doc is not None
        found = layouts.resolve(layout, _context(), 63.0, 88.0)
        assert [r.values for r in found][1:] == [("Name HP",), ("TEXT",)]
        read.append(weakref.ref(layout))
        del layout, doc, found
    gc.collect()
    alive = [ref for ref in read if ref() is not None]
    assert alive == read[-1:]  # the last version, and none before it
    kept = [key for key in layouts._load_layout._kept if key[1] == tmp_path]
    assert len(kept) == 1
    kept = [key for key in layouts._layout_document._kept if key[1] == tmp_path]
    assert len(kept) == 1
    assert layouts._load_layout("own", tmp_path, layouts._stamp("own", tmp_path))[0] is read[-1]()


def test_a_cleared_layout_is_freed_with_what_was_worked_out_for_it(tmp_path):
    """The preview clears the layouts after a save: nothing may hold the old ones (the
    module's dicts by id(layout) held each layout itself)."""
    path = _game(tmp_path)
    read: list[weakref.ref[Any]] = []
    ids: list[int] = []
    for edit in range(10):
        path.write_text(f"# {edit}\n{LAYOUT}")
        layouts.clear_layouts()
        layout, _ = layouts.load_layout("own", tmp_path)
        assert layout is not None
        layouts.resolve(layout, _context(), 63.0, 88.0)
        read.append(weakref.ref(layout))
        ids.append(id(layout))
        del layout
    layouts.clear_layouts()
    gc.collect()
    assert [ref() for ref in read] == [None] * 10
    assert not set(ids) & set(getattr(layouts, "_STATE", {}))


def test_a_new_layout_at_a_freed_layouts_id_is_worked_out_afresh():
    model = layouts.layout_model()

    def made(text: str) -> Any:
        element = {"kind": "text", "box": {"x": 1, "y": 1, "w": -1, "h": 9}, "text": text}
        element["size"] = {"max": 9, "min": 6}
        return model.model_validate({"id": "probe", "elements": [element]})

    first = made("{{ card.name }}")
    assert layouts.resolve(first, _context(), 63.0, 88.0)[0].values == ("Name",)
    old = id(first)
    del first
    gc.collect()
    assert old not in layouts._STATE
    for _ in range(200):  # CPython most often gives the freed address to the next object
        second = made("{{ card.text }}")
        assert layouts.resolve(second, _context(), 63.0, 88.0)[0].values == ("text",)
        if id(second) == old:
            break


def test_compiled_template_sources_are_not_kept_by_the_sandbox():
    """The sandbox compiled each source through a dict its loader read, which kept every
    source ever compiled (a 300 kB combined layout per edit)."""
    sandbox = jinja_cache.CachedSandbox(keep_trailing_newline=False)
    sandbox.template("warm {{ x }}", "probe")
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for n in range(20):
            source = f"{n} {{{{ x }}}} " + "y" * 100_000
            assert sandbox.render(sandbox.template(source, "probe"), {"x": 1}).startswith(f"{n} 1")
        del source
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < 500_000  # 2 MB of sources before


def test_a_text_still_cannot_include_a_compiled_source():
    sandbox = jinja_cache.CachedSandbox(keep_trailing_newline=False)
    sandbox.template("secret", "probe")
    import hashlib

    name = f"probe-{hashlib.sha256(b'secret').hexdigest()[:32]}"
    include = sandbox.template(f"{{% include {name!r} %}}", "probe")
    try:
        sandbox.render(include, {})
    except Exception as exc:  # noqa: BLE001 - the refusal's words are checked
        assert "cannot include" in str(exc)
    else:
        raise AssertionError("the include was read")


def test_a_layouts_missing_glyphs_are_found_again_after_an_edit(tmp_path):
    """P002 on a layout's own words was cached by the layout's name: an editor's language
    server kept the first version's findings (and a fixed label stayed reported)."""
    from toolkit.checks import printfit

    path = _game(tmp_path)
    path.write_text(LAYOUT.replace("hp: {en: HP}", "hp: {en: 'HP \u2192'}"))
    assert [d.code for d in printfit.layout_glyphs("own", tmp_path)] == ["P002"]
    path.write_text(f"# fixed\n{LAYOUT}")
    assert printfit.layout_glyphs("own", tmp_path) == ()


def test_a_game_without_a_plugin_builds_its_manifest_model_once(tmp_path):
    """Every load made a new generic plugin, so a new manifest model class, which the walk
    keeps for good: a language server grew at each edit of any file."""
    from toolkit.checks import run_checks
    from toolkit.content import walk
    from toolkit.content.game import load_game
    from toolkit.content.plugin import plugin_for
    from toolkit.content.walk import collect

    manifest = (FIXTURES / "base" / "game.yaml").read_text()
    (tmp_path / "game.yaml").write_text(manifest.replace("id: fixture-game", "id: own-game"))
    for _ in range(3):
        game = load_game(tmp_path)
        assert game.manifest is not None
        run_checks(game)
        collect(game)
    kept = [
        cls
        for cls in walk._FIELDS
        if cls.__name__ == "OwnGameManifest" and cls.__module__ == "toolkit.content.plugin"
    ]
    assert len(kept) == 1
    assert plugin_for("own-game") is plugin_for("own-game")


def test_the_language_server_gives_back_the_last_check_at_once(tmp_path, monkeypatch):
    """The server's checks ran without a full collection: a checked game's cycles waited
    for Python's collector, and the server grew ~7 MB at each edit of a 300 kB layout."""
    import gc
    import shutil
    import threading

    from toolkit.lsp import server as lsp_server
    from toolkit.lsp.mirror import Mirror
    from toolkit.lsp.workspace import GameState

    shutil.copytree(FIXTURES / "base", tmp_path / "game")
    server = lsp_server.PlaysetServer()
    state = GameState(Mirror(tmp_path / "game"))
    server.locks[state.mirror.root] = threading.Lock()
    published: list[object] = []
    collected: list[int] = []
    monkeypatch.setattr(server, "text_document_publish_diagnostics", published.append)
    monkeypatch.setattr(type(server), "workspace", property(lambda _: _NoDocuments()))
    monkeypatch.setattr(gc, "collect", lambda *a: collected.append(len(published)) or 0)
    try:
        server.check(state)
    finally:
        state.mirror.close()
    assert collected and collected[-1] == len(published)  # after the findings went out


class _NoDocuments:
    text_documents: dict[str, object] = {}
