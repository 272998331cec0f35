"""An installed package outside the toolkit, made in a test: one module and a dist-info folder
whose `entry_points.txt` names it in a registry's entry-point group, on `sys.path` as pip
would leave it. What the registries find there is what a designer's package would give."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from textwrap import dedent
from typing import Any


@contextmanager
def installed(
    root: Path, module: str, source: str, group: str, points: dict[str, str], registry: Any
) -> Iterator[None]:
    """`module` (its `source`) installed under `root` with `points` (name → `module:attr` or
    `module`) in `group`; `registry` looks again on entry and on exit."""
    site = root / "site-packages"
    site.mkdir(parents=True, exist_ok=True)
    (site / f"{module}.py").write_text(dedent(source), encoding="utf-8")
    dist = site / f"{module.replace('_', '-')}-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 1.0\n")
    lines = "".join(f"{name} = {target}\n" for name, target in points.items())
    (dist / "entry_points.txt").write_text(f"[{group}]\n{lines}", encoding="utf-8")
    sys.path.insert(0, str(site))
    before = set(registry.registered())
    try:
        registry.rediscover()
        yield
    finally:
        sys.path.remove(str(site))
        sys.modules.pop(module, None)
        for name in set(registry.registered()) - before:
            registry.unregister(name)
        registry.rediscover()
