"""Findings about board words said once, and a graph board's place names fitted (probe 18
L3 and its Lows)."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

from tests.conftest import REPO


def _findings(run_cli, game: Path) -> list[dict]:
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    return json.loads(result.stdout)


def test_a_board_label_character_the_font_lacks_is_one_finding(run_cli, tmp_path):
    """The leg label prints in bold: the board's check found the character as print-fit did
    (against the main face), at the same column."""
    game = tmp_path / "tk"
    shutil.copytree(REPO / "content" / "tokaido", game)
    board = game / "boards" / "road.yaml"
    text = board.read_text(encoding="utf-8")
    leg = '  labels:\n    leg: {fr: "Étape {n} 東", es: "Tramo {n} ☃", en: "Leg {n} 🂡"}\n'
    board.write_text(text.replace("\nstyle:\n", "\nstyle:\n" + leg), encoding="utf-8")
    found = [d for d in _findings(run_cli, game) if d["code"] == "P002"]
    assert len(found) == 3, found
    places = Counter((d["line"], d["col"]) for d in found)
    assert set(places.values()) == {1}, found


def test_a_place_name_running_off_the_poster_is_p016(run_cli, tmp_path):
    """A graph board prints a place name at its kind's size beside its space: one too long
    for any of its places runs off the poster (it printed 620 mm out on a 400 mm page)."""
    game = tmp_path / "wg"
    shutil.copytree(REPO / "content" / "whisky-game", game)
    board = game / "boards" / "map.yaml"
    text = board.read_text(encoding="utf-8")
    long = "Edinburgh of the Seven Hills and the Long Royal Mile Down to Holyrood Palace"
    assert text.count("    name: Edinburgh\n") == 1 and text.count("      font_size: 10\n") == 1
    text = text.replace("    name: Edinburgh\n", f"    name: {long}\n")
    board.write_text(text, encoding="utf-8")
    assert [d for d in _findings(run_cli, game) if d["code"] == "P016"] == []  # 10 pt: fits
    board.write_text(text.replace("      font_size: 10\n", "      font_size: 24\n"))
    found = [d for d in _findings(run_cli, game) if d["code"] == "P016"]
    assert [(d["line"], d["severity"]) for d in found] == [(269, "error")], found
    assert "runs off the poster" in found[0]["message"] and "24 pt" in found[0]["message"]
