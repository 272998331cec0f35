"""The render cache: the last good PNG pages of every target, each with a version.

A page's version goes up only when its bytes change, so the page in the browser reloads
exactly the images that look different. A target that fails to draw keeps its last good
pages and records why. The lock guards what is stored; drawing happens outside it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from toolkit.preview.draw import DrawError, Refused, Result
from toolkit.render.deps import Target


@dataclass(frozen=True)
class Page:
    png: bytes
    version: int


def page_key(target: Target, index: int) -> str:
    """A face is one page named like its target; boards and rulebooks number theirs."""
    return target.key if target.kind == "face" else f"{target.key}/{index + 1}"


class RenderCache:
    """Pages by key, drawn on demand or ahead, never from a path the request names."""

    def __init__(self, draw: Callable[[list[Target]], list[Result]]) -> None:
        self._draw = draw
        self.lock = threading.RLock()  # held while pages are stored or read, the game swapped
        self.pages: dict[str, Page] = {}
        self.counts: dict[str, int] = {}  # target key → pages drawn
        self.errors: dict[str, str] = {}  # target key → why its last drawing failed
        self.refused: set[str] = set()  # … because the revision's budgets were spent
        # a board's or rulebook's pages in mm, known with its PDF (its pages may not all be
        # drawn: each is drawn when the page asks for it)
        self.sizes: dict[str, list[tuple[float, float]]] = {}
        self._targets: dict[str, Target] = {}

    def has(self, target: Target) -> bool:
        return target.key in self.counts

    def render(self, targets: list[Target]) -> list[str]:
        """Draw `targets` now (in one go where they allow it); the keys of pages that were
        drawn before and now look different."""
        if not targets:
            return []
        results = self._draw(targets)  # outside the lock: the page stays readable meanwhile
        with self.lock:
            changed: list[str] = []
            for target, result in zip(targets, results, strict=True):
                changed += self._store(target, result)
            return changed

    def keep(self, target: Target, pages: list[bytes]) -> None:
        """Store pages drawn earlier (the image store of a previous start)."""
        with self.lock:
            self._store(target, pages)

    def keep_pages(
        self, target: Target, sizes: list[tuple[float, float]], pages: dict[int, bytes]
    ) -> list[str]:
        """Store some pages of a document whose PDF has `sizes` (its page count): the
        others stay as they were, or undrawn; the keys of pages that now look different."""
        with self.lock:
            self._targets[target.key] = target
            self.errors.pop(target.key, None)
            changed = []
            for index, png in pages.items():
                key = page_key(target, index)
                old = self.pages.get(key)
                if old is None:
                    self.pages[key] = Page(png, 1)
                elif old.png != png:
                    self.pages[key] = Page(png, old.version + 1)
                    changed.append(key)
            for index in range(len(sizes), self.counts.get(target.key, 0)):
                self.pages.pop(page_key(target, index), None)  # a rulebook lost pages
            self.counts[target.key] = len(sizes)
            self.sizes[target.key] = sizes
            return changed

    def fail(self, target: Target, error: DrawError) -> None:
        """A document whose PDF could not be made: no page, and why (its last good pages
        are the page's until the next drawing)."""
        with self.lock:
            self._store(target, error)

    def _store(self, target: Target, result: Result) -> list[str]:
        self._targets[target.key] = target
        if isinstance(result, DrawError):
            self.errors[target.key] = str(result)
            self.counts.setdefault(target.key, 0)
            if isinstance(result, Refused):
                self.refused.add(target.key)
            return []
        self.errors.pop(target.key, None)
        self.refused.discard(target.key)
        changed = []
        for index, png in enumerate(result):
            key = page_key(target, index)
            old = self.pages.get(key)
            if old is None:
                self.pages[key] = Page(png, 1)  # a first drawing is no change
            elif old.png != png:
                self.pages[key] = Page(png, old.version + 1)
                changed.append(key)
        for index in range(len(result), self.counts.get(target.key, 0)):
            self.pages.pop(page_key(target, index), None)  # a rulebook lost pages
        self.counts[target.key] = len(result)
        return changed

    def page(self, key: str) -> Page | None:
        return self.pages.get(key)

    def forget(self, keep: set[str]) -> None:
        """Drop the pages of targets that no longer exist (a card deleted, a deck renamed)."""
        with self.lock:
            self.drop({k for k in self.counts if k not in keep})

    def drop(self, keys: set[str]) -> None:
        """Forget the targets `keys` (their pages, or why they failed): not drawn now."""
        with self.lock:
            for key in [k for k in keys if k in self.counts]:
                target = self._targets.pop(key)
                for index in range(self.counts.pop(key)):
                    self.pages.pop(page_key(target, index), None)
                self.errors.pop(key, None)
                self.refused.discard(key)
                self.sizes.pop(key, None)
