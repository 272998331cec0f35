"""G checks of Muckle Stoater content: the validator invariants of spec §4 (1–10), each
reported at the YAML node to fix. They run after the schema checks passed, on valid models.

One module per rule group (players, track, pack), each check registered by the `check`
decorator under the rules it reports; this package imports every module and hands the
plugin the checks in rule-code order.
"""

from __future__ import annotations

from toolkit.games.muckle_stoater.checks.base import CHECKS_BY_RULE

CHECKS = CHECKS_BY_RULE.collect(__name__)
