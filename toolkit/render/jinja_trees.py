"""Jinja parse trees as plain data (for `marshal`), and back: a layout's pieces are parsed
on every run (toolkit.render.layout: ~30 small parses, ~3.5 ms of a cold build) although
their sources rarely change; kept in the template cache's store, they are read back instead.

A tree is written only when it is plain: each node of one of `jinja2.nodes`' own classes,
holding nothing but its fields and its `lineno` (a line, or none) and `environment`
attributes (the environment that parsed it, or none: the loops' guards are made after the
parse), and its fields nodes, lists of them, or texts, numbers, booleans and None. Anything
else raises `NotPlain` (and the tree is not kept). `tree(data(node), env)` gives a tree
equal to `node` field for field, each node at the same line and with the same environment
(or none); `data` checks that before it answers.
"""

from __future__ import annotations

from typing import Any

from jinja2 import nodes

_SCALARS = frozenset({str, int, float, bool, type(None)})


class NotPlain(ValueError):
    """A tree holding something `data` does not write."""


def _data(node: Any, env: Any) -> Any:
    kind = type(node)
    if kind in _SCALARS:
        return node
    if kind is list:
        return [_data(item, env) for item in node]
    if not isinstance(node, nodes.Node) or getattr(nodes, kind.__name__, None) is not kind:
        raise NotPlain(kind.__name__)
    if set(vars(node)) != {*kind.fields, *kind.attributes} or kind.attributes != (
        "lineno",
        "environment",
    ):
        raise NotPlain(kind.__name__)
    own = node.environment
    if own is not None and own is not env:
        raise NotPlain("environment")
    lineno = node.lineno  # None on some nodes the parser makes (a comparison's operand)
    if lineno is not None and type(lineno) is not int:
        raise NotPlain("lineno")
    fields = tuple(_data(getattr(node, name), env) for name in kind.fields)
    return (kind.__name__, fields, lineno, own is not None)


def _tree(data: Any, env: Any) -> Any:
    kind = type(data)
    if kind in _SCALARS:
        return data
    if kind is list:
        return [_tree(item, env) for item in data]
    name, fields, lineno, with_env = data
    cls = getattr(nodes, name)
    if not (isinstance(cls, type) and issubclass(cls, nodes.Node)) or cls.abstract:
        raise NotPlain(name)
    if type(fields) is not tuple or len(fields) != len(cls.fields):
        raise NotPlain(name)
    if (lineno is not None and type(lineno) is not int) or type(with_env) is not bool:
        raise NotPlain(name)
    made: Any = cls.__new__(cls)
    for field, value in zip(cls.fields, fields, strict=True):
        setattr(made, field, _tree(value, env))
    made.lineno = lineno
    made.environment = env if with_env else None
    return made


def data(node: nodes.Node, env: Any) -> Any:
    """`node` (parsed by `env`) as nested tuples, lists and scalars; raises NotPlain."""
    found = _data(node, env)
    again = _tree(found, env)
    if again != node or _data(again, env) != found:  # never expected: then not kept
        raise NotPlain("not the same tree")
    return found


def tree(found: Any, env: Any) -> Any:
    """The tree `data` wrote as `found` (raises NotPlain, or TypeError, ValueError,
    AttributeError for data that is not what `data` writes)."""
    return _tree(found, env)
