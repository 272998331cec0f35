"""Board phrases nest (a track's `or` inside its `count`, that inside its `title`), so their
sizes multiply: a name written at most 3 times in a phrase (R006), a label of at most 200
characters (P016), and the drawer refuses a fill past 100,000 characters (probe 18 H1: a 30 kB
board printed a 360 M character title, 62 s and 1.4 GB, validate clean)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO


def _labelled(tmp_path: Path, labels: str) -> Path:
    game = tmp_path / "ms"
    shutil.copytree(REPO / "content" / "muckle-stoater", game)
    board = game / "boards" / "mashies.yaml"
    text = board.read_text(encoding="utf-8")
    old = "  labels:\n    entrance: castle-entrance\n"
    assert old in text
    board.write_text(text.replace(old, old + labels), encoding="utf-8")
    return game


def _m(text: str) -> str:
    return "{" + ", ".join(f'{lang}: "{text}"' for lang in ("fr", "es", "en")) + "}"


def _findings(run_cli, game: Path) -> list[dict]:
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    return [d for d in json.loads(result.stdout) if d["severity"] == "error"]


def test_a_phrase_writing_a_name_four_times_is_r006(run_cli, tmp_path):
    game = _labelled(tmp_path, f"    count: {_m('{n}' * 4)}\n")
    found = _findings(run_cli, game)
    assert [d["code"] for d in found] == ["R006"] * 3, found
    assert "more than 3 times" in found[0]["message"]
    game = _labelled(tmp_path / "b", f"    count: {_m('{n} {n}')}\n")
    assert _findings(run_cli, game) == []


def test_a_label_past_200_characters_is_p016(run_cli, tmp_path):
    game = _labelled(tmp_path, f"    or: {_m('o' * 201)}\n")
    found = _findings(run_cli, game)
    assert [d["code"] for d in found] == ["P016"] * 3, found
    assert "201 characters" in found[0]["message"]


def test_the_drawer_refuses_a_phrase_filled_past_its_bound():
    from toolkit.render.boards.look import Look

    look = Look.__new__(Look)
    look.style = type("S", (), {"labels": {}})()
    look.lang = "en"
    look.phrases = {"count": ("n",)}
    table = {"en": {"count": "{n} {n} {n}"}}
    assert look.phrase("count", table, n="ab") == "ab ab ab"
    with pytest.raises(ValueError, match="more than 100,000 characters"):
        look.phrase("count", table, n="x" * 40_000)
