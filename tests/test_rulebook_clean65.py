"""The rulebook family's two searches of a rendered text that depend on the text and the
faces alone (its tables' look, `rulebook_tables.table_look`, and whether what prints needs
the Markdown parsed: a character reference, a right-to-left letter, a character a face
lacks) are kept as marks of the texts in which they found nothing (`Clean`, kind
`clean-rulebook-text`): a text as it was in the last run, in the same faces, is not
searched again, and its findings are those of a run without units."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolkit.checks import rulebook, rulebook_glyphs, rulebook_tables
from toolkit.content import unit_cache
from toolkit.content.game import load_game
from toolkit.content.unit_cache import Units
from toolkit.content.walk import collect
from toolkit.render import markdown_printed, rulebook_style
from toolkit.scaffold.new import new_game

TABLE = "\n## Scores\n\n| Name | Effect |\n|---|---|\n| short | fine |\n"


def _game(tmp_path: Path, more: str = "") -> Path:
    """The starter game whose English rulebook ends with a plain table and `more`."""
    game = tmp_path / "g"
    new_game(game, "g", ["en"])
    book = game / "rulebook" / "en.md"
    book.write_text(book.read_text(encoding="utf-8") + TABLE + more, encoding="utf-8")
    return game


def _found(folder: Path, units: Units | None) -> list[str]:
    """The rulebook family's findings of a fresh load of `folder` (units None: no cache)."""
    game = load_game(folder)
    facts = collect(game)
    if units is None:
        return [str(d) for d in rulebook.check(game, facts)]
    with unit_cache.activated(units):
        return [str(d) for d in rulebook.check(game, facts)]


def _kept(units: Units) -> Units:
    return Units(json.loads(json.dumps(units.used)))  # as the next run reads them


@pytest.fixture
def searched(monkeypatch) -> dict[str, int]:
    """The calls of the two searches (the tables' look, a face lacking a character) and of
    the Markdown's parse."""
    calls = {"looked": 0, "may_lack": 0, "parsed": 0}

    def counted(name: str, real):
        def call(*args, **kwargs):
            calls[name] += 1
            return real(*args, **kwargs)

        return call

    monkeypatch.setattr(rulebook_tables, "_looked", counted("looked", rulebook_tables._looked))
    monkeypatch.setattr(rulebook, "may_lack", counted("may_lack", rulebook_glyphs.may_lack))
    monkeypatch.setattr(markdown_printed, "printed", counted("parsed", markdown_printed.printed))
    return calls


def test_a_text_seen_clean_is_not_searched_again(tmp_path, searched) -> None:
    game = _game(tmp_path)
    plain = _found(game, None)
    first = Units()
    assert _found(game, first) == plain
    assert searched == {"looked": 2, "may_lack": 2, "parsed": 0}, "without units, then with"
    assert _found(game, _kept(first)) == plain
    assert searched == {"looked": 2, "may_lack": 2, "parsed": 0}, "read back: not searched"
    book = game / "rulebook" / "en.md"
    book.write_text(book.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    assert _found(game, _kept(first)) == _found(game, None)
    assert searched == {"looked": 4, "may_lack": 4, "parsed": 0}, "another text: searched"


def test_other_faces_search_the_same_text_again(tmp_path, searched, monkeypatch) -> None:
    game = _game(tmp_path)
    first = Units()
    _found(game, first)
    monkeypatch.setattr(
        rulebook_style, "rulebook_faces", lambda game: rulebook_style.Faces(regular="bold")
    )
    assert _found(game, _kept(first)) == _found(game, None)
    assert searched["looked"] == 3 and searched["may_lack"] == 3, searched


@pytest.mark.parametrize(
    ("more", "each"),
    [
        # a row taller than a page (R010): its tables looked at each run, not its print
        ("| long | " + " ".join(["word"] * 1_800) + " |\n", "looked"),
        # a reference and right-to-left letters (P017): parsed each run
        ("\nPrinted as &amp; and שלום.\n", "parsed"),
    ],
)
def test_a_text_with_something_to_say_is_searched_each_run(tmp_path, searched, more, each):
    game = _game(tmp_path, more)
    plain = _found(game, None)
    assert plain, "a finding"
    once = dict(searched)
    assert once[each] == 1
    first = Units()
    assert _found(game, first) == plain
    assert _found(game, _kept(first)) == plain
    assert searched[each] == 3, searched
    assert all(searched[k] == 2 * once[k] for k in searched if k != each), (once, searched)


def test_a_table_seen_plainly_short_is_not_measured_again_in_a_new_text(
    tmp_path, monkeypatch
) -> None:
    measured: list[list[str]] = []
    real = rulebook_tables._short

    def short(rows, *args):
        measured.append(rows)
        return real(rows, *args)

    monkeypatch.setattr(rulebook_tables, "_short", short)
    game = _game(tmp_path)
    first = Units()
    _found(game, first)
    assert len(measured) == 1
    book = game / "rulebook" / "en.md"
    book.write_text(book.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    kept = _kept(first)
    assert _found(game, kept) == _found(game, None)
    assert len(measured) == 2, "the text changed, its table did not: measured without units only"
    book.write_text(
        book.read_text(encoding="utf-8").replace("| short | fine |", "| short | finer |"),
        encoding="utf-8",
    )
    assert _found(game, _kept(kept)) == _found(game, None)
    assert len(measured) == 4, "the table changed: measured again"


def test_a_rendered_text_is_digested_once_a_run(tmp_path, monkeypatch) -> None:
    """The bounds, the card reference's counts and the family's marks name their units by
    the rendered text's digest (`rulebook_source.rendered_digest`): worked out once."""
    from toolkit.checks import card_reference_bounds
    from toolkit.render import rulebook_source

    game = _game(tmp_path)
    loaded = load_game(game)
    text = rulebook_source.render_markdown(
        loaded, "en", rulebook_source.read_rulebook(loaded.rulebook["en"], loaded.root)
    )
    digested: list[int] = []
    for module in (rulebook, rulebook_source, card_reference_bounds):
        real = unit_cache.text_digest

        def counted(*parts: str, real=real) -> str:
            digested.extend(1 for p in parts if p == text)
            return real(*parts)

        monkeypatch.setattr(module, "text_digest", counted, raising=False)
    first = Units()
    assert _found(game, first) == _found(game, None)
    assert digested == [1], "once, in the run with units"
    digested.clear()
    assert _found(game, _kept(first)) == _found(game, None)
    assert digested == [1], "read back: once"
