"""docs/reference.md is generated from the code: it must match a fresh render, and what the
code registers (icons, rules, element kinds, template names) must show up in it."""

from __future__ import annotations

import re

import pypdf

from tests.conftest import REPO
from toolkit import reference
from toolkit.content.game import bundled_games, load_game
from toolkit.reference.sections import _context_keys
from toolkit.render import context, icons, rulebook_source


def _render() -> str:
    """The reference of the command line as `playset` builds it."""
    import typer

    from toolkit.cli import make_app

    return reference.render(typer.main.get_command(make_app()))


REFERENCE = REPO / "docs" / "reference.md"


def test_reference_does_not_drift():
    assert REFERENCE.read_text(encoding="utf-8") == _render(), (
        "run `playset reference` and commit docs/reference.md"
    )


def test_render_is_deterministic():
    assert _render() == _render()


def test_every_table_row_has_its_columns():
    """An unescaped `|` in a description would shift a table's cells."""
    header_cells = None
    for line in _render().splitlines():
        if not line.startswith("|"):
            header_cells = None
            continue
        cells = len(re.split(r"(?<!\\)\|", line)) - 2
        if header_cells is None:
            header_cells = cells
        assert cells == header_cells, line


def test_a_new_icon_shows_in_the_reference(monkeypatch):
    monkeypatch.setitem(icons.ICONS, "lantern", icons.ICONS["star"])
    assert "| `lantern` | `:lantern:` |" in _render()


def test_every_registered_thing_is_in_the_reference():
    text = _render()
    from toolkit.diagnostics.registry import REGISTRY

    for rule in REGISTRY.all():
        assert f"| `{rule.code}` | {rule.name} |" in text
    for name in icons.ICONS:
        assert f"`:{name}:`" in text
    for kind in ("box", "text", "icon", "image", "badge"):
        assert f"| `{kind}` | [" in text
    for kind in ("graph", "track", "road"):
        assert f"| `{kind}` | [" in text
    for command in ("build", "validate", "reference", "icons", "schemas export", "i18n fix"):
        assert f"### `playset {command}`" in text
    assert "| `--per-card` | flag | `false` |" in text
    for game_id in bundled_games():
        assert f"### {game_id} game.yaml" in text and f"### {game_id} deck" in text


def test_context_docstrings_name_every_key():
    """The template sections quote the context functions' docstrings: their bullets must be
    exactly the names the functions hand to templates."""
    game = load_game(bundled_games()["muckle-stoater"])
    deck = game.decks[0].model
    card_keys = set(context.card_context(game, deck, deck.cards[0], "en")) | {"label"}
    assert set(_context_keys(context.card_context.__doc__ or "")) == card_keys
    book_keys = set(rulebook_source.rulebook_context(game, "en"))
    assert set(_context_keys(rulebook_source.rulebook_context.__doc__ or "")) == book_keys


def test_reference_command_writes_and_checks(run_cli, tmp_path):
    out = tmp_path / "ref.md"
    result = run_cli("reference", "--check", "--out", str(out))
    assert result.exit_code == 1
    assert run_cli("reference", "--out", str(out)).exit_code == 0
    assert out.read_text(encoding="utf-8") == _render()
    assert run_cli("reference", "--check", "--out", str(out)).exit_code == 0


def test_icon_sheet_names_every_icon(run_cli, tmp_path):
    out = tmp_path / "icons.pdf"
    result = run_cli("icons", "--out", str(out))
    assert result.exit_code == 0, result.output
    first = out.read_bytes()
    assert run_cli("icons", "--out", str(out)).exit_code == 0
    assert out.read_bytes() == first
    text = "".join(page.extract_text() for page in pypdf.PdfReader(out).pages)
    for name in icons.ICONS:
        assert f":{name}:" in text
    assert run_cli("icons", "--paper", "b5", "--out", str(out)).exit_code == 2
