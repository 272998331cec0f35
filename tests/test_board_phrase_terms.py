"""A board phrase may be a glossary term (`count: pcount`, as `entrance: castle-entrance`):
the term then writes the phrase's names (probe 18 M4: R006 refused its `{n}` as "no
parameter of this card"), under the bounds of a phrase written in place (each name at most
3 times, R006; 200 characters, P016), and a PO msgstr for a board phrase is held to them at
its PO line (probe 18 M3: `{n}` × 1000 was applied)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polib

from tests.conftest import REPO

ENTRANCE = "    entrance: castle-entrance\n"


def _game(tmp_path: Path, term: str, labels: str = "    count: pcount\n") -> Path:
    """A copy of Muckle Stoater with the glossary term `pcount` (`term`: its text mapping)
    and `labels` added to its board's style."""
    game = tmp_path / "ms"
    shutil.copytree(REPO / "content" / "muckle-stoater", game)
    glossary = game / "glossary.yaml"
    glossary.write_text(
        glossary.read_text(encoding="utf-8") + f"  - id: pcount\n    text: {term}\n",
        encoding="utf-8",
    )
    board = game / "boards" / "mashies.yaml"
    text = board.read_text(encoding="utf-8")
    assert ENTRANCE in text
    board.write_text(text.replace(ENTRANCE, ENTRANCE + labels), encoding="utf-8")
    return game


def _m(text: str) -> str:
    return "{" + ", ".join(f'{lang}: "{text}"' for lang in ("fr", "es", "en")) + "}"


def _errors(run_cli, game: Path) -> list[dict]:
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    return [d for d in json.loads(result.stdout) if d["severity"] == "error"]


def test_a_phrase_label_naming_a_term_lets_the_term_write_the_phrase_names(run_cli, tmp_path):
    game = _game(tmp_path, '{fr: "{n} joueurs", es: "{n} jugadores", en: "{n} gamers"}')
    assert _errors(run_cli, game) == []


def test_a_term_a_phrase_prints_is_bounded_as_the_phrase(run_cli, tmp_path):
    game = _game(tmp_path / "a", _m("{n}" * 4))
    found = _errors(run_cli, game)
    assert [(d["code"], Path(d["file"]).name) for d in found] == [("R006", "glossary.yaml")] * 3, (
        found
    )
    assert "the glossary term 'pcount' (fr) writes {n} more than 3 times" in found[0]["message"]
    assert "the board phrase 'count' of " in found[0]["message"]
    game = _game(tmp_path / "b", _m("{n} {x}"))
    found = _errors(run_cli, game)
    assert [d["code"] for d in found] == ["R006"] * 3, found
    assert "writes '{x}'" in found[0]["message"] and "which fills {n}" in found[0]["message"]
    game = _game(tmp_path / "c", _m("o" * 201), "    or: pcount\n")
    found = _errors(run_cli, game)
    assert [(d["code"], Path(d["file"]).name) for d in found] == [("P016", "mashies.yaml")], found
    assert "201 characters" in found[0]["message"]


def test_a_term_two_labels_print_writes_the_names_both_fill(run_cli, tmp_path):
    labels = "    count: pcount\n    start: pcount\n"
    game = _game(tmp_path, _m("{n} players"), labels)
    found = _errors(run_cli, game)
    assert [d["code"] for d in found] == ["R006"] * 3, found
    message = found[0]["message"]
    assert "the label 'start'" in message and "the board phrase 'count'" in message
    assert "writes only the names all of them fill" in message and ": no name" in message


def _po(run_cli, game: Path, tmp_path: Path, key: str, msgstr: str) -> Path:
    """The game's en PO file with the entry `key` translated as `msgstr`."""
    path = tmp_path / "en.po"
    assert run_cli("i18n", "export", str(game), "--lang", "en", "--out", str(path)).exit_code == 0
    po = polib.pofile(str(path))
    (entry,) = [e for e in po if e.msgctxt == key]
    entry.msgstr = msgstr
    po.save(str(path))
    return path


def test_a_po_msgstr_for_a_board_phrase_is_bounded_at_its_line(run_cli, tmp_path):
    labels = f"    count: pcount\n    or: {_m(' ou ')}\n"
    game = _game(tmp_path, '{fr: "{n} joueurs", es: "{n} jugadores", en: "{n} players"}', labels)
    cases = [
        ("glossary.yaml:terms[pcount].text", "{n}" * 1000 + " players", "more than 3 times"),
        ("boards/mashies.yaml:style.labels.or", "o" * 201, "at most 200"),
    ]
    for key, msgstr, why in cases:
        path = _po(run_cli, game, tmp_path, key, msgstr)
        result = run_cli("i18n", "import", str(path), "--game", str(game))
        assert result.exit_code == 1, result.stderr
        assert f"refused {key}:" in result.stderr and why in result.stderr, result.stderr
        assert "0 applied" in result.stderr
    assert _errors(run_cli, game) == []


def _third_line(game: Path, line: str) -> Path:
    """The English rulebook with `line` as its third line; its path."""
    rulebook = game / "rulebook" / "en.md"
    lines = rulebook.read_text(encoding="utf-8").split("\n")
    lines.insert(2, line)
    rulebook.write_text("\n".join(lines), encoding="utf-8")
    return rulebook


def test_the_rulebook_printing_a_term_only_a_board_fills_is_r006_where_it_prints(run_cli, tmp_path):
    """probe 20 M3: the term is checked as the board's phrase, so its `{n}` is no finding at
    the term; the rulebook prints it as written, "{n} players", and validate was clean."""
    game = _game(tmp_path, '{fr: "{n} joueurs", es: "{n} jugadores", en: "{n} players"}')
    rulebook = _third_line(game, "Play with {{ glossary.pcount }} and {{ glossary['pcount'] }}.")
    found = _errors(run_cli, game)
    assert [(d["code"], d["file"], d["line"], d["col"]) for d in found] == [
        ("R006", str(rulebook), 3, 11)
    ], found
    message = found[0]["message"]
    assert "the rulebook prints the glossary term 'pcount' (en) as written (2 times)" in message
    assert "'{n} players': its {n} is filled only where a board prints" in message


def test_a_layout_printing_a_term_only_a_board_fills_is_r006_at_its_element(run_cli, tmp_path):
    game = _game(tmp_path, '{fr: "{n} joueurs", es: "{n} jugadores", en: "{n} players"}')
    layout = game / "layouts" / "ms-pack.yaml"
    text = layout.read_text(encoding="utf-8")
    element = "    text: \"{{ card.rank if card.rank != 'JOKER' else ':star:' }}\"\n"
    assert element in text
    printed = "    text: \"{% set g = glossary %}{{ g['pc' ~ 'ount'] }}\"\n"
    layout.write_text(text.replace(element, printed, 1), encoding="utf-8")
    found = _errors(run_cli, game)
    line = text[: text.index(element)].count("\n") + 1
    assert [(d["code"], d["file"], d["line"]) for d in found] == [("R006", str(layout), line)] * 3
    assert [d["message"][:55] for d in found] == [
        f"layout 'ms-pack' prints the glossary term 'pcount' ({lang})"
        for lang in ("fr", "es", "en")
    ]
    assert (
        "layout 'ms-pack' prints the glossary term 'pcount' (fr) as written"
        in (found[0]["message"])
    )


def test_a_term_only_a_board_fills_is_found_after_a_filter_changed_it(run_cli, tmp_path):
    # probe 22 M3: `{{ glossary.pcount|upper }}` printed "{N} PLAYERS", validate clean
    game = _game(tmp_path, '{fr: "{n} joueurs", es: "{n} jugadores", en: "{n} players"}')
    _third_line(game, "Play with {{ glossary.pcount|upper }}.")
    found = _errors(run_cli, game)
    assert [(d["code"], d["line"]) for d in found] == [("R006", 3)], found
