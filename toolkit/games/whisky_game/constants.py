"""The Whisky Game's codes and plain data types: space kinds, effect and special codes, event
names, the play's phases and action encoding, the compiled Character, Special and Content.
Compile, tables, state and the phase modules (specials, moves, scoring, figures) import this
module; it imports none of them."""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.games.whisky_game.effect_kinds import CHARACTER_KINDS, SPECIAL_KINDS

# Space kinds (codes); destinations are where a move may stop early (rule A5).
K_OTHER, K_DIST, K_LOST, K_PORT, K_AIR, K_PUB, K_RES, K_SPEC, K_SEA = range(9)
KIND_CODE = {
    "distillery": K_DIST,
    "lost_distillery": K_LOST,
    "port": K_PORT,
    "airport": K_AIR,
    "pub": K_PUB,
    "resource": K_RES,
    "special": K_SPEC,
    "sea": K_SEA,
}
DESTINATIONS = frozenset((K_DIST, K_LOST, K_PORT, K_AIR, K_PUB))
COUNTRY_CODE = {"scotland": 0, "ireland": 1}
SEA_COUNTRY = 2
RESOURCES = ("barley", "water", "yeast")

# Character effect codes (`CHARACTER_KINDS`, in their order).
(
    C_ADD,
    C_MULT,
    C_RESCUE,
    C_NEWQ,
    C_EXTRA,
    C_BONUS,
    C_JUMP,
    C_SPILL,
    C_WILD,
) = range(len(CHARACTER_KINDS))
CHAR_CODE = {kind: code for code, kind in enumerate(CHARACTER_KINDS)}

# Special effect codes (`SPECIAL_KINDS`, in their order).
(
    S_FIFTY,
    S_BONUS,
    S_WRITER,
    S_RETURN,
    S_TAKEBACK,
    S_MOVEREGION,
    S_FLIGHT,
    S_HANGOVER,
    S_CARRIAGE,
    S_TRUCK,
    S_LOSE,
    S_REVEAL,
    S_FIXED,
    S_PROHIBITION,
    S_CALL,
    S_SKIP,
    S_MULTTOKENS,
    S_DOWNGRADE,
    S_UPGRADE,
    S_DISCARD,
    S_TAKEREGION,
) = range(len(SPECIAL_KINDS))

EVENT_NAMES = (
    "questions",
    "right_answers",
    "bottles_won",
    "bottles_returned",
    "lost_bought",
    "tokens_gained",
    "tokens_spent",
    "tokens_lost",
    "empty_bag",
    "pub_trades",
    "specials_drawn",
    "specials_played",
    "declarations",
    "voided_declarations",
    "question_reshuffles",
    "special_reshuffles",
    "flights",
    "ferry_crossings",
    "turns_at_sea",
    "skipped_turns",
    "hangover_turns",
    "prohibition_turns",
    "helpers_used",
    "spills",
)
(
    EV_Q,
    EV_RIGHT,
    EV_WON,
    EV_RETURNED,
    EV_LOST,
    EV_GAIN,
    EV_SPENT,
    EV_TLOST,
    EV_EMPTY,
    EV_PUB,
    EV_DRAWN,
    EV_PLAYED,
    EV_DECL,
    EV_VOID,
    EV_QRESHUF,
    EV_SRESHUF,
    EV_FLIGHT,
    EV_FERRY,
    EV_SEA,
    EV_SKIP,
    EV_HANG,
    EV_PROHIB,
    EV_HELP,
    EV_SPILL,
) = range(len(EVENT_NAMES))


@dataclass(frozen=True, slots=True)
class Character:
    """One character as plain values: (effect code, a, b) triples."""

    name: str
    extended: bool
    effects: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True)
class Special:
    """One special card type: effect code, parameters, timing, copies."""

    name: str
    extended: bool
    kind: int
    hold: bool
    stays: bool
    copies: int
    a: int  # main number (amount, points, steps, turns, factor, count, region, rolls, ...)
    b: int  # second number (target: 0 self / 1 opponent; cure face; return trip; to)
    c: int  # third number (no-move max; send-to distillery space or -1)
    values: tuple[int, ...]  # Angels' values / G&M's targets


@dataclass(frozen=True, slots=True)
class Content:
    """Everything the rules use, as plain values (no pydantic in the engine)."""

    game_id: str
    min_players: int
    max_players: int
    # rules
    die_sides: int
    reroll_face: int
    starts: tuple[int, ...]  # space indexes
    diff_names: tuple[str, ...]
    bottle_values: tuple[int, ...]  # per difficulty
    bottles_per_distillery: int
    goal_regions: int
    goal_points: int
    lost_cost: tuple[int, int, int]
    lost_values: tuple[int, ...]
    pub_in: int
    pub_out: int
    bag: tuple[int, int, int]
    round_limit: int
    skills: dict[str, tuple[int, ...]]  # name -> P(right) per difficulty, in 1/1_000_000
    questions: tuple[int, ...]  # cards per difficulty
    # map
    space_names: tuple[str, ...]
    kind: tuple[int, ...]
    region: tuple[int, ...]  # -1 for none
    country: tuple[int, ...]
    adj: tuple[tuple[int, ...], ...]  # land links (sea spaces never entered by a move)
    ferries: tuple[tuple[tuple[int, int, int], ...], ...]  # [port] (sea, far port, leaves)
    airports: tuple[int, ...]
    flights: tuple[tuple[int, ...], ...]  # [space] airports reachable by a flight
    region_names: tuple[str, ...]
    region_spaces: tuple[tuple[int, ...], ...]  # land spaces per region
    dist_space: tuple[int, ...]  # distillery index -> space
    dist_region: tuple[int, ...]
    space_dist: tuple[int, ...]  # space -> distillery index or -1
    lost_spaces: tuple[int, ...]
    distance: tuple[tuple[int, ...], ...]  # [a][b] steps by land and ferry (ferry = a turn)
    # decks
    characters: tuple[Character, ...]
    specials: tuple[Special, ...]


# --- play: phases, operations and the action encoding (state) -----------------------

PH_START, PH_PATH, PH_ACT, PH_HELP, PH_JUMP, PH_CHOICE, PH_OVER, PH_END = range(8)
END_NOW = 2  # OP_PASS's argument at PH_END: the turn ends, no more held card played
(
    OP_ROLL,
    OP_PATH,
    OP_DIFF,
    OP_PASS,
    OP_HELP,
    OP_BUY,
    OP_PUB,
    OP_BOOK,
    OP_FERRY,
    OP_CARD,
    OP_SPILL,
    OP_CHOOSE,
    OP_HERE,
    OP_JUMP,
) = range(14)
SHIFT = 12
MASK = (1 << SHIFT) - 1
ROLL = OP_ROLL << SHIFT
# helper args
H_FAIL, H_FIFTY, H_WRITER, H_RESCUE, H_NEWQ = range(5)
# what a finished choice resumes
R_START, R_END_MOVE, R_AFTER_Q, R_SETUP, R_END_TURN, R_ACT = range(6)
