"""Drinking Heroes content read once into plain tuples (ids → indexes): every number the rules
use (the manifest's rules and option defaults, the hero bonuses, the monsters' printed numbers,
the spells' parameters) and one `Table` per setup. States read these; they never import
compile (which makes states from them)."""

from __future__ import annotations

from typing import Any

from toolkit.api import CompiledGame, GameSetup
from toolkit.content.game import Game
from toolkit.content.plugin import rules_of
from toolkit.games.drinking_heroes.constants import (
    _PARAM,
    COMPETITIVE,
    COOPERATIVE,
    K_BANISH,
    K_EXTRA,
    K_SHIELD,
    KINDS,
    NO_DRINKING,
    STATIC_EVENTS,
    Table,
)
from toolkit.games.drinking_heroes.models import DrinkingRules


def split_teams(players: int, solo_max: int, sizes: tuple[int, ...], max_teams: int) -> list[int]:
    """Members per seat (R13): alone up to `solo_max`; else the most teams allowed, sizes as
    even as possible with the larger teams last (7 → 2+2+3)."""
    if players <= solo_max:
        return [1] * players
    for teams in range(max_teams, 0, -1):
        base, extra = divmod(players, teams)
        split = [base] * (teams - extra) + [base + 1] * extra
        if all(size in sizes for size in split):
            return split
    raise ValueError(f"{players} players cannot be split into teams of {sizes}")


class DrinkingTables(CompiledGame):
    """Drinking Heroes compiled: heroes, monster instances and spell cards as plain tuples
    (what states read; CompiledDrinking adds the states themselves)."""

    game_id = "drinking-heroes"

    def __init__(self, game: Game) -> None:
        manifest = game.manifest
        if manifest is None:  # the validity gate hands on valid games only
            raise ValueError(f"{game.id}: no valid manifest")
        rules = rules_of(manifest, DrinkingRules)
        self.min_players = manifest.players.min
        self.max_players = manifest.players.max
        self.sides: int = rules.die_sides
        self.kill_face: int = rules.always_kill_face
        self.fail_face: int = rules.always_fail_face
        self.spells_per_seat: int = rules.spells_per_seat
        self.spells_per_kill: int = rules.spells_per_kill
        self.solo_max: int = rules.solo_max_players
        self.team_sizes: tuple[int, ...] = tuple(rules.team_sizes)
        self.max_teams: int = rules.max_teams
        self.nd_cap: int = rules.non_drinker_max_tries
        self.type_ids: tuple[str, ...] = tuple(t.id for t in rules.monster_types)
        types = {t: i for i, t in enumerate(self.type_ids)}
        self.defaults: dict[str, Any] = {o.id: o.default for o in manifest.options}
        self.defaults.setdefault("coop_extra_tries", rules.coop_extra_tries)
        option_max = {o.id: o.max for o in manifest.options if o.max is not None}

        heroes, monsters, spells = [], [], []
        for deck in game.valid(game.decks):
            if deck.kind == "heroes":
                heroes += deck.cards
            elif deck.kind == "monsters":
                monsters += deck.cards
            elif deck.kind == "spells":
                spells += deck.cards
        self.hero_ids: tuple[str, ...] = tuple(h.id for h in heroes)
        self.bonus: tuple[tuple[int, ...], ...] = tuple(
            tuple(h.bonuses.get(t, 0) for t in self.type_ids) for h in heroes
        )

        # Monster instances (copies expanded); `rank` orders ids for "lowest id" ties (R6).
        rank = {cid: i for i, cid in enumerate(sorted(m.id for m in monsters))}
        m_id, m_level, m_type, m_kill, m_tries, m_sips, m_rank = [], [], [], [], [], [], []
        for card in monsters:
            row = tuple(card.sips.get(face, 0) for face in range(self.sides + 1))
            for _ in range(card.copies):
                m_id.append(card.id)
                m_level.append(card.level)
                m_type.append(types[card.type])
                m_kill.append(card.kill_target)
                m_tries.append(card.max_tries)
                m_sips.append(row)
                m_rank.append(rank[card.id])
        self.m_id, self.m_level, self.m_type = tuple(m_id), tuple(m_level), tuple(m_type)
        self.m_kill, self.m_tries, self.m_sips = tuple(m_kill), tuple(m_tries), tuple(m_sips)
        self.m_rank = tuple(m_rank)
        self.levels: tuple[int, ...] = tuple(sorted(set(m_level)))
        self.max_level = max(self.levels, default=0)
        self.level_index = tuple(
            self.levels.index(lv) if lv in self.levels else -1 for lv in range(self.max_level + 1)
        )
        groups: dict[tuple[int, int], list[int]] = {}
        for i in range(len(m_id)):
            groups.setdefault((m_type[i], m_level[i]), []).append(i)
        self.pairs: tuple[tuple[int, ...], ...] = tuple(tuple(g) for g in groups.values())

        # Spell cards: kind code, one numeric parameter, vs_type index, flags.
        self.card_names: tuple[str, ...] = tuple(s.id for s in spells)
        self.s_kind = tuple(KINDS.index(s.effect.kind) for s in spells)
        self.s_param = tuple(
            getattr(s.effect, _PARAM[s.effect.kind]) if s.effect.kind in _PARAM else 0
            for s in spells
        )
        self.s_type = tuple(
            types[s.effect.vs_type] if s.effect.kind == "roll_bonus" else -1 for s in spells
        )
        self.s_copies = tuple(s.copies for s in spells)
        self.s_gold = tuple(s.gold for s in spells)
        self.s_gives = tuple(s.gives_sips for s in spells)
        self.s_steals = tuple(s.steals for s in spells)
        self.s_comp = tuple(s.competitive_only for s in spells)

        self.event_names: tuple[str, ...] = STATIC_EVENTS + tuple(
            f"{what}_l{lv}" for lv in self.levels for what in ("killed", "refused", "lost")
        )

        # Action layout: fixed codes, then sacrifice per monster, choose per seat, spells.
        self.max_seats = max(self.solo_max, self.max_teams)
        self.a_sacrifice = 6
        self.a_choose = self.a_sacrifice + len(m_id)
        self.a_spell = self.a_choose + self.max_seats
        self.tw = max(self.max_seats, len(self.type_ids), len(m_id), 1)  # targets per spell

        # Declared maximum length (moves): every draw (banish returns one) fought by every
        # seat in turn with the most tries a combat can reach, plus each spell's sip decisions.
        extra_spell = max(
            [self.s_param[i] for i in range(len(spells)) if self.s_kind[i] in (K_EXTRA, K_SHIELD)]
            or [0]
        )
        coop_extra = max(self.defaults["coop_extra_tries"], option_max.get("coop_extra_tries", 0))
        tries = max(m_tries, default=1) + coop_extra + extra_spell
        draws = len(m_id) + sum(
            self.s_copies[i] for i in range(len(spells)) if self.s_kind[i] == K_BANISH
        )
        spell_count = sum(self.s_copies)
        self.max_turns = draws * self.max_seats * (3 + 2 * tries) + spell_count * self.max_seats
        self._tables: dict[tuple[Any, ...], Table] = {}
        self._odds: dict[int, tuple[float, float]] = {}

    def options(self, setup: GameSetup) -> dict[str, Any]:
        return {**self.defaults, **setup.options}

    def seats_are_teams(self, setup: GameSetup) -> bool:
        return setup.players > self.solo_max

    def table(self, setup: GameSetup) -> Table:
        """The per-setup facts, cached (new_state runs once per game)."""
        opts = self.options(setup)
        key = (setup.players, tuple(sorted(opts.items())))
        found = self._tables.get(key)
        if found is None:
            found = self._tables[key] = self._make_table(setup.players, opts)
        return found

    def _make_table(self, players: int, opts: dict[str, Any]) -> Table:
        members = split_teams(players, self.solo_max, self.team_sizes, self.max_teams)
        if len(members) > len(self.hero_ids):
            raise ValueError(f"{len(members)} seats but only {len(self.hero_ids)} heroes (R14)")
        mode = opts.get("mode", COMPETITIVE)
        coop = mode == COOPERATIVE
        sober = players if mode == NO_DRINKING else min(players, int(opts["non_drinkers"]))
        # The last `sober` players (seat order, members consecutive) do not drink.
        drinkers, first = [], 0
        for size in members:
            drinkers.append(sum(1 for p in range(first, first + size) if p < players - sober))
            first += size
        nobody = not any(drinkers)
        spells: list[int] = []
        for i, copies in enumerate(self.s_copies):
            if coop and (self.s_gold[i] or self.s_comp[i]):
                continue
            if nobody and self.s_gives[i]:
                continue
            spells += [i] * copies
        short = bool(opts.get("short_deck", False))
        return Table(
            seats=len(members),
            members=tuple(members),
            drinkers=tuple(drinkers),
            drinking=tuple(d > 0 for d in drinkers),
            coop=coop,
            coop_extra=int(opts["coop_extra_tries"]) if coop else 0,
            short=short,
            spells=tuple(spells),
            monsters=len(self.pairs) if short else len(self.m_id),
        )

    # --- odds shared by bots, checks and tests -------------------------------------------

    def kills(self, face: int, need: int) -> bool:
        """R2, R3: a natural kill face always kills, a natural fail face always fails."""
        return face == self.kill_face or (face != self.fail_face and face >= need)

    def odds(self, m: int, need: int) -> tuple[float, float]:
        """(P(kill), expected sips) of one try against monster instance `m` when the smallest
        killing face is `need` (R4: sips by the natural face). Cached: bots ask often."""
        need = max(-64, min(need, 64))
        key = m * 256 + need + 128
        found = self._odds.get(key)
        if found is None:
            sips, kills = self.m_sips[m], 0
            lost = 0
            for face in range(1, self.sides + 1):
                if self.kills(face, need):
                    kills += 1
                else:
                    lost += sips[face]
            found = self._odds[key] = (kills / self.sides, lost / self.sides)
        return found
