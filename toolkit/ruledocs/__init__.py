"""Rule documentation proven by examples, as `ruff rule`: one YAML per rule code.

Each `examples/<CODE>.yaml` (a game's own rules: `toolkit/games/<id>/rule_examples/`) says what
the rule checks and why, and describes a failing and a passing example as text edits over a
base game (`base/`, a bundled game, or the scaffold): the failing example reports the code at
`at:`, the passing example never reports it. `playset rules CODE`
prints them; tests/test_rule_coverage.py runs every one.
"""

from toolkit.ruledocs.examples import EXAMPLES_DIR, Edit, RuleExample, example_codes, load_example
from toolkit.ruledocs.materialise import materialise

__all__ = [
    "EXAMPLES_DIR",
    "Edit",
    "RuleExample",
    "example_codes",
    "load_example",
    "materialise",
]
