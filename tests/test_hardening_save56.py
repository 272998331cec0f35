"""Probe 43 S1: a preview save at Y019's bound (500 one-card decks and 499 one-question banks)
cost ~4.9 s, then ~2.8 s of CPU a save of ONE deck, more than a whole `validate --no-cache`:
each save composed every file of the game again, fitted every question face again (its check
had no frame to name a bank's findings by), looked every deck's layouts up again in the
dependency map and in the diagnostics' places (each a few stats and a real path), and listed
the game's fonts again for every face. A save now redoes what it touched: the tests count
parses, look-ups and fits, never time; and the findings stay those of a fresh check."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES, build_case
from toolkit.content import source, validate_cache
from toolkit.content.game import load_game

DECKS = 6
BANKS = 5


def _game(root: Path, decks: int = DECKS, banks: int = BANKS) -> Path:
    """The base fixture with `decks` more one-card decks and `banks` more one-question
    banks (as probe 43 made them, at a smaller scale)."""
    game = build_case(FIXTURES / "base", root)
    listed = []
    for i in range(decks):
        (game / "decks" / f"d{i}.yaml").write_text(
            f"id: d{i}\nkind: actions\nname: {{fr: D{i}, es: E{i}, en: N{i}}}\nsize: poker\n"
            f"cards:\n  - {{id: k{i}, name: {{fr: A{i}, es: B{i}, en: C{i}}}}}\n",
            encoding="utf-8",
        )
        listed.append(f"    - decks/d{i}.yaml\n")
    banks_listed = []
    for b in range(banks):
        (game / "questions" / f"q{b}.yaml").write_text(
            f"id: q{b}\nname: {{fr: Q{b}f, es: Q{b}e, en: Q{b}n}}\nquestions:\n"
            f"  - id: q{b}-0\n    difficulty: easy\n"
            f"    question: {{fr: 'Qf {b}', es: 'Qe {b}', en: 'Qn {b}'}}\n"
            f"    answers:\n"
            + "".join(f"      - {{fr: {x}{b}f, es: {x}{b}e, en: {x}{b}n}}\n" for x in "abcd")
            + f"    right: a\n    fifty_fifty: [a, b]\n"
            f"    fact: {{fr: F{b}f, es: F{b}e, en: F{b}n}}\n    source: src{b}\n",
            encoding="utf-8",
        )
        banks_listed.append(f"    - questions/q{b}.yaml\n")
    manifest = game / "game.yaml"
    text = manifest.read_text("utf-8")
    text = text.replace("    - decks/cards.yaml\n", "    - decks/cards.yaml\n" + "".join(listed))
    text = text.replace(
        "    - questions/bank.yaml\n", "    - questions/bank.yaml\n" + "".join(banks_listed)
    )
    manifest.write_text(text, encoding="utf-8")
    return game


def _save(path: Path, note: str) -> None:
    path.write_text(path.read_text("utf-8") + f"# {note}\n", encoding="utf-8")


@pytest.fixture
def cache_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The findings cache on, in this test's own folder (the preview keeps its checks'
    units there as `validate` does)."""
    monkeypatch.delenv("PLAYSET_NO_CACHE", raising=False)
    monkeypatch.setenv("PLAYSET_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(validate_cache.StatCache, "RACY_NS", -(10**18))


def _preview(game: Path) -> Any:
    from toolkit.preview.live import Preview

    preview = Preview(game)
    preview.load(check=True)
    return preview


def _records(found: list[Any]) -> str:
    return json.dumps([d.to_dict() for d in found], sort_keys=True)


def _fresh(game: Path) -> str:
    """What a check of the game as it is now finds, without any cache (`--no-cache`)."""
    from toolkit.checks import run_checks

    return _records(run_checks(load_game(game)))


def test_a_preview_save_parses_only_the_saved_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was: every file of the game composed again at each save. The game it loads is the
    game a fresh load gives (data, spans, models and findings)."""
    game = _game(tmp_path / "g")
    preview = _preview(game)
    built: list[str] = []
    real = source._build
    monkeypatch.setattr(source, "_build", lambda text, *a: built.append(text) or real(text, *a))
    deck = game / "decks" / "d3.yaml"
    for note in ("one", "two"):
        built.clear()
        _save(deck, note)
        preview.apply({deck})
        assert built == [deck.read_text("utf-8")], len(built)
    fresh = load_game(game)
    shown = preview.on_disk
    assert [d.to_dict() for d in shown.diagnostics] == [d.to_dict() for d in fresh.diagnostics]
    for mine, theirs in zip(shown.files(), fresh.files(), strict=True):
        assert mine.rel == theirs.rel
        assert mine.doc.data == theirs.doc.data
        assert dict(mine.doc.spans) == dict(theirs.doc.spans)
        assert dict(mine.doc.key_spans) == dict(theirs.doc.key_spans)
        assert mine.model == theirs.model


ALIASED = "x: &t {fr: TEXT, es: TEXT, en: TEXT}\ny: *t\nz: *t\n"


def _aliased_deck(path: Path, deck: str, chars: int) -> None:
    """A deck whose aliases repeat 4 * `chars` characters (two uses after the first, 3
    languages... counted as `source` counts them), or none for `chars` 0."""
    text = f"id: {deck}\nkind: actions\nname: {{fr: A, es: A, en: A}}\nsize: poker\n"
    text += "cards:\n  - {id: c, name: {fr: N, es: N, en: N}}\n"
    if chars:
        text += "notes:\n  " + ALIASED.replace("TEXT", "w" * chars).replace("\n", "\n  ")
    path.write_text(text, encoding="utf-8")


def test_a_parse_kept_from_the_last_load_is_charged_to_the_game_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a kept parse's aliases repeat counts against the game's bound at each load: a
    deck whose parse was kept when the files before it repeated nothing is refused (Y004,
    at its alias) once an earlier file repeats enough, and taken again after, as a fresh
    load does."""
    monkeypatch.setattr(source, "MAX_REPEATED", 100)
    game = _game(tmp_path / "g", decks=2, banks=0)
    first, second = game / "decks" / "d0.yaml", game / "decks" / "d1.yaml"
    _aliased_deck(first, "d0", 0)
    _aliased_deck(second, "d1", 10)  # 60 characters repeated
    preview = _preview(game)

    def y004() -> list[str]:
        return [d.file for d in preview.on_disk.diagnostics if d.code == "Y004"]

    assert y004() == []
    _aliased_deck(first, "d0", 10)  # 60 before it: the second passes 100
    preview.apply({first})
    assert y004() == [preview.on_disk.decks[2].rel]
    assert _records(preview.on_disk.diagnostics) == _records(load_game(game).diagnostics)
    _aliased_deck(first, "d0", 0)
    preview.apply({first})
    assert y004() == []
    assert _records(preview.on_disk.diagnostics) == _records(load_game(game).diagnostics)


def test_the_dependency_map_looks_each_layout_up_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was: each deck's two layouts looked up (stats, a real path), read and searched again
    for every deck: 4 look-ups a one-card deck."""
    from toolkit.content import assets
    from toolkit.render.deps import snapshot

    game = load_game(_game(tmp_path / "g"))
    asked: list[str] = []
    real = assets.expected
    monkeypatch.setattr(assets, "expected", lambda k, n, *a: asked.append(n) or real(k, n, *a))
    snap = snapshot(game)
    assert sorted(asked) == sorted(set(asked)), asked
    assert len(snap.targets) > 3 * DECKS


def test_findings_are_placed_with_each_layout_looked_up_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was: each deck's layouts looked up again to place the findings, twice a publish (and
    each deck's file searched for among all the game's files: quadratic)."""
    from toolkit.preview import attach

    game = load_game(_game(tmp_path / "g"))
    asked: list[str] = []
    real = attach.layout_file
    monkeypatch.setattr(attach, "layout_file", lambda n, *a: asked.append(n) or real(n, *a))
    attach.place(game.diagnostics, game, game)
    assert sorted(asked) == sorted(set(asked)), asked


def test_a_check_lists_the_game_s_fonts_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was: the fonts folder listed and resolved for each face of each card (~4,500 times a
    check of 1,000 one-card decks)."""
    from toolkit.checks import run_checks
    from toolkit.render import game_fonts

    game = load_game(_game(tmp_path / "g"))
    listed: list[Path] = []
    real = game_fonts._font_names
    monkeypatch.setattr(game_fonts, "_font_names", lambda f: listed.append(f) or real(f))
    run_checks(game)
    assert len(listed) == 1, len(listed)


@pytest.mark.usefixtures("cache_on")
def test_a_deck_save_fits_no_question_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The preview's checks name a bank's findings by the game folder's frame, as
    `validate`'s do: a save of a deck reads every bank's print fit back whole (was: each
    question's faces named and their findings read, or fitted, again)."""
    from toolkit.checks import printfit

    game = _game(tmp_path / "g")
    preview = _preview(game)
    asked: list[str] = []
    real = printfit._question_findings

    def counted(loaded: Any, *args: Any) -> Any:
        asked.append(loaded.rel)
        return real(loaded, *args)

    monkeypatch.setattr(printfit, "_question_findings", counted)
    deck = game / "decks" / "d2.yaml"
    for note in ("one", "two"):
        asked.clear()
        _save(deck, note)
        preview.apply({deck})
        assert asked == [], asked
    assert _records(preview.diagnostics) == _fresh(game)
    bank = game / "questions" / "q1.yaml"
    asked.clear()
    _save(bank, "one")
    preview.apply({bank})
    assert asked == [preview.on_disk.questions[2].rel]  # the saved bank alone
    assert _records(preview.diagnostics) == _fresh(game)


@pytest.mark.usefixtures("cache_on")
def test_a_file_saved_while_the_game_loads_keeps_no_unit_of_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The frame is taken before the game is read, as `validate`'s lookup takes it: a bank
    saved between the two (the game reads its new text, the frame its old bytes) keeps no
    unit named by that frame (the frame taken again after the check differs), so the check
    of the save that follows (the watcher saw the write) works it out again and finds what
    is in it: a question text too long to fit (P001)."""
    from toolkit.preview import live

    game = _game(tmp_path / "g")
    preview = _preview(game)
    bank = game / "questions" / "q1.yaml"
    long = "'" + " ".join(["overlong"] * 400) + "'"
    real = live.load_game

    def saved_meanwhile(root: Path, *args: Any) -> Any:
        text = bank.read_text("utf-8")
        bank.write_text(text.replace("'Qn 1'", long), encoding="utf-8")
        return real(root, *args)

    monkeypatch.setattr(live, "load_game", saved_meanwhile)
    preview.apply({bank})
    monkeypatch.setattr(live, "load_game", real)
    preview.apply({bank})  # the frame is the bank's new bytes now
    assert any(d.code == "P001" and d.file.endswith("q1.yaml") for d in preview.diagnostics)
    assert _records(preview.diagnostics) == _fresh(game)


@pytest.mark.usefixtures("cache_on")
def test_preview_saves_find_what_a_fresh_check_finds(tmp_path: Path) -> None:
    """Decks, banks, the manifest and the glossary saved one after another, some with a
    finding added: after each save the preview's findings are a fresh check's, byte for
    byte."""
    game = _game(tmp_path / "g")
    preview = _preview(game)
    assert _records(preview.diagnostics) == _fresh(game)
    deck, bank = game / "decks" / "d1.yaml", game / "questions" / "q2.yaml"
    edits = [
        (deck, "{fr: A1, es: B1, en: C1}", "{fr: C1, es: B1, en: C1}"),  # T004
        (bank, "'Qe 2'", "'Qn 2'"),
        (game / "glossary.yaml", "", "# saved\n"),
        (deck, "{fr: C1, es: B1, en: C1}", "{fr: A1, es: B1, en: C1}"),
        (game / "game.yaml", "", "# saved\n"),
        (bank, "'Qn 2'", "'Qe 2'"),
    ]
    for path, old, new in edits:
        text = path.read_text("utf-8")
        path.write_text(text.replace(old, new, 1) if old else text + new, encoding="utf-8")
        preview.apply({path})
        assert _records(preview.diagnostics) == _fresh(game), path.name


def _card_works(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The deck files (as shown) whose cards print fit and legibility work out from now
    on (not read back)."""
    from toolkit.checks import printfit
    from toolkit.checks.legibility import faces

    worked: list[str] = []
    for module in (printfit, faces):
        real = module._card_work

        def counted(loaded: Any, *args: Any, real: Any = real) -> Any:
            worked.append(loaded.rel)
            return real(loaded, *args)

        monkeypatch.setattr(module, "_card_work", counted)
    return worked


@pytest.mark.usefixtures("cache_on")
def test_a_save_checks_no_card_of_another_deck_on_the_standard_layout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The standard layout holds an image element, so its cards' faces get no unit name
    (an image reads its picture): every card of every deck on it was fitted and its
    contrasts worked out again at each save of any file. A card is now kept under its
    file's name in the frame, which holds every file it may read."""
    game = _game(tmp_path / "g")
    preview = _preview(game)
    worked = _card_works(monkeypatch)
    deck = game / "decks" / "d2.yaml"
    for note in ("one", "two"):
        worked.clear()
        _save(deck, note)
        preview.apply({deck})
        assert worked and set(worked) == {preview.on_disk.decks[3].rel}, sorted(set(worked))
        assert _records(preview.diagnostics) == _fresh(game)


@pytest.mark.usefixtures("cache_on")
def test_a_card_that_prints_its_image_is_checked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A card whose face prints its picture read the picture: it is not kept by the frame,
    so a save elsewhere checks it again, and a picture changed is found as a fresh check
    finds it (P005 for one under 300 dpi, then none)."""
    from PIL import Image

    game = _game(tmp_path / "g")
    picture = game / "art.png"
    Image.new("RGB", (20, 30), "red").save(picture)
    deck = game / "decks" / "d0.yaml"
    text = deck.read_text("utf-8")
    deck.write_text(text.replace("{id: k0,", "{id: k0, image: art.png,"), encoding="utf-8")
    preview = _preview(game)
    assert any(d.code == "P005" for d in preview.diagnostics)
    worked = _card_works(monkeypatch)
    other = game / "decks" / "d4.yaml"
    _save(other, "one")
    preview.apply({other})
    assert set(worked) == {preview.on_disk.decks[1].rel, preview.on_disk.decks[5].rel}
    Image.new("RGB", (2000, 3000), "blue").save(picture)
    _save(other, "two")
    preview.apply({other})
    assert not any(d.code == "P005" for d in preview.diagnostics)
    assert _records(preview.diagnostics) == _fresh(game)


@pytest.mark.usefixtures("cache_on")
def test_a_deck_save_resolves_the_faces_of_that_deck_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every face a save of one deck resolves (to draw it or to check it) is one of that
    deck's: its cards' fronts and its back. Was: every deck's back again (print fit's letters
    of a back were kept nowhere), and every card of a deck on the standard layout."""
    from toolkit.render.printjob import PrintJob

    game = _game(tmp_path / "g")
    preview = _preview(game)
    decks: list[str] = []
    real = PrintJob.resolved

    def counted(job: Any, layout: Any, card: Any) -> Any:
        decks.append(str(job.deck.id))
        return real(job, layout, card)

    monkeypatch.setattr(PrintJob, "resolved", counted)
    deck = game / "decks" / "d2.yaml"
    for note in ("one", "two"):
        decks.clear()
        _save(deck, note)
        preview.apply({deck})
        assert decks and set(decks) == {"d2"}, sorted(set(decks))
        assert _records(preview.diagnostics) == _fresh(game)
