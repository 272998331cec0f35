"""Every rule is listed 50 times a file at most (probe 21 H3: R006 was said once per
placeholder, and a 5.7 kB sheet naming one shared text of `{a}` × 1,330 in each row gave
2 M findings, 1.1 GB of text), and a text names each unknown placeholder once."""

from __future__ import annotations

import json
from pathlib import Path

from toolkit.scaffold.new import new_game

CARD = "    text:\n      fr: Avancez de {steps} cases.\n"


def _game(tmp_path: Path, cards: str) -> Path:
    folder = tmp_path / "g"
    new_game(folder, "g", ["fr", "es", "en"])
    deck = folder / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + cards, encoding="utf-8")
    return folder


def _r006(run_cli, game: Path) -> list[dict]:
    result = run_cli("validate", str(game), "--no-cache", "--format", "json")
    return [d for d in json.loads(result.stdout) if d["code"] == "R006"]


def _card(i: int, text: str) -> str:
    name = f"{{fr: N{i}, es: N{i}, en: N{i}}}"
    return f"  - {{id: x{i}, name: {name}, text: {{fr: '{text}', es: '{text}', en: '{text}'}}}}\n"


def test_a_text_names_an_unknown_placeholder_once(run_cli, tmp_path):
    found = _r006(run_cli, _game(tmp_path, _card(0, "{a}" * 1300)))
    assert [(d["line"], d["message"][:58]) for d in found] == [
        (44, f"placeholder {{a}} ({lang}) names no parameter of this card")
        for lang in ("fr", "es", "en")
    ], found


def test_a_rule_is_listed_50_times_a_file_then_how_many_more(run_cli, tmp_path):
    found = _r006(run_cli, _game(tmp_path, "".join(_card(i, f"{{z{i}}}") for i in range(40))))
    assert len(found) == 51, len(found)
    assert found[50]["message"].endswith(
        "; and 69 more R006 findings in this file after this one, not listed (R006 is listed"
        " 50 times a file at most)"
    )


def test_a_checks_notice_that_it_stopped_is_listed_past_the_cap():
    # probe 22: print fit's one "stops at" P001 fell under the cap with 1,520 more P001
    from toolkit.checks import printfit
    from toolkit.diagnostics import Diagnostic, Severity, Span
    from toolkit.diagnostics.capped import capped

    many = [
        Diagnostic("d.yaml", "P001", f"c{i} overflows", Severity.ERROR, Span(i + 1))
        for i in range(80)
    ]
    stop = Diagnostic("d.yaml", "P001", f"{printfit._STOPS}c70: …", Severity.ERROR, Span(71, 2))
    kept = capped(sorted([*many, stop], key=Diagnostic.sort_key))
    assert stop in kept and len(kept) == 52
