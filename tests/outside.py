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
    root: Path, module: str, source: str, group: str, points: dict[str, str], *registries: Any
) -> Iterator[None]:
    """`module` (its `source`) installed under `root` with `points` (name → `module:attr` or
    `module`) in `group`; the first registry looks again on entry, and on exit each forgets
    what the package registered in it (its rules, say) and the first looks again."""
    site = root / "site-packages"
    site.mkdir(parents=True, exist_ok=True)
    (site / f"{module}.py").write_text(dedent(source), encoding="utf-8")
    dist = site / f"{module.replace('_', '-')}-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 1.0\n")
    lines = "".join(f"{name} = {target}\n" for name, target in points.items())
    (dist / "entry_points.txt").write_text(f"[{group}]\n{lines}", encoding="utf-8")
    for registry in registries:  # built-ins loaded first: else they count as the package's
        load = getattr(registry, "load", None)
        if load is not None:
            load()
    sys.path.insert(0, str(site))
    before = [set(registry.registered()) for registry in registries]
    try:
        registries[0].rediscover()
        yield
    finally:
        sys.path.remove(str(site))
        sys.modules.pop(module, None)
        for registry, known in zip(registries, before, strict=True):
            for name in set(registry.registered()) - known:
                registry.unregister(name)
        registries[0].rediscover()


def reference_text() -> str:
    """`playset reference --plugins` as the command line renders it (its own commands
    included): the installed plugins' entries documented too."""
    import typer

    from toolkit import reference
    from toolkit.cli import make_app

    return reference.render(typer.main.get_command(make_app()), plugins=True)
