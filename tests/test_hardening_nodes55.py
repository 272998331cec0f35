"""Issue #33, probe 41 H1: the game-wide bound on values built by YAML aliases
(`source.MAX_ALIASED`) covered the files `load_game` reads, not the game's layouts, read
after it by the checks and renders (and by the i18n label units) each with a bound of its
own: twenty-five 6.8 kB layouts each aliasing just under it made `validate --no-cache` take
15.7 s of CPU and 1.8 GB, and said only S002 on each.

Now a game's own layouts count against its latest load's bound (`source.repeats_of`):
Y004 at the alias that passes it, the layouts after it not built; a layout read again in
the same load is charged once; a new load of the game (the language server's, the
preview's after a save) reads them again under its own count."""

from __future__ import annotations

from pathlib import Path

from tests.test_hardening_nodes54 import _bomb
from tests.test_hardening_repeats_game import _validate
from toolkit.content import source, validate_cache
from toolkit.content.game import load_game
from toolkit.render import layout

PER_FILE = 16_354
"""Values each `_layout` builds through aliases (its 12 levels, ~2**14)."""


def _layout(name: str, depth: int = 12) -> str:
    """The probe's layout: `x-b` a chain of anchors, each level two aliases of the one
    before (ignored by the schema but built: S002 once read), then a valid empty face."""
    rows = ["x-b:", f"  l0: &{name}0 {{a: 1, b: 2}}"]
    for i in range(1, depth):
        rows.append(f"  l{i}: &{name}{i} {{a: *{name}{i - 1}, b: *{name}{i - 1}}}")
    return "\n".join([*rows, f"id: {name}", "background: '#ffffff'", "elements: []"]) + "\n"


def _with_layouts(run_cli, folder: Path, count: int) -> Path:
    """A starter game (from `playset new`) with `count` of the probe's layouts."""
    assert run_cli("new", folder.name, "--into", str(folder.parent)).exit_code == 0
    for i in range(count):
        (folder / "layouts" / f"x{i:02d}.yaml").write_text(_layout(f"x{i:02d}"), "utf-8")
    return folder


def _counting(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = source._Builder.build

    def build(self, node, path, depth):
        calls.append(1)
        return real(self, node, path, depth)

    monkeypatch.setattr(source._Builder, "build", build)
    return calls


def test_aliases_in_layouts_count_against_the_games_bound(run_cli, tmp_path, monkeypatch):
    """The probe's 25 layouts (each 16,354 values through aliases, 2**14): the 13th passes
    the game's bound at its alias, and is said so (Y004, exit 1, no traceback); the layouts
    after it are not built. Was 25 × S002 and every layout built whole."""
    assert source._build(_layout("x"))[6] == PER_FILE  # type: ignore[index]
    layout.clear_layouts()
    game = _with_layouts(run_cli, tmp_path / "g", 25)
    calls = _counting(monkeypatch)
    code, findings = _validate(str(game), "--no-cache")
    assert code == 1
    bombs = [d for d in findings if d["code"] == "Y004"]
    assert [Path(d["file"]).name for d in bombs] == ["x12.yaml"], findings
    assert "values over the game's content files" in bombs[0]["message"]
    assert f"({12 * PER_FILE:,} in the files read before this one;" in bombs[0]["message"]
    unknown = [Path(d["file"]).name for d in findings if d["code"] == "S002"]
    assert unknown == [f"x{i:02d}.yaml" for i in range(12)], unknown
    assert len(calls) < source.MAX_ALIASED + 50_000, len(calls)  # was 25 × 16,400 + ...


def test_layouts_read_back_from_the_parse_cache_are_charged(run_cli, tmp_path, monkeypatch):
    """With the parse cache, a layout's parse read back is charged what it built: the same
    finding at the same alias, run after run, as without the cache."""
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(validate_cache.StatCache, "RACY_NS", -(10**18))
    monkeypatch.setattr(source, "MAX_ALIASED", 40_000)
    layout.clear_layouts()
    game = _with_layouts(run_cli, tmp_path / "g", 4)
    plain = _validate(str(game), "--no-cache")
    assert [Path(d["file"]).name for d in plain[1] if d["code"] == "Y004"] == ["x02.yaml"]
    assert _validate(str(game)) == plain
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text("utf-8") + "# again\n", "utf-8")
    layout.clear_layouts()
    assert _validate(str(game)) == plain


def test_a_new_load_reads_the_layouts_again_under_its_count(run_cli, tmp_path, monkeypatch):
    """The language server and the preview load the game again after an edit: a layout
    kept in memory from the load before is read again, charged with the new load's files
    (here a deck's aliases, added since). A layout read twice in one load is charged once."""
    monkeypatch.setattr(source, "MAX_ALIASED", 30_000)
    layout.clear_layouts()
    game = _with_layouts(run_cli, tmp_path / "g", 1)
    loaded = load_game(game)
    doc, found = layout.layout_document("x00", loaded.root)
    assert doc is not None and not found
    layout._layout_document.cache_clear()  # dropped from memory, read again: charged once
    doc, found = layout.layout_document("x00", loaded.root)
    assert doc is not None and not found
    (game / "decks" / "d0.yaml").write_text(_bomb("d0", 12), "utf-8")  # 24,545 values
    manifest = game / "game.yaml"
    text = manifest.read_text("utf-8")
    manifest.write_text(text.replace("    - decks/cards.yaml\n", "    - decks/d0.yaml\n"))
    again = load_game(game)
    assert not [d for d in again.diagnostics if d.code == "Y004"]
    doc, found = layout.layout_document("x00", again.root)
    assert doc is None and [d.code for d in found] == ["Y004"], found
    assert "(24,545 in the files read before" in found[0].message  # the deck's


def test_the_label_units_count_the_layouts_with_the_game(run_cli, tmp_path, monkeypatch):
    """The i18n label units read the game's layouts themselves: counted with its files, and
    each layout once however many languages are asked."""
    from toolkit.i18n.units.labels import LabelUnits

    layout.clear_layouts()
    game = load_game(_with_layouts(run_cli, tmp_path / "g", 25))
    calls = _counting(monkeypatch)
    for lang in ("fr", "es", "en"):
        LabelUnits().units(game, lang)
    assert len(calls) < source.MAX_ALIASED + 50_000, len(calls)  # was 3 × 25 × 16,400


def test_boards_questions_and_layouts_share_one_count(run_cli, tmp_path):
    """Boards and question banks (read by `load_game`) and the layouts (read after it) are
    charged to one count, in that order: 3 boards, 3 banks and 6 layouts read whole, the
    seventh layout passes the bound."""
    game = _with_layouts(run_cli, tmp_path / "g", 10)
    listed = ""
    for kind in ("boards", "questions"):
        (game / kind).mkdir(exist_ok=True)
        listed += f"  {kind}:\n"
        for i in range(3):
            (game / kind / f"{kind[0]}{i}.yaml").write_text(_layout(f"{kind[0]}{i}"), "utf-8")
            listed += f"    - {kind}/{kind[0]}{i}.yaml\n"
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text("utf-8").replace("files:\n", "files:\n" + listed, 1))
    layout.clear_layouts()
    code, findings = _validate(str(game), "--no-cache")
    bombs = [(Path(d["file"]).name, d["message"]) for d in findings if d["code"] == "Y004"]
    assert [name for name, _ in bombs] == ["x06.yaml"], findings
    assert f"({12 * PER_FILE:,} in the files read before this one;" in bombs[0][1]
    assert code == 1
