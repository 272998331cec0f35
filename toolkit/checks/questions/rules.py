"""The Q rules, declared when the family is found (`playset rules`, a selection of `Q…`):
the check modules that find them are imported only for a game with question banks or
question needs, and take their rules from here."""

from __future__ import annotations

from toolkit.diagnostics import Severity, rule

Q_SPREAD = rule(
    "Q001",
    "letter-spread",
    "In a difficulty, a letter is the right answer for under 20% or over 30% of questions.",
    Severity.WARNING,
)
Q_DUPLICATE = rule("Q002", "duplicate-question", "Two questions have the same text in a language.")
Q_NEAR = rule(
    "Q003",
    "near-duplicate-question",
    "Two questions ask nearly the same thing in a language.",
    Severity.WARNING,
)
Q_GIVEAWAY = rule(
    "Q004",
    "answer-in-question",
    "The question contains a word of its right answer that no wrong answer has.",
    Severity.WARNING,
)
Q_SAME_ANSWERS = rule("Q005", "same-answers", "Two answers of a question read the same.")
Q_LONG_RIGHT = rule(
    "Q006",
    "long-right-answer",
    "The right answer is much longer than every wrong answer.",
    Severity.WARNING,
)
Q_TOO_FEW = rule(
    "Q007", "too-few-questions", "A difficulty has fewer questions than the game's minimum."
)
Q_UNDER_RECOMMENDED = rule(
    "Q008",
    "under-recommended",
    "A difficulty has fewer questions than the game recommends.",
    Severity.WARNING,
)
Q_UNKNOWN_DIFFICULTY = rule(
    "Q009", "unknown-difficulty", "A question's difficulty is not one the game declares."
)
