"""A card layout's templates worked out without a Jinja render, where they are plain.

Most layouts' `let`, `when` and texts are field reads and tests on them
(`card.value is defined and card.value is not none`, `not numbered`, `{{ card.name }}`,
`{{ game.title }} · {{ deck.name }}`). Rendering the layout's one combined template
(toolkit.render.layout) for each card and language was a third of resolving a face, most of it
the render's own set-up. Here each piece's parse tree (the one the combined template is
checked with) is turned into a small Python function that reads the same views the same way
the sandbox does (toolkit.render.jinja_cache: an item of a plain dict or View).

Anything else, met on a card (a filter, a call, a constant, a field a view lacks used other
than in `is defined`, a value of another type), gives up for that card, and the card is
rendered by Jinja as before: this path only answers where its answer is Jinja's, and a
template error is always Jinja's own. A layout with a statement in a text (`{% if %}`,
`{% for %}`) is never taken here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jinja2 import nodes
from jinja2 import tests as jinja_tests

from toolkit.render import template_bounds as bounds
from toolkit.render.context import View
from toolkit.render.jinja_cache import _item_is_attribute as item_is_attribute


class NotPlain(Exception):
    """This card's templates need Jinja (the caller renders them)."""


_MISSING = object()
"""A field a view lacks: Jinja's undefined, which only `is defined` may look at here."""

_PLAIN = frozenset({str, int, float, bool, type(None), View, dict, list})
"""What a field read may give: anything else (a method, a tuple, a model) goes to Jinja."""

_PRINTED = frozenset({str, int, float, bool, type(None)})
"""What `{{ … }}` may print here (Jinja's `str(finalize(value))` of them is `str(value)`)."""

Expr = Callable[[dict[str, Any]], Any]
Piece = Callable[[dict[str, Any]], str]


def _give_up(scope: dict[str, Any]) -> Any:
    raise NotPlain


def _expr(node: nodes.Node) -> Expr:
    """`node` as a function of the names in scope (one that gives up when it is no plain
    read or test)."""
    if isinstance(node, nodes.Name) and node.ctx == "load":
        name = node.name

        def read(scope: dict[str, Any]) -> Any:
            try:
                return scope[name]
            except KeyError:  # not set yet, or a global (`range`): Jinja's to answer
                raise NotPlain from None

        return read
    if isinstance(node, nodes.Getattr) and node.ctx == "load":
        inner, attribute = _expr(node.node), node.attr

        def field(scope: dict[str, Any]) -> Any:
            obj = inner(scope)
            kind = type(obj)
            if kind is not dict and kind is not View:
                raise NotPlain
            if not item_is_attribute(kind, attribute):
                raise NotPlain  # `items`, `_what`: the sandbox decides
            if attribute not in obj:
                return _MISSING
            value = obj[attribute]
            if type(value) not in _PLAIN:
                raise NotPlain
            return value

        return field
    if isinstance(node, nodes.Test) and not (node.args or node.kwargs):
        if node.dyn_args is not None or node.dyn_kwargs is not None:
            return _give_up
        inner = _expr(node.node)
        if node.name == "defined":
            return lambda scope: inner(scope) is not _MISSING
        if node.name == "undefined":
            return lambda scope: inner(scope) is _MISSING
        if node.name == "none":

            def none(scope: dict[str, Any]) -> bool:
                value = inner(scope)
                if value is _MISSING:
                    raise NotPlain
                return value is None

            return none
        return _give_up
    if isinstance(node, nodes.Const):
        constant = node.value
        if type(constant) not in _PRINTED:
            return _give_up
        return lambda scope: constant
    if isinstance(node, nodes.Getitem) and node.ctx == "load":
        if not isinstance(node.arg, nodes.Expr) or isinstance(node.arg, nodes.Slice):
            return _give_up
        return _item(_expr(node.node), _expr(node.arg))
    if isinstance(node, nodes.Compare) and len(node.ops) == 1:
        compare = _COMPARED.get(node.ops[0].op)
        if compare is None:
            return _give_up
        return _compared(compare, _expr(node.expr), _expr(node.ops[0].expr))
    if isinstance(node, nodes.CondExpr):
        if node.expr2 is None:  # `a if b`: Jinja's undefined when b is false
            return _give_up
        test, chosen, other = _expr(node.test), _expr(node.expr1), _expr(node.expr2)
        return lambda scope: chosen(scope) if _truth(test(scope)) else other(scope)
    if isinstance(node, nodes.Not):
        inner = _expr(node.node)

        def negated(scope: dict[str, Any]) -> bool:
            return not _truth(inner(scope))

        return negated
    if isinstance(node, nodes.And | nodes.Or):
        left, right = _expr(node.left), _expr(node.right)
        if isinstance(node, nodes.And):

            def both(scope: dict[str, Any]) -> Any:
                first = left(scope)
                return right(scope) if _truth(first) else first

            return both

        def either(scope: dict[str, Any]) -> Any:
            first = left(scope)
            return first if _truth(first) else right(scope)

        return either
    return _give_up


_COMPARED: dict[str, Callable[[Any, Any], bool]] = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "lt": lambda a, b: a < b,
    "lteq": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "gteq": lambda a, b: a >= b,
    "in": lambda a, b: a in b,
    "notin": lambda a, b: a not in b,
}
"""The comparisons taken here (one operator, as Jinja writes each in Python): the sandbox
weighs each operand (toolkit.render.template_bounds.guard_compared), then Python compares
them; a comparison that raises (`'a' < 1`) gives up, and Jinja says it."""


def _compared(compare: Callable[[Any, Any], bool], left: Expr, right: Expr) -> Expr:
    def compared(scope: dict[str, Any]) -> bool:
        first, second = left(scope), right(scope)
        if first is _MISSING or second is _MISSING:
            raise NotPlain  # StrictUndefined refuses to be compared: Jinja says so
        try:
            return compare(bounds.guard_compared(first), bounds.guard_compared(second))
        except Exception:  # noqa: BLE001 - Jinja raises it in its own words
            raise NotPlain from None

    return compared


def _item(inner: Expr, key: Expr) -> Expr:
    """`obj[key]`: the sandbox's getitem gives the item of a plain dict, View or list when
    it is there (anything else, or none there, is Jinja's to answer)."""

    def item(scope: dict[str, Any]) -> Any:
        obj, at = inner(scope), key(scope)
        kind = type(obj)
        if kind is list:
            if type(at) is not int or not -len(obj) <= at < len(obj):
                raise NotPlain
        elif kind is dict or kind is View:
            if type(at) not in (str, int) or at not in obj:
                raise NotPlain
        else:
            raise NotPlain
        value = obj[at]
        if type(value) not in _PLAIN:
            raise NotPlain
        return value

    return item


def _doomed(node: nodes.Node) -> bool:
    """Whether `node`, once reached, gives up on every card whatever it holds (a filter, a
    call): `_expr`'s rules read statically. A layout that meets such a node on every card
    is never tried here (trying it spent a card's reads and tests, then rendered it)."""
    if isinstance(node, nodes.Name):
        return node.ctx != "load"
    if isinstance(node, nodes.Getattr):
        return node.ctx != "load" or _doomed(node.node)
    if isinstance(node, nodes.Getitem):
        if node.ctx != "load" or not isinstance(node.arg, nodes.Expr):
            return True
        return isinstance(node.arg, nodes.Slice) or _doomed(node.node) or _doomed(node.arg)
    if isinstance(node, nodes.Const):
        return type(node.value) not in _PRINTED
    if isinstance(node, nodes.Compare):
        if len(node.ops) != 1 or node.ops[0].op not in _COMPARED:
            return True
        return _doomed(node.expr) or _doomed(node.ops[0].expr)
    if isinstance(node, nodes.CondExpr):
        if node.expr2 is None or _doomed(node.test):
            return True
        return _doomed(node.expr1) and _doomed(node.expr2)
    if isinstance(node, nodes.Test):
        if node.args or node.kwargs or node.dyn_args is not None or node.dyn_kwargs is not None:
            return True
        return node.name not in ("defined", "undefined", "none") or _doomed(node.node)
    if isinstance(node, nodes.Not):
        return _doomed(node.node)
    if isinstance(node, nodes.And | nodes.Or):
        return _doomed(node.left)  # the right operand is read on some cards only
    return True


def _truth(value: Any) -> bool:
    if value is _MISSING:  # StrictUndefined refuses to be tested: Jinja says so
        raise NotPlain
    return bool(value)


def _printed(expr: Expr) -> Piece:
    def printed(scope: dict[str, Any]) -> str:
        value = expr(scope)
        if type(value) not in _PRINTED:
            raise NotPlain
        return value if type(value) is str else str(value)

    return printed


def _text(body: list[nodes.Node]) -> list[Piece | str] | None:
    """A text template's body as literal parts and printed expressions; None if it has a
    statement (the layout is then rendered by Jinja)."""
    parts: list[Piece | str] = []
    for node in body:
        if not isinstance(node, nodes.Output):
            return None
        for child in node.nodes:
            if isinstance(child, nodes.TemplateData):
                parts.append(child.data)  # template data is printed as written
            elif isinstance(child, nodes.Expr):
                parts.append(_printed(_expr(child)))
            else:
                return None
    return parts


Plan = tuple[list[tuple[str, Expr]], list[tuple[Expr | None, list[list[Piece | str] | None]]]]
Parsed = tuple[list[tuple[str, Any]], list[tuple[Any | None, list[Any | None]]]]
"""A layout's pieces as `_layout_template` parses them: each `let` entry and `when` as the tree
of `{{ (expression) }}`, each text as the tree of its source."""


def plan(env: Any, parsed: Parsed) -> Plan | None:
    """The layout's `let` entries and, per element, its `when` and its texts' parts; None when
    a piece holds a statement or the environment's tests are not Jinja's own."""
    for name, own in (
        ("defined", jinja_tests.test_defined),
        ("undefined", jinja_tests.test_undefined),
        ("none", jinja_tests.test_none),
    ):
        if env.tests.get(name) is not own:
            return None
    try:
        return _plan(parsed)
    except Exception:  # noqa: BLE001 - a tree it cannot read (however deep): Jinja renders
        return None


def _plan(parsed: Parsed) -> Plan | None:
    let, elements = parsed
    lets: list[tuple[str, Expr]] = []
    for name, tree in let:
        expr = _expression(tree)
        if expr is None or _doomed(tree.body[0].nodes[0]):
            return None
        lets.append((name, expr))
    shown: list[tuple[Expr | None, list[list[Piece | str] | None]]] = []
    for when, trees in elements:
        test = _expression(when) if when is not None else None
        if when is not None and (test is None or _doomed(when.body[0].nodes[0])):
            return None
        texts: list[list[Piece | str] | None] = []
        for tree in trees:
            parts = _text(tree.body) if tree is not None else None
            if tree is not None and parts is None:
                return None
            if when is None and tree is not None and _doomed_text(tree.body):
                return None  # an element that always shows: read on every card
            texts.append(parts)
        shown.append((test, texts))
    return lets, shown


def _doomed_text(body: list[nodes.Node]) -> bool:
    """Whether a text (one `_text` could read) prints an expression that gives up on every
    card."""
    return any(
        _doomed(child)
        for node in body
        if isinstance(node, nodes.Output)
        for child in node.nodes
        if isinstance(child, nodes.Expr) and not isinstance(child, nodes.TemplateData)
    )


def _expression(tree: Any) -> Expr | None:
    """The expression of a parsed `{{ (expression) }}`."""
    body = tree.body
    if len(body) != 1 or not isinstance(body[0], nodes.Output) or len(body[0].nodes) != 1:
        return None
    node = body[0].nodes[0]
    return _expr(node) if isinstance(node, nodes.Expr) else None


def evaluate(found: Plan, context: dict[str, Any]) -> list[tuple[bool, tuple[str, ...]]]:
    """For each element: whether it shows, and its texts (stripped, "" for a missing
    template); raises NotPlain where Jinja must render the card instead."""
    lets, elements = found
    scope = dict(context)
    for name, expr in lets:
        scope[name] = expr(scope)
    budget = bounds.current()
    spent = budget.created if budget is not None else 0
    limit = budget.max_created if budget is not None else bounds.MAX_CREATED
    made = 0
    out: list[tuple[bool, tuple[str, ...]]] = []
    for test, texts in elements:
        if test is not None and not _truth(test(scope)):
            out.append((False, ()))
            continue
        values: list[str] = []
        for parts in texts:
            if parts is None:
                values.append("")
                continue
            pieces = [part if isinstance(part, str) else part(scope) for part in parts]
            # bounded before the join, as the render's `concat` (template_bounds.guard_concat)
            # and its budget's `charge` are: a text of 3,000 references to one 1 MB field
            # took 3 GB joined, then was refused
            size = sum(map(len, pieces))
            made += size
            if size > bounds.MAX_OUTPUT or spent + made > limit:
                raise NotPlain  # Jinja's limit, in Jinja's words
            values.append("".join(pieces).strip())
        out.append((True, tuple(values)))
    if budget is not None:
        budget.created += made
    return out
