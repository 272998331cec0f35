"""Modules a library imports at its top that a command may never use, loaded on first use.

reportlab's `reportlab.lib.utils` (under every canvas, font and PDF of a build) imports
`PIL.Image` at its top, only to tell whether images can be drawn (`Image is not None`) and to
read a picture when one is drawn. Importing PIL's Image module is ~70 M instructions
(`PIL.Image`, its enums, `PIL.ExifTags`, `PIL.ImageMode`, ...), ~6 % of a cold `playset build`
of 100 text-only cards, for a module such a build never touches.

`defer("PIL.Image")` puts the module in `sys.modules` made but not yet run (the standard
library's `importlib.util.LazyLoader`): `from PIL import Image` gives that module object, and
its first attribute read (`Image.open`, `Image.Image`) runs it where it is, so every holder of
it sees the same, whole module as before. A build that draws a picture loads PIL when it first
reads it, exactly as it would have at start-up.

Python 3.11's lazy module is not safe for two threads reading it first at the same moment:
only a command that reads PIL from one thread defers it (`playset build`, `playset validate`),
never a library caller, preview or export (their PNG workers are threads).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys


def defer(name: str) -> bool:
    """Make `name` (a submodule `package.module`) load on its first attribute read; False (and
    nothing changed) when it is already imported or cannot be found."""
    if name in sys.modules:
        return False
    parent_name, _, child = name.rpartition(".")
    try:
        parent = importlib.import_module(parent_name) if parent_name else None
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return False
    if spec is None or spec.loader is None or name in sys.modules:
        return False
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)  # nothing runs yet: the module runs on its first read
    if parent is not None:
        setattr(parent, child, module)
    return True


def is_loaded(name: str) -> bool:
    """Whether module `name` has run (a deferred one not read yet has not), without reading
    it."""
    module = sys.modules.get(name)
    return module is not None and type(module) is not importlib.util._LazyModule  # type: ignore[attr-defined]
