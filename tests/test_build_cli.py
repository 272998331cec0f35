"""`playset build` end to end on hand-made games: outputs, usage errors, refusals."""

from __future__ import annotations

import os
import shutil

from pypdf import PdfReader

from tests.conftest import FIXTURES


def _game(tmp_path):
    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    return game


def test_build_writes_every_pdf_per_language(run_cli, tmp_path):
    game, out = _game(tmp_path), tmp_path / "out"
    result = run_cli("build", str(game), "--out", str(out), "--paper", "letter")
    assert result.exit_code == 0, result.output
    for lang in ("fr", "es", "en"):
        for name in ("cards.pdf", "questions.pdf", "board.pdf"):
            path = out / "fixture-game" / lang / name
            assert PdfReader(path).pages, path
    page = PdfReader(out / "fixture-game" / "en" / "cards.pdf").pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (612, 792)


def test_one_language_and_a_large_board_page(run_cli, tmp_path):
    game, out = _game(tmp_path), tmp_path / "out"
    result = run_cli("build", str(game), "--out", str(out), "--lang", "es", "--board-page", "a2")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (out / "fixture-game").iterdir()) == ["es"]
    board = PdfReader(out / "fixture-game" / "es" / "board.pdf")
    box = board.pages[0].mediabox
    assert len(board.pages) == 1
    assert sorted((round(float(box.width)), round(float(box.height)))) == [1191, 1684]  # A2


def test_a_language_named_twice_or_an_empty_one_is_drawn_once(run_cli, tmp_path):
    game, out = _game(tmp_path), tmp_path / "out"
    result = run_cli("build", str(game), "--out", str(out), "--lang", "es,es,", "--only", "board")
    assert result.exit_code == 0, result.output
    assert "1 PDF(s)" in result.stderr  # "es,es" drew Spanish twice and counted two
    for lang in (",", " , "):
        refused = run_cli("build", str(game), "--out", str(out), "--lang", lang)
        assert refused.exit_code == 2
        assert "names no language" in refused.stderr


def test_usage_errors_exit_2(run_cli, tmp_path):
    game = _game(tmp_path)
    assert run_cli("build", str(game), "--paper", "a5").exit_code == 2
    assert run_cli("build", str(game), "--profile", "office").exit_code == 2
    assert run_cli("build", str(game), "--lang", "de").exit_code == 2
    assert run_cli("build", str(game), "--board-page", "a9").exit_code == 2


def test_broken_content_builds_nothing(run_cli, tmp_path):
    game, out = _game(tmp_path), tmp_path / "out"
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("copies: 3", "copies: three"))
    result = run_cli("build", str(game), "--out", str(out))
    assert result.exit_code == 1
    assert "S001" in result.stderr and not out.exists()


def test_symlink_leaving_the_game_is_refused(run_cli, tmp_path, monkeypatch):
    game = _game(tmp_path)
    outside = tmp_path / "elsewhere.yaml"
    shutil.copyfile(game / "decks" / "cards.yaml", outside)
    (game / "decks" / "cards.yaml").unlink()
    os.symlink(outside, game / "decks" / "cards.yaml")
    monkeypatch.chdir(game)
    result = run_cli("validate", ".", "--format", "json")
    assert result.exit_code == 1
    assert '"R002"' in result.stdout


def test_a_failing_layout_or_rulebook_template_is_a_clear_error_not_a_traceback(tmp_path):
    """A template that fails is refused by the validity gate (its diagnostic on stdout) or,
    should drawing fail anyway, ends in one clear line: exit 1 either way, no traceback."""
    import os
    import shutil
    import subprocess
    import sys

    from tests.conftest import FIXTURES, REPO

    home = tmp_path / "home"
    shutil.copytree(REPO / "templates", home / "templates")
    layout = home / "templates" / "cards" / "standard.yaml"
    layout.write_text(layout.read_text().replace("{{ card.name }}", "{{ card.nme }}", 1))
    env = {**os.environ, "PLAYSET_HOME": str(home), "PLAYSET_CACHE": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "toolkit", "build", str(FIXTURES / "base"), "--lang", "en"]
    done = subprocess.run(
        [*command, "--out", str(tmp_path / "out")], env=env, capture_output=True, text=True
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "nme" in done.stderr and "standard" in done.stderr

    game = tmp_path / "tokaido"
    shutil.copytree(REPO / "content" / "tokaido", game)
    rulebook = game / "rulebook" / "en.md"
    rulebook.write_text(rulebook.read_text() + "\n{{ rules.no_such_rule }}\n")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolkit",
            "build",
            str(game),
            "--lang",
            "en",
            "--out",
            str(tmp_path / "o"),
        ],
        env={**os.environ, "PLAYSET_CACHE": str(tmp_path / "cache")},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "rulebook/en.md:" in done.stderr and "no_such_rule" in done.stderr


def test_unwritable_output_and_damaged_image_are_clear_errors(run_cli, tmp_path, monkeypatch):
    import shutil

    from tests.conftest import FIXTURES

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = run_cli("build", str(FIXTURES / "base"), "--lang", "en", "--out", str(blocker))
    assert result.exit_code == 1
    assert "cannot write" in result.stderr and "it is a file, not a folder" in result.stderr

    game = tmp_path / "game"
    shutil.copytree(FIXTURES / "base", game)
    (game / "decks" / "bad.png").write_text("not a png")
    deck = game / "decks" / "cards.yaml"
    deck.write_text(
        deck.read_text().replace("    copies: 2", "    copies: 2\n    image: decks/bad.png", 1)
    )
    result = run_cli("build", str(game), "--lang", "en", "--out", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert "decks/bad.png" in result.stdout + result.stderr and "Traceback" not in result.output


def test_one_validity_gate_refuses_cross_file_errors(run_cli, tmp_path, monkeypatch):
    """An error only the cross-file checks find (a card text naming a parameter the card
    lacks) stops build, simulate and i18n export alike: diagnostics, exit 1, nothing written."""
    game, out = _game(tmp_path), tmp_path / "out"
    deck = game / "decks" / "cards.yaml"
    deck.write_text(deck.read_text().replace("Move {steps}", "Move {stpes}"))
    assert run_cli("validate", str(game)).exit_code == 1
    result = run_cli("build", str(game), "--out", str(out))
    assert result.exit_code == 1, result.output
    assert "stpes" in result.stderr and not out.exists()
    assert run_cli("i18n", "export", str(game), "--lang", "es").exit_code == 1
    monkeypatch.chdir(game)
    assert run_cli("build", "--out", str(out)).exit_code == 1 and not out.exists()


def test_commands_act_on_the_game_folder_they_run_in(run_cli, tmp_path, monkeypatch):
    """Inside a game folder (or below it) `build` acts on that game and writes ./output."""
    game = _game(tmp_path)
    monkeypatch.chdir(game / "decks")
    result = run_cli("build", "--lang", "en")
    assert result.exit_code == 0, result.output
    assert (game / "decks" / "output" / "fixture-game" / "en" / "cards.pdf").is_file()
    listed = run_cli("list")
    assert listed.exit_code == 0 and "fixture-game" in listed.stdout
    assert "tokaido" not in listed.stdout


def test_a_link_to_a_missing_space_is_refused_before_anything_is_written(run_cli, tmp_path):
    """It used to end in a KeyError traceback from the board renderer, after cards.pdf."""
    game, out = _game(tmp_path), tmp_path / "out"
    board = game / "boards" / "map.yaml"
    board.write_text(board.read_text().replace("b: market", "b: markett", 1))
    result = run_cli("build", str(game), "--out", str(out))
    assert result.exit_code == 1 and "R004" in result.stderr and not out.exists()


def test_a_game_given_as_dot_with_a_broken_manifest_is_named(run_cli, tmp_path, monkeypatch):
    game = _game(tmp_path)
    (game / "game.yaml").write_text("id: [\n", encoding="utf-8")
    monkeypatch.chdir(game)
    result = run_cli("build", ".", "--out", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert "game: content has 1 error" in result.stderr  # was ": content has …"
