"""Hardening: i18n writes change the translation and nothing else (CRLF kept, aliases and
merge keys refused honestly, control characters a clear message, modes kept)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import polib
import pytest
from ruamel.yaml import YAML

from tests.conftest import REPO, copy_game
from toolkit.content.game import load_game
from toolkit.i18n.po import export_po

DECK = "decks/cards.yaml"


def _po(game: Path, lang: str, changes: dict[str, str], tmp_path: Path) -> Path:
    """A PO export of `lang` with msgstr changed for the given msgctxt suffixes."""
    po = export_po(load_game(game), lang)
    for entry in po:
        for suffix, text in changes.items():
            if entry.msgctxt.endswith(suffix):
                entry.msgstr = text
    path = tmp_path / f"{lang}.po"
    path.write_text(str(po) + "\n", encoding="utf-8")
    return path


def _import(run_cli, po: Path, game: Path, *extra: str):
    return run_cli("i18n", "import", str(po), "--game", str(game), *extra)


def test_a_crlf_file_stays_crlf_and_only_one_line_changes(game, run_cli, tmp_path):
    path = game / DECK
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    before = path.read_bytes().split(b"\r\n")
    po = _po(game, "en", {"[sprint].text": "Run {steps} spaces."}, tmp_path)
    result = _import(run_cli, po, game)
    assert result.exit_code == 0, result.stderr
    after = path.read_bytes()
    assert b"\n" not in after.replace(b"\r\n", b"")
    changed = [(a, b) for a, b in zip(before, after.split(b"\r\n"), strict=True) if a != b]
    assert changed == [(b"      en: Move {steps} spaces.", b"      en: Run {steps} spaces.")]


def test_a_missing_language_after_a_crlf_block_scalar_is_added(game, run_cli, tmp_path):
    path = game / DECK
    text = path.read_text(encoding="utf-8")
    text = text.replace(
        "      es: Avanza {steps} casillas.\n      en: Move {steps} spaces.\n",
        "      es: |\n        Avanza {steps} casillas.\n",
    )
    path.write_bytes(text.replace("\n", "\r\n").encode())
    po = _po(game, "en", {"[sprint].text": "Run {steps} spaces."}, tmp_path)
    result = _import(run_cli, po, game)
    assert result.exit_code == 0, result.stderr
    assert "1 applied" in result.stderr
    raw = path.read_bytes()
    assert b"        Avanza {steps} casillas.\r\n      en: Run {steps} spaces.\r\n" in raw
    doc = load_game(game)
    assert not [d for d in doc.diagnostics if d.severity == "error"]


def _aliased(game: Path) -> None:
    path = game / DECK
    text = path.read_text(encoding="utf-8")
    text = text.replace("    text:\n      fr: Avancez", "    text: &move\n      fr: Avancez", 1)
    # the rest card gets a `steps` too, so the shared text is valid content (the gate)
    text = text.replace(
        "    copies: 2", "    text: *move\n    copies: 2\n    params:\n      steps: 1", 1
    )
    path.write_text(text, encoding="utf-8")


def test_a_field_that_is_an_alias_is_refused_not_rewritten_elsewhere(game, run_cli, tmp_path):
    _aliased(game)
    before = (game / DECK).read_bytes()
    po = _po(game, "en", {"[rest].text": "Sleep {steps}."}, tmp_path)
    result = _import(run_cli, po, game)
    assert result.exit_code == 1
    assert "0 applied" in result.stderr and "1 refused" in result.stderr
    assert "[rest].text" in result.stderr and "alias" in result.stderr
    assert (game / DECK).read_bytes() == before


def test_a_field_reached_through_a_merge_key_is_refused(game, run_cli, tmp_path):
    path = game / DECK
    text = path.read_text(encoding="utf-8")
    text = text.replace("    text:\n      fr: Avancez", "    text: &move\n      fr: Avancez", 1)
    text = text.replace(
        "    copies: 2",
        "    text:\n      <<: *move\n      es: Duerme.\n    copies: 2\n    params:\n      steps: 1",
    )
    path.write_text(text, encoding="utf-8")
    before = path.read_bytes()
    po = _po(game, "en", {"[rest].text": "Sleep {steps}."}, tmp_path)
    result = _import(run_cli, po, game)
    assert result.exit_code == 1 and "merge key" in result.stderr
    assert path.read_bytes() == before


@pytest.mark.parametrize("char", ["\x7f", "\x85", "\x9b", "\r", "\x00", "\u2028"])
def test_control_characters_in_a_msgstr_are_a_clear_refusal(game, run_cli, tmp_path, char):
    before = (game / DECK).read_bytes()
    po_path = _po(game, "en", {"[sprint].text": f"Run{char} {{steps}} spaces."}, tmp_path)
    po = polib.pofile(str(po_path))
    assert any(char in e.msgstr for e in po), "polib dropped the character"
    result = _import(run_cli, po_path, game)
    assert result.exit_code == 1
    assert f"U+{ord(char):04X}" in result.stderr
    assert (game / DECK).read_bytes() == before


def test_a_repeated_msgctxt_is_refused_and_the_first_applies(game, run_cli, tmp_path):
    po = export_po(load_game(game), "en")
    first = next(e for e in po if e.msgctxt.endswith("[sprint].text"))
    first.msgstr = "Run {steps} spaces."
    po.append(polib.POEntry(msgctxt=first.msgctxt, msgid=first.msgid, msgstr="Walk {steps}."))
    path = tmp_path / "en.po"
    path.write_text(str(po) + "\n", encoding="utf-8")
    result = _import(run_cli, path, game)
    assert result.exit_code == 1 and "repeats this msgctxt" in result.stderr
    assert "en: Run {steps} spaces." in (game / DECK).read_text(encoding="utf-8")


def test_fix_write_keeps_crlf_and_the_file_mode(game, run_cli):
    path = game / DECK
    text = path.read_text(encoding="utf-8").replace("Avancez de {steps} cases.", "Vite !")
    path.write_bytes(text.replace("\n", "\r\n").encode())
    path.chmod(0o640)
    old = os.umask(0o022)
    try:
        result = run_cli("i18n", "fix", str(game), "--write")
    finally:
        os.umask(old)
    assert result.exit_code == 0, result.stderr
    raw = path.read_bytes()
    assert "Vite\u202f!".encode() in raw and b"\n" not in raw.replace(b"\r\n", b"")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def _with_header(po_path: Path, project: str) -> Path:
    po = polib.pofile(str(po_path))
    po.metadata["Project-Id-Version"] = project
    po.save(str(po_path))
    return po_path


def test_a_po_header_cannot_name_a_folder_to_edit(game, run_cli, tmp_path, monkeypatch):
    po = _po(game, "en", {"[sprint].text": "Run {steps} spaces."}, tmp_path)
    before = (game / DECK).read_bytes()
    _with_header(po, str(game))
    monkeypatch.chdir(tmp_path)  # no game folder around: the header alone named the game
    result = run_cli("i18n", "import", str(po))
    assert result.exit_code == 2 and "cannot name a folder" in result.stderr
    result = run_cli("i18n", "import", str(po), "--game", str(game))
    assert result.exit_code == 2 and "cannot name a folder" in result.stderr
    assert (game / DECK).read_bytes() == before


def test_a_po_header_naming_a_bundled_id_does_not_pick_that_game(run_cli, tmp_path, monkeypatch):
    po = tmp_path / "en.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Project-Id-Version: drinking-heroes\\n"\n"Language: en\\n"\n\n'
        'msgctxt "decks/x.yaml:cards[a].text"\nmsgid "a"\nmsgstr "b"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    result = run_cli("i18n", "import", str(po), "--dry-run")
    assert result.exit_code == 2 and "which game does" in result.stderr


def test_a_po_header_must_name_the_game_in_effect(game, run_cli, tmp_path, monkeypatch):
    po = _po(game, "en", {"[sprint].text": "Run {steps} spaces."}, tmp_path)
    _with_header(po, "another-game")
    before = (game / DECK).read_bytes()
    monkeypatch.chdir(game)
    result = run_cli("i18n", "import", str(po))
    assert result.exit_code == 2 and "not 'fixture-game'" in result.stderr.replace("\n", " ")
    assert (game / DECK).read_bytes() == before
    _with_header(po, "fixture-game")
    result = run_cli("i18n", "import", str(po))  # the game folder it is run in
    assert result.exit_code == 0, result.stderr
    assert "Run {steps} spaces." in (game / DECK).read_text(encoding="utf-8")


def _plain_paragraphs(po: polib.POFile) -> list[polib.POEntry]:
    return [
        e
        for e in po
        if e.msgctxt.startswith("rulebook/") and "{" not in e.msgid + e.msgstr and e.msgstr
    ]


@pytest.mark.parametrize(
    ("first", "second", "why"),
    [
        (" {{ 'a' * ", "10**9 }} ", "make Jinja code no entry holds: {{ 'a' *"),
        (" {% if true ", " %} ", "make Jinja code no entry holds: {% if true"),
        (" {# ", " ", "break the template"),
    ],
)
def test_jinja_split_over_two_po_entries_never_reaches_the_rulebook(
    run_cli, tmp_path, first, second, why
):
    root = copy_game(REPO / "content" / "drinking-heroes", tmp_path / "dh")
    po = export_po(load_game(root), "en")
    a, b = _plain_paragraphs(po)[3:5]
    a.msgstr += first  # each half alone holds no Jinja code: the entry check lets it pass
    b.msgstr = second + b.msgstr
    path = tmp_path / "en.po"
    path.write_text(str(po) + "\n", encoding="utf-8")
    book = root / "rulebook" / "en.md"
    before = book.read_bytes()
    result = run_cli("i18n", "import", str(path), "--game", str(root))
    assert result.exit_code == 1
    assert why in result.stderr.replace("\n", "")
    assert "rulebook/en.md:" in result.stderr and "en.md not written" in result.stderr
    assert book.read_bytes() == before


FLOW = (
    '    text: {fr: "Avancez de {steps} cases.", es: "Avanza {steps} casillas.", '
    'en: "Move {steps} spaces."}\n'
)


def _flow_deck(game: Path, with_en: bool = True) -> Path:
    path = game / DECK
    text = path.read_text(encoding="utf-8")
    block = (
        "    text:\n      fr: Avancez de {steps} cases.\n      es: Avanza {steps} casillas.\n"
        "      en: Move {steps} spaces.\n"
    )
    flow = FLOW if with_en else FLOW.replace(', en: "Move {steps} spaces."', "")
    path.write_text(text.replace(block, flow), encoding="utf-8")
    return path


@pytest.mark.parametrize("with_en", [True, False])
def test_a_msgstr_with_a_comma_or_brace_imports_into_a_flow_mapping(
    game, run_cli, tmp_path, with_en
):
    path = _flow_deck(game, with_en)
    wanted = {"[sprint].text": "Run {steps}, then rest}.", "[rest].name": "Nap, [short]"}
    po = _po(game, "en", wanted, tmp_path)
    result = _import(run_cli, po, game)
    assert result.exit_code == 0, result.stderr
    assert "2 applied" in result.stderr
    loaded = load_game(game)
    assert not [d for d in loaded.diagnostics if d.severity == "error"]
    data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    cards = {card["id"]: card for card in data["cards"]}
    assert cards["sprint"]["text"]["en"] == "Run {steps}, then rest}."
    assert cards["rest"]["name"]["en"] == "Nap, [short]"


def test_a_tab_in_a_msgstr_is_written_quoted(game, run_cli, tmp_path):
    po = _po(game, "en", {"[sprint].text": "Run\t{steps} spaces."}, tmp_path)
    result = _import(run_cli, po, game)
    assert result.exit_code == 0, result.stderr
    raw = (game / DECK).read_text(encoding="utf-8")
    assert '      en: "Run\\t{steps} spaces."\n' in raw
    assert "\t" not in raw


class _Killed(BaseException):
    """kill -9 as the test can stage it: the process stops where it is, nothing runs on."""


def test_an_import_killed_between_renames_is_finished_by_the_next_run(
    game, run_cli, tmp_path, monkeypatch
):
    po = _po(game, "en", {"[sprint].text": "Run {steps} spaces.", "[rest].name": "Nap"}, tmp_path)
    export = export_po(load_game(game), "en")
    glossary = next(e for e in export if e.msgctxt.startswith("glossary.yaml:"))
    edited = polib.pofile(str(po))
    next(e for e in edited if e.msgctxt == glossary.msgctxt).msgstr = "Renamed term"
    edited.save(str(po))
    stale = game / "decks" / ".cards.yaml.abcd1234.tmp"
    stale.write_text("left by a killed run\n")
    os.utime(stale, (1, 1))
    real_replace = os.replace
    calls: list[str] = []

    def replace(src, dst, **fds):
        calls.append(str(dst))
        if len(calls) == 3:  # the journal, the first file, then killed
            raise _Killed
        real_replace(src, dst, **fds)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(_Killed):
        _import(run_cli, po, game)
    monkeypatch.setattr(os, "replace", real_replace)
    deck, terms = (game / DECK).read_text(), (game / "glossary.yaml").read_text()
    assert ("Run {steps} spaces." in deck) != ("Renamed term" in terms)  # half done
    empty = tmp_path / "none.po"
    empty.write_text(
        'msgid ""\nmsgstr ""\n"Project-Id-Version: fixture-game\\n"\n"Language: en\\n"\n',
        encoding="utf-8",
    )
    result = _import(run_cli, empty, game)
    assert result.exit_code == 0, result.stderr
    assert "finished an interrupted write" in result.stderr
    assert "Run {steps} spaces." in (game / DECK).read_text()
    assert "Renamed term" in (game / "glossary.yaml").read_text()
    assert not [p.name for p in game.rglob("*") if p.name.startswith(".")]


def test_an_import_waits_while_another_run_holds_the_game(game, run_cli, tmp_path):
    # probe 30 M1: two imports at once each wrote a file as they had read it, and one's
    # entries were lost though both said "applied"
    import threading

    from toolkit.i18n.held import game_held

    po = _po(game, "en", {"[sprint].text": "Run {steps} spaces."}, tmp_path)
    results: list[object] = []
    done = threading.Event()

    def run() -> None:
        results.append(_import(run_cli, po, game))
        done.set()

    with game_held(game):
        thread = threading.Thread(target=run)
        thread.start()
        assert not done.wait(1.5), "the import ran while another run held the game"
        assert "Run {steps} spaces." not in (game / DECK).read_text(encoding="utf-8")
    thread.join(60)
    assert done.is_set() and results[0].exit_code == 0, results
    assert "en: Run {steps} spaces." in (game / DECK).read_text(encoding="utf-8")


def test_a_header_line_of_repeated_content_types_is_read_in_one_pass(game, tmp_path):
    """polib's charset pattern (`"?Content-Type:.+? charset=…`) tried each `Content-Type:`
    of a line to its end: a 1 MB line took minutes, in the toolkit's read and again in
    polib's own. Both are one pass now (a generous limit, in a process of its own)."""
    import subprocess
    import sys

    po = tmp_path / "big.po"
    po.write_bytes(b'msgid ""\nmsgstr ""\n"' + b"Content-Type:" * 76_000 + b'"\n')
    ran = subprocess.run(
        [sys.executable, "-c", "from toolkit.cli import main; main()", "i18n", "import", str(po)]
        + ["--game", str(game)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert "has no Language header" in ran.stderr and "Traceback" not in ran.stderr, ran.stderr


@pytest.mark.parametrize(
    "data",
    [
        b'"Content-Type: text/plain; charset=latin-1\\n"\n',
        b"Content-Type:x charset=utf-8",
        b"Content-Type: charset=utf-8",  # `.+?` takes the space: no match
        b"Content-Type:\n charset=utf-8",
        b"Content-Type:Content-Type: a charset= charset=koi8-r",
        b"x\nContent-Type: a\nContent-Type: b charset=cp1252 charset=utf-8\n",
        b"Content-Type: charset= charset=",
        b"",
    ],
)
def test_the_charset_is_the_one_polibs_pattern_finds(data):
    import re

    from toolkit.i18n.po_bounds import _charset

    pattern = re.compile(rb'"?Content-Type:.+? charset=([\w_\-:\.]+)')
    want = pattern.search(data)
    found = _charset(data)
    assert (found and found.group(1)) == (want and want.group(1))
    assert (found and found.start(1)) == (want and want.start(1))
