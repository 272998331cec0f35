"""A game's G checks, registered by a decorator: each check is declared, in the module of its
rule group, with the rules it reports (`@check(G_X)`), and the game's `checks` package
collects every module's checks; no hand-kept list can forget one.

The checks come out in the order of the first rule each reports, each guarded
(`guarded_check`: valid content only), as `GamePlugin.checks` wants them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import Any

from toolkit.content.plugin import guarded_check
from toolkit.diagnostics import Rule
from toolkit.registry import package_modules

Check = Callable[[Any], Iterable[Any]]


class GameChecks:
    """One game's checks by the rule codes they report (one check per rule)."""

    def __init__(self) -> None:
        self.by_code: dict[str, Check] = {}

    def check(self, *reported: Rule) -> Callable[[Check], Check]:
        """Register a check under the rules it reports; a second check for a rule is a
        programming error (two checks would report it twice)."""

        def register(fn: Check) -> Check:
            for rule in reported:
                if self.by_code.setdefault(rule.code, fn) is not fn:
                    raise ValueError(f"two checks report {rule.code}")
            return fn

        return register

    def registered(self) -> tuple[Callable[[Any], list[Any]], ...]:
        """Every registered check, guarded, in the order of its first rule's code."""
        ordered = dict.fromkeys(self.by_code[code] for code in sorted(self.by_code))
        return tuple(guarded_check(fn) for fn in ordered)

    def collect(self, package: str) -> tuple[Callable[[Any], list[Any]], ...]:
        """Import every module of `package` (its rule groups, in name order), then hand
        over what they registered."""
        for module in package_modules(package):
            importlib.import_module(module)
        return self.registered()
