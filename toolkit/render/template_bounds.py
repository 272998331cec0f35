"""The limits of a sandboxed template: how much it may build, print and loop, and for how long.

Rulebooks and card layouts come from the game folder, so a template is input: it must not be
able to allocate gigabytes (`'x'.ljust(2000000000)`, `~` doubling, a list `+` in a loop) or
run for ever. Every way a template makes a bigger value goes through a guard here: the
operators the sandbox intercepts (`*`, `**`, `%`, `+`), `~` (the code generator calls
`guard_join`), every method call, every filter, what a block or macro collects (the
environment's `concat`) and what `{{ … }}` prints (`finalize`). A guard refuses before the
work when it can tell the size beforehand (a width, a repeat count, a join), and checks the
size after it otherwise; every result is charged to the render's budget.

Time is a deadline checked by those guards and by every loop iteration (the code generator
wraps a `for`'s iterable in `guard_iter`), so it holds in any thread (the preview renders in
threads, where no signal reaches) and leaves Ctrl-C alone. The budget is per thread: two
renders in two threads do not share it.
"""

from __future__ import annotations

import codecs
import itertools
import re
import string
import sys
import threading
import time
from collections.abc import (
    Callable,
    ItemsView,
    Iterable,
    Iterator,
    KeysView,
    Mapping,
    Sized,
    ValuesView,
)
from typing import Any, NamedTuple

from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame, operators
from jinja2.exceptions import FilterArgumentError, SecurityError, TemplateRuntimeError
from jinja2.runtime import LoopContext, Undefined
from jinja2.utils import Cycler, Joiner, Namespace, missing
from markupsafe import escape


class TemplateLimitError(SecurityError):
    """A template went past a limit (loop iterations, sequence size, output, time)."""

    lineno: int | None  # the template's line, when known (set where the limit was met)


class TemplateTimeError(TemplateLimitError):
    """A render ran past `MAX_SECONDS`."""


MAX_ITERATIONS = 1_000_000  # loop iterations per render, nested loops included
MAX_STRING = 1_000_000  # characters of one string a template builds
MAX_ITEMS = 100_000  # items of one list, tuple or dict a template builds
MAX_SEQUENCE = MAX_STRING  # kept for callers that name it
MAX_OUTPUT = 4_000_000  # characters a render may print (a block or macro included)
MAX_CREATED = 64_000_000  # characters and items all guarded results of a render add up to
MAX_POWER_BITS = 4_096
"""Bits of an integer a template computes (`*`, `**`, `|int`, a method's result): `//` and
`%` of two 5,000,000-bit integers (`("v"*999999)|int(base=32)`) took ~20 s each in C, out of
the deadline's reach; six of them in a rulebook ran 119 s."""
PLAIN_CODECS = frozenset(
    ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le")
    + ("utf-32-be", "ascii", "latin-1", "iso8859-1", "iso8859-15", "cp1252")
)
"""Codecs `encode` and `decode` may use: C codecs, linear in the text. punycode (and idna,
which runs it) is pure Python and quadratic: 10,000 distinct characters took 45 s."""
MAX_SECONDS = 5.0
LOOK_AT_SIZE = 10_000
"""A filter or method given or giving this many characters or items looks at the clock at
once, not at its 64th step: one `|urlize` of 800,000 characters takes about a second, and 32
of them ran before the deadline was looked at (62 s of CPU from 3 kB: probe 23)."""
MAX_WIDTH = 1_000  # widths and precisions in format specs and the width filters
MAX_WRAPPED = 100_000
"""Characters `wordwrap` may wrap: textwrap copies the rest of a long word at every line it
breaks, so one call costs the square of a word's length over the width and never looks at
the clock (1,000,000 characters at width 1 took 22 s, past `MAX_SECONDS`)."""

MAX_URLIZED_WORD = 4_000
"""Characters of the longest word (a run without whitespace) `urlize` may be given: it moves
a word's closing brackets (`)`, `>`, `&gt;`) off its end one at a time, copying the rest of
the word each time, so a word costs the square of its length (`'a' ~ '<'*499000 ~
'>'*499000` took 11.6 s in one call: probe 29 L1). A link is shorter; a million characters
in words of 4,000 take ~0.4 s, as many in two-letter words ~1.4 s."""

MAX_TOKENS = 30_000
"""Tokens (names, operators, literals, the texts between tags) of one template: compiling
costs about 140 µs and 10 kB a token before any render's deadline runs (340,000 `{{a}}`, a
1.7 MB rulebook, took 47 s and 3.4 GB). The largest bundled template has 1,822."""
MAX_COMPARED = 16_000_000
"""Characters of the texts an operand of a comparison holds: comparing two lists compares
their texts in C, out of the deadline's reach (`t in a`, `a` 99,999 references to one
1,000,000-character text equal to `t` but the last character, took 3.4 s, and ten of them in
one list literal 25 s)."""
MAX_SCANNED = 20_000_000
"""A text's length times the length of the characters or needle one call compares it with,
for the calls that compare them in C without a linear bound: `strip(chars)` looks every
character up in `chars` (a 1,000,000-character text and set took 64 s), and the reverse
searches (`rfind`, `rindex`, `rsplit`, `rpartition`) have no two-way fallback, so a needle
that matches but for its second character costs its length at every place (400,000 and
200,000 characters took 1:42). Forward searches (`find`, `count`, `in`, `split`) are linear."""
_SCANNING = frozenset(("strip", "lstrip", "rstrip", "rfind", "rindex", "rsplit", "rpartition"))
MAX_SAME_HASH = 32
"""Different values with one hash a set or dict a template fills in one call may hold:
Python hashes an integer as its value modulo 2**61 - 1, so multiples of that number all
collide and n of them cost n² comparisons in C (`range(0, 20000*M, M)|unique` took 98 s,
`{}.fromkeys` of it 19 s; the 100,000 items a list may hold, minutes)."""
MAX_NESTING = 100
"""Tuples a template may nest in one another: hashing a tuple recurses in C without
Python's recursion check, so one nested 250,000 deep (a 130-byte loop) crashed the process
when used as a dict key."""
MAX_TUPLE_ITEMS = 10_000
"""Items of a tuple counted through every tuple nested in it, a shared one at each place:
Python does not keep a tuple's hash, so a dict key, `d.get(t)` or `d[t]` walks them all in C
(`((1,)*100000,)*100000` is 10¹⁰ items: `hash()` of a thousandth of it took 1.45 s), and a
dict literal may name one thousands of times (1,000 keys of a 100,000-item tuple: 9 s)."""
MAX_HASHED = MAX_SCANNED
"""Items of tuples one call hashes in all (`{}.fromkeys([t]*100000)` hashes `t` 100,000 times)."""

_PERCENT_SPEC = re.compile(r"[-#0 +]*(\*|\d+)?(?:\.(\*|\d*))?[hlL]?(.)", re.DOTALL)
"""A `%` field after its `%` and its `(name)`: flags, width, precision, conversion."""
_PARENTHESES = re.compile(r"[()]")
ESCAPED = 10
"""How many characters `%r` or `%a` may print for one of a text (`ascii` writes 😀 as
`\U0001f600`)."""
_BRACE_SPEC = re.compile(r"\{[^{}]*:([^{}]*)(\{)?")
_NUMBER = re.compile(r"\d+")
_FORMATTER = string.Formatter()


class Limits:
    """How much one render may loop and step: a rulebook renders once per language, a card
    layout once per card face and language, so a layout gets far less."""

    __slots__ = ("created", "iterations", "per", "steps")

    def __init__(
        self, iterations: int | None, steps: int, per: str, created: int | None = None
    ) -> None:
        self.iterations = iterations  # None: `MAX_ITERATIONS` when the render starts
        self.steps = steps  # ticks and loop iterations together
        self.per = per  # what one render is, for the messages ("", " on one card face")
        self.created = created  # None: `MAX_CREATED` when the render starts


RENDER = Limits(None, sys.maxsize, "")
"""A rulebook's (or any other text's) render: loop iterations bounded, steps only by time."""

RULEBOOK_STEPS = 250_000
"""Steps (as a layout's are counted: `LAYOUT_STEPS`) the rulebook's renders may take, shared
by the game's languages (as the characters and items they build, `MAX_CREATED`, are): each
language's render may take this over the number of languages
(25,000 with the 20 a game may declare). A rulebook renders once per language, and a render
bounded only by its deadline let a 203-byte loop of macro calls run 5 s a language: 21 s of
`validate` with 10 languages (probe 39 H2). Counted, so that the same rulebook fails on
every machine. The bundled rulebooks take at most ~6,000 steps a language; a step costs
~1.8 µs, so a game's rulebook renders cost ~0.9 s at most (1,000,000 steps were 1.8 s, a
third of what a cold `validate` may take with the content at its own budget,
`toolkit.content.game.MAX_WORK`; budget56). It was 500,000 until budget60: the worst game of
1 MB, every surface's budget spent, still took ~4.4 s, and a step of an empty loop is ~0.5
µs, one of a filter or call ~1.8 µs: ~0.45 s at most now; the bundled rulebooks keep 14 times
their steps in three languages."""


RULEBOOK_CREATED = 2_000_000
"""Characters and items the rulebook's renders may build, shared by the game's languages
(`rulebook_limits`), a long text read counting an eighth of its characters
(`READ_PER_UNIT`): `MAX_CREATED` (64,000,000) let 600 `s|wordcount` of a 99,000-character
`s` in each of 3 languages (a 541-byte line each) take a cold `validate` 4.5 s, clean, and
more ran into each language's 5 s deadline, a finding that depends on the machine
(budget59: ~0.2 µs a unit). This is ~0.4 s at most (8,000,000 left a game of every other
budget spent ~5.5 s; 4,000,000, ~4.4 s until budget60, a `wordwrap` at the share ~0.33 s);
the bundled rulebooks validate clean at 30,000 in all, 10,000 a language."""


def rulebook_limits(languages: int) -> Limits:
    """A rulebook render's limits in a game of `languages` languages: its share of
    `RULEBOOK_STEPS` and of `RULEBOOK_CREATED` (one step may be a filter over a long text, and a
    render that builds its 64,000,000 characters in a few thousand steps ran its 5 s deadline
    in each of 10 languages: 13 s of validate, probe 40 H3)."""
    languages = max(1, languages)
    per = " in the rulebook"
    if languages > 1:
        per = f" in one language's rulebook (its share: the rulebook's {languages} languages share"
        per += " its bounds)"
    return Limits(None, RULEBOOK_STEPS // languages, per, RULEBOOK_CREATED // languages)


LAYOUT_ITERATIONS = 2_000
"""Loop iterations of a card layout's templates on one card face (and language): a layout
renders once per card and language, so a loop just under the rulebook's limits (999 × 150
additions, ~0.9 s a render) ran 52.5 s of `validate` for 20 cards (probe 21 H6). The bundled
games' layouts do not loop on a card."""
LAYOUT_STEPS = 10_000
"""Steps (attribute and item reads, filters, calls, comparisons, built values and loop
iterations) of a card layout's templates on one card face: counted, not timed, so that the
same card fails on every machine and run (at most ~40 ms a face). The bundled games' layouts
take at most 52; one that looks each of 400 glossary terms up in the card's text, ~4,000."""
LAYOUT_CREATED = 200_000
"""Characters and items all guarded results of a card layout's render on one card face add
up to (a rulebook's: `RULEBOOK_CREATED`): a few steps can each build a large value (a 100,000-item
list sorted, ~95 ms through Jinja's `sort`), so 64,000,000 a render let a layout of a few
dozen steps spend seconds a card face, and 2,000,000 still ~1 s; 200,000 is ~0.1 s at most.
Card texts are at most 4,000 characters; the bundled games' layouts build at most 285 on a
face."""
LAYOUT = Limits(LAYOUT_ITERATIONS, LAYOUT_STEPS, " on one card face", LAYOUT_CREATED)


class TemplateStepError(TemplateLimitError):
    """A card layout's render went past its loop iterations or steps (`LAYOUT`): counted, so
    that it is met at the same place on every run, and found again piece by piece cheaply."""


class Budget:
    """What one render (and the renders nested in it) has spent, its limits and deadline."""

    __slots__ = (
        "created",
        "deadline",
        "iterations",
        "limits",
        "max_created",
        "max_iterations",
        "ticks",
        "tuples",
    )

    def __init__(self, limits: Limits = RENDER) -> None:
        self.created = 0
        self.iterations = 0
        self.ticks = 0
        self.limits = limits
        self.max_iterations = MAX_ITERATIONS if limits.iterations is None else limits.iterations
        self.max_created = MAX_CREATED if limits.created is None else limits.created
        self.deadline = time.monotonic() + MAX_SECONDS
        # id → (tuple, nesting, items counted through the tuples in it)
        self.tuples: dict[int, tuple[tuple[Any, ...], int, int]] = {}

    def work(self) -> int:
        """What the render cost, counted as its limits count it: its steps (ticks and loop
        iterations) and an eighth of the characters and items it built (a face's
        `LAYOUT_STEPS` cost ~40 ms at most, its `LAYOUT_CREATED` ~0.1 s: about the same
        time a unit). The same on every run and machine."""
        return self.ticks + self.iterations + self.created // 8

    def tick(self) -> None:
        """A step of the template: look at the clock and the steps now and then."""
        self.ticks += 1
        if not self.ticks & 63:
            self.look()

    def look(self) -> None:
        """Raise when the render is past its deadline or its steps."""
        if self.ticks + self.iterations > self.limits.steps:
            raise TemplateStepError(
                f"the templates take more than {self.limits.steps:,} steps{self.limits.per}"
                " (reads, filters, calls, operators, loop iterations and the tags each pass"
                " runs): compute less in them, or write the value in the content"
            )
        if time.monotonic() > self.deadline:
            raise TemplateTimeError(f"rendering took longer than {MAX_SECONDS:g} s")

    def charge(self, size: int) -> None:
        """A step built `size` characters or items."""
        self.read(size)
        if size >= LOOK_AT_SIZE:
            self.ticks += 1
            self.look()
        else:
            self.tick()

    def read(self, size: int) -> None:
        """`size` characters or items built, or read (`charge_read`) within a step already
        counted: added up with what the render built, the clock looked at for a large one."""
        self.created += size
        if self.created > self.max_created:
            raise TemplateLimitError(  # at the card: found again, it would be built again
                f"the template builds more than {self.max_created:,} characters and items"
                f" in all{self.limits.per}"
            )
        if size >= LOOK_AT_SIZE // READ_PER_UNIT:
            self.look()

    def count_items(self, count: int) -> None:
        """A filter goes over `count` items of a list, range or dict it was given: counted
        with the loops' iterations (`range(100000)|select('odd')|max` was ~100 ms of Python
        in four steps of a card layout: probe 23)."""
        self.iterations += count
        if self.iterations > self.max_iterations:
            kind = TemplateLimitError if self.limits is RENDER else TemplateStepError
            raise kind(
                f"loops and filters go over more than {self.max_iterations:,} items"
                f"{self.limits.per}"
            )
        if count >= LOOK_AT_SIZE:
            self.look()

    def iterate(self, iterable: Iterable[Any]) -> Iterator[Any]:
        limit = self.max_iterations
        for item in iterable:
            self.iterations += 1
            if self.iterations > limit:
                kind = TemplateLimitError if self.limits is RENDER else TemplateStepError
                raise kind(f"loops run more than {limit:,} iterations{self.limits.per}")
            if not self.iterations & 63:
                self.look()
            if isinstance(item, tuple):  # `for t in d.items()`: a tuple no literal made
                guard_tuple(item)
            yield item


_local = threading.local()


def current() -> Budget | None:
    """The budget of the render in progress in this thread, or None outside one."""
    return getattr(_local, "budget", None)


def enter(limits: Limits = RENDER) -> Budget | None:
    """Start a budget for this thread unless a render is already in progress; returns the
    outer budget (None: this call owns the new one and must `leave(None)`)."""
    outer = current()
    if outer is None:
        _local.budget = Budget(limits)
    return outer


def leave(outer: Budget | None) -> None:
    if outer is None:
        budget = current()
        if budget is not None:
            _local.work = getattr(_local, "work", 0) + budget.work()
        _local.budget = None


def work_done() -> int:
    """The work (`Budget.work`) of every render this thread has finished or left: what a
    caller's renders cost is the difference of two readings (a card layout's faces, counted
    against a game's layout budget: toolkit.render.layout_budget)."""
    return int(getattr(_local, "work", 0))


def tick() -> None:
    """`current().tick()` when a render is in progress: written out, as this runs at every
    attribute, item and comparison of every render (three calls each were ~1 % of a cold
    `validate`)."""
    budget = getattr(_local, "budget", None)
    if budget is not None:
        budget.ticks += 1
        if not budget.ticks & 63:
            budget.look()


def size_of(value: Any) -> int:
    """Characters of a string, items of a container, 0 otherwise."""
    if isinstance(value, str | bytes | list | tuple | dict | set | frozenset):
        return len(value)
    return 0


def check_result(value: Any) -> Any:
    """Refuse a string or container past its size limit; charge it to the budget."""
    if isinstance(value, str | bytes):
        if len(value) > MAX_STRING:
            raise TemplateLimitError(f"a text longer than {MAX_STRING:,} characters")
        if isinstance(value, str) and "0x" in value and _ADDRESS.search(value):
            raise TemplateLimitError(ADDRESS_PRINTED)  # `range|string`, then cut or replaced
        size = len(value)
    elif isinstance(value, list | tuple | dict | set | frozenset):
        if len(value) > MAX_ITEMS:
            raise TemplateLimitError(f"a list of more than {MAX_ITEMS:,} items")
        size = len(value)
    elif isinstance(value, int):
        if value.bit_length() > MAX_POWER_BITS:
            raise TemplateLimitError(f"a number of more than {MAX_POWER_BITS:,} bits")
        return value
    elif isinstance(value, Namespace):  # `namespace(d)` copies d (probe 29 H6)
        size = len(opened(value))
    else:
        return value
    budget = current()
    if budget is not None:
        budget.charge(size)
    if isinstance(value, tuple):
        guard_tuple(value)
    return value


VIEWS = (KeysView, ValuesView, ItemsView)
"""A dict's `keys()`, `values()` and `items()`: containers of their dict's items that are no
list, so every guard that walked lists, tuples, sets and dicts let them pass as one small
value (`d.values() is lower` printed 10⁹ characters in one C call, `d.items() == e.items()`
compared every value in C for 75 s: probe 28)."""
CONTAINERS = (list, tuple, set, frozenset, Mapping, Namespace, *VIEWS)
HOLDERS = (Cycler, Joiner, LoopContext)
"""Jinja's objects that hold a template's values as attributes (`cycler(…).items` and
`.current`, `joiner(…).sep`, `loop.previtem` and `.nextitem`): weighed as 24 characters, a
list of one cycler 5,000 times was joined by its `current` into 5 GB, sorted by it (4,000
lower-cased keys kept) into 3.9 GB, and `'{0.items}'.format(c)` printed its items (probe 51
P51-4..6). `opened` gives what they hold, so every guard that walks values sees it."""


def opened(item: Any) -> Any:
    """The items a guard walks in a container (a list's, tuple's or set's items; a mapping's
    keys and values; a dict view's, an items view's keys and values), None for anything
    else. A range holds only numbers: its length is all it costs (`guard_compared`)."""
    if isinstance(item, list | tuple | set | frozenset):
        return item
    if isinstance(item, Mapping):
        return [*item.keys(), *item.values()]
    if isinstance(item, ItemsView):
        return list(itertools.chain.from_iterable(item))
    if isinstance(item, KeysView | ValuesView):
        return list(item)
    if isinstance(item, Namespace):  # `namespace(…)` prints, compares as its attributes
        attributes = item._Namespace__attrs
        return [*attributes.keys(), *attributes.values()]
    if isinstance(item, HOLDERS):
        return _held(item)
    return None


def _held(item: Cycler | Joiner | LoopContext) -> list[Any]:
    """The values a template reads from a `HOLDERS` object's attributes: a cycler's items
    (`current` is one of them), a joiner's separator, a loop's previous, current and next
    items (the next one peeked, as `loop.nextitem` or `loop.last` does: what it reads)."""
    if isinstance(item, Cycler):
        return list(item.items)
    if isinstance(item, Joiner):
        return [item.sep]
    item._peek_next()
    held = (item._before, item._current, item._after)
    return [value for value in held if value is not missing]


def weigh(value: Any, limit: int = MAX_STRING) -> int:
    """About how many characters `str(value)` has, counted no further than past `limit`
    (a list that holds one big list a thousand times prints a thousand times its size)."""
    total = 0
    walked = 0
    stack = [value]
    while stack:
        item = stack.pop()
        walked += 1
        if not walked & 4095:  # the walk itself is work: charged as it goes (probe 29 H2)
            guard_steps(4096 // ITEMS_A_STEP)
        if isinstance(item, str | bytes):
            total += len(item) + 2
        elif isinstance(item, int):
            total += item.bit_length() // 3 + 2
        elif isinstance(item, list | tuple | set | frozenset):
            total += 2 + 2 * len(item)
            if total <= limit:
                stack.extend(item)
        elif isinstance(item, Mapping):
            total += 2 + 4 * len(item)
            if total <= limit:
                stack.extend(item.keys())
                stack.extend(item.values())
        elif (children := opened(item)) is not None:  # a dict view's, a namespace's
            total += 14 + 2 * len(children)  # `dict_values([…])`, `<Namespace {…}>`
            if total <= limit:
                stack.extend(children)
        else:
            total += 24
        if total > limit:
            return total
    return total


def text_weight(value: Any, what: str = "the value") -> int:
    """The characters `str(value)` has (a text's length, anything else `weigh`ed), refused
    past `MAX_STRING` before it is made: what a guard or a filter makes text of may be a list
    holding one long text thousands of times (`join(d=[s]*3000)`, `urlize(target=…)`: 3 GB
    made text before the size was refused, probe 53-7)."""
    if isinstance(value, str):
        return len(value)
    refuse_view(value)
    weight = weigh(value)
    if weight > MAX_STRING:
        raise TemplateLimitError(f"{what} prints more than {MAX_STRING:,} characters")
    return weight


def _as_text(value: Any, what: str) -> Any:
    """`value` as the text a filter makes of it (`str`), weighed first (`text_weight`); a text
    or an undefined value as it is."""
    if isinstance(value, str | Undefined):
        return value
    text_weight(value, what)
    return str(value)


def _refuse_wide(number: str | None, what: str) -> None:
    if number == "*":
        raise TemplateLimitError(f"a {what} taken from an argument (`*`) in a format")
    if number and len(number) > 3:
        raise TemplateLimitError(f"a format {what} over {MAX_WIDTH} characters")


def check_percent(template: str | bytes, args: Any) -> None:
    """`template % args` within the limits: no `*` widths, no width or precision of 1000
    or more, and arguments that do not print more than a string may hold: a mapping's
    value at each field that names it (`('%(a)s'*250) % {'a': s}` prints `s` 250 times, and
    built 500 MB before its result was refused: probe 29 L2). A bytes template is read as
    latin-1 (one character a byte, its fields the same), its keys looked up as bytes."""
    keys: Callable[[str], Any] = str
    if isinstance(template, bytes):
        template = template.decode("latin-1")
        keys = _latin1_bytes
    if "%(" not in template:  # `"%(fr)s" % rules.x` reads one entry of the view
        for arg in args if isinstance(args, tuple) else (args,):
            refuse_view(arg)
    fields = 0
    names: list[str] = []
    unnamed = False
    escaped = 1
    for field in _percent_fields(template):
        _refuse_wide(field.width, "width")
        _refuse_wide(field.precision, "precision")
        fields += 1
        if field.name is not None:
            names.append(field.name)
        elif field.conversion != "%":
            unnamed = True
        if field.conversion in "ra":  # `\U0001f600` for one character: ten
            escaped = ESCAPED
    if not fields:
        return
    printed = len(template) + fields * 2 * MAX_WIDTH
    if names and isinstance(args, Mapping):
        limit = (MAX_STRING - printed) // escaped
        printed += escaped * _named_weight(names, args, limit, keys)
        if unnamed:  # `'%a%(a)s' % m`: a field of no name prints all of `m` (probe 38 H1)
            printed += escaped * weigh(args, MAX_STRING)
    else:
        printed += escaped * weigh(args)
    if printed > MAX_STRING:
        raise TemplateLimitError(f"`%` would build more than {MAX_STRING:,} characters")


class _Field(NamedTuple):
    """A `%` field: the key it names (None: none), its width and precision as written."""

    name: str | None
    width: str | None
    precision: str | None
    conversion: str


def _percent_fields(template: str) -> Iterator[_Field]:
    """The fields of `template % …` as CPython reads them, in linear time: a key runs to the
    `)` that balances its `(` (`%((a))s` names `(a)`; a pattern reading to the first `)`
    named `(a`, a key the mapping lacked, so its value was weighed as nothing and built 3 GB:
    probe 37 H3). Each `(` is balanced in one pass over the template, not from each `%(`."""
    closes = _balanced(template) if "%(" in template else {}
    position = 0
    while (start := template.find("%", position)) >= 0:
        name = None
        at = start + 1
        if template.startswith("(", at):
            end = closes.get(at)
            if end is None:  # CPython: "incomplete format key", nothing printed
                return
            name, at = template[at + 1 : end], end + 1
        found = _PERCENT_SPEC.match(template, at)
        if found is None:  # a `%` (or its key) with nothing after it
            return
        yield _Field(name, found.group(1), found.group(2), found.group(3))
        position = found.end()


def _balanced(text: str) -> dict[int, int]:
    """For each `(` of `text` that a `)` balances, where that `)` is."""
    opened: list[int] = []
    closes: dict[int, int] = {}
    for found in _PARENTHESES.finditer(text):
        if found.group() == "(":
            opened.append(found.start())
        elif opened:
            closes[opened.pop()] = found.start()
    return closes


def _latin1_bytes(name: str) -> bytes:
    return name.encode("latin-1")


def _named_weight(
    names: list[str], args: Mapping[Any, Any], limit: int, keys: Callable[[str], Any] = str
) -> int:
    """What the values `names` name in `args` print, each once per field that names it
    (looked up as `keys` makes them: bytes for a bytes template), counted no further than
    past `limit`. A name `args` lacks is weighed as all of `args`: `%` fails on it, unless
    the mapping answers a key it does not list."""
    weights: dict[str, int] = {}
    printed = 0
    for name in names:
        if name not in weights:
            try:
                weights[name] = weigh(args[keys(name)], limit)
            except LookupError:
                weights[name] = weigh(args, limit)
        printed += weights[name]
        if printed > limit:
            break
    return printed


def check_brace_format(template: str, args: Iterable[Any]) -> None:
    """`template.format(...)` within the limits: no width from an argument, no width or
    precision of 1000 or more, and the fields cannot print more than a string may hold."""
    for match in _BRACE_SPEC.finditer(template):
        if match.group(2):
            raise TemplateLimitError("a format width taken from an argument (`{:{}}`)")
        for number in _NUMBER.findall(match.group(1)):
            _refuse_wide(number, "width")
    fields = template.count("{")
    if fields:
        heaviest = max((weigh(arg) for arg in args), default=0)
        if _escapes(template):  # `{0!a}` prints `\U000e0001` for one character, as `%a` does
            heaviest *= ESCAPED
        if len(template) + fields * (heaviest + MAX_WIDTH) > MAX_STRING:
            raise TemplateLimitError(f"the format would build more than {MAX_STRING:,} characters")


def field_weight(value: Any, conversion: str | None, limit: int = MAX_STRING) -> int:
    """What one field of `str.format` prints of `value` (`weigh`, ten times for `!r` or `!a`,
    as `ESCAPED` says), counted no further than past `limit`."""
    if conversion in ("r", "a"):
        return ESCAPED * weigh(value, limit // ESCAPED + 1)
    return weigh(value, limit)


def _escapes(template: str) -> bool:
    """Whether a field of `template.format` is written `!r` or `!a` (`{{!r}}` is no field);
    a template `str.format` cannot read counts as one, the check staying on the safe side."""
    if "!" not in template:
        return False
    try:
        return any(part[3] in ("r", "a") for part in _FORMATTER.parse(template))
    except ValueError:  # `format` refuses it too
        return True


def _too_big(kind: str, limit: int, what: str) -> TemplateLimitError:
    return TemplateLimitError(f"`{kind}` would build more than {limit:,} {what}")


def check_binop(left: Any, operator: str, right: Any) -> None:
    """Refuse `left operator right` before it runs when its result would be too big."""
    texts = str | bytes
    if operator == "*":
        for seq, count in ((left, right), (right, left)):
            if isinstance(seq, texts | list | tuple) and isinstance(count, int):
                text = isinstance(seq, texts)
                limit = MAX_STRING if text else MAX_ITEMS
                if len(seq) * count > limit:
                    raise _too_big("*", limit, "characters" if text else "items")
                return
        ints = isinstance(left, int) and isinstance(right, int)
        if ints and left.bit_length() + right.bit_length() > MAX_POWER_BITS:
            raise TemplateLimitError("`*` would build a number too large to print")
    elif operator == "+":
        if isinstance(left, texts) and isinstance(right, texts):
            limit, what = MAX_STRING, "characters"
        elif isinstance(left, list | tuple) and isinstance(right, list | tuple):
            limit, what = MAX_ITEMS, "items"
        else:
            return
        if len(left) + len(right) > limit:
            raise _too_big("+", limit, what)
    elif operator == "**":
        ints = isinstance(left, int) and isinstance(right, int)
        if ints and abs(left) > 1 and right * abs(left).bit_length() > MAX_POWER_BITS:
            raise TemplateLimitError("`**` would build a number too large to print")
    elif operator == "%" and isinstance(left, str | bytes):
        check_percent(left, right)  # bytes too: `b'%1999999999s' % (b'x',)` (probe 51 P51-7)


def guard_join(parts: Iterable[Any]) -> str:
    """`a ~ b ~ c`: the parts' printed size is known before they are joined."""
    total = 0
    for part in parts:
        refuse_view(part)
        total += len(part) if isinstance(part, str) else weigh(part)
        if total > MAX_STRING:
            raise TemplateLimitError(f"`~` would build more than {MAX_STRING:,} characters")
    return check_result("".join(map(str, parts)))


def guard_concat(parts: Iterable[str]) -> str:
    """What a block, a macro or a `{% set %}…{% endset %}` collected, joined within the
    output limit (the environment's `concat`)."""
    if not isinstance(parts, list):
        parts = list(parts)
    size = sum(map(len, parts))
    if size > MAX_OUTPUT:
        raise TemplateLimitError(f"the output passes {MAX_OUTPUT:,} characters")
    budget = current()
    if budget is not None:
        budget.charge(size)
    return "".join(parts)


def guard_finalize(value: Any) -> Any:
    """What `{{ … }}` prints: a value whose text would be too long is refused before
    `str()` builds it (a list that holds one big list many times)."""
    if value.__class__ is str:
        return value
    refuse_view(value)
    if isinstance(value, CONTAINERS) and weigh(value) > MAX_STRING:
        raise TemplateLimitError(f"the value prints more than {MAX_STRING:,} characters")
    if value.__class__ in (int, float, bool) or value is None:
        return value
    text = str(value)
    if "0x" in text and _ADDRESS.search(text):
        raise TemplateLimitError(ADDRESS_PRINTED)
    return text


ADDRESS_PRINTED = (
    "it prints a Python object (a function, a range, an object), not a value: its text"
    " holds a memory address, different at every build"
)


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]")
"""How Python's text of a function or object names its memory address: `{{ range }}`,
`{{ joiner() }}` printed `<function … at 0x7f…>`, a different card at every build. No
closing `>` is asked for: a format's precision cuts the text before it (`'%.51s' % (f,)`,
probe 21); cut before the first digit, what is left is the same at every build."""


def refuse_view(value: Any) -> None:
    """Refuse a content view (a table of values, `_items_as_attributes`) about to be made
    text: by `{{ … }}`, or first by a filter, `~`, `%` or `str.format` (`{{ rules.x | upper }}`
    printed Python's text of the dict), itself or inside a list, tuple, set or dict
    (`{{ [rules.x] }}`, `[rules.x]|join`: the text of a list holds its items' texts). The
    items looked at are bounded (MAX_VIEW_LOOKS): a printed list is bounded by `weigh`."""
    if getattr(value.__class__, "_items_as_attributes", False):
        raise PrintedTable(_table_printed(value))
    if not isinstance(value, (list, tuple, set, frozenset, dict, Namespace, *VIEWS, *HOLDERS)):
        return
    looks = 0
    stack: list[Any] = [value]
    while stack and looks < MAX_VIEW_LOOKS:
        item = stack.pop()
        looks += 1
        if not looks & 1023:  # the walk itself is work (probe 29 H2)
            guard_steps(1024 // ITEMS_A_STEP)
        if getattr(item.__class__, "_items_as_attributes", False):
            raise PrintedTable(_table_printed(item))
        if isinstance(item, (list, tuple, set, frozenset, *VIEWS)):
            stack.extend(itertools.islice(item, MAX_VIEW_LOOKS))
        elif isinstance(item, dict):
            stack.extend(itertools.islice(item.values(), MAX_VIEW_LOOKS))
        elif isinstance(item, (Namespace, *HOLDERS)):
            stack.extend(itertools.islice(opened(item), MAX_VIEW_LOOKS))


MAX_VIEW_LOOKS = 10_000
"""Items `refuse_view` looks at inside one printed list or dict."""


TEXT_FILTERS = frozenset(
    ("upper", "lower", "capitalize", "title", "string", "trim", "center", "truncate")
    + ("wordwrap", "wordcount", "striptags", "replace", "format", "indent", "urlize")
    + ("e", "escape", "forceescape", "safe", "urlencode", "pprint")
)
"""Filters that make a text of what they are given (a view given to one prints its dict)."""


WORD_FILTERS = frozenset(("title", "wordwrap", "striptags", "urlize", "wordcount"))
"""Text filters that run Python for each word of what they are given (Jinja's `title` calls
a function a word, ~40 ms for 1,000,000 characters), or make a text of each (`wordcount`'s
`findall`: ~60 ns a letter, 100 times `upper`'s): the letters they read are charged as
built, not an eighth of them as a text read in C is (3,000 `s|title` of a 1,000,000-letter
text were each one step and an eighth: a rulebook's 5 s deadline in each language, probe 40
H3; 105 `s|wordcount` of 99,000 letters in each language were ~0.65 s of validate within
the rulebook's share, budget60)."""


class PrintedTable(ValueError):
    """`{{ … }}` printed a content view (a dict): said in its own words, at the template."""


def _table_printed(view: Mapping[Any, Any]) -> str:
    """Why printing a content view is refused: Python's text of a dict (`{'de': 'Hallo'}`)
    is never what a rulebook or a card means to print. Its keys are cut (`bounded_repr`): a
    rulebook may add one that prints gigabytes (`rules.update({k: 1})`)."""
    keys = [_key_shown(key) for key in itertools.islice(view, 6)]
    listed = ", ".join(keys[:5]) + (", …" if len(keys) > 5 else "")
    return (
        f"`{{{{ … }}}}` prints a table of values ({listed or 'empty'}), not a text: print one"
        " of its entries, or, if it is a text by language, give it a text in each of the"
        " game's languages"
    )


def _key_shown(key: Any) -> str:
    if isinstance(key, str):
        return str.__str__(key) if len(key) <= SHOWN_KEY else f"{key[:SHOWN_KEY]}…"
    return bounded_repr(key, SHOWN_KEY)


SHOWN_KEY = 60
"""Characters of a key a message names."""


_WIDTH_METHODS = frozenset({"ljust", "rjust", "center", "zfill"})


def check_call(obj: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Refuse a method call a template makes when its result would be too big."""
    owner: Any = getattr(obj, "__self__", None)
    name = getattr(obj, "__name__", "")
    _charge_arguments(args, kwargs)
    if isinstance(owner, str | bytes):
        charge_read(owner, args[0] if name in _SCANNING and args else None)
        if name in _WIDTH_METHODS and args and isinstance(args[0], int) and args[0] > MAX_STRING:
            raise TemplateLimitError(f"{name}() would build more than {MAX_STRING:,} characters")
        if name == "expandtabs":
            size = args[0] if args else kwargs.get("tabsize", 8)
            text: Any = owner
            tabs = text.count("\t" if isinstance(owner, str) else b"\t")
            if isinstance(size, int) and len(owner) + tabs * size > MAX_STRING:
                raise TemplateLimitError(f"expandtabs() would build more than {MAX_STRING:,}")
        if name == "replace" and len(args) >= 2:
            old, new = args[0], args[1]
            if isinstance(old, type(owner)) and isinstance(new, type(owner)):
                whole: Any = owner
                count = whole.count(old) if old else len(owner) + 1
                if len(owner) + count * max(len(new) - len(old), 0) > MAX_STRING:
                    raise TemplateLimitError(
                        f"replace() would build more than {MAX_STRING:,} characters"
                    )
        if name == "join" and args:
            items = args[0]  # a list already: `call_args` lists an iterator's items
            total = len(owner) * (len(items) if isinstance(items, list | tuple) else 0)
            if total + weigh(items) > MAX_STRING:
                raise TemplateLimitError(f"join() would build more than {MAX_STRING:,}")
        if name == "translate" and args and isinstance(args[0], Mapping | list | tuple):
            table = args[0].values() if isinstance(args[0], Mapping) else args[0]
            longest = max((size_of(v) for v in table), default=1)  # a list: by code point
            if len(owner) * max(longest, 1) > MAX_STRING:
                raise TemplateLimitError(f"translate() would build more than {MAX_STRING:,}")
        if name in ("encode", "decode"):
            _check_codec(args[0] if args else kwargs.get("encoding", "utf-8"))
        if name in _SCANNING:
            _check_scanned(owner, args[0] if args else kwargs.get("sep"), name)
        if name in ("startswith", "endswith") and args and isinstance(args[0], tuple):
            # each prefix whose ends match costs a comparison of its length
            steps = sum(min(size_of(p), len(owner)) for p in args[0])
            if steps > MAX_SCANNED:
                raise TemplateLimitError(
                    f"{name}() of {len(args[0]):,} prefixes costs more than {MAX_SCANNED:,} steps"
                )
    if args and _fills_dict(obj):
        guard_hashed(args[0] if name == "fromkeys" else _pair_keys(args[0]))
    if name == "changed" and isinstance(owner, LoopContext):
        guard_compared(args)  # compared with the last value given, `!=` in C
    if isinstance(owner, int) and name == "to_bytes":
        length = args[0] if args else kwargs.get("length", 1)
        if isinstance(length, int) and length > MAX_STRING:
            raise TemplateLimitError(f"to_bytes() would build more than {MAX_STRING:,} bytes")
    if isinstance(owner, list | tuple) and name in ("count", "index", "remove", "sort"):
        guard_compared(owner)  # compares the items (with the argument), like `in`
        if name == "index" and args:  # not found: "%R is not in list", made in C
            _refuse_quoted(args[0], name)
    if isinstance(owner, range) and name in ("count", "index"):
        guard_compared(owner)  # with anything but an int, over every number in C
    if isinstance(owner, list):
        if name == "extend" and args and len(owner) + _length(args[0]) > MAX_ITEMS:
            raise TemplateLimitError(f"a list of more than {MAX_ITEMS:,} items")
        if name in ("append", "insert") and len(owner) >= MAX_ITEMS:
            raise TemplateLimitError(f"a list of more than {MAX_ITEMS:,} items")


def _refuse_quoted(value: Any, name: str) -> None:
    """Refuse to give `value` to a call whose error quotes it whole (`[1].index(k)` makes
    `repr(k)` in C when `k` is not there: a tuple of 3,000 references to one 999,999-character
    text, 3 GB, probe 53-8) when it holds texts that would print more than `MAX_STRING`; a text
    is never refused (it is no longer than a template may build)."""
    if not isinstance(value, str | bytes) and weigh(value) > MAX_STRING:
        raise TemplateLimitError(
            f"{name}() of a value that prints more than {MAX_STRING:,} characters (its error"
            " would print it)"
        )


READ_PER_UNIT = 8
"""Characters a method or filter reads for one character built (`Budget.charge`): reading
in C is cheap, but a call that returns little (`rfind`, `|striptags`, `|wordcount`) after
reading a long text was one step, and 400 of them a card face took 1.5 s (probe 25)."""
SCANNED_PER_UNIT = 2_048
"""Comparisons (text × searched characters) of a scanning method for one character built:
`rfind` of a 1,000-character needle in 20,000 characters is 3-6 ms, ~10,000 built."""


def charge_read(text: str | bytes | int, other: Any = None) -> None:
    """Charge the render's budget for reading `text` (or that many characters; and comparing
    it with `other`, a scanning method's argument): a long text read many times is bounded
    as built text is."""
    budget = current()
    length = text if isinstance(text, int) else len(text)
    if budget is None or length < READ_PER_UNIT:
        return
    read = length // READ_PER_UNIT
    if isinstance(other, str | bytes):
        read += length * len(other) // SCANNED_PER_UNIT
    budget.read(read)


def _charge_arguments(args: Iterable[Any], kwargs: Mapping[str, Any]) -> None:
    """Every text given to a call, filter or test counts as read (`charge_read`), a tuple as
    hashed (`charge_hashed`) and a large number by its digits, whatever the callee does
    with them: what a step reads is charged by its size, not patched call by call as each
    one is found to read a long text in C."""
    arguments = (*args, *kwargs.values())
    if len(arguments) >= ITEMS_A_STEP:  # `f(*L)`: 10,000 arguments the guards and the
        guard_steps(len(arguments) // ITEMS_A_STEP)  # callee go over (probe 28 H6)
    for arg in arguments:
        if isinstance(arg, str | bytes):
            if len(arg) >= READ_PER_UNIT:
                charge_read(arg)
        elif isinstance(arg, tuple):
            charge_hashed(arg)
        elif isinstance(arg, CONTAINERS) and _length(arg) >= ITEMS_A_STEP:
            guard_steps(_length(arg) // ITEMS_A_STEP)  # gone over by the guards or the callee
        elif arg.__class__ is int and arg.bit_length() > BITS_A_STEP:
            charge_read(arg.bit_length() ** 2 // BITS_SQUARED_A_UNIT)


BITS_A_STEP = 64
BITS_SQUARED_A_UNIT = 65_536
"""An operation on integers of a and b bits costs about a·b / 1,400,000 µs in C (`n % m` of
4,050 by 2,040 bits, ~6 µs: probe 27 H3): `a·b // BITS_SQUARED_A_UNIT` characters are
charged as read (`charge_read`), ~2 units of work for those 6 µs."""


def number_work(left: Any, right: Any) -> int:
    """What `left op right` costs past a plain step, when both are integers (0 otherwise)."""
    if left.__class__ is int and right.__class__ is int:
        return left.bit_length() * right.bit_length() // BITS_SQUARED_A_UNIT
    return 0


def charge_hashed(value: tuple[Any, ...]) -> None:
    """`hash(value)` walks every item counted through the tuples in it (`guard_tuple`'s
    count, kept by the budget): charged as a comparison walks them (`ITEMS_A_STEP`).
    A 9,999-item tuple of 4,050-bit numbers hashed in 2.2 ms for one step (probe 27 H2)."""
    budget = current()
    if budget is not None:
        items = _hashed_items(value, budget)
        if items >= ITEMS_A_STEP:
            guard_steps(items // ITEMS_A_STEP)


def _check_scanned(text: Any, other: Any, name: str) -> None:
    """`text.name(other)` compares each place of `text` with all of `other`: refuse it past
    `MAX_SCANNED` (see there)."""
    if isinstance(other, str | bytes) and len(text) * len(other) > MAX_SCANNED:
        raise TemplateLimitError(
            f"{name}() of a {len(text):,}-character text by {len(other):,} characters costs"
            f" more than {MAX_SCANNED:,} steps"
        )


def guard_hashed(keys: Iterable[Any]) -> None:
    """Refuse keys that a set or dict would hash alike while they differ, more than
    `MAX_SAME_HASH` of them (see there); `keys` is a list, or a mapping's keys."""
    same: dict[int, list[Any]] = {}
    budget = current()
    walked = 0
    for count, key in enumerate(keys, 1):
        if not count & 1023:  # the walk itself is work (probe 29 H2: `dict(P)` of 10,000)
            guard_steps(1024 // ITEMS_A_STEP)
        walked += _hashed_items(key, budget)
        if walked > MAX_HASHED:
            raise TemplateLimitError(
                f"the keys of one set or dict hash more than {MAX_HASHED:,} items in all"
            )
        try:
            value = hash(key)
        except TypeError:
            continue  # unhashable: the call itself says so
        kept = same.setdefault(value, [])
        if len(kept) < MAX_SAME_HASH + 1 and key not in kept:
            kept.append(key)
            if len(kept) > MAX_SAME_HASH:
                raise TemplateLimitError(
                    f"more than {MAX_SAME_HASH} different values with one hash (integers"
                    " that differ by multiples of 2**61 - 1) in one set or dict: each costs"
                    " as many comparisons as there are"
                )


def hashes(value: Any) -> bool:
    """Whether `value - other` builds a set of `value`'s items (a dict's keys or items)."""
    return isinstance(value, KeysView | ItemsView | set | frozenset)


def in_order(left: Any, result: Any) -> Any:
    """`left - right` (`result`) in `left`'s order when it is a set (`d.keys() - […]`): a
    set's order follows the hash seed (PYTHONHASHSEED), so a rulebook that printed it was
    not the same PDF twice. As a dict's keys, so that `- …` can follow again; the items of
    a set on the left (no order of its own) in the order of their texts."""
    if not isinstance(result, set | frozenset):
        return result
    if isinstance(left, set | frozenset):
        items: Iterable[Any] = sorted(left, key=lambda item: (type(item).__name__, repr(item)))
    else:
        items = left
    return dict.fromkeys(item for item in items if item in result).keys()


def _pair_keys(items: Any) -> Iterable[Any]:
    """The keys `dict(items)` or `d.update(items)` would insert: a mapping's keys, or the
    first item of each pair."""
    if isinstance(items, Mapping):
        return items.keys()
    if isinstance(items, list | tuple):
        return [pair[0] for pair in items if isinstance(pair, list | tuple) and pair]
    return ()


_ENV: list[Any] = []


def _attribute_env() -> Any:
    """A sandbox to read an item's attribute with, as `unique(attribute=…)` does."""
    if not _ENV:
        from jinja2.sandbox import SandboxedEnvironment

        _ENV.append(SandboxedEnvironment())
    return _ENV[0]


def _unique_checked(value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """`unique` compares its items (or their `attribute`) with `==` and keeps them in a set."""
    attribute = args[1] if len(args) > 1 else kwargs.get("attribute")
    value = _attribute_values(value, attribute)
    _sorted_checked(value, args, kwargs)  # the attribute's values already
    if isinstance(value, list | tuple):
        guard_hashed(value)


def _check_codec(encoding: Any) -> None:
    """Refuse a codec that is not one of `PLAIN_CODECS` (by its canonical name)."""
    try:
        name = codecs.lookup(encoding).name if isinstance(encoding, str) else ""
    except LookupError:
        name = ""
    if name not in PLAIN_CODECS:
        raise TemplateLimitError(
            f"the codec {bounded_repr(encoding, 40)} is not allowed; use utf-8, utf-16, utf-32,"
            " ascii or latin-1"
        )


def _length(value: Any) -> int:
    """How many items `value` holds when it says so (a range, a dict view), else 0."""
    try:
        return len(value)
    except TypeError:
        return 0


def listed(value: Any, what: str = "to join or add up") -> Any:
    """An iterator's items as a list, no more than `MAX_ITEMS` of them, so that what is built
    from all of them (`join`, `sum`) can be sized before it is built; anything else as it is."""
    if isinstance(value, str | bytes | list | tuple):
        return value
    try:
        items = list(itertools.islice(iter(value), MAX_ITEMS + 1))
    except TypeError:
        return value  # not iterable: the callee says so
    if len(items) > MAX_ITEMS:
        raise TemplateLimitError(f"more than {MAX_ITEMS:,} items {what}")
    return items


def call_args(obj: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """The arguments of a method call, an iterator given to `str.join` or `list.extend`
    listed first (`"x"*999999).join(range(1500)|map("string"))` built 1.5 GB unsized)."""
    owner: Any = getattr(obj, "__self__", None)
    name = getattr(obj, "__name__", "")
    if args and (
        (isinstance(owner, str | bytes) and name == "join")
        or (isinstance(owner, list) and name == "extend")
        or (_fills_dict(obj) and not isinstance(args[0], Mapping))
    ):
        return (listed(args[0]), *args[1:])
    return args


def _fills_dict(obj: Any) -> bool:
    """`dict(…)`, `{}.fromkeys(…)` or `d.update(…)`: a call that hashes all of its argument."""
    if obj is dict:
        return True
    owner: Any = getattr(obj, "__self__", None)
    name = getattr(obj, "__name__", "")
    is_dict = isinstance(owner, dict) or (isinstance(owner, type) and issubclass(owner, dict))
    return is_dict and name in ("fromkeys", "update")


GROWING = frozenset({"append", "extend", "insert", "update", "setdefault", "add", "fromkeys"})


def check_grown(obj: Any) -> None:
    """After a method call: a list, dict or set the template grew in place stays within
    `MAX_ITEMS` (`d.update(d.fromkeys(range(a, b)))` in a loop adds 100,000 keys a turn)."""
    owner: Any = getattr(obj, "__self__", None)
    grows = getattr(obj, "__name__", "") in GROWING
    if grows and isinstance(owner, list | dict | set) and len(owner) > MAX_ITEMS:
        raise TemplateLimitError(f"a list or dict of more than {MAX_ITEMS:,} items")


def _width_args(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    numbers = [a for a in (*args, *kwargs.values()) if isinstance(a, int)]
    for n in numbers:
        if not isinstance(n, bool) and abs(n) > MAX_WIDTH:
            # a negative one said as such (`center(-5000)` said "a width over 1000": P51-L2)
            if n > 0:
                raise TemplateLimitError(f"a width over {MAX_WIDTH} characters")
            raise TemplateLimitError(f"a width under -{MAX_WIDTH} (held to {MAX_WIDTH} either way)")


def _wrapped(value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """`wordwrap`: a width, a text no longer than `MAX_WRAPPED`, and a `wrapstring` that,
    put between every two lines (at most a line per character), stays within the limit
    (50,000 lines joined with a 1,000,000-character wrapstring asked for 50 GB)."""
    _width_args(args, kwargs)
    if isinstance(value, str) and len(value) > MAX_WRAPPED:
        raise TemplateLimitError(f"wordwrap over a text of more than {MAX_WRAPPED:,} characters")
    between = args[2] if len(args) > 2 else kwargs.get("wrapstring")
    lines = len(value) + 1 if isinstance(value, str) else 0  # a line a character at most
    if isinstance(between, str) and lines + lines * len(between) > MAX_STRING:
        raise TemplateLimitError(f"wordwrap would build more than {MAX_STRING:,} characters")


def _indented(value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """`indent` adds its width (a number of spaces, or a string) to every line: 500,000
    lines at width 1,000 built 500,000,000 characters (1 GB) before the result's check."""
    _width_args(args, kwargs)
    width = args[0] if args else kwargs.get("width", 4)
    step = len(width) if isinstance(width, str) else width if isinstance(width, int) else 0
    text = str(value)
    if len(text) + (text.count("\n") + 1) * max(step, 0) > MAX_STRING:
        raise TemplateLimitError(f"indent would build more than {MAX_STRING:,} characters")


def _truncated(value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """`truncate(length, killwords, end, leeway)`: widths, and Jinja's own asserts said in
    the designer's words (`truncate(10, end="…"*20)` said "AssertionError: expected length
    >= 20, got 10": probe 51 L1)."""
    _width_args(args, kwargs)
    names = ("length", "killwords", "end", "leeway")
    given = {**dict(zip(names, args, strict=False)), **kwargs}
    length, end, leeway = given.get("length", 255), given.get("end", "..."), given.get("leeway")
    if isinstance(length, int) and isinstance(end, str) and length < len(end):
        raise FilterArgumentError(
            f"truncate(): its end text ({len(end):,} characters) is longer than the length"
            f" it cuts to ({length:,}); give a length of at least {len(end):,}"
        )
    if isinstance(leeway, int) and leeway < 0:
        raise FilterArgumentError(f"truncate(): a leeway of {leeway:,}; it cannot be negative")


def _sliced(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """`slice(n)`: a count, and at least one slice (`slice(0)` said "ZeroDivisionError:
    integer division or modulo by zero")."""
    _count_arg(args, kwargs)
    slices = args[0] if args else kwargs.get("slices")
    if isinstance(slices, int) and slices < 1:
        raise FilterArgumentError("slice(): a count of slices under 1; give 1 or more")


def _count_arg(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    numbers = [a for a in (*args[:1], *kwargs.values()) if isinstance(a, int)]
    if any(n > MAX_ITEMS for n in numbers):
        raise TemplateLimitError(f"a count over {MAX_ITEMS:,}")


def _weighed_value(value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    """The characters `value` prints, refused past `MAX_STRING`."""
    printed = weigh(value)
    if printed > MAX_STRING:
        raise TemplateLimitError(f"the value prints more than {MAX_STRING:,} characters")
    return printed


def _shape(value: Any) -> tuple[int, int]:
    """`weigh(value)` and how deep its lists and mappings nest, both counted no further than
    just past the limit."""
    total, deepest = 0, 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack and total <= MAX_STRING:
        item, depth = stack.pop()
        guard_steps(1)  # each container walked (and `weigh` of each other item charges its own)
        children = opened(item)
        if children is not None:
            deepest = max(deepest, depth)
            total += 2 + 4 * len(children)
            stack.extend((child, depth + 1) for child in children)
        else:
            total += weigh(item)
    return total, deepest


def _json_indented(value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """`tojson(indent=…)` puts the indent once per level before every item: an indent of
    100,000,000 spaces on a ten-item list built 2 GB before the result's check."""
    indent = args[0] if args else kwargs.get("indent")
    step = len(indent) if isinstance(indent, str) else indent if isinstance(indent, int) else 0
    if step > MAX_WIDTH:
        raise TemplateLimitError(f"a tojson indent over {MAX_WIDTH} characters")
    total, depth = _shape(value)
    if total * (1 + max(step, 0) * depth) > MAX_STRING:
        raise TemplateLimitError(f"the value prints more than {MAX_STRING:,} characters")


def _pprinted(value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """`pprint` formats every level of a value again and indents it: its cost and its text
    grow as its weight times its depth (a 130-byte rulebook line, 250 levels over an
    800,000-character list, ran 31 s in one call, past the deadline: probe 27 M1)."""
    total, depth = _shape(value)
    if total * max(depth, 1) > MAX_STRING:
        raise TemplateLimitError(
            f"pprint of this value would cost more than {MAX_STRING:,} characters (its size"
            " times how deep it nests)"
        )
    charge_read(total * max(depth, 1))


def _attribute_values(value: Any, attribute: Any, multi: bool = False) -> Any:
    """What a filter given `attribute=` reads of each item of `value` (a list or tuple),
    as it reads it (Jinja's `make_attrgetter`, `sort`'s comma-separated names too): the
    values the filter joins, compares or keeps, weighed in place of the items that hold them
    (an object is 24 characters, its attribute a million: probe 51 P51-4/5). `value` itself
    without an attribute or a list."""
    if attribute is None or not isinstance(value, list | tuple):
        return value
    from jinja2.filters import make_attrgetter, make_multi_attrgetter

    env = _attribute_env()
    getter = make_multi_attrgetter(env, attribute) if multi else make_attrgetter(env, attribute)
    guard_steps(len(value) // ITEMS_A_STEP)
    return [getter(item) for item in value]


def _joined(value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    separator = args[0] if args else kwargs.get("d", "")
    attribute = args[1] if len(args) > 1 else kwargs.get("attribute")
    value = _attribute_values(value, attribute)
    items = value if isinstance(value, list | tuple) else ()
    between = text_weight(separator, "join's separator")
    made = 0 if isinstance(separator, str) else between  # made text, even with no items
    if made + between * len(items) + weigh(items) > MAX_STRING:
        raise TemplateLimitError(f"join would build more than {MAX_STRING:,} characters")


def _replaced(value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Jinja's `replace` makes text of what it replaces and of what it puts in its place
    (`str(new)`): each weighed before, then sized as `str.replace` is (probe 53-7: a list of
    3,000 references to one 999,999-character text was made 3 GB of text)."""
    if len(args) >= 2:
        old = _as_text(args[0], "replace's first argument")
        new = _as_text(args[1], "replace's second argument")
        check_call(str(value).replace, (old, new), {})


def _formatted(value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    check_percent(str(value), kwargs or args)


def _urlized(value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """`urlize` looks at each word in Python (~3 µs a word: a step each), and at each word
    that is no link, at every scheme of `extra_schemes` too; a word costs the square of its
    length (`MAX_URLIZED_WORD`)."""
    if isinstance(value, Undefined):
        return  # said by urlize itself, as by any filter
    text = value if isinstance(value, str) else str(value)  # made once: a text may be long
    words = text.split()
    guard_steps(len(words))
    longest = max(map(len, words), default=0)
    if longest > MAX_URLIZED_WORD:
        raise TemplateLimitError(
            f"urlize of a word of {longest:,} characters (more than {MAX_URLIZED_WORD:,}):"
            " it moves the word's closing brackets one at a time"
        )
    _urlized_size(text, len(words), args, kwargs)
    backtracked = _tail_search_cost(text)
    if backtracked > MAX_URLIZE_BACKTRACK:
        raise TemplateLimitError(
            f"urlize of words holding long runs of `.`, `,`, `)` or `>` that do not end them:"
            f" its search for a word's closing punctuation would cost {backtracked:,} steps"
            f" (the square of each run; more than {MAX_URLIZE_BACKTRACK:,})"
        )
    guard_steps(backtracked // BACKTRACK_A_STEP)
    schemes = args[4] if len(args) > 4 else kwargs.get("extra_schemes")
    if isinstance(schemes, Sized) and not isinstance(schemes, str) and len(schemes):
        compared = len(words) * len(schemes)
        if compared > MAX_SCHEMES_COMPARED:
            raise TemplateLimitError(
                f"urlize of {len(words):,} words with {len(schemes):,} extra schemes: more"
                f" than {MAX_SCHEMES_COMPARED:,} words times schemes"
            )
        guard_steps(compared // SCHEMES_A_STEP)


MAX_URLIZE_BACKTRACK = 4_000_000
"""What `urlize`'s search for a word's closing punctuation may cost in one call, counted as
the square of each run of `.`, `,`, `)`, `>` (or `&gt;`) inside a word that ends with one
(`_tail_search_cost`): Jinja runs `re.search(r"([)>.,\n]|&gt;)+$", word)` on such a word, and
from every place in a run it eats the rest of the run before failing where the run ends,
so a run costs its square. `(("."*3998 ~ "x. ")*240)|urlize`, 61 bytes, took 55 s in one
call, out of the deadline's reach (probe 51 P51-8): ~15 ns a squared character (2 shared
cores under load), so this bound is ~60 ms."""
BACKTRACK_A_STEP = 256
"""Of those squared characters, how many count one step (a card face's step is ~4 µs)."""
_TAIL_RUN = re.compile(r"(?:[)>.,\n]|&gt;)+")
_TAIL_ENDS = (")", ">", ".", ",", "\n", "&gt;")


def _tail_search_cost(text: str) -> int:
    """What `urlize`'s trailing-punctuation search costs on `text` (see
    `MAX_URLIZE_BACKTRACK`): over the words (of the escaped text, as urlize splits it) that
    end with one of `_TAIL_ENDS`, the square of each run of them but the word's last (which
    the search matches at its first place, linearly). Linear."""
    cost = 0
    for word in re.split(r"\s+", str(escape(text))):
        if word.endswith(_TAIL_ENDS):
            for run in _TAIL_RUN.finditer(word):
                if run.end() < len(word):
                    cost += (run.end() - run.start()) ** 2
    return cost


LINK_MARKUP = 64
"""Characters of markup `urlize` writes around a link besides its address twice and its
`target` and `rel`: `<a href="…" rel="noopener" target="…">…</a>` and an escape or two."""


def _urlized_size(text: str, words: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Refuse an `urlize` whose result may pass the longest text a template builds, before
    it is built: it writes its `target` and `rel` into every link (escaped: up to six
    characters each), so a 71-character line that urlized 2,000 links with a 999,999
    character `target` built 4 GB before its result was measured (probe 51)."""
    extra = 0
    for at, name in ((2, "target"), (3, "rel")):
        given = args[at] if len(args) > at else kwargs.get(name)
        if given is not None and not isinstance(given, Undefined):
            extra += 6 * text_weight(given, f"urlize's {name}")
    limit = MAX_STRING
    budget = current()
    if budget is not None:
        limit = min(limit, budget.max_created - budget.created)
    most = 2 * len(text) + words * (LINK_MARKUP + extra)
    if most > limit:
        raise TemplateLimitError(
            f"urlize of {words:,} words with a target and rel of {extra // 6:,} characters"
            f" may build {most:,} characters (more than {limit:,}): it writes them into every"
            " link"
        )


MAX_SCHEMES_COMPARED = 2_000_000
"""Words times `extra_schemes` one `urlize` may compare, each in Python (~125 ns): 499,000
words with 1,000 schemes took 67 s in one call, out of the deadline's reach."""
SCHEMES_A_STEP = 32
"""Of those comparisons, how many count one step (a card face's step is ~4 µs)."""


def _summed(value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """`sum` adds up with `+`: over lists or tuples (`start=[]`) it makes a new one at every
    item, copying all it holds so far (100,000 one-item lists copied 5·10⁹ references in C,
    80 s), so those copies are counted before it runs."""
    if isinstance(value, list | tuple) and weigh(value) > MAX_STRING:
        raise TemplateLimitError(f"sum over more than {MAX_STRING:,} items")
    start = args[1] if len(args) > 1 else kwargs.get("start", 0)
    if not isinstance(start, list | tuple) or not isinstance(value, list | tuple):
        return
    attribute = args[0] if args else kwargs.get("attribute")
    if attribute is not None:
        from jinja2.filters import make_attrgetter

        getter = make_attrgetter(_attribute_env(), attribute)
        value = [getter(item) for item in value]
    held, copied = len(start), 0
    for item in value:
        held += size_of(item)
        copied += held
        if copied > MAX_SCANNED:
            raise TemplateLimitError(
                f"sum of lists would copy more than {MAX_SCANNED:,} items (each `+` copies"
                " all so far): join them with a loop and `extend`"
            )


def _rounded(value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """`round(precision)` of an integer computes `10 ** -precision` in C: `1|round(-30000000)`
    took 32 s in one call (probe 29 H3)."""
    precision = args[0] if args else kwargs.get("precision", 0)
    if isinstance(precision, int) and abs(precision) > MAX_WIDTH:
        raise TemplateLimitError(f"round() to more than {MAX_WIDTH} digits")


def _sorting(name: str) -> Callable[[Any, tuple[Any, ...], dict[str, Any]], None]:
    """The check of comparing filter `name` (`_sorted_checked`, which knows where each takes
    its `attribute`)."""

    def check(value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        _sorted_checked(value, args, kwargs, name)

    return check


def _naming(kind: str, at: int) -> Callable[[Any, tuple[Any, ...], dict[str, Any]], None]:
    """The check of a filter that calls the test or filter (`kind`) its argument at `at`
    names (`select("odd")`, `map("upper")`): a name that is no text names none, and Jinja's
    error quotes it whole (`No test named ('xxx…', …)`: the repr of a tuple holding one long
    text 3,000 times, 3 GB, probe 53-8), so it is said here, cut (an undefined name is left
    to Jinja, which says it in its own words)."""

    def check(value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        name = args[at] if len(args) > at else None
        if name is not None and not isinstance(name, str | Undefined):
            raise TemplateRuntimeError(f"No {kind} named {bounded_repr(name, 60)}.")

    return check


FILTER_CHECKS: dict[str, Callable[[Any, tuple[Any, ...], dict[str, Any]], object]] = {
    "round": _rounded,
    "center": lambda v, a, k: _width_args(a, k),
    "indent": _indented,
    "wordwrap": _wrapped,
    "truncate": _truncated,
    "batch": lambda v, a, k: _count_arg(a, k),
    "slice": lambda v, a, k: _sliced(a, k),
    "join": _joined,
    "replace": _replaced,
    "format": _formatted,
    "urlize": _urlized,
    "sum": _summed,
    "trim": lambda v, a, k: _check_scanned(
        v if isinstance(v, str) else "", a[0] if a else k.get("chars"), "trim"
    ),
    "unique": lambda v, a, k: _unique_checked(v, a, k),
    "string": _weighed_value,
    "tojson": _json_indented,
    "pprint": _pprinted,
    "e": _weighed_value,
    "escape": _weighed_value,
    "forceescape": _weighed_value,
    "urlencode": _weighed_value,
    "xmlattr": _weighed_value,
    # filters that compare items with each other, inside C like `==`
    **{name: _sorting(name) for name in ("sort", "min", "max", "dictsort", "groupby")},
    # filters that call a test or a filter by the name they are given
    "map": _naming("filter", 0),
    **{name: _naming("test", 0) for name in ("select", "reject")},
    **{name: _naming("test", 1) for name in ("selectattr", "rejectattr")},
}


MAX_SAID = 300
"""Characters of an error's own text a diagnostic repeats: Python's messages quote the value
(`could not convert string to float: 'xxx…'`), which a template may make a megabyte long."""


def said(exc: BaseException) -> str:
    """The error's text for a diagnostic, cut to `MAX_SAID` characters, and made from no more
    of its arguments than that: `str()` of a `KeyError` is the repr of its key, and a tuple of
    3,000 references to one 999,999-character text was 3 GB of text before it was cut (probe
    53-8). An error that writes its own text (`__str__`) is asked for it, as before."""
    quoted = _quoted_args(exc)
    if quoted is not None:
        return quoted
    text = str(exc)
    if len(text) <= MAX_SAID:
        return text
    return f"{text[:MAX_SAID]}… ({len(text):,} characters)"


def _quoted_args(exc: BaseException) -> str | None:
    """What Python's own `str(exc)` prints of arguments that are not one text (a `KeyError`'s
    repr of its key, the repr of the tuple of several, the text of a list), made by
    `bounded_repr`; None when `str(exc)` is the error's own text or its one text argument."""
    kind = type(exc).__str__
    if kind is not BaseException.__str__ and kind is not KeyError.__str__:
        return None
    args = exc.args
    if len(args) != 1:
        return bounded_repr(args, MAX_SAID) if args else None
    arg = args[0]
    if kind is not KeyError.__str__ and (
        isinstance(arg, str) or arg.__class__ in (float, bool) or arg is None or _small_int(arg)
    ):
        return None
    return bounded_repr(arg, MAX_SAID)


SHOWN_ITEMS = 8
"""Items of a list, tuple, set or dict `bounded_repr` shows before `…`."""
SHOWN_DEPTH = 3
"""How deep into lists in lists `bounded_repr` looks before `…`."""


def _small_int(value: Any) -> bool:
    return value.__class__ is int and value.bit_length() <= 256


def bounded_repr(value: Any, limit: int = MAX_SAID) -> str:
    """About `repr(value)`, made from no more of `value` than `limit` characters show: a
    text's first characters, a few items of a list or dict a few levels deep, a number of
    more than 256 bits by its size, any other object by its kind (`<Cycler>`). For what a
    message quotes of a template's value: the value may print gigabytes (`[s]*3000`)."""
    parts: list[str] = []
    left = limit

    def put(text: str) -> None:
        nonlocal left
        parts.append(text)
        left -= len(text)

    def walk(item: Any, depth: int) -> None:
        if left <= 0:
            return
        if isinstance(item, str | bytes):
            plain: Any = str if isinstance(item, str) else bytes
            head = plain.__getitem__(item, slice(0, max(left, 1)))
            put(repr(plain(head)) + ("…" if len(item) > len(head) else ""))
        elif item.__class__ in (float, bool) or item is None or _small_int(item):
            put(repr(item))
        elif item.__class__ is int:
            put(f"<a {item.bit_length():,}-bit number>")
        elif isinstance(item, (list, tuple, set, frozenset, Mapping, *VIEWS)):
            mapping = isinstance(item, Mapping)
            opener, closer = _brackets(item, mapping)
            put(opener)
            if depth >= SHOWN_DEPTH and len(item):
                put("…")
            else:
                shown: Iterable[Any] = item.items() if isinstance(item, Mapping) else item
                for index, child in enumerate(itertools.islice(shown, SHOWN_ITEMS)):
                    if left <= 0:
                        break
                    if index:
                        put(", ")
                    if mapping:
                        walk(child[0], depth + 1)
                        put(": ")
                        walk(child[1], depth + 1)
                    else:
                        walk(child, depth + 1)
                if len(item) > SHOWN_ITEMS or left <= 0:
                    put(", …")
                elif isinstance(item, tuple) and len(item) == 1:
                    put(",")
            put(closer)
        else:
            put(f"<{type(item).__name__}>")

    walk(value, 0)
    text = "".join(parts)
    return text if len(text) <= limit else text[:limit] + "…"


def _brackets(item: Any, mapping: bool) -> tuple[str, str]:
    """How `repr` opens and closes `item` (a dict view: `dict_keys([…])`)."""
    if isinstance(item, VIEWS):
        return f"{type(item).__name__}([", "])"
    for kind, brackets in _BRACKETS.items():
        if isinstance(item, kind):
            return brackets
    return ("{", "}") if mapping else ("[", "]")


_BRACKETS: dict[type, tuple[str, str]] = {
    list: ("[", "]"),
    tuple: ("(", ")"),
    set: ("{", "}"),
    frozenset: ("frozenset({", "})"),
    dict: ("{", "}"),
}


NOT_ITERATING = frozenset(
    {"length", "count", "first", "last", "string", "e", "escape", "forceescape", "safe"}
    | {"default", "d", "attr", "tojson", "pprint", "random"}
    | {"int", "float", "round", "abs", "filesizeformat"}
)
"""Filters that do not go over the items of a list they are given one by one in Python
(`length`, `first`; the text filters' work is their result's size, charged as built): the
others' items are counted (`Budget.count_items`). An iterator is counted as it is drawn,
whatever the filter."""


def _counted_input(budget: Budget, name: str, value: Any) -> Any:
    """A filter's input, its items counted to the budget: a list, range or dict now (by
    its length), an iterator (`select`'s generator) as each item is drawn, a text's letters
    when the filter goes over them one by one (`s|select('number')` tested 4,000 letters
    400 times a face in four counted steps: probe 24); an undefined value as it is (its
    length is a designer's error, said by the filter that reads it, if any)."""
    if isinstance(value, Undefined):
        return value
    if isinstance(value, str | bytes):
        if name in WORD_FILTERS:
            budget.read(len(value))  # a Python step a word: each letter read charged whole
        elif name in TEXT_FILTERS:
            charge_read(value)  # read in C, what it returns charged as built
        elif name not in NOT_ITERATING and value:
            budget.count_items(len(value))
        return value
    count = _length(value)
    if count:
        if name not in NOT_ITERATING:
            budget.count_items(count)
        return value
    if isinstance(value, Iterator):
        return budget.iterate(value)
    return value


LISTED_FILTERS = frozenset({"join", "sum", "unique"})
"""Filters that build one value out of all the items of what they are given: an iterator
(`map`, `select`, a dict view) is listed first so that its size is known."""


ORDERING_FILTERS = frozenset({"sort", "min", "max", "groupby"})
"""Filters that compare (and lower-case) every item of what they are given, and keep them
(`sort` all their keys): an iterator given to one is listed first, so that its items are
walked as a list's are (`(texts|select)|sort` kept 4,000 lower-cased million-character keys,
3.9 GB: the check saw a generator)."""


def guard_filter(name: str, func: Any) -> Any:
    """`func` (a filter) with its size checks before it runs and its result's after."""
    check = FILTER_CHECKS.get(name)
    pass_arg = getattr(func, "jinja_pass_arg", None)
    leading = 1 if pass_arg is not None else 0  # context, eval context or environment
    listing = name in LISTED_FILTERS
    ordering = name in ORDERING_FILTERS
    texting = name in TEXT_FILTERS

    def guarded(*args: Any, **kwargs: Any) -> Any:
        budget = current()
        if budget is not None:
            budget.tick()
            if len(args) > leading:
                value = _counted_input(budget, name, args[leading])
                if value is not args[leading]:
                    args = (*args[:leading], value, *args[leading + 1 :])
            _charge_arguments(args[leading + 1 :], kwargs)
        if texting:
            for arg in (*args[leading:], *kwargs.values()):
                refuse_view(arg)
            if len(args) > leading and not isinstance(args[leading], str):
                # made a text first: weighed, and read (`c|wordcount` of a list holding
                # one list many times printed 10⁹ characters in one C call: probe 28 H7)
                charge_read(_weighed_value(args[leading], (), {}))
        if listing and len(args) > leading:
            args = (*args[:leading], listed(args[leading]), *args[leading + 1 :])
            # `[rules.x]|join`: the items printed (not the keys of a view joined, nor an
            # attribute of each item: `cards|join(', ', attribute='name')`)
            if name == "join" and len(args) <= leading + 2 and "attribute" not in kwargs:
                refuse_view(args[leading])
        if ordering and len(args) > leading and isinstance(args[leading], Iterator):
            args = (*args[:leading], listed(args[leading], "to compare"), *args[leading + 1 :])
        if check is not None and len(args) > leading:
            check(args[leading], args[leading + 1 :], kwargs)
        result = check_result(func(*args, **kwargs))
        if budget is not None and len(args) > leading and size_of(args[leading]) >= LOOK_AT_SIZE:
            budget.look()  # a long text in, however short what came out (see LOOK_AT_SIZE)
        return result

    if pass_arg is not None:
        guarded.jinja_pass_arg = pass_arg  # type: ignore[attr-defined]
    guarded.__name__ = getattr(func, "__name__", name)
    guarded.__doc__ = func.__doc__
    return guarded


def guard_compared(value: Any) -> Any:
    """An operand of `==`, `<`, `in`…: a comparison of nested lists runs inside C, out of
    the deadline's reach, and costs as many steps as the operand has items counted through
    every shared part, and as many as the characters of the texts in it, so both are
    bounded before it runs (and the clock looked at between two comparisons)."""
    budget = getattr(_local, "budget", None)
    if budget is not None:  # `tick()` written out: this runs at each operand of each test
        budget.ticks += 1  # and comparison (a `selectattr` over a deck's texts in a rulebook:
        if not budget.ticks & 63:  # ~2,500 of them a render)
            budget.look()
    if isinstance(value, _TEXTS):
        # `needle in text` searches each place (not linear below ~30,000 letters): a text
        # operand counts as read, its needle's length with it (probe 26); `charge_read`
        # written out, its budget the one just ticked
        if budget is not None and len(value) >= READ_PER_UNIT:
            budget.read(len(value) // READ_PER_UNIT)
        return value
    if isinstance(value, range):  # `0.5 in range(100000)` goes over it in C (probe 28)
        guard_steps(len(value) // ITEMS_A_STEP)
        return value
    if isinstance(value, CONTAINERS):
        _walk_compared(value)
    return value


_TEXTS = (str, bytes)


def _walk_compared(value: Any) -> int:
    """Count `value`'s items and characters (a dict's keys and values) as `guard_compared`
    says, refusing it past the limits; the characters of its texts."""
    seen = 0
    chars = 0
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        # a dict's keys too: `d|dictsort`, `d|sort`, `d|unique` lower and compare them
        children = opened(item)
        seen += len(children)
        if seen > MAX_ITEMS:
            raise TemplateLimitError(f"cannot compare values of more than {MAX_ITEMS:,} items")
        for child in children:
            if isinstance(child, str | bytes):
                chars += len(child)
            elif isinstance(child, (*CONTAINERS, *HOLDERS)):
                stack.append(child)
            elif isinstance(child, range):
                seen += len(child)
        if chars > MAX_COMPARED:
            raise TemplateLimitError(
                f"cannot compare values holding more than {MAX_COMPARED:,} characters"
            )
    budget = current()
    steps = seen // ITEMS_A_STEP + chars // CHARACTERS_A_STEP
    if budget is not None and steps:  # the walk above and the comparison: steps, not one
        budget.ticks += steps
        budget.look()
    return chars


_ATTRIBUTE_AT = {"sort": 2, "min": 1, "max": 1, "groupby": 0}
"""Where each comparing filter takes its `attribute` among its arguments after the value
(`unique` reads its own: `_unique_checked`)."""


def _sorted_checked(
    value: Any, args: tuple[Any, ...], kwargs: dict[str, Any], name: str = ""
) -> None:
    """`sort`, `min`, `max`, `dictsort`, `groupby`, `unique` compare the items (`guard_compared`)
    and, unless told to be case-sensitive, make each text lower case first (`ignore_case`, up to
    ~18 ns a character for `Σ`): the texts count as read (probe 27 H1). Given `attribute=`,
    what they compare is each item's attribute (`_attribute_values`)."""
    tick()
    at = _ATTRIBUTE_AT.get(name)
    if at is not None:
        attribute = args[at] if len(args) > at else kwargs.get("attribute")
        value = _attribute_values(value, attribute, multi=name == "sort")
    if isinstance(value, str | bytes):
        charge_read(value)
    elif isinstance(value, CONTAINERS):
        charge_read(_walk_compared(value))


ITEMS_A_STEP = 8
CHARACTERS_A_STEP = 4_096
"""What an operand of a comparison counts as steps (`guard_compared`): walking its items
here costs ~300 ns an item (the two type tests; comparing them in C far less), a character
compared ~1 ns, where a step costs ~4 µs (`LAYOUT_STEPS`). Counted as one step, a loop
comparing a 30,000-item list took ~0.2 s a card face within its 10,000 steps, and 1,900
comparisons of a 99,000-item one ran past 5 s."""


COMPARING_TESTS = frozenset(
    ("eq", "equalto", "==", "ne", "!=", "lt", "<", "lessthan", "le", "<=")
    + ("gt", ">", "greaterthan", "ge", ">=", "in")
)


PLAIN_TESTS = frozenset({"defined", "undefined", "none"})
"""Jinja tests left as they are: they read nothing of their value, cost what their node does
(`body_weight`), and a layout of plain reads and these tests is worked out without a render
when they are Jinja's own (toolkit.render.plain_layout). Every other test is `guard_test`'s."""
TEXT_TESTS = frozenset({"lower", "upper"})
"""Jinja tests that make a text of what they are given (`str(value).islower()`): a value that
is not a text is weighed first (`guard_test`)."""


def guard_test(name: str, test: Callable[..., bool]) -> Callable[..., bool]:
    """A Jinja test counted as a step, and what it is given as `_charge_arguments` says (a
    text read, a tuple hashed, a large number's digits): `s is lower` read a 4,000-letter
    text and counted nothing, 40,000 times a face in 1.2 s (probe 26); `t is filter` hashed
    a 9,999-item tuple of large numbers, 2.2 ms, as no step (probe 27)."""
    pass_arg = getattr(test, "jinja_pass_arg", None)
    leading = 1 if pass_arg is not None else 0  # the environment or context first
    texting = name in TEXT_TESTS

    def guarded(*args: Any, **kwargs: Any) -> bool:
        tick()
        _charge_arguments(args[leading:], kwargs)
        if texting and len(args) > leading:
            value = args[leading]
            if not isinstance(value, str | bytes):  # made a text first (`[c] * 10 is
                charge_read(_weighed_value(value, (), {}))  # lower`: 1 GB in one C call)
        return test(*args, **kwargs)

    if pass_arg is not None:
        guarded.jinja_pass_arg = pass_arg  # type: ignore[attr-defined]
    guarded.__name__ = getattr(test, "__name__", "test")
    return guarded


def guard_comparing_test(test: Callable[..., bool]) -> Callable[..., bool]:
    """A Jinja test that compares (`is eq`, `is in`…), its operands weighed first."""

    def guarded(value: Any, *args: Any) -> bool:
        return test(guard_compared(value), *map(guard_compared, args))

    return guarded


NODES_A_STEP = 16
"""Nodes of a template's body (names, constants, operators, texts, tags) that count as one
step each time the body runs (`guard_steps`): a node costs ~60 ns to run where a step is
budgeted at ~4 µs, but no node was counted at all: a loop body of 3,000 `{{ e }}` printing
nothing ran 2,000 times in 0.74 s a card face for 2,000 steps (370 µs a step)."""
_BODY_FIELDS = frozenset({"body", "else_", "elif_"})


def body_weight(body: Iterable[nodes.Node]) -> int:
    """The nodes of `body` that run each time it runs: every node of its statements and
    expressions, but not those of a body nested in it (an `if`'s branches, a loop's body, a
    macro's), which are counted when that body runs; an `elif`'s test counts here."""
    count = 0
    stack = list(body)
    while stack:
        node = stack.pop()
        count += 1
        for field, value in node.iter_fields():
            if field in _BODY_FIELDS and not isinstance(node, nodes.ScopedEvalContextModifier):
                if field == "elif_":
                    stack.extend(branch.test for branch in value)
            elif isinstance(value, nodes.Node):
                stack.append(value)
            elif isinstance(value, list):
                stack.extend(item for item in value if isinstance(item, nodes.Node))
    return count


def guard_steps(count: int) -> None:
    """A body of the template starts to run: `count` steps (`body_weight` over
    `NODES_A_STEP`), and the clock and steps looked at when they pass a multiple of 64."""
    budget = getattr(_local, "budget", None)
    if budget is not None:
        before = budget.ticks
        budget.ticks += count
        if before >> 6 != budget.ticks >> 6:
            budget.look()


class BoundedCodeGenerator(CodeGenerator):
    """Jinja's code generator, with `~` routed through `guard_join`, the operands of every
    comparison through `guard_compared` and every slice through `guard_sliced`, and each body
    (the template's, a loop's, a branch's, a macro's) counting its nodes as steps when it
    runs (`guard_steps`)."""

    def blockvisit(self, body: Iterable[nodes.Node], frame: Frame) -> None:
        body = list(body)
        steps = body_weight(body) // NODES_A_STEP
        if steps:
            self.writeline(f"environment.guard_steps({steps})")
        super().blockvisit(body, frame)

    def visit_Compare(self, node: nodes.Compare, frame: Frame) -> None:
        self.write("(environment.guard_compared(")
        self.visit(node.expr, frame)
        self.write(")")
        for op in node.ops:
            self.write(f" {operators[op.op]} environment.guard_compared(")
            self.visit(op.expr, frame)
            self.write(")")
        self.write(")")

    def visit_Getitem(self, node: nodes.Getitem, frame: Frame) -> None:
        """A slice (`a[:]`, `t[::-1]`), which Jinja writes as Python's own subscript, past
        the environment's `getitem`: its copy checked and charged as any value built."""
        if not isinstance(node.arg, nodes.Slice):
            super().visit_Getitem(node, frame)
            return
        self.write("environment.guard_sliced(")
        super().visit_Getitem(node, frame)
        self.write(")")

    def visit_Dict(self, node: nodes.Dict, frame: Frame) -> None:
        """A dict literal's keys are hashed: a tuple key counts its items (`charge_hashed`;
        `{t: 1}` of a 9,999-item tuple was one node: probe 29 H5)."""
        self.write("{")
        for index, item in enumerate(node.items):
            self.write(", environment.guard_key(" if index else "environment.guard_key(")
            self.visit(item.key, frame)
            self.write("): ")
            self.visit(item.value, frame)
        self.write("}")

    def visit_Tuple(self, node: nodes.Tuple, frame: Frame) -> None:
        if node.ctx != "load":  # an assignment's target (`{% for a, b in … %}`)
            super().visit_Tuple(node, frame)
            return
        self.write("environment.guard_tuple(")
        super().visit_Tuple(node, frame)
        self.write(")")

    def _output_child_to_const(self, node: nodes.Expr, frame: Frame, finalize: Any) -> str:
        """Only a template's own text is printed as a constant: Jinja folds any constant
        expression at compile time, in plain Python, past every guard (`("abc".split ~
        "")[-15:]` baked a memory address into the compiled template: probe 22)."""
        if not isinstance(node, nodes.TemplateData):
            raise nodes.Impossible()
        return super()._output_child_to_const(node, frame, finalize)

    def visit_EvalContextModifier(self, node: nodes.EvalContextModifier, frame: Frame) -> None:
        """`{% autoescape EXPR %}`: EXPR is worked out at run time, bounded as every
        expression is, unless it is a literal. Jinja works it out at compile time in plain
        Python (`as_const`), past every guard: a 1 kB chain of filters took 60 s to compile
        (probe 23)."""
        for keyword in node.options:
            self.writeline(f"context.eval_ctx.{keyword.key} = ")
            self.visit(keyword.value, frame)
            if isinstance(keyword.value, nodes.Const):
                setattr(frame.eval_ctx, keyword.key, keyword.value.value)
            else:
                frame.eval_ctx.volatile = True

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.guard_join((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")


def _is_guarded(node: nodes.Node) -> bool:
    target = getattr(node, "node", None)
    return isinstance(target, nodes.EnvironmentAttribute) and target.name == "guard_iter"


def guard_loops(tree: nodes.Template) -> nodes.Template:
    """Wrap every `for` loop's iterable in a call of `environment.guard_iter` (at parse
    time, so that the symbol analysis and the code generator see the same tree; Jinja
    allows no node types of one's own)."""
    for loop in tree.find_all(nodes.For):
        if not _is_guarded(loop.iter):
            line = loop.iter.lineno
            guard = nodes.EnvironmentAttribute("guard_iter", lineno=line)
            loop.iter = nodes.Call(guard, [loop.iter], [], None, None, lineno=line)
            if loop.test is not None:  # `for x in L if TEST`: TEST runs once an item
                loop.test = _counted(loop.test)
    tag: Any
    for tag in (*tree.find_all(nodes.Macro), *tree.find_all(nodes.CallBlock)):
        # a default runs at each call that leaves its argument out (probe 29 H1)
        tag.defaults = [_counted(default) for default in tag.defaults]
    return tree


def _counted(expression: Any) -> nodes.Expr:
    """`expression` as a call of `environment.guard_counted`, which counts it as a step and
    its nodes as `body_weight` would, each time it runs: an expression that runs apart from
    the body it stands in (a loop's filter, a macro's default) is counted where it runs."""
    line = expression.lineno
    guard = nodes.EnvironmentAttribute("guard_counted", lineno=line)
    weight = nodes.Const(body_weight([expression]) // NODES_A_STEP, lineno=line)
    return nodes.Call(guard, [weight, expression], [], None, None, lineno=line)


def guard_key(key: Any) -> Any:
    """A dict literal's key, hashed: a tuple counts its items (`charge_hashed`)."""
    if isinstance(key, tuple):
        charge_hashed(key)
    return key


def guard_counted(steps: int, value: Any) -> Any:
    """`value`, worked out by an expression of `steps` steps (`_counted`)."""
    guard_steps(steps)
    return value


MAX_LOOPS_NESTED = 16
"""`{% for %}` loops one inside another: each is a Python loop, and Python compiles no more
than 20 blocks nested in one function (25 nested loops were a SyntaxError at a line of the
generated code)."""
MAX_BLOCKS_NESTED = 48
"""Tags with a body (`if`, `for`, `with`, `macro`, `call`, `filter`, `set`…`endset`) one inside
another: Python refuses more than 100 levels of indentation (200 nested `if` were an
IndentationError at a line of the generated code)."""
_BODIES: tuple[type[nodes.Node], ...] = (
    nodes.For,
    nodes.If,
    nodes.With,
    nodes.Macro,
    nodes.CallBlock,
    nodes.FilterBlock,
) + (nodes.AssignBlock, nodes.Block, nodes.Scope, nodes.ScopedEvalContextModifier)


MAX_EXPRESSION_DEPTH = 100
"""Operations, attributes, filters and calls one inside another in an expression: Jinja
walks and compiles an expression recursively, and Python compiles no more than 200
parentheses nested (`game.a.a.a…` 5,000 long was R010 "RecursionError: maximum recursion
depth exceeded" at 1:1; 250 long, a SyntaxError at a line of the generated code)."""


def too_deep(line: int) -> TemplateLimitError:
    """The error of an expression nested past `MAX_EXPRESSION_DEPTH`, at its line."""
    error = TemplateLimitError(
        f"the expression nests too deep: at most {MAX_EXPRESSION_DEPTH} operations,"
        " attributes, filters, calls or brackets one inside another"
    )
    error.lineno = line
    return error


def check_nesting(tree: nodes.Template) -> None:
    """Refuse a template whose tags or expressions nest deeper than Python can compile
    (raises TemplateLimitError at the line of the first tag or expression too deep)."""
    stack: list[tuple[nodes.Node, int, int, int]] = [(tree, 0, 0, 0)]
    while stack:
        node, loops, blocks, depth = stack.pop()
        depth = depth + 1 if isinstance(node, nodes.Expr) else 0
        if depth > MAX_EXPRESSION_DEPTH:
            raise too_deep(node.lineno)
        if isinstance(node, _BODIES):
            loops, blocks = loops + isinstance(node, nodes.For), blocks + 1
            if loops > MAX_LOOPS_NESTED or blocks > MAX_BLOCKS_NESTED:
                error = TemplateLimitError(
                    f"tags nested too deep: at most {MAX_LOOPS_NESTED} `for` loops and"
                    f" {MAX_BLOCKS_NESTED} tags with a body, one inside another"
                )
                error.lineno = node.lineno
                raise error
        stack.extend((child, loops, blocks, depth) for child in node.iter_child_nodes())


def _measured(value: tuple[Any, ...], budget: Budget | None) -> tuple[int, int]:
    """How deep tuples nest in `value` (1: none inside) and how many items it holds counted
    through every tuple in it, each distinct tuple walked once (a tuple the budget knows is
    looked up, not walked again); raises TemplateLimitError past `MAX_NESTING` or
    `MAX_TUPLE_ITEMS`."""
    seen: dict[int, tuple[int, int]] = {}

    def known(item: tuple[Any, ...]) -> tuple[int, int] | None:
        found = seen.get(id(item))
        if found is None and budget is not None:
            kept = budget.tuples.get(id(item))
            if kept is not None and kept[0] is item:
                found = (kept[1], kept[2])
        return found

    stack: list[tuple[tuple[Any, ...], int, bool]] = [(value, 1, False)]
    while stack:
        item, level, walked = stack.pop()
        if not walked:
            if known(item) is not None:
                continue
            if level > MAX_NESTING:
                raise TemplateLimitError(f"tuples nested more than {MAX_NESTING} deep")
            stack.append((item, level, True))
            stack.extend(
                (child, level + 1, False)
                for child in item
                if isinstance(child, tuple) and known(child) is None
            )
            continue
        if id(item) in seen:
            continue
        depth, items = 1, len(item) + sum(map(_digit_items, item))
        for child in item:
            if isinstance(child, tuple):
                inner = known(child)
                if inner is not None:  # a child too deep or too big raised already
                    depth, items = max(depth, inner[0] + 1), items + inner[1]
        if depth > MAX_NESTING:
            raise TemplateLimitError(f"tuples nested more than {MAX_NESTING} deep")
        if items > MAX_TUPLE_ITEMS:
            raise TemplateLimitError(
                f"a tuple of more than {MAX_TUPLE_ITEMS:,} items counted through the tuples"
                " in it (hashing it walks them all)"
            )
        seen[id(item)] = (depth, items)
    return seen.get(id(value)) or known(value) or (1, len(value))


def guard_tuple(value: tuple[Any, ...]) -> tuple[Any, ...]:
    """A tuple a template writes (`(a, b)`) or gets (from a filter, a call, a loop, an item
    or attribute: `{"a": t}.items()|first` nests one deeper), refused when tuples nest past
    `MAX_NESTING` or it holds more than `MAX_TUPLE_ITEMS` through them."""
    budget = current()
    if budget is not None:
        kept = budget.tuples.get(id(value))
        if kept is not None and kept[0] is value:
            return value
    if not any(isinstance(item, tuple) for item in value):
        items = len(value) + sum(map(_digit_items, value))
        if items > MAX_TUPLE_ITEMS:
            raise TemplateLimitError(
                f"a tuple of more than {MAX_TUPLE_ITEMS:,} items (a large number counts as one"
                " for each 64 bits)"
            )
        if items > 64 and budget is not None:
            budget.tuples[id(value)] = (value, 1, items)
        return value
    depth, items = _measured(value, budget)
    if budget is not None and (depth > 1 or items > 64):
        budget.tuples[id(value)] = (value, depth, items)  # kept alive, so the id stays its own
    return value


def _digit_items(item: Any) -> int:
    """What an integer adds to the items hashing it walks: one for every 64 of its bits
    past the first 64 (hashing a 4,050-bit number reads its 135 digits)."""
    return item.bit_length() // BITS_A_STEP if item.__class__ is int else 0


def _hashed_items(key: Any, budget: Budget | None) -> int:
    """Items `hash(key)` walks: a tuple's through the tuples in it, 1 otherwise."""
    return _measured(key, budget)[1] if isinstance(key, tuple) else 1


def check_source(env: Any, source: str) -> None:
    """Refuse a template of more than `MAX_TOKENS` tokens before it is compiled (raises
    TemplateLimitError at the line of the first token past the limit); Jinja's lexer is
    run only as far as the limit, and not at all on a source shorter than it."""
    if len(source) <= MAX_TOKENS:
        return
    for count, (lineno, _, _) in enumerate(env.lex(source), 1):
        if count > MAX_TOKENS:
            error = TemplateLimitError(
                f"the template has more than {MAX_TOKENS:,} tokens (names, operators, values"
                " and the texts between tags): split it, or compute less in it"
            )
            error.lineno = lineno
            raise error


def guard_iter(iterable: Iterable[Any]) -> Iterable[Any]:
    budget = current()
    return iterable if budget is None else budget.iterate(iterable)
