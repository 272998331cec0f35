"""The glossary terms only a board fills (`board_phrases.unfilled_terms`: print-fit's layouts
and the rulebook print them as written) are worked out once a run, though both families
ask, and without going through the texts when no board phrase prints a term (each family
walked a bundled game's ~1,100 texts for them, after one card edit too). The findings are
those of each family as before."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.test_board_phrase_terms import _game, _third_line
from tests.test_validate_cache_units import _run
from toolkit.content import board_phrases


def _walks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each walk of the texts for the unfilled terms from now on (a call of
    `board_phrases.phrases` from its own module: references' R006 calls it too)."""
    walks: list[str] = []
    real = board_phrases.phrases

    def counted(facts: object) -> object:
        caller = sys._getframe(1).f_code
        if Path(caller.co_filename).name == "board_phrases.py":
            walks.append(caller.co_name)
        return real(facts)  # type: ignore[arg-type]

    monkeypatch.setattr(board_phrases, "phrases", counted)
    return walks


def test_a_run_works_the_unfilled_terms_out_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    game = _game(tmp_path, '{fr: "{n} joueurs", es: "{n} jugadores", en: "{n} players"}')
    rulebook = _third_line(game, "Play with {{ glossary.pcount }}.")
    layout = game / "layouts" / "ms-pack.yaml"
    text = layout.read_text(encoding="utf-8")
    element = "    text: \"{{ card.rank if card.rank != 'JOKER' else ':star:' }}\"\n"
    assert element in text
    printed = "    text: \"{{ glossary['pcount'] }}\"\n"
    layout.write_text(text.replace(element, printed, 1), encoding="utf-8")
    walks = _walks(monkeypatch)
    code, out = _run(str(game), "--no-cache", "-f", "json")
    found = {(d["code"], d["file"]) for d in json.loads(out) if d["severity"] == "error"}
    assert found == {("R006", str(rulebook)), ("R006", str(layout))}, found  # each family's
    assert len(walks) == 1


def test_no_text_is_walked_when_no_board_phrase_prints_a_term(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    game = tmp_path / "whisky-game"
    shutil.copytree(REPO / "content" / "whisky-game", game)
    walks = _walks(monkeypatch)
    assert _run(str(game), "--no-cache")[0] == 0
    assert walks == []
