"""G checks of Drinking Heroes: the design invariants V1–V11 the schema cannot express.

Each check reads the validated models and reports at the offending value's position. Counts
are derived from the content where the design allows it (equal bonus totals, equal pairs,
seats from the rules); the §3.1 monster formulas are the design's own and are stated here.

One module per rule group (heroes, monsters, spells, setup, texts), each check registered by
the `check` decorator under the rules it reports; this package imports every module and
hands the plugin the checks in rule-code order.
"""

from __future__ import annotations

from toolkit.games.drinking_heroes.checks.base import CHECKS_BY_RULE

CHECKS = CHECKS_BY_RULE.collect(__name__)
