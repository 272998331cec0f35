"""Sandboxed Jinja environments whose compiled templates are kept between runs.

Compiling a template costs far more than rendering it (a rulebook ~0.1 s, a card layout
~15 ms), and the same sources are compiled on every run; Jinja's bytecode cache keeps the
compiled code on disk, keyed by source checksum, in the user cache folder.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from jinja2 import FileSystemBytecodeCache, FunctionLoader, StrictUndefined, Template
from jinja2.sandbox import SandboxedEnvironment

TEMPLATE_CODE = r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}"
"""A regular expression for Jinja expressions, statements and comments (use re.DOTALL)."""


def cache_dir() -> Path | None:
    """`$PLAYSET_CACHE/jinja`, else `$XDG_CACHE_HOME/playset/jinja`, else
    `~/.cache/playset/jinja`; None when it cannot be written (no cache, same results)."""
    base = os.environ.get("PLAYSET_CACHE") or os.environ.get("XDG_CACHE_HOME")
    folder = Path(base) / "playset" if base else Path.home() / ".cache" / "playset"
    folder = folder / "jinja"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK) else None


class CachedSandbox:
    """A sandboxed environment that compiles sources by checksum through the bytecode cache."""

    def __init__(self, keep_trailing_newline: bool) -> None:
        self._sources: dict[str, str] = {}
        folder = cache_dir()
        self.env = SandboxedEnvironment(
            loader=FunctionLoader(lambda name: (self._sources[name], None, lambda: True)),
            bytecode_cache=FileSystemBytecodeCache(str(folder)) if folder else None,
            undefined=StrictUndefined,
            autoescape=False,
            keep_trailing_newline=keep_trailing_newline,
            cache_size=0,
        )

    def template(self, source: str, prefix: str) -> Template:
        """The compiled template of `source` (raises jinja2.TemplateError)."""
        name = f"{prefix}-{hashlib.sha256(source.encode()).hexdigest()[:32]}"
        self._sources[name] = source
        return self.env.get_template(name)
