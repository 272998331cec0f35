"""'did you mean …?': the one close-name search every message uses, bounded in its work.

`difflib.get_close_matches` compares a name with every name of a pool, each comparison in
pure Python: its quick ratios grow with the two names' lengths, its ratio (the longest common
blocks) with their product. A game folder decides both the names asked and the pools (a
board's ids, a card's params, a game's icons), so one search per unknown name was N × M such
comparisons: 800 unknown route stops against 500 look-alike space ids kept `validate` busy
for minutes (probe 33 H2), 400 unknown {placeholders} against 2,000 params on ten aliased
cards 77 s (H3).

`close_match` gives what `get_close_matches(name, pool, n=1, cutoff)` gives while its work
fits: at most `MAX_CALL_WORK` for one search, and at most what is left of a `Budget` shared by
the searches of one check run. A `Pool` (a check's names, built once) keeps each name's
answer: the same name asked again costs nothing. Past either bound the answer is None: the
message simply has no 'did you mean'. The work is counted, not timed, so the same content
gives the same messages (a budget's searches run in the order the check meets its items)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from difflib import SequenceMatcher
from functools import lru_cache

MAX_CALL_WORK = 1_000_000
"""Work one search may do: about 0.1 s of the slowest comparisons (look-alike names, whose
ratio must be worked out), far more than any pool of names a designer writes by hand."""
MAX_RUN_WORK = 20_000_000
"""Work the searches sharing one `Budget` (one check's run) may do together: about 2 s."""
_STEP = 16
"""The work one comparison costs besides its names' characters (setting it up)."""


class Budget:
    """What is left of `MAX_RUN_WORK` for the searches of one check run."""

    def __init__(self, work: int | None = None) -> None:
        self.left = MAX_RUN_WORK if work is None else work


class Pool:
    """The names a check suggests from, each name's answer kept: a name asked again (the
    same unknown id in many places, a text aliased on many cards) costs nothing more."""

    def __init__(self, names: Iterable[str], budget: Budget | None = None) -> None:
        self.names = tuple(names)
        self.budget = budget
        self._answers: dict[tuple[str, float], str | None] = {}

    def close(self, name: str, cutoff: float = 0.6) -> str | None:
        """`close_match(name, self.names, …)`, charged to the pool's budget."""
        key = (name, cutoff)
        if key not in self._answers:
            budget = self.budget
            limit = MAX_CALL_WORK if budget is None else min(MAX_CALL_WORK, max(budget.left, 0))
            found, spent = _search(name, self.names, cutoff, limit)
            if budget is not None:
                budget.left -= spent
            self._answers[key] = found
        return self._answers[key]


def close_match(
    name: str,
    pool: Iterable[str],
    *,
    cutoff: float = 0.6,
    budget: Budget | None = None,
) -> str | None:
    """The name of `pool` closest to `name` (as `difflib.get_close_matches(name, pool, n=1,
    cutoff=cutoff)` picks it), or None: none is close enough, or the search ran past
    `MAX_CALL_WORK` or what is left of `budget`. A check asking many names of one pool
    builds a `Pool` once instead."""
    return Pool(pool, budget).close(name, cutoff)


MAX_TIPPED = 20
"""Distinct names one run searches a 'did you mean' for (`Tips`): each search is bounded,
but one per unknown name was still one per header of 40 sheets of 990 unknown headers
(39,600 searches), per card printing another unknown icon (600, 23.5 s: probe 36 H1), per
deck naming another unknown layout (740, 32 s: probe 37 H1), per unknown field, `--vary`
path or missing template key. The names after the first MAX_TIPPED (in the order the run
reports them, the content's) are said without one."""


class Tips:
    """The 'did you mean' searches of one run (a game's load, a check run, a sweep's paths):
    asked only for a finding that is said, each name searched once, and only the first
    MAX_TIPPED distinct names asked; a name past them gets None, whatever an earlier run
    found for it, so the same content gives the same messages. Every site that suggests a
    name for each of many findings searches through one of these."""

    def __init__(self, limit: int = MAX_TIPPED) -> None:
        self._close: dict[Hashable, str | None] = {}
        self.limit = limit

    def ask(self, asked: Hashable, search: Callable[[], str | None]) -> str | None:
        """`search()` (the closest name) for the first `limit` distinct `asked`, once each,
        else None."""
        if asked not in self._close:
            searched = len(self._close) < self.limit
            self._close[asked] = search() if searched else None
        return self._close[asked]

    def close(self, name: str, names: Iterable[str], cutoff: float = 0.6) -> str | None:
        """`close_match(name, names, cutoff=cutoff)` for the first MAX_TIPPED names asked,
        else None."""
        key = (name, tuple(names), cutoff)
        return self.ask(key, lambda: _closest(*key))


@lru_cache(maxsize=256)
def _closest(name: str, names: tuple[str, ...], cutoff: float) -> str | None:
    """`close_match`: a pure function of its arguments, kept across runs (a layout validated
    at each check asks the same names again)."""
    return close_match(name, names, cutoff=cutoff)


_TIPS: ContextVar[Tips | None] = ContextVar("suggest_tips", default=None)


@contextmanager
def tips_run() -> Iterator[Tips]:
    """The block is one run for `tipped`: the run already open (a game's load holding a file's
    validation), or a new one."""
    tips = _TIPS.get()
    if tips is not None:
        yield tips
        return
    tips = Tips()
    token = _TIPS.set(tips)
    try:
        yield tips
    finally:
        _TIPS.reset(token)


def tipped(name: str, names: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The name of `names` closest to `name`, searched through the open run's `Tips` (one
    search outside any run)."""
    tips = _TIPS.get()
    if tips is None:
        return close_match(name, names, cutoff=cutoff)
    return tips.close(name, names, cutoff)


def _search(name: str, pool: Sequence[str], cutoff: float, limit: int) -> tuple[str | None, int]:
    """`get_close_matches(name, pool, n=1, cutoff)` (the same tests in the same order, the
    same tie-break: the greatest name of the best ratio) and the work it did; None, with the
    work done, once the next comparison would pass `limit`."""
    spent = 0
    best: tuple[float, str] | None = None
    matcher = SequenceMatcher()
    matcher.set_seq2(name)
    for other in pool:
        spent += _STEP
        if spent > limit:
            return None, spent
        matcher.set_seq1(other)
        if matcher.real_quick_ratio() < cutoff:
            continue
        spent += len(name) + len(other)
        if spent > limit:
            return None, spent
        if matcher.quick_ratio() < cutoff:
            continue
        spent += len(name) * len(other)
        if spent > limit:
            return None, spent
        score = matcher.ratio()
        if score >= cutoff and (best is None or (score, other) > best):
            best = (score, other)
    return (best[1] if best is not None else None), spent
