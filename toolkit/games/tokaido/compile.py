"""Compile Tokaido content once into plain ints and tuples, and one `Table` per setup.

`compile_content(game)` reads the rules, the road board and the seven decks; ids become
indexes and effect kinds become small ints (the registries below). `TokaidoGame.table()`
builds, once per (player count, options), what one table decides: travellers on the road
(the neutral one included), whether second slots exist, the road read forwards or backwards,
the next inn of every stop, the meal draw and the action encoding. Nothing here runs per move.
"""

from __future__ import annotations

from typing import Any

from toolkit.api import CompiledGame, GameSetup, State
from toolkit.games.tokaido.constants import (
    AB_CARD_BONUS,
    AB_CHEAPEST_FREE,
    AB_ENCOUNTER_BONUS,
    AB_ENCOUNTER_CHOICE,
    AB_FIXED_PRICE,
    AB_MEAL_DISCOUNT,
    AB_TEMPLE_BANK,
    ABILITY_KINDS,
    E_COINS,
    E_PANORAMA,
    E_POINTS,
    E_TEMPLE,
    ENCOUNTER_KINDS,
    EVENT_NAMES,
    INN,
    MEASURES,
    PANORAMA,
    STOP_KINDS,
    Content,
    Table,
)
from toolkit.games.tokaido.state import TokaidoState


def _expand(copies: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(i for i, n in enumerate(copies) for _ in range(n))


def build_table(c: Content, setup: GameSetup) -> Table:
    """The lookup tables of one player count and option set."""
    players = setup.players
    if not c.min_players <= players <= c.max_players:
        raise ValueError(f"{c.game_id} plays with {c.min_players}-{c.max_players} players")
    opts = setup.options
    neutral = players in c.neutral_players
    travellers = players + (1 if neutral else 0)
    doubles = players >= c.doubles_from
    kind, arg, double = list(c.stop_kind), list(c.stop_arg), list(c.stop_double)
    if opts.get("return_trip"):
        kind.reverse()
        arg.reverse()
        double.reverse()
    n = len(kind)
    slots = tuple(
        travellers if kind[i] == INN else (2 if doubles and double[i] else 1) for i in range(n)
    )
    next_inn = [n - 1] * n
    ahead = n - 1
    for i in range(n - 1, -1, -1):
        next_inn[i] = ahead
        if kind[i] == INN:
            ahead = i
    reach = tuple(tuple(range(i + 1, next_inn[i] + 1)) if i < n - 1 else () for i in range(n))
    inns = [i for i in range(n) if kind[i] == INN]
    inns_after = tuple(sum(1 for j in inns if j > i) for i in range(n))
    extra = 0 if opts.get("gastronomy") else c.meal_draw_extra
    sections = tuple(len(p) for p in c.pano_points)
    a_move = 0
    a_buy = a_move + n
    a_donate = a_buy + (1 << c.village_reveal)
    a_enc = a_donate + c.temple_max + 1
    a_pano = a_enc + len(c.enc_kind)
    a_meal = a_pano + len(c.pano_types)
    a_skip = a_meal + len(c.meal_price)
    a_free = a_skip + 1
    a_trav = a_free + 1
    names = c.trav_ids + c.souv_ids + c.meal_ids + c.enc_ids + c.hot_ids
    bases = [0]
    for group in (c.trav_ids, c.souv_ids, c.meal_ids, c.enc_ids):
        bases.append(bases[-1] + len(group))
    meal_cards = sum(c.meal_copies)
    mean_meal = sum(p * n for p, n in zip(c.meal_price, c.meal_copies, strict=True)) / meal_cards
    mean_souv = []
    for f in range(c.families):
        rows = [
            (p, n)
            for p, n, g in zip(c.souv_price, c.souv_copies, c.souv_family, strict=True)
            if g == f
        ]
        mean_souv.append(sum(p * n for p, n in rows) / max(1, sum(n for _, n in rows)))
    return Table(
        c=c,
        players=players,
        travellers=travellers,
        neutral=players if neutral else -1,
        doubles=doubles,
        stops=n,
        kind=tuple(kind),
        arg=tuple(arg),
        slots=slots,
        next_inn=tuple(next_inn),
        reach=reach,
        intermediate=tuple(kind[i] == INN and 0 < i < n - 1 for i in range(n)),
        inns_after=inns_after,
        last=n - 1,
        meal_draw=travellers + extra,
        initiation=bool(opts.get("initiation")),
        preparations=bool(opts.get("preparations")),
        pano_sections=sections,
        a_move=a_move,
        a_buy=a_buy,
        a_donate=a_donate,
        a_enc=a_enc,
        a_pano=a_pano,
        a_meal=a_meal,
        a_skip=a_skip,
        a_free=a_free,
        a_trav=a_trav,
        n_actions=a_trav + len(c.trav_ids),
        souv_deck=_expand(c.souv_copies),
        enc_deck=_expand(c.enc_copies),
        hot_deck=_expand(c.hot_copies),
        meal_deck=_expand(c.meal_copies),
        card_names=names,
        card_base=tuple(bases),
        mean_meal_price=mean_meal,
        mean_souvenir_price=tuple(mean_souv),
        end_points=tuple(
            sum(p for m, p in c.end_achievements if m == k) for k in range(len(MEASURES))
        ),
    )


class TokaidoGame(CompiledGame):
    """Tokaido compiled from content; one table per setup, built on first use."""

    event_names = EVENT_NAMES

    def __init__(self, content: Content) -> None:
        self.content = content
        self.game_id = content.game_id
        self.min_players = content.min_players
        self.max_players = content.max_players
        self.card_names = content.trav_ids + content.souv_ids + content.meal_ids
        self.card_names += content.enc_ids + content.hot_ids
        # every traveller moves at least one stop per road turn; each turn brings at most one
        # follow-up decision per stop resolved (space, ability, meal), plus the tile choice
        steps = len(content.stop_kind) - 1
        self.max_turns = (content.max_players + 1) * steps * 4 + content.max_players
        self._tables: dict[tuple[int, tuple[tuple[str, Any], ...]], Table] = {}

    def table(self, setup: GameSetup) -> Table:
        key = (setup.players, tuple(sorted(setup.options.items())))
        found = self._tables.get(key)
        if found is None:
            found = self._tables[key] = build_table(self.content, setup)
        return found

    def new_state(self, setup: GameSetup, seed: int) -> State:
        return TokaidoState.deal(self.table(setup), seed)


# --- reading the content ----------------------------------------------------------------------


def _deck(game: Any, kind: str) -> Any:
    for deck in game.valid(game.decks):
        if getattr(deck, "kind", None) == kind:
            return deck
    raise ValueError(f"{game.id}: no deck of kind {kind!r}")


def _road(game: Any) -> Any:
    for board in game.valid(game.boards):
        if getattr(board, "kind", None) == "road":
            return board
    raise ValueError(f"{game.id}: no road board")


def _ability(ability: Any) -> tuple[int, int, int, int]:
    code = ABILITY_KINDS[ability.kind]
    if code == AB_TEMPLE_BANK:
        return code, ability.coins, 0, 0
    if code == AB_MEAL_DISCOUNT:
        return code, ability.amount, 0, 0
    if code == AB_CARD_BONUS:
        cards = set(ability.cards)
        return code, ability.points, int("hot_springs" in cards), int("achievements" in cards)
    if code == AB_CHEAPEST_FREE:
        return code, ability.min_bought, 0, 0
    if code == AB_ENCOUNTER_BONUS:
        return code, ability.points, ability.coins, 0
    if code == AB_ENCOUNTER_CHOICE:
        return code, ability.draw, 0, 0
    if code == AB_FIXED_PRICE:
        return code, ability.price, 0, 0
    return code, 0, 0, 0


def compile_content(game: Any) -> Content:
    """Read the validated models into a `Content` (ids -> indexes, kinds -> ints)."""
    rules = game.manifest.rules
    road = _road(game)
    panoramas = _deck(game, "panoramas")
    types: list[str] = []
    for card in panoramas.cards:
        if card.panorama not in types:
            types.append(card.panorama)
    by_type = {
        t: sorted((p for p in panoramas.cards if p.panorama == t), key=lambda p: p.section)
        for t in types
    }
    kind: list[int] = []
    arg: list[int] = []
    for stop in road.stops:
        if stop.kind in types:
            kind.append(PANORAMA)
            arg.append(types.index(stop.kind))
        elif stop.kind in STOP_KINDS:
            kind.append(STOP_KINDS.index(stop.kind))
            arg.append(0)
        else:
            raise ValueError(f"{game.id}: road stop kind {stop.kind!r} has no rule")
    achievements = _deck(game, "achievements").cards
    pano_ach = [0] * len(types)
    ends: list[tuple[int, int]] = []
    for a in achievements:
        if a.trigger == "panorama" and a.panorama in types:
            pano_ach[types.index(a.panorama)] = a.points
        elif a.trigger == "end" and a.measure is not None:
            ends.append((MEASURES.index(a.measure), a.points))
    hot = _deck(game, "hot_springs").cards
    enc = _deck(game, "encounters").cards
    enc_rows = []
    for e in enc:
        eff = e.effect
        code = ENCOUNTER_KINDS[eff.kind]
        if code == E_PANORAMA:
            enc_rows.append((code, types.index(eff.panorama), 0))
        elif code in (E_POINTS, E_COINS):
            enc_rows.append((code, eff.amount, 0))
        elif code == E_TEMPLE:
            enc_rows.append((code, eff.coins, eff.points))
        else:
            enc_rows.append((code, 0, 0))
    souv = _deck(game, "souvenirs").cards
    families: list[str] = []
    for s in souv:
        if s.family not in families:
            families.append(s.family)
    meals = _deck(game, "meals").cards
    travellers = _deck(game, "travellers").cards
    abilities = [_ability(t.ability) for t in travellers]
    return Content(
        game_id=game.id,
        min_players=game.manifest.players.min,
        max_players=game.manifest.players.max,
        farm_coins=rules.farm_coins,
        temple_min=rules.temple_min,
        temple_max=rules.temple_max,
        temple_points=rules.temple_points_per_coin,
        temple_bonus=tuple(rules.temple_bonus),
        village_reveal=rules.village_reveal,
        set_points=tuple(rules.souvenir_set_points),
        meal_points=rules.meal_points,
        meal_draw_extra=rules.meal_draw_extra,
        doubles_from=rules.double_spaces_from,
        neutral_players=frozenset(rules.neutral_traveller_players),
        initiation_coins=rules.initiation_coins,
        travellers_dealt=rules.travellers_dealt,
        neutral_temple_coins=rules.neutral_temple_coins,
        neutral_meal_discard=rules.neutral_meal_discard,
        preparations=tuple(rules.preparations_coins),
        stop_kind=tuple(kind),
        stop_arg=tuple(arg),
        stop_double=tuple(s.double for s in road.stops),
        pano_types=tuple(types),
        pano_points=tuple(tuple(p.points for p in by_type[t]) for t in types),
        pano_copies=tuple(tuple(p.copies for p in by_type[t]) for t in types),
        pano_achievement=tuple(pano_ach),
        end_achievements=tuple(ends),
        hot_points=tuple(h.points for h in hot),
        hot_copies=tuple(h.copies for h in hot),
        enc_kind=tuple(r[0] for r in enc_rows),
        enc_a=tuple(r[1] for r in enc_rows),
        enc_b=tuple(r[2] for r in enc_rows),
        enc_copies=tuple(e.copies for e in enc),
        souv_family=tuple(families.index(s.family) for s in souv),
        souv_price=tuple(s.price for s in souv),
        souv_copies=tuple(s.copies for s in souv),
        families=len(families),
        meal_price=tuple(m.price for m in meals),
        meal_copies=tuple(m.copies for m in meals),
        trav_coins=tuple(t.coins for t in travellers),
        trav_ability=tuple(a[0] for a in abilities),
        trav_a=tuple(a[1] for a in abilities),
        trav_b=tuple(a[2] for a in abilities),
        trav_c=tuple(a[3] for a in abilities),
        trav_ids=tuple(t.id for t in travellers),
        enc_ids=tuple(e.id for e in enc),
        souv_ids=tuple(s.id for s in souv),
        meal_ids=tuple(m.id for m in meals),
        hot_ids=tuple(h.id for h in hot),
    )


def compile_game(game: Any) -> TokaidoGame:
    """The plugin's engine entry point: content -> TokaidoGame."""
    return TokaidoGame(compile_content(game))
