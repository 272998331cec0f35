"""Hardening: inputs that used to end in a traceback give a clear message (symlink loops,
decompression bombs, rich markup in user text)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import polib
import pytest


def _with_image(game: Path, rel: str) -> None:
    deck = game / "decks" / "cards.yaml"
    text = deck.read_text()
    deck.write_text(text.replace("    copies: 2", f"    copies: 2\n    image: {rel}", 1))


def _png_header(path: Path, width: int, height: int) -> None:
    """A PNG that claims `width`×`height` pixels (only its header is ever read)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0"))
    )


COMMANDS = [  # (command words, options after the game folder)
    (["validate"], []),
    (["list"], []),
    (["check"], ["-n", "10"]),
    (["i18n", "status"], []),
    (["simulate"], ["-n", "5"]),
]


@pytest.mark.parametrize(("words", "extra"), COMMANDS, ids=lambda c: " ".join(c) or "-")
def test_a_symlink_loop_as_a_deck_is_no_traceback(game, run_cli, words, extra):
    (game / "decks" / "a.yaml").symlink_to("b.yaml")
    (game / "decks" / "b.yaml").symlink_to("a.yaml")
    result = run_cli(*words, str(game), *extra)
    assert result.exit_code in (0, 1, 2), result.output
    assert "Traceback" not in result.output


def test_a_symlink_loop_as_an_image_is_a_p004(game, run_cli, tmp_path):
    (game / "decks" / "loop.png").symlink_to("loop.png")
    _with_image(game, "decks/loop.png")
    result = run_cli("validate", str(game))
    assert result.exit_code == 1 and "P004" in result.stdout
    result = run_cli("build", str(game), "--lang", "en", "--out", str(tmp_path / "out"))
    assert result.exit_code in (0, 1) and "Traceback" not in result.output


def test_a_decompression_bomb_image_is_a_p004_and_a_clear_build_error(game, run_cli, tmp_path):
    _png_header(game / "decks" / "huge.png", 14000, 14000)
    _with_image(game, "decks/huge.png")
    result = run_cli("validate", str(game))
    assert result.exit_code == 1
    assert "P004" in result.stdout and "decks/huge.png" in result.stdout
    result = run_cli("build", str(game), "--lang", "en", "--out", str(tmp_path / "out"))
    assert result.exit_code == 1 and "cannot read image 'decks/huge.png'" in result.stderr


@pytest.mark.parametrize("text", ["[/]", "[bold]x[/bold]", "[red"])
def test_rich_markup_in_arguments_is_printed_literally(run_cli, text):
    result = run_cli("validate", text)
    assert result.exit_code == 2
    assert text in result.stderr
    result = run_cli("simulate", "drinking-heroes", "--option", f"{text}=1")
    assert result.exit_code == 2 and text in result.stderr


def test_rich_markup_in_a_po_context_is_printed_literally(run_cli, tmp_path):
    po = polib.POFile()
    po.metadata = {"Language": "en", "Project-Id-Version": "drinking-heroes"}
    po.append(polib.POEntry(msgctxt="[/]decks/x.yaml:[bold]y", msgid="a", msgstr="b"))
    path = tmp_path / "en.po"
    po.save(str(path))
    result = run_cli("i18n", "import", str(path), "--game", "drinking-heroes", "--dry-run")
    assert result.exit_code == 1
    assert "[/]decks/x.yaml:[bold]y" in result.stderr
