"""`i18n status` shows coverage rounded down: 1,805 of 1,812 texts printed "100%" (probe 43),
and a translator reading the totals would stop there."""

from __future__ import annotations

from toolkit.i18n.status import StatusRow


def _row(texts: int, translated: int) -> StatusRow:
    row = StatusRow("decks/cards.yaml", "es")
    row.texts, row.translated = texts, translated
    return row


def test_coverage_short_of_all_never_shows_a_hundred() -> None:
    assert _row(1812, 1805).percent == "99%"
    assert _row(1812, 1812).percent == "100%"
    assert _row(300, 1).percent == "0%"
    assert _row(4, 3).percent == "75%"
    assert _row(0, 0).percent == "100%"  # nothing to translate
