"""Q004-Q006: a card must not hand the answer over. The right answer's own words in the
question, two answers that read the same, or a right answer far longer than the others all let
a player pick it without knowing.

- Q004 looks at the right answer's *telling* words: at least GIVEAWAY_MIN_LETTERS letters (or
  a number), not in STOPWORDS, and in none of the wrong answers (a word every answer shares,
  "Highland" in four Highland names, gives nothing away). Words match after `normalise`, a
  final "s" aside (peat / peats).
- Q006: the right answer is at least LONG_RATIO times as long as the longest wrong answer and
  at least LONG_MARGIN characters longer (both, so short answers like "Six" / "Twelve" pass).
Q004 and Q006 give one finding per question (at the first language that shows it, source
language first, naming every language); Q005 one per language, at the repeated answer."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from toolkit.checks.questions.common import LETTERS, Item, normalise, words
from toolkit.checks.questions.rules import Q_GIVEAWAY, Q_LONG_RIGHT, Q_SAME_ANSWERS
from toolkit.diagnostics import Diagnostic

GIVEAWAY_MIN_LETTERS = 4
LONG_RATIO, LONG_MARGIN = 1.5, 10
STOPWORDS = frozenset(
    # function words of four letters or more in the bundled languages (after `normalise`)
    [
        "avec",
        "dans",
        "pour",
        "sans",
        "sous",
        "vers",
        "chez",
        "quel",
        "quelle",
        "quels",
        "quelles",
        "leur",
        "leurs",
        "cette",
        "elle",
        "sont",
        "etait",
        "plus",
        "moins",
        "tres",
        "para",
        "como",
        "pero",
        "desde",
        "hasta",
        "sobre",
        "entre",
        "cual",
        "cuales",
        "esta",
        "este",
        "estos",
        "estas",
        "with",
        "from",
        "that",
        "this",
        "these",
        "those",
        "which",
        "what",
        "where",
        "when",
        "into",
        "than",
        "have",
        "their",
    ]
)


def _stem(word: str) -> str:
    return word[:-1] if len(word) > GIVEAWAY_MIN_LETTERS and word.endswith("s") else word


def _telling(word: str) -> bool:
    return word.isdigit() or (len(word) >= GIVEAWAY_MIN_LETTERS and word not in STOPWORDS)


def giveaway(question: str, answers: Sequence[str], right: int) -> list[str]:
    """The right answer's telling words that the question also has."""
    wrong = {_stem(w) for i, a in enumerate(answers) if i != right for w in words(a)}
    asked = {_stem(w) for w in words(question)}
    return [
        w
        for w in dict.fromkeys(words(answers[right]))
        if _telling(w) and _stem(w) in asked and _stem(w) not in wrong
    ]


def too_long(answers: Sequence[str], right: int) -> tuple[int, int] | None:
    """(right length, longest wrong length) when the right answer stands out by its length."""
    own = len(answers[right].strip())
    longest = max(len(a.strip()) for i, a in enumerate(answers) if i != right)
    if own >= LONG_RATIO * longest and own - longest >= LONG_MARGIN:
        return own, longest
    return None


def check(questions: Sequence[Item], langs: Sequence[str]) -> Iterator[Diagnostic]:
    for item in questions:
        q = item.question
        right = item.right_index()
        # languages every answer is written in (a missing or empty one is T001's or T002's)
        shown = [lang for lang in langs if all(a.get(lang, "").strip() for a in q.answers)]
        yield from _same(item, shown)
        given = {
            lang: found
            for lang in shown
            if lang in q.question
            and (found := giveaway(q.question[lang], [a[lang] for a in q.answers], right))
        }
        if given:
            lang = next(iter(given))
            where = ", ".join(f"{k}: {', '.join(v)}" for k, v in given.items())
            yield Q_GIVEAWAY.at(
                item.rel,
                item.span("question", lang),
                f"{item.id}: the question gives its right answer ({q.right.upper()}) away "
                f"with the word(s) {where}",
            )
        long = {
            lang: sizes
            for lang in shown
            if (sizes := too_long([a[lang] for a in q.answers], right))
        }
        if long:
            lang = next(iter(long))
            where = ", ".join(f"{k} {own} vs {other}" for k, (own, other) in long.items())
            yield Q_LONG_RIGHT.at(
                item.rel,
                item.span("answers", right, lang),
                f"{item.id}: the right answer ({q.right.upper()}) is much longer than the "
                f"others (characters, right vs longest wrong: {where}); it stands out",
            )


def _same(item: Item, langs: Sequence[str]) -> Iterator[Diagnostic]:
    answers = item.question.answers
    for lang in langs:
        seen: dict[str, int] = {}
        for index, answer in enumerate(answers):
            key = normalise(answer[lang])
            if not key:
                continue  # an empty text is T002's finding
            if key in seen:
                yield Q_SAME_ANSWERS.at(
                    item.rel,
                    item.span("answers", index, lang),
                    f"{item.id}: answers {LETTERS[seen[key]].upper()} and "
                    f"{LETTERS[index].upper()} read the same in {lang}: {answer[lang]!r}",
                )
            else:
                seen[key] = index
