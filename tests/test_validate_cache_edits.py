"""One card of the Whisky Game (the game benchmarks/validate_warm.py edits) edited in one
way or another after a run that kept its findings and units: the run that reads back what
it can gives the very output of a run without the cache (findings, their places, exit code).

The game is checked once per worker (cache kept aside); each case is two runs of
it, about 3 s on a quiet machine."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, REPO, build_case
from tests.test_validate_cache_units import _run, _units, cache  # noqa: F401 (a fixture)
from toolkit.content import validate_cache

DECK = "decks/characters.yaml"
WINCHESTER = """  - id: alan-winchester
    name:
      fr: Alan Winchester
      es: Alan Winchester
      en: Alan Winchester
    expansion: base
    effects:
      - kind: add_points
        distillery: glenlivet
        amount: 3
"""
EDITS = {
    # the benchmark's own edit: a text the English rulebook prints (the others are read back)
    "text": (
        "en: Your Glenlivet bottle scores +{amount} points.",
        "en: Your Glenlivet bottle scores +{amount} extra points.",
    ),
    # a parameter the card's text fills in and the rulebook prints (`winchester.amount`)
    "parameter": (WINCHESTER, WINCHESTER.replace("amount: 3", "amount: 5")),
    # an id: now the same as the next card's (a finding), and the rulebook's lookup of it
    "id": (WINCHESTER, WINCHESTER.replace("id: alan-winchester", "id: billy-leighton")),
    # a count: the card printed twice (the rulebook counts copies of some decks)
    "count": (WINCHESTER, WINCHESTER.replace("expansion: base", "copies: 2\n    expansion: base")),
    # a placeholder the card's parameters lack (a finding), the file's length kept
    "placeholder": (
        "en: Your Glenlivet bottle scores +{amount} points.",
        "en: Your Glenlivet bottle scores +{amonut} points.",
    ),
}


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """A copy of the game checked once with the cache on (findings and units kept): the
    game, a copy of the cache folder as that run left it, and the deck's text."""
    where = tmp_path_factory.mktemp("warm")
    game = where / "whisky-game"
    shutil.copytree(REPO / "content" / "whisky-game", game)
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("PLAYSET_NO_CACHE", raising=False)
        patch.setenv("PLAYSET_CACHE", str(where / "cache"))
        patch.setattr(validate_cache.StatCache, "RACY_NS", -(10**18))
        assert _run(str(game), "-f", "json")[0] in (0, 1)
    assert _units(where / "cache" / "playset" / validate_cache.STORE), "no unit kept"
    shutil.copytree(where / "cache", where / "kept")
    return game, where, (game / DECK).read_text("utf-8")


@pytest.mark.parametrize("how", sorted(EDITS))
def test_one_card_edited_reads_back_what_a_cold_run_finds(how, warm, monkeypatch):
    game, where, text = warm
    shutil.rmtree(where / "cache", ignore_errors=True)
    shutil.copytree(where / "kept", where / "cache")  # as the checked game's run left it
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(where / "cache"))
    monkeypatch.setattr(validate_cache.StatCache, "RACY_NS", -(10**18))
    before, after = EDITS[how]
    assert text.count(before) == 1, f"{how}: the text to edit is gone"
    (game / DECK).write_text(text.replace(before, after), "utf-8")
    try:
        code, said = _run(str(game), "-f", "json", "-v")
        assert "unit result(s) kept" in said
        edited = (
            code,
            "".join(line for line in said.splitlines(True) if not line.startswith("cache: ")),
        )
        assert edited == _run(str(game), "-f", "json", "--no-cache")
    finally:
        (game / DECK).write_text(text, "utf-8")
    if how in ("id", "placeholder"):
        assert code == 1 and '"code"' in edited[1], edited


@pytest.mark.usefixtures("cache")
def test_texts_clean_in_the_last_run_are_not_checked_again(tmp_path, monkeypatch):
    """Typography and parity are pure per text: a text (a language of it, for typography)
    in which the last run found nothing is clean still and skipped; the edited one is
    checked, and a finding it brings comes and goes as without the cache."""
    from toolkit.checks.translation import parity, typography

    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    seen: dict[str, list[object]] = {"parity": [], "typography": []}
    for module, name in ((parity, "parity"), (typography, "typography")):
        real = module._findings

        def counted(view, *args, _real=real, _name=name):
            seen[_name].append(args[0] if _name == "typography" else view.values)
            return _real(view, *args)

        monkeypatch.setattr(module, "_findings", counted)
    cold = _run(".")
    assert len(seen["parity"]) > 3 and len(seen["typography"]) > 9, seen
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text("utf-8")
    deck.write_text(text.replace("Move {steps} spaces.", "Move {steps}  spaces."), "utf-8")
    for found in seen.values():
        found.clear()
    edited = _run(".")
    assert seen == {
        "parity": [
            {
                "fr": "Avancez de {steps} cases.",
                "es": "Avanza {steps} casillas.",
                "en": "Move {steps}  spaces.",
            }
        ],
        "typography": ["en"],
    }, seen
    assert "T015" in edited[1] and "T015" not in cold[1], edited
    assert edited == _run(".", "--no-cache")
    deck.write_text(text, "utf-8")
    assert _run(".") == cold == _run(".", "--no-cache")


_IMPORTED = """
import sys
sys.argv = ["playset", "validate", sys.argv[1]]
import atexit
atexit.register(lambda: print(sorted(m for m in sys.modules if m.startswith("toolkit."))))
from toolkit.cli import main
main()
"""


def test_one_card_edited_imports_no_build_artifact(warm, monkeypatch):
    """After one card edit the question banks' print fit is read back whole (once a run
    has kept it so): the build's artifact modules (what `build` draws a bank with) are not
    imported to do it."""
    import subprocess
    import sys

    game, where, text = warm
    shutil.rmtree(where / "cache", ignore_errors=True)
    shutil.copytree(where / "kept", where / "cache")
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(where / "cache"))
    before, after = EDITS["text"]
    try:  # an edit checked, as the benchmark's runs before the one it times, then another
        for edited in (after, after.replace("extra", "more")):  # (each in a fresh process:
            (game / DECK).write_text(text.replace(before, edited), "utf-8")  # as a user's)
            done = subprocess.run(
                [sys.executable, "-c", _IMPORTED, str(game)],
                capture_output=True,
                text=True,
                check=True,
                cwd=game,
            )
    finally:
        (game / DECK).write_text(text, "utf-8")
    imported = done.stdout.splitlines()[-1]
    assert "toolkit.checks.printfit" in imported, done.stdout  # the check ran
    assert "toolkit.render.artifacts" not in imported, imported


@pytest.mark.usefixtures("cache")
def test_one_card_edited_shapes_no_glossary_term_again(tmp_path, monkeypatch):
    """How the walk finds each glossary term (its shape) is read back from the last run: a
    card edit works out the shape of none of the glossary's terms (`card`, `carte`,
    `carta`; `Harbour` is a name kept as it is, presence's own), and finds what a run
    without the cache finds."""
    from toolkit.checks.translation import term_search

    game = build_case(FIXTURES / "base", tmp_path / "game")
    monkeypatch.chdir(game)
    cold = _run(".")
    shaped: list[str] = []
    real = term_search._shape.__wrapped__  # not the process's lru cache: each one worked out

    def counted(term: str) -> object:
        shaped.append(term)
        return real(term)

    monkeypatch.setattr(term_search, "_shape", counted)
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text("utf-8").replace("Move {steps}", "Go {steps}"), "utf-8")
    edited = _run(".")
    assert not {"card", "carte", "carta"} & set(shaped), shaped
    assert edited[0] == cold[0]
    assert edited == _run(".", "--no-cache")
    assert {"card", "carte", "carta"} <= set(shaped)  # worked out without the cache
