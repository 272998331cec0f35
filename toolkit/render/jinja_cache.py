"""Sandboxed Jinja environments whose compiled templates are kept between runs.

Compiling a template costs far more than rendering it (a rulebook ~0.1 s, a card layout
~15 ms), and the same sources are compiled on every run; Jinja's bytecode cache keeps the
compiled code on disk, keyed by source checksum, in the user cache folder. Measured on the
bundled games (2 shared cores, best of 9): `playset validate` 1.24 s without the cache, 0.87 s
warm; `playset build` of a bundled game 1.49 s / 1.42 s.

Cached bytecode is code that runs outside the sandbox, so it is trusted only when it is
ours: the folder must belong to the user and be writable by no one else, and every entry
carries an HMAC-SHA256 under a per-user key (a 0600 file in the folder) that is checked
before anything in it is unpickled or unmarshalled. Anything else means no cache: the same
results, compiled afresh.
"""

from __future__ import annotations

import dis
import hashlib
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from functools import update_wrapper
from pathlib import Path
from types import BuiltinMethodType, CodeType, GeneratorType, MethodType
from typing import Any, cast

from jinja2 import FunctionLoader, Template, TemplateNotFound
from jinja2 import __version__ as jinja_version
from jinja2.bccache import Bucket, BytecodeCache
from jinja2.compiler import CodeGenerator
from jinja2.parser import Parser
from jinja2.runtime import Context, LoopContext
from jinja2.sandbox import (
    ImmutableSandboxedEnvironment,
    SandboxedEnvironment,
    SandboxedEscapeFormatter,
    SandboxedFormatter,
    safe_range,
)
from markupsafe import Markup

from toolkit import usercache
from toolkit.render import template_bounds as bounds
from toolkit.render.filler_text import lorem
from toolkit.render.template_bounds import TemplateLimitError
from toolkit.render.undefined import DesignerUndefined
from toolkit.usercache import KEY_FILE as KEY_FILE

TEMPLATE_CODE = r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}"
"""A regular expression for Jinja expressions, statements and comments (use re.DOTALL).
It scans from every unclosed opener to the end of the text (15,000 unclosed `{{`, a 45 kB
rulebook, took 47 s to check): find the spans with `template_code`, or mask with
`TEMPLATE_CODE_MASK`."""

TEMPLATE_CODE_MASK = r"\{\{(?:(?!\{\{).)*?\}\}|\{%(?:(?!\{%).)*?%\}|\{#(?:(?!\{#).)*?#\}"
"""`TEMPLATE_CODE` with each kind stopping at the next opener of its kind: linear, for
checks that mask code out of prose (it differs only on a tag holding its own opener,
`{{ "{{" }}`, where it finds the inner one); never for what decides which code a text holds."""

_CODE = re.compile(TEMPLATE_CODE_MASK)


def glossary_read(source: str, term: str) -> int:
    """Where the first template code of `source` that reads glossary term `term`
    (`glossary.pcount`, `glossary['pcount']`) starts, or -1; comments, string literals and
    other names that happen to be `term` do not count (probe 24)."""
    if term not in source:
        return -1
    name = re.escape(term)
    read = re.compile(rf"\bglossary\s*(?:\.\s*{name}(?![\w-])|\[\s*(['\"]){name}\1\s*\])")
    found = (c.start() for c in _CODE.finditer(source) if c[0][1] != "#" and read.search(c[0]))
    return next(found, -1)


_OPENER = re.compile(r"\{[{%#]")
_CLOSERS = {"{": "}}", "%": "%}", "#": "#}"}


def template_code(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each match of `TEMPLATE_CODE` (re.DOTALL) in `text`, the same ones
    `finditer` finds, in linear time: an opener with no closer of its kind after it means
    none of the later ones of that kind has one either."""
    spans: list[tuple[int, int]] = []
    closed = set(_CLOSERS)
    pos = 0
    while True:
        opener = _OPENER.search(text, pos)
        if opener is None:
            return spans
        start, kind = opener.start(), text[opener.start() + 1]
        end = text.find(_CLOSERS[kind], start + 2) if kind in closed else -1
        if end < 0:
            closed.discard(kind)
            pos = start + 1
            continue
        spans.append((start, end + 2))
        pos = end + 2


MAX_ENTRY_BYTES = 8 * 1024 * 1024
KEEP_BYTES = 64 * 1024 * 1024  # a rulebook edit adds ~60 KB: about a thousand edits kept


def cache_dir() -> Path | None:
    """`$PLAYSET_CACHE/playset/jinja`, else `$XDG_CACHE_HOME/playset/jinja`, else
    `~/.cache/playset/jinja`; None when it cannot be written or is not private to the user
    (no cache, same results)."""
    return usercache.cache_dir("jinja")


class SignedBytecodeCache(BytecodeCache):
    """Jinja bytecode on disk, each entry `HMAC || bytecode` (toolkit.usercache), loaded
    only if the HMAC of its name and bytes checks out."""

    def __init__(self, folder: Path, key: bytes) -> None:
        self.store = usercache.SignedStore(folder, key, MAX_ENTRY_BYTES, KEEP_BYTES)

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        # the environment's own code generation is part of the key (intercepted operators)
        return super().get_cache_key(f"{name}|{CODE_VERSION}", filename)

    def load_bytecode(self, bucket: Bucket) -> None:
        payload = self.store.read(f"{bucket.key}.signed")
        if payload:
            bucket.bytecode_from_string(payload)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.store.write(f"{bucket.key}.signed", bucket.bytecode_to_string())


def bytecode_cache() -> SignedBytecodeCache | None:
    """The user's signed cache, or None when its folder or key cannot be trusted."""
    folder = cache_dir()
    key = usercache.folder_key(folder) if folder else None
    return SignedBytecodeCache(folder, key) if folder and key else None


TREES_FORMAT = "jinja-trees-1"
"""The head of a layout's kept parse trees (CachedSandbox.parse_all)."""


def _code_version(name: str) -> str:
    """`name` and the digest of the code that generates and guards the compiled templates
    (toolkit.render.template_bounds and this module): two checkouts or releases that both
    called their code "bounded-10" shared compiled templates in one user cache, and one ran
    code calling a guard only the other had (`'_BoundedSandbox' object has no attribute`)."""
    digest = hashlib.sha256(name.encode())
    for module in (bounds.__file__, __file__):
        with suppress(OSError, TypeError):  # no source beside the code: the name alone
            digest.update(Path(module).read_bytes())
    return f"{name}-{digest.hexdigest()[:16]}"


CODE_VERSION = _code_version("bounded-11")  # 11: no autoescape folding; 10: slices guarded


_ITEM_ATTRIBUTES: dict[tuple[type, str], bool] = {}


def _item_is_attribute(cls: type, attribute: str) -> bool:
    """Whether Jinja's `obj.attribute` on an instance of `cls` is `obj[attribute]` when the
    key is there: a plain dict, or a mapping that says its items read as attributes
    (`_items_as_attributes`, toolkit.render.context.View), and a public name that is no
    attribute of the class (`items`, `pop`: Jinja gives the method, or refuses it)."""
    key = (cls, attribute)
    known = _ITEM_ATTRIBUTES.get(key)
    if known is None:
        known = (
            (cls is dict or bool(getattr(cls, "_items_as_attributes", False)))
            and isinstance(attribute, str)
            and not attribute.startswith("_")
            and not hasattr(cls, attribute)
        )
        if len(_ITEM_ATTRIBUTES) < 4096:  # `attr(name)` may ask for any number of names
            _ITEM_ATTRIBUTES[key] = known
    return known


class _Bounded:
    """Mixed into a sandbox: the operators that build values (`*`, `**`, `%`, `+`), every
    call, `~`, loops, blocks and printed values go through the guards of
    `toolkit.render.template_bounds`; range(), lipsum() and every filter are bounded."""

    intercepted_binops = frozenset({"*", "**", "%", "+", "-", "//", "/"})
    code_generator_class: type[CodeGenerator] = bounds.BoundedCodeGenerator
    guard_join = staticmethod(bounds.guard_join)
    guard_iter = staticmethod(bounds.guard_iter)
    guard_steps = staticmethod(bounds.guard_steps)
    guard_counted = staticmethod(bounds.guard_counted)
    guard_key = staticmethod(bounds.guard_key)
    guard_compared = staticmethod(bounds.guard_compared)
    guard_tuple = staticmethod(bounds.guard_tuple)
    guard_sliced = staticmethod(bounds.check_result)

    def _parse(self, source: str, name: str | None, filename: str | None) -> Any:
        parser = Parser(cast(Any, self), source, name, filename)
        try:
            tree = parser.parse()
        except RecursionError:  # Jinja parses `((((…))))` and `[[[[…]]]]` recursively
            raise bounds.too_deep(parser.stream.current.lineno) from None
        bounds.check_nesting(tree)
        return bounds.guard_loops(tree)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "-":  # `d.keys() - other`: a set of the keys, each of other's looked up
            if not bounds.hashes(left):
                return bounds.in_order(left, left - right)
            right = bounds.listed(right)
            bounds.guard_hashed([*left, *right] if isinstance(right, list | tuple) else left)
        bounds.check_binop(left, operator, right)
        bounds.guard_steps(1)  # a step, and what a large number's digits cost (probe 27 H3)
        bounds.charge_read(bounds.number_work(left, right))
        result = super().call_binop(context, operator, left, right)  # type: ignore[misc]
        if operator == "-":
            result = bounds.in_order(left, result)
        return bounds.check_result(result)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        bounds.tick()  # a call is a step, whatever it returns
        if isinstance(__obj, LoopContext) and args:  # a recursive loop's `loop(items)`: its
            args = (bounds.guard_iter(args[0]), *args[1:])  # iterations counted (probe 28)
        args = bounds.call_args(__obj, args)
        bounds.check_call(__obj, args, kwargs)
        result = super().call(__context, __obj, *args, **kwargs)  # type: ignore[misc]
        bounds.check_grown(__obj)
        return bounds.check_result(result)

    def getattr(self, obj: Any, attribute: str) -> Any:
        bounds.tick()
        # `card.name` on a plain dict or a View: the item, as Jinja's own lookup gives it,
        # without its attribute probe, exception and safety tests (most of a card's render)
        if _item_is_attribute(type(obj), attribute) and attribute in obj:
            value = obj[attribute]
            if not isinstance(value, MethodType | BuiltinMethodType):  # str.format: sandboxed
                return bounds.guard_tuple(value) if isinstance(value, tuple) else value
        value = super().getattr(obj, attribute)  # type: ignore[misc]
        return bounds.guard_tuple(value) if isinstance(value, tuple) else value

    def call_test(
        self,
        name: str,
        value: Any,
        args: Any = None,
        kwargs: Any = None,
        context: Any = None,
        eval_ctx: Any = None,
    ) -> Any:
        # what `select`, `reject`, `selectattr` and `rejectattr` call at each item: a test
        # that takes nothing first (every guarded test but a plugin's `pass_context` one)
        # called as Jinja's `_filter_test_common` calls it, without its lookups and lists
        # (~1,500 items a render of a bundled game's English rulebook); any other as ever
        func = self.tests.get(name)  # type: ignore[attr-defined]
        if func is None or hasattr(func, "jinja_pass_arg"):
            return super().call_test(  # type: ignore[misc]
                name, value, args, kwargs, context, eval_ctx
            )
        return func(
            value, *(args if args is not None else ()), **(kwargs if kwargs is not None else {})
        )

    def getitem(self, obj: Any, argument: Any) -> Any:
        bounds.tick()
        if isinstance(argument, tuple):  # `d[t]` hashes it (probe 27 H2)
            bounds.charge_hashed(argument)
        value = super().getitem(obj, argument)  # type: ignore[misc]
        return bounds.guard_tuple(value) if isinstance(value, tuple) else value

    def wrap_str_format(self, value: Any) -> Any:
        wrapped = _view_refusing_format(self, value)
        if wrapped is None:
            return None
        template = str(value.__self__)
        by_name = value.__name__ == "format_map"

        def bounded_format(*args: Any, **kwargs: Any) -> Any:
            values = list(args[0].values()) if by_name and args else [*args, *kwargs.values()]
            bounds.check_brace_format(template, values)
            return bounds.check_result(wrapped(*args, **kwargs))

        return bounded_format


class _ViewRefusingFormatter(SandboxedFormatter):
    """jinja's sandboxed `str.format`, refusing a content view a field prints (`'{}'`,
    `'{!s}'`, `'{0[x]}'` of a table of values: Python's text of a dict), and weighing each
    field's value as the field reads it, before it is made text: `check_brace_format` weighs
    the arguments, but `{0.items}` prints an attribute of one (a cycler's items, 20 million
    characters, a hundred times: 3.8 GB from one line, probe 51 P51-6)."""

    printed = 0  # what the fields of the current `vformat` print, weighed

    def vformat(self, format_string: str, args: Any, kwargs: Any) -> str:
        self.printed = 0
        return super().vformat(format_string, args, kwargs)

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        bounds.refuse_view(value)
        self.printed += bounds.field_weight(value, conversion, bounds.MAX_STRING - self.printed)
        if self.printed > bounds.MAX_STRING:
            raise TemplateLimitError(
                f"the format's fields would print more than {bounds.MAX_STRING:,} characters"
            )
        return super().convert_field(value, conversion)


class _ViewRefusingEscapeFormatter(_ViewRefusingFormatter, SandboxedEscapeFormatter):
    pass


def _view_refusing_format(env: Any, value: Any) -> Callable[..., str] | None:
    """What jinja's `wrap_str_format` makes of `str.format`/`format_map` (None for anything
    else), with `_ViewRefusingFormatter`."""
    if not isinstance(value, MethodType | BuiltinMethodType) or value.__name__ not in (
        "format",
        "format_map",
    ):
        return None
    owner: Any = value.__self__
    if not isinstance(owner, str):
        return None
    kind: type[str] = type(owner)
    by_name = value.__name__ == "format_map"
    formatter: SandboxedFormatter = (
        _ViewRefusingEscapeFormatter(env, escape=owner.escape)
        if isinstance(owner, Markup)
        else _ViewRefusingFormatter(env)
    )

    def wrapper(*args: Any, **kwargs: Any) -> str:
        if by_name:
            if kwargs:
                raise TypeError("format_map() takes no keyword arguments")
            if len(args) != 1:
                raise TypeError(f"format_map() takes exactly one argument ({len(args)} given)")
            kwargs, args = args[0], ()
        return kind(formatter.vformat(owner, args, kwargs))

    return update_wrapper(wrapper, value)


REFUSED_FILTERS = frozenset({"random"})
"""Jinja's filters a template is refused (with a message saying why), not offered."""


def _install_bounds(env: Any) -> None:
    def bounded_range(*args: int) -> range:
        numbers = safe_range(*args)
        if len(numbers) > bounds.MAX_ITERATIONS:
            raise TemplateLimitError(
                f"range() of more than {bounds.MAX_ITERATIONS:,} numbers (loop iterations)"
            )
        return numbers

    def bounded_lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:
        # `min` alone sets the words when it is not below `max`: each is bounded
        if n > 20 or max > 200 or min > 200:
            raise TemplateLimitError("lipsum() is limited to 20 paragraphs of 200 words")
        return lorem(n, html, min, max)  # the same words at every run, unlike Jinja's

    def no_random(*args: Any, **kwargs: Any) -> Any:
        raise TemplateLimitError(
            "the random filter is not available: a template prints the same at every build,"
            " so that validate checks what the build prints (choose by the card, e.g. by"
            " card.id, or write the value in the content)"
        )

    env.globals["range"] = bounded_range
    env.globals["lipsum"] = bounded_lipsum
    for name in REFUSED_FILTERS:
        env.filters[name] = no_random
    env.concat = bounds.guard_concat
    for name, func in list(env.filters.items()):
        env.filters[name] = bounds.guard_filter(name, func)
    for name, func in list(env.tests.items()):
        if name in bounds.COMPARING_TESTS:  # `x is eq y`, `x is in y`: `==` and `in` in C
            env.tests[name] = bounds.guard_comparing_test(func)
        elif name not in bounds.PLAIN_TESTS:  # a step, and what it is given read or hashed
            env.tests[name] = bounds.guard_test(name, func)


def _line_at(code: CodeType, offset: int) -> int:
    """The line of the generated code at instruction `offset` (a frame's `f_lasti`)."""
    line = code.co_firstlineno
    for start, found in dis.findlinestarts(code):
        if start > offset:
            break
        if found is not None:
            line = found
    return line


class _BoundedSandbox(_Bounded, SandboxedEnvironment):
    pass


class _BoundedImmutableSandbox(_Bounded, ImmutableSandboxedEnvironment):
    pass


def parse_check(source: str) -> None:
    """Parse `source` as a sandboxed template would (raises jinja2.TemplateSyntaxError, or
    TemplateLimitError for one too long to compile)."""
    env = _BoundedSandbox()
    bounds.check_source(env, source)
    env.parse(source)


class CachedSandbox:
    """A sandboxed environment that compiles sources by checksum through the bytecode cache."""

    def __init__(
        self,
        keep_trailing_newline: bool,
        immutable: bool = False,
        limits: bounds.Limits = bounds.RENDER,
    ) -> None:
        self.limits = limits  # a render's loop iterations and steps (a layout's: far fewer)
        kind = _BoundedImmutableSandbox if immutable else _BoundedSandbox
        self.env = kind(
            loader=FunctionLoader(self._source),
            bytecode_cache=bytecode_cache(),
            undefined=DesignerUndefined,
            autoescape=False,
            # Jinja's optimizer folds constant expressions at compile time, in plain Python:
            # `("abc".split ~ "")[-15:]` was made text past every guard, and its memory
            # address baked into the compiled template (probe 22)
            optimized=False,
            keep_trailing_newline=keep_trailing_newline,
            cache_size=0,
            finalize=bounds.guard_finalize,
        )
        _install_bounds(self.env)

    @staticmethod
    def _source(name: str) -> tuple[str, None, Callable[[], bool]]:
        """Every name is refused, never read: an `{% include %}`, `{% import %}` or
        `{% extends %}` in a designer's text (`template` compiles its sources itself)."""
        message = f"{name!r}: a text cannot include, import or extend another file"
        raise TemplateNotFound(name, message=message)

    @contextmanager
    def bounded(self, limits: bounds.Limits | None = None) -> Iterator[None]:
        """Renders inside share one budget and deadline (a fresh one unless this thread is
        already rendering), with the sandbox's limits unless `limits` are given; a limit
        raises TemplateLimitError, in any thread."""
        outer = bounds.enter(self.limits if limits is None else limits)
        try:
            yield
        finally:
            bounds.leave(outer)

    def _stream(self, template: Template, context: Context) -> str:
        """Run the template's body within the output limit, stopping as soon as it is too
        long; what it printed."""
        parts: list[str] = []
        size = 0
        printed_at: int | None = None
        # a compiled template renders as a generator: it is closed when cut short
        stream = cast("GeneratorType[str, None, None]", template.root_render_func(context))
        try:
            for part in stream:
                size += len(part)
                if size > bounds.MAX_OUTPUT:
                    break
                parts.append(part)
                frame = stream.gi_frame  # the template's place when it last printed (its
                printed_at = frame.f_lasti if frame is not None else printed_at  # line: O(n))
        except OverflowError as exc:  # `(1e308*10)|int`, `10.0**400`: said as a limit
            why = exc.args[-1] if exc.args and isinstance(exc.args[-1], str) else str(exc)
            error = TemplateLimitError(f"a number too large to compute ({why})")
            try:
                raise error.with_traceback(exc.__traceback__) from None
            except TemplateLimitError:
                self.env.handle_exception()  # re-raised with the template's own lines
        except Exception:
            self.env.handle_exception()  # re-raised with the template's own lines
        if size > bounds.MAX_OUTPUT:
            error = TemplateLimitError(f"the output passes {bounds.MAX_OUTPUT:,} characters")
            frame = stream.gi_frame  # where the template was printing
            if frame is not None:
                error.lineno = template.get_corresponding_lineno(frame.f_lineno)
            stream.close()
            raise error
        bounds.charge_read(size)  # what it printed counts as read, once, by the join
        budget = bounds.current()
        if budget is not None:  # a render past its deadline or steps is never clean, even
            try:  # when its last steps ran in C between two looks (probe 28)
                budget.look()
            except TemplateLimitError as error:  # said where it last printed, not at 1:1
                if printed_at is not None and getattr(error, "lineno", None) is None:
                    line = _line_at(template.root_render_func.__code__, printed_at)
                    error.lineno = template.get_corresponding_lineno(line)  # probe 29 M1
                raise
        return "".join(parts)

    def render(
        self, template: Template, context: dict[str, Any], limits: bounds.Limits | None = None
    ) -> str:
        """Render within the sandbox's limits, or `limits`."""
        with self.bounded(limits):
            return self._stream(template, template.new_context(context))

    def module(self, template: Template, context: dict[str, Any]) -> dict[str, Any]:
        """The names a template sets at its top level (`{% set %}`), evaluated within the
        limits (Template.make_module, whose output has no limit)."""
        with self.bounded():
            new = template.new_context(context)
            self._stream(template, new)
            return new.get_exported()

    def parse(self, source: str) -> Any:
        """The parsed tree of `source` (raises jinja2.TemplateError, TemplateLimitError for
        one of too many tokens: parsing is most of compiling's cost)."""
        bounds.check_source(self.env, source)
        return self.env.parse(source)

    def parse_all(self, sources: Sequence[str]) -> list[Any]:
        """`parse` of each source, in order (raising what the first failing one raises);
        a source written again (a layout's element repeated by YAML alias) is parsed once
        and its tree given again: 1,100 aliases of one element were parsed 1,100 times,
        17 s a layout (probe 24)."""
        distinct = list(dict.fromkeys(sources))
        trees = dict(zip(distinct, self._parse_distinct(distinct), strict=True))
        return [trees[source] for source in sources]

    def _parse_distinct(self, sources: Sequence[str]) -> list[Any]:
        """`parse_all` of sources all different: read back from the template cache's store
        when an earlier run parsed the same sources with the same code
        (toolkit.render.jinja_trees), else parsed and kept."""
        cache = self.env.bytecode_cache
        store = cache.store if isinstance(cache, SignedBytecodeCache) else None
        if store is None:
            return [self.parse(source) for source in sources]
        import marshal

        from toolkit.render import jinja_trees

        env_kind = (type(self.env).__name__, self.env.keep_trailing_newline)
        head = (TREES_FORMAT, CODE_VERSION, jinja_version, env_kind, bounds.MAX_TOKENS)
        digest = hashlib.sha256(marshal.dumps((head, tuple(sources)), 4)).hexdigest()
        name = f"trees-{digest[:40]}.trees"  # not `.signed`: no Jinja bytecode
        payload = store.read(name)
        if payload:
            try:
                found = marshal.loads(payload)
                if type(found) is list and len(found) == len(sources):
                    return [jinja_trees.tree(data, self.env) for data in found]
            except (EOFError, TypeError, ValueError, AttributeError, RecursionError):
                pass  # not what this module writes: parsed afresh
        trees = [self.parse(source) for source in sources]
        try:
            kept = [jinja_trees.data(tree, self.env) for tree in trees]
        except (ValueError, RecursionError):  # NotPlain is a ValueError
            return trees
        store.write(name, marshal.dumps(kept, 4))
        return trees

    def expression(self, source: str) -> Any:
        """`source` compiled as an expression (`when:`, `let:`), within the token limit."""
        bounds.check_source(self.env, f"{{{{ {source} }}}}")  # lexed as the expression it is
        return self.env.compile_expression(source, undefined_to_none=False)

    def template(self, source: str, prefix: str) -> Template:
        """The compiled template of `source` (raises jinja2.TemplateError)."""
        bounds.check_source(self.env, source)
        name = f"{prefix}-{hashlib.sha256(source.encode()).hexdigest()[:32]}"
        # the loader's own path (bytecode cache by name and checksum), for this source only:
        # a dict of every source compiled, for the environment's loader, kept them all for
        # good (a language server's layout and rulebook edits, one whole text each)
        loader = FunctionLoader(lambda _: (source, None, lambda: True))
        return loader.load(self.env, name, self.env.make_globals(None))


__all__ = ["TEMPLATE_CODE", "CachedSandbox", "TemplateLimitError", "bytecode_cache", "parse_check"]
