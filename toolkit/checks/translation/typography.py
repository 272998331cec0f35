"""Typography per language, and the slips every language shares.

French: narrow no-break space (U+202F) before ; ! ?, no-break space (U+00A0) before : and
inside « »; no space before , and . — times (12:30) and URLs excepted. Spanish: ¿…? and
¡…! balanced per sentence, no space after ¿ ¡ or before ? !. English: no space before
; : ! ?. Everywhere: doubled words, double spaces, leading or trailing spaces, and a negative
number written with the ASCII hyphen instead of the minus sign (U+2212), which is shorter, sits
lower and may break the line after it.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass

from toolkit.checks import wanted
from toolkit.checks.translation.common import TextView, by_file
from toolkit.content.templating import INLINE_ICON
from toolkit.content.unit_cache import Clean, text_digest
from toolkit.diagnostics import Diagnostic, Severity, rule

T_FRENCH = rule(
    "T010", "french-spacing", "French spacing before ; : ! ? and inside « ».", Severity.WARNING
)
T_SPANISH = rule(
    "T011", "spanish-marks", "Spanish ¿ ? and ¡ ! balanced, no inner space.", Severity.WARNING
)
T_ENGLISH = rule(
    "T012", "english-spacing", "English has no space before ; : ! ?.", Severity.WARNING
)
T_DOUBLED = rule("T014", "doubled-word", "A word is written twice in a row.", Severity.WARNING)
T_SPACES = rule("T015", "spaces", "Double, leading or trailing spaces.", Severity.WARNING)
T_MINUS = rule(
    "T016", "minus-sign", "A negative number written with a hyphen, not U+2212.", Severity.WARNING
)

NNBSP, NBSP = "\u202f", "\u00a0"
URL = re.compile(r"https?://\S+|www\.\S+")
ICON = INLINE_ICON  # an inline icon (`:coin:`): its colons are not punctuation
TIME = re.compile(r"\d[:.]\d")
DOUBLED = re.compile(r"(?<!\w)(\w+)\s+\1(?!\w)", re.IGNORECASE)
DOUBLE_OK = {"nous", "vous", "que", "had", "that", "is", "ha"}
SPACE_RUN = re.compile(r"[ \u00a0\u202f]{2,}")
SPACE_PAIRS = tuple(a + b for a in " \u00a0\u202f" for b in " \u00a0\u202f")
"""What SPACE_RUN cannot match without: two of its spaces side by side."""
MINUS = "\u2212"
# A hyphen used as a sign: not inside a word or range ("x-1", "1-2"), before a digit or a
# {placeholder} ("-1", "-{malus}").
HYPHEN_SIGN = re.compile(r"(?<![\w\-\u2212])-(?=\d|\{[a-z_])")


@dataclass(frozen=True)
class Fix:
    """A safe typography fix: replace text[start:end] with `new`."""

    start: int
    end: int
    new: str
    why: str
    at: int = -1
    """Where the mark the fix is about stands (the '!' of a missing space before it)."""

    @property
    def mark(self) -> int:
        return self.at if self.at >= 0 else self.start


def _masked(text: str) -> str:
    """URLs and inline icons blanked out (same length) so their colons and dots are never
    touched: `Marée :coin:` keeps its spaces, `cards :coin:` is not `cards:coin:`.

    A pattern runs only on a text with the characters it cannot match without (here and in
    the fixers below): Python's regular expressions try every position of a text, ~10 µs
    for a card's, and every text of a game goes through a dozen of them in every language."""
    if "http" in text or "www." in text:
        text = URL.sub(_blank, text)
    return ICON.sub(_blank, text) if ":" in text else text


def _blank(match: re.Match[str]) -> str:
    return "\x00" * len(match.group(0))


_FRENCH_MARKS = re.compile("[;!?:«»,.]")
# Spaces, then a mark: tried from the first space of a run only (`(?<! )`; no match ends
# with a space, so no search resumes inside a run), as a run not before a mark was scanned
# again from each of its spaces (20,000 spaces: 2 s).
_SPACES_BEFORE_MARK = re.compile(r"(?<![ \u00a0\u202f])[ \u00a0\u202f]+([;:!?])")
_SPACES_BEFORE_QUESTION = re.compile(r"(?<![ \u00a0\u202f])[ \u00a0\u202f]+([?!])")


def french_fixes(text: str) -> list[Fix]:
    fixes: list[Fix] = []
    t = _masked(text)
    for found in _FRENCH_MARKS.finditer(t):  # the few characters that matter, not every one
        i, ch = found.start(), found.group()
        if ch in ";!?:":
            if ch == ":" and (TIME.match(t, max(0, i - 1)) and i > 0 and t[i - 1].isdigit()):
                continue
            if i == 0:
                continue
            want = NBSP if ch == ":" else NNBSP
            j = i
            while j > 0 and t[j - 1] in " \u00a0\u202f":
                j -= 1
            prev = t[j - 1] if j > 0 else ""
            if prev in ";!?:" and j == i:  # "?!" keeps one space before the first mark
                continue
            if prev in "\x00" or prev == "(":
                continue
            if text[j:i] != want:
                fixes.append(Fix(j, i, want, f"{_name(want)} before {ch!r}", i))
        elif ch == "«":
            k = i + 1
            while k < len(t) and t[k] in " \u00a0\u202f":
                k += 1
            if text[i + 1 : k] not in (NBSP, NNBSP):
                fixes.append(Fix(i + 1, k, NBSP, "no-break space after «", i))
        elif ch == "»":
            j = i
            while j > 0 and t[j - 1] in " \u00a0\u202f":
                j -= 1
            if text[j:i] not in (NBSP, NNBSP):
                fixes.append(Fix(j, i, NBSP, "no-break space before »", i))
        elif ch in ",." and i > 0 and t[i - 1] in " \u00a0\u202f":
            j = i
            while j > 0 and t[j - 1] in " \u00a0\u202f":
                j -= 1
            if j > 0:
                fixes.append(Fix(j, i, "", f"no space before {ch!r}", i))
    return fixes


def english_fixes(text: str) -> list[Fix]:
    fixes: list[Fix] = []
    if not any(mark in text for mark in ";:!?"):
        return fixes
    t = _masked(text)
    for match in _SPACES_BEFORE_MARK.finditer(t):
        why = f"no space before {match.group(1)!r}"
        fixes.append(Fix(match.start(), match.start(1), "", why, match.start(1)))
    return fixes


def spanish_fixes(text: str) -> list[Fix]:
    fixes: list[Fix] = []
    if "¿" in text or "¡" in text:
        for match in re.finditer(r"([¿¡])[ \u00a0\u202f]+", text):
            why = f"no space after {match.group(1)}"
            fixes.append(Fix(match.start(1) + 1, match.end(), "", why, match.start(1)))
    if "?" not in text and "!" not in text:
        return fixes
    for match in _SPACES_BEFORE_QUESTION.finditer(text):
        why = f"no space before {match.group(1)}"
        fixes.append(Fix(match.start(), match.start(1), "", why, match.start(1)))
    return fixes


def spacing_fixes(text: str) -> list[Fix]:
    fixes = []
    stripped = text.strip(" \u00a0\u202f\t")
    if stripped != text and "\n" not in text:
        start = len(text) - len(text.lstrip(" \u00a0\u202f\t"))
        if start:
            fixes.append(Fix(0, start, "", "leading space"))
        end = len(text.rstrip(" \u00a0\u202f\t"))
        if end < len(text):
            fixes.append(Fix(end, len(text), "", "trailing space"))
    if not any(pair in text for pair in SPACE_PAIRS):
        return fixes
    for match in SPACE_RUN.finditer(text):
        keep = NNBSP if NNBSP in match.group(0) else NBSP if NBSP in match.group(0) else " "
        fixes.append(Fix(match.start(), match.end(), keep, "double space"))
    return fixes


def minus_fixes(text: str) -> list[Fix]:
    """Every language: a signed number takes the minus sign (U+2212), as +1 takes '+'."""
    if "-" not in text:
        return []
    return [
        Fix(m.start(), m.end(), MINUS, "minus sign (U+2212) for a negative number")
        for m in HYPHEN_SIGN.finditer(_masked(text))
    ]


FIXERS = {"fr": french_fixes, "en": english_fixes, "es": spanish_fixes}
RULES = {"fr": T_FRENCH, "en": T_ENGLISH, "es": T_SPANISH}


def safe_fixes(lang: str, text: str) -> list[Fix]:
    """Fixes that change only spaces and signs: safe to apply without a translator."""
    found = FIXERS.get(lang, lambda _: [])(text) + spacing_fixes(text) + minus_fixes(text)
    found.sort(key=lambda f: (f.start, f.end))
    merged: list[Fix] = []
    for fix in found:
        if merged and fix.start < merged[-1].end:
            continue
        merged.append(fix)
    return merged


def apply_fixes(text: str, fixes: Sequence[Fix]) -> str:
    for fix in sorted(fixes, key=lambda f: f.start, reverse=True):
        text = text[: fix.start] + fix.new + text[fix.end :]
    return text


def _name(space: str) -> str:
    return "narrow no-break space (U+202F)" if space == NNBSP else "no-break space (U+00A0)"


def spanish_balance(text: str) -> str | None:
    """The first imbalance of ¿? or ¡! in a sentence, or None."""
    if not any(mark in text for mark in "¿?¡!"):  # none in any sentence: all balanced
        return None
    for sentence in re.split(r"(?<=[.?!…])\s+", text):
        for opener, closer in (("¿", "?"), ("¡", "!")):
            if sentence.count(opener) != sentence.count(closer):
                return f"{opener}…{closer} unbalanced in {sentence.strip()[:40]!r}"
            if opener in sentence and sentence.index(opener) > sentence.rindex(closer):
                return f"{closer} comes before {opener} in {sentence.strip()[:40]!r}"
    return None


def check(texts: Sequence[TextView]) -> Iterator[Diagnostic]:
    if not wanted(T_FRENCH, T_SPANISH, T_ENGLISH, T_DOUBLED, T_SPACES, T_MINUS):
        return  # all warnings: not for the validity gate
    clean = Clean("clean-typography")  # (language, text) pairs that had nothing to say
    for loaded, run in by_file(texts):
        if clean.on and clean.file_seen(loaded):
            continue  # every text of its file clean, and nothing they are read from changed
        for view in run:
            for lang, value in view.values.items():
                if not value:
                    continue
                digest = text_digest(lang, value) if clean.on else ""
                if clean.on and clean.seen(digest):
                    clean.noted(loaded, digest, True)
                    continue
                said = yield from _said(view, lang, value)
                if not said and clean.on:
                    clean.found_clean(digest)
                    clean.noted(loaded, digest, True)
                elif clean.on:
                    clean.noted(loaded, None, False)
    clean.close()


def _said(view: TextView, lang: str, value: str) -> Generator[Diagnostic, None, bool]:
    """The findings of one language's text (a pure function of `lang` and `value` but for
    the places and labels it names); returns whether there was any."""
    said = False
    for found in _findings(view, lang, value):
        said = True
        yield found
    return said


def _findings(view: TextView, lang: str, value: str) -> Iterator[Diagnostic]:
    """Every typography finding of one language's text."""
    lang_rule = RULES.get(lang)
    if lang_rule is not None:
        fixes = FIXERS[lang](value)
        if fixes:
            yield lang_rule.at(
                view.file,
                view.position(lang, fixes[0].mark),
                f"{view.label()} ({lang}): {fixes[0].why}"
                + (f" (+{len(fixes) - 1} more)" if len(fixes) > 1 else "")
                + "; `playset i18n fix` can apply this",
            )
    if lang == "es":
        problem = spanish_balance(value)
        if problem:
            yield T_SPANISH.at(view.file, view.span(lang), f"{view.label()} (es): {problem}")
    minus = minus_fixes(value)
    if minus:
        near = value[max(0, minus[0].start - 12) : minus[0].end + 3]
        yield T_MINUS.at(
            view.file,
            view.position(lang, minus[0].mark),
            f"{view.label()} ({lang}): {near!r} has a hyphen for a minus sign (U+2212);"
            " `playset i18n fix` can apply this",
        )
    spacing = spacing_fixes(value)
    if spacing:
        yield T_SPACES.at(
            view.file,
            view.position(lang, spacing[0].mark),
            f"{view.label()} ({lang}): {spacing[0].why}",
        )
    for match in DOUBLED.finditer(value):
        if match.group(1).lower() not in DOUBLE_OK and not match.group(1).isdigit():
            yield T_DOUBLED.at(
                view.file, view.span(lang), f"{view.label()} ({lang}): {match.group(0)!r}"
            )
            break
