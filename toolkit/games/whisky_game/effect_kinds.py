"""The effect kinds the Whisky Game's engine implements, by name, in the order of their codes
(toolkit.games.whisky_game.constants numbers them: `CHAR_CODE`, the `S_*` codes). Apart
from the engine's codes and data types: `validate`'s check that every effect a card names is
one of these (checks/cards.py) imports this module alone, not the engine's constants module
and its compiled data types, which no check uses."""

CHARACTER_KINDS = (
    "add_points",
    "multiply_points",
    "rescue_roll",
    "new_question_roll",
    "extra_moves",
    "move_bonus",
    "jump_after_visit",
    "spill_bottle",
    "wild_tokens",
)
"""A character's effect kinds, in the order of their codes (`constants.C_ADD`...)."""
SPECIAL_KINDS = (
    "fifty_fifty",
    "bonus_bottle",
    "win_anyway",
    "return_bottle",
    "take_back_bottle",
    "move_to_region",
    "flight_ticket",
    "roll_penalty",
    "move_add",
    "move_multiply",
    "lose_tokens",
    "reveal_lost",
    "fixed_move",
    "prohibition",
    "call_bottle",
    "skip_turns",
    "multiply_tokens",
    "downgrade_bottle",
    "upgrade_bottle",
    "discard_bottles",
    "take_region_bottle",
)
"""A special card's effect kinds, in the order of their codes (`constants.S_FIFTY`...)."""
IMPLEMENTED_CHARACTERS = frozenset(CHARACTER_KINDS)
IMPLEMENTED_SPECIALS = frozenset(SPECIAL_KINDS)
