"""The findings cache of `validate` never changes a finding: the same output with
`--no-cache`, cold and warm over every bundled game and every broken fixture; an entry that
is not ours, or is for other inputs, is ignored; a cache folder others may write turns it
off; an edit to a card, a layout, a glossary, a schema or the code is seen."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import FIXTURES, REPO, build_case
from toolkit.cli import app
from toolkit.content import validate_cache
from toolkit.content.game import bundled_games
from toolkit.content.validate_cache import FindingsCache
from toolkit.diagnostics import Diagnostic, Severity
from toolkit.render import textfit
from toolkit.render.layout import clear_layouts
from toolkit.usercache import SignedStore

BROKEN = sorted(p for p in (FIXTURES / "broken").iterdir() if p.is_dir())
OPTIONS = ("select", "ignore")


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["validate", *args], catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The findings cache on, in a folder of this test's own."""
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "playset" / validate_cache.STORE


@pytest.fixture(scope="module")
def broken_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every broken fixture built once, as tests/test_fixtures.py builds it."""
    root = tmp_path_factory.mktemp("broken")
    for case in BROKEN:
        build_case(case, root / case.name)
    return root


def _entries(folder: Path) -> list[Path]:
    """The findings entries (not the key, the file stamps or the unit results)."""
    skip = {"hmac.key", FindingsCache.STATS}
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.name not in skip and not _units(p))


def _units(path: Path) -> bool:
    return path.name.startswith("units-")


def _same_every_way(*args: str) -> None:
    """JSON and text output and exit codes: the JSON of a run without the cache, the text of
    a cold run (worked out, then kept), and both again from the warm cache."""
    without_json = _run(*args, "--no-cache", "--format", "json")
    cold_text = _run(*args, "--format", "text")
    assert _run(*args, "--format", "json") == without_json
    assert _run(*args, "--format", "text") == cold_text
    assert cold_text[0] == without_json[0]


@pytest.mark.parametrize("game", sorted(bundled_games()))
def test_bundled_games_same_with_and_without_the_cache(game, cache):
    _same_every_way(game)
    assert _entries(cache), "the cold run kept no entry"


@pytest.mark.parametrize("case", BROKEN, ids=[c.name for c in BROKEN])
def test_broken_fixtures_same_with_and_without_the_cache(case, broken_games, cache, monkeypatch):
    game = broken_games / case.name
    monkeypatch.chdir(game)
    _same_every_way(".")
    assert len(_entries(cache)) == 1
    # one file edited (a comment added): checked again with what the last run worked out
    # per unit (toolkit.content.unit_cache), as without the cache
    with (game / "game.yaml").open("ab") as manifest:
        manifest.write(b"\n# edited\n")
    textfit.fit.cache_clear()  # one process per run outside tests
    assert _run(".", "--format", "json") == _run(".", "--no-cache", "--format", "json")


def _finding_game(tmp_path: Path) -> Path:
    return build_case(FIXTURES / "broken" / "double-space", tmp_path / "game")


def test_a_tampered_entry_is_ignored_silently(cache, tmp_path, monkeypatch):
    monkeypatch.chdir(_finding_game(tmp_path))
    expected = _run(".", "--no-cache")
    assert expected[0] == 0 and "T015" in expected[1]
    assert _run(".") == expected
    (entry,) = _entries(cache)
    data = entry.read_bytes()
    entry.write_bytes(data.replace(b"T015", b"T999"))  # a finding changed, MAC kept
    assert _run(".") == expected
    assert entry.read_bytes() == data  # worked out afresh and kept again
    entry.write_bytes(data[:20])  # truncated
    assert _run(".") == expected
    entry.write_bytes(b"")
    assert _run(".") == expected


def test_an_entry_for_other_inputs_is_ignored(cache, tmp_path, monkeypatch):
    """A well-signed entry in this game's place, but worked out for another game."""
    other = build_case(FIXTURES / "base", tmp_path / "other")
    monkeypatch.chdir(other)
    assert _run(".") == _run(".", "--no-cache")
    (clean_entry,) = _entries(cache)
    monkeypatch.chdir(_finding_game(tmp_path))
    expected = _run(".", "--no-cache")
    assert _run(".") == expected
    (entry,) = (e for e in _entries(cache) if e != clean_entry)
    store = SignedStore.open(validate_cache.STORE, validate_cache.MAX_ENTRY_BYTES)
    assert store is not None
    foreign = store.read(clean_entry.name)
    assert foreign is not None and b"T015" not in foreign
    assert store.write(entry.name, foreign)
    assert _run(".") == expected


def test_a_cache_folder_others_may_write_turns_the_cache_off(cache, tmp_path, monkeypatch):
    monkeypatch.chdir(_finding_game(tmp_path))
    cache.mkdir(parents=True)
    cache.chmod(0o777)
    expected = _run(".", "--no-cache")
    assert _run(".") == expected
    assert _entries(cache) == []
    assert "cache: off" in _run(".", "--verbose")[1]


def test_no_cache_neither_reads_nor_writes(cache, tmp_path, monkeypatch):
    monkeypatch.chdir(_finding_game(tmp_path))
    _run(".", "--no-cache")
    assert _entries(cache) == []
    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    _run(".")
    assert _entries(cache) == []


@pytest.fixture
def trusted_stamps(monkeypatch):
    """Stamps of files written a moment ago are trusted too (they are not, by default), so
    that an edit must be seen through its new stamp."""
    monkeypatch.setattr(validate_cache.StatCache, "RACY_NS", -(10**18))


def test_editing_one_card_brings_and_takes_a_finding(cache, tmp_path, monkeypatch, trusted_stamps):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    deck = game / "decks" / "cards.yaml"
    clean = deck.read_text(encoding="utf-8")
    assert _run(".") == (0, "clean: 1 game(s): game\n")
    assert "unchanged" in _run(".", "-v")[1]
    same_size = clean.replace("Move {steps} spaces.", "Move  {steps}spaces.")  # T015
    assert len(same_size) == len(clean)
    deck.write_text(same_size, "utf-8")
    edited = _run(".")
    assert "T015" in edited[1]
    assert edited == _run(".", "--no-cache")
    deck.write_text(clean, encoding="utf-8")
    assert _run(".") == (0, "clean: 1 game(s): game\n")


def test_editing_the_glossary_or_a_layout_is_seen(cache, tmp_path, monkeypatch, trusted_stamps):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    assert _run(".")[0] == 0
    glossary = game / "glossary.yaml"
    good = glossary.read_text(encoding="utf-8")
    glossary.write_text(good.replace("  - id: card\n", "  - id: card\n\tx: 1\n"), "utf-8")
    broken = _run(".")
    assert broken[0] != 0 and broken == _run(".", "--no-cache")
    glossary.write_text(good, encoding="utf-8")
    assert _run(".")[0] == 0
    # a layout of the game's own, in place of the built-in one, then broken
    layouts = game / "layouts"
    layouts.mkdir()
    shutil.copy(REPO / "templates" / "cards" / "standard.yaml", layouts / "standard.yaml")
    assert _run(".") == _run(".", "--no-cache")
    (layouts / "standard.yaml").write_text("elements: [\n", encoding="utf-8")
    try:
        clear_layouts()  # one process per run outside tests
        broken = _run(".")
        assert broken[0] != 0 and broken == _run(".", "--no-cache")
    finally:  # the next test's game is `.` too
        clear_layouts()


def test_a_schema_a_modeline_names_going_away_is_seen(cache, tmp_path, monkeypatch):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    # inside the game: of a path outside it R009 says nothing (whether it exists is the
    # user's, not the game's to learn)
    schema = game / "myschemas" / "deck.schema.json"
    schema.parent.mkdir()
    shutil.copy(REPO / "schemas" / "generic" / "deck.schema.json", schema)
    deck = game / "decks" / "cards.yaml"
    lines = deck.read_text(encoding="utf-8").split("\n")
    lines[0] = f"# yaml-language-server: $schema={schema}"
    deck.write_text("\n".join(lines), encoding="utf-8")
    monkeypatch.chdir(game)
    there = _run(".")
    assert "does not exist" not in there[1], there
    schema.unlink()
    gone = _run(".")
    assert "does not exist" in gone[1]
    assert gone == _run(".", "--no-cache")


def test_a_change_to_the_code_is_a_new_key(cache, tmp_path, monkeypatch, trusted_stamps):
    code = tmp_path / "code"
    (code / "checks").mkdir(parents=True)
    rule = code / "checks" / "rule.py"
    rule.write_text("LIMIT = 1\n", encoding="utf-8")
    monkeypatch.setattr(validate_cache, "shared_trees", lambda: [("toolkit", str(code))])
    game = build_case(FIXTURES / "base", tmp_path / "game")
    notes: list[str] = []
    found = FindingsCache.open(notes.append)
    assert found is not None
    assert found.lookup(game, OPTIONS) is None
    found.save(game, OPTIONS, [])
    assert found.lookup(game, OPTIONS) == []
    rule.write_text("LIMIT = 2\n", encoding="utf-8")
    assert found.lookup(game, OPTIONS) is None
    assert "changed since its entry" in notes[-1]


def test_the_modeline_pattern_covers_the_checks_own():
    from toolkit.checks.references import MODELINE

    for line in (
        "# yaml-language-server: $schema=../s.json",
        "  #\tyaml-language-server: $schema=x",
    ):
        wanted = MODELINE.search(line)
        assert wanted is not None
        got = validate_cache.MODELINE_TARGET.search(line)
        assert got is not None and got.group(1) == wanted.group(1)


def test_entries_hold_no_code(cache, tmp_path, monkeypatch):
    """An entry is JSON (findings, digests, paths): nothing in it is ever run."""
    monkeypatch.chdir(_finding_game(tmp_path))
    _run(".")
    (entry,) = _entries(cache)
    entry_json = json.loads(entry.read_bytes()[32:])
    assert entry_json["findings"][0][1] == "T015"


def _pdfs(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*.pdf")}


def test_build_after_validate_skips_the_checks_and_prints_the_same(cache, tmp_path, monkeypatch):
    import toolkit.checks.gate

    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    validated = _run(".")
    assert validated[0] == 0, validated

    def no_checks(*args, **kwargs):
        raise AssertionError("checked again although validate kept the findings")

    runner = CliRunner()
    with monkeypatch.context() as patched:
        patched.setattr(toolkit.checks.gate, "run_checks", no_checks)
        cached = runner.invoke(app, ["build", ".", "--lang", "en", "--out", str(tmp_path / "a")])
    assert cached.exit_code == 0, cached.output
    fresh = runner.invoke(
        app, ["build", ".", "--lang", "en", "--no-cache", "--out", str(tmp_path / "b")]
    )
    assert fresh.exit_code == 0, fresh.output
    made = _pdfs(tmp_path / "a")
    assert made and made == _pdfs(tmp_path / "b")


def test_build_of_a_game_with_errors_is_refused_from_the_cache_too(cache, tmp_path, monkeypatch):
    game = build_case(FIXTURES / "broken" / "missing-field", tmp_path / "game")
    monkeypatch.chdir(game)
    assert _run(".")[0] == 1
    runner = CliRunner()
    refused = runner.invoke(app, ["build", ".", "--out", str(tmp_path / "a")])
    assert refused.exit_code == 1
    assert refused.output == runner.invoke(app, ["build", ".", "--no-cache"]).output
    assert not (tmp_path / "a").exists()


def _build(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["build", ".", "--lang", "en,fr", *args])
    return result.exit_code, re.sub(r" in \d+\.\d s|/(a|b|c|d|e)/", "", result.output)


def test_an_unchanged_game_is_not_drawn_again(cache, tmp_path, monkeypatch, trusted_stamps):
    import toolkit.render.build

    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    out = tmp_path / "out"  # outside the game: files written there are no input of it
    cold = _build("--out", str(out / "a"))
    assert cold[0] == 0 and "wrote" in cold[1]
    made = _pdfs(out / "a")
    (out / "a" / "fixture-game" / "en" / "cards.pdf").write_bytes(b"spoilt")
    with monkeypatch.context() as patched:
        patched.setattr(toolkit.render.build, "build_game", None)  # drawing would fail
        warm = _build("--out", str(out / "a"))
    assert warm == cold and _pdfs(out / "a") == made  # the spoilt file written again
    assert _build("--out", str(out / "b"), "--no-cache")[0] == 0
    assert _pdfs(out / "b") == made
    # one card edited: drawn again, as without the cache
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text("utf-8").replace("Move {steps}", "Go {steps}"), "utf-8")
    assert _build("--out", str(out / "a"))[0] == 0
    assert _build("--out", str(out / "c"), "--no-cache")[0] == 0
    assert _pdfs(out / "a") == _pdfs(out / "c") != made
    # other options are another entry
    assert _build("--out", str(out / "d"), "--paper", "letter") == _build(
        "--out", str(out / "e"), "--paper", "letter"
    )
    assert _pdfs(out / "d") == _pdfs(out / "e") != _pdfs(out / "c")


def test_a_file_name_that_is_not_utf8_is_kept_too(cache, tmp_path):
    game = build_case(FIXTURES / "base", tmp_path / "game")
    name = os.fsdecode(b"\xff-extra.yaml")
    (game / "decks" / name).write_text("id: x\n", encoding="utf-8")
    found = [Diagnostic(f"decks/{name}", "R004", f"{name} is not listed", Severity.WARNING)]
    kept = FindingsCache.open(lambda text: None)
    assert kept is not None and kept.lookup(game, OPTIONS) is None
    kept.save(game, OPTIONS, found)
    assert _entries(cache)
    again = FindingsCache.open(lambda text: None)
    assert again is not None and again.lookup(game, OPTIONS) == found


def test_a_build_inside_the_game_folder_is_no_change_to_the_game(cache, tmp_path, monkeypatch):
    """`playset new` games build into their own output/, which their .gitignore names."""
    import toolkit.render.build

    game = build_case(FIXTURES / "base", tmp_path / "game")
    (game / ".gitignore").write_text("output/\n", encoding="utf-8")
    monkeypatch.chdir(game)
    assert _run(".")[0] == 0
    cold = _build()
    assert cold[0] == 0 and (game / "output").is_dir()
    assert "unchanged" in _run(".", "-v")[1]
    with monkeypatch.context() as patched:
        patched.setattr(toolkit.render.build, "build_game", None)  # drawing would fail
        assert _build() == cold


@pytest.mark.parametrize("inside", [False, True])
def test_the_code_part_taken_once_gives_the_key_taken_afresh(tmp_path, monkeypatch, inside):
    """A lookup hashes the code part once for its key and the units' head: the keys are
    those of walks that hash it again, also for a game inside a code tree (walked once)
    and when the file budget is reached by the code and the game together."""
    code = tmp_path / "code"
    code.mkdir()
    (code / "rule.py").write_text("LIMIT = 1\n", encoding="utf-8")
    game = build_case(FIXTURES / "base", (code if inside else tmp_path) / "game")
    monkeypatch.setattr(validate_cache, "shared_trees", lambda: [("toolkit", str(code))])
    stats = validate_cache.StatCache()
    part = validate_cache.code_part(stats)
    assert part is not None
    assert validate_cache.inputs_digest(game, OPTIONS, stats, part) == (
        validate_cache.inputs_digest(game, OPTIONS, stats)
    )
    assert validate_cache.units_digest(game, stats, part) == (
        validate_cache.units_digest(game, stats)
    )
    files = sum(1 for p in tmp_path.rglob("*") if p.is_file() and "cache" not in p.parts)
    monkeypatch.setattr(validate_cache, "MAX_FILES", files - 1)
    part = validate_cache.code_part(stats)
    assert validate_cache.inputs_digest(game, OPTIONS, stats, part) is None
    assert validate_cache.inputs_digest(game, OPTIONS, stats) is None


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*.png")}


def test_other_commands_after_validate_skip_the_checks_too(cache, tmp_path, monkeypatch):
    """An export, a translation command or a simulation after `validate` loads the game and
    checks nothing again, and makes what the gate's checks would have let it make."""
    import toolkit.checks.gate
    import toolkit.i18n.status

    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    assert _run(".")[0] == 0

    def no_checks(*args, **kwargs):
        raise AssertionError("checked again although validate kept the findings")

    runner = CliRunner()
    export = ["export", "png", ".", "--lang", "en", "--dpi", "30", "--out"]
    with monkeypatch.context() as patched:
        patched.setattr(toolkit.checks.gate, "run_checks", no_checks)
        patched.setattr(toolkit.i18n.status, "run_checks", no_checks)
        cached = runner.invoke(app, [*export, str(tmp_path / "a")])
        status = runner.invoke(app, ["i18n", "status", "."])
    assert cached.exit_code == 0, cached.output
    assert status.exit_code == 0, status.output
    monkeypatch.setenv("PLAYSET_NO_CACHE", "1")
    fresh = runner.invoke(app, [*export, str(tmp_path / "b")])
    assert fresh.exit_code == 0, fresh.output
    made = _files(tmp_path / "a")
    assert made and made == _files(tmp_path / "b")
    assert status.output == runner.invoke(app, ["i18n", "status", "."]).output
