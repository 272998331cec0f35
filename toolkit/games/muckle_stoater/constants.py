"""Muckle Stoater's codes and plain data types: effect kinds, event names, the move shape, the
compiled Content and per-table Table. Both compile (which builds them) and state (which
plays on them) import this module, so neither imports the other's way back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Move = tuple[int, int, int, int, int, int, int]
"""A legal use of one effect: (variant, laddie, from, to, second laddie, its from, its to);
-1 = unused, from -1 = the Dock. A 7 split lists the part played first first. For a Bonnie
Fechter the second laddie is the target (its from = its to = its hole). The action is
`variant * E + effect`."""

ReadyOption = tuple[int, int, int, int]  # (path mask, dest, variant, variant * E)
ReadyMove = tuple[int, int, int, int, ReadyOption | None]  # the first option, and the second
SplitOption = tuple[int, int, int, int]  # (option 0 track / 1 Castle, dest, path mask, dest bit)
SplitShares = tuple[tuple[tuple[SplitOption, ...], ...], int, int]
PlanStep = tuple[int, int, int, Any]
"""(effect, shared key or -1, kind, its table or argument): see `Table.rank_plan`."""

MAX_PACKS = 12
"""The most packs `packs_by_players` may shuffle together for one player count. The box's
rules use 2 packs (2-4 players) or 3 (5-6 players); four times the largest is far more than a
table could hold or deal from (12 packs are 648 cards), and still a small deck to build at
setup. Unbounded, a value of 3,000,000 validated clean and the setup built a deck of 162
million cards (2.6 GB, then an error that blamed an endless loop)."""

# Effect kinds (also the kind codes of move descriptors; DISCARD is the forced discard).
DISCARD, FWD, LEAVE, BACK, BONNIE, SPLIT = 0, 1, 2, 3, 4, 5
KIND_OF = {
    "move_steps": FWD,
    "leave_dock": LEAVE,
    "move_back": BACK,
    "bonnie_fechter": BONNIE,
    "split_steps": SPLIT,
}

EVENT_NAMES = (
    "captures",
    "turns_passed",
    "laddies_home",
    "bonnie_fechter_swaps",
    "backward_moves",
    "splits",
    "reshuffles",
    "partner_bumps",
    "dock_exits",
)
(
    EV_CAPTURE,
    EV_PASS,
    EV_HOME,
    EV_SWAP,
    EV_BACK,
    EV_SPLIT,
    EV_RESHUFFLE,
    EV_PARTNER,
    EV_EXIT,
) = range(len(EVENT_NAMES))


@dataclass(frozen=True, slots=True)
class Content:
    """Everything the rules use, as plain values (no pydantic in the engine)."""

    game_id: str
    min_players: int
    max_players: int
    laddies: int
    hand_size: int
    draw_count: int
    max_rounds: int
    team_players: frozenset[int]
    packs_by_players: dict[int, int]
    card_names: tuple[str, ...]
    copies: tuple[int, ...]  # per pack, per rank index
    effects: tuple[tuple[int, int, int, bool], ...]  # (rank, kind, arg, from_dock)
    segments_by_players: dict[int, int]
    holes_per_segment: int
    start_offset: int
    entrance_offset: int
    castle: int


@dataclass(frozen=True, slots=True)
class Table:
    """One table's geometry and encodings: built once per (players, teams), shared by states.

    Positions: -1 = Dock, 0..L-1 = track hole, L + c - 1 = Castle hole c (1..C).
    Laddie ids: colour * N + k. Colour = seat. Actions: `variant * E + effect`.
    """

    players: int
    laddies: int
    teams: bool
    track: int  # L
    castle: int  # C
    ranks: int  # R
    n_effects: int  # E
    hand_size: int
    draw_count: int
    max_rounds: int
    deck: tuple[int, ...]
    start: tuple[int, ...]
    entrance: tuple[int, ...]
    partner: tuple[int, ...]  # partner colour, or -1
    team: tuple[int, ...]  # team id per colour (the colour itself without teams)
    dist: tuple[tuple[int, ...], ...]  # [colour][hole] steps to the colour's entrance
    bit: tuple[int, ...]
    """bit[position] = 1 << position, looked up: most positions are past 30, and a shift to
    them allocates a new int each time."""
    fwd: tuple[tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...], ...]
    """fwd[colour][k][position]: forward options (variant base: 2 track / 2+N Castle, dest,
    path mask); legal when the path mask meets none of the colour's own Laddies. Bits are
    positions: track hole h is bit h, Castle hole c is bit L + c - 1."""
    sfwd: tuple[tuple[tuple[tuple[tuple[int, int, int, int], ...], ...], ...], ...]
    """For 7 splits: (option 0 track / 1 Castle, dest, path mask, dest bit)."""
    fmoves: tuple[tuple[ReadyMove, ...], ...]
    """fmoves[k][colour * (L + C) + position]: `fwd` as ready-made moves, (path mask, dest,
    variant, variant * E, the second option or None), the variant the colour's first
    Laddie's (the k-th Laddie's is k more); the move generator lists the move, and its
    action (variant * E plus the effect), when the path meets none of the colour's own
    Laddies. A row always has a first option (a row with none gets one through the
    Laddie's own hole, never free), so the generator reads it without a loop. Plain ints
    (all small but the path mask) and one row per colour, not per Laddie: a turn reads
    some ten rows scattered over the table, and each object it fetches from a table of
    megabytes was a cache miss of its own."""
    shares: tuple[tuple[tuple[SplitShares, ...], ...], ...]
    """shares[total][colour][position] for a 7 split of `total`: (sfwd options for each share
    f = 1..total-1, bits f-1 of the shares with options, bits f-1 of the shares whose rest
    total-f has options)."""
    share_fs: tuple[tuple[int, ...], ...]
    """share_fs[bits]: the shares f (ascending) whose bit f-1 is set, so a split pair walks
    only the shares both Laddies can take instead of every f."""
    back: tuple[tuple[tuple[int, int], ...], ...]  # back[k][hole] = (dest, path mask)
    rivals: tuple[tuple[int, ...], ...]  # [colour] Laddie ids of the other teams
    eff_rank: tuple[int, ...]
    eff_kind: tuple[int, ...]
    eff_arg: tuple[int, ...]
    eff_from_dock: tuple[bool, ...]
    eff_key: tuple[int, ...]  # same (kind, arg) → same key: moves computed once per turn
    rank_plan: tuple[tuple[PlanStep, ...], ...]
    """[rank] its effects as (effect, key, kind, what the move generator reads): the key
    when another effect lists the same moves (10, J, Q and K move 10), else -1 (no cache
    to look in); `fmoves[k]` for a forward move of k, `back[k]` for a backward one, the
    total of a split."""
    rank_plan_docked: tuple[tuple[PlanStep, ...], ...]
    """`rank_plan` without the forward and backward moves: the plan when no Laddie of the
    colour can move forward (they give no move then)."""
    n_keys: int
    rank_effs: tuple[tuple[int, ...], ...]
    rank_first: tuple[int, ...]  # discard action of each rank (variant 0, first effect)
    card_names: tuple[str, ...]
    total_cards: int
    split_memo: dict[tuple[int, ...], tuple[Move, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """(colour, total, its Laddies' positions) → the moves of a split of `total`: they depend
    on the colour's own positions alone (its path masks, Dock and Castle follow from them),
    and a colour's configuration comes back often (80 % of the split listings after a few
    hundred games), each listing some 600 bytecodes. The state fills it (R5's finishing
    splits, which look at the partner's Laddies too, are never kept)."""
