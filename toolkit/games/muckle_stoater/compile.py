"""Compile Muckle Stoater content once into plain ints and tuples, and per-table lookup tables.

`compile_game(game)` reads the rules, the pack deck and the track board; `MuckleGame.table()`
builds, once per (player count, teams), every table the hot loop needs: hole numbers, path
bitmasks of each forward/backward move, and the action encoding. Nothing here runs per move.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from typing import Any

from toolkit.api import CompiledGame, GameSetup, State
from toolkit.games.muckle_stoater.constants import (
    BACK,
    EVENT_NAMES,
    FWD,
    KIND_OF,
    MAX_PACKS,
    SPLIT,
    Content,
    PlanStep,
    ReadyMove,
    SplitOption,
    SplitShares,
    Table,
)
from toolkit.games.muckle_stoater.state import MuckleState


def _path(track: int, hole: int, steps: int, sign: int) -> int:
    mask = 0
    for j in range(1, steps + 1):
        mask |= 1 << ((hole + sign * j) % track)
    return mask


FwdTable = Sequence[tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...]]


def _split_options(fwd: FwdTable) -> tuple[tuple[tuple[tuple[SplitOption, ...], ...], ...], ...]:
    """`fwd` for 7 splits: (option 0 track / 1 Castle, dest, path mask, dest bit). Plain loops,
    not nested generator expressions: a table is built on every simulation's first game, and
    a generator per row made that the larger part of the run's start-up."""
    per_colour = []
    for per_k in fwd:
        ks = []
        for per_pos in per_k:
            rows = []
            for opts in per_pos:
                row = []
                for vo, dest, path in opts:
                    row.append((1 if vo > 2 else 0, dest, path, 1 << dest))
                rows.append(tuple(row))
            ks.append(tuple(rows))
        per_colour.append(tuple(ks))
    return tuple(per_colour)


def _ready_moves(
    fwd: FwdTable, steps: set[int], n_effects: int
) -> tuple[tuple[ReadyMove, ...], ...]:
    """fmoves[k][colour * positions + position]: `fwd` as ready-made moves (see
    `Table.fmoves`), for the forward moves of the cards, k in `steps` (empty for any other
    k: a split's share uses `sfwd`). One flat row per k: the move generator reads a Laddie's
    options with one index, not two. Plain loops for the reason given in `_split_options`."""
    kmax = len(fwd[0]) - 1 if fwd else 0
    fmoves: list[tuple[ReadyMove, ...]] = [()]
    for k in range(1, kmax + 1):
        rows: list[ReadyMove] = []
        if k not in steps:
            fmoves.append(())
            continue
        for per_k in fwd:
            for p, opts in enumerate(per_k[k]):
                ready = []
                for v, dest, path in opts:
                    ready.append((path, dest, v, v * n_effects))
                if not ready:  # a path through the Laddie's own hole: never free
                    ready.append((1 << p, p, 0, 0))
                first = ready[0]
                rows.append((*first, ready[1] if len(ready) > 1 else None))
        fmoves.append(tuple(rows))
    return tuple(fmoves)


def build_table(content: Content, players: int, teams: bool) -> Table:
    """Geometry of spec §2 and the lookup tables for one player count."""
    c = content
    if not c.min_players <= players <= c.max_players:
        raise ValueError(f"{c.game_id} plays with {c.min_players}-{c.max_players} players")
    if players not in c.segments_by_players or players not in c.packs_by_players:
        raise ValueError(f"no Mashie or pack count for {players} players")
    if not 1 <= c.packs_by_players[players] <= MAX_PACKS:
        # validate's G301 says so first; the setup never builds a deck of millions of cards
        raise ValueError(
            f"{c.packs_by_players[players]} packs for {players} players: the game's setup"
            f" shuffles 1 to {MAX_PACKS} packs (rule G301)"
        )
    if teams and (players not in c.team_players or players % 2):
        raise ValueError(f"teams are not played with {players} players")
    mashies = c.segments_by_players[players]
    holes = c.holes_per_segment
    track = mashies * holes
    spacing = mashies // players
    n, cast = c.laddies, c.castle
    start = tuple((i * spacing) * holes + c.start_offset for i in range(players))
    entrance = tuple((i * spacing) * holes + c.entrance_offset for i in range(players))
    half = players // 2
    partner = tuple((i + half) % players if teams else -1 for i in range(players))
    team = tuple(i % half if teams else i for i in range(players))
    dist = tuple(tuple((entrance[o] - t) % track for t in range(track)) for o in range(players))
    fwd_steps = {arg for _, kind, arg, _ in c.effects if kind == FWD}
    for _, kind, arg, _ in c.effects:
        if kind == SPLIT:
            fwd_steps.update(range(1, arg))
    kmax = max(fwd_steps, default=0)
    paths = [[_path(track, t, k, 1) for k in range(kmax + 1)] for t in range(track)]
    fwd = []
    for o in range(players):
        per_k: list[tuple[tuple[tuple[int, int, int], ...], ...]] = [()]
        for k in range(1, kmax + 1):
            per_pos = []
            for p in range(track):
                opts = [(2, (p + k) % track, paths[p][k])]
                d = dist[o][p]
                if d < k <= d + cast:  # Castle option: track p+1..p+d, then Castle 1..c
                    hole = k - d
                    castle_path = ((1 << hole) - 1) << track
                    opts.append((2 + n, track + hole - 1, paths[p][d] | castle_path))
                per_pos.append(tuple(opts))
            for ci in range(cast):  # inside the Castle: forward by exact count (R2)
                if ci + 1 + k <= cast:
                    per_pos.append(((2 + n, track + ci + k, ((1 << k) - 1) << (track + ci + 1)),))
                else:
                    per_pos.append(())
            per_k.append(tuple(per_pos))
        fwd.append(tuple(per_k))
    sfwd = _split_options(fwd)
    fmoves = _ready_moves(
        fwd, {arg for _, kind, arg, _ in c.effects if kind == FWD}, len(c.effects)
    )
    shares: list[tuple[tuple[SplitShares, ...], ...]] = []
    split_totals = {arg for _, kind, arg, _ in c.effects if kind == SPLIT}
    for total in range(max(split_totals, default=0) + 1):
        per_colour: list[tuple[SplitShares, ...]] = []
        for o in range(players if total in split_totals else 0):
            by_pos: list[SplitShares] = []
            for p in range(track + cast):
                row = tuple(sfwd[o][f][p] for f in range(1, total))
                live = sum(1 << (f - 1) for f in range(1, total) if row[f - 1])
                rest = sum(1 << (f - 1) for f in range(1, total) if row[total - f - 1])
                by_pos.append((row, live, rest))
            per_colour.append(tuple(by_pos))
        shares.append(tuple(per_colour))
    width = max(split_totals, default=1) - 1
    share_fs = tuple(
        tuple(f for f in range(1, width + 1) if bits >> (f - 1) & 1) for bits in range(1 << width)
    )
    rivals = tuple(
        tuple(lid for lid in range(players * n) if team[lid // n] != team[o])
        for o in range(players)
    )
    back_steps = [arg for _, kind, arg, _ in c.effects if kind == BACK]
    back: list[tuple[tuple[int, int], ...]] = [()] * (max(back_steps, default=0) + 1)
    for k in back_steps:
        back[k] = tuple(((t - k) % track, _path(track, t, k, -1)) for t in range(track))
    keys: dict[tuple[int, int, bool], int] = {}
    eff_key = tuple(keys.setdefault(eff[1:], len(keys)) for eff in c.effects)
    ranks = len(c.card_names)
    rank_effs = tuple(
        tuple(e for e, eff in enumerate(c.effects) if eff[0] == r) for r in range(ranks)
    )
    shared = {key for key in eff_key if eff_key.count(key) > 1}

    def plan_step(e: int) -> PlanStep:
        """(effect, key if another effect lists the same moves else -1, kind, what the
        generator reads: a forward or backward move's table, a split's total)."""
        _, kind, arg, _ = c.effects[e]
        found: Any = fmoves[arg] if kind == FWD else back[arg] if kind == BACK else arg
        return (e, eff_key[e] if eff_key[e] in shared else -1, kind, found)

    rank_plan = tuple(tuple(plan_step(e) for e in effs) for effs in rank_effs)
    packs = c.packs_by_players[players]
    deck = tuple(r for r in range(ranks) for _ in range(c.copies[r] * packs))
    return Table(
        players=players,
        laddies=n,
        teams=teams,
        track=track,
        castle=cast,
        ranks=ranks,
        n_effects=len(c.effects),
        hand_size=c.hand_size,
        draw_count=c.draw_count,
        max_rounds=c.max_rounds,
        deck=deck,
        start=start,
        entrance=entrance,
        partner=partner,
        team=team,
        dist=dist,
        bit=tuple(1 << p for p in range(track + cast)),
        fwd=tuple(fwd),
        sfwd=sfwd,
        fmoves=fmoves,
        shares=tuple(shares),
        share_fs=share_fs,
        back=tuple(back),
        rivals=rivals,
        eff_rank=tuple(e[0] for e in c.effects),
        eff_kind=tuple(e[1] for e in c.effects),
        eff_arg=tuple(e[2] for e in c.effects),
        eff_from_dock=tuple(e[3] for e in c.effects),
        eff_key=eff_key,
        rank_plan=rank_plan,
        rank_plan_docked=tuple(
            tuple(step for step in plan if step[2] not in (FWD, BACK)) for plan in rank_plan
        ),
        n_keys=len(keys),
        rank_effs=rank_effs,
        rank_first=tuple(effs[0] if effs else 0 for effs in rank_effs),
        total_cards=len(deck),
        card_names=c.card_names,
    )


class MuckleGame(CompiledGame):
    """Muckle Stoater compiled from content; tables are built lazily per setup."""

    event_names = EVENT_NAMES

    def __init__(self, content: Content) -> None:
        self.content = content
        self.game_id = content.game_id
        self.card_names = content.card_names
        self.min_players = content.min_players
        self.max_players = content.max_players
        self.max_turns = content.max_rounds * content.max_players
        self._tables: dict[tuple[int, bool], Table] = {}

    def __getstate__(self) -> dict[str, Any]:
        """Pickled for a pool's workers without its tables: a table is some 100,000 tuples
        and keeps the split listings of every configuration met (`Table.split_memo`, up to
        megabytes after a sweep point's games); a worker builds its own on its first game
        (a few milliseconds)."""
        state = self.__dict__.copy()
        state["_tables"] = {}
        return state

    def table(self, setup: GameSetup) -> Table:
        key = (setup.players, bool(setup.options.get("teams", False)))
        found = self._tables.get(key)
        if found is None:
            # some 100,000 tuples, none of them garbage: with the cyclic collector on, their
            # allocation set off collections that walked the whole heap (a table took 12 to
            # 50 ms of CPU instead of 11)
            collecting = gc.isenabled()
            gc.disable()
            try:
                found = self._tables[key] = build_table(self.content, *key)
            finally:
                if collecting:
                    gc.enable()
        return found

    def new_state(self, setup: GameSetup, seed: int) -> State:
        return MuckleState.deal(self.table(setup), seed)


def _pack_deck(game: Any) -> Any:
    for deck in game.valid(game.decks):
        if getattr(deck, "kind", None) == "pack":
            return deck
    raise ValueError(f"{game.id}: no deck of kind 'pack'")


def _track_board(game: Any) -> Any:
    for board in game.valid(game.boards):
        if getattr(board, "kind", None) == "track":
            return board
    raise ValueError(f"{game.id}: no track board")


def compile_content(game: Any) -> Content:
    """Read the validated models into a `Content` (ids → indexes, effects → int triples)."""
    rules = game.manifest.rules
    deck = _pack_deck(game)
    board = _track_board(game)
    effects: list[tuple[int, int, int, bool]] = []
    for r, card in enumerate(deck.cards):
        for eff in card.effects:
            kind = KIND_OF[eff.kind]
            arg = getattr(eff, "steps", 0) or getattr(eff, "total", 0)
            effects.append((r, kind, arg, bool(getattr(eff, "from_dock", False))))
    return Content(
        game_id=game.id,
        min_players=game.manifest.players.min,
        max_players=game.manifest.players.max,
        laddies=rules.laddies_per_player,
        hand_size=rules.hand_size,
        draw_count=rules.draw_per_turn,
        max_rounds=rules.max_rounds,
        team_players=frozenset(rules.team_players),
        packs_by_players=dict(rules.packs_by_players),
        card_names=tuple(card.id for card in deck.cards),
        copies=tuple(card.copies for card in deck.cards),
        effects=tuple(effects),
        segments_by_players=dict(board.segments_by_players),
        holes_per_segment=board.holes_per_segment,
        start_offset=board.start_offset,
        entrance_offset=board.entrance_offset,
        castle=board.home_holes,
    )


def compile_game(game: Any) -> MuckleGame:
    """The plugin's engine entry point: content → MuckleGame."""
    return MuckleGame(compile_content(game))
