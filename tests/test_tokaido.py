"""Tokaido: engine rules (spec §4-§10 and its rulings), bots, contract, determinism, G checks."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from toolkit.checks import run_checks
from toolkit.content.game import load_game
from toolkit.games.tokaido.bots import GreedyBot
from toolkit.games.tokaido.compile import TokaidoGame, compile_game
from toolkit.games.tokaido.constants import (
    INN,
    P_ENC_PICK,
    P_MEAL,
    P_MOVE,
    P_PANO_PICK,
    P_TEMPLE,
    P_VILLAGE,
    SOURCES,
)
from toolkit.games.tokaido.scoring import end_winners, temple_bonuses, winners
from toolkit.games.tokaido.state import TokaidoState
from toolkit.sim.bots import RandomBot
from toolkit.sim.contract import random_play_check
from toolkit.sim.engine import GameSetup
from toolkit.sim.play import run
from toolkit.sim.prepared import SimConfig
from toolkit.sim.runner import play_one

GAME_DIR = Path(__file__).parent.parent / "content" / "tokaido"
SRC = {name: i for i, name in enumerate(SOURCES)}


@pytest.fixture(scope="module")
def compiled() -> TokaidoGame:
    return compile_game(load_game(GAME_DIR))


def game(
    compiled: TokaidoGame, travellers: list[str], options: dict | None = None, seed: int = 1
) -> TokaidoState:
    """A new game where seat i keeps traveller travellers[i], the seats queued in Kyoto in
    a known order: seat 0 at the back (it leaves first), the neutral pawn where it was dealt."""
    state = compiled.new_state(GameSetup(len(travellers), options or {}), seed)
    assert isinstance(state, TokaidoState)
    places = sorted((state.lane[s] for s in range(len(travellers))), reverse=True)
    state.lane[: len(travellers)] = places
    state.kyoto = places[:]
    ids = state.t.c.trav_ids
    for seat, name in enumerate(travellers):
        state.dealt[seat] = [ids.index(name)]
        state._acts = None
        state.apply(state.t.a_trav + ids.index(name))
    assert state.phase == P_MOVE
    return state


def put(state: TokaidoState, traveller: int, stop: int, lane: int = 0) -> None:
    """Stand a traveller on a stop (an inn: as arrival number `lane`)."""
    t = state.t
    old = state.pos[traveller]
    if t.kind[old] != INN:
        state.occ[2 * old + state.lane[traveller]] = -1
    else:
        state.arrivals[old] -= 1
    state.pos[traveller] = stop
    state.lane[traveller] = lane
    if t.kind[stop] == INN:
        state.arrivals[stop] += 1
    else:
        state.occ[2 * stop + lane] = traveller
    state._acts = None


def spread(state: TokaidoState, stops: list[int]) -> None:
    """Stand traveller i on stops[i] (road slot), then let the one furthest behind move."""
    for tr in range(len(stops)):
        put(state, tr, 0, tr)
    for tr, stop in enumerate(stops):
        put(state, tr, stop, 0 if state.t.kind[stop] != INN else state.arrivals[stop])
    state._advance()
    state._acts = None


def stops_of(state: TokaidoState) -> set[int]:
    return {a - state.t.a_move for a in state.legal_actions()}


def move(state: TokaidoState, stop: int) -> None:
    assert stop in stops_of(state), (stop, stops_of(state))
    state.apply(state.t.a_move + stop)
    assert state.invariant_errors() == []


def top(deck: list[int], card: int) -> None:
    """Put one copy of `card` on top of a deck."""
    deck.remove(card)
    deck.append(card)


def card(state: TokaidoState, group: str, card_id: str) -> int:
    return getattr(state.t.c, group).index(card_id)


def stop_index(state: TokaidoState, kind: str, after: int = 0) -> int:
    names = {"village": 1, "farm": 2, "temple": 3, "hot_spring": 4, "encounter": 5}
    t = state.t
    for j in range(after + 1, t.stops):
        if kind in names and t.kind[j] == names[kind]:
            return j
        if kind in t.c.pano_types and t.kind[j] == 6 and t.arg[j] == t.c.pano_types.index(kind):
            return j
    raise AssertionError(kind)


# ----- the road and turn order (§2, §4) -------------------------------------------------------


def test_road_tables(compiled):
    t = game(compiled, ["kinko", "umegae", "satsuki", "zen-emon"]).t
    assert t.stops == 55 and [j for j in range(55) if t.kind[j] == INN] == [0, 14, 27, 41, 54]
    assert t.reach[0] == tuple(range(1, 15)) and t.reach[14] == tuple(range(15, 28))
    assert sum(1 for s in t.slots if s == 2) == 24
    assert game(compiled, ["kinko", "umegae", "satsuki"]).t.slots.count(2) == 0


def test_kyoto_queue_back_starts_and_last_moves_again(compiled):
    s = game(compiled, ["kinko", "umegae", "satsuki"])
    assert s.mover == 0 and s.actor == 0  # seat 0 stands at the back of the Kyoto queue
    move(s, 7)  # farm
    assert s.mover == 1  # then the next from the back
    move(s, 6)  # mountain
    assert s.mover == 2
    move(s, 4)  # paddy
    assert s.mover == 2  # 4 < 6 < 7: still last, so it moves again
    move(s, 5)  # hot spring
    assert s.mover == 2
    move(s, 11)  # sea
    assert s.mover == 1


def test_never_past_the_next_inn_and_no_occupied_slot(compiled):
    s = game(compiled, ["kinko", "umegae", "satsuki"])
    spread(s, [0, 5, 14])
    assert s.mover == 0 and stops_of(s) == set(range(1, 15)) - {5}


def test_double_slot_second_traveller_sits_behind(compiled):
    s = game(compiled, ["kinko", "umegae", "satsuki", "zen-emon"])
    spread(s, [0, 1, 30, 31])
    assert 1 in stops_of(s)  # stop 1 is double: its second slot is free
    move(s, 1)
    assert s.lane[0] == 1 and s.mover == 0  # the second slot is behind the road slot
    three = game(compiled, ["kinko", "umegae", "satsuki"])
    spread(three, [0, 1, 30])
    assert 1 not in stops_of(three)  # no second slots with 3 players


def test_stop_bans(compiled):
    s = game(compiled, ["kinko", "umegae", "satsuki"])
    spread(s, [0, 30, 31])
    s.coins[0] = 0
    s.pano[0 * 3 + s.t.c.pano_types.index("paddy")] = 3
    reach = stops_of(s)
    assert 1 not in reach and 8 not in reach  # villages need a coin
    assert 2 not in reach and 9 not in reach  # temples need a coin
    assert 4 not in reach  # the paddy is complete
    assert {3, 5, 6, 7, 14} <= reach


def test_inn_waits_and_last_arrival_leaves_first(compiled):
    s = game(compiled, ["kinko", "umegae", "satsuki"])
    spread(s, [13, 12, 14])
    move(s, 14)  # traveller 1 arrives second: lane 1
    assert s.phase in (P_MEAL, P_MOVE)
    while s.phase == P_MEAL:
        s.apply(s.t.a_skip)
    assert s.mover == 0
    move(s, 14)
    while s.phase == P_MEAL:
        s.apply(s.t.a_skip)
    assert s.lane[:3] == [2, 1, 0] and s.mover == 0  # the last to arrive leaves first


# ----- spaces (§5) -------------------------------------------------------------------------------


def test_souvenir_set_scoring_examples(compiled):
    s = game(compiled, ["kinko", "umegae", "satsuki"])
    c = s.t.c
    by_family = {f: [k for k in range(24) if c.souv_family[k] == f] for f in range(4)}
    gained = []
    for f in (0, 1, 0, 2, 1, 3):  # 1, 3, 1, 5, 3, 7
        before = s.score[0]
        card_ = by_family[f].pop()
        s.souv_deck.remove(card_)
        s._souvenir(0, card_)
        gained.append(s.score[0] - before)
    assert gained == [1, 3, 1, 5, 3, 7]
    assert s.score[0] == 4**2 + 2**2  # sum over sets of (families in it) squared
    assert s.invariant_errors() == []


def test_village_buys_and_returns_the_rest_under_the_deck(compiled):
    s = game(compiled, ["kinko", "umegae", "satsuki"])
    spread(s, [0, 30, 31])
    s.coins[0] = 3
    deck = s.souv_deck
    reveal = [card(s, "souv_ids", n) for n in ("souvenir-koma", "souvenir-haori", "souvenir-sumie")]
    for k in reversed(reveal):
        top(deck, k)
    move(s, 1)
    assert s.phase == P_VILLAGE and sorted(s.revealed) == sorted(reveal)
    buys = {a - s.t.a_buy for a in s.legal_actions()}
    masks = {sum(1 << s.revealed.index(k) for k in ks) for ks in ([], [reveal[0]], [reveal[1]])}
    assert masks <= buys and all(
        sum(s.t.c.souv_price[s.revealed[i]] for i in range(3) if m >> i & 1) <= 3 for m in buys
    )
    koma_haori = sum(1 << s.revealed.index(k) for k in reveal[:2])
    s.apply(s.t.a_buy + koma_haori)
    assert s.coins[0] == 0 and s.souv_n[0] == 2 and s.score[0] == 1 + 3
    assert deck[0] == reveal[2]  # the unbought card went under the deck


def test_sasayakko_cheapest_free_but_must_afford_all(compiled):
    s = game(compiled, ["sasayakko", "umegae", "satsuki"])
    assert s._village_cost(0, [1, 2, 3], 6) == 5
    assert s._village_cost(0, [1, 2, 3], 5) == -1  # she must be able to pay the full total
    assert s._village_cost(0, [2], 2) == 2  # a single card is paid in full


def test_zen_emon_one_souvenir_for_one_coin(compiled):
    s = game(compiled, ["zen-emon", "umegae", "satsuki"])
    assert s._village_cost(0, [3, 2], 3) == 3  # the 3 costs him 1
    assert s._village_cost(0, [1], 1) == 1
    assert s._village_cost(0, [3, 3], 3) == -1


def test_farm_temple_hot_spring(compiled):
    s = game(compiled, ["kinko", "umegae", "satsuki"])
    spread(s, [0, 30, 31])
    coins = s.coins[0]
    move(s, 7)  # farm
    assert s.coins[0] == coins + 3
    spread(s, [8, 30, 31])
    move(s, 9)  # temple
    assert s.phase == P_TEMPLE
    assert [a - s.t.a_donate for a in s.legal_actions()] == [1, 2, 3]
    s.apply(s.t.a_donate + 2)
    assert s.temple[0] == 2 and s.src[SRC["temple"]] == 2
    spread(s, [12, 30, 31])
    top(s.hot_deck, 1)  # a 3-point card
    move(s, 13)
    assert s.hot_n[0] == 1 and s.src[SRC["hot_springs"]] == 3


def test_panorama_achievement_to_the_first_only(compiled):
    s = game(compiled, ["kinko", "umegae", "satsuki"])
    paddy = s.t.c.pano_types.index("paddy")
    s.pano[paddy] = 2
    s.pano[3 + paddy] = 2
    spread(s, [0, 30, 31])
    move(s, 4)
    assert s.pano_ach[paddy] == 0 and s.score[0] == 3 + 3 and s.ach_n[0] == 1
    s._section(1, paddy)
    assert s.score[1] == 3 and s.ach_n[1] == 0


def test_encounter_kinds(compiled):
    s = game(compiled, ["kinko", "umegae", "satsuki"])
    c = s.t.c
    sea = c.pano_types.index("sea")

    def meet(name: str) -> None:
        top(s.enc_deck, card(s, "enc_ids", name))
        spread(s, [2, 30, 31])
        move(s, 3)

    meet("samurai")
    assert s.src[SRC["encounters"]] == 3
    coins = s.coins[0]
    meet("kuge")
    assert s.coins[0] == coins + 3
    meet("miko")
    assert s.temple[0] == 1 and s.src[SRC["encounters"]] == 4
    meet("shokunin")
    assert s.souv_n[0] == 1 and s.src[SRC["souvenirs"]] == 1
    meet("annaibito-sea")
    assert s.pano[sea] == 1 and s.src[SRC["panoramas"]] == 1
    assert s.enc_n[0] == 5 and s.invariant_errors() == []


def test_annaibito_other_panorama_once_its_own_is_complete(compiled):
    s = game(compiled, ["kinko", "umegae", "satsuki"])
    c = s.t.c
    paddy, mountain, sea = (c.pano_types.index(k) for k in ("paddy", "mountain", "sea"))
    s.pano[paddy] = 3
    top(s.enc_deck, card(s, "enc_ids", "annaibito-paddy"))
    spread(s, [2, 30, 31])
    move(s, 3)
    assert s.phase == P_PANO_PICK
    assert {a - s.t.a_pano for a in s.legal_actions()} == {mountain, sea}
    s.apply(s.t.a_pano + sea)
    assert s.pano[sea] == 1 and s.phase == P_MOVE
    s.pano[mountain] = 4
    s.pano[sea] = 5
    top(s.enc_deck, card(s, "enc_ids", "annaibito-mountain"))
    spread(s, [9, 30, 31])
    before = s.score[0]
    move(s, 10)  # everything complete: nothing to take
    assert s.score[0] == before and s.phase == P_MOVE


# ----- inns and meals (§6) ----------------------------------------------------------------------


def test_first_arrival_draws_players_plus_one(compiled):
    s = game(compiled, ["kinko", "umegae", "satsuki", "zen-emon"])
    spread(s, [13, 30, 31, 32])
    s.coins[0] = 0
    move(s, 14)
    assert len(s.meal_set) == 5
    g = game(compiled, ["kinko", "umegae", "satsuki", "zen-emon"], {"gastronomy": True})
    spread(g, [13, 30, 31, 32])
    g.coins[0] = 0
    move(g, 14)
    assert len(g.meal_set) == 4


def test_one_meal_no_repeated_dish_optional(compiled):
    s = game(compiled, ["umegae", "kinko", "zen-emon"])
    dango = card(s, "meal_ids", "meal-dango")
    s.dishes[0] = 1 << dango
    s.meals_n[0] = 1
    s.meal_deck.remove(dango)
    s.coins[0] = 10
    spread(s, [13, 30, 31])
    for k in [dango] + [m for m in range(len(s.t.c.meal_price)) if m != dango][:3]:
        top(s.meal_deck, k)
    move(s, 14)
    assert s.phase == P_MEAL
    acts = s.legal_actions()
    assert s.t.a_meal + dango not in acts and s.t.a_skip in acts
    eat = next(a for a in acts if a != s.t.a_skip)
    price = s.t.c.meal_price[eat - s.t.a_meal]
    s.apply(eat)
    assert s.coins[0] == 10 - price and s.meals_n[0] == 2 and s.src[SRC["meals"]] == 6
    assert s.phase == P_MOVE and s.invariant_errors() == []


def test_kinko_discount_and_gourmet_counts_printed_prices(compiled):
    s = game(compiled, ["kinko", "umegae", "satsuki"])
    one = next(m for m, p in enumerate(s.t.c.meal_price) if p == 1)
    three = next(m for m, p in enumerate(s.t.c.meal_price) if p == 3)
    assert s.meal_cost(0, one) == 0 and s.meal_cost(0, three) == 2 and s.meal_cost(1, three) == 3
    s.coins[0] = 2
    spread(s, [13, 30, 31])
    top(s.meal_deck, three)
    move(s, 14)
    s.apply(s.t.a_meal + three)
    assert s.coins[0] == 0 and s.meal_sum[0] == 3


def test_satsuki_free_meal_or_buy(compiled):
    s = game(compiled, ["satsuki", "umegae", "kinko"])
    s.coins[0] = 0
    spread(s, [13, 30, 31])
    move(s, 14)
    assert s.offer >= 0 and s.t.a_free in s.legal_actions()
    dish = s.meal_set[s.offer]
    s.apply(s.t.a_free)
    assert s.dishes[0] == 1 << dish and s.coins[0] == 0 and s.src[SRC["meals"]] == 6
    assert s.meal_sum[0] == s.t.c.meal_price[dish]


def test_hiroshige_and_chuubei_at_intermediate_inns_only(compiled):
    s = game(compiled, ["hiroshige", "chuubei", "kinko"])
    s.coins[0] = s.coins[1] = 0
    spread(s, [13, 30, 31])
    move(s, 14)
    assert s.phase == P_PANO_PICK and len(s.legal_actions()) == 3
    s.apply(s.legal_actions()[0])
    assert sum(s.pano[0:3]) == 1
    samurai = card(s, "enc_ids", "samurai")
    top(s.enc_deck, samurai)
    spread(s, [14, 13, 31])
    move(s, 14)
    assert s.enc_n[1] == 1 and s.src[1 * len(SOURCES) + SRC["encounters"]] == 3
    edo = game(compiled, ["hiroshige", "chuubei", "kinko"])
    spread(edo, [54, 53, 54])
    edo.coins[1] = 0
    move(edo, 54)
    assert edo.enc_n[1] == 0  # Edo is not an intermediate inn


def test_umegae_yoshiyasu_mitsukuni_hirotada(compiled):
    s = game(compiled, ["umegae", "yoshiyasu", "mitsukuni", "hirotada"])
    kuge = card(s, "enc_ids", "kuge")
    top(s.enc_deck, kuge)
    coins = s.coins[0]
    spread(s, [2, 30, 31, 32])
    move(s, 3)
    assert s.coins[0] == coins + 1 + 3 and s.src[SRC["encounters"]] == 1
    samurai = card(s, "enc_ids", "samurai")
    miko = card(s, "enc_ids", "miko")
    top(s.enc_deck, samurai)
    top(s.enc_deck, miko)
    spread(s, [30, 2, 31, 32])
    move(s, 3)
    assert s.phase == P_ENC_PICK and {a - s.t.a_enc for a in s.legal_actions()} == {samurai, miko}
    s.apply(s.t.a_enc + samurai)
    assert s.enc_n[1] == 1 and s.enc_deck[0] == miko  # the other under the deck
    top(s.hot_deck, 0)
    spread(s, [30, 31, 12, 32])
    move(s, 13)
    assert s.src[2 * len(SOURCES) + SRC["hot_springs"]] == s.t.c.hot_points[0] + 1
    spread(s, [30, 31, 32, 1])
    move(s, 2)
    s.apply(s.t.a_donate + 1)
    assert s.temple[3] == 2 and s.score[3] == 2  # one of his coins and one from the bank


# ----- scoring (§9) -----------------------------------------------------------------------------


def test_temple_ranking_dense_ties_and_donors_only():
    bonus = [10, 7, 4, 2]
    assert temple_bonuses([5, 5, 3, 0], bonus) == [10, 10, 7, 0]
    assert temple_bonuses([1, 2, 3, 4, 5], bonus) == [2, 2, 4, 7, 10]
    assert temple_bonuses([0, 0], bonus) == [0, 0]


def test_end_achievements_and_winner_ties():
    assert end_winners([3, 3, 1]) == [0, 1]
    assert end_winners([0, 0, 0]) == []
    assert winners([50, 50, 40], [2, 1, 0]) == [0]
    assert winners([50, 50, 40], [2, 2, 0]) == [0, 1]


def test_end_scoring_mitsukuni_counts_shared_achievement(compiled):
    s = game(compiled, ["mitsukuni", "kinko", "umegae"])
    s.hot_n[:] = [2, 2, 0]
    s.enc_n[:] = [0, 0, 0]
    s._finish()
    bather = 3
    assert s.src[SRC["achievements"]] == bather + 1 and s.src[6 + 7] == bather
    assert s.is_terminal() and sum(s.returns()) == pytest.approx(1.0)


# ----- two players (§10) ------------------------------------------------------------------------


def test_neutral_moved_by_the_leader_temple_coin_and_meal_discard(compiled):
    s = game(compiled, ["kinko", "umegae"])
    assert s.t.travellers == 3 and s.t.neutral == 2
    spread(s, [30, 31, 1])
    assert s.mover == 2 and s.actor == 1  # seat 1 is first on the road
    move(s, 2)  # temple
    assert s.temple[2] == 1 and s.score == [0, 0]
    spread(s, [30, 31, 13])
    meals = len(s.meal_deck)
    move(s, 14)
    assert len(s.meal_set) == 3 and len(s.meal_deck) == meals - 4 + 1  # drew 4, discarded 1


# ----- bots, determinism, contract --------------------------------------------------------------


def test_greedy_beats_random(compiled):
    setup = GameSetup(4)
    bots = [GreedyBot(), RandomBot(), RandomBot(), RandomBot()]
    wins = sum(play_one(compiled, setup, bots, i, 3).returns[0] for i in range(40))
    assert wins >= 22


def test_greedy_takes_completing_panorama_and_free_meal(compiled):
    s = game(compiled, ["satsuki", "kinko", "umegae"])
    s.coins[0] = 0
    spread(s, [13, 30, 31])
    move(s, 14)
    assert GreedyBot().choose(s, __import__("random").Random(1)) == s.t.a_free


def test_same_seed_same_records_any_workers():
    config = SimConfig(GAME_DIR, GameSetup(3), ("greedy",), seed=5, games=40, batch=7)
    assert run(config, workers=1) == run(config, workers=2)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_play_contract(compiled, players):
    assert random_play_check(compiled, GameSetup(players), 120, seed=players, probe_every=5) == []


@pytest.mark.parametrize(
    "options", [{"initiation": True}, {"return_trip": True}, {"preparations": True}]
)
def test_variants_play(compiled, options):
    assert random_play_check(compiled, GameSetup(4, options), 30, seed=1) == []
    assert random_play_check(compiled, GameSetup(2, options), 30, seed=2) == []


def test_preparations_coins_by_departure(compiled):
    s = compiled.new_state(GameSetup(4, {"preparations": True, "initiation": True}), 3)
    assert isinstance(s, TokaidoState)
    leaving = sorted(range(4), key=lambda seat: -s.kyoto[seat])  # the back of the queue first
    assert [s.coins[seat] for seat in leaving] == [6, 7, 8, 9]


@pytest.mark.parametrize("players, neutral", [(3, False), (5, False), (2, True)])
def test_kyoto_queue_is_random_and_its_back_plays_first(compiled, players, neutral):
    """§3.7: the pawns queue in Kyoto in random order (not seat 0 first); the first seat to
    move is the report's first player."""
    firsts = set()
    for seed in range(40):
        s = compiled.new_state(GameSetup(players, {"initiation": True}), seed)
        assert isinstance(s, TokaidoState)
        assert sorted(s.lane) == list(range(s.t.travellers))  # one place each, neutral too
        if s.mover != s.t.neutral:  # a neutral pawn at the back moves before any seat
            assert s.current_player() == s.first_player() == s.mover
        firsts.add(s.first_player())
    assert firsts == set(range(players))


# ----- G checks ----------------------------------------------------------------------------------


def test_bundled_content_passes_g_checks():
    found = [d for d in run_checks(load_game(GAME_DIR)) if d.code.startswith("G")]
    assert found == []


BROKEN = [  # (code, file, [(old, new)], line, col): the first edit of the file only
    ("G401", "boards/road.yaml", [("inn 1\n  - kind: inn", "inn 1\n  - kind: farm")], 37, 11),
    (
        "G402",
        "boards/road.yaml",
        [("counter\n  - kind: paddy", "counter\n  - kind: village")],
        17,
        5,
    ),
    (
        "G403",
        "boards/road.yaml",
        [
            (
                "temple\n  - kind: encounter\n  - kind: paddy",
                "encounter\n  - kind: temple\n  - kind: paddy",
            )
        ],
        19,
        11,
    ),
    ("G404", "boards/road.yaml", [("  - kind: farm\n  # 27", "  - kind: castle\n  # 27")], 56, 11),
    (
        "G405",
        "decks/panoramas.yaml",
        [("section: 2\n    points: 2", "section: 2\n    points: 5")],
        31,
        13,
    ),
    ("G406", "decks/hot_springs.yaml", [("points: 3", "points: 4")], 25, 13),
    (
        "G407",
        "decks/encounters.yaml",
        [("en: Annaibito\n    copies: 2", "en: Annaibito\n    copies: 3")],
        30,
        13,
    ),
    (
        "G408",
        "decks/souvenirs.yaml",
        [("family: food_drink\n    price: 2", "family: food_drink\n    price: 1")],
        149,
        13,
    ),
    ("G409", "decks/meals.yaml", [("price: 1\n    copies: 3", "price: 1\n    copies: 2")], 21, 13),
    ("G410", "decks/achievements.yaml", [("measure: meal_prices", "measure: souvenirs")], 13, 1),
    ("G411", "decks/travellers.yaml", [("coins: 7", "coins: 8")], 71, 12),
    ("G412", "game.yaml", [("farm_coins: 3", "farm_coins: 4")], 19, 15),
    ("G413", "game.yaml", [("travellers_dealt: 2", "travellers_dealt: 3")], 32, 21),
    ("G414", "decks/travellers.yaml", [("es: Kinko", "es: Kinkó")], 65, 11),
    ("G415", "decks/meals.yaml", [("back: tk-back", "back: back")], 12, 7),
    ("G415", "decks/hot_springs.yaml", [("back: tk-back", "back: back")], 11, 7),
]


def broken_copy(tmp_path: Path, edits: dict[str, list[tuple[str, str]]]) -> Path:
    root = tmp_path / "tokaido"
    shutil.copytree(GAME_DIR, root)
    for page in (root / "rulebook").glob("*.md"):  # keep the rulebook neutral
        page.write_text("# Rules\n\nPlay.\n", encoding="utf-8")
    for rel, pairs in edits.items():
        path = root / rel
        text = path.read_text(encoding="utf-8")
        for old, new in pairs:
            assert old in text, old
            text = text.replace(old, new, 1)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize(("code", "rel", "edits", "line", "col"), BROKEN)
def test_g_checks_fire_at_the_node(tmp_path, code, rel, edits, line, col):
    shared = {
        "G415": {
            "decks/meals.yaml": [("back: tk-back", "back: back")],
            "decks/hot_springs.yaml": [("back: tk-back", "back: back")],
        }
    }
    root = broken_copy(tmp_path, shared.get(code, {rel: edits}))
    found = [d for d in run_checks(load_game(root)) if d.code == code]
    assert found, f"{code} did not fire"
    here = [(d.line, d.col) for d in found if d.file.endswith(Path(rel).name)]
    assert (line, col) in here, (here, [d.message for d in found])


# ----- end to end ------------------------------------------------------------------------------


def test_simulate_cli_reports_travellers_and_points_by_source(run_cli, tmp_path):
    import json

    out = tmp_path / "report.json"
    result = run_cli("simulate", "tokaido", "-n", "60", "--players", "3", "--json", str(out))
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    roles = {row["role"] for row in report["roles_win"]}
    assert roles <= set(compile_game(load_game(GAME_DIR)).content.trav_ids) and len(roles) >= 8
    assert all("p_adjusted" in row and "lo" in row for row in report["roles_win"])
    for name in SOURCES:
        assert f"points_{name}" in report["figures"]
    assert {"coins_spent", "coins_left", "points_total"} <= set(report["figures"])
    assert report["timeouts"]["rate"] == 0.0 and report["first_player_advantage"] is not None
    means = report["figures"]
    total = sum(means[f"points_{name}"]["mean"] for name in SOURCES)
    assert total == pytest.approx(means["points_total"]["mean"])
