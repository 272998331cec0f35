"""Drinking Heroes' codes: spell effect kinds and their parameters, the mode option's choices,
the event counters, and the per-setup Table. Compile, tables and state import this module;
it imports none of them."""

from __future__ import annotations

from dataclasses import dataclass

KINDS = (
    "lower_target",
    "set_type",
    "extra_try",
    "banish",
    "double_points",
    "roll_bonus",
    "reroll",
    "shield",
    "curse",
    "give_sips",
    "give_sips_all",
    "steal_monster",
    "steal_spell",
)
"""The effect registry: a spell's kind code is its index here."""
(
    K_LOWER,
    K_SET_TYPE,
    K_EXTRA,
    K_BANISH,
    K_DOUBLE,
    K_ROLL,
    K_REROLL,
    K_SHIELD,
    K_CURSE,
    K_GIVE,
    K_GIVE_ALL,
    K_STEAL_M,
    K_STEAL_S,
) = range(len(KINDS))

# The one numeric parameter of each kind (set_type and banish have none).
_PARAM = {
    "lower_target": "amount",
    "extra_try": "amount",
    "double_points": "factor",
    "roll_bonus": "amount",
    "reroll": "count",
    "shield": "events",
    "curse": "roll_modifier",
    "give_sips": "amount",
    "give_sips_all": "amount",
    "steal_monster": "max_level",
    "steal_spell": "count",
}

# Option choice ids of the `mode` option.
COMPETITIVE, COOPERATIVE, NO_DRINKING = "competitive", "cooperative", "no_drinking"

STATIC_EVENTS = (
    "seat_turns",
    "fights",
    "tries",
    "rerolls",
    "monsters_killed",
    "monsters_refused",
    "given_up",
    "failed_max_tries",
    "sips_drunk",
    "sips_drunk_people",
    "sips_from_tries",
    "sips_from_spells",
    "sips_refused",
    "sips_shielded",
    "sacrificed",
    "sacrificed_levels",
    "spells_played",
    "spells_drawn",
    "steals",
    "stolen_levels",
    "banished",
    "double_points_scored",
    "coop_attempts",
    "coop_won",
    "coop_lost",
    "shared_wins",
    "tie_breaks",
)
(
    E_SEAT_TURNS,
    E_FIGHTS,
    E_TRIES,
    E_REROLLS,
    E_KILLED,
    E_REFUSED,
    E_GIVEN_UP,
    E_FAILED_MAX,
    E_SIPS,
    E_SIPS_PEOPLE,
    E_SIPS_TRIES,
    E_SIPS_SPELLS,
    E_SIPS_REFUSED,
    E_SIPS_SHIELDED,
    E_SACRIFICED,
    E_SACRIFICED_LEVELS,
    E_SPELLS_PLAYED,
    E_SPELLS_DRAWN,
    E_STEALS,
    E_STOLEN_LEVELS,
    E_BANISHED,
    E_DOUBLE_SCORED,
    E_COOP_ATTEMPTS,
    E_COOP_WON,
    E_COOP_LOST,
    E_SHARED_WINS,
    E_TIE_BREAKS,
) = range(len(STATIC_EVENTS))
E_LEVELS = len(STATIC_EVENTS)
"""Per-level counters follow, three per level: killed_l<L>, refused_l<L>, lost_l<L>."""


@dataclass(frozen=True, slots=True)
class Table:
    """What one setup decides, computed once per (players, options)."""

    seats: int
    members: tuple[int, ...]
    drinkers: tuple[int, ...]  # drinking members per seat
    drinking: tuple[bool, ...]  # R19: a seat with any drinker drinks
    coop: bool
    coop_extra: int
    short: bool
    spells: tuple[int, ...]  # spell card index per spell instance in this setup's deck
    monsters: int  # monster instances in play


# --- play: phases and actions (state) ----------------------------------------------------

PH_SPELL, PH_DECIDE, PH_GO, PH_SIPS, PH_CHOOSE, PH_END = range(6)
A_NONE, A_FIGHT, A_REFUSE, A_CONTINUE, A_GIVE_UP, A_DRINK = range(6)
# Where play resumes once pending sips are settled.
AFTER_SPELL, AFTER_TRY = 0, 1
SRC_TRY, SRC_SPELL = 0, 1
