"""`playset new`: a game of one's own that validates clean and builds at once, from inside
its folder, with editor modelines that resolve wherever the folder lives."""

from __future__ import annotations

import re

from pypdf import PdfReader


def test_new_game_validates_clean_and_builds_from_inside(run_cli, tmp_path, monkeypatch):
    result = run_cli("new", "lantern-keepers", "--into", str(tmp_path))
    assert result.exit_code == 0, result.output
    game = tmp_path / "lantern-keepers"
    for path in game.rglob("*.yaml"):
        schema = re.match(r"# yaml-language-server: \$schema=(\S+)", path.read_text()).group(1)
        assert (path.parent / schema).is_file(), (path, schema)
    monkeypatch.chdir(game)
    checked = run_cli("validate", "--format", "json")
    assert checked.exit_code == 0, checked.output
    assert checked.stdout.strip() in ("", "[]")
    built = run_cli("build")
    assert built.exit_code == 0, built.output
    for lang, word in (("fr", "Avancez"), ("es", "Avanza"), ("en", "Move")):
        cards = PdfReader(game / "output" / "lantern-keepers" / lang / "cards.pdf")
        assert word in cards.pages[0].extract_text()
        assert (game / "output" / "lantern-keepers" / lang / "rulebook.pdf").is_file()


def test_new_game_in_chosen_languages_only(run_cli, tmp_path):
    assert run_cli("new", "duo", "--into", str(tmp_path), "--lang", "es,en").exit_code == 0
    text = (tmp_path / "duo" / "decks" / "cards.yaml").read_text()
    assert "fr:" not in text and "es:" in text
    assert sorted(p.name for p in (tmp_path / "duo" / "rulebook").iterdir()) == ["en.md", "es.md"]
    assert run_cli("validate", str(tmp_path / "duo")).exit_code == 0


def test_new_refuses_bad_ids_languages_and_existing_folders(run_cli, tmp_path):
    assert run_cli("new", "Bad Id", "--into", str(tmp_path)).exit_code == 2
    assert run_cli("new", "ok", "--into", str(tmp_path), "--lang", "xx").exit_code == 2
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    assert run_cli("new", "taken", "--into", str(tmp_path)).exit_code == 2
    assert (tmp_path / "taken" / "notes.txt").read_text() == "mine"
    assert not (tmp_path / "taken" / "game.yaml").exists()


def test_new_game_has_a_title_a_gitignore_and_an_example_layout_and_icon(
    run_cli, tmp_path, monkeypatch
):
    """`harbour-market` is titled as a name is written; output/ is ignored by git; the
    example layout (with the example SVG icon, drawn from currentColor) validates and builds
    clean once a deck names it."""
    assert run_cli("new", "harbour-market", "--into", str(tmp_path)).exit_code == 0
    game = tmp_path / "harbour-market"
    assert "  en: Harbour Market\n" in (game / "game.yaml").read_text()
    assert "output/" in (game / ".gitignore").read_text().splitlines()
    assert 'fill="currentColor"' in (game / "icons" / "token.svg").read_text()
    deck = game / "decks" / "cards.yaml"
    deck.write_text(
        deck.read_text().replace("size: poker\n", "size: poker\nlayout: example-card\n")
    )
    monkeypatch.chdir(game)
    checked = run_cli("validate", "--format", "json")
    assert checked.exit_code == 0 and checked.stdout.strip() in ("", "[]"), checked.output
    built = run_cli("build", "--lang", "en")
    assert built.exit_code == 0, built.output
    page = PdfReader(game / "output" / "harbour-market" / "en" / "cards.pdf").pages[0]
    assert "Move 2 spaces" in page.extract_text()
