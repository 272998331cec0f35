"""G checks of The Whisky Game's content: the validator invariants of spec §E (E8, the
question counts, is a generic question-bank check), each reported at the node to fix.
They run after the schema checks passed, on valid models.

One module per rule group (bottles, regions, map, cards, components), each check registered
by the `check` decorator under the rules it reports; this package imports every module and
hands the plugin the checks in rule-code order.
"""

from __future__ import annotations

from toolkit.games.whisky_game.checks.base import CHECKS_BY_RULE

CHECKS = CHECKS_BY_RULE.collect(__name__)
