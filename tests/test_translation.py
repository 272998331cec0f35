"""Translation checks on real content: a mutation suite, safe fixes, and the PO round trip."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import polib
import pytest

from tests.conftest import REPO, copy_game
from toolkit.checks import run_checks
from toolkit.checks.translation.typography import apply_fixes, safe_fixes
from toolkit.content.game import load_game
from toolkit.i18n.po import export_po, import_po

SPECIALS = "decks/specials.yaml"


@pytest.fixture
def whisky(tmp_path: Path) -> Path:
    root = tmp_path / "whisky-game"
    copy_game(REPO / "content" / "whisky-game", root)
    return root


@pytest.fixture(scope="module")
def unmutated(tmp_path_factory) -> set[tuple[str, str, int]]:
    """The findings of an unedited copy of the Whisky Game: the same before every mutation
    below, so worked out once (a whole check of the game costs ~1 s of CPU per case)."""
    root = tmp_path_factory.mktemp("unmutated") / "whisky-game"
    copy_game(REPO / "content" / "whisky-game", root)
    return _t_findings(root)


def _t_findings(root: Path) -> set[tuple[str, str, int]]:
    found = run_checks(load_game(root))
    return {(d.code, Path(d.file).as_posix().split("whisky-game/")[-1], d.line) for d in found}


def _mutate(root: Path, rel: str, line: int, old: str, new: str) -> None:
    path = root / rel
    lines = path.read_text(encoding="utf-8").split("\n")
    assert old in lines[line - 1], lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    path.write_text("\n".join(lines), encoding="utf-8")


def _line_of(root: Path, rel: str, needle: str) -> int:
    lines = (root / rel).read_text(encoding="utf-8").split("\n")
    return next(i for i, text in enumerate(lines, 1) if needle in text)


MUTATIONS = [
    # (name, needle that finds the line, old, new, expected code, line offset from needle)
    ("plain space before ! in French", "fr: C'est une contrefa", "\u202f!", " !", "T010"),
    ("missing ¡ in Spanish", "es: ¡Es una falsificaci", "¡Es", "Es", "T011"),
    ("dropped placeholder", "en: It's a fake!", "{count}", "a few", "T005"),
    (
        "number word instead of placeholder",
        "en: It's a fake!",
        "{count} of",
        "{count} or two of",
        "T007",
    ),
    ("term translated two ways", "es: ¡Es una falsificaci", "destilería", "fábrica", "T008"),
    (
        "plural disagrees with count",
        "en: It's a fake!",
        "{count} of an opponent's bottles",
        "{count} bottles of an opponent",
        "T017",
    ),
    ("doubled word", "en: It's a fake!", "Send", "Send send", "T014"),
    ("end punctuation differs", "en: It's a fake!", "distillery.", "distillery", "T013"),
]


@pytest.mark.parametrize("name,needle,old,new,code", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_mutation_is_caught_at_its_line(whisky, unmutated, name, needle, old, new, code):
    baseline = unmutated
    line = _line_of(whisky, SPECIALS, needle)
    _mutate(whisky, SPECIALS, line, old, new)
    added = _t_findings(whisky) - baseline
    assert (code, SPECIALS, line) in added, added


def test_changed_number_is_caught(whisky):
    baseline = _t_findings(whisky)
    path = whisky / "game.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    summary = lines.index("summary:")
    for offset, number in ((1, "25"), (2, "52"), (3, "25")):
        lines[summary + offset] = re.sub(r"\.(\"?)$", rf" ({number}).\1", lines[summary + offset])
    path.write_text("\n".join(lines), encoding="utf-8")
    added = _t_findings(whisky) - baseline
    assert ("T006", "game.yaml", summary + 3) in added, added


def test_missing_language_is_caught(whisky):
    baseline = _t_findings(whisky)
    line = _line_of(whisky, SPECIALS, "en: It's a fake!")
    path = whisky / SPECIALS
    lines = path.read_text(encoding="utf-8").split("\n")
    del lines[line - 1]
    path.write_text("\n".join(lines), encoding="utf-8")
    added = _t_findings(whisky) - baseline
    assert ("T001", SPECIALS, line - 3) in added, added


def test_safe_fixes_only_touch_spaces():
    assert apply_fixes("Vite !", safe_fixes("fr", "Vite !")) == "Vite\u202f!"
    assert apply_fixes("Note: ici", safe_fixes("fr", "Note: ici")) == "Note\u00a0: ici"
    assert apply_fixes("« oui »", safe_fixes("fr", "« oui »")) == "«\u00a0oui\u00a0»"
    assert (
        apply_fixes(
            "À 12:30, voir https://x.org/a:b", safe_fixes("fr", "À 12:30, voir https://x.org/a:b")
        )
        == "À 12:30, voir https://x.org/a:b"
    )
    assert apply_fixes("Go !", safe_fixes("en", "Go !")) == "Go!"
    assert apply_fixes("¿ Qué ?", safe_fixes("es", "¿ Qué ?")) == "¿Qué?"
    assert apply_fixes("a  b ", safe_fixes("en", "a  b ")) == "a b"
    # inline icons keep their colons and the spaces around them
    assert safe_fixes("fr", "Marée :coin:") == []
    assert safe_fixes("en", "cards :coin:") == []


def test_minus_sign_fix_touches_signs_only():
    """A hyphen before a number or placeholder is a sign (T016); ranges and words keep it."""
    for lang in ("fr", "es", "en", "de"):
        text = "-1 to rolls, a -{malus} drop, 1-2 or x-1 or re-roll stay"
        fixed = apply_fixes(text, safe_fixes(lang, text))
        assert fixed == "\u22121 to rolls, a \u2212{malus} drop, 1-2 or x-1 or re-roll stay"


def test_negative_parameters_print_with_a_minus_sign():
    """Drinking Heroes' Curse has roll_modifier -1: every language prints U+2212, never '-'."""
    from toolkit.content.game import bundled_games
    from toolkit.content.templating import fill

    game = load_game(bundled_games()["drinking-heroes"])
    curse = next(
        card for deck in game.valid(game.decks) for card in deck.cards if card.id == "curse"
    )
    for lang in ("fr", "es", "en"):
        printed = fill(curse.text[lang], curse, lang)
        assert "\u22121" in printed and "-1" not in printed, printed
    assert fill("{roll_modifier}", curse) == "-1"  # data views (no language) keep the value


def test_fix_command_rewrites_only_the_broken_scalar(whisky, run_cli, monkeypatch):
    path = whisky / SPECIALS
    before = path.read_text(encoding="utf-8")
    line = _line_of(whisky, SPECIALS, "fr: C'est une contrefa")
    _mutate(whisky, SPECIALS, line, "\u202f!", " !")
    monkeypatch.chdir(whisky)
    diff = run_cli("i18n", "fix", ".")
    assert diff.exit_code == 0 and "-      fr: C'est une contrefaçon !" in diff.stdout
    assert path.read_text(encoding="utf-8") != before  # a diff alone writes nothing
    assert run_cli("i18n", "fix", ".", "--write").exit_code == 0
    assert path.read_text(encoding="utf-8") == before


def _po_for(root: Path, lang: str) -> polib.POFile:
    return export_po(load_game(root), lang)


def test_po_export_passes_msgfmt_and_loads(whisky, tmp_path):
    import subprocess

    po_path = tmp_path / "es.po"
    po_path.write_text(str(_po_for(whisky, "es")) + "\n", encoding="utf-8")
    if shutil.which("msgfmt"):
        subprocess.run(["msgfmt", "-c", "-o", "/dev/null", str(po_path)], check=True)
    po = polib.pofile(str(po_path))
    assert len(po) > 100
    entry = next(e for e in po if e.msgctxt == "decks/characters.yaml:cards[alan-winchester].text")
    assert "{amount}" in entry.msgid and "{amount}=3" in entry.comment


def test_po_round_trip_is_byte_identical(whisky):
    files = {p: p.read_bytes() for p in whisky.rglob("*.yaml")}
    po = _po_for(whisky, "en")
    result, texts = import_po(load_game(whisky), po, "en")
    assert texts == {} and not result.applied and not result.stale
    entry = next(e for e in po if e.msgctxt == "decks/specials.yaml:cards[faker].text")
    original = entry.msgstr
    entry.msgstr = "It's a fake: send {count} of an opponent's bottles back."
    result, texts = import_po(load_game(whisky), po, "en")
    assert result.applied == ["decks/specials.yaml:cards[faker].text"]
    ((path, text),) = texts.items()
    path.write_text(text, encoding="utf-8")
    changed = [
        (a, b)
        for a, b in zip(files[path].decode().split("\n"), text.split("\n"), strict=True)
        if a != b
    ]
    assert len(changed) == 1 and "\"It's a fake: send {count}" in changed[0][1]
    entry.msgstr = original
    _, texts = import_po(load_game(whisky), po, "en")
    for p, t in texts.items():
        p.write_text(t, encoding="utf-8")
    assert {p: p.read_bytes() for p in whisky.rglob("*.yaml")} == files


def test_import_refuses_entries_whose_source_changed(whisky):
    po = _po_for(whisky, "es")
    entry = next(e for e in po if e.msgctxt == "decks/specials.yaml:cards[faker].text")
    entry.msgstr = "Otra cosa {count}."
    line = _line_of(whisky, SPECIALS, "fr: C'est une contrefa")
    _mutate(whisky, SPECIALS, line, "contrefaçon", "imitation")
    result, texts = import_po(load_game(whisky), po, "es")
    assert result.stale == ["decks/specials.yaml:cards[faker].text"] and texts == {}


def test_import_adds_a_missing_language(whisky):
    po = _po_for(whisky, "en")
    path = whisky / SPECIALS
    original = path.read_text(encoding="utf-8")
    line = _line_of(whisky, SPECIALS, "en: It's a fake!")
    lines = original.split("\n")
    del lines[line - 1]
    path.write_text("\n".join(lines), encoding="utf-8")
    result, texts = import_po(load_game(whisky), po, "en")
    assert result.applied == ["decks/specials.yaml:cards[faker].text"]
    assert texts[path] == original


def test_rulebook_prose_follows_each_languages_spacing(run_cli, tmp_path):
    """T010/T012 on rulebook lines, at the first place to fix; template code, inline code and
    link targets keep their punctuation."""
    import json

    from tests.conftest import REPO, copy_game

    game = tmp_path / "tokaido"
    copy_game(REPO / "content" / "tokaido", game)
    added = {
        "fr": "\nAvancez ; puis piochez ! Voir `a:b`, [lien](http://x.y:80), {{ game.id }}: ok.\n",
        "en": "\nMove ahead ; then draw.\n",
    }
    lines = {}
    for lang, extra in added.items():
        path = game / "rulebook" / f"{lang}.md"
        text = path.read_text(encoding="utf-8")
        path.write_text(text + extra, encoding="utf-8")
        lines[lang] = text.count("\n") + 2
    result = run_cli("validate", str(game), "--format", "json")
    found = sorted(
        (d["code"], d["file"].rsplit("/", 1)[-1], d["line"], d["col"])
        for d in json.loads(result.stdout)
    )
    # at the mark itself: the ';' after "Avancez " and after "Move ahead "
    assert found == [("T010", "fr.md", lines["fr"], 9), ("T012", "en.md", lines["en"], 12)]


def test_import_of_a_po_file_without_a_game_is_a_usage_error(run_cli, tmp_path):
    po = tmp_path / "bare.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgctxt "decks/x.yaml:cards[a].text"\nmsgid "a"\nmsgstr "b"\n'
    )
    result = run_cli("i18n", "import", str(po))
    assert result.exit_code == 2
    assert "which game does" in result.stderr


def test_a_list_parameter_prints_as_alternatives_in_each_language():
    """'{values}' of [3, 5] prints as the language writes alternatives (CLDR, via Babel);
    checks that compare languages see the neutral '3/5'."""
    from toolkit.content.models import StrictModel
    from toolkit.content.templating import fill, parameter_values

    class Swap(StrictModel):
        values: list[int]

    owner = Swap(values=[3, 5])
    assert fill("a {values} bottle", owner, "fr") == "a 3 ou 5 bottle"
    assert fill("a {values} bottle", owner, "es") == "a 3 o 5 bottle"
    assert fill("a {values} bottle", owner, "en") == "a 3 or 5 bottle"
    assert parameter_values(owner) == {"values": "3/5"}
