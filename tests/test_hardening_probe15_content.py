"""Probe 15c (issue #33), content surface: what the long-lived processes (`playset lsp`, the
preview) kept of each version (suppression comments' lines, a game's rules and glossary), a
layout or font replaced by a file of the same size and mtime, and the Lows."""

from __future__ import annotations

import gc
import os
import tracemalloc
from pathlib import Path

from toolkit.diagnostics.diagnostic import Diagnostic, Span


def _finding(file: Path, line: int) -> Diagnostic:
    return Diagnostic(file=str(file), code="S002", message="unknown field", span=Span(line, 1))


# --- H1: suppression comments kept a copy of every version's lines -------------------------


def test_suppression_comments_keep_no_copy_of_each_version_of_a_file(tmp_path):
    # `_lines` was an lru_cache(256) by (path, mtime): each version of a file a finding names
    # kept all its lines (~20x its bytes when lines are short): the LSP grew ~90 MB per edit
    # of a 3.9 MB deck with one finding
    from toolkit.diagnostics.suppress import unsuppressed

    deck = tmp_path / "deck.yaml"
    body = "#a\n" * 70_000 + "id: x  # playset: ignore[S002]\nbogus: 1\n"
    deck.write_text(body, encoding="utf-8")
    silenced, kept = _finding(deck, 70_001), _finding(deck, 70_002)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for version in range(6):
            os.utime(deck, (1_000_000 + version, 1_000_000 + version))  # a new version
            assert unsuppressed([silenced, kept], inside=[tmp_path]) == [kept]
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held < 1_000_000, held  # it was 25 MB (6 versions of 70,000 lines)


# --- H2: every load of a game kept its rules and glossary for good --------------------------


def test_a_reloaded_game_leaves_its_old_rules_and_glossary_collectable(game):
    # `_MADE` kept (manifest, rules view) and (glossary, terms) by id(owner) for good: a
    # language server grew by the game's rules and glossary at each edit (~13 MB with a
    # 2 MB game.yaml)
    import weakref

    from toolkit.content.game import load_game
    from toolkit.render import context

    gone = []
    before = set(context._MADE)  # other tests' games may still be alive: not this one's
    for _ in range(3):
        loaded = load_game(game)
        assert loaded.glossary is not None and loaded.glossary.model is not None
        for lang in ("en", "fr"):
            context._rules(loaded.manifest, lang)
            context.glossary_terms(loaded, lang)
        gone.append((weakref.ref(loaded.manifest), weakref.ref(loaded.glossary.model)))
        del loaded
        gc.collect()
    assert all(manifest() is None and glossary() is None for manifest, glossary in gone)
    assert len(set(context._MADE) - before) <= 4, len(context._MADE)


# --- M3: a layout or font replaced by a file of the same size and mtime --------------------


def _replace_keeping_the_stamp(path: Path, text: str) -> None:
    """`path` replaced (a new inode, `os.replace`) by `text` of the same size, with the old
    mtime kept, as `cp -p`, `rsync -a`, `tar x` or an older copy's unzip do."""
    old = path.stat()
    assert len(text.encode()) == old.st_size
    staged = path.with_name(path.name + ".new")
    staged.write_text(text, encoding="utf-8")
    os.utime(staged, ns=(old.st_atime_ns, old.st_mtime_ns))
    os.replace(staged, path)
    assert path.stat().st_mtime_ns == old.st_mtime_ns and path.stat().st_size == old.st_size


def test_a_layout_replaced_by_one_of_the_same_size_and_mtime_is_read_anew(tmp_path):
    # the layout cache's stamp was (path, mtime, size): playset lsp kept the old layout
    # and published no finding where validate gave three P003
    from toolkit.render import layout as layouts

    (tmp_path / "layouts").mkdir()
    path = tmp_path / "layouts" / "own.yaml"
    text = (
        "id: own\nelements:\n  - kind: text\n    box: {x: 1, y: 1, w: -1, h: 9}\n"
        "    text: '{{ card.name }}'\n    size: {max: 9, min: 6}\n"
    )
    path.write_text(text, encoding="utf-8")
    first, _ = layouts.load_layout("own", tmp_path)
    doc, _ = layouts.layout_document("own", tmp_path)
    assert first is not None and doc is not None
    _replace_keeping_the_stamp(path, text.replace("card.name", "card.nane"))
    second, _ = layouts.load_layout("own", tmp_path)
    assert second is not None and second is not first
    assert "card.nane" in second.model_dump_json()
    doc, _ = layouts.layout_document("own", tmp_path)
    assert doc is not None and "card.nane" in str(doc.data)


def test_a_font_replaced_by_one_of_the_same_size_and_mtime_is_read_anew(tmp_path):
    from tests.font_maker import make_font
    from toolkit.render import game_fonts

    (tmp_path / "fonts").mkdir()
    path = make_font(tmp_path / "fonts" / "Own.ttf", "Own Sans")
    assert {family for family, _ in game_fonts.font_set(tmp_path).faces} == {"own sans"}
    other = make_font(tmp_path / "other.ttf", "Own Sanz")
    data = other.read_bytes()
    if len(data) != path.stat().st_size:
        data = data[: path.stat().st_size].ljust(path.stat().st_size, b"\0")
    old = path.stat()
    staged = tmp_path / "fonts" / "staged"
    staged.write_bytes(data)
    os.utime(staged, ns=(old.st_atime_ns, old.st_mtime_ns))
    os.replace(staged, path)
    assert {family for family, _ in game_fonts.font_set(tmp_path).faces} == {"own sanz"}


def test_a_mirrored_copy_rewritten_in_place_with_its_mtime_kept_is_copied_anew(
    tmp_path, monkeypatch
):
    # the LSP mirror (a copy when the game is on another file system) knew a file by inode,
    # mtime and size: rewritten in place with the mtime kept, the mirror kept the old text
    from toolkit.lsp.mirror import Mirror

    def no_link(*args, **kwargs):
        raise OSError("another file system")

    monkeypatch.setattr(os, "link", no_link)
    game = tmp_path / "g"
    game.mkdir()
    deck = game / "deck.yaml"
    deck.write_text("name: card\n", encoding="utf-8")
    mirror = Mirror(game)
    try:
        mirror.sync()
        assert (mirror.path / "deck.yaml").read_text() == "name: card\n"
        old = deck.stat()
        deck.write_text("name: cord\n", encoding="utf-8")  # the same inode and size
        os.utime(deck, ns=(old.st_atime_ns, old.st_mtime_ns))
        mirror.sync()
        assert (mirror.path / "deck.yaml").read_text() == "name: cord\n"
    finally:
        mirror.close()


# --- L1: the recorded render named its own classes in an error -----------------------------


def test_a_recorded_context_names_its_mappings_as_the_plain_render_does():
    # `{{ rules + 1 }}`: "... for +: '_RecordingView' and 'int'" with the cache, "'View' and
    # 'int'" with --no-cache
    import pytest

    from toolkit.render import rulebook_reads as reads
    from toolkit.render.context import View
    from toolkit.render.jinja_cache import CachedSandbox

    plain = {"rules": View(extra=View(a=1)), "glossary": {"a": "A"}}
    recorded = reads.recording_copy(plain, reads.Log())
    sandbox = CachedSandbox(keep_trailing_newline=True)
    said = []
    for context in (plain, recorded):
        for text in ("{{ rules + 1 }}", "{{ glossary + 1 }}", "{{ rules.extra._x }}"):
            with pytest.raises(Exception) as caught:
                sandbox.render(sandbox.template(text, "rulebook"), context)
            said.append(str(caught.value))
    assert said[:3] == said[3:]
    assert "'View' and 'int'" in said[0] and "'dict' and 'int'" in said[1]


# --- L2: a table of values printed through a list, `join`, `pprint` or `str.format` ----------

PRINTED_TABLES = [
    "{{ [rules.extra]|join }}",
    "{{ rules.extra|pprint }}",
    "{{ '{}'.format(rules.extra) }}",
    "{{ '{!s}'.format(rules.extra) }}",
    "{{ '{0[extra]}'.format(rules) }}",
    "{{ '{k}'.format_map({'k': rules.extra}) }}",
    "{{ 'x' ~ [rules.extra] }}",
    "{{ [rules.extra] }}",
    "{{ {'x': rules.extra} }}",
    "{{ '%s'|format([rules.extra]) }}",
    "{{ ('%s' % ([rules.extra],)) }}",
]


def test_a_table_of_values_inside_a_list_or_a_format_is_refused_as_printed():
    import pytest

    from toolkit.render.context import View
    from toolkit.render.jinja_cache import CachedSandbox
    from toolkit.render.template_bounds import PrintedTable

    context = {"rules": View(extra=View(a=1, b="two"), names=["a", "b"])}
    sandbox = CachedSandbox(keep_trailing_newline=True)
    for text in PRINTED_TABLES:
        with pytest.raises(PrintedTable):
            print(text, sandbox.render(sandbox.template(text, "rulebook"), context))
    fine = {
        "{{ rules.extra|join(', ') }}": "a, b",  # its keys
        "{{ rules.names|join(', ') }}": "a, b",
        "{{ '{0[a]}-{1}'.format(rules.extra, rules.names[0]) }}": "1-a",
        "{{ [rules.extra.a, rules.extra.b] }}": "[1, 'two']",
        "{{ '%(b)s' % rules.extra }}": "two",
    }
    for text, printed in fine.items():
        assert sandbox.render(sandbox.template(text, "rulebook"), context) == printed


# --- L3: a rulebook printing a set made by `keys() -` depended on the hash seed -------------


def test_a_rulebook_with_a_difference_of_keys_prints_the_same_pdf_under_any_hash_seed(
    game, tmp_path
):
    # `(glossary.keys() - ["x"])|join` printed the keys in the set's order, which changes
    # with PYTHONHASHSEED: the rulebook PDF was not reproducible
    import subprocess
    import sys

    manifest = game / "game.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8") + "  rulebook:\n    en: rulebook/en.md\n",
        encoding="utf-8",
    )
    (game / "rulebook").mkdir()
    (game / "rulebook" / "en.md").write_text(
        "# Rules\n\nKeys: {{ (glossary.keys() - ['x'])|join(', ') }}."
        " Items: {{ (rules.items() - [])|map('first')|join(', ') }}."
        " Back: {{ (['x', 'y', 'z', 'w'] - glossary.keys())|join(', ') }}.\n",
        encoding="utf-8",
    )
    made = []
    for seed in ("1", "2"):
        out = tmp_path / f"out{seed}"
        env = {**os.environ, "PYTHONHASHSEED": seed, "SOURCE_DATE_EPOCH": "1700000000"}
        env["PLAYSET_CACHE"] = str(tmp_path / f"cache{seed}")
        command = [sys.executable, "-c", "from toolkit.cli import main; main()", "build"]
        command += [str(game), "--lang", "en"]
        command += ["--only", "rulebook", "--out", str(out), "--no-cache"]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stdout + done.stderr
        (pdf,) = out.rglob("*.pdf")
        made.append(pdf.read_bytes())
    assert made[0] == made[1]


# --- L5: the editor's messages named the private mirror -----------------------------------


def test_the_editor_says_the_games_own_paths_inside_its_messages(game):
    # "layout 'standard' fails on advance (en, /tmp/playset-lsp-…/g/decks/cards.yaml:9)"
    import shutil

    from tests.conftest import FIXTURES
    from toolkit.lsp.mirror import Mirror
    from toolkit.lsp.workspace import GameState

    (game / "layouts").mkdir()
    layout = game / "layouts" / "standard.yaml"
    shutil.copy(FIXTURES / "broken" / "low-contrast" / "layouts" / "standard.yaml", layout)
    layout.write_text(layout.read_text(encoding="utf-8").replace("card.name", "card.nane"))
    state = GameState(Mirror(game))
    try:
        found = state.check()
        said = [d.message for items in found.values() for d in items]
        mirror = str(state.mirror.path)
    finally:
        state.mirror.close()
    placed = [m for m in said if "decks/cards.yaml:" in m]
    assert placed, said
    assert not [m for m in said if mirror in m or "playset-lsp-" in m], said
    assert all(str(game.resolve() / "decks" / "cards.yaml") in m for m in placed), placed


# --- L6: a bad SOURCE_DATE_EPOCH was blamed on a plugin -------------------------------------


def test_a_bad_source_date_epoch_is_one_error_naming_the_variable(game, run_cli, monkeypatch):
    # `SOURCE_DATE_EPOCH=²`: three E008 "the check family 'print-fit' (toolkit.checks.
    # printfit) failed: ValueError…; (fix or uninstall the plugin)", and build refused
    for bad in ("²", "99999999999999999999", "12x", "-5", "١٢"):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", bad)
        for command in (("validate", str(game)), ("build", str(game), "--lang", "en")):
            result = run_cli(*command)
            assert result.exit_code == 2, (bad, result.output)
            assert "E008" not in result.output and "plugin" not in result.output
            assert f"SOURCE_DATE_EPOCH={bad!r}" in result.stderr
            assert "whole number of seconds" in result.stderr
    monkeypatch.setenv("SOURCE_DATE_EPOCH", " 1700000000 ")
    assert run_cli("validate", str(game)).exit_code == 0


def test_a_built_in_check_family_that_fails_is_not_called_a_plugin(game, monkeypatch):
    # E008 for print-fit said "(fix or uninstall the plugin)": no plugin to uninstall
    import dataclasses

    from toolkit.checks import FAMILIES, run_checks
    from toolkit.content.game import load_game

    FAMILIES.values()  # found
    family = FAMILIES._entries["print-fit"]

    def broken(game, facts):
        raise ValueError("invalid literal for int() with base 10: '²'")

    monkeypatch.setitem(FAMILIES._entries, "print-fit", dataclasses.replace(family, check=broken))
    (found,) = [d for d in run_checks(load_game(game)) if d.code == "E008"]
    assert "'print-fit' (toolkit.checks.printfit) failed: ValueError" in found.message
    assert "uninstall the plugin" not in found.message, found.message
    assert "a fault of Playset's" in found.message


# --- L4: big numbers and -0.0 changed by `convert` ----------------------------------------


def _converted(game, run_cli, tmp_path, steps: str, to: str):
    import yaml as pyyaml

    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("steps: 3", f"steps: {steps}"))
    folder = tmp_path / f"{to}{len(list(tmp_path.iterdir()))}"
    folder.mkdir()
    sheet, back = folder / f"c.{to}", folder / "b.yaml"
    result = run_cli("convert", str(deck), "--to", to, "--out", str(sheet))
    if result.exit_code != 0:
        return result
    assert run_cli("convert", str(sheet), "--to", "yaml", "--out", str(back)).exit_code == 0
    return pyyaml.safe_load(back.read_text(encoding="utf-8"))["cards"][0]["params"]["steps"]


def test_a_whole_number_of_many_digits_comes_back_from_csv_exactly(game, run_cli, tmp_path):
    # `_INT` stopped at 18 digits: 12345678901234567891 came back 1.2345678901234567e+19,
    # a 45-digit number came back a text
    for steps in (12345678901234567891, 10**44 + 1, -(10**30) - 7):
        back = _converted(game, run_cli, tmp_path, str(steps), "csv")
        assert back == steps and isinstance(back, int), back
        (game / "decks" / "cards.yaml").write_text(
            (game / "decks" / "cards.yaml").read_text().replace(f"steps: {steps}", "steps: 3")
        )


def test_minus_zero_comes_back_from_every_sheet_as_minus_zero(game, run_cli, tmp_path):
    import math

    for to in ("csv", "xlsx", "ods"):
        back = _converted(game, run_cli, tmp_path, "-0.0", to)
        assert back == 0 and isinstance(back, float) and math.copysign(1, back) < 0, (to, back)
        deck = game / "decks" / "cards.yaml"
        deck.write_text(deck.read_text().replace("steps: -0.0", "steps: 3"))


def test_a_number_a_spreadsheet_cannot_hold_exactly_is_refused_for_xlsx_and_ods(
    game, run_cli, tmp_path
):
    # written as a float: 12345678901234567891 came back 1.234567890123457e+19, silently
    for to in ("xlsx", "ods"):
        result = _converted(game, run_cli, tmp_path, "12345678901234567891", to)
        assert not isinstance(result, int | float), result
        assert result.exit_code == 1, result.output
        assert "12345678901234567891" in result.output and "sprint" in result.output
        assert "Traceback" not in result.output
        assert not list(tmp_path.rglob(f"c.{to}"))
        deck = game / "decks" / "cards.yaml"
        deck.write_text(deck.read_text().replace("steps: 12345678901234567891", "steps: 3"))
    assert _converted(game, run_cli, tmp_path, str(2**53), "xlsx") == 2**53


def test_the_mirror_links_an_unchanged_file_once(tmp_path, monkeypatch):
    # a hard link changes the file's ctime: known by its ctime too, each file was linked
    # again at every check (and every layout read again)
    from toolkit.lsp.mirror import Mirror

    game = tmp_path / "g"
    game.mkdir()
    (game / "deck.yaml").write_text("name: card\n", encoding="utf-8")
    mirror = Mirror(game)
    linked = []
    real_link = Mirror._link

    def counted(self, real, *args):
        linked.append(real.name)
        return real_link(self, real, *args)

    monkeypatch.setattr(Mirror, "_link", counted)
    try:
        for _ in range(3):
            mirror.sync()
    finally:
        mirror.close()
    assert linked == ["deck.yaml"]
