"""Issue #33's Lows left open after session 53, each with a test that failed before its fix.

The 'did you mean' of an unknown sheet header, an unknown field of a content file and an
unknown `--vary` path was searched once per name with no bound on the names a run searched:
40 sheets of 990 unknown headers were 39,600 searches, a card file of 5,000 unknown fields
5,000. They now go through the run's `suggest.Tips` as icons and layouts do: the searches
are counted, never timed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.suggest_calls import counted_searches
from tests.test_validate_cache_units import _run
from toolkit.content import suggest

TIPPED = suggest.MAX_TIPPED
UNKNOWN = 60
"""Unknown names a test writes: three times the names a run may search."""


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return counted_searches(monkeypatch, getattr(suggest, "_closest", None))


def _look_alike(i: int) -> str:
    return f"{['copies', 'params'][i % 2]}{i:03d}"


def _sheet_game(root: Path) -> Path:
    """The base fixture whose deck is a CSV of UNKNOWN look-alike unknown headers."""
    game = root / "g"
    shutil.copytree(FIXTURES / "base", game)
    (game / "decks" / "cards.yaml").unlink()
    heads = ["id", "name.fr", "name.es", "name.en"] + [_look_alike(i) for i in range(UNKNOWN)]
    rows = [",".join(heads)] + [",".join([f"c{c}", "N", "N", "N"] + [""] * UNKNOWN) for c in (1, 2)]
    (game / "decks" / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (game / "decks" / "cards.deck.yaml").write_text(
        "id: cards\nkind: actions\nname: {fr: A, es: A, en: A}\nsize: poker\n", encoding="utf-8"
    )
    manifest = game / "game.yaml"
    text = manifest.read_text(encoding="utf-8").replace("decks/cards.yaml", "decks/cards.csv")
    manifest.write_text(text, encoding="utf-8")
    return game


def _fields_game(root: Path) -> Path:
    """The base fixture whose deck's cards write UNKNOWN look-alike unknown fields."""
    game = root / "g"
    shutil.copytree(FIXTURES / "base", game)
    lines = ["id: cards", "kind: actions", "name: {fr: A, es: A, en: A}", "size: poker", "cards:"]
    for card in range(UNKNOWN // 10):
        lines += [f"  - id: c{card}", "    name: {fr: N, es: N, en: N}"]
        lines += [f"    {_look_alike(card * 10 + i)}: 1" for i in range(10)]
    (game / "decks" / "cards.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return game


def _findings(game: Path) -> list[dict]:
    _, output = _run(str(game), "--no-cache", "--format", "json")
    return json.loads(output)


def test_unknown_sheet_headers_search_a_few_names_a_run(tmp_path, searches) -> None:
    found = _findings(_sheet_game(tmp_path))
    said = [f for f in found if f["code"] == "S002"]
    assert said and "did you mean 'copies'?" in said[0]["message"]
    assert len(searches) <= TIPPED


def test_unknown_fields_search_a_few_names_a_run(tmp_path, searches) -> None:
    found = _findings(_fields_game(tmp_path))
    said = [f for f in found if f["code"] == "S002"]
    assert said and "did you mean 'copies'?" in said[0]["message"]
    assert len(searches) <= TIPPED


def test_unknown_vary_paths_search_a_few_names_a_run(run_cli, searches) -> None:
    varied = [arg for i in range(UNKNOWN // 2) for arg in ("--vary", f"hand_siz{i:02d}=3")]
    result = run_cli("sweep", "muckle-stoater", *varied, "-n", "2")
    assert result.exit_code != 0
    assert "did you mean hand_size?" in result.output
    assert len(searches) <= TIPPED


def test_an_escaping_brace_conversion_is_weighed_as_it_prints() -> None:
    # probe 38 L1: `'{0!a}'` writes 😀 as `\U0001f600`, ten characters for one, as `%a` does
    from toolkit.render.template_bounds import TemplateLimitError, check_brace_format

    for template in ("{0!a}", "{!r}", "{x!a:>3}", "{0!r}{0}"):
        with pytest.raises(TemplateLimitError):
            check_brace_format(template, ["😀" * 200_000])
    for template in ("{0}", "{0!s}", "{{0!r}}{0}", "!r{0}"):
        check_brace_format(template, ["😀" * 200_000])


def test_a_text_aliased_into_many_languages_is_said_once_at_its_anchor(tmp_path) -> None:
    # probe 38's side note: S004 was said once per alias, each at the anchor's place
    game = tmp_path / "g"
    shutil.copytree(FIXTURES / "base", game)
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    own = "    text:\n      fr: Avancez de {steps} cases.\n      es: Avanza {steps} casillas.\n"
    own += "      en: Move {steps} spaces.\n"
    assert own in text
    aliased = '    text: {fr: &T "%s", es: *T, en: *T}\n' % ("a " * 2100)
    deck.write_text(text.replace(own, aliased), encoding="utf-8")
    said = [f for f in _findings(game) if f["code"] == "S004"]
    assert len(said) == 1
    assert "at most 4000 characters" in said[0]["message"]
