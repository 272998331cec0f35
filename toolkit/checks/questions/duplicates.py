"""Q002 and Q003: the same question asked twice, word for word or nearly, in any language
(a bank drawn from for hours shows a player the same card again).

Texts are compared after `normalise` (case, accents, punctuation). Two questions are *near*
duplicates in a language when they name the same things (their capitalised words, numbers and
quoted terms agree: "Which region is Laphroaig in?" and "... Lagavulin in?" ask different
things) and
  - their texts are close: difflib ratio >= NEAR_RATIO or word-set Jaccard >= NEAR_JACCARD, or
  - they have the same right answer and are fairly close: ratio >= SAME_ANSWER_RATIO or
    Jaccard >= SAME_ANSWER_JACCARD (a reworded question with the same answer).
One finding per pair, at the later question, in the first language that shows it (source
language first)."""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from difflib import SequenceMatcher

from toolkit.checks.questions.common import Item, normalise, words
from toolkit.checks.questions.rules import Q_DUPLICATE, Q_NEAR
from toolkit.diagnostics import Diagnostic

NEAR_RATIO, NEAR_JACCARD = 0.88, 0.8
SAME_ANSWER_RATIO, SAME_ANSWER_JACCARD = 0.7, 0.6
_TOKEN = re.compile(r"\d+(?:[.,]\d+)?|[^\W\d_]+")
_QUOTED = re.compile(r"[«“„\"]([^«»“”„\"]+)[»”\"]")


def names(text: str) -> frozenset[str]:
    """What a text is about: its capitalised words (past the first), numbers and quoted
    terms ("washback" and "wash" are two questions)."""
    found = _TOKEN.findall(text)
    named = {normalise(w) for i, w in enumerate(found) if w[0].isdigit() or (i and w[0].isupper())}
    for quoted in _QUOTED.findall(text):
        named.update(words(quoted))
    return frozenset(named)


class _Text:
    """One question's text in one language, prepared once for every comparison."""

    __slots__ = ("answer", "flat", "names", "words")

    def __init__(self, text: str, answer: str) -> None:
        self.flat = normalise(text)
        self.words = frozenset(words(text))
        self.names = names(text)
        self.answer = normalise(answer)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    shared = len(a & b)
    union = len(a) + len(b) - shared
    return shared / union if union else 1.0


MAX_RATIO_WORK = 4_000_000
"""Characters the text comparisons of one bank may weigh, together: a comparison weighs the
product of its two texts' lengths (difflib's ratio grows so). Two 3,100-letter questions
whose letters agree but whose words do not took 3 s each, ten such questions over a minute
and a half; past the bound, texts are compared by their words only (Jaccard). The bundled
banks compare their texts' characters not once (the words or the names decide)."""


MAX_PAIRS = 1_000_000
"""Pairs of questions one bank's near-duplicate search may compare, together, each counted
with its word sets' size (`pair_cost`): past it, no further near duplicate is looked for.
Questions that all name the same things and share a few words, but too few, escape both the
characters' budget (spent, it only stops difflib) and the word index (the prefixes hold a
shared word): every pair of the group was compared, 10,000 such questions 50 million pairs,
33 s. A pair of short questions whose names agree costs about a microsecond once the
characters' budget is spent, one of two 30-word questions ~3 µs: 1,100 such questions from
one small vocabulary compared 1.8 million pairs under a bound of 2,000,000 uncounted pairs,
5.4 s (probe 39 M5). The bundled bank compares a few hundred pairs, 10,000 varied questions
without names about 450,000."""


WORDS_PER_PAIR = 16
"""Words of a pair's two word sets that cost as much as comparing a pair (`pair_cost`)."""


def pair_cost(a: _Text, b: _Text) -> int:
    """What comparing `a` and `b` is charged against `MAX_PAIRS`: one, and one more for each
    `WORDS_PER_PAIR` words their word sets hold (the Jaccard intersects them)."""
    return 1 + (len(a.words) + len(b.words)) // WORDS_PER_PAIR


class Budget:
    """What is left of `MAX_RATIO_WORK` and `MAX_PAIRS` for one bank."""

    def __init__(self) -> None:
        self.left = MAX_RATIO_WORK
        self.pairs = MAX_PAIRS

    def spend(self, a: str, b: str) -> bool:
        self.left -= len(a) * len(b)
        return self.left >= 0


def near(a: _Text, b: _Text, budget: Budget | None = None) -> float | None:
    """The similarity that makes `a` and `b` near duplicates, or None (by words only once
    `budget` is spent)."""
    if a.names != b.names:
        return None
    jaccard = _jaccard(a.words, b.words)
    same_answer = bool(a.answer) and a.answer == b.answer
    ratio_floor = SAME_ANSWER_RATIO if same_answer else NEAR_RATIO
    jaccard_floor = SAME_ANSWER_JACCARD if same_answer else NEAR_JACCARD
    if jaccard >= jaccard_floor:
        return jaccard
    if budget is not None and not budget.spend(a.flat, b.flat):
        return None
    matcher = SequenceMatcher(None, a.flat, b.flat, autojunk=False)
    if matcher.real_quick_ratio() < ratio_floor or matcher.quick_ratio() < ratio_floor:
        return None
    ratio = matcher.ratio()
    return ratio if ratio >= ratio_floor else None


def check(questions: Sequence[Item], langs: Sequence[str]) -> Iterator[Diagnostic]:
    prepared: list[dict[str, _Text]] = []
    for item in questions:
        q = item.question
        right = q.answers[item.right_index()]
        texts = {lang: _Text(q.question[lang], right.get(lang, "")) for lang in q.question}
        # an empty text is T002's finding, not a duplicate of every other empty text
        prepared.append(
            {lang: texts[lang] for lang in langs if texts.get(lang) and texts[lang].flat}
        )
    first_seen: dict[tuple[str, str], int] = {}
    pairs = _Pairs(prepared, langs)
    for later, item in enumerate(questions):
        texts = prepared[later]
        same = next(
            (
                (lang, first_seen[(lang, texts[lang].flat)])
                for lang in langs
                if lang in texts and (lang, texts[lang].flat) in first_seen
            ),
            None,
        )
        for lang in langs:
            if lang in texts:
                first_seen.setdefault((lang, texts[lang].flat), later)
        if same is not None:
            lang, earlier = same
            other = questions[earlier]
            yield Q_DUPLICATE.at(
                item.rel,
                item.span("question", lang),
                f"{item.id} asks the same question as {other.id} ({other.where()}) in {lang}",
            )
        else:
            yield from _near(item, later, questions, prepared, langs, pairs)
        pairs.add(later)


class _Pairs:
    """Which earlier questions a question could nearly repeat, without trying every pair.

    A pair can only match in a language where its names agree, so questions are grouped by
    (language, names) and only a group is searched. While `budget` lasts (the texts' characters
    may still be compared), every question of the group is tried, in order, exactly as a loop
    over all pairs would (the budget is spent in the same order). Once it is spent, a pair can
    only match by words, with a Jaccard of at least SAME_ANSWER_JACCARD; two word sets that
    close share a word among the rarest `len - floor(len * SAME_ANSWER_JACCARD) + 1` of each
    (prefix filtering), so a word index over those prefixes finds every such pair and few
    others. A thousand nameless questions were half a million pairs."""

    def __init__(self, prepared: list[dict[str, _Text]], langs: Sequence[str]) -> None:
        self.prepared = prepared
        self.langs = langs
        self.budget = Budget()
        self.groups: dict[tuple[str, frozenset[str]], list[int]] = defaultdict(list)
        self.index: dict[tuple[str, frozenset[str], str], list[int]] | None = None
        self.rarity: dict[str, Counter[str]] = {}
        self.added = 0

    def add(self, number: int) -> None:
        """Question `number` (the next in order) may now be repeated by later ones."""
        self.added = number + 1
        for lang, text in self.prepared[number].items():
            self.groups[(lang, text.names)].append(number)
        if self.index is not None:
            self._index(number)

    def earlier(self, later: int) -> Iterator[int]:
        """The earlier questions `later` could nearly repeat, in order (a superset)."""
        texts = self.prepared[later]
        keys = [(lang, text.names) for lang, text in texts.items()]
        if self.budget.left >= 0:
            found = [self.groups.get(key, []) for key in keys]
            yield from found[0] if len(found) == 1 else sorted(set().union(*found))
            return
        if self.index is None:
            self._build()
        assert self.index is not None
        candidates: set[int] = set()
        for lang, text in texts.items():
            for word in self._prefix(lang, text):
                candidates.update(self.index.get((lang, text.names, word), ()))
        yield from sorted(candidates)

    def _build(self) -> None:
        self.rarity = {lang: Counter() for lang in self.langs}
        for texts in self.prepared:
            for lang, text in texts.items():
                self.rarity[lang].update(text.words)
        self.index = defaultdict(list)
        for number in range(self.added):
            self._index(number)

    def _index(self, number: int) -> None:
        assert self.index is not None
        for lang, text in self.prepared[number].items():
            for word in self._prefix(lang, text):
                self.index[(lang, text.names, word)].append(number)

    def _prefix(self, lang: str, text: _Text) -> list[str]:
        rarity = self.rarity[lang]
        ordered = sorted(text.words, key=lambda word: (rarity[word], word))
        size = len(ordered)
        # at least ceil(size * SAME_ANSWER_JACCARD) words are shared; floor keeps it exact
        # whatever the float rounding, at the cost of one more word
        return ordered[: size - math.floor(size * SAME_ANSWER_JACCARD) + 1] or [""]


def _near(
    item: Item,
    later: int,
    questions: Sequence[Item],
    prepared: list[dict[str, _Text]],
    langs: Sequence[str],
    pairs: _Pairs,
) -> Iterator[Diagnostic]:
    """Q003 for question `later`: the first earlier question it nearly repeats, if any
    (one finding per question, not per pair), while the bank's budget of pairs lasts."""
    texts = prepared[later]
    budget = pairs.budget
    if budget.pairs <= 0:
        return  # spent: not even the candidates are looked for (each later question's were
        # built first, whole: 10,000 questions, 10⁸ candidates)
    for earlier in pairs.earlier(later):
        for lang in langs:
            if lang not in texts or lang not in prepared[earlier]:
                continue
            if budget.pairs <= 0:
                return  # every pair compared is charged: the search ends here, for good
            budget.pairs -= pair_cost(prepared[earlier][lang], texts[lang])
            score = near(prepared[earlier][lang], texts[lang], budget)
            if score is None:
                continue
            other = questions[earlier]
            yield Q_NEAR.at(
                item.rel,
                item.span("question", lang),
                f"{item.id} nearly repeats {other.id} ({other.where()}) in {lang} "
                f"(similarity {score:.2f}): {texts[lang].flat[:60]!r}",
            )
            return
