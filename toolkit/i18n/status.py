"""Translation status: coverage and open problems per game, language and file."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from toolkit.checks import E_CHECK, run_checks
from toolkit.content.game import Y_TOO_MUCH_CONTENT, Game, display_path
from toolkit.content.walk import collect
from toolkit.diagnostics import Diagnostic


@dataclass
class StatusRow:
    file: str
    lang: str
    texts: int = 0
    translated: int = 0
    problems: int = 0
    codes: dict[str, int] = field(default_factory=dict)

    @property
    def coverage(self) -> float:
        return self.translated / self.texts if self.texts else 1.0

    @property
    def percent(self) -> str:
        """The coverage in whole percent, rounded down: 1,805 of 1,812 texts are 99 %, not
        the 100 % that rounding shows (a translator would stop there), and one text of 300
        is 0 %."""
        if self.translated >= self.texts:
            return "100%"
        return f"{min(self.translated * 100 // self.texts, 99)}%"


def status(game: Game) -> list[StatusRow]:
    manifest = game.manifest
    if manifest is None:
        return []
    rows: dict[tuple[str, str], StatusRow] = {}
    for text in collect(game).texts:
        for lang in manifest.languages:
            row = rows.setdefault((text.file.rel, lang), StatusRow(text.file.rel, lang))
            row.texts += 1
            if text.value.get(lang, "").strip():
                row.translated += 1
    _unit_rows(game, rows)
    counts: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for diag in _findings(game):
        if not diag.code.startswith(("T", "P")) and diag.code not in _SHOWN:
            continue  # a check plugin that failed, a deck not read: their texts are missing
        lang = _lang_of(diag.message, manifest.languages)
        counts[(diag.file, lang)][diag.code] += 1
    for (file, lang), codes in counts.items():
        row = rows.setdefault((file, lang), StatusRow(file, lang))
        row.codes = dict(codes)
        row.problems = sum(codes.values())
    return sorted(rows.values(), key=lambda r: (r.file, r.lang))


def _findings(game: Game) -> list[Diagnostic]:
    """The game's findings: those `validate` kept for it as it is, if any (the same, by the
    cache's own test), else worked out (a bank of 3,000 questions: 6 s of face fitting)."""
    from toolkit.content.validate_cache import cached_findings

    kept = cached_findings(game.root)
    return kept if kept is not None else run_checks(game, None)


_SHOWN = (E_CHECK.code, Y_TOO_MUCH_CONTENT.code)
"""Codes besides T and P whose findings say the counts leave texts out."""


def _unit_rows(game: Game, rows: dict[tuple[str, str], StatusRow]) -> None:
    """Coverage of what the PO files hold besides the YAML fields: layout labels and the
    rulebook's units (a rulebook counts as translated unit by unit where it follows the
    source's structure)."""
    from toolkit.i18n.markdown_units import SegmentError
    from toolkit.i18n.units import KINDS, kind_units

    manifest = game.checked_manifest
    shown_as: dict[str, str] = {}  # each file's shown path, worked out once (not per unit:
    # 178,000 units of quoted tables spent a quarter of `i18n status` in os.path.relpath)
    for name in KINDS:
        if name == "field":
            continue
        for lang in manifest.languages:
            try:
                units = kind_units(name, game, lang)
            except SegmentError:
                continue
            for unit in units:
                shown = shown_as.get(unit.file) or shown_as.setdefault(
                    unit.file, display_path(game.root / unit.file)
                )
                row = rows.setdefault((shown, lang), StatusRow(shown, lang))
                row.texts += 1
                if lang == manifest.source_language or unit.target.strip():
                    row.translated += 1


def _lang_of(message: str, languages: list[str]) -> str:
    for lang in languages:
        if f"({lang})" in message or f" {lang} text" in message:
            return lang
    return "-"


def folded(rows: list[StatusRow], limit: int) -> tuple[list[StatusRow], list[StatusRow], int]:
    """`rows` folded to at most `limit` shown: each language's totals over every file (`file`
    empty), the rows with the most texts missing and problems first (as many as leave room),
    and how many rows are left out. Nothing is folded within `limit`: ([], rows, 0)."""
    if len(rows) <= limit:
        return [], rows, 0
    totals: dict[str, StatusRow] = {}
    for row in rows:
        total = totals.setdefault(row.lang, StatusRow("", row.lang))
        total.texts += row.texts
        total.translated += row.translated
        total.problems += row.problems
        for code, count in row.codes.items():
            total.codes[code] = total.codes.get(code, 0) + count
    room = max(limit - len(totals), 0)
    worst = sorted(rows, key=lambda r: (-(r.texts - r.translated + r.problems), r.file, r.lang))
    return [totals[lang] for lang in sorted(totals)], worst[:room], len(rows) - room
