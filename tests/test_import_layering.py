"""The toolkit's import graph: no cycle among its modules, and no upward import between its
rooms (content never imports checks, render, sim or cli; sim never imports render or cli;
games never import render or cli; …).

The graph is read with `ast` from the sources, every `import` and `from … import` counted
wherever it stands (module level, inside functions, under `if TYPE_CHECKING:`). One kind of
edge is left out of the cycle check only: a type-only import (under `if TYPE_CHECKING:`)
never runs, and it is how a phase module names the state it is handed; it still counts
for the layering rule.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import REPO

PACKAGE = REPO / "toolkit"

# The rooms and what each may import (besides itself). Written once; the rest follows:
# a room not listed here fails the test until it is placed.
MAY_IMPORT: dict[str, frozenset[str]] = {
    "registry": frozenset(),  # the one registry shape every extension point uses
    "home": frozenset(),  # where the toolkit's own files live
    "stale_files": frozenset(),  # the one remover of a killed write's temporaries
    "fileio": frozenset({"stale_files"}),  # safe writes, containment
    "journal": frozenset({"fileio", "stale_files"}),
    "usercache": frozenset({"stale_files"}),  # the private, signed user cache folder
    "dataclass_code": frozenset({"usercache"}),  # dataclass methods' code kept between runs
    "forks": frozenset({"dataclass_code"}),  # jobs in forked children (their compiled code kept)
    "deferred_imports": frozenset(),  # a library's import loaded on its first use
    "build_date": frozenset(),  # SOURCE_DATE_EPOCH, read and refused in one place
    "diagnostics": frozenset({"fileio", "home", "registry"}),
    # content never imports checks, render, sim or cli
    # content: journal, to refuse a game a killed write left half changed
    "content": frozenset({"diagnostics", "fileio", "home", "journal", "registry", "usercache"}),
    # render never imports sim, checks or cli
    # render: journal, to write one language's build outputs as one change
    "render": frozenset(
        {"content", "diagnostics", "fileio", "home", "journal", "registry", "usercache"}
    ),
    "sim": frozenset({"content", "diagnostics", "fileio", "home", "registry"}),  # no render/…
    "api": frozenset({"sim"}),  # the engines' one import
    # never render, sim, checks, cli; fileio: a game's own check reads a file bounded, inside
    "games": frozenset({"api", "content", "diagnostics", "fileio"}),
    # board kinds: a model and its drawer (content finds them through its registry)
    "boards": frozenset({"content", "render"}),
    "checks": frozenset(
        {"content", "diagnostics", "fileio", "home", "registry", "render", "sim", "usercache"}
    ),  # usercache: the plural rules' texts kept between runs
    # validate's games: the cache's, the others checked (in forked workers)
    "validate_games": frozenset({"checks", "content", "diagnostics", "forks"}),
    "i18n": frozenset(
        {"build_date", "checks", "content", "diagnostics", "fileio", "home", "registry", "render"}
        | {"usercache"}  # the lock of a game folder an import rewrites (i18n/held.py)
    ),
    "preview": frozenset(
        {"checks", "content", "diagnostics", "fileio", "home", "render", "usercache"}
    ),
    "reference": frozenset({"checks", "content", "diagnostics", "fileio", "home", "render"}),
    "scaffold": frozenset({"api", "content", "fileio", "home", "render"}),
    # rule pages: examples over a base game (one of them the scaffold's)
    "ruledocs": frozenset({"content", "diagnostics", "fileio", "home", "scaffold"}),
    # the editor's server: the checks' findings, the game's names, the typography fixes
    "lsp": frozenset({"checks", "content", "diagnostics", "fileio", "i18n", "render", "ruledocs"}),
    "cli": frozenset(
        {"api", "checks", "content", "dataclass_code", "deferred_imports", "diagnostics", "fileio"}
        | {
            "build_date",
            "home",
            "i18n",
            "journal",
            "lsp",
            "preview",
            "reference",
            "registry",  # pydantic's plugins settled from its read of the entry points
            "render",
            "ruledocs",
            "scaffold",
            "sim",
            "validate_games",
        }
    ),
    "__main__": frozenset({"cli"}),
}

# Known exceptions, each an edge (importer, imported) with its reason. Keep this short: an
# entry is a debt, reported when added, removed when paid.
KNOWN_UPWARD: dict[tuple[str, str], str] = {}
KNOWN_CYCLES: dict[tuple[str, str], str] = {}


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(REPO).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _type_checking(node: ast.AST) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, typed: bool = False) -> Iterator[tuple[ast.AST, bool]]:
    """Every import statement, and whether it only runs for type checkers."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, typed
        if isinstance(child, ast.If) and _type_checking(child):
            for part in child.body:
                yield from _imports(ast.Module(body=[part], type_ignores=[]), True)
            for part in child.orelse:
                yield from _imports(ast.Module(body=[part], type_ignores=[]), typed)
        else:
            yield from _imports(child, typed)


def graph() -> dict[str, dict[str, bool]]:
    """module -> {imported toolkit module: type-only}, from the sources."""
    modules = _modules()

    def owner(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, dict[str, bool]] = {}
    for name, path in modules.items():
        out: dict[str, bool] = {}
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node, typed in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, *([base] if base else [])])
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                    for a in node.names
                ]
            for target in targets:
                found = owner(target) if target.startswith("toolkit") else None
                if found and found != name:
                    out[found] = out.get(found, True) and typed
        edges[name] = out
    return edges


def _room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "toolkit"


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    top = stack.pop()
                    on.discard(top)
                    part.append(top)
                    if top == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


def test_no_import_cycle_among_toolkit_modules():
    edges = {
        module: {t for t, typed in out.items() if not typed and (module, t) not in KNOWN_CYCLES}
        for module, out in graph().items()
    }
    cycles = _cycles(edges)
    shown = [" ↔ ".join(part) for part in cycles]
    assert not cycles, "import cycles:\n" + "\n".join(shown)


def test_each_room_imports_only_the_rooms_below_it():
    wrong = []
    for module, out in graph().items():
        room = _room(module)
        if room == "toolkit":  # the package's own __init__
            continue
        assert room in MAY_IMPORT, f"{module}: room {room!r} is not in MAY_IMPORT"
        for target in out:
            there = _room(target)
            upward = there != room and there not in MAY_IMPORT[room]
            if upward and (module, target) not in KNOWN_UPWARD:
                wrong.append(f"{module} imports {target} ({room} may not import {there})")
    assert not wrong, "\n".join(wrong)


def test_the_rooms_themselves_form_no_cycle():
    rooms = {room: set(allowed) for room, allowed in MAY_IMPORT.items()}
    assert _cycles(rooms) == []


def test_known_exceptions_still_exist():
    """An exception whose import is gone is removed from the lists (they only shrink)."""
    edges = graph()
    stale = [e for e in (*KNOWN_UPWARD, *KNOWN_CYCLES) if e[1] not in edges.get(e[0], {})]
    assert not stale, stale


def test_the_graph_sees_function_level_and_type_only_imports():
    """The reader itself: an import inside a function is an edge that runs; one under
    `if TYPE_CHECKING:` is an edge marked type-only."""
    edges = graph()
    assert edges["toolkit.sim.runner"]["toolkit.sim.engines"] is False  # inside _failed
    assert edges["toolkit.preview.page"]["toolkit.preview.live"] is True  # TYPE_CHECKING
    tree = ast.parse(
        "def f():\n    import toolkit.sim\nif TYPE_CHECKING:\n    import toolkit.api\n"
    )
    assert [typed for _, typed in _imports(tree)] == [False, True]
