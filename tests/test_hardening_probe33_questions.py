"""Probe 33, M1: near-duplicate questions (Q003) were one finding per near-duplicate pair.

2,100 questions written as one question merged into the others with a YAML merge key
(103 kB) all nearly repeat each other: 2.2 million Q003 findings, 25 s of CPU and 820 MB.
Now a question has at most one Q003 (its first near twin) and every pair compared is charged
to the bank's budget (`MAX_PAIRS`), so neither the findings nor the work grow as N².
"""

from __future__ import annotations

import random
import string
from collections import Counter
from pathlib import Path

from tests.test_hardening_lows11 import _found, _Item
from toolkit.checks.questions import duplicates

GAME = """id: gq
title: {en: Quiz}
source_language: en
languages: [en]
players: {min: 2, max: 4}
rules: {a: 1}
files:
  questions: [q/b.yaml]
"""
FIRST = (
    "- &b {id: q, difficulty: e, question: {en: a b c d e f g h zzz}, answers: [{en: one},"
    " {en: two}, {en: three}, {en: four}], fact: {en: a fact}, right: a,"
    " fifty_fifty: [a, b], source: abc}\n"
)


def _merged_bank(root: Path, count: int) -> None:
    """The probe's bank: one full question, `count` others merged from it (`<<: *b`), each
    with its own id and a question of five words, four shared."""
    (root / "q").mkdir(parents=True)
    (root / "game.yaml").write_text(GAME)
    letters = string.ascii_lowercase
    ids = [a + b + c for a in letters for b in letters for c in letters][:count]
    lines = [f"- {{<<: *b, id: {i}, question: {{en: a b c d {i}}}}}\n" for i in ids]
    (root / "q" / "b.yaml").write_text(
        "id: b\nname: {en: Quiz}\nquestions:\n" + FIRST + "".join(lines)
    )


def test_questions_that_all_nearly_repeat_each_other_are_one_finding_each(tmp_path) -> None:
    # 300 questions: 44,551 Q003 findings before (one per pair), now 299, each at its
    # question and naming the first earlier question it nearly repeats
    from toolkit.checks import questions
    from toolkit.content.game import load_game
    from toolkit.content.walk import collect

    _merged_bank(tmp_path, 300)
    game = load_game(tmp_path)
    found = [d for d in questions.check(game, collect(game)) if d.code == "Q003"]
    assert len(found) == 299
    lines = Counter(d.span.line for d in found)
    assert max(lines.values()) == 1  # one finding a question
    assert found[0].message.startswith("aab nearly repeats aaa ")
    assert all(" nearly repeats aaa " in d.message for d in found)  # the first near twin


def test_a_question_is_reported_once_at_its_first_near_twin() -> None:
    texts = ["which cask holds the spirit", "which cask holds the spirits", "what is a still"]
    texts += ["which cask holds the spirit now", "which cask holds spirit"]
    questions = [_Item(i, {"en": t + "?"}) for i, t in enumerate(texts)]
    found = _found(questions, ["en"])
    assert [(code, line) for code, line, _ in found] == [("Q003", 2), ("Q003", 4), ("Q003", 5)]
    assert all(" nearly repeats q0 " in message for _, _, message in found)
    assert _found(questions, ["en"]) == found  # deterministic


def _alike_not_near(count: int) -> list[_Item]:
    """Questions that name the same things (none) and share two words, but whose other two
    words differ (a Jaccard of 1/3, the characters far apart): no near duplicate, yet every
    pair is a candidate, the characters' budget is soon spent and the word index's prefixes
    all hold a shared word."""
    rng = random.Random(1)
    word = ["".join(rng.choice(string.ascii_lowercase) for _ in range(8)) for _ in range(2 * count)]
    return [
        _Item(i, {"en": f"alpha beta {word[2 * i]} {word[2 * i + 1]}?"}, "A") for i in range(count)
    ]


def _counted_near(monkeypatch) -> list[int]:
    """How many pairs `duplicates.near` compares from here on (one counter)."""
    compared = [0]
    near = duplicates.near

    def counted(*args, **kwargs):
        compared[0] += 1
        return near(*args, **kwargs)

    monkeypatch.setattr(duplicates, "near", counted)
    return compared


def test_the_pairs_compared_are_charged_to_the_banks_budget(monkeypatch) -> None:
    # 1,000 such questions compared all 499,500 pairs (10,000: 50 million, 33 s), finding
    # nothing; the budget of character comparisons never stopped it
    monkeypatch.setattr(duplicates, "MAX_PAIRS", 20_000, raising=False)
    compared = _counted_near(monkeypatch)
    assert _found(_alike_not_near(1_000), ["en"]) == []
    assert 19_000 <= compared[0] <= 20_000


def _long_alike(count: int, words: int = 30) -> list[_Item]:
    """Questions of `words` distinct two-letter words out of a vocabulary of 100 (probe 39
    M5): every word common, a Jaccard far under the floors, so every pair is compared."""
    rng = random.Random(2)
    vocabulary = [a + b for a in "abcdefghij" for b in "klmnopqrst"]
    return [_Item(i, {"en": " ".join(rng.sample(vocabulary, words)) + "?"}) for i in range(count)]


def test_a_pair_is_charged_with_its_words_and_a_spent_budget_looks_no_further(monkeypatch):
    """A pair of 30-word questions cost ~3 µs, charged as one of a few words: 1,100 of them
    compared 1.8 million pairs, 5.4 s (probe 39 M5). Each pair is now charged one more for
    each 16 words of its two word sets, and once the budget is spent no later question
    looks for its candidates."""
    monkeypatch.setattr(duplicates, "MAX_PAIRS", 4_000, raising=False)
    compared = _counted_near(monkeypatch)
    looked = [0]
    earlier = duplicates._Pairs.earlier

    def counted_earlier(self, later):
        looked[0] += 1
        return earlier(self, later)

    monkeypatch.setattr(duplicates._Pairs, "earlier", counted_earlier)
    assert _found(_long_alike(300), ["en"]) == []
    assert 900 <= compared[0] <= 1_000, compared[0]  # 4,000 / (1 + 60 // 16)
    assert looked[0] <= 50, looked[0]  # ~45 questions reach 1,000 pairs; none past them
