"""G checks of Tokaido content: the validator checklist of spec §14 (V1-V15), each reported
at the YAML node to fix. They run after the schema checks passed, on valid models.

The published game's facts the checklist names (the road of spec §2, card counts, starting
coins, rules constants) are written once below as `PUBLISHED`: the checks compare the content
with them, so an edit that drifts from the box is caught where it was made. A designer who
changes the game on purpose ignores the rule in the manifest (`ignore: [G403]`).

One module per rule group (road, decks, setup, cards), each check registered by the `check`
decorator under the rule it reports; this package imports every module and hands the plugin
the checks in rule-code order.
"""

from __future__ import annotations

from toolkit.games.tokaido.checks.base import CHECKS_BY_RULE

CHECKS = CHECKS_BY_RULE.collect(__name__)
